package ops_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// For every forward op, random inputs (shapes with size-1, empty and
// broadcastable axes, mixed dtypes, a few argument forms): whenever Infer
// accepts the known shapes and Run succeeds, what Run returns has the
// inferred dtype and shape, and is admitted by what Infer gives with some
// sizes or ranks unknown. The executor rejects any output that does not
// fit, so a mismatch is a graph that builds and cannot run. (The fused
// backprop ops are left out: autodiff builds them with matching inputs.)
func TestInferenceAdmitsRunOutputs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	shapes := [][]int{{}, {1}, {3}, {2, 3}, {3, 1}, {1, 3}, {2, 1, 3}, {2, 3, 4}, {0, 3}, {4, 4}}
	dts := []ndarray.DType{ndarray.Float64, ndarray.Float32, ndarray.Int64, ndarray.Int32, ndarray.Bool}
	reported := map[string]bool{}
	for _, d := range ops.All() {
		if d.Flags&(ops.ControlFlow|ops.Stateful) != 0 || strings.HasSuffix(d.Name, "_bp") || strings.HasSuffix(d.Name, "_grad") {
			continue
		}
		for trial := 0; trial < 1500; trial++ {
			n := d.MinIn
			if d.MaxIn < 0 || d.MaxIn > n {
				n += rng.IntN(2)
			}
			dt := dts[rng.IntN(len(dts))]
			ins := make([]*ndarray.Array, n)
			known := make([]ops.Info, n)
			unknown := make([]ops.Info, n)
			for i := range ins {
				sh := shapes[rng.IntN(len(shapes))]
				idt := dt
				if rng.IntN(4) == 0 {
					idt = dts[rng.IntN(len(dts))]
				}
				ins[i] = ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.RandNormal(rng, ndarray.Float64, 0, 2, sh...)), idt))
				known[i] = ops.Info{DType: idt, Shape: sh}
				u := append([]int(nil), sh...)
				for j := range u {
					if rng.IntN(2) == 0 {
						u[j] = -1
					}
				}
				unknown[i] = ops.Info{DType: idt, Shape: u}
				if rng.IntN(6) == 0 {
					unknown[i] = ops.Info{DType: idt, UnknownRank: true}
				}
			}
			var args ops.Args
			switch rng.IntN(4) {
			case 1:
				args.I = []int64{int64(rng.IntN(3) - 1)}
			case 2:
				args.Dims = []int{rng.IntN(3) - 1}
				args.B = []bool{rng.IntN(2) == 0}
			case 3:
				args.I = []int64{int64(rng.IntN(3)), int64(rng.IntN(3))}
			}
			want, err := d.Infer(known, &args)
			if err != nil {
				continue
			}
			got, err := d.Run(nil, ins, &args)
			if err != nil {
				continue
			}
			wantU, errU := d.Infer(unknown, &args)
			check := func(kind string, infos, want []ops.Info) {
				if len(got) != len(want) {
					t.Errorf("%s: %d outputs, %d inferred", d.Name, len(got), len(want))
					return
				}
				for i, a := range got {
					if a == nil {
						continue
					}
					w := want[i]
					bad := (w.DType != ndarray.Invalid && w.DType != a.DType()) || !w.Admits(a.Shape())
					if kind == "known" && w.ShapeKnown() && !ndarray.SameShape(w.Shape, a.Shape()) {
						bad = true
					}
					if bad && !reported[d.Name+kind] {
						reported[d.Name+kind] = true
						t.Errorf("%s with inputs %v (%s sizes), args %+v: output %d is %v%v, inferred %v", d.Name, infos, kind, args, i, a.DType(), a.Shape(), w)
					}
				}
			}
			check("known", known, want)
			if errU == nil {
				check("unknown", unknown, wantU)
			}
		}
	}
}
