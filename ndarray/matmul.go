package ndarray

import (
	"errors"
	"fmt"
	"slices"

	"github.com/sdgo/sdgo/kernels"
)

// matmulPlan is the shape arithmetic of a (batched) matrix product.
type matmulPlan struct {
	m, n, k        int
	batch          []int
	out            []int // output shape, without the axes a vector operand drops
	aVec, bVec     bool
	rsa, csa       int
	rsb, csb       int
	aBatch, bBatch []int // batch strides of a and b over batch
}

// MatMulShape returns the shape of MatMul(a, b, transA, transB) for operands
// of these shapes, or an error naming both shapes when they do not fit.
func MatMulShape(a, b []int, transA, transB bool) ([]int, error) {
	p, err := planMatMul(a, PackedStrides(a), b, PackedStrides(b), transA, transB)
	if err != nil {
		return nil, err
	}
	return p.out, nil
}

func planMatMul(as, ast, bs, bst []int, transA, transB bool) (*matmulPlan, error) {
	p := &matmulPlan{}
	if len(as) == 0 || len(bs) == 0 {
		return nil, fmt.Errorf("matmul of shapes %v and %v: operands must have rank 1 or more", as, bs)
	}
	// A vector a is a 1×k row, a vector b a k×1 column; the axis the vector
	// adds is dropped from the result, as in numpy.
	var ar, ac, sar, sac int
	if len(as) == 1 {
		p.aVec = true
		ar, ac, sar, sac = 1, as[0], 0, ast[0]
	} else {
		ar, ac = as[len(as)-2], as[len(as)-1]
		sar, sac = ast[len(as)-2], ast[len(as)-1]
		if transA {
			ar, ac, sar, sac = ac, ar, sac, sar
		}
	}
	var br, bc, sbr, sbc int
	if len(bs) == 1 {
		p.bVec = true
		br, bc, sbr, sbc = bs[0], 1, bst[0], 0
	} else {
		br, bc = bs[len(bs)-2], bs[len(bs)-1]
		sbr, sbc = bst[len(bs)-2], bst[len(bs)-1]
		if transB {
			br, bc, sbr, sbc = bc, br, sbc, sbr
		}
	}
	if ac != br {
		return nil, fmt.Errorf("matmul of shapes %v and %v (transpose a=%v, b=%v): inner sizes %d and %d differ", as, bs, transA, transB, ac, br)
	}
	p.m, p.k, p.n = ar, ac, bc
	p.rsa, p.csa, p.rsb, p.csb = sar, sac, sbr, sbc
	abatch, bbatch := as[:max(len(as)-2, 0)], bs[:max(len(bs)-2, 0)]
	batch, err := BroadcastShapes(abatch, bbatch)
	if err != nil {
		return nil, fmt.Errorf("matmul of shapes %v and %v: batch axes: %w", as, bs, err)
	}
	p.batch = batch
	p.aBatch = bstrides(abatch, ast, batch)
	p.bBatch = bstrides(bbatch, bst, batch)
	p.out = append(append([]int(nil), batch...), p.m, p.n)
	switch {
	case p.aVec && p.bVec:
		p.out = p.out[:len(p.out)-2]
	case p.aVec:
		p.out = append(p.out[:len(p.out)-2], p.n)
	case p.bVec:
		p.out = p.out[:len(p.out)-1]
	}
	return p, nil
}

func bstrides(shape, strides, out []int) []int {
	st := make([]int, len(out))
	d := len(out) - len(shape)
	for i := range shape {
		if shape[i] != 1 {
			st[i+d] = strides[i]
		}
	}
	return st
}

// MatMul returns the matrix product of a and b (optionally transposed), over
// broadcast batch axes: a is [..., m, k] (or [..., k, m] with transA), b is
// [..., k, n] (or [..., n, k]); the result is [..., m, n]. Rank-1 operands act
// as a row (a) or column (b), whatever their transpose flag, and their axis
// is dropped from the result. Integer products wrap around on overflow.
func MatMul(a, b *Array, transA, transB bool) (*Array, error) {
	return MatMulStop(nil, a, b, transA, transB)
}

// MatMulStop is MatMul that asks stop (when not nil) as it goes, as
// MatMulIntoStop does.
func MatMulStop(stop func() bool, a, b *Array, transA, transB bool) (*Array, error) {
	if a.DType() != b.DType() {
		return nil, fmt.Errorf("ndarray: matmul of %v and %v arrays: dtypes differ", a.DType(), b.DType())
	}
	if !a.DType().IsNumeric() {
		return nil, fmt.Errorf("ndarray: matmul needs numeric arrays, not %v", a.DType())
	}
	p, err := planMatMul(a.shape, a.strides, b.shape, b.strides, transA, transB)
	if err != nil {
		return nil, fmt.Errorf("ndarray: %w", err)
	}
	out, err := alloc(a.DType(), p.out)
	if err != nil {
		return nil, err
	}
	return out, matmulInto(stop, p, out, a, b)
}

// MatMulInto writes MatMul(a, b, transA, transB) into dst, which must have the
// result's shape and dtype and must not share a buffer with a or b.
func MatMulInto(dst, a, b *Array, transA, transB bool) error {
	return MatMulIntoStop(nil, dst, a, b, transA, transB)
}

// ErrStopped is the error of the ...Stop functions when their stop function
// said to stop before they were done.
var ErrStopped = errors.New("ndarray: stopped")

// MatMulIntoStop is MatMulInto that asks stop (when not nil), between
// panels of about 2^26 multiply-adds (kernels.GemmStop), whether to go on,
// and returns ErrStopped, dst partly written, when it says no: a deadline
// so ends one long product within about a panel's time.
func MatMulIntoStop(stop func() bool, dst, a, b *Array, transA, transB bool) error {
	if a.DType() != b.DType() || dst.DType() != a.DType() {
		return fmt.Errorf("ndarray: matmul of %v and %v arrays into %v", a.DType(), b.DType(), dst.DType())
	}
	p, err := planMatMul(a.shape, a.strides, b.shape, b.strides, transA, transB)
	if err != nil {
		return fmt.Errorf("ndarray: %w", err)
	}
	if !slices.Equal(dst.shape, p.out) {
		return fmt.Errorf("ndarray: matmul result %v into a %v array", p.out, dst.shape)
	}
	if dst.SameBuffer(a) || dst.SameBuffer(b) {
		// The products write dst while they still read a and b.
		return fmt.Errorf("ndarray: matmul of shapes %v and %v into an array that shares a buffer with an operand", a.shape, b.shape)
	}
	return matmulInto(stop, p, dst, a, b)
}

func matmulInto(stop func() bool, p *matmulPlan, dst, a, b *Array) error {
	// Express dst as [batch..., m, n] strides.
	full := append(append([]int(nil), p.batch...), p.m, p.n)
	dst2 := make([]int, len(full))
	switch {
	case p.aVec && p.bVec:
		copy(dst2, dst.strides)
	case p.aVec:
		copy(dst2, dst.strides[:len(p.batch)])
		dst2[len(full)-1] = dst.strides[len(dst.strides)-1]
	case p.bVec:
		copy(dst2, dst.strides)
	default:
		copy(dst2, dst.strides)
	}
	rsc, csc := dst2[len(full)-2], dst2[len(full)-1]
	nn, ok := newNest(p.batch, 3, [3][]int{dst2[:len(p.batch)], p.aBatch, p.bBatch}, [3]int{dst.offset, a.offset, b.offset})
	if !ok || p.m == 0 || p.n == 0 {
		return nil
	}
	if p.k == 0 {
		// A sum of no products: zeros. The operands have no elements, so
		// their batch strides must not be followed into their buffers.
		fillValue(dst, 0)
		return nil
	}
	done := true
	switch a.DType() {
	case Float32:
		done = gemmBatches(stop, Raw[float32](dst), Raw[float32](a), Raw[float32](b), p, rsc, csc, &nn)
	case Float64:
		done = gemmBatches(stop, Raw[float64](dst), Raw[float64](a), Raw[float64](b), p, rsc, csc, &nn)
	case Int32:
		done = intBatches(stop, Raw[int32](dst), Raw[int32](a), Raw[int32](b), p, rsc, csc, &nn)
	case Int64:
		done = intBatches(stop, Raw[int64](dst), Raw[int64](a), Raw[int64](b), p, rsc, csc, &nn)
	}
	if !done {
		return fmt.Errorf("matmul of %v and %v: %w", a.shape, b.shape, ErrStopped)
	}
	return nil
}

// gemmBatches computes every product of the batch, side by side when they
// are small (kernels.GemmBatch).
func gemmBatches[T kernels.Float](stop func() bool, c, a, b []T, p *matmulPlan, rsc, csc int, nn *nest) bool {
	if shapeSize(p.batch) == 1 {
		off := nn.off
		return kernels.GemmStop(stop, 0, p.m, p.n, p.k, 1, a[off[1]:], p.rsa, p.csa, b[off[2]:], p.rsb, p.csb, 0, c[off[0]:], rsc, csc)
	}
	offs := make([][3]int, 0, shapeSize(p.batch))
	nn.each(func(off [3]int, cnt int, inc [3]int) {
		for i := 0; i < cnt; i++ {
			offs = append(offs, [3]int{off[1] + i*inc[1], off[2] + i*inc[2], off[0] + i*inc[0]})
		}
	})
	return kernels.GemmBatchStop(stop, 0, p.m, p.n, p.k, 1, a, p.rsa, p.csa, b, p.rsb, p.csb, 0, c, rsc, csc, offs)
}

// intStopWork is the work between two questions to stop (a variable for the
// tests).
var intStopWork = 1 << 22

// intBatches computes integer products, asking stop (when not nil) every
// 2^22 multiply-adds or so, between rows; false means it stopped.
func intBatches[T Num](stop func() bool, c, a, b []T, p *matmulPlan, rsc, csc int, nn *nest) bool {
	stopped, work := false, 0
	nn.each(func(off [3]int, cnt int, inc [3]int) {
		for t := 0; t < cnt && !stopped; t++ {
			oc, oa, ob := off[0]+t*inc[0], off[1]+t*inc[1], off[2]+t*inc[2]
			for i := 0; i < p.m; i++ {
				if work += p.n * p.k; stop != nil && work >= intStopWork {
					if work = 0; stop() {
						stopped = true
						return
					}
				}
				for j := 0; j < p.n; j++ {
					var s T
					for q := 0; q < p.k; q++ {
						s += a[oa+i*p.rsa+q*p.csa] * b[ob+q*p.rsb+j*p.csb]
					}
					c[oc+i*rsc+j*csc] = s
				}
			}
		}
	})
	return !stopped
}
