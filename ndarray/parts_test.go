package ndarray

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
)

// onCores runs f with GOMAXPROCS set to n.
func onCores(n int, f func()) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(n))
	f()
}

// partsCases are arrays large enough to be cut into parts on two cores, in
// the layouts the ops meet: packed (one run), rows of a wider matrix (a
// view: a nest of rank 2), a column vector broadcast against a matrix, and
// an odd length that is no multiple of partAlign.
func partsCases(t *testing.T, dt DType) map[string][2]*Array {
	rng := rand.New(rand.NewPCG(5, 7))
	x := randArray(t, rng, dt, 128, 512)
	y := randArray(t, rng, dt, 128, 512)
	wide := randArray(t, rng, dt, 300, 700)
	view, err := wide.WithLayout(Layout{Shape: []int{300, 500}, Strides: []int{700, 1}, Offset: 150})
	if err != nil {
		t.Fatal(err)
	}
	other := randArray(t, rng, dt, 300, 500)
	return map[string][2]*Array{
		"packed":    {x, y},
		"bias":      {x, randArray(t, rng, dt, 512)},
		"column":    {x, randArray(t, rng, dt, 128, 1)},
		"view":      {view, other},
		"odd":       {randArray(t, rng, dt, 70001), randArray(t, rng, dt, 70001)},
		"transpose": {Must(Permute(x, 1, 0)), randArray(t, rng, dt, 512, 128)},
		// Large enough for the vector kernels' parts (fastPartMin) too:
		// the cases above cut only the slow ops.
		"large": {randArray(t, rng, dt, 1024, 600), randArray(t, rng, dt, 1024, 600)},
	}
}

// The elementwise ops cut into parts for two or four cores give the bits
// one core gives.
func TestPartsSameBitsElementwise(t *testing.T) {
	for _, dt := range []DType{Float32, Float64} {
		for name, c := range partsCases(t, dt) {
			a, b := c[0], c[1]
			shape, err := BroadcastShapes(a.Shape(), b.Shape())
			if err != nil {
				t.Fatal(err)
			}
			onCores(2, func() {
				nn := nest{rank: 1, k: 1}
				nn.shape[0] = a.Size() * b.Size() / min(a.Size(), b.Size())
				if !splits(&nn, partMin) {
					t.Fatalf("%v %s: %v elements are not cut into parts on two cores", dt, name, shape)
				}
			})
			type result struct {
				what string
				out  *Array
			}
			run := func() (r []result) {
				for _, op := range []BinaryOp{Add, Mul, ReluGrad, Maximum} {
					r = append(r, result{op.String(), Must(Binary(op, a, b))})
				}
				for _, u := range []UnaryOp{Relu, Exp, Tanh} {
					r = append(r, result{u.String(), Must(Unary(u, a, 0))})
				}
				return r
			}
			var one []result
			onCores(1, func() { one = run() })
			for _, n := range []int{2, 4} {
				onCores(n, func() {
					for i, r := range run() {
						sameBits(t, fmt.Sprintf("%v %s %s on %d cores", dt, name, r.what, n), r.out, one[i].out, nil, nil)
					}
				})
			}
		}
	}
}
