package opcases_test

import (
	"math/rand/v2"

	"github.com/sdgo/sdgo/ops"
)

// Random differential cases of dropout (ops/random.go): any keep
// probability, inverted or not, with seeds drawn too.
func init() {
	familyDgens["dropout"] = unary(rnd, func(r *rand.Rand) ops.Args {
		return ops.Args{F: []float64{0.1 + 0.85*r.Float64()}, I: []int64{r.Int64()}, B: []bool{r.IntN(2) == 0}}
	})
}
