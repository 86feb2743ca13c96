package ops_test

import (
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// stepped returns a copy of a in a layout that steps over every other
// element of its buffer, starting one element in: an input no op may read
// as if it were packed.
func stepped(t *testing.T, a *ndarray.Array) *ndarray.Array {
	t.Helper()
	buf := ndarray.Must(ndarray.Zeros(a.DType(), 2*a.Size()+1)).Buffer()
	st := ndarray.PackedStrides(a.Shape())
	for i := range st {
		st[i] *= 2
	}
	v, err := ndarray.NewView(buf, ndarray.Layout{Shape: a.Shape(), Strides: st, Offset: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := ndarray.CopyInto(v, a); err != nil {
		t.Fatal(err)
	}
	if v.IsPacked() {
		t.Fatal("stepped view is packed")
	}
	return v
}

// sameOutputs checks that two runs of an op agree in dtype, shape and
// every element.
func sameOutputs(t *testing.T, what string, got, want []*ndarray.Array) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d outputs, want %d", what, len(got), len(want))
	}
	for i := range got {
		if !ndarray.Equal(got[i], want[i]) {
			t.Errorf("%s: output %d is %v, want %v", what, i, got[i], want[i])
		}
	}
}

// Reflect and symmetric padding against a reference that mirrors each
// coordinate on its own, for every dtype pad takes, from packed and stepped
// inputs.
func TestMirrorPad(t *testing.T) {
	shape, before, after := []int{2, 3, 4}, []int{1, 2, 0}, []int{1, 1, 3}
	vals := make([]float64, 2*3*4)
	for i := range vals {
		vals[i] = float64(i%7) - 2 // includes 0, so that bools are mixed
	}
	x := f64(shape, vals...)
	paddings := i32([]int{3, 2}, 1, 1, 2, 1, 0, 3)
	for _, mode := range []int64{ops.PadReflect, ops.PadSymmetric} {
		sym := 0
		if mode == ops.PadSymmetric {
			sym = 1
		}
		mirror := func(j, n int) int {
			switch {
			case j < 0:
				return -j - sym
			case j >= n:
				return 2*(n-1) - j + sym
			}
			return j
		}
		out := []int{shape[0] + before[0] + after[0], shape[1] + before[1] + after[1], shape[2] + before[2] + after[2]}
		var want []float64
		for i := 0; i < out[0]; i++ {
			for j := 0; j < out[1]; j++ {
				for k := 0; k < out[2]; k++ {
					a, b, c := mirror(i-before[0], shape[0]), mirror(j-before[1], shape[1]), mirror(k-before[2], shape[2])
					want = append(want, vals[(a*shape[1]+b)*shape[2]+c])
				}
			}
		}
		wantF := f64(out, want...)
		for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64, ndarray.Int32, ndarray.Int64, ndarray.Bool} {
			xc := ndarray.Must(ndarray.Cast(x, dt))
			w := ndarray.Must(ndarray.Cast(wantF, dt))
			args := ops.Args{I: []int64{mode}}
			sameOutputs(t, "pad "+dt.String(), runOp(t, "pad", args, xc, paddings), []*ndarray.Array{w})
			sameOutputs(t, "pad stepped "+dt.String(), runOp(t, "pad", args, stepped(t, xc), paddings), []*ndarray.Array{w})
		}
	}
}

// The slicing, scattering and gathering ops read stepped inputs as their
// elements, not their buffers.
func TestGatherScatterSteppedInputs(t *testing.T) {
	x12 := f64([]int{3, 4}, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
	ss := ops.Args{I: []int64{0, 0, 0, 0, 0, 2, 3, 0, 0, -1, -2}} // x[2:0:-1, 3:0:-2]
	want := []*ndarray.Array{f64([]int{2, 2}, 11, 9, 7, 5)}
	sameOutputs(t, "stridedslice", runOp(t, "stridedslice", ss, x12), want)
	sameOutputs(t, "stridedslice stepped", runOp(t, "stridedslice", ss, stepped(t, x12)), want)
	xb := ndarray.Must(ndarray.Cast(x12, ndarray.Bool))
	sameOutputs(t, "stridedslice bool stepped", runOp(t, "stridedslice", ss, stepped(t, xb)),
		[]*ndarray.Array{bools([]int{2, 2}, true, true, true, true)})

	g := f32([]int{2, 2}, 1, 2, 3, 4)
	wantBp := []*ndarray.Array{f32([]int{3, 4}, 0, 0, 0, 0, 0, 4, 0, 3, 0, 2, 0, 1)}
	zx := ndarray.Must(ndarray.Zeros(ndarray.Float32, 3, 4))
	sameOutputs(t, "strided_slice_bp", runOp(t, "strided_slice_bp", ss, zx, g), wantBp)
	sameOutputs(t, "strided_slice_bp stepped", runOp(t, "strided_slice_bp", ss, zx, stepped(t, g)), wantBp)

	ref := i32([]int{3, 2}, 1, 2, 3, 4, 5, 6)
	idx := i64([]int{2, 1}, 2, 0)
	upd := i32([]int{2, 2}, 9, 8, 7, 6)
	wantSc := []*ndarray.Array{i32([]int{3, 2}, 7, 6, 3, 4, 9, 8)}
	sameOutputs(t, "scatter_nd_update", runOp(t, "scatter_nd_update", ops.Args{}, ref, idx, upd), wantSc)
	sameOutputs(t, "scatter_nd_update stepped", runOp(t, "scatter_nd_update", ops.Args{}, stepped(t, ref), idx, stepped(t, upd)), wantSc)
	if ref.Float(0, 0) != 1 {
		t.Errorf("scatter_nd_update changed its input: %v", ref)
	}
}

// scatter_nd_update_bp computes in the gradient's dtype, from packed and
// stepped gradients; where indices repeat, the last update gets the
// gradient and the earlier ones get zeros.
func TestScatterNDUpdateBpDTypes(t *testing.T) {
	idx := i64([]int{3, 1}, 2, 0, 2)
	for _, dt := range []ndarray.DType{ndarray.Float32, ndarray.Float64} {
		cast := func(a *ndarray.Array) *ndarray.Array { return ndarray.Must(ndarray.Cast(a, dt)) }
		ref := cast(ndarray.Must(ndarray.Zeros(ndarray.Float64, 3, 2)))
		upd := cast(ndarray.Must(ndarray.Zeros(ndarray.Float64, 3, 2)))
		g := cast(f64([]int{3, 2}, 1.5, 2, 3, -4, 5.25, 6))
		want := []*ndarray.Array{
			cast(f64([]int{3, 2}, 0, 0, 3, -4, 0, 0)),
			cast(f64([]int{3, 2}, 0, 0, 1.5, 2, 5.25, 6)),
		}
		sameOutputs(t, "scatter_nd_update_bp "+dt.String(), runOp(t, "scatter_nd_update_bp", ops.Args{}, ref, idx, upd, g), want)
		sameOutputs(t, "scatter_nd_update_bp stepped "+dt.String(), runOp(t, "scatter_nd_update_bp", ops.Args{}, ref, idx, upd, stepped(t, g)), want)
	}
}

// The backprop ops' outputs take the gradient's dtype and the shapes of the
// inputs they differentiate, and need a float gradient.
func TestGradInfos(t *testing.T) {
	x := ops.Info{DType: ndarray.Float64, Shape: []int{-1, 3}}
	c := ops.Info{DType: ndarray.Float64, UnknownRank: true}
	p := infoOf(i32([]int{2, 2}, 0, 0, 0, 0))
	g := ops.Info{DType: ndarray.Float32, Shape: []int{4, 5}}
	for _, tc := range []struct {
		op   string
		in   []ops.Info
		want []ops.Info
	}{
		{"pad_bp", []ops.Info{x, p, g}, []ops.Info{{DType: ndarray.Float32, Shape: []int{-1, 3}}}},
		{"pad_bp", []ops.Info{x, p, c, g}, []ops.Info{{DType: ndarray.Float32, Shape: []int{-1, 3}}, {DType: ndarray.Float32, UnknownRank: true}}},
		{"tile_bp", []ops.Info{c, g}, []ops.Info{{DType: ndarray.Float32, UnknownRank: true}}},
		{"scatter_nd_update_bp", []ops.Info{x, p, c, g}, []ops.Info{{DType: ndarray.Float32, Shape: []int{-1, 3}}, {DType: ndarray.Float32, UnknownRank: true}}},
	} {
		d, _ := ops.Lookup(tc.op)
		got, err := d.Infer(tc.in, &ops.Args{})
		if err != nil || len(got) != len(tc.want) {
			t.Errorf("%s: %v, %v", tc.op, got, err)
			continue
		}
		for i, w := range tc.want {
			if got[i].DType != w.DType || got[i].UnknownRank != w.UnknownRank || !ndarray.SameShape(got[i].Shape, w.Shape) {
				t.Errorf("%s: output %d is %+v, want %+v", tc.op, i, got[i], w)
			}
		}
		in := append([]ops.Info(nil), tc.in...)
		in[len(in)-1] = ops.Info{DType: ndarray.Int32, Shape: g.Shape}
		if _, err := d.Infer(in, &ops.Args{}); err == nil {
			t.Errorf("%s: an int32 gradient is accepted", tc.op)
		}
	}
}
