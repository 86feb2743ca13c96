package ops

import (
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/sdgo/sdgo/ndarray"
)

// Ops of SameDiff's random namespace (the legacy RANDOM distributions and
// random_exponential) and dropout, which SameDiff keeps in its NN namespace
// but which draws from the same streams.
//
// Element i of a random op's output is a function of the op's seed and of i
// alone, a counter-based generator: the values do not depend on the array's
// layout, on the order elements are computed in, on the machine or on the Go
// version, and a graph saved with its seeds gives the same numbers when
// loaded. The seed is int arg 0: sdgo's builders always write one (SameDiff
// writes none for the distributions; a node without one draws a fresh seed
// each run, as SameDiff draws from its global generator). The samples are
// computed in float64 with the basic IEEE operations, each product rounded
// on its own (no fused multiply-add) and with logarithm and exponential
// functions of this file rather than package math's, whose assembly
// versions differ between amd64 and arm64: the same seed gives the same
// bits on every machine.

// mix64 is a bijective 64-bit mixing function: every input bit affects every
// output bit (the finalizer of the SplitMix64 generator).
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// stream is the random stream of one op: draw(i, j) is the j-th 64-bit
// draw for output element i.
type stream struct{ key uint64 }

// salts keep the streams of different ops with one seed apart.
const (
	saltUniform uint64 = iota + 1
	saltGaussian
	saltBernoulli
	saltBinomial
	saltLogNormal
	saltTruncated
	saltExponential
	saltDropout
)

func newStream(seed int64, salt uint64) stream {
	return stream{key: mix64(mix64(uint64(seed)) + salt*0x9e3779b97f4a7c15)}
}

func (s stream) draw(i, j uint64) uint64 {
	return mix64(mix64(s.key+i) + (j+1)*0x9e3779b97f4a7c15)
}

// uniform is draw(i, j) as a float64 in [0, 1): its top 53 bits, exactly.
func (s stream) uniform(i, j uint64) float64 {
	return float64(s.draw(i, j)>>11) * 0x1p-53
}

// normal is a standard normal sample for element i (Marsaglia's polar
// method: pairs of uniform draws until one falls inside the unit circle).
// Draws from start on are used; next is the first one left unused.
func (s stream) normal(i, start uint64) (z float64, next uint64) {
	for j := start; ; j += 2 {
		u := 2*s.uniform(i, j) - 1
		v := 2*s.uniform(i, j+1) - 1
		q := float64(u*u) + float64(v*v)
		if q > 0 && q < 1 {
			return u * math.Sqrt(float64(-2*plog(q))/q), j + 2
		}
	}
}

// The split of ln 2 into a part with trailing zeros, so that k·ln2Hi is
// exact for the k of any float64, and the rest.
const (
	ln2Hi = 6.93147180369123816490e-01
	ln2Lo = 1.90821492927058770002e-10
)

// plog is the natural logarithm of x > 0 within a few ulp, the same bits on
// every machine: x = m·2^e with m in [√½, √2), and ln m = 2·atanh(s), s =
// (m-1)/(m+1), summed as s·Σ s^2k/(2k+1) to the term below float64's
// precision (|s| ≤ 0.172).
func plog(x float64) float64 {
	if x <= 0 || math.IsNaN(x) || math.IsInf(x, 1) {
		return math.Log(x) // -Inf, NaN, +Inf: exact whatever the machine
	}
	m, e := math.Frexp(x)
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	s := (m - 1) / (m + 1)
	z := float64(s * s)
	p := 1.0 / 25
	for k := 11; k >= 0; k-- {
		p = float64(p*z) + 1/float64(2*k+1)
	}
	fe := float64(e)
	return float64(fe*ln2Hi) + (float64(fe*ln2Lo) + float64(2*s*p))
}

// pexp is e^x within a few ulp, the same bits on every machine: x = k·ln 2
// + r with |r| ≤ ln 2 / 2, and e^r by its Taylor series.
func pexp(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case x > 709.78:
		return math.Inf(1)
	case x < -745.2:
		return 0
	}
	k := math.Round(x / math.Ln2)
	r := float64(x-float64(k*ln2Hi)) - float64(k*ln2Lo)
	p := 1.0
	for n := 18; n >= 1; n-- {
		p = 1 + float64(r*p)/float64(n)
	}
	return math.Ldexp(p, int(k))
}

// unseeded hands out the seeds of the random ops that have none: a new one
// each run.
var unseeded atomic.Uint64

func init() { unseeded.Store(uint64(time.Now().UnixNano())) }

// SetRandomSeed makes the seeds that random ops without one take (a node
// without int arg 0, the unseeded dropout of package layers) follow from
// seed, as ND4J's Nd4j.getRandom().setSeed does for SameDiff: after it, the
// same sequence of runs draws the same numbers, so a training run with
// dropout repeats. The seeds are handed out in the order ops start, so only
// a program that runs one graph at a time, with Session.Parallel at most 1,
// repeats exactly. The process starts from a seed of the clock.
func SetRandomSeed(seed int64) { unseeded.Store(uint64(seed)) }

// seedOf is the op's seed, int arg 0, or a fresh one when it has none.
func seedOf(a *Args) int64 {
	if a != nil && len(a.I) > 0 {
		return a.I[0]
	}
	return int64(mix64(unseeded.Add(0x9e3779b97f4a7c15)))
}

// randomDType is the dtype of a random op's output: dtype arg 0, float32
// when absent (SameDiff's default).
func randomDType(name string, a *Args) (ndarray.DType, error) {
	dt := a.DType(0, ndarray.Float32)
	if !dt.IsFloat() || !dt.Computable() {
		return dt, fmt.Errorf("%s: its output must be float32 or float64, not %v", name, dt)
	}
	return dt, nil
}

// shapeInfo infers the output of an op whose shape is input 0's value.
func shapeInfo(dt ndarray.DType, in Info) Info {
	if s, ok := constInts(in); ok {
		return Info{DType: dt, Shape: s}
	}
	if !in.UnknownRank && len(in.Shape) == 1 && in.Shape[0] >= 0 {
		return Info{DType: dt, Shape: unknownShape(in.Shape[0])}
	}
	return Info{DType: dt, UnknownRank: true}
}

// sampler computes element i of a distribution from its stream and the
// op's float arguments.
type sampler func(s stream, i uint64, p []float64) float64

// randomDef defines a random op that draws an array of the shape held by
// its one input (an integer vector) from a distribution with nf float
// arguments (params names them, for errors and Doc).
func randomDef(name string, t OpType, num int64, salt uint64, params []string, check func(p []float64) error, f sampler, doc string) *Def {
	return &Def{
		Name: name, Type: t, Num: num, MinIn: 1, MaxIn: 1, NonDiff: []int{0}, Flags: NoInference, Doc: doc,
		Infer: func(in []Info, a *Args) ([]Info, error) {
			dt, err := randomDType(name, a)
			if err != nil {
				return nil, err
			}
			if !in[0].DType.IsInt() {
				return nil, fmt.Errorf("%s: the shape input must be an integer vector, not %v", name, in[0].DType)
			}
			if err := randomParams(name, params, check, a); err != nil {
				return nil, err
			}
			return infos(shapeInfo(dt, in[0])), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			dt, err := randomDType(name, a)
			if err != nil {
				return nil, err
			}
			if err := randomParams(name, params, check, a); err != nil {
				return nil, err
			}
			shape, err := arrayInts(name+"'s shape input", in[0])
			if err != nil {
				return nil, err
			}
			if in[0].Rank() > 1 {
				return nil, fmt.Errorf("%s: the shape input has shape %v; it must be a vector", name, in[0].Shape())
			}
			for _, d := range shape {
				if d < 0 {
					return nil, fmt.Errorf("%s: shape %v has a negative size", name, shape)
				}
			}
			out, err := c.TryAlloc(dt, shape)
			if err != nil {
				return nil, fmt.Errorf("%s of shape %v: %w", name, shape, err)
			}
			s := newStream(seedOf(a), salt)
			p := a.F[:len(params)]
			switch dt {
			case ndarray.Float32:
				fillRandom(ndarray.Raw[float32](out), s, p, f)
			case ndarray.Float64:
				fillRandom(ndarray.Raw[float64](out), s, p, f)
			}
			return []*ndarray.Array{out}, nil
		},
	}
}

// randomParams checks that the op has its float arguments and that check
// accepts them.
func randomParams(name string, params []string, check func(p []float64) error, a *Args) error {
	if len(a.F) < len(params) {
		return fmt.Errorf("%s takes float args %v; it has %d", name, params, len(a.F))
	}
	if check != nil {
		if err := check(a.F[:len(params)]); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

func fillRandom[T float32 | float64](d []T, s stream, p []float64, f sampler) {
	for i := range d {
		d[i] = T(f(s, uint64(i), p))
	}
}

// Checks of the distributions' parameters.
func finite(p []float64) error {
	for _, v := range p {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("parameters %v: each must be finite", p)
		}
	}
	return nil
}

func stddevOK(p []float64) error {
	if err := finite(p); err != nil {
		return err
	}
	if p[1] < 0 {
		return fmt.Errorf("standard deviation %v is negative", p[1])
	}
	return nil
}

func probOK(p float64) error {
	if !(p >= 0 && p <= 1) {
		return fmt.Errorf("probability %v is outside [0, 1]", p)
	}
	return nil
}

var (
	uniformOp = Register(randomDef("distribution_uniform", Random, 0, saltUniform, []string{"from", "to"}, finite,
		func(s stream, i uint64, p []float64) float64 { return p[0] + float64((p[1]-p[0])*s.uniform(i, 0)) },
		"uniform in [from, to): input the shape; float args from, to; int arg 0 the seed; dtype arg 0 (float32)"))
	gaussianOp = Register(randomDef("distribution_gaussian", Random, 6, saltGaussian, []string{"mean", "stddev"}, stddevOK,
		func(s stream, i uint64, p []float64) float64 {
			z, _ := s.normal(i, 0)
			return p[0] + float64(p[1]*z)
		},
		"normal with the mean and standard deviation of float args 0, 1: input the shape; int arg 0 the seed; dtype arg 0 (float32)"))
	bernoulliOp = Register(randomDef("distribution_bernoulli", Random, 7, saltBernoulli, []string{"prob"},
		func(p []float64) error { return probOK(p[0]) },
		func(s stream, i uint64, p []float64) float64 {
			if s.uniform(i, 0) < p[0] {
				return 1
			}
			return 0
		},
		"1 with the probability of float arg 0, else 0: input the shape; int arg 0 the seed; dtype arg 0 (float32)"))
	binomialOp = Register(randomDef("distribution_binomial", Random, 8, saltBinomial, []string{"trials", "prob"},
		func(p []float64) error {
			if !(p[0] >= 0 && p[0] <= 1<<20 && p[0] == math.Trunc(p[0])) {
				return fmt.Errorf("%v trials: a whole number from 0 to 2^20", p[0])
			}
			return probOK(p[1])
		},
		func(s stream, i uint64, p []float64) float64 {
			k := 0
			for j := uint64(0); j < uint64(p[0]); j++ {
				if s.uniform(i, j) < p[1] {
					k++
				}
			}
			return float64(k)
		},
		"the number of successes in float arg 0 trials of probability float arg 1: input the shape; int arg 0 the seed; dtype arg 0 (float32)"))
	logNormalOp = Register(randomDef("distribution_lognormal", Random, 10, saltLogNormal, []string{"mean", "stddev"}, stddevOK,
		func(s stream, i uint64, p []float64) float64 {
			z, _ := s.normal(i, 0)
			return pexp(p[0] + float64(p[1]*z))
		},
		"e^N where N is normal with the mean and standard deviation of float args 0, 1: input the shape; int arg 0 the seed; dtype arg 0 (float32)"))
	truncatedOp = Register(randomDef("distribution_truncated", Random, 11, saltTruncated, []string{"mean", "stddev"}, stddevOK,
		func(s stream, i uint64, p []float64) float64 {
			// Samples more than two standard deviations from the mean are
			// drawn again, as libnd4j's truncated normal does.
			for j := uint64(0); ; {
				z, next := s.normal(i, j)
				if math.Abs(z) <= 2 {
					return p[0] + float64(p[1]*z)
				}
				j = next
			}
		},
		"normal with the mean and standard deviation of float args 0, 1, redrawn beyond two standard deviations: input the shape; int arg 0 the seed; dtype arg 0 (float32)"))
	exponentialOp = Register(randomDef("random_exponential", Custom, 0, saltExponential, []string{"lambda"},
		func(p []float64) error {
			if !(p[0] > 0) || math.IsInf(p[0], 1) {
				return fmt.Errorf("rate %v: it must be positive and finite", p[0])
			}
			return nil
		},
		func(s stream, i uint64, p []float64) float64 { return -plog(1-s.uniform(i, 0)) / p[0] },
		"exponential with the rate of float arg 0: input the shape; int arg 0 the seed; dtype arg 0 (float32)"))
)

// ---------------------------------------------------------------- dropout

// dropoutArgs reads dropout's arguments (libnd4j's layout): float arg 0 the
// probability of keeping an element (of dropping it when bool arg 0,
// inverted, is set), int arg 0 the seed.
func dropoutArgs(name string, a *Args) (keep float64, seed int64, err error) {
	if len(a.F) == 0 {
		return 0, 0, fmt.Errorf("%s: no probability (float arg 0)", name)
	}
	if len(a.I) == 0 {
		return 0, 0, fmt.Errorf("%s: no seed (int arg 0); its gradient needs the forward pass's mask", name)
	}
	keep = a.F[0]
	if a.Bool(0, false) {
		keep = 1 - keep
	}
	if !(keep > 0 && keep <= 1) {
		return 0, 0, fmt.Errorf("%s: the probability of keeping an element is %v; it must be in (0, 1]", name, keep)
	}
	return keep, a.I[0], nil
}

// dropoutMask returns the mask that multiplies x: 1/keep where an element
// is kept, 0 where it is dropped, in x's dtype, of the noise shape (one
// draw per element, broadcast over x) or of x's shape.
func dropoutMask(c *Ctx, name string, x *ndarray.Array, noise []*ndarray.Array, keep float64, seed int64) (*ndarray.Array, error) {
	shape := x.Shape()
	if len(noise) > 0 {
		var err error
		if shape, err = arrayInts(name+"'s noise shape", noise[0]); err != nil {
			return nil, err
		}
		if !ndarray.CanBroadcastTo(shape, x.Shape()) {
			return nil, fmt.Errorf("%s: noise shape %v does not broadcast to the input's shape %v", name, shape, x.Shape())
		}
	}
	m := c.Alloc(x.DType(), shape)
	s := newStream(seed, saltDropout)
	switch x.DType() {
	case ndarray.Float32:
		fillMask(ndarray.Raw[float32](m), s, keep)
	case ndarray.Float64:
		fillMask(ndarray.Raw[float64](m), s, keep)
	}
	return m, nil
}

func fillMask[T float32 | float64](d []T, s stream, keep float64) {
	scale := T(1 / keep)
	for i := range d {
		if s.uniform(uint64(i), 0) < keep {
			d[i] = scale
		} else {
			d[i] = 0
		}
	}
}

// dropoutRun multiplies v by the mask of x's dropout (v is x itself in the
// forward op, the output gradient in dropout_bp).
func dropoutRun(c *Ctx, name string, x, v *ndarray.Array, noise []*ndarray.Array, a *Args) (*ndarray.Array, error) {
	keep, seed, err := dropoutArgs(name, a)
	if err != nil {
		return nil, err
	}
	if !x.DType().IsFloat() || !x.DType().Computable() {
		return nil, fmt.Errorf("%s needs a float32 or float64 input, not %v", name, x.DType())
	}
	if v.DType() != x.DType() || !ndarray.SameShape(v.Shape(), x.Shape()) {
		return nil, fmt.Errorf("%s: gradient %v%v for input %v%v", name, v.DType(), v.Shape(), x.DType(), x.Shape())
	}
	out := c.Alloc(x.DType(), x.Shape())
	if keep == 1 {
		return out, ndarray.CopyInto(out, v)
	}
	m, err := dropoutMask(c, name, x, noise, keep, seed)
	if err != nil {
		return nil, err
	}
	defer c.Release(m)
	return out, ndarray.BinaryInto(ndarray.Mul, out, v, m)
}

var (
	// dropoutOp is libnd4j's dropout (SameDiff's CustomDropOut): each
	// element kept with probability p and scaled by 1/p, or set to 0.
	dropoutOp = Register(&Def{
		Name: "dropout", Type: Custom, MinIn: 1, MaxIn: 2, NonDiff: []int{1},
		Doc: "x·mask/p, mask 1 with probability p: input x and an optional noise shape (mask drawn per its element, broadcast); float arg 0 p (the drop probability when bool arg 0, inverted, is set); int arg 0 the seed",
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if err := needFloat("dropout", in[0]); err != nil {
				return nil, err
			}
			if _, _, err := dropoutArgs("dropout", a); err != nil {
				return nil, err
			}
			return infos(same(in[0])), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			return one(dropoutRun(c, "dropout", in[0], in[0], in[1:], a))
		},
		Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
			in := append([]Value{n.In[0], d[0]}, n.In[1:]...)
			return append(b.Op("dropout_bp", n.Args.Clone(), in...), nil)[:len(n.In)]
		},
	})
	dropoutBpOp = Register(&Def{
		Name: "dropout_bp", Type: Custom, MinIn: 2, MaxIn: 3, NonDiff: []int{0, 1, 2},
		Doc: "dropout's gradient for inputs x, gradO and the optional noise shape: gradO times the forward pass's mask (the same seed and arguments)",
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if err := needFloat("dropout_bp", in[0]); err != nil {
				return nil, err
			}
			if _, _, err := dropoutArgs("dropout_bp", a); err != nil {
				return nil, err
			}
			return infos(same(in[0])), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			return one(dropoutRun(c, "dropout_bp", in[0], in[1], in[2:], a))
		},
	})
)
