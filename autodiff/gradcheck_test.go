package autodiff_test

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// The central-difference checks of every differentiable op are in package
// validation/opcases (run as validation.TestCases with the gradient checker
// of package validation), which also fails when a differentiable op has no
// gradient check. What remains here are helpers of this package's tests.

func randn(rng *rand.Rand, shape ...int) *ndarray.Array {
	return ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 1, shape...))
}

func names(vs []*graph.Variable) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Name()
	}
	return out
}
