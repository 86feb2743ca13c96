package ops_test

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// The indexing ops' errors (ops/base_gather.go, base_slice.go,
// base_scatter.go): an index out of range names the op, the index and the
// shape, never reads outside a buffer; bad arguments name what is wrong.
func TestIndexOpErrors(t *testing.T) {
	x := arangeF64(3, 4)
	ref := arangeF64(4, 2)
	for _, c := range []struct {
		name string
		op   string
		args ops.Args
		in   []*ndarray.Array
		want []string
	}{
		{"gather index", "gather", ops.Args{I: []int64{0}}, []*ndarray.Array{x, i64([]int{2}, 1, 3)}, []string{"gather", "index 3", "[3 4]"}},
		{"gather negative index", "gather", ops.Args{I: []int64{1}}, []*ndarray.Array{x, i64([]int{1}, -1)}, []string{"gather", "index -1", "[3 4]"}},
		{"gather int-arg index", "gather", ops.Args{I: []int64{1, 4}}, []*ndarray.Array{x}, []string{"gather", "index 4", "[3 4]"}},
		{"gather axis", "gather", ops.Args{I: []int64{2}}, []*ndarray.Array{x, i64([]int{1}, 0)}, []string{"gather", "axis 2", "rank 2"}},
		{"gather no indices", "gather", ops.Args{I: []int64{0}}, []*ndarray.Array{x}, []string{"gather", "indices"}},
		{"gather float indices", "gather", ops.Args{}, []*ndarray.Array{x, f64([]int{1}, 0)}, []string{"gather", "integer"}},
		{"gather_bp index", "gather_bp", ops.Args{I: []int64{0}}, []*ndarray.Array{i64([]int{1}, 2), i64([]int{1}, 2), f64([]int{1}, 1)}, []string{"gather_bp", "index 2", "[2]"}},
		{"gather_nd index", "gather_nd", ops.Args{}, []*ndarray.Array{x, i64([]int{1, 2}, 2, 4)}, []string{"gather_nd", "[2 4]", "[3 4]"}},
		{"gather_nd tuple length", "gather_nd", ops.Args{}, []*ndarray.Array{x, i64([]int{1, 3}, 0, 0, 0)}, []string{"gather_nd", "3 entries", "[3 4]"}},
		{"onehot depth", "onehot", ops.Args{I: []int64{-1, 0}}, []*ndarray.Array{i64([]int{1}, 0)}, []string{"onehot", "depth 0"}},
		{"Where shapes", "Where", ops.Args{}, []*ndarray.Array{bools([]int{4}, true, false, true, true), x, x}, []string{"Where", "[4]", "[3 4]"}},
		{"slice begin", "slice", ops.Args{I: []int64{4, 0, 1, 1}}, []*ndarray.Array{x}, []string{"slice", "begin 4", "[3 4]"}},
		{"slice size", "slice", ops.Args{I: []int64{1, 2, 1, 3}}, []*ndarray.Array{x}, []string{"slice", "size 3", "[3 4]"}},
		{"slice arg count", "slice", ops.Args{I: []int64{1, 2}}, []*ndarray.Array{x}, []string{"slice", "4 int args"}},
		{"split uneven", "split", ops.Args{I: []int64{2, 0}}, []*ndarray.Array{x}, []string{"split", "[3 4]", "2 pieces"}},
		{"split count", "split", ops.Args{}, []*ndarray.Array{x}, []string{"split", "number of pieces"}},
		{"split_v sum", "split_v", ops.Args{I: []int64{1}}, []*ndarray.Array{x, i64([]int{2}, 1, 2)}, []string{"split_v", "add up to 3", "4"}},
		{"reverse axis", "reverse", ops.Args{I: []int64{2}}, []*ndarray.Array{x}, []string{"reverse", "axis 2"}},
		{"cumsum two axes", "cumsum", ops.Args{I: []int64{0, 0, 0, 1}}, []*ndarray.Array{x}, []string{"cumsum", "one axis"}},
		{"scatter_add index", "scatter_add", ops.Args{}, []*ndarray.Array{ref, i64([]int{2}, 0, 4), arangeF64(2, 2)}, []string{"scatter_add", "index 4", "[4 2]"}},
		{"scatter_upd negative index", "scatter_upd", ops.Args{}, []*ndarray.Array{ref, i64([]int{1}, -1), arangeF64(1, 2)}, []string{"scatter_upd", "index -1", "[4 2]"}},
		{"scatter_mul updates", "scatter_mul", ops.Args{}, []*ndarray.Array{ref, i64([]int{2}, 0, 1), arangeF64(2, 3)}, []string{"scatter_mul", "[2 3]", "[2 2]"}},
		{"scatter_div int by zero", "scatter_div", ops.Args{}, []*ndarray.Array{i32([]int{2}, 4, 2), i64([]int{1}, 0), i32([]int{1}, 0)}, []string{"scatter_div", "division by zero"}},
		{"scatter_nd_add index", "scatter_nd_add", ops.Args{}, []*ndarray.Array{ref, i64([]int{1, 2}, 1, 2), f64([]int{1}, 1)}, []string{"scatter_nd_add", "[1 2]", "[4 2]"}},
		{"scatter_nd_sub updates", "scatter_nd_sub", ops.Args{}, []*ndarray.Array{ref, i64([]int{1, 1}, 1), f64([]int{3}, 1, 2, 3)}, []string{"scatter_nd_sub", "updates of shape [3]"}},
		{"segment ids unsorted", "segment_sum", ops.Args{}, []*ndarray.Array{ref, i64([]int{4}, 0, 2, 1, 3)}, []string{"segment_sum", "id 1", "position 2", "sorted"}},
		{"segment ids count", "segment_max", ops.Args{}, []*ndarray.Array{ref, i64([]int{3}, 0, 1, 2)}, []string{"segment_max", "[3]", "[4 2]"}},
		{"unsorted segment id", "unsorted_segment_sum", ops.Args{I: []int64{2}}, []*ndarray.Array{ref, i64([]int{4}, 0, 1, 2, 0)}, []string{"unsorted_segment_sum", "id 2", "position 2", "2 segments"}},
		{"unsorted segment negative id", "unsorted_segment_prod", ops.Args{I: []int64{2}}, []*ndarray.Array{ref, i64([]int{4}, 0, -1, 1, 0)}, []string{"unsorted_segment_prod", "id -1"}},
		{"unsorted segment no count", "unsorted_segment_mean", ops.Args{}, []*ndarray.Array{ref, i64([]int{4}, 0, 1, 1, 0)}, []string{"unsorted_segment_mean", "number of segments"}},
		{"reverse_sequence length", "reverse_sequence", ops.Args{I: []int64{1, 0}}, []*ndarray.Array{x, i64([]int{3}, 1, 5, 0)}, []string{"reverse_sequence", "length 5", "[3 4]"}},
		{"repeat counts", "repeat", ops.Args{I: []int64{1, 2, 0}}, []*ndarray.Array{x}, []string{"repeat", "2 repeat counts", "size 3"}},
		{"flatten order", "flatten", ops.Args{I: []int64{7}}, []*ndarray.Array{x}, []string{"flatten", "order 7"}},
		{"size_at axis", "size_at", ops.Args{I: []int64{-3}}, []*ndarray.Array{x}, []string{"size_at", "axis -3"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, ok := ops.Lookup(c.op)
			if !ok {
				t.Fatalf("no op %q", c.op)
			}
			infos := make([]ops.Info, len(c.in))
			for i, a := range c.in {
				infos[i] = infoOf(a)
			}
			_, err := d.Infer(infos, &c.args)
			if err == nil {
				_, err = d.Run(nil, c.in, &c.args)
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

// The indexing ops read inputs in any layout: a stepped (non-packed) copy
// of every input gives what the packed inputs give.
func TestIndexOpsSteppedInputs(t *testing.T) {
	x := arangeF64(3, 4)
	ref := arangeF64(4, 2)
	for _, c := range []struct {
		op   string
		args ops.Args
		in   []*ndarray.Array
	}{
		{"gather", ops.Args{I: []int64{1}}, []*ndarray.Array{x, i64([]int{3}, 3, 0, 3)}},
		{"gather_nd", ops.Args{}, []*ndarray.Array{x, i64([]int{2, 2}, 2, 1, 0, 3)}},
		{"slice", ops.Args{I: []int64{1, 1, 2, 2}}, []*ndarray.Array{x}},
		{"split", ops.Args{I: []int64{2, 1}}, []*ndarray.Array{x}},
		{"reverse", ops.Args{I: []int64{1}}, []*ndarray.Array{x}},
		{"cumsum", ops.Args{I: []int64{1, 1, 0}}, []*ndarray.Array{x}},
		{"cumprod", ops.Args{I: []int64{0, 1, 1}}, []*ndarray.Array{x}},
		{"onehot", ops.Args{I: []int64{0, 4}}, []*ndarray.Array{i64([]int{3}, 3, 0, 1)}},
		{"Where", ops.Args{}, []*ndarray.Array{bools([]int{3}, true, false, true), x, arangeF64(3, 4)}},
		{"scatter_add", ops.Args{}, []*ndarray.Array{ref, i64([]int{2}, 3, 3), arangeF64(2, 2)}},
		{"scatter_max", ops.Args{}, []*ndarray.Array{ref, i64([]int{2}, 3, 0), arangeF64(2, 2)}},
		{"scatter_nd_add", ops.Args{}, []*ndarray.Array{ref, i64([]int{2, 1}, 3, 1), arangeF64(2, 2)}},
	} {
		t.Run(c.op, func(t *testing.T) {
			want := runOp(t, c.op, c.args, c.in...)
			st := make([]*ndarray.Array, len(c.in))
			for i, a := range c.in {
				st[i] = stepped(t, a)
			}
			got := runOp(t, c.op, c.args, st...)
			sameOutputs(t, c.op, got, want)
		})
	}
}
