package ndarray

import (
	"slices"
	"testing"

	"gorgonia.org/tensor"
)

// FromDense of gorgonia views: slices (with and without an iterator),
// transposes, one-element vectors.
func TestFromDenseViews(t *testing.T) {
	base := func() *tensor.Dense {
		return tensor.New(tensor.WithShape(3, 4), tensor.WithBacking([]float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}))
	}
	cases := []struct {
		name  string
		make  func() (tensor.View, error)
		shape []int
		want  []float64
	}{
		{"row 1", func() (tensor.View, error) { return base().Slice(tensor.S(1)) }, []int{4}, []float64{4, 5, 6, 7}},
		{"rows 1:3", func() (tensor.View, error) { return base().Slice(tensor.S(1, 3)) }, []int{2, 4}, []float64{4, 5, 6, 7, 8, 9, 10, 11}},
		{"column 2", func() (tensor.View, error) { return base().Slice(nil, tensor.S(2)) }, []int{3}, []float64{2, 6, 10}},
		{"cols 1:3", func() (tensor.View, error) { return base().Slice(nil, tensor.S(1, 3)) }, []int{3, 2}, []float64{1, 2, 5, 6, 9, 10}},
		{"element", func() (tensor.View, error) { return base().Slice(tensor.S(2), tensor.S(3)) }, nil, []float64{11}},
		{"transposed", func() (tensor.View, error) {
			d := base()
			err := d.T()
			return d, err
		}, []int{4, 3}, []float64{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}},
		{"vector of one", func() (tensor.View, error) {
			return tensor.New(tensor.WithShape(1), tensor.WithBacking([]float64{5})), nil
		}, []int{1}, []float64{5}},
		{"1x1", func() (tensor.View, error) {
			return tensor.New(tensor.WithShape(1, 1), tensor.WithBacking([]float64{5})), nil
		}, []int{1, 1}, []float64{5}},
	}
	for _, c := range cases {
		v, err := c.make()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		a, err := FromDense(v.(*tensor.Dense))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !slices.Equal(a.Shape(), c.shape) || !slices.Equal(a.Float64s(), c.want) {
			t.Errorf("%s: got %v%v, want %v%v", c.name, a.Shape(), a.Float64s(), c.shape, c.want)
		}
	}
}
