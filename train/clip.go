package train

import (
	"fmt"
	"math"
	"strings"

	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
)

// GradientNormalization is one of DL4J's ways to normalize or clip the
// gradients before the updater sees them (DL4J's GradientNormalization).
type GradientNormalization int

// DL4J's modes. A layer is a group of variables (Clipping.Layer); a norm is
// the L2 norm, √Σg².
const (
	// NoNormalization leaves the gradients as they are.
	NoNormalization GradientNormalization = iota
	// RenormalizeL2PerLayer divides each gradient by its layer's norm (the
	// norm of all its variables' gradients together).
	RenormalizeL2PerLayer
	// RenormalizeL2PerParamType divides each gradient by its own norm.
	RenormalizeL2PerParamType
	// ClipElementWiseAbsoluteValue clips each element to [-t, t].
	ClipElementWiseAbsoluteValue
	// ClipL2PerLayer scales a layer's gradients by t/norm when their norm
	// is above the threshold t. With all variables in one layer
	// (ClipGlobalNorm) this is clipping by the global norm.
	ClipL2PerLayer
	// ClipL2PerParamType scales each gradient by t/norm when its own norm
	// is above the threshold t.
	ClipL2PerParamType
)

var normalizationNames = [...]string{"None", "RenormalizeL2PerLayer", "RenormalizeL2PerParamType",
	"ClipElementWiseAbsoluteValue", "ClipL2PerLayer", "ClipL2PerParamType"}

// String returns DL4J's name for n.
func (n GradientNormalization) String() string {
	if n < 0 || int(n) >= len(normalizationNames) {
		return fmt.Sprintf("GradientNormalization(%d)", int(n))
	}
	return normalizationNames[n]
}

// Clipping says how Step normalizes or clips the gradients of the trainable
// variables, before the regularization and the updater (where DL4J's
// updater does it). A gradient whose norm is 0 is left as it is by the
// renormalizing modes (DL4J's would divide it by 0).
//
// The training configuration's JSON (SameDiff's TrainingConfig) has no
// field for it: a configuration read back (ConfigOf) has none, and a
// resumed training sets it again.
type Clipping struct {
	Mode GradientNormalization
	// Threshold is t in the clipping modes (above 0); the renormalizing
	// modes do not use it.
	Threshold float64
	// Layer names the layer of a trainable variable, for the per-layer
	// modes: variables of one layer share one norm. Nil groups variables by
	// name scope, the name up to its last '/' ("dense1/W" and "dense1/b"
	// are one layer; variables without a '/' are one layer together).
	Layer func(variable string) string
}

// ClipGlobalNorm returns clipping by the global norm: when the norm of all
// the gradients together is above threshold, every gradient is scaled by
// threshold/norm (DL4J's ClipL2PerLayer over one layer of all the
// variables).
func ClipGlobalNorm(threshold float64) *Clipping {
	return &Clipping{Mode: ClipL2PerLayer, Threshold: threshold, Layer: func(string) string { return "" }}
}

// Scope returns a variable name's scope, up to its last '/' ("" for none):
// the layers of Clipping with a nil Layer.
func Scope(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[:i]
	}
	return ""
}

func (c *Clipping) check() error {
	switch c.Mode {
	case NoNormalization, RenormalizeL2PerLayer, RenormalizeL2PerParamType:
		return nil
	case ClipElementWiseAbsoluteValue, ClipL2PerLayer, ClipL2PerParamType:
		if !(c.Threshold > 0) || math.IsInf(c.Threshold, 0) {
			return fmt.Errorf("train: gradient normalization %v: threshold %v must be a positive number", c.Mode, c.Threshold)
		}
		return nil
	}
	return fmt.Errorf("train: unknown gradient normalization %v", c.Mode)
}

// active reports whether c changes gradients.
func (c *Clipping) active() bool { return c != nil && c.Mode != NoNormalization }

// apply normalizes or clips grads (packed, the trainer's to change), the
// gradients of the variables named names.
func (c *Clipping) apply(names []string, grads []*ndarray.Array) error {
	switch c.Mode {
	case ClipElementWiseAbsoluteValue:
		for _, g := range grads {
			if err := each(func(x [4][]float32) { clipAbs(x[0], float32(c.Threshold)) },
				func(x [4][]float64) { clipAbs(x[0], c.Threshold) }, g); err != nil {
				return err
			}
		}
		return nil
	case RenormalizeL2PerParamType, ClipL2PerParamType:
		for _, g := range grads {
			if err := c.scaleBy(sumSquares(g), g); err != nil {
				return err
			}
		}
		return nil
	}
	// Per layer: the layers' sums of squares, then the scaling.
	layer := c.Layer
	if layer == nil {
		layer = Scope
	}
	sums := map[string]float64{}
	for i, g := range grads {
		sums[layer(names[i])] += sumSquares(g)
	}
	for i, g := range grads {
		if err := c.scaleBy(sums[layer(names[i])], g); err != nil {
			return err
		}
	}
	return nil
}

// scaleBy scales g for a norm of √ss, as the mode says.
func (c *Clipping) scaleBy(ss float64, g *ndarray.Array) error {
	norm := math.Sqrt(ss)
	f := 1.0
	switch c.Mode {
	case RenormalizeL2PerLayer, RenormalizeL2PerParamType:
		if norm == 0 {
			return nil
		}
		f = 1 / norm
	case ClipL2PerLayer, ClipL2PerParamType:
		if !(norm > c.Threshold) {
			return nil
		}
		f = c.Threshold / norm
	}
	return each(func(x [4][]float32) { kernels.For[float32]().Scale(x[0], x[0], float32(f)) },
		func(x [4][]float64) { kernels.For[float64]().Scale(x[0], x[0], f) }, g)
}

// sumSquares returns Σg², accumulated in float64 (a norm over millions of
// float32 elements would lose the small ones otherwise). g is packed.
func sumSquares(g *ndarray.Array) float64 {
	s := 0.0
	_ = each(func(x [4][]float32) { s = sumSq(x[0]) }, func(x [4][]float64) { s = sumSq(x[0]) }, g)
	return s
}

func sumSq[T kernels.Float](x []T) float64 {
	s := 0.0
	for _, v := range x {
		s += float64(v) * float64(v)
	}
	return s
}

func clipAbs[T kernels.Float](x []T, t T) {
	for i, v := range x {
		if v > t {
			x[i] = t
		} else if v < -t {
			x[i] = -t
		}
	}
}
