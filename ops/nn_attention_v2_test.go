package ops_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// dot_product_attention_v2 against a loop-by-loop reference on random
// inputs of every rank, its dropout and its errors; hand-worked values and
// gradient checks are in validation/opcases/nn_attention_v2.go.

// attnV2Ref computes the attention, weights and logits of rank-4 inputs
// q [B, Tq, H, d], k [B, Tv, KVH, d], v [B, Tv, KVH, dv] element by
// element.
func attnV2Ref(q, k, v []float64, b, tq, tv, h, kvh, d, dv int, scale float64, causal bool, qm, vm []float64) (out, w, l []float64) {
	out = make([]float64, b*tq*h*dv)
	w = make([]float64, b*h*tq*tv)
	l = make([]float64, b*h*tq*tv)
	grp := h / kvh
	for bi := 0; bi < b; bi++ {
		for hi := 0; hi < h; hi++ {
			kh := hi / grp
			for i := 0; i < tq; i++ {
				row := l[((bi*h+hi)*tq+i)*tv:][:tv]
				mx := math.Inf(-1)
				for j := range row {
					var s float64
					for f := 0; f < d; f++ {
						s += q[((bi*tq+i)*h+hi)*d+f] * k[((bi*tv+j)*kvh+kh)*d+f]
					}
					m := 1.0
					if vm != nil {
						m = vm[bi*tv+j]
					}
					if causal && j > i+max(0, tv-tq) {
						m = 0
					}
					row[j] = scale*s + (m-1)*1e9
					mx = max(mx, row[j])
				}
				wr := w[((bi*h+hi)*tq+i)*tv:][:tv]
				var z float64
				for j := range wr {
					wr[j] = math.Exp(row[j] - mx)
					z += wr[j]
				}
				for j := range wr {
					wr[j] /= z
				}
				qmv := 1.0
				if qm != nil {
					qmv = qm[bi*tq+i]
				}
				for f := 0; f < dv; f++ {
					var s float64
					for j := range wr {
						s += wr[j] * v[((bi*tv+j)*kvh+kh)*dv+f]
					}
					out[((bi*tq+i)*h+hi)*dv+f] = s * qmv
				}
			}
		}
	}
	return out, w, l
}

func randVals(r *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = r.NormFloat64()
	}
	return v
}

func TestAttentionV2Reference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for it := 0; it < 40; it++ {
		rank := 2 + it%3
		b, tq, tv, kvh, grp, d, dv := 1+r.IntN(2), 1+r.IntN(4), 1+r.IntN(4), 1+r.IntN(2), 1+r.IntN(2), 1+r.IntN(3), 1+r.IntN(3)
		if rank < 4 {
			kvh, grp = 1, 1
		}
		if rank == 2 {
			b = 1
		}
		h := kvh * grp
		causal := r.IntN(2) == 0
		scale := []float64{1, 0.5, -1}[r.IntN(3)]
		q, k, v := randVals(r, b*tq*h*d), randVals(r, b*tv*kvh*d), randVals(r, b*tv*kvh*dv)
		var qm, vm []float64
		if r.IntN(2) == 0 {
			qm = make([]float64, b*tq)
			for i := range qm {
				qm[i] = float64(r.IntN(2))
			}
		}
		if r.IntN(2) == 0 {
			vm = make([]float64, b*tv)
			for i := range vm {
				vm[i] = float64(r.IntN(2))
			}
		}
		sc := scale
		if sc <= 0 {
			sc = 1 / math.Sqrt(float64(d))
		}
		wo, ww, wl := attnV2Ref(q, k, v, b, tq, tv, h, kvh, d, dv, sc, causal, qm, vm)
		shape := func(t, heads, f int) []int {
			switch rank {
			case 2:
				return []int{t, f}
			case 3:
				return []int{b, t, f}
			}
			return []int{b, t, heads, f}
		}
		mshape := func(t int) []int {
			if rank == 2 {
				return []int{t}
			}
			return []int{b, t}
		}
		in := []*ndarray.Array{f64(shape(tq, h, d), q...), f64(shape(tv, kvh, dv), v...), f64(shape(tv, kvh, d), k...), f64([]int{0}), f64([]int{0})}
		if qm != nil {
			in[3] = f64(mshape(tq), qm...)
		}
		if vm != nil {
			in[4] = f64(mshape(tv), vm...)
		}
		outs := runOp(t, "dot_product_attention_v2", ops.Args{F: []float64{scale}, B: []bool{causal}}, in...)
		for i, want := range [][]float64{wo, ww, wl} {
			got := outs[i].Float64s()
			for j := range want {
				if math.Abs(got[j]-want[j]) > 1e-12*max(1, math.Abs(want[j])) {
					t.Fatalf("case %d (rank %d, b %d tq %d tv %d heads %d/%d, causal %v, masks %v %v): output %d[%d] = %v, want %v",
						it, rank, b, tq, tv, h, kvh, causal, qm, vm, i, j, got[j], want[j])
				}
			}
		}
	}
}

func TestAttentionV2Dropout(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 1))
	q, v := f64([]int{2, 4, 3}, randVals(r, 24)...), f64([]int{2, 5, 3}, randVals(r, 30)...)
	plain := runOp(t, "dot_product_attention_v2", ops.Args{}, q, v)
	train := ops.Args{F: []float64{1, 0.5}, B: []bool{false, true}, I: []int64{42}}
	outs := runOp(t, "dot_product_attention_v2", train, q, v)
	if len(outs) != 4 {
		t.Fatalf("dropout 0.5: %d outputs, want 4", len(outs))
	}
	again := runOp(t, "dot_product_attention_v2", train, q, v)
	w0, w, m := plain[1].Float64s(), outs[1].Float64s(), outs[3].Float64s()
	kept := 0
	for i := range m {
		if m[i] != 0 && m[i] != 2 {
			t.Fatalf("dropout multiplier %v: want 0 or 1/(1-0.5)", m[i])
		}
		if m[i] == 2 {
			kept++
		}
		if math.Abs(w[i]-w0[i]*m[i]) > 1e-15 {
			t.Fatalf("weight %d = %v, want the softmax %v times the multiplier %v", i, w[i], w0[i], m[i])
		}
	}
	if kept == 0 || kept == len(m) {
		t.Errorf("dropout 0.5 kept %d of %d weights", kept, len(m))
	}
	if !ndarray.Equal(outs[0], again[0]) || !ndarray.Equal(outs[3], again[3]) {
		t.Error("the same seed gave different draws")
	}
	// Out of training, dropout is off and the multiplier is ones.
	outs = runOp(t, "dot_product_attention_v2", ops.Args{F: []float64{1, 0.5}, I: []int64{42}}, q, v)
	if !ndarray.Equal(outs[0], plain[0]) {
		t.Error("dropout out of training changed the attention")
	}
	for _, x := range outs[3].Float64s() {
		if x != 1 {
			t.Fatalf("multiplier out of training %v, want 1", x)
		}
	}
}

func TestAttentionV2Errors(t *testing.T) {
	d, _ := ops.Lookup("dot_product_attention_v2")
	info := func(shape ...int) ops.Info { return ops.Info{DType: ndarray.Float32, Shape: shape} }
	for _, c := range []struct {
		args ops.Args
		in   []ops.Info
		msg  []string
	}{
		{ops.Args{}, []ops.Info{info(2, 3, 4), info(2, 5)}, []string{"dot_product_attention_v2", "[2 3 4]", "[2 5]", "rank"}},
		{ops.Args{}, []ops.Info{info(2, 3, 4), info(3, 5, 4)}, []string{"batch"}},
		{ops.Args{}, []ops.Info{info(2, 3, 4), info(2, 5, 4), info(2, 5, 3)}, []string{"feature size", "[2 3 4]", "[2 5 3]"}},
		{ops.Args{}, []ops.Info{info(2, 3, 4), info(2, 5, 4), info(2, 6, 4)}, []string{"timesteps"}},
		{ops.Args{}, []ops.Info{info(1, 3, 3, 4), info(1, 5, 2, 4), info(1, 5, 2, 4)}, []string{"heads", "divide"}},
		{ops.Args{}, []ops.Info{info(2, 3, 4), info(2, 5, 4), info(2, 5, 4), info(2, 4)}, []string{"query mask", "[2 4]", "[2 3]"}},
		{ops.Args{}, []ops.Info{info(2, 3, 4), info(2, 5, 4), info(2, 5, 4), info(0), info(5)}, []string{"value mask", "[5]"}},
		{ops.Args{F: []float64{1, 1.5}}, []ops.Info{info(2, 3, 4), info(2, 5, 4)}, []string{"dropout", "1.5"}},
		{ops.Args{}, []ops.Info{{DType: ndarray.Int32, Shape: []int{2, 3}}, info(2, 3)}, []string{"int32"}},
	} {
		_, err := d.Infer(c.in, &c.args)
		if err == nil {
			t.Errorf("%v: no error", c.in)
			continue
		}
		for _, m := range c.msg {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("error %q does not mention %q", err, m)
			}
		}
	}
	six := []*ndarray.Array{f64([]int{1, 1, 1}, 1), f64([]int{1, 1, 1}, 1), f64([]int{1, 1, 1}, 1), f64([]int{0}), f64([]int{0}), f64([]int{1, 1, 1}, 0)}
	if _, err := d.Run(nil, six, &ops.Args{}); err == nil || !strings.Contains(err.Error(), "not supported") {
		t.Errorf("six inputs: %v", err)
	}
}
