package createview_test

import (
	"fmt"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	cv "github.com/sdgo/sdgo/ops/createview"
)

// Benchmarks. Run with
//
//	go test -run '^$' -bench . -count 5 ./ops/createview/
//
// Resolve and create_view cost O(rank) whatever the array's size; a write
// through a view costs O(view) in place and O(base) when it must copy.

var benchSizes = []struct {
	name  string
	shape []int
}{
	{"1e3", []int{10, 100}},
	{"1e7", []int{10000, 1000}},
}

// perOp reports the measured time per iteration as ns/op explicitly.
func perOp(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/op")
}

func BenchmarkResolve(b *testing.B) {
	descs := cv.Descriptors(cv.Point(-1), cv.IntervalStep(1, -1, 1, true))
	for _, s := range benchSizes {
		b.Run(s.name, func(b *testing.B) {
			strides := ndarray.PackedStrides(s.shape)
			n := 0
			for b.Loop() {
				if _, _, _, err := cv.Resolve(s.shape, strides, 0, descs...); err != nil {
					b.Fatal(err)
				}
				n++
			}
			perOp(b, n)
		})
	}
}

func BenchmarkCreateViewRun(b *testing.B) {
	def, _ := ops.Lookup(cv.OpName)
	for _, s := range benchSizes {
		b.Run(s.name, func(b *testing.B) {
			x := ndarray.Must(ndarray.Zeros(ndarray.Float64, s.shape...))
			in := withIdx([]*ndarray.Array{x}, cv.Point(-1), cv.IntervalStep(1, -1, 1, true))
			n := 0
			for b.Loop() {
				out, err := def.Run(nil, in, &ops.Args{})
				if err != nil || !out[0].SameBuffer(x) {
					b.Fatal(err)
				}
				n++
			}
			perOp(b, n)
		})
	}
}

// BenchmarkViewAdd adds to a view of 1000 elements (one row) of a base of
// 1e3 or 1e7 elements: in place (the executor allows overwriting) and with
// the copy (it does not; the output buffer is recycled, as the executor's
// pool does, so the copy's cost is the copying, not the allocation).
func BenchmarkViewAdd(b *testing.B) {
	def, _ := ops.Lookup(cv.OpAdd)
	for _, s := range benchSizes {
		// Full, not Zeros: every page is touched, so the copy really reads
		// and writes memory.
		base := ndarray.Must(ndarray.Full(ndarray.Float64, 2, s.shape...))
		scratch := ndarray.Must(ndarray.Full(ndarray.Float64, 3, s.shape...))
		in := withIdx([]*ndarray.Array{base, ndarray.Must(ndarray.Full(ndarray.Float64, 1, s.shape[1]))}, cv.Point(-1))
		recycled := func(dt ndarray.DType, shape []int) *ndarray.Array { return scratch }
		for _, path := range []struct {
			name string
			ctx  *ops.Ctx
		}{
			{"inplace", ops.NewCtx("bench", recycled, func(i int) bool { return i == 0 })},
			{"copy", ops.NewCtx("bench", recycled, nil)},
		} {
			b.Run(fmt.Sprintf("%s/base=%s", path.name, s.name), func(b *testing.B) {
				n := 0
				for b.Loop() {
					if _, err := def.Run(path.ctx, in, &ops.Args{}); err != nil {
						b.Fatal(err)
					}
					n++
				}
				perOp(b, n)
				b.ReportMetric(1000, "view-elems")
			})
		}
	}
}

// BenchmarkExecWriteChain runs a graph that computes a 1e6-element array
// and then writes 8 of its rows one after the other: with nothing else
// reading the intermediate versions every write is in place; with every
// version requested as an output, each write copies.
func BenchmarkExecWriteChain(b *testing.B) {
	for _, keep := range []bool{false, true} {
		name := "inplace"
		if keep {
			name = "copy"
		}
		b.Run(name, func(b *testing.B) {
			g := graph.New()
			p := g.Placeholder("p", ndarray.Float64, 1000, 1000)
			one := g.Scalar(ndarray.Float64, 1)
			x := p.AddScalar(0)
			outs := []string{}
			for k := 0; k < 8; k++ {
				x = x.View(cv.Point(k * 100)).AddAssign(one)
				if keep {
					outs = append(outs, x.Name())
				}
			}
			outs = append(outs, x.Name())
			s := exec.New(g)
			feeds := map[string]*ndarray.Array{"p": ndarray.Must(ndarray.Full(ndarray.Float64, 2, 1000, 1000))}
			n := 0
			for b.Loop() {
				if _, err := s.Output(feeds, outs...); err != nil {
					b.Fatal(err)
				}
				n++
			}
			perOp(b, n)
		})
	}
}
