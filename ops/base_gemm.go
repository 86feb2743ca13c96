package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// SameDiff's base-namespace matrix products beyond mmul: tensordot
// (libnd4j's tensormmul) with tensormmul_bp, and batched_gemm with
// batched_gemm_bp. Each product is one GEMM (ndarray.MatMulInto).

// ---------------------------------------------------------------- tensordot

// tensorDotAxes reads tensormmul's int args [nA, axesA..., nB, axesB...]
// and returns the axes, normalized for ranks ra and rb.
func tensorDotAxes(name string, a *Args, ra, rb int) (ax, bx []int, err error) {
	p := a.I
	if len(p) < 2 {
		return nil, nil, fmt.Errorf("%s: int args must be [nA, axesA..., nB, axesB...], got %v", name, p)
	}
	if p[0] < 0 || p[0] > int64(len(p)) {
		return nil, nil, fmt.Errorf("%s: int args must be [nA, axesA..., nB, axesB...], got %v", name, p)
	}
	na := int(p[0])
	if len(p) < na+2 {
		return nil, nil, fmt.Errorf("%s: int args must be [nA, axesA..., nB, axesB...], got %v", name, p)
	}
	nb := int(p[na+1])
	if nb != na || len(p) != na+nb+2 {
		return nil, nil, fmt.Errorf("%s: int args must be [n, axesA..., n, axesB...] with as many axes of a as of b, got %v", name, p)
	}
	norm := func(v []int64, r int, which string) ([]int, error) {
		out := make([]int, len(v))
		seen := map[int]bool{}
		for i, d := range v {
			x := int(d)
			if x < 0 {
				x += r
			}
			if x < 0 || x >= r || seen[x] {
				return nil, fmt.Errorf("%s: axes %v of %s (rank %d) out of range or repeated", name, v, which, r)
			}
			seen[x] = true
			out[i] = x
		}
		return out, nil
	}
	if ax, err = norm(p[1:na+1], ra, "a"); err != nil {
		return nil, nil, err
	}
	bx, err = norm(p[na+2:], rb, "b")
	return ax, bx, err
}

// freeAxes returns the axes of rank r not in contracted, in order.
func freeAxes(r int, contracted []int) []int {
	in := make([]bool, r)
	for _, a := range contracted {
		in[a] = true
	}
	var out []int
	for i := 0; i < r; i++ {
		if !in[i] {
			out = append(out, i)
		}
	}
	return out
}

// tensorDotShape checks the contracted sizes and returns the result shape:
// a's free sizes then b's.
func tensorDotShape(name string, as, bs []int, ax, bx []int) ([]int, error) {
	for i := range ax {
		da, db := as[ax[i]], bs[bx[i]]
		if da >= 0 && db >= 0 && da != db {
			return nil, fmt.Errorf("%s of shapes %v and %v: contracted axes %v and %v differ in size", name, as, bs, ax, bx)
		}
	}
	var out []int
	for _, i := range freeAxes(len(as), ax) {
		out = append(out, as[i])
	}
	for _, i := range freeAxes(len(bs), bx) {
		out = append(out, bs[i])
	}
	return out, nil
}

func prod(s []int) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

func pick(s, idx []int) []int {
	out := make([]int, len(idx))
	for i, j := range idx {
		out[i] = s[j]
	}
	return out
}

// asMatrix permutes x's axes to first ++ second and reshapes it to a
// [prod first, prod second] matrix.
func asMatrix(x *ndarray.Array, first, second []int) (*ndarray.Array, error) {
	p, err := ndarray.Permute(x, append(append([]int(nil), first...), second...)...)
	if err != nil {
		return nil, err
	}
	if p, err = ndarray.Contiguous(p); err != nil {
		return nil, err
	}
	return ndarray.Reshape(p, prod(pick(x.Shape(), first)), prod(pick(x.Shape(), second)))
}

// tensorDotInfer is tensordot's and tensormmul_bp's inference of the
// product's shape.
func tensorDotInfer(name string, a, b Info, args *Args) ([]int, bool, error) {
	if err := needFloat(name, a); err != nil {
		return nil, false, err
	}
	if a.DType != b.DType {
		return nil, false, fmt.Errorf("%s of %v and %v: dtypes differ", name, a.DType, b.DType)
	}
	if a.UnknownRank || b.UnknownRank {
		return nil, false, nil
	}
	ax, bx, err := tensorDotAxes(name, args, len(a.Shape), len(b.Shape))
	if err != nil {
		return nil, false, err
	}
	s, err := tensorDotShape(name, a.Shape, b.Shape, ax, bx)
	return s, true, err
}

// tensorDotOp is libnd4j's tensormmul, which SameDiff files name tensordot:
// the sum over pairs of axes of a and b of their products, int args [n,
// axesA..., n, axesB...]; the result has a's free axes then b's. It runs
// as one matrix product (GEMM) of a and b permuted and reshaped. Files
// store the name tensordot (Java's opName) with the hash of tensormmul,
// libnd4j's name for the op, which Java looks up.
var tensorDotOp = Register(&Def{
	Name: "tensordot", Aliases: []string{"tensormmul"}, Type: Custom, Num: Hash("tensormmul"), MinIn: 2, MaxIn: 2,
	Doc: "contraction of a and b over paired axes; int args [n, axesA..., n, axesB...]; a's free axes then b's",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		s, known, err := tensorDotInfer("tensordot", in[0], in[1], a)
		if err != nil {
			return nil, err
		}
		if !known {
			return infos(Info{DType: in[0].DType, UnknownRank: true}), nil
		}
		return infos(Info{DType: in[0].DType, Shape: s}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, args *Args) ([]*ndarray.Array, error) {
		a, b := in[0], in[1]
		ax, bx, err := tensorDotAxes("tensordot", args, a.Rank(), b.Rank())
		if err != nil {
			return nil, err
		}
		s, err := tensorDotShape("tensordot", a.Shape(), b.Shape(), ax, bx)
		if err != nil {
			return nil, err
		}
		am, err := asMatrix(a, freeAxes(a.Rank(), ax), ax)
		if err != nil {
			return nil, err
		}
		bm, err := asMatrix(b, bx, freeAxes(b.Rank(), bx))
		if err != nil {
			return nil, err
		}
		out := c.Alloc(a.DType(), s)
		o2, err := ndarray.Reshape(out, am.Shape()[0], bm.Shape()[1])
		if err != nil {
			return nil, err
		}
		return one(out, ndarray.MatMulIntoStop(c.Stop(), o2, am, bm, false, false))
	},
	Grad: bpOp("tensormmul_bp"),
})

// inversePerm returns the inverse of permutation p.
func inversePerm(p []int) []int {
	q := make([]int, len(p))
	for i, j := range p {
		q[j] = i
	}
	return q
}

// fromMatrix reshapes the matrix m to the sizes of x's axes first ++ second,
// puts the axes back in x's order and copies the result into an array of
// x's shape from c.
func fromMatrix(c *Ctx, m *ndarray.Array, x *ndarray.Array, first, second []int) (*ndarray.Array, error) {
	perm := append(append([]int(nil), first...), second...)
	r, err := ndarray.Reshape(m, pick(x.Shape(), perm)...)
	if err != nil {
		return nil, err
	}
	if r, err = ndarray.Permute(r, inversePerm(perm)...); err != nil {
		return nil, err
	}
	out := c.Alloc(m.DType(), x.Shape())
	return out, ndarray.CopyInto(out, r)
}

// tensorMmulBpOp is libnd4j's tensormmul_bp: inputs a, b, gradO, with
// tensordot's int args; gradients of a and b, each one GEMM.
var tensorMmulBpOp = Register(&Def{
	Name: "tensormmul_bp", Type: Custom, MinIn: 3, MaxIn: 3,
	Doc: "gradients of tensordot for inputs a, b, gradO (tensordot's int args)",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		s, known, err := tensorDotInfer("tensormmul_bp", in[0], in[1], a)
		if err != nil {
			return nil, err
		}
		if known && !in[2].UnknownRank && !(Info{Shape: s}).Admits(in[2].Shape) {
			return nil, fmt.Errorf("tensormmul_bp: the gradient has shape %v, the product %v", in[2].Shape, s)
		}
		if in[2].DType != in[0].DType {
			return nil, fmt.Errorf("tensormmul_bp: the gradient is %v, the inputs %v", in[2].DType, in[0].DType)
		}
		return sameInfos(in, 2), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, args *Args) ([]*ndarray.Array, error) {
		a, b, g := in[0], in[1], in[2]
		ax, bx, err := tensorDotAxes("tensormmul_bp", args, a.Rank(), b.Rank())
		if err != nil {
			return nil, err
		}
		s, err := tensorDotShape("tensormmul_bp", a.Shape(), b.Shape(), ax, bx)
		if err != nil {
			return nil, err
		}
		if !ndarray.SameShape(s, g.Shape()) {
			return nil, fmt.Errorf("tensormmul_bp: the gradient has shape %v, the product %v", g.Shape(), s)
		}
		fa, fb := freeAxes(a.Rank(), ax), freeAxes(b.Rank(), bx)
		gc, err := ndarray.Contiguous(g)
		if err != nil {
			return nil, err
		}
		gm, err := ndarray.Reshape(gc, prod(pick(a.Shape(), fa)), prod(pick(b.Shape(), fb)))
		if err != nil {
			return nil, err
		}
		var da, db *ndarray.Array
		if c.Needed(0) { // G [M N] · Bm [K N]ᵀ -> [M K]
			bm, err := asMatrix(b, bx, fb)
			if err != nil {
				return nil, err
			}
			m, err := ndarray.MatMulStop(c.Stop(), gm, bm, false, true)
			if err != nil {
				return nil, err
			}
			if da, err = fromMatrix(c, m, a, fa, ax); err != nil {
				return nil, err
			}
		}
		if c.Needed(1) { // Am [M K]ᵀ · G [M N] -> [K N]
			am, err := asMatrix(a, fa, ax)
			if err != nil {
				return nil, err
			}
			m, err := ndarray.MatMulStop(c.Stop(), am, gm, true, false)
			if err != nil {
				return nil, err
			}
			if db, err = fromMatrix(c, m, b, bx, fb); err != nil {
				return nil, err
			}
		}
		return []*ndarray.Array{da, db}, nil
	},
})

// ---------------------------------------------------------------- batched_gemm

// gemmArgs are batched_gemm's int args.
type gemmArgs struct {
	ta, tb         bool
	m, n, k, batch int
}

// readGemmArgs reads and checks batched_gemm's int args [transA, transB,
// M, N, K, ldA, ldB, ldC, batchSize] (transposes 0/1 or BLAS's 111/112; the
// leading dimensions are checked as libnd4j checks them, column-major BLAS
// style, and not otherwise used) against nIn inputs, 2 + 2·batch (+ batch
// gradients when bp).
func readGemmArgs(name string, a *Args, nIn int, bp bool) (gemmArgs, error) {
	var g gemmArgs
	if len(a.I) < 9 {
		return g, fmt.Errorf("%s: int args must be [transA, transB, M, N, K, ldA, ldB, ldC, batchSize], got %v", name, a.I)
	}
	p := a.I
	trans := func(v int64, what string) (bool, error) {
		switch v {
		case 0, 111:
			return false, nil
		case 1, 112:
			return true, nil
		}
		return false, fmt.Errorf("%s: %s is %d; it must be 0/1 or 111/112", name, what, v)
	}
	var err error
	if g.ta, err = trans(p[0], "transA"); err != nil {
		return g, err
	}
	if g.tb, err = trans(p[1], "transB"); err != nil {
		return g, err
	}
	for _, v := range p[2:9] {
		if v <= 0 || v > 1<<31 {
			return g, fmt.Errorf("%s: M, N, K, ldA, ldB, ldC and batchSize must be positive, got %v", name, p[2:9])
		}
	}
	g.m, g.n, g.k, g.batch = int(p[2]), int(p[3]), int(p[4]), int(p[8])
	lda, ldb, ldc := int(p[5]), int(p[6]), int(p[7])
	if (!g.ta && lda < g.m) || (g.ta && lda < g.k) || (!g.tb && ldb < g.k) || (g.tb && ldb < g.n) || ldc < g.m {
		return g, fmt.Errorf("%s: leading dimensions ldA %d, ldB %d, ldC %d too small for M %d, N %d, K %d", name, lda, ldb, ldc, g.m, g.n, g.k)
	}
	want := 2 + 2*g.batch
	if bp {
		want += g.batch
	}
	if nIn != want {
		return g, fmt.Errorf("%s: batchSize %d needs %d inputs, got %d", name, g.batch, want, nIn)
	}
	return g, nil
}

// check checks the matrices' shapes: A is M×K (K×M transposed), B K×N
// (N×K transposed), as far as known.
func (g gemmArgs) check(name string, in []Info) error {
	wa, wb := []int{g.m, g.k}, []int{g.k, g.n}
	if g.ta {
		wa = []int{g.k, g.m}
	}
	if g.tb {
		wb = []int{g.n, g.k}
	}
	for e := 0; e < g.batch; e++ {
		for _, c := range []struct {
			x    Info
			want []int
			what string
		}{{in[2+e], wa, "A"}, {in[2+g.batch+e], wb, "B"}} {
			if c.x.UnknownRank {
				continue
			}
			if !(Info{Shape: c.want}).Admits(c.x.Shape) {
				return fmt.Errorf("%s: %s %d has shape %v; M, N, K and the transposes make it %v", name, c.what, e, c.x.Shape, c.want)
			}
		}
	}
	return nil
}

// gemmScale returns alpha for batch member e: alpha holds one value or
// one per member.
func gemmScale(name string, alpha *ndarray.Array, e, batch int) (float64, error) {
	v := alpha.Float64s()
	switch len(v) {
	case 1:
		return v[0], nil
	case batch:
		return v[e], nil
	}
	return 0, fmt.Errorf("%s: alpha has %d values; it must have 1 or batchSize %d", name, len(v), batch)
}

// gemmInfer checks batched_gemm's and batched_gemm_bp's inputs: all of one
// float dtype, the matrices of the shapes the int args give.
func gemmInfer(name string, in []Info, a *Args, bp bool) (gemmArgs, error) {
	g, err := readGemmArgs(name, a, len(in), bp)
	if err != nil {
		return g, err
	}
	if err := needFloat(name, in[0]); err != nil {
		return g, err
	}
	for i, x := range in {
		if x.DType != in[0].DType {
			return g, fmt.Errorf("%s: input %d is %v, alpha %v; all must have one dtype", name, i, x.DType, in[0].DType)
		}
	}
	return g, g.check(name, in)
}

// batchedGemmOp is libnd4j's batched_gemm (SameDiff's batchMmul): inputs
// alpha, beta (one value or one per member), A_0 ... A_{b-1}, B_0 ...
// B_{b-1}; int args [transA, transB, M, N, K, ldA, ldB, ldC, batchSize];
// b outputs C_e = alpha_e·op(A_e)·op(B_e), M×N. beta multiplies the output's
// earlier contents, which a new output does not have: it changes nothing.
// Each product is one GEMM.
var batchedGemmOp = Register(&Def{
	Name: "batched_gemm", Type: Custom, MinIn: 4, MaxIn: -1, NonDiff: []int{0, 1},
	Doc: "C_e = alpha·op(A_e)·op(B_e) for each of batchSize pairs; inputs alpha, beta, As, Bs; int args transA, transB, M, N, K, ldA, ldB, ldC, batchSize",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		g, err := gemmInfer("batched_gemm", in, a, false)
		if err != nil {
			return nil, err
		}
		out := make([]Info, g.batch)
		for e := range out {
			out[e] = Info{DType: in[0].DType, Shape: []int{g.m, g.n}}
		}
		return out, nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		infoIn := make([]Info, len(in))
		for i, x := range in {
			infoIn[i] = Info{DType: x.DType(), Shape: x.Shape()}
		}
		g, err := gemmInfer("batched_gemm", infoIn, a, false)
		if err != nil {
			return nil, err
		}
		outs := make([]*ndarray.Array, g.batch)
		for e := range outs {
			if !c.Needed(e) {
				continue
			}
			alpha, err := gemmScale("batched_gemm", in[0], e, g.batch)
			if err != nil {
				return nil, err
			}
			out := c.Alloc(in[0].DType(), []int{g.m, g.n})
			if err := ndarray.MatMulIntoStop(c.Stop(), out, in[2+e], in[2+g.batch+e], g.ta, g.tb); err != nil {
				return nil, err
			}
			if alpha != 1 {
				if err := ndarray.UnaryInto(ndarray.ScaleBy, out, out, alpha); err != nil {
					return nil, err
				}
			}
			outs[e] = out
		}
		return outs, nil
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		in := append([]Value(nil), n.In...)
		for e, g := range d {
			if g == nil { // a product that does not reach the loss
				g = op1(b, "zeros_as", Args{}, n.Out[e])
			}
			in = append(in, g)
		}
		return append([]Value{nil, nil}, b.Op("batched_gemm_bp", n.Args.Clone(), in...)...)
	},
})

// batchedGemmBpOp is libnd4j's batched_gemm_bp: inputs alpha, beta, the
// As, the Bs and the gradients of the Cs; batched_gemm's int args; outputs
// the As' gradients then the Bs'. sdgo's follows the transposes (alpha·G·
// op(B)ᵀ, transposed back when A was, and likewise for B), where
// libnd4j's kernel reads only transB for the As and transA for the Bs.
var batchedGemmBpOp = Register(&Def{
	Name: "batched_gemm_bp", Type: Custom, MinIn: 5, MaxIn: -1, NonDiff: []int{0, 1},
	Doc: "gradients of batched_gemm for inputs alpha, beta, As, Bs, gradients of the Cs; outputs the As' then the Bs'",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		g, err := gemmInfer("batched_gemm_bp", in, a, true)
		if err != nil {
			return nil, err
		}
		for e := 0; e < g.batch; e++ {
			if x := in[2+2*g.batch+e]; !x.UnknownRank && !(Info{Shape: []int{g.m, g.n}}).Admits(x.Shape) {
				return nil, fmt.Errorf("batched_gemm_bp: gradient %d has shape %v, C [%d %d]", e, x.Shape, g.m, g.n)
			}
		}
		return sameInfos(in[2:], 2*g.batch), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		infoIn := make([]Info, len(in))
		for i, x := range in {
			infoIn[i] = Info{DType: x.DType(), Shape: x.Shape()}
		}
		g, err := gemmInfer("batched_gemm_bp", infoIn, a, true)
		if err != nil {
			return nil, err
		}
		outs := make([]*ndarray.Array, 2*g.batch)
		for e := 0; e < g.batch; e++ {
			gr := in[2+2*g.batch+e]
			if !ndarray.SameShape(gr.Shape(), []int{g.m, g.n}) {
				return nil, fmt.Errorf("batched_gemm_bp: gradient %d has shape %v, C [%d %d]", e, gr.Shape(), g.m, g.n)
			}
			alpha, err := gemmScale("batched_gemm_bp", in[0], e, g.batch)
			if err != nil {
				return nil, err
			}
			// matmul_bp's rule, with this member's alpha.
			x, y := in[2+e], in[2+g.batch+e]
			if c.Needed(e) {
				if !g.ta {
					outs[e], err = matmulGrad(c, x, x.Shape(), gr, y, false, !g.tb, alpha)
				} else {
					outs[e], err = matmulGrad(c, x, x.Shape(), y, gr, g.tb, true, alpha)
				}
				if err != nil {
					return nil, err
				}
			}
			if c.Needed(g.batch + e) {
				if !g.tb {
					outs[g.batch+e], err = matmulGrad(c, y, y.Shape(), x, gr, !g.ta, false, alpha)
				} else {
					outs[g.batch+e], err = matmulGrad(c, y, y.Shape(), gr, x, true, g.ta, alpha)
				}
				if err != nil {
					return nil, err
				}
			}
		}
		return outs, nil
	},
})
