package weightinit_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/weightinit"
)

// moments returns the sample mean and the (biased) sample variance.
func moments(w []float64) (mean, variance float64) {
	for _, v := range w {
		mean += v
	}
	mean /= float64(len(w))
	for _, v := range w {
		variance += (v - mean) * (v - mean)
	}
	return mean, variance / float64(len(w))
}

// The tolerances are five standard errors of the statistic for n draws: the
// mean's is σ/√n; the sample variance's is √((μ4-σ⁴)/n), with μ4 = 3σ⁴ for
// a normal (so σ²√(2/n)), a⁴/5 for U(-a, a) (σ² = a²/3, so √(4a⁴/(45n))),
// and less than 3σ⁴ for a truncated normal (bounded by σ²√(3/n)).
const z = 5

func checkNormal(t *testing.T, what string, w []float64, std float64) {
	t.Helper()
	n := float64(len(w))
	m, v := moments(w)
	if math.Abs(m) > z*std/math.Sqrt(n) {
		t.Errorf("%s: mean %v, want 0 ± %v", what, m, z*std/math.Sqrt(n))
	}
	if tol := z * std * std * math.Sqrt(2/n); math.Abs(v-std*std) > tol {
		t.Errorf("%s: variance %v, want %v ± %v", what, v, std*std, tol)
	}
}

func checkUniform(t *testing.T, what string, w []float64, a float64) {
	t.Helper()
	n := float64(len(w))
	m, v := moments(w)
	if tol := z * a / math.Sqrt(3*n); math.Abs(m) > tol {
		t.Errorf("%s: mean %v, want 0 ± %v", what, m, tol)
	}
	if tol := z * math.Sqrt(4*math.Pow(a, 4)/(45*n)); math.Abs(v-a*a/3) > tol {
		t.Errorf("%s: variance %v, want %v ± %v", what, v, a*a/3, tol)
	}
	for _, x := range w {
		if x < -a || x > a {
			t.Fatalf("%s: %v outside [-%v, %v]", what, x, a, a)
		}
	}
}

// Each scheme's scale for a dense weight [200, 300] (fan-in 200, fan-out
// 300), worked out by hand from DL4J's formulas (WeightInitUtil), and the
// draws' moments.
func TestSchemesDense(t *testing.T) {
	cases := []struct {
		s       weightinit.Scheme
		uniform bool
		scale   float64
	}{
		{weightinit.Xavier, false, math.Sqrt(2.0 / 500)},
		{weightinit.GlorotUniform, true, math.Sqrt(6.0 / 500)},
		{weightinit.HeNormal, false, math.Sqrt(2.0 / 200)},
		{weightinit.KaimingUniform, true, math.Sqrt(6.0 / 200)},
		{weightinit.LecunNormal, false, 1 / math.Sqrt(200)},
		{weightinit.LecunUniform, true, 3 / math.Sqrt(200)},
		{weightinit.NormalFanIn, false, 1 / math.Sqrt(200)},
		{weightinit.UniformFanIn, true, 1 / math.Sqrt(200)},
		{weightinit.XavierFanIn, false, 1 / math.Sqrt(200)},
		{weightinit.XavierLegacy, false, 1 / math.Sqrt(500)},
		{weightinit.SigmoidUniform, true, 4 * math.Sqrt(6.0/500)},
		{weightinit.VarScalingNormalFanIn, false, 1 / math.Sqrt(200)},
		{weightinit.VarScalingNormalFanOut, false, 1 / math.Sqrt(300)},
		{weightinit.VarScalingNormalFanAvg, false, 1 / math.Sqrt(250)},
		{weightinit.VarScalingUniformFanIn, true, 3 / math.Sqrt(200)},
		{weightinit.VarScalingUniformFanOut, true, 3 / math.Sqrt(300)},
		{weightinit.VarScalingUniformFanAvg, true, 3 / math.Sqrt(250)},
	}
	for i, c := range cases {
		got, err := c.s.Scale(weightinit.FansOf(200, 300), []int{200, 300})
		if err != nil || math.Abs(got-c.scale) > 1e-15 {
			t.Errorf("%v: scale %v (%v), want %v", c.s, got, err, c.scale)
		}
		a, err := weightinit.New(c.s, ndarray.Float64, weightinit.NewRand(uint64(i)), 200, 300)
		if err != nil {
			t.Fatal(err)
		}
		if c.uniform {
			checkUniform(t, c.s.String(), a.Float64s(), c.scale)
		} else {
			checkNormal(t, c.s.String(), a.Float64s(), c.scale)
		}
	}
}

// A convolution weight [oC, iC, kH, kW] has DL4J's fans: fan-in iC·kH·kW,
// fan-out oC·kH·kW/(sH·sW).
func TestConvFans(t *testing.T) {
	if f := weightinit.FansOf(8, 3, 5, 5); f != (weightinit.Fans{In: 75, Out: 200}) {
		t.Errorf("FansOf [8 3 5 5] = %v, want {75 200}", f)
	}
	f, err := weightinit.ConvFans([]int{8, 3, 5, 5}, 2, 2)
	if err != nil || f != (weightinit.Fans{In: 75, Out: 50}) {
		t.Errorf("ConvFans [8 3 5 5] stride 2, 2 = %v, %v; want {75 50}", f, err)
	}
	if f := weightinit.FansOf(4, 2, 3, 3, 3); f != (weightinit.Fans{In: 54, Out: 108}) {
		t.Errorf("FansOf [4 2 3 3 3] = %v, want {54 108}", f)
	}
	for _, bad := range [][]int{{8, 3}, {8, 3, 5, 5, 1}, {8, 3, 5, 5, 0, 1}} {
		if _, err := weightinit.ConvFans(bad[:min(len(bad), 4)], bad[min(len(bad), 4):]...); err == nil {
			t.Errorf("ConvFans %v: no error", bad)
		}
	}
	// He normal of a conv weight [64, 32, 3, 3]: σ = √(2/288).
	a, err := weightinit.New(weightinit.HeNormal, ndarray.Float64, weightinit.NewRand(7), 64, 32, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	checkNormal(t, "RELU conv", a.Float64s(), math.Sqrt(2.0/288))
}

func TestDistributions(t *testing.T) {
	r := weightinit.NewRand(3)
	a := ndarray.Must(weightinit.New(weightinit.Normal{Mean: 0, Std: 0.5}, ndarray.Float64, r, 40000))
	checkNormal(t, "Normal", a.Float64s(), 0.5)

	a = ndarray.Must(weightinit.New(weightinit.Uniform{Lo: 1, Hi: 3}, ndarray.Float64, r, 40000))
	w := a.Float64s()
	for i := range w {
		w[i] -= 2 // U(1, 3) - 2 is U(-1, 1)
	}
	checkUniform(t, "Uniform", w, 1)

	// The standard normal truncated at ±2 has variance
	// 1 - 2·2·φ(2)/(Φ(2)-Φ(-2)), φ(2) = e^-2/√(2π), Φ(2)-Φ(-2) = erf(√2):
	// 1 - 4·0.0539909665/0.9544997361 = 0.7737413035 (python3:
	// phi = math.exp(-2)/math.sqrt(2*math.pi); 1 - 4*phi/math.erf(math.sqrt(2))).
	trunc := 1 - 4*math.Exp(-2)/math.Sqrt(2*math.Pi)/math.Erf(math.Sqrt2)
	if math.Abs(trunc-0.7737413035) > 1e-10 {
		t.Fatalf("truncated variance %v", trunc)
	}
	const std = 0.1
	a = ndarray.Must(weightinit.New(weightinit.TruncatedNormal{Mean: 1, Std: std}, ndarray.Float64, r, 40000))
	w = a.Float64s()
	for i := range w {
		if w[i] < 1-2*std || w[i] > 1+2*std {
			t.Fatalf("truncated normal draw %v outside [0.8, 1.2]", w[i])
		}
		w[i]--
	}
	n := float64(len(w))
	m, v := moments(w)
	if math.Abs(m) > z*std/math.Sqrt(n) {
		t.Errorf("truncated normal mean %v", m+1)
	}
	if tol := z * std * std * math.Sqrt(3/n); math.Abs(v-trunc*std*std) > tol {
		t.Errorf("truncated normal variance %v, want %v ± %v", v, trunc*std*std, tol)
	}

	for _, c := range []struct {
		in   weightinit.Initializer
		want float64
	}{{weightinit.Zero, 0}, {weightinit.Ones, 1}, {weightinit.Constant(0.25), 0.25}} {
		a := ndarray.Must(weightinit.New(c.in, ndarray.Float32, r, 2, 3))
		for _, x := range a.Float64s() {
			if x != c.want {
				t.Errorf("%v: %v, want %v", c.in, x, c.want)
			}
		}
	}
}

func TestIdentity(t *testing.T) {
	a := ndarray.Must(weightinit.New(weightinit.Identity, ndarray.Float64, weightinit.NewRand(0), 3, 3))
	if got := a.Float64s(); !slices.Equal(got, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}) {
		t.Errorf("identity [3 3] = %v", got)
	}
	// [2, 2, 3, 3]: ones at [0, 0, 1, 1] (offset 4) and [1, 1, 1, 1]
	// (offset (1·2+1)·9+4 = 31).
	a = ndarray.Must(weightinit.New(weightinit.Identity, ndarray.Float64, weightinit.NewRand(0), 2, 2, 3, 3))
	for i, x := range a.Float64s() {
		if want := float64(b2f(i == 4 || i == 31)); x != want {
			t.Errorf("identity [2 2 3 3] at %d: %v, want %v", i, x, want)
		}
	}
	// [2, 2, 1, 3, 1]: the centre is [.., 0, 1, 0], offset 1 in a block of 3.
	a = ndarray.Must(weightinit.New(weightinit.Identity, ndarray.Float64, weightinit.NewRand(0), 2, 2, 1, 3, 1))
	if got := a.Float64s(); !slices.Equal(got, []float64{0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0}) {
		t.Errorf("identity [2 2 1 3 1] = %v", got)
	}
	for _, shape := range [][]int{{3}, {2, 3}, {2, 2, 2, 2}, {3, 2, 3, 3}} {
		_, err := weightinit.New(weightinit.Identity, ndarray.Float64, weightinit.NewRand(0), shape...)
		if err == nil || !strings.Contains(err.Error(), "IDENTITY") {
			t.Errorf("identity %v: error %v", shape, err)
		}
	}
}

func b2f(b bool) int {
	if b {
		return 1
	}
	return 0
}

// An orthogonal weight, seen as a matrix [∏shape[:-1], shape[-1]], has
// orthonormal columns (tall) or rows (wide), times the gain.
func TestOrthogonal(t *testing.T) {
	for _, c := range []struct {
		shape []int
		gain  float64
	}{{[]int{50, 20}, 1}, {[]int{20, 50}, 1}, {[]int{4, 3, 2, 2}, 2}, {[]int{6, 6}, 0.5}} {
		a := ndarray.Must(weightinit.New(weightinit.Orthogonal{Gain: c.gain}, ndarray.Float64, weightinit.NewRand(11), c.shape...))
		w := a.Float64s()
		cols := c.shape[len(c.shape)-1]
		rows := len(w) / cols
		// g[i][j] = <vector i, vector j> over the short side's vectors.
		k, m := cols, rows
		at := func(v, e int) float64 { return w[e*cols+v] }
		if rows < cols {
			k, m = rows, cols
			at = func(v, e int) float64 { return w[v*cols+e] }
		}
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				s := 0.0
				for e := 0; e < m; e++ {
					s += at(i, e) * at(j, e)
				}
				want := 0.0
				if i == j {
					want = c.gain * c.gain
				}
				if math.Abs(s-want) > 1e-12 {
					t.Fatalf("orthogonal %v gain %v: <%d, %d> = %v, want %v", c.shape, c.gain, i, j, s, want)
				}
			}
		}
	}
	if _, err := weightinit.New(weightinit.Orthogonal{Gain: 1}, ndarray.Float64, weightinit.NewRand(0), 5); err == nil {
		t.Error("orthogonal of a vector: no error")
	}
}

func TestSeeded(t *testing.T) {
	for _, in := range []weightinit.Initializer{weightinit.XavierUniform, weightinit.Relu, weightinit.Orthogonal{Gain: 1},
		weightinit.TruncatedNormal{Mean: 0, Std: 1}} {
		a := ndarray.Must(weightinit.New(in, ndarray.Float32, weightinit.NewRand(42), 8, 5)).Float64s()
		b := ndarray.Must(weightinit.New(in, ndarray.Float32, weightinit.NewRand(42), 8, 5)).Float64s()
		c := ndarray.Must(weightinit.New(in, ndarray.Float32, weightinit.NewRand(43), 8, 5)).Float64s()
		if !slices.Equal(a, b) {
			t.Errorf("%v: seed 42 twice gave different weights", in)
		}
		if slices.Equal(a, c) {
			t.Errorf("%v: seeds 42 and 43 gave the same weights", in)
		}
	}
}

func TestParse(t *testing.T) {
	for s := weightinit.Zero; s <= weightinit.VarScalingUniformFanAvg; s++ {
		got, err := weightinit.Parse(strings.ToLower(s.String()))
		if err != nil || got != s {
			t.Errorf("Parse(%q) = %v, %v", s.String(), got, err)
		}
	}
	if weightinit.XavierUniform.String() != "XAVIER_UNIFORM" || weightinit.HeNormal.String() != "RELU" {
		t.Errorf("names %v %v", weightinit.XavierUniform, weightinit.HeNormal)
	}
	if _, err := weightinit.Parse("DISTRIBUTION"); err == nil {
		t.Error("Parse DISTRIBUTION: no error")
	}
}

func TestErrors(t *testing.T) {
	r := weightinit.NewRand(0)
	cases := []struct {
		in    weightinit.Initializer
		dt    ndarray.DType
		shape []int
		want  string
	}{
		{weightinit.Xavier, ndarray.Float64, []int{0, 0}, "must be above 0"},
		{weightinit.VarScalingNormalFanOut, ndarray.Float64, []int{3, 0}, "must be above 0"},
		{weightinit.XavierLegacy, ndarray.Float64, []int{4}, "rank 2"},
		{weightinit.Xavier, ndarray.Int32, []int{2, 2}, "float32 or float64"},
		{weightinit.Normal{Std: -1}, ndarray.Float64, []int{2}, "standard deviation"},
		{weightinit.Uniform{Lo: 1, Hi: 0}, ndarray.Float64, []int{2}, "bounds"},
		{weightinit.Scheme(99), ndarray.Float64, []int{2, 2}, "unknown"},
		{nil, ndarray.Float64, []int{2}, "no initializer"},
		{weightinit.Xavier, ndarray.Float64, []int{-1, 2}, "XAVIER"},
	}
	for _, c := range cases {
		_, err := weightinit.New(c.in, c.dt, r, c.shape...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v %v: error %v, want %q", c.in, c.dt, c.shape, err, c.want)
		}
	}
}

func TestVar(t *testing.T) {
	g := graph.New()
	w, err := weightinit.Var(g, "w", weightinit.GlorotUniform, ndarray.Float32, weightinit.NewRand(1), 4, 6)
	if err != nil {
		t.Fatal(err)
	}
	if w.Type() != graph.VARIABLE || w.DType() != ndarray.Float32 || !slices.Equal(w.Shape(), []int{4, 6}) {
		t.Fatalf("variable %v", w)
	}
	a := math.Sqrt(6.0 / 10)
	for _, x := range w.Value().Float64s() {
		if math.Abs(x) > a {
			t.Errorf("%v outside ±%v", x, a)
		}
	}
	if _, err := weightinit.Var(g, "w", weightinit.Ones, ndarray.Float32, weightinit.NewRand(1), 2); err == nil {
		t.Error("a second variable named w: no error")
	}
	if _, err := weightinit.Var(g, "v", weightinit.Identity, ndarray.Float32, weightinit.NewRand(1), 2, 3); err == nil || !strings.Contains(err.Error(), `"v"`) {
		t.Errorf("identity [2 3]: error %v", err)
	}
}
