package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// The small matrix ops of SameDiff's SDMath and SDLinalg namespaces: diag,
// diag_part, matrix_diag_part, matrix_set_diag, eye, trace and cross. The
// products (mmul, tensordot, batched_gemm) are in linalg.go and
// base_misc.go.

// ---------------------------------------------------------------- helpers

// placeT fills out (packed) with base's elements, or zeros when base is
// nil, then writes src's element from[k] (k when from is nil) at to[k]
// (k when to is nil), for k < n.
func placeT[T ndarray.Elem](out, base, src *ndarray.Array, to, from []int, n int) error {
	o := ndarray.Raw[T](out)[out.Offset() : out.Offset()+out.Size()]
	if base != nil {
		if err := ndarray.CopyInto(out, base); err != nil {
			return err
		}
	} else {
		var z T
		for i := range o {
			o[i] = z
		}
	}
	s, err := packedValues[T](src)
	if err != nil {
		return err
	}
	for k := 0; k < n; k++ {
		i, j := k, k
		if to != nil {
			i = to[k]
		}
		if from != nil {
			j = from[k]
		}
		o[i] = s[j]
	}
	return nil
}

// place allocates an array of dtype dt and shape and fills it as placeT.
func place(c *Ctx, name string, dt ndarray.DType, shape []int, base, src *ndarray.Array, to, from []int, n int) (*ndarray.Array, error) {
	out, err := c.TryAlloc(dt, shape)
	if err != nil {
		return nil, err
	}
	switch dt {
	case ndarray.Float32:
		err = placeT[float32](out, base, src, to, from, n)
	case ndarray.Float64:
		err = placeT[float64](out, base, src, to, from, n)
	case ndarray.Int32:
		err = placeT[int32](out, base, src, to, from, n)
	case ndarray.Int64:
		err = placeT[int64](out, base, src, to, from, n)
	case ndarray.Bool:
		err = placeT[bool](out, base, src, to, from, n)
	default:
		err = fmt.Errorf("%s of a %v array", name, dt)
	}
	if err != nil {
		c.Release(out)
		return nil, err
	}
	return out, nil
}

// needComputable checks that an op moving elements can hold x's dtype.
func needComputable(name string, x Info) error {
	if !x.DType.Computable() {
		return fmt.Errorf("%s of a %v array", name, x.DType)
	}
	return nil
}

// diagLen is the number of elements of a shape, -1 when unknown.
func diagLen(s []int) int {
	n := 1
	for _, d := range s {
		if d < 0 {
			return -1
		}
		n *= d
	}
	return n
}

// ---------------------------------------------------------------- diag

// diagShape is libnd4j's diag output: a scalar or a vector (rank 1, or
// rank 2 with a size 1) of n elements gives [n n]; any other shape s gives
// s ++ s.
func diagShape(s []int) []int {
	if len(s) <= 1 || (len(s) == 2 && (s[0] == 1 || s[1] == 1)) {
		n := diagLen(s)
		return []int{n, n}
	}
	return append(append([]int(nil), s...), s...)
}

// diagOp is libnd4j's diag (SameDiff's SDMath/SDLinalg diag): an input of
// rank <= 3 with n elements put on the diagonal of an array of shape
// diagShape, zeros elsewhere. No arguments.
var diagOp = Register(&Def{
	Name: "diag", Aliases: []string{"MatrixDiag"}, Type: Custom, MinIn: 1, MaxIn: 1,
	Doc: "x's elements on the diagonal of a zero array of shape x ++ x (a vector of n: n×n); x of rank <= 3",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		x := in[0]
		if err := needComputable("diag", x); err != nil {
			return nil, err
		}
		if x.UnknownRank {
			return infos(Info{DType: x.DType, UnknownRank: true}), nil
		}
		if len(x.Shape) > 3 {
			return nil, fmt.Errorf("diag: input of shape %v; its rank must be at most 3", x.Shape)
		}
		if len(x.Shape) == 2 && x.Shape[0] != 1 && x.Shape[1] != 1 && (x.Shape[0] < 0 || x.Shape[1] < 0) {
			// A vector or not: the rank of the result is known at run time.
			return infos(Info{DType: x.DType, UnknownRank: true}), nil
		}
		return infos(Info{DType: x.DType, Shape: diagShape(x.Shape)}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		x := in[0]
		if x.Rank() > 3 {
			return nil, fmt.Errorf("diag: input of shape %v; its rank must be at most 3", x.Shape())
		}
		n := x.Size()
		if err := reserve[int]("diag", n); err != nil {
			return nil, err
		}
		to := make([]int, n)
		for k := range to {
			to[k] = k * (n + 1)
		}
		return one(place(c, "diag", x.DType(), diagShape(x.Shape()), nil, x, to, nil, n))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		return []Value{reshapeLike(b, op1(b, "diag_part", Args{}, d[0]), n.In[0])}
	},
})

// diagPartShape checks diag_part's input: rank 2, 4 or 6, of shape s ++ s;
// it returns s.
func diagPartShape(s []int) ([]int, error) {
	r := len(s)
	if r != 2 && r != 4 && r != 6 {
		return nil, fmt.Errorf("diag_part: input of shape %v; its rank must be 2, 4 or 6", s)
	}
	h := r / 2
	for i := 0; i < h; i++ {
		if s[i] >= 0 && s[i+h] >= 0 && s[i] != s[i+h] {
			return nil, fmt.Errorf("diag_part: input of shape %v is not of the form s ++ s", s)
		}
	}
	out := append([]int(nil), s[:h]...)
	for i := range out {
		if out[i] < 0 {
			out[i] = s[i+h]
		}
	}
	return out, nil
}

// diagPartOp is libnd4j's diag_part, the inverse of diag: from x of shape
// s ++ s (rank 2, 4 or 6), the elements x[i..., i...], of shape s. No
// arguments.
var diagPartOp = Register(&Def{
	Name: "diag_part", Aliases: []string{"DiagPart"}, Type: Custom, MinIn: 1, MaxIn: 1,
	Doc: "the diagonal x[i..., i...] of x of shape s ++ s (rank 2, 4 or 6), of shape s",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		x := in[0]
		if err := needComputable("diag_part", x); err != nil {
			return nil, err
		}
		if x.UnknownRank {
			return infos(Info{DType: x.DType, UnknownRank: true}), nil
		}
		s, err := diagPartShape(x.Shape)
		if err != nil {
			return nil, err
		}
		return infos(Info{DType: x.DType, Shape: s}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		x := in[0]
		s, err := diagPartShape(x.Shape())
		if err != nil {
			return nil, err
		}
		n := diagLen(s)
		from := make([]int, n)
		for k := range from {
			from[k] = k * (n + 1)
		}
		return one(place(c, "diag_part", x.DType(), s, nil, x, nil, from, n))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		return []Value{reshapeLike(b, op1(b, "diag", Args{}, d[0]), n.In[0])}
	},
})

// ---------------------------------------------------------------- matrix diagonals

// matDiagShape returns the batch shape, m, n and the diagonal's length
// min(m, n) of a batch of matrices of shape s (rank >= 2).
func matDiagShape(name string, s []int) (batch []int, m, n, d int, err error) {
	if len(s) < 2 {
		return nil, 0, 0, 0, fmt.Errorf("%s: input of shape %v; it needs rank 2 or more", name, s)
	}
	m, n = s[len(s)-2], s[len(s)-1]
	d = min(m, n)
	if (m < 0 || n < 0) && m != 0 && n != 0 {
		d = -1
	}
	return s[:len(s)-2], m, n, d, nil
}

// diagOffsets returns the packed offsets of the main diagonals of a batch
// of nb m×n matrices, matrix after matrix.
func diagOffsets(nb, m, n int) []int {
	d := min(m, n)
	offs := make([]int, 0, nb*d)
	for b := 0; b < nb; b++ {
		for k := 0; k < d; k++ {
			offs = append(offs, b*m*n+k*(n+1))
		}
	}
	return offs
}

// matrixDiagPartOp is libnd4j's matrix_diag_part: the main diagonals of a
// batch of matrices x[..., m, n], of shape [..., min(m, n)]. No arguments.
var matrixDiagPartOp = Register(&Def{
	Name: "matrix_diag_part", Aliases: []string{"MatrixDiagPart"}, Type: Custom, MinIn: 1, MaxIn: 1,
	Doc: "the main diagonals of a batch of matrices x[..., m, n], shape [..., min(m, n)]",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		x := in[0]
		if err := needComputable("matrix_diag_part", x); err != nil {
			return nil, err
		}
		if x.UnknownRank {
			return infos(Info{DType: x.DType, UnknownRank: true}), nil
		}
		batch, _, _, d, err := matDiagShape("matrix_diag_part", x.Shape)
		if err != nil {
			return nil, err
		}
		return infos(Info{DType: x.DType, Shape: append(append([]int(nil), batch...), d)}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		x := in[0]
		batch, m, n, d, err := matDiagShape("matrix_diag_part", x.Shape())
		if err != nil {
			return nil, err
		}
		from := diagOffsets(diagLen(batch), m, n)
		return one(place(c, "matrix_diag_part", x.DType(), append(append([]int(nil), batch...), d), nil, x, nil, from, len(from)))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		return []Value{op1(b, "matrix_set_diag", Args{}, op1(b, "zeros_as", Args{}, n.In[0]), d[0])}
	},
})

// setDiagCheck checks matrix_set_diag's diagonal of shape ds against the
// matrices of shape xs, as far as sizes are known.
func setDiagCheck(xs, ds []int) error {
	batch, _, _, d, err := matDiagShape("matrix_set_diag", xs)
	if err != nil {
		return err
	}
	want := append(append([]int(nil), batch...), d)
	if !(Info{Shape: want}).Admits(ds) {
		return fmt.Errorf("matrix_set_diag: a diagonal of shape %v for matrices of shape %v (it must be %v)", ds, xs, want)
	}
	return nil
}

// matrixSetDiagOp is libnd4j's matrix_set_diag: inputs x[..., m, n] and
// diagonal[..., min(m, n)]; x with each matrix's main diagonal replaced by
// the diagonal's row. No arguments.
var matrixSetDiagOp = Register(&Def{
	Name: "matrix_set_diag", Aliases: []string{"MatrixSetDiag"}, Type: Custom, MinIn: 2, MaxIn: 2,
	Doc: "x[..., m, n] with each matrix's main diagonal replaced by diagonal[..., min(m, n)]",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		x, dg := in[0], in[1]
		if err := needComputable("matrix_set_diag", x); err != nil {
			return nil, err
		}
		if dg.DType != x.DType {
			return nil, fmt.Errorf("matrix_set_diag: the input is %v, the diagonal %v", x.DType, dg.DType)
		}
		if x.UnknownRank || dg.UnknownRank {
			return infos(same(x)), nil
		}
		if err := setDiagCheck(x.Shape, dg.Shape); err != nil {
			return nil, err
		}
		return infos(same(x)), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		x, dg := in[0], in[1]
		if err := setDiagCheck(x.Shape(), dg.Shape()); err != nil {
			return nil, err
		}
		batch, m, n, _, _ := matDiagShape("matrix_set_diag", x.Shape())
		to := diagOffsets(diagLen(batch), m, n)
		return one(place(c, "matrix_set_diag", x.DType(), x.Shape(), x, dg, to, nil, len(to)))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		return []Value{
			op1(b, "matrix_set_diag", Args{}, d[0], op1(b, "zeros_as", Args{}, n.In[1])),
			op1(b, "matrix_diag_part", Args{}, d[0]),
		}
	},
})

// ---------------------------------------------------------------- trace

// traceOp is libnd4j's trace: the sum of the main diagonal of each matrix
// of x[..., m, n] (float), of shape [...]. No arguments.
var traceOp = Register(&Def{
	Name: "trace", Type: Custom, MinIn: 1, MaxIn: 1,
	Doc: "the sum of each matrix's main diagonal, x[..., m, n] -> [...]",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		x := in[0]
		if err := needFloat("trace", x); err != nil {
			return nil, err
		}
		if x.UnknownRank {
			return infos(Info{DType: x.DType, UnknownRank: true}), nil
		}
		batch, _, _, _, err := matDiagShape("trace", x.Shape)
		if err != nil {
			return nil, err
		}
		return infos(Info{DType: x.DType, Shape: append([]int{}, batch...)}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		x := in[0]
		batch, m, n, d, err := matDiagShape("trace", x.Shape())
		if err != nil {
			return nil, err
		}
		from := diagOffsets(diagLen(batch), m, n)
		dg, err := place(c, "trace", x.DType(), append(append([]int(nil), batch...), d), nil, x, nil, from, len(from))
		if err != nil {
			return nil, err
		}
		out := c.Alloc(x.DType(), batch)
		err = ndarray.ReduceInto(ndarray.Sum, out, dg, []int{len(batch)})
		c.Release(dg)
		return one(out, err)
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		x := n.In[0]
		ones := op1(b, "matrix_diag_part", Args{}, op1(b, "ones_as", Args{}, x))
		g := mul(b, ones, op1(b, "expand_dims", Args{I: []int64{-1}}, d[0]))
		return []Value{op1(b, "matrix_set_diag", Args{}, op1(b, "zeros_as", Args{}, x), g)}
	},
})

// ---------------------------------------------------------------- eye

// eyeParams reads eye's sizes: rows, [cols], [batch sizes...], optionally
// after libnd4j's order marker -99 ('c') or -102 ('f'), and returns the
// output shape [batch..., rows, cols].
func eyeParams(p []int64) ([]int, error) {
	if len(p) > 0 && (p[0] == -99 || p[0] == -102) {
		p = p[1:]
	}
	if len(p) == 0 {
		return nil, fmt.Errorf("eye: no size given (int args or inputs rows, [cols, [batch shape]])")
	}
	for _, v := range p {
		if v < 0 {
			return nil, fmt.Errorf("eye: negative size in %v", p)
		}
	}
	rows, cols := int(p[0]), int(p[0])
	if len(p) > 1 {
		cols = int(p[1])
	}
	var shape []int
	if len(p) > 2 {
		shape = intsOf(p[2:])
	}
	return append(shape, rows, cols), nil
}

// eyeDType is eye's output dtype: float arg 0 as a SameDiff dtype number
// (Java's Eye writes it there), else dtype arg 0, else float32.
func eyeDType(a *Args) (ndarray.DType, error) {
	dt := a.DType(0, ndarray.Float32)
	if len(a.F) > 0 {
		dt = ndarray.DType(a.F[0])
		if a.F[0] < 0 || a.F[0] > 255 || float64(dt) != a.F[0] {
			return 0, fmt.Errorf("eye: float arg 0 (the dtype) is %v", a.F[0])
		}
	}
	if !dt.IsNumeric() {
		return 0, fmt.Errorf("eye: the output dtype %v is not numeric", dt)
	}
	return dt, nil
}

// eyeInputs gathers the sizes eye reads from its integer inputs.
func eyeInputs(vals [][]int64) []int64 {
	var p []int64
	for _, v := range vals {
		p = append(p, v...)
	}
	return p
}

// eyeOp is libnd4j's eye: identity matrices. Sizes as int args [rows,
// [cols, [batch sizes...]]] (an optional leading -99/-102 order marker is
// skipped) or, when there are inputs, from integer inputs rows, [cols,
// [batch shape]] (scalars or vectors, read in order); output shape
// [batch..., rows, cols]; float arg 0 the dtype as SameDiff numbers it
// (dtype arg 0 also read), float32 by default.
var eyeOp = Register(&Def{
	Name: "eye", Type: Custom, MinIn: 0, MaxIn: 3, NonDiff: []int{0, 1, 2},
	Doc: "identity matrices of shape [batch..., rows, cols]; int args or inputs rows, [cols, [batch shape]]; float arg 0: dtype",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		dt, err := eyeDType(a)
		if err != nil {
			return nil, err
		}
		if len(in) == 0 {
			s, err := eyeParams(a.I)
			if err != nil {
				return nil, err
			}
			return infos(Info{DType: dt, Shape: s}), nil
		}
		vals := make([][]int64, len(in))
		count, known := 0, true // how many sizes the inputs hold; all values known
		for i, x := range in {
			if !x.DType.IsInt() {
				return nil, fmt.Errorf("eye: input %d is %v; sizes must be integers", i, x.DType)
			}
			switch {
			case x.UnknownRank:
				count = -1
			case len(x.Shape) > 1:
				return nil, fmt.Errorf("eye: input %d has shape %v; sizes must be scalars or vectors", i, x.Shape)
			case len(x.Shape) == 0 && count >= 0:
				count++
			case x.Shape[0] >= 0 && count >= 0:
				count += x.Shape[0]
			default:
				count = -1
			}
			if x.Value == nil {
				known = false
			} else {
				vals[i] = x.Value.Int64s()
			}
		}
		if !known {
			// Up to two sizes make a matrix; with more, the rank depends
			// on whether the first is the order marker -99/-102.
			if count < 0 || count > 2 {
				return infos(Info{DType: dt, UnknownRank: true}), nil
			}
			return infos(Info{DType: dt, Shape: unknownShape(2)}), nil
		}
		s, err := eyeParams(eyeInputs(vals))
		if err != nil {
			return nil, err
		}
		return infos(Info{DType: dt, Shape: s}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		dt, err := eyeDType(a)
		if err != nil {
			return nil, err
		}
		p := a.I
		if len(in) > 0 {
			vals := make([][]int64, len(in))
			for i, x := range in {
				if !x.DType().IsInt() || x.Rank() > 1 {
					return nil, fmt.Errorf("eye: input %d is %v%v; sizes must be integer scalars or vectors", i, x.DType(), x.Shape())
				}
				vals[i] = x.Int64s()
			}
			p = eyeInputs(vals)
		}
		s, err := eyeParams(p)
		if err != nil {
			return nil, err
		}
		if err := ndarray.CheckShape(s); err != nil {
			return nil, fmt.Errorf("eye: %w", err)
		}
		m, n := s[len(s)-2], s[len(s)-1]
		if err := reserve[int]("eye", 2, diagLen(s[:len(s)-2]), min(m, n)); err != nil {
			return nil, err // to and from, made before the output
		}
		to := diagOffsets(diagLen(s[:len(s)-2]), m, n)
		one1, err := ndarray.ScalarOf(dt, 1)
		if err != nil {
			return nil, err
		}
		from := make([]int, len(to)) // every diagonal element is the one 1
		return one(place(c, "eye", dt, s, nil, one1, to, from, len(to)))
	},
})

// ---------------------------------------------------------------- cross

func crossT[T ndarray.Num](out, a, b *ndarray.Array) error {
	x, err := packedValues[T](a)
	if err != nil {
		return err
	}
	y, err := packedValues[T](b)
	if err != nil {
		return err
	}
	o := ndarray.Raw[T](out)[out.Offset() : out.Offset()+out.Size()]
	for i := 0; i+2 < len(o); i += 3 {
		a0, a1, a2, b0, b1, b2 := x[i], x[i+1], x[i+2], y[i], y[i+1], y[i+2]
		o[i] = a1*b2 - a2*b1
		o[i+1] = a2*b0 - a0*b2
		o[i+2] = a0*b1 - a1*b0
	}
	return nil
}

// crossCheck checks cross's operands: one shape, last size 3.
func crossCheck(a, b Info) error {
	if a.DType != b.DType {
		return fmt.Errorf("cross: operands of %v and %v", a.DType, b.DType)
	}
	if err := needNumeric("cross", a); err != nil {
		return err
	}
	if a.UnknownRank || b.UnknownRank {
		return nil
	}
	if len(a.Shape) == 0 || !a.Admits(b.Shape) {
		return fmt.Errorf("cross: operands of shapes %v and %v; they must have one shape, of rank >= 1", a.Shape, b.Shape)
	}
	if l := a.Shape[len(a.Shape)-1]; l >= 0 && l != 3 {
		return fmt.Errorf("cross: operands of shape %v; the last size must be 3", a.Shape)
	}
	if l := b.Shape[len(b.Shape)-1]; l >= 0 && l != 3 {
		return fmt.Errorf("cross: operands of shape %v; the last size must be 3", b.Shape)
	}
	return nil
}

// crossOp is libnd4j's cross: the cross product a × b of the 3-vectors
// along the last axis of two arrays of one shape [..., 3]. No arguments.
var crossOp = Register(&Def{
	Name: "cross", Type: Custom, MinIn: 2, MaxIn: 2,
	Doc: "cross product a × b along the last axis (size 3) of two arrays of one shape",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		if err := crossCheck(in[0], in[1]); err != nil {
			return nil, err
		}
		out := same(in[0])
		if !in[0].UnknownRank && !in[1].UnknownRank {
			out.Shape = append([]int(nil), in[0].Shape...)
			for i, d := range out.Shape {
				if d < 0 {
					out.Shape[i] = in[1].Shape[i]
				}
			}
		} else if in[0].UnknownRank {
			out = same(in[1])
		}
		return infos(out), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		a, b := in[0], in[1]
		ia, ib := Info{DType: a.DType(), Shape: a.Shape()}, Info{DType: b.DType(), Shape: b.Shape()}
		if err := crossCheck(ia, ib); err != nil {
			return nil, err
		}
		out := c.Alloc(a.DType(), a.Shape())
		var err error
		switch a.DType() {
		case ndarray.Float32:
			err = crossT[float32](out, a, b)
		case ndarray.Float64:
			err = crossT[float64](out, a, b)
		case ndarray.Int32:
			err = crossT[int32](out, a, b)
		case ndarray.Int64:
			err = crossT[int64](out, a, b)
		default:
			err = fmt.Errorf("cross of %v arrays", a.DType())
		}
		if err != nil {
			c.Release(out)
			return nil, err
		}
		return one(out, nil)
	},
	// d(a×b)·g: da gets b × g, db gets g × a.
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		return []Value{
			op1(b, "cross", Args{}, n.In[1], d[0]),
			op1(b, "cross", Args{}, d[0], n.In[0]),
		}
	},
})
