package ndarray

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sdgo/sdgo/kernels"
	"gorgonia.org/tensor"
)

// layouts returns the same 1000×1000 float32 values packed, in a padded
// buffer (rows padded to 1024 and offset by a border), as a strided view
// with contiguous rows (columns 500..1499 of a 1000×2000 matrix, as
// CreateView's intervals on outer axes give), and stepped (every second
// element of every second row: no contiguous run at all).
func layouts(b *testing.B, seed uint64) map[string]*Array {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := randArray(b, rng, Float32, 1000, 1000)
	p, err := NewPadded(Float32, []int{1000, 1000}, []int{2, 24}, []int{1, 8})
	if err != nil {
		b.Fatal(err)
	}
	if err := CopyInto(p, x); err != nil {
		b.Fatal(err)
	}
	big := Must(Zeros(Float32, 1000, 2000))
	rows, err := big.WithLayout(Layout{Shape: []int{1000, 1000}, Strides: []int{2000, 1}, Offset: 500})
	if err != nil {
		b.Fatal(err)
	}
	if err := CopyInto(rows, x); err != nil {
		b.Fatal(err)
	}
	return map[string]*Array{"packed": x, "padded": p, "strided": rows, "stepped": strided(b, x)}
}

// BenchmarkLayouts compares elementwise ops and a reduction on packed,
// padded and strided layouts of 1e6 elements (GB/s counts the bytes of the
// elements read and written, not the padding).
func BenchmarkLayouts(b *testing.B) {
	ls, ls2 := layouts(b, 1), layouts(b, 2)
	for _, name := range []string{"packed", "padded", "strided", "stepped"} {
		a, a2 := ls[name], ls2[name]
		out := Must(Zeros(Float32, 1000, 1000))
		b.Run(fmt.Sprintf("add/%s", name), func(b *testing.B) {
			b.SetBytes(3 * 4e6)
			for i := 0; i < b.N; i++ {
				if err := BinaryInto(Add, out, a, a2); err != nil {
					b.Fatal(err)
				}
			}
		})
		// the layout on the left, a packed array on the right
		b.Run(fmt.Sprintf("add-packed/%s", name), func(b *testing.B) {
			b.SetBytes(3 * 4e6)
			for i := 0; i < b.N; i++ {
				if err := BinaryInto(Add, out, a, ls2["packed"]); err != nil {
					b.Fatal(err)
				}
			}
		})
		// the same operand on both sides, gathered once when strided
		b.Run(fmt.Sprintf("add-self/%s", name), func(b *testing.B) {
			b.SetBytes(2 * 4e6)
			for i := 0; i < b.N; i++ {
				if err := BinaryInto(Add, out, a, a); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("tanh/%s", name), func(b *testing.B) {
			b.SetBytes(2 * 4e6)
			for i := 0; i < b.N; i++ {
				if err := UnaryInto(Tanh, out, a, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
		sum := Must(Zeros(Float32, 1000))
		b.Run(fmt.Sprintf("sum-rows/%s", name), func(b *testing.B) {
			b.SetBytes(4e6)
			for i := 0; i < b.N; i++ {
				if err := ReduceInto(Sum, sum, a, []int{1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCompare compares Compare(Gt) with BinaryInto(Add) on 1e6 float32
// elements, packed and with a broadcast scalar, reporting ns per element.
func BenchmarkCompare(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 2))
	x := randArray(b, rng, Float32, 1000, 1000)
	y := randArray(b, rng, Float32, 1000, 1000)
	s := Scalar[float32](0.5)
	out := Must(Zeros(Float32, 1000, 1000))
	perElem := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ns/elem")
	}
	b.Run("add", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := BinaryInto(Add, out, x, y); err != nil {
				b.Fatal(err)
			}
		}
		perElem(b)
	})
	for _, c := range []struct {
		name string
		y    *Array
	}{{"gt", y}, {"gt-scalar", s}} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := Compare(Gt, x, c.y); err != nil {
					b.Fatal(err)
				}
			}
			perElem(b)
		})
	}
	bx, by := Must(Compare(Gt, x, s)), Must(Compare(Lt, y, s))
	b.Run("and", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := Logic(And, bx, by); err != nil {
				b.Fatal(err)
			}
		}
		perElem(b)
	})
	b.Run("gt-stepped", func(b *testing.B) {
		sx := strided(b, x)
		for i := 0; i < b.N; i++ {
			if _, err := Compare(Gt, sx, sx); err != nil {
				b.Fatal(err)
			}
		}
		perElem(b)
	})
}

// BenchmarkLayoutsGorgonia is BenchmarkLayouts' add and tanh on
// gorgonia.org/tensor, the peer the strided target was set against, over
// the same buffers: its packed arrays, and its views (Slice) with the
// strided and stepped layouts. Each case first checks that gorgonia
// computes what BinaryInto and UnaryInto do.
func BenchmarkLayoutsGorgonia(b *testing.B) {
	ls, ls2 := layouts(b, 1), layouts(b, 2)
	// gview wraps a layout's whole buffer as a gorgonia tensor of its
	// parent's shape and slices the layout out of it.
	gview := func(a *Array, name string) tensor.Tensor {
		buf := Raw[float32](a)
		switch name {
		case "packed":
			return tensor.New(tensor.WithShape(1000, 1000), tensor.WithBacking(buf))
		case "strided":
			v, err := tensor.New(tensor.WithShape(1000, 2000), tensor.WithBacking(buf)).Slice(nil, tensor.S(500, 1500))
			if err != nil {
				b.Fatal(err)
			}
			return v
		default: // stepped
			v, err := tensor.New(tensor.WithShape(2000, 2000), tensor.WithBacking(buf)).Slice(tensor.S(0, 2000, 2), tensor.S(0, 2000, 2))
			if err != nil {
				b.Fatal(err)
			}
			return v
		}
	}
	out := tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(1000, 1000))
	want := Must(Zeros(Float32, 1000, 1000))
	check := func(name string) {
		b.Helper()
		// gorgonia's float32 tanh is math32.Tanh; ours is within a few
		// ulps of math.Tanh
		if got, err := fromGorgonia(out); err != nil || !AllClose(got, want, 0, 1e-6) {
			b.Fatalf("%s: gorgonia and ndarray disagree (%v)", name, err)
		}
	}
	for _, name := range []string{"packed", "strided", "stepped"} {
		x, y := gview(ls[name], name), gview(ls2[name], name)
		b.Run("add/"+name, func(b *testing.B) {
			if err := BinaryInto(Add, want, ls[name], ls2[name]); err != nil {
				b.Fatal(err)
			}
			if _, err := tensor.Add(x, y, tensor.WithReuse(out)); err != nil {
				b.Fatal(err)
			}
			check("add/" + name)
			b.SetBytes(3 * 4e6)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := tensor.Add(x, y, tensor.WithReuse(out)); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("tanh/"+name, func(b *testing.B) {
			if err := UnaryInto(Tanh, want, ls[name], 0); err != nil {
				b.Fatal(err)
			}
			if _, err := tensor.Tanh(x, tensor.WithReuse(out)); err != nil {
				b.Fatal(err)
			}
			check("tanh/" + name)
			b.SetBytes(2 * 4e6)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := tensor.Tanh(x, tensor.WithReuse(out)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// gorgoniaOf returns a packed float array as a gorgonia tensor over the same
// elements, and fromGorgonia a contiguous float tensor as an array over its
// backing slice: what ndarray/densetensor's ToDense and FromDense do for
// these benchmarks' operands. A test of package ndarray cannot import
// densetensor, which imports ndarray.
func gorgoniaOf(a *Array) (*tensor.Dense, error) {
	if !a.IsPacked() {
		return nil, fmt.Errorf("gorgoniaOf: %v is not packed", a.Layout())
	}
	var data any
	switch n := a.Size(); a.DType() {
	case Float32:
		data = Raw[float32](a)[a.offset : a.offset+n]
	case Float64:
		data = Raw[float64](a)[a.offset : a.offset+n]
	default:
		return nil, fmt.Errorf("gorgoniaOf: %v", a.DType())
	}
	return tensor.New(tensor.WithShape(a.Shape()...), tensor.WithBacking(data)), nil
}

func fromGorgonia(d *tensor.Dense) (*Array, error) {
	switch data := d.Data().(type) {
	case []float32:
		return Wrap(data, d.Shape()...)
	case []float64:
		return Wrap(data, d.Shape()...)
	}
	return nil, fmt.Errorf("fromGorgonia: %T data", d.Data())
}

// BenchmarkLayoutsFromMemory is BenchmarkLayouts' add at 1e7 elements,
// where the packed operands no longer fit in the cache either, so both
// layouts run at memory speed. A stepped operand's elements lie on twice as
// many cache lines, so the traffic of add is 8+8+4 bytes per element
// (+4 for reading the output's lines before writing them) against 4+4+4(+4)
// packed: about 1.5x at best. lines-GB/s counts that traffic.
var sinkF32 float32

func BenchmarkLayoutsFromMemory(b *testing.B) {
	const n = 3162 // 3162² ≈ 1e7
	rng := rand.New(rand.NewPCG(3, 1))
	x, y := randArray(b, rng, Float32, n, n), randArray(b, rng, Float32, n, n)
	out := Must(Zeros(Float32, n, n))
	for _, c := range []struct {
		name  string
		x, y  *Array
		lines float64 // bytes of cache lines read per element, both operands
	}{
		{"packed", x, y, 8},
		{"stepped", strided(b, x), strided(b, y), 16},
	} {
		b.Run("add/"+c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := BinaryInto(Add, out, c.x, c.y); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((c.lines+8)*n*n/1e9/(b.Elapsed().Seconds()/float64(b.N)), "lines-GB/s")
		})
	}
	// read/* take the dot product of the lines add/stepped reads, with the
	// packed kernel: the rows the stepped operands cover (every second row
	// of their parents) against the same number of bytes of the parents in
	// one run. The memory system
	// serves the first pattern more slowly than the second, whatever the
	// kernel; that, not the gather, is the bound for add/stepped.
	sx, sy := strided(b, x), strided(b, y)
	span := 2*n - 1 // the elements a row of sx covers in its parent
	reads := map[string]func() float32{
		"packed": func() float32 {
			xs, ys := Raw[float32](sx), Raw[float32](sy)
			return kernels.F32.Dot(xs[:2*n*n], ys[:2*n*n])
		},
		"stepped-lines": func() float32 {
			xs, ys := Raw[float32](sx), Raw[float32](sy)
			var s float32
			for r := 0; r < n; r++ {
				o := r * sx.Strides()[0]
				s += kernels.F32.Dot(xs[o:o+span], ys[o:o+span])
			}
			return s
		},
	}
	for _, name := range []string{"packed", "stepped-lines"} {
		b.Run("read/"+name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sinkF32 += reads[name]()
			}
			b.ReportMetric(16*n*n/1e9/(b.Elapsed().Seconds()/float64(b.N)), "lines-GB/s")
		})
	}
	b.Run("copy", func(b *testing.B) {
		src, dst := x.Buffer().Bytes(), out.Buffer().Bytes()
		for i := 0; i < b.N; i++ {
			copy(dst, src)
		}
		b.ReportMetric(4*3*n*n/1e9/(b.Elapsed().Seconds()/float64(b.N)), "lines-GB/s")
	})
}

// BenchmarkReduceOuter times float32 sums over outer axes, where each run
// adds a row of the input into a row of the output: column sums of tall
// and of square matrices, a bias gradient's batch sum over [N H W C], and
// for comparison the sums of rows (inner runs).
func BenchmarkReduceOuter(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, c := range []struct {
		name  string
		shape []int
		axes  []int
	}{
		{"cols/1e6x8", []int{1_000_000, 8}, []int{0}},
		{"cols/1e4x100", []int{10_000, 100}, []int{0}},
		{"cols/1000x1000", []int{1000, 1000}, []int{0}},
		{"cols/256x1e5", []int{256, 100_000}, []int{0}},
		{"nhwc/32x16x16x64", []int{32, 16, 16, 64}, []int{0, 1, 2}},
		{"nchw/64x16x8x8", []int{64, 16, 8, 8}, []int{0, 2, 3}},
		{"rows/1000x1000", []int{1000, 1000}, []int{1}},
	} {
		x := randArray(b, rng, Float32, c.shape...)
		out := Must(Zeros(Float32, ReducedShape(c.shape, c.axes, false)...))
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(x.Size() * 4))
			for i := 0; i < b.N; i++ {
				if err := ReduceInto(Sum, out, x, c.axes); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkShortRuns times the two loops whose inner runs are a short row:
// a bias add x[N C] + b[C] (b broadcast over the rows) and its gradient's
// sum over the batch axis, the column sums of [N C], for C from 1 to 256
// and N·C = 1e6 and 1e7. In the same run, as the reference, the packed op
// over the same bytes: x + a scalar (one run, the same two streams) and
// the sum of all of x (one run); and, where gorgonia.org/tensor has the
// op, gorgonia's: its Sum along axis 0 (its Add does not broadcast). GB/s
// counts the bytes of x read and of the output written.
func BenchmarkShortRuns(b *testing.B) {
	rng := rand.New(rand.NewPCG(4, 4))
	gbps := func(b *testing.B, bytes int) {
		b.ReportMetric(float64(bytes)/1e9/(b.Elapsed().Seconds()/float64(b.N)), "GB/s")
	}
	for _, dt := range []DType{Float32, Float64} {
		for _, total := range []int{1e6, 1e7} {
			x := randArray(b, rng, dt, total)
			out := Must(Zeros(dt, total))
			size := total * dt.Size()
			pre := fmt.Sprintf("%v/%.0e", dt, float64(total))
			s := Must(ScalarOf(dt, 0.5))
			// out's pages are touched before any timing
			if err := BinaryInto(Add, out, x, s); err != nil {
				b.Fatal(err)
			}
			b.Run(pre+"/add-packed", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if err := BinaryInto(Add, out, x, s); err != nil {
						b.Fatal(err)
					}
				}
				gbps(b, 2*size)
			})
			all := Must(Zeros(dt))
			b.Run(pre+"/sum-packed", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if err := ReduceInto(Sum, all, x, nil); err != nil {
						b.Fatal(err)
					}
				}
				gbps(b, size)
			})
			for _, c := range []int{1, 4, 8, 16, 64, 256} {
				n := total / c // 1e6/256 leaves 64 elements out
				rows := Layout{Shape: []int{n, c}, Strides: []int{c, 1}}
				xc, oc := Must(x.WithLayout(rows)), Must(out.WithLayout(rows))
				size := n * c * dt.Size()
				bias := randArray(b, rng, dt, c)
				b.Run(fmt.Sprintf("%s/add-bias/C=%d", pre, c), func(b *testing.B) {
					for i := 0; i < b.N; i++ {
						if err := BinaryInto(Add, oc, xc, bias); err != nil {
							b.Fatal(err)
						}
					}
					gbps(b, 2*size)
				})
				cols := Must(Zeros(dt, c))
				b.Run(fmt.Sprintf("%s/sum0/C=%d", pre, c), func(b *testing.B) {
					for i := 0; i < b.N; i++ {
						if err := ReduceInto(Sum, cols, xc, []int{0}); err != nil {
							b.Fatal(err)
						}
					}
					gbps(b, size)
				})
				b.Run(fmt.Sprintf("%s/gorgonia-sum0/C=%d", pre, c), func(b *testing.B) {
					g, err := gorgoniaOf(xc)
					if err != nil {
						b.Fatal(err)
					}
					if err := ReduceInto(Sum, cols, xc, []int{0}); err != nil {
						b.Fatal(err)
					}
					r, err := g.Sum(0)
					if err != nil {
						b.Fatal(err)
					}
					// gorgonia adds the rows one by one in the dtype:
					// within float32's error over 1e7 additions
					if got, err := fromGorgonia(r); err != nil || !AllClose(got, cols, 1e-3, 1e-3) {
						b.Fatalf("gorgonia and ndarray disagree (%v): %v vs %v", err, got, cols)
					}
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						if _, err := g.Sum(0); err != nil {
							b.Fatal(err)
						}
					}
					gbps(b, size)
				})
			}
		}
	}
}

// BenchmarkShortRunsViews times loops whose short rows stay one kernel
// call each, where only the cost of stepping from run to run can go: the
// add of a view with padded rows (the first C columns of [N 2C]) and a
// packed array, the same view's tanh, and x[N C] - m[N 1] (a softmax's
// shift), float32, N·C = 1e6; beside x + a scalar over the same bytes. GB/s
// counts the elements read and written.
func BenchmarkShortRunsViews(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 5))
	const total = 1_000_000
	gbps := func(b *testing.B, bytes int) {
		b.ReportMetric(float64(bytes)/1e9/(b.Elapsed().Seconds()/float64(b.N)), "GB/s")
	}
	x := randArray(b, rng, Float32, total)
	out := Must(Zeros(Float32, total))
	if err := BinaryInto(Add, out, x, Must(ScalarOf(Float32, 0.5))); err != nil {
		b.Fatal(err)
	}
	b.Run("add-packed", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := BinaryInto(Add, out, x, Must(ScalarOf(Float32, 0.5))); err != nil {
				b.Fatal(err)
			}
		}
		gbps(b, 2*4*total)
	})
	for _, c := range []int{8, 64} {
		n := total / c
		rows := Layout{Shape: []int{n, c}, Strides: []int{c, 1}}
		xc, oc := Must(x.WithLayout(rows)), Must(out.WithLayout(rows))
		wide := randArray(b, rng, Float32, n, 2*c)
		view := Must(wide.WithLayout(Layout{Shape: []int{n, c}, Strides: []int{2 * c, 1}}))
		m := randArray(b, rng, Float32, n, 1)
		b.Run(fmt.Sprintf("add-view/C=%d", c), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := BinaryInto(Add, oc, view, xc); err != nil {
					b.Fatal(err)
				}
			}
			gbps(b, 3*4*total)
		})
		b.Run(fmt.Sprintf("tanh-view/C=%d", c), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := UnaryInto(Tanh, oc, view, 0); err != nil {
					b.Fatal(err)
				}
			}
			gbps(b, 2*4*total)
		})
		b.Run(fmt.Sprintf("sub-col/C=%d", c), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := BinaryInto(Sub, oc, xc, m); err != nil {
					b.Fatal(err)
				}
			}
			gbps(b, 2*4*total)
		})
	}
}
