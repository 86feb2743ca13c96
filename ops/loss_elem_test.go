package ops_test

import (
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// The elementwise losses refuse, at inference and at run time, what libnd4j
// refuses, with the op and the argument named.
func TestElemLossErrors(t *testing.T) {
	p := f64([]int{2, 2}, 1, 2, 3, 4)
	one := ndarray.Scalar(1.0)
	for _, c := range []struct {
		name, op string
		args     ops.Args
		in       []*ndarray.Array
		want     []string
	}{
		{"huber without delta", "huber_loss", ops.Args{}, []*ndarray.Array{p, one, p}, []string{"huber_loss", "delta"}},
		{"huber_grad without delta", "huber_loss_grad", ops.Args{}, []*ndarray.Array{p, one, p}, []string{"huber_loss_grad", "delta"}},
		{"labels beyond predictions", "hinge_loss", ops.Args{}, []*ndarray.Array{f64([]int{2}, 1, 2), one, p}, []string{"hinge_loss", "labels", "[2 2]"}},
		{"weights beyond losses", "log_poisson_loss", ops.Args{}, []*ndarray.Array{f64([]int{2}, 1, 2), p, f64([]int{2}, 1, 2)}, []string{"log_poisson_loss", "weights"}},
		{"int predictions", "absolute_difference_loss", ops.Args{}, []*ndarray.Array{i64([]int{2}, 1, 2), i64([]int{}, 1), i64([]int{2}, 1, 2)}, []string{"absolute_difference_loss", "int64"}},
		{"mixed dtypes", "sigm_cross_entropy_loss", ops.Args{}, []*ndarray.Array{p, one, f32([]int{2, 2}, 1, 2, 3, 4)}, []string{"sigm_cross_entropy_loss", "float32"}},
		{"bad reduction", "log_loss", ops.Args{I: []int64{7}}, []*ndarray.Array{p, one, p}, []string{"log_loss", "reduction 7"}},
		{"cosine without dimension", "cosine_distance_loss", ops.Args{I: []int64{3}}, []*ndarray.Array{p, one, p}, []string{"cosine_distance_loss", "dimension"}},
		{"cosine dimension out of range", "cosine_distance_loss", ops.Args{I: []int64{3, 2}}, []*ndarray.Array{p, one, p}, []string{"cosine_distance_loss", "dimension 2"}},
		{"cosine labels shape", "cosine_distance_loss_grad", ops.Args{I: []int64{3, 1}}, []*ndarray.Array{p, one, f64([]int{1, 2}, 1, 2)},
			[]string{"cosine_distance_loss_grad", "labels", "[1 2]"}},
		{"pairwise rank 1", "mean_pairwssqerr_loss", ops.Args{}, []*ndarray.Array{f64([]int{2}, 1, 2), one, f64([]int{2}, 1, 2)},
			[]string{"mean_pairwssqerr_loss", "[2]"}},
		{"pairwise weights beyond examples", "mean_pairwssqerr_loss", ops.Args{}, []*ndarray.Array{p, f64([]int{2, 2}, 1, 1, 1, 1), p},
			[]string{"mean_pairwssqerr_loss", "weights"}},
		{"l2_loss of ints", "l2_loss", ops.Args{}, []*ndarray.Array{i64([]int{2}, 1, 2)}, []string{"l2_loss", "int64"}},
		{"with_logits labels shape", "softmax_cross_entropy_loss_with_logits", ops.Args{}, []*ndarray.Array{p, f64([]int{2}, 1, 2)},
			[]string{"softmax_cross_entropy_loss_with_logits", "labels", "[2 2]"}},
		{"with_logits classes axis", "softmax_cross_entropy_loss_with_logits", ops.Args{I: []int64{2}}, []*ndarray.Array{p, p},
			[]string{"softmax_cross_entropy_loss_with_logits", "axis 2"}},
		{"sparse labels shape", "sparse_softmax_cross_entropy_loss_with_logits", ops.Args{}, []*ndarray.Array{i64([]int{3}, 0, 1, 0), p},
			[]string{"sparse_softmax_cross_entropy_loss_with_logits", "[3]"}},
		{"sparse float labels", "sparse_softmax_cross_entropy_loss_with_logits", ops.Args{}, []*ndarray.Array{f64([]int{2}, 0, 1), p},
			[]string{"sparse_softmax_cross_entropy_loss_with_logits", "integer"}},
		{"weighted weights shape", "weighted_cross_entropy_with_logits", ops.Args{}, []*ndarray.Array{p, p, f64([]int{3}, 1, 2, 3)},
			[]string{"weighted_cross_entropy_with_logits", "weights of shape [3]"}},
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
			_, ierr := d.Infer(infos, &c.args)
			_, rerr := d.Run(nil, c.in, &c.args)
			for _, err := range []error{ierr, rerr} {
				if err == nil {
					t.Fatalf("no error (infer %v, run %v)", ierr, rerr)
				}
				for _, w := range c.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not mention %q", err, w)
					}
				}
			}
		})
	}
}

// A label beyond the classes is only seen at run time.
func TestSparseLabelOutOfRange(t *testing.T) {
	d, _ := ops.Lookup("sparse_softmax_cross_entropy_loss_with_logits")
	_, err := d.Run(nil, []*ndarray.Array{i64([]int{2}, 0, 2), f64([]int{2, 2}, 1, 2, 3, 4)}, &ops.Args{})
	if err == nil || !strings.Contains(err.Error(), "label 2") || !strings.Contains(err.Error(), "sparse_softmax") {
		t.Errorf("err = %v", err)
	}
}
