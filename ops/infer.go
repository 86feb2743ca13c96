package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// one returns a single output or the error.
func one(a *ndarray.Array, err error) ([]*ndarray.Array, error) {
	if err != nil {
		return nil, err
	}
	return []*ndarray.Array{a}, nil
}

func infos(i ...Info) []Info { return i }

// BroadcastInfo returns the broadcast shape of two inputs as far as it is
// known: a size known on either side wins over -1 (the other must then be 1
// or the same at run time).
func BroadcastInfo(a, b Info) (Info, error) {
	if a.DType != b.DType {
		return Info{}, fmt.Errorf("dtypes %v and %v differ", a.DType, b.DType)
	}
	if a.UnknownRank || b.UnknownRank {
		return Info{DType: a.DType, UnknownRank: true}, nil
	}
	n := max(len(a.Shape), len(b.Shape))
	out := make([]int, n)
	for i := 0; i < n; i++ {
		da, db := 1, 1
		if j := len(a.Shape) - n + i; j >= 0 {
			da = a.Shape[j]
		}
		if j := len(b.Shape) - n + i; j >= 0 {
			db = b.Shape[j]
		}
		s, ok := ndarray.BroadcastSize(da, db)
		switch {
		case ok:
			out[i] = s
		case da < 0:
			out[i] = db
		case db < 0:
			out[i] = da
		default:
			return Info{}, fmt.Errorf("shapes %v and %v do not broadcast (axis %d: %d vs %d)", a.Shape, b.Shape, i, da, db)
		}
	}
	return Info{DType: a.DType, Shape: out}, nil
}

// same returns an Info with a's dtype and shape, without a value.
func same(a Info) Info { return Info{DType: a.DType, Shape: a.Shape, UnknownRank: a.UnknownRank} }

func needFloat(name string, in Info) error {
	if in.DType != ndarray.Float32 && in.DType != ndarray.Float64 {
		return fmt.Errorf("%s needs a float32 or float64 input, not %v", name, in.DType)
	}
	return nil
}

func needNumeric(name string, in Info) error {
	if !in.DType.IsNumeric() {
		return fmt.Errorf("%s needs a numeric input, not %v", name, in.DType)
	}
	return nil
}

// constInts returns the values of a constant integer input, when known.
func constInts(in Info) ([]int, bool) {
	if in.Value == nil || !(in.Value.DType().IsInt()) {
		return nil, false
	}
	return intsOf(in.Value.Int64s()), true
}

// unknownShape returns a shape of rank r with every size unknown.
func unknownShape(r int) []int {
	s := make([]int, r)
	for i := range s {
		s[i] = -1
	}
	return s
}

// intsOf converts integer arguments.
func intsOf(v []int64) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
	}
	return out
}

// inputInts reads input i with arrayInts when the op was given it, and
// returns def otherwise.
func inputInts(in []*ndarray.Array, i int, what string, def []int) ([]int, error) {
	if len(in) > i {
		return arrayInts(what, in[i])
	}
	return def, nil
}

// arrayInts reads an integer array's values as ints, or fails naming what.
func arrayInts(what string, a *ndarray.Array) ([]int, error) {
	if !a.DType().IsInt() {
		return nil, fmt.Errorf("%s must be an integer array, not %v", what, a.DType())
	}
	return intsOf(a.Int64s()), nil
}
