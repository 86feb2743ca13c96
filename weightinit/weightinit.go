// Package weightinit makes the starting values of weights under DL4J's
// WeightInit names: Xavier (Glorot) normal and uniform, Relu (He, Kaiming)
// normal and uniform, LeCun normal and uniform, the variance-scaling family,
// identity, zeros and ones, and the distributions orthogonal, truncated
// normal, normal, uniform and constant.
//
// Every draw comes from a *rand.Rand the caller gives (NewRand(seed) for a
// seeded one), so the same seed gives the same weights. The scale of a
// scheme depends on the weight's fan-in and fan-out, taken from its shape as
// DL4J's layers take them (FansOf): a dense weight [nIn, nOut] has fan-in nIn
// and fan-out nOut; a convolution weight [oC, iC, k...] has fan-in iC·∏k and
// fan-out oC·∏k (divided by the product of the strides: ConvFans).
//
// The values are drawn in float64 and rounded once to the array's dtype.
package weightinit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// Fans are a weight's fan-in and fan-out.
type Fans struct{ In, Out float64 }

// FansOf returns the fans DL4J's layers give a weight of this shape: a
// vector [n] (a bias) has fan-in and fan-out n; a dense weight [nIn, nOut]
// fan-in nIn and fan-out nOut; a convolution weight [oC, iC, k...] (rank 3
// to 5, DL4J's layout) fan-in iC·∏k and fan-out oC·∏k, as with stride 1
// (ConvFans takes the strides). A scalar has fans 1 and 1.
func FansOf(shape ...int) Fans {
	switch len(shape) {
	case 0:
		return Fans{1, 1}
	case 1:
		return Fans{float64(shape[0]), float64(shape[0])}
	case 2:
		return Fans{float64(shape[0]), float64(shape[1])}
	}
	f, _ := ConvFans(shape)
	return f
}

// ConvFans returns the fans of a convolution weight [oC, iC, k...] with the
// given strides (one per kernel axis; none means 1): fan-in iC·∏k, fan-out
// oC·∏k/∏stride, as DL4J's convolution layers compute them.
func ConvFans(shape []int, strides ...int) (Fans, error) {
	if len(shape) < 3 {
		return Fans{}, fmt.Errorf("weightinit: a convolution weight [oC, iC, k...] has rank 3 or more, not shape %v", shape)
	}
	if len(strides) != 0 && len(strides) != len(shape)-2 {
		return Fans{}, fmt.Errorf("weightinit: %d strides for a weight of shape %v with %d kernel axes", len(strides), shape, len(shape)-2)
	}
	k := 1.0
	for _, d := range shape[2:] {
		k *= float64(d)
	}
	s := 1.0
	for _, d := range strides {
		if d <= 0 {
			return Fans{}, fmt.Errorf("weightinit: stride %d in %v must be above 0", d, strides)
		}
		s *= float64(d)
	}
	return Fans{In: float64(shape[1]) * k, Out: float64(shape[0]) * k / s}, nil
}

// NewRand returns a generator seeded with seed (PCG), for reproducible
// weights.
func NewRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5d6f)) }

// Initializer fills a weight's values.
type Initializer interface {
	// Fill writes the values of a weight of the given shape (C order) into
	// w, whose length is the shape's size, drawing from r; f are the
	// weight's fans.
	Fill(w []float64, shape []int, f Fans, r *rand.Rand) error
	// String names the initializer (DL4J's name for a WeightInit scheme).
	String() string
}

// New returns an array of dtype dt and the given shape filled by in, with
// the fans FansOf gives the shape.
func New(in Initializer, dt ndarray.DType, r *rand.Rand, shape ...int) (*ndarray.Array, error) {
	return NewFans(in, dt, r, FansOf(shape...), shape...)
}

// NewFans is New with the fans given (ConvFans for strided convolutions).
func NewFans(in Initializer, dt ndarray.DType, r *rand.Rand, f Fans, shape ...int) (*ndarray.Array, error) {
	if in == nil || r == nil {
		return nil, fmt.Errorf("weightinit: no initializer or no random generator for a weight of shape %v", shape)
	}
	if !dt.IsFloat() {
		return nil, fmt.Errorf("weightinit: %v weights: initializers make float32 or float64 arrays", dt)
	}
	if err := ndarray.CheckShape(shape); err != nil {
		return nil, fmt.Errorf("weightinit: %v: %w", in, err)
	}
	n := 1
	for _, d := range shape {
		n *= d
	}
	w := make([]float64, n)
	if err := in.Fill(w, shape, f, r); err != nil {
		return nil, err
	}
	if dt == ndarray.Float32 {
		w32 := make([]float32, n)
		for i, v := range w {
			w32[i] = float32(v)
		}
		return ndarray.FromSlice(w32, shape...)
	}
	return ndarray.FromSlice(w, shape...)
}

// Var adds to g a trainable variable named name, of dtype dt and the given
// shape, holding values from in (with the fans FansOf gives the shape).
func Var(g *graph.Graph, name string, in Initializer, dt ndarray.DType, r *rand.Rand, shape ...int) (*graph.Variable, error) {
	a, err := New(in, dt, r, shape...)
	if err != nil {
		return nil, fmt.Errorf("weightinit: variable %q: %w", name, err)
	}
	v := g.Var(name, a)
	return v, v.Err()
}

// Scheme is one of DL4J's WeightInit schemes (all but DISTRIBUTION, whose
// distributions are the types Normal, Uniform, TruncatedNormal, Orthogonal
// and Constant). Its String is DL4J's enum name.
type Scheme int

// DL4J's schemes. a is the bound of a uniform U(-a, a), σ the standard
// deviation of a normal N(0, σ²).
const (
	Zero                    Scheme = iota // 0
	Ones                                  // 1
	SigmoidUniform                        // uniform, a = 4·√(6/(fanIn+fanOut))
	NormalFanIn                           // DL4J's NORMAL: normal, σ = 1/√fanIn
	LecunNormal                           // normal, σ = 1/√fanIn
	UniformFanIn                          // DL4J's UNIFORM: uniform, a = 1/√fanIn
	Xavier                                // Glorot normal: σ = √(2/(fanIn+fanOut))
	XavierUniform                         // Glorot uniform: a = √(6/(fanIn+fanOut))
	XavierFanIn                           // normal, σ = 1/√fanIn
	XavierLegacy                          // normal, σ = 1/√(shape[0]+shape[1])
	Relu                                  // He (Kaiming) normal: σ = √(2/fanIn)
	ReluUniform                           // He (Kaiming) uniform: a = √(6/fanIn)
	Identity                              // the identity matrix; for a convolution, identity kernels
	LecunUniform                          // uniform, a = 3/√fanIn (DL4J's bound, not Keras' √(3/fanIn))
	VarScalingNormalFanIn                 // normal, σ = 1/√fanIn
	VarScalingNormalFanOut                // normal, σ = 1/√fanOut
	VarScalingNormalFanAvg                // normal, σ = 1/√((fanIn+fanOut)/2)
	VarScalingUniformFanIn                // uniform, a = 3/√fanIn
	VarScalingUniformFanOut               // uniform, a = 3/√fanOut
	VarScalingUniformFanAvg               // uniform, a = 3/√((fanIn+fanOut)/2)
)

// The other names of the schemes.
const (
	GlorotNormal   = Xavier
	GlorotUniform  = XavierUniform
	HeNormal       = Relu
	HeUniform      = ReluUniform
	KaimingNormal  = Relu
	KaimingUniform = ReluUniform
)

var schemeNames = [...]string{"ZERO", "ONES", "SIGMOID_UNIFORM", "NORMAL", "LECUN_NORMAL", "UNIFORM", "XAVIER",
	"XAVIER_UNIFORM", "XAVIER_FAN_IN", "XAVIER_LEGACY", "RELU", "RELU_UNIFORM", "IDENTITY", "LECUN_UNIFORM",
	"VAR_SCALING_NORMAL_FAN_IN", "VAR_SCALING_NORMAL_FAN_OUT", "VAR_SCALING_NORMAL_FAN_AVG",
	"VAR_SCALING_UNIFORM_FAN_IN", "VAR_SCALING_UNIFORM_FAN_OUT", "VAR_SCALING_UNIFORM_FAN_AVG"}

// String returns DL4J's name for s ("XAVIER_UNIFORM", ...).
func (s Scheme) String() string {
	if s < 0 || int(s) >= len(schemeNames) {
		return fmt.Sprintf("Scheme(%d)", int(s))
	}
	return schemeNames[s]
}

// Parse returns the scheme DL4J names name (as WeightInit's enum does,
// case aside).
func Parse(name string) (Scheme, error) {
	for i, n := range schemeNames {
		if strings.EqualFold(n, name) {
			return Scheme(i), nil
		}
	}
	return 0, fmt.Errorf("weightinit: no scheme named %q (DL4J's names: %s)", name, strings.Join(schemeNames[:], ", "))
}

// Scale returns the scheme's parameter for the fans and shape: the standard
// deviation σ of a normal scheme, the bound a of a uniform one, the value of
// Zero and Ones, 0 for Identity.
func (s Scheme) Scale(f Fans, shape []int) (float64, error) {
	avg := (f.In + f.Out) / 2
	var v, fan float64 // v computed from fan, which must be above 0
	switch s {
	case Zero, Identity:
		return 0, nil
	case Ones:
		return 1, nil
	case SigmoidUniform:
		fan, v = 2*avg, 4*math.Sqrt(6/(2*avg))
	case NormalFanIn, LecunNormal, XavierFanIn, VarScalingNormalFanIn:
		fan, v = f.In, 1/math.Sqrt(f.In)
	case UniformFanIn:
		fan, v = f.In, 1/math.Sqrt(f.In)
	case Xavier:
		fan, v = 2*avg, math.Sqrt(2/(2*avg))
	case XavierUniform:
		fan, v = 2*avg, math.Sqrt(6/(2*avg))
	case XavierLegacy:
		if len(shape) < 2 {
			return 0, fmt.Errorf("weightinit: %v needs a weight of rank 2 or more, not shape %v", s, shape)
		}
		fan = float64(shape[0] + shape[1])
		v = 1 / math.Sqrt(fan)
	case Relu:
		fan, v = f.In, math.Sqrt(2/f.In)
	case ReluUniform:
		fan, v = f.In, math.Sqrt(6/f.In)
	case LecunUniform, VarScalingUniformFanIn:
		fan, v = f.In, 3/math.Sqrt(f.In)
	case VarScalingNormalFanOut:
		fan, v = f.Out, 1/math.Sqrt(f.Out)
	case VarScalingUniformFanOut:
		fan, v = f.Out, 3/math.Sqrt(f.Out)
	case VarScalingNormalFanAvg:
		fan, v = avg, 1/math.Sqrt(avg)
	case VarScalingUniformFanAvg:
		fan, v = avg, 3/math.Sqrt(avg)
	default:
		return 0, fmt.Errorf("weightinit: unknown %v", s)
	}
	if !(fan > 0) || math.IsInf(fan, 0) {
		return 0, fmt.Errorf("weightinit: %v of a weight of shape %v with fans %v (in %v, out %v): the fan it scales by must be above 0",
			s, shape, fan, f.In, f.Out)
	}
	return v, nil
}

// uniform reports whether s draws from a uniform distribution (else a
// normal one, or none).
func (s Scheme) uniform() bool {
	switch s {
	case SigmoidUniform, UniformFanIn, XavierUniform, ReluUniform, LecunUniform,
		VarScalingUniformFanIn, VarScalingUniformFanOut, VarScalingUniformFanAvg:
		return true
	}
	return false
}

// Fill writes the scheme's values into w.
func (s Scheme) Fill(w []float64, shape []int, f Fans, r *rand.Rand) error {
	v, err := s.Scale(f, shape)
	if err != nil {
		return err
	}
	switch {
	case s == Identity:
		return fillIdentity(w, shape)
	case s == Zero || s == Ones:
		return Constant(v).Fill(w, shape, f, r)
	case s.uniform():
		return Uniform{-v, v}.Fill(w, shape, f, r)
	}
	return Normal{0, v}.Fill(w, shape, f, r)
}

// fillIdentity writes the identity: for [n, n] the identity matrix, for a
// convolution weight [n, n, k...] with odd kernel sizes a 1 at the kernel's
// centre of channel i to channel i (DL4J's identity for convolutions).
func fillIdentity(w []float64, shape []int) error {
	if len(shape) < 2 || len(shape) > 5 || shape[0] != shape[1] {
		return fmt.Errorf("weightinit: IDENTITY needs a square weight [n, n] or a convolution weight [n, n, k...] of rank up to 5, not shape %v", shape)
	}
	clear(w)
	// The offset of the kernel's centre within one [k...] block, and the
	// block's size.
	centre, block := 0, 1
	for i := len(shape) - 1; i >= 2; i-- {
		if shape[i]%2 == 0 {
			return fmt.Errorf("weightinit: IDENTITY of a convolution weight of shape %v needs odd kernel sizes", shape)
		}
		centre += shape[i] / 2 * block
		block *= shape[i]
	}
	n := shape[0]
	for i := 0; i < n; i++ {
		w[(i*n+i)*block+centre] = 1
	}
	return nil
}

// Constant sets every value to itself.
type Constant float64

// Fill writes c into every element of w.
func (c Constant) Fill(w []float64, _ []int, _ Fans, _ *rand.Rand) error {
	for i := range w {
		w[i] = float64(c)
	}
	return nil
}

// String names the initializer and its parameters.
func (c Constant) String() string { return fmt.Sprintf("Constant(%v)", float64(c)) }

// Normal draws from N(Mean, Std²).
type Normal struct{ Mean, Std float64 }

// Fill writes draws from N(Mean, Std²) into w.
func (d Normal) Fill(w []float64, _ []int, _ Fans, r *rand.Rand) error {
	if !(d.Std >= 0) || math.IsInf(d.Std, 0) {
		return fmt.Errorf("weightinit: %v: the standard deviation must be a number from 0 up", d)
	}
	for i := range w {
		w[i] = d.Mean + d.Std*r.NormFloat64()
	}
	return nil
}

// String names the initializer and its parameters.
func (d Normal) String() string { return fmt.Sprintf("Normal(%v, %v)", d.Mean, d.Std) }

// Uniform draws from U(Lo, Hi).
type Uniform struct{ Lo, Hi float64 }

// Fill writes draws from U(Lo, Hi) into w.
func (d Uniform) Fill(w []float64, _ []int, _ Fans, r *rand.Rand) error {
	if !(d.Lo <= d.Hi) || math.IsInf(d.Hi-d.Lo, 0) {
		return fmt.Errorf("weightinit: %v: the bounds must be numbers with Lo ≤ Hi", d)
	}
	for i := range w {
		w[i] = d.Lo + (d.Hi-d.Lo)*r.Float64()
	}
	return nil
}

// String names the initializer and its parameters.
func (d Uniform) String() string { return fmt.Sprintf("Uniform(%v, %v)", d.Lo, d.Hi) }

// TruncatedNormal draws from N(Mean, Std²), drawing again any value more than
// two standard deviations from the mean (as ND4J's truncated normal does).
type TruncatedNormal struct{ Mean, Std float64 }

// Fill writes draws from the truncated normal into w.
func (d TruncatedNormal) Fill(w []float64, _ []int, _ Fans, r *rand.Rand) error {
	if !(d.Std >= 0) || math.IsInf(d.Std, 0) {
		return fmt.Errorf("weightinit: %v: the standard deviation must be a number from 0 up", d)
	}
	for i := range w {
		z := r.NormFloat64()
		for math.Abs(z) > 2 {
			z = r.NormFloat64()
		}
		w[i] = d.Mean + d.Std*z
	}
	return nil
}

// String names the initializer and its parameters.
func (d TruncatedNormal) String() string {
	return fmt.Sprintf("TruncatedNormal(%v, %v)", d.Mean, d.Std)
}

// Orthogonal fills a weight with an orthogonal matrix times Gain (Saxe et
// al., ND4J's OrthogonalDistribution): the weight is seen as a matrix of
// rows ∏shape[:-1] and columns shape[-1]; its columns are orthonormal when
// there are at least as many rows as columns, else its rows are. The matrix
// is the Q of the QR factorization of a standard normal matrix, with the
// signs that make it uniformly (Haar) distributed.
type Orthogonal struct{ Gain float64 }

// String names the initializer and its parameters.
func (o Orthogonal) String() string { return fmt.Sprintf("Orthogonal(%v)", o.Gain) }

// Fill writes the orthogonal matrix into w.
func (o Orthogonal) Fill(w []float64, shape []int, _ Fans, r *rand.Rand) error {
	if len(shape) < 2 {
		return fmt.Errorf("weightinit: %v needs a weight of rank 2 or more, not shape %v", o, shape)
	}
	cols := shape[len(shape)-1]
	rows := len(w) / max(cols, 1)
	if len(w) == 0 {
		return nil
	}
	// q holds k orthonormal vectors of length m, one per row: the columns
	// of a tall matrix (m = rows), or the rows of a wide one.
	m, k := rows, cols
	if rows < cols {
		m, k = cols, rows
	}
	q := make([]float64, k*m)
	for i := range q {
		q[i] = r.NormFloat64()
	}
	// Modified Gram-Schmidt: each vector loses its projections on the ones
	// before it and is scaled to length 1. That is the QR factorization
	// with R's diagonal positive, whose Q is Haar distributed.
	for j := 0; j < k; j++ {
		v := q[j*m : (j+1)*m]
		for p := 0; p < j; p++ {
			u := q[p*m : (p+1)*m]
			d := dot(u, v)
			for i := range v {
				v[i] -= d * u[i]
			}
		}
		n := math.Sqrt(dot(v, v))
		if n == 0 {
			return fmt.Errorf("weightinit: %v: a degenerate draw; use another seed", o)
		}
		for i := range v {
			v[i] /= n
		}
	}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			if rows >= cols {
				w[i*cols+j] = o.Gain * q[j*m+i]
			} else {
				w[i*cols+j] = o.Gain * q[i*m+j]
			}
		}
	}
	return nil
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
