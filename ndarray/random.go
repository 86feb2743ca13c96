package ndarray

import (
	"fmt"
	"math/rand/v2"
)

// RandNormal returns an array of normally distributed values with the given
// mean and standard deviation, drawn from rng.
func RandNormal(rng *rand.Rand, dt DType, mean, std float64, shape ...int) (*Array, error) {
	return randFill(dt, shape, func() float64 { return mean + std*rng.NormFloat64() })
}

// RandUniform returns an array of values uniform in [lo, hi), drawn from rng.
func RandUniform(rng *rand.Rand, dt DType, lo, hi float64, shape ...int) (*Array, error) {
	return randFill(dt, shape, func() float64 { return lo + (hi-lo)*rng.Float64() })
}

func randFill(dt DType, shape []int, next func() float64) (*Array, error) {
	if !dt.IsFloat() || !dt.Computable() {
		return nil, fmt.Errorf("ndarray: random arrays must be float32 or float64, not %v", dt)
	}
	a, err := Zeros(dt, shape...)
	if err != nil {
		return nil, err
	}
	for i := 0; i < a.Size(); i++ {
		a.setFloat(i, next())
	}
	return a, nil
}
