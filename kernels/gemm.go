package kernels

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Gemm computes C = alpha*A*B + beta*C for an m×k matrix A, a k×n matrix B and
// an m×n matrix C, each given by its slice and its row and column strides in
// elements: A(i,p) is a[i*rsa+p*csa], B(p,j) is b[p*rsb+j*csb], C(i,j) is
// c[i*rsc+j*csc]. A transposed operand is the same slice with its two strides
// swapped. When beta is 0, C is only written, never read, so NaNs already in C
// do not leak into the result. threads caps the goroutines used; 0 or less
// means GOMAXPROCS.
//
// C must not overlap A or B. An operand that does not fit its slice panics
// on the calling goroutine.
//
// On amd64 (AVX-512 and AVX2) every product whose C has unit column stride
// (after the swap to C^T when that gives one) runs on a direct kernel that
// reads A in place with any strides and B in place through its rows, with
// masked loads and stores at the tile edges (amd64.GemmDirectF32AVX512):
// small products (m·n·k <= 256³, or n <= 64; see useDirect) as they are, so
// nothing is packed (a B stored transposed is first copied to a row-major
// buffer); larger ones with B packed a kc×nc block at a time and A still in
// place (gemmPanels), so packing never costs more than O(k·n). Elsewhere
// (NEON, portable, C strided both ways) a GotoBLAS/BLIS-style driver packs
// a kc-deep panel of A (alpha folded in) into mr-row micro-panels and a
// kc×nc block of B into nr-column micro-panels, in 64-byte aligned buffers
// reused through a sync.Pool, and runs the register-blocked micro-kernel
// over the tiles, edge tiles through a small tile buffer. Products of more
// than about 2 MFLOP per goroutine are split across goroutines along the
// longer side of C (its columns on the panels path, when there are
// enough), in blocks the goroutines take in turn; the goroutines
// are helpers that stay awake for a while after a product (helperSpin), so
// products that follow each other do not wait for an idle core to wake.
// On the panels path an A whose lines are a multiple of 4 KiB apart is
// first copied to a buffer whose lines are not (restrideA).
func Gemm[T Float](threads int, m, n, k int, alpha T, a []T, rsa, csa int, b []T, rsb, csb int, beta T, c []T, rsc, csc int) {
	gemmWith(gemmKernelFor[T](), threads, m, n, k, alpha, a, rsa, csa, b, rsb, csb, beta, c, rsc, csc)
}

// GemmBatch computes the products C_i = alpha*A_i*B_i + beta*C_i, one for
// each offs[i]: A_i starts at a[offs[i][0]], B_i at b[offs[i][1]] and C_i at
// c[offs[i][2]], and all have the shapes and strides given, as in Gemm. The
// C_i must not overlap one another, nor any A_i or B_i. A batch of products
// each too small to split (under about 2 MFLOP per goroutine) runs them
// side by side, whole, on up to threads goroutines (0 or less: GOMAXPROCS),
// from the calling goroutine and the helpers Gemm uses; larger products run
// one after another, each split as Gemm splits it. As in Gemm, an operand
// must lie in its slice from its offset on (a negative stride may not reach
// before the offset), or GemmBatch panics before any product runs.
func GemmBatch[T Float](threads int, m, n, k int, alpha T, a []T, rsa, csa int, b []T, rsb, csb int, beta T, c []T, rsc, csc int, offs [][3]int) {
	if m <= 0 || n <= 0 || len(offs) == 0 {
		return
	}
	reads := k > 0 && alpha != 0 // A and B are read at all
	for _, o := range offs {
		checkExtent("C", c, o[2], m, n, rsc, csc)
		if reads {
			checkExtent("A", a, o[0], m, k, rsa, csa)
			checkExtent("B", b, o[1], k, n, rsb, csb)
		}
	}
	kern := gemmKernelFor[T]()
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	one := func(o [3]int, threads int) {
		aa, bb := a, b
		if reads {
			aa, bb = a[o[0]:], b[o[1]:]
		}
		gemmWith(kern, threads, m, n, k, alpha, aa, rsa, csa, bb, rsb, csb, beta, c[o[2]:], rsc, csc)
	}
	// at least about 2 MFLOP per goroutine, as in gemmWith, and no more
	// goroutines than products
	if threads = min(threads, len(offs), max(mmacs(len(offs), m, n, k), 1)); threads == 1 || mmacs(1, m, n, k) >= threads {
		for _, o := range offs {
			one(o, threads)
		}
		return
	}
	var next atomic.Int64
	helpers.run(threads-1, func() {
		for {
			i := next.Add(1) - 1
			if i >= int64(len(offs)) {
				return
			}
			one(offs[i], 1)
		}
	})
}

// gemmWith is Gemm with a given micro-kernel.
func gemmWith[T Float](kern *gemmKernel[T], threads int, m, n, k int, alpha T, a []T, rsa, csa int, b []T, rsb, csb int, beta T, c []T, rsc, csc int) {
	if m <= 0 || n <= 0 {
		return
	}
	// Prefer a C with unit column stride: C^T = B^T A^T.
	if csc != 1 && rsc == 1 {
		m, n = n, m
		a, b = b, a
		rsa, csa, rsb, csb = csb, rsb, csa, rsa
		rsc, csc = csc, rsc
	}
	// Checked before anything is read or written, whatever the path and
	// the goroutines: the assembly writes through pointers, and a negative
	// stride can put a tile before the slice while its corners, which the
	// paths index, stay inside. Split, a bad operand would also panic on a
	// helper, where it ends the program.
	checkExtent("C", c, 0, m, n, rsc, csc)
	if k <= 0 || alpha == 0 {
		scaleC(m, n, beta, c, rsc, csc)
		return
	}
	checkExtent("A", a, 0, m, k, rsa, csa)
	checkExtent("B", b, 0, k, n, rsb, csb)
	path := gemmPacked
	if kern.direct != nil && csc == 1 && min(rsa, csa, rsb, csb, rsc) >= 0 {
		path = gemmPanelsPath
		if useDirect(m, n, k) {
			path = gemmDirectPath
		}
	}
	if path == gemmPacked && float64(m)*float64(n)*float64(k) <= 8*8*8 {
		gemmGo(m, n, k, alpha, a, rsa, csa, b, rsb, csb, beta, c, rsc, csc)
		return
	}
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	// At least about 2 MFLOP per goroutine.
	if w := mmacs(1, m, n, k); w < threads {
		threads = max(w, 1)
	}
	if path == gemmPanelsPath {
		if buf, a2, r2, c2 := restrideA(m, k, a, rsa, csa); buf != nil {
			defer poolsFor[T]().restride.Put(buf)
			a, rsa, csa = a2, r2, c2
		}
	}
	if threads == 1 {
		gemmPart(kern, path, m, n, k, alpha, a, rsa, csa, b, rsb, csb, beta, c, rsc, csc)
		return
	}
	gemmParallel(kern, path, threads, m, n, k, alpha, a, rsa, csa, b, rsb, csb, beta, c, rsc, csc)
}

// mmacs is count·m·n·k multiply-adds in units of 2^20 (about 2 MFLOP),
// rounded down; in float64, so that it cannot overflow (m·n·k does on
// 32-bit platforms from about 1291³).
func mmacs(count, m, n, k int) int {
	return int(min(float64(count)*float64(m)*float64(n)*float64(k)/(1<<20), 1<<30))
}

// checkExtent panics, naming the operand, unless every element (i, j) of a
// rows×cols operand (rows, cols >= 1), at s[off+i*rs+j*cs], lies inside
// s[off:]: the product is handed its operand from off on (GemmBatch slices
// it there), so a negative stride must not reach back before off either.
// Gemm checks its operands before it splits the work, so that a bad
// argument panics on the caller's goroutine, where it can be recovered, and
// not on a helper's, where it would end the program.
func checkExtent[T Float](name string, s []T, off, rows, cols, rs, cs int) {
	lo, hi, ok := extent(len(s), off, rows, cols, rs, cs)
	if ok && lo >= off {
		return
	}
	needs := "spans more than"
	switch {
	case ok:
		needs = fmt.Sprintf("needs elements %d to %d, from before its offset, of", lo, hi)
	case lo <= hi:
		needs = fmt.Sprintf("needs elements %d to %d of", lo, hi)
	}
	panic(fmt.Sprintf("kernels: GEMM operand %s (%d×%d from offset %d, strides %d and %d) %s a slice of %d", name, rows, cols, off, rs, cs, needs, len(s)))
}

// extent returns the lowest and highest of the offsets off+i*rs+j*cs, i <
// rows, j < cols, and whether they lie in [0, n). It never overflows: a
// stride that alone spans more than n elements cannot fit, and is reported
// with lo > hi.
func extent(n, off, rows, cols, rs, cs int) (lo, hi int, ok bool) {
	lo, hi = off, off
	if off < 0 || off >= n {
		return lo, hi, false
	}
	for _, d := range [2][2]int{{rows - 1, rs}, {cols - 1, cs}} {
		steps, st := d[0], d[1]
		if steps == 0 || st == 0 {
			continue
		}
		if st < -n || st > n || steps > n/max(st, -st) {
			return 1, 0, false
		}
		if st < 0 {
			lo += steps * st
		} else {
			hi += steps * st
		}
	}
	return lo, hi, lo >= 0 && hi < n
}

// The ways gemmPart computes a product.
const (
	gemmPacked     = iota // gemmSerial: A and B packed, the packed micro-kernel
	gemmDirectPath        // gemmDirect: nothing packed, the direct kernel
	gemmPanelsPath        // gemmPanels: B packed, A in place, the direct kernel
)

// gemmPart computes C = alpha*A*B + beta*C on one goroutine, by path.
func gemmPart[T Float](kern *gemmKernel[T], path int, m, n, k int, alpha T, a []T, rsa, csa int, b []T, rsb, csb int, beta T, c []T, rsc, csc int) {
	switch path {
	case gemmDirectPath:
		gemmDirect(kern, m, n, k, alpha, a, rsa, csa, b, rsb, csb, beta, c, rsc)
	case gemmPanelsPath:
		gemmPanels(kern, m, n, k, alpha, a, rsa, csa, b, rsb, csb, beta, c, rsc)
	default:
		if beta != 0 && beta != 1 {
			scaleC(m, n, beta, c, rsc, csc)
		}
		gemmSerial(kern, m, n, k, alpha, a, rsa, csa, b, rsb, csb, c, rsc, csc, beta == 0)
	}
}

// gemmParallel splits C along its longer side (its columns on the panels
// path when there are enough) into blocks that are
// multiples of the tile, which the calling goroutine and threads-1 helpers
// (see helperPool) take one at a time until none is left. Each block is half
// an even share of what is left (OpenMP's "guided" schedule): the first
// ones are large, so few blocks each read all of A, and the last ones are
// one or two tiles, so the goroutines finish close together even when one
// of them started late, as a helper that had parked does (about 150 µs in
// the VM this was measured on, against 0.65 ms for half a float32 512³
// product), or lost its core to another process for a while. (A separate
// function so that the closures' captures do not make the serial path
// allocate.)
func gemmParallel[T Float](kern *gemmKernel[T], path int, threads int, m, n, k int, alpha T, a []T, rsa, csa int, b []T, rsb, csb int, beta T, c []T, rsc, csc int) {
	mr, nr := kern.mr, kern.nr
	if path != gemmPacked {
		mr, nr = kern.dmr, kern.dnr
	}
	// On the panels path a block packs the part of B it multiplies, so
	// blocks of C's rows would each pack all of B (the weight gradient
	// Xᵀ·G of a layer wider than the batch: 784 rows, 512 columns): C's
	// columns are shared out instead whenever there are enough of them.
	cols := n >= m || (path == gemmPanelsPath && n >= 4*threads*nr)
	size, tile := m, mr
	if cols {
		size, tile = n, nr
	}
	var next atomic.Int64 // the first row or column not taken
	work := func() {
		for {
			o := int(next.Load())
			left := size - o
			if left <= 0 {
				return
			}
			w := (left + 2*threads - 1) / (2 * threads)
			w = min((w+tile-1)/tile*tile, left)
			if !next.CompareAndSwap(int64(o), int64(o+w)) {
				continue
			}
			if cols {
				gemmPart(kern, path, m, w, k, alpha, a, rsa, csa, b[o*csb:], rsb, csb, beta, c[o*csc:], rsc, csc)
			} else {
				gemmPart(kern, path, w, n, k, alpha, a[o*rsa:], rsa, csa, b, rsb, csb, beta, c[o*rsc:], rsc, csc)
			}
		}
	}
	helpers.run(threads-1, work)
}

// scaleC sets C = beta*C, or C = 0 without reading it when beta is 0.
func scaleC[T Float](m, n int, beta T, c []T, rsc, csc int) {
	if beta == 1 {
		return
	}
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			ci := i*rsc + j*csc
			if beta == 0 {
				c[ci] = 0
			} else {
				c[ci] *= beta
			}
		}
	}
}

// gemmKernel is a micro-kernel and the blocking that suits it: fn computes
// an mr×nr tile from an mr-row packed panel of A and an nr-column packed panel
// of B, kc deep at most; mc rows of A and nc columns of B are packed at once.
type gemmKernel[T Float] struct {
	mr, nr, kc, mc, nc int
	fn                 func(k int, a, b, c *T, ldc int, accumulate int)

	// direct, when not nil, computes a tile of C = alpha*A*B + beta*C of
	// up to dmr×dnr elements from A and B in place (see
	// amd64.GemmDirectF32AVX512); small products use it instead of
	// packing.
	dmr, dnr int
	direct   func(mr, nn, k int, a *T, rsa, csa int, b *T, rsb int, c *T, rsc int, alpha, beta T)
}

var (
	gemm32 = gemmKernel[float32]{mr: 4, nr: 8, kc: 256, mc: 128, nc: 512, fn: gemmMicroGo[float32]}
	gemm64 = gemmKernel[float64]{mr: 4, nr: 8, kc: 256, mc: 128, nc: 256, fn: gemmMicroGo[float64]}
)

func gemmKernelFor[T Float]() *gemmKernel[T] {
	var z T
	switch any(z).(type) {
	case float32:
		return any(&gemm32).(*gemmKernel[T])
	default:
		return any(&gemm64).(*gemmKernel[T])
	}
}

// gemmMicroGo is the portable 4×8 micro-kernel.
func gemmMicroGo[T Float](k int, ap, bp, cp *T, ldc int, accumulate int) {
	const mr, nr = 4, 8
	a := unsafe.Slice(ap, k*mr)
	b := unsafe.Slice(bp, k*nr)
	var acc [mr][nr]T
	for p := 0; p < k; p++ {
		bb := (*[nr]T)(b[p*nr:])
		aa := (*[mr]T)(a[p*mr:])
		for i := 0; i < mr; i++ {
			ai := aa[i]
			r := &acc[i]
			for j := 0; j < nr; j++ {
				r[j] += ai * bb[j]
			}
		}
	}
	c := unsafe.Slice(cp, (mr-1)*ldc+nr)
	for i := 0; i < mr; i++ {
		row := c[i*ldc : i*ldc+nr]
		if accumulate != 0 {
			for j := range row {
				row[j] += acc[i][j]
			}
		} else {
			copy(row, acc[i][:])
		}
	}
}

// gemmBufs are the packing buffers of one goroutine on the packed path.
type gemmBufs[T Float] struct {
	ap, bp, tile []T
}

// gemmPools are the pools of GEMM scratch of one element type: packed holds
// *gemmBufs, panels the packed B blocks of gemmPanels, direct the row-major
// copies of B of gemmDirect and restride the copies of A of restrideA (all
// *[]T).
type gemmPools struct{ packed, panels, direct, restride sync.Pool }

var pools32, pools64 gemmPools

func poolsFor[T Float]() *gemmPools {
	var z T
	if _, ok := any(z).(float32); ok {
		return &pools32
	}
	return &pools64
}

// getSlice returns a buffer of at least n elements from p, or a new one,
// 64-byte aligned when align is set.
func getSlice[T Float](p *sync.Pool, n int, align bool) *[]T {
	if v, ok := p.Get().(*[]T); ok && len(*v) >= n {
		return v
	}
	var s []T
	if align {
		s = aligned[T](n)
	} else {
		s = make([]T, n)
	}
	return &s
}

// aligned returns a slice of n elements starting on a 64-byte boundary.
func aligned[T Float](n int) []T {
	var z T
	sz := int(unsafe.Sizeof(z))
	extra := 64 / sz
	s := make([]T, n+extra)
	off := int(uintptr(unsafe.Pointer(&s[0]))&63) / sz
	if off != 0 {
		off = extra - off
	}
	return s[off : off+n : off+n]
}

func getBufs[T Float](kern *gemmKernel[T]) *gemmBufs[T] {
	p := &poolsFor[T]().packed
	na := (kern.mc + kern.mr) * kern.kc
	nb := (kern.nc + kern.nr) * kern.kc
	if v, ok := p.Get().(*gemmBufs[T]); ok && len(v.ap) >= na && len(v.bp) >= nb && len(v.tile) >= kern.mr*kern.nr {
		return v
	}
	return &gemmBufs[T]{ap: aligned[T](na), bp: aligned[T](nb), tile: aligned[T](kern.mr * kern.nr)}
}

// gemmSerial computes C += alpha*A*B (C = alpha*A*B when overwrite) on one
// goroutine.
func gemmSerial[T Float](kern *gemmKernel[T], m, n, k int, alpha T, a []T, rsa, csa int, b []T, rsb, csb int, c []T, rsc, csc int, overwrite bool) {
	bufs := getBufs(kern)
	defer poolsFor[T]().packed.Put(bufs)
	mr, nr := kern.mr, kern.nr
	tile := bufs.tile
	for ic := 0; ic < m; ic += kern.mc {
		mc := min(kern.mc, m-ic)
		for pc := 0; pc < k; pc += kern.kc {
			kc := min(kern.kc, k-pc)
			acc := 1
			if overwrite && pc == 0 {
				acc = 0
			}
			packA(bufs.ap, a, ic, pc, mc, kc, rsa, csa, mr, alpha)
			for jc := 0; jc < n; jc += kern.nc {
				nc := min(kern.nc, n-jc)
				packB(bufs.bp, b, pc, jc, kc, nc, rsb, csb, nr)
				for ir := 0; ir < mc; ir += mr {
					mm := min(mr, mc-ir)
					ap := &bufs.ap[ir*kc]
					for jr := 0; jr < nc; jr += nr {
						nn := min(nr, nc-jr)
						bp := &bufs.bp[jr*kc]
						ci := (ic+ir)*rsc + (jc+jr)*csc
						if mm == mr && nn == nr && csc == 1 {
							_ = c[ci+(mr-1)*rsc+nr-1] // the tile's far corner (gemmWith checked all of C)
							kern.fn(kc, ap, bp, &c[ci], rsc, acc)
							continue
						}
						kern.fn(kc, ap, bp, &tile[0], nr, 0)
						for i := 0; i < mm; i++ {
							t := tile[i*nr : i*nr+nn]
							row := ci + i*rsc
							if acc != 0 {
								for j, v := range t {
									c[row+j*csc] += v
								}
							} else {
								for j, v := range t {
									c[row+j*csc] = v
								}
							}
						}
					}
				}
			}
		}
	}
}

// packA stores alpha*A[i0:i0+mc, p0:p0+kc] as micro-panels of mr rows:
// dst[ir*kc + p*mr + i] = alpha*A(i0+ir+i, p0+p), zero past row mc.
func packA[T Float](dst, a []T, i0, p0, mc, kc, rsa, csa, mr int, alpha T) {
	for ir := 0; ir < mc; ir += mr {
		d := dst[ir*kc : ir*kc+kc*mr]
		mm := min(mr, mc-ir)
		if mm < mr {
			clear(d)
		}
		base := (i0+ir)*rsa + p0*csa
		switch {
		case csa == 1:
			for i := 0; i < mm; i++ {
				row := a[base+i*rsa : base+i*rsa+kc]
				for p, v := range row {
					d[p*mr+i] = alpha * v
				}
			}
		case rsa == 1:
			for p := 0; p < kc; p++ {
				col := a[base+p*csa : base+p*csa+mm]
				dd := d[p*mr : p*mr+mm]
				for i, v := range col {
					dd[i] = alpha * v
				}
			}
		default:
			for i := 0; i < mm; i++ {
				for p := 0; p < kc; p++ {
					d[p*mr+i] = alpha * a[base+i*rsa+p*csa]
				}
			}
		}
	}
}

// packB stores B[p0:p0+kc, j0:j0+nc] as micro-panels of nr columns:
// dst[jr*kc + p*nr + j] = B(p0+p, j0+jr+j), zero past column nc.
func packB[T Float](dst, b []T, p0, j0, kc, nc, rsb, csb, nr int) {
	for jr := 0; jr < nc; jr += nr {
		d := dst[jr*kc : jr*kc+kc*nr]
		nn := min(nr, nc-jr)
		if nn < nr {
			clear(d)
		}
		base := p0*rsb + (j0+jr)*csb
		switch {
		case csb == 1:
			for p := 0; p < kc; p++ {
				copy(d[p*nr:p*nr+nn], b[base+p*rsb:base+p*rsb+nn])
			}
		case rsb == 1:
			// B stored transposed: its columns are contiguous. Taken eight
			// at a time, a panel's rows are written eight elements at once
			// rather than one per pass over a column.
			j := 0
			for ; j+8 <= nn; j += 8 {
				c0 := b[base+j*csb : base+j*csb+kc]
				c1 := b[base+(j+1)*csb : base+(j+1)*csb+kc]
				c2 := b[base+(j+2)*csb : base+(j+2)*csb+kc]
				c3 := b[base+(j+3)*csb : base+(j+3)*csb+kc]
				c4 := b[base+(j+4)*csb : base+(j+4)*csb+kc]
				c5 := b[base+(j+5)*csb : base+(j+5)*csb+kc]
				c6 := b[base+(j+6)*csb : base+(j+6)*csb+kc]
				c7 := b[base+(j+7)*csb : base+(j+7)*csb+kc]
				for p := range c0 {
					dd := (*[8]T)(d[p*nr+j:])
					dd[0], dd[1], dd[2], dd[3] = c0[p], c1[p], c2[p], c3[p]
					dd[4], dd[5], dd[6], dd[7] = c4[p], c5[p], c6[p], c7[p]
				}
			}
			for ; j < nn; j++ {
				col := b[base+j*csb : base+j*csb+kc]
				for p, v := range col {
					d[p*nr+j] = v
				}
			}
		default:
			for p := 0; p < kc; p++ {
				for j := 0; j < nn; j++ {
					d[p*nr+j] = b[base+p*rsb+j*csb]
				}
			}
		}
	}
}

// gemmGo is the plain loop Gemm computes; tests compare every GEMM path with it.
func gemmGo[T Float](m, n, k int, alpha T, a []T, rsa, csa int, b []T, rsb, csb int, beta T, c []T, rsc, csc int) {
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s T
			for p := 0; p < k; p++ {
				s += a[i*rsa+p*csa] * b[p*rsb+j*csb]
			}
			ci := i*rsc + j*csc
			if beta == 0 {
				c[ci] = alpha * s
			} else {
				c[ci] = alpha*s + beta*c[ci]
			}
		}
	}
}

// useDirect reports whether a product of this shape runs faster on the
// direct kernel with B in place than on B packed a block at a time
// (gemmPanels): packing B costs O(k·n) and pays off when B is large enough
// not to stay in the caches, or its rows are far apart (TLB misses). With
// n <= 64, B is at most 64 columns wide and the direct kernel wins at any k
// and m (measured up to 1024×32×1024: 240 GFLOP/s float32 against 53 for
// the old packed driver).
func useDirect(m, n, k int) bool {
	return float64(m)*float64(n)*float64(k) <= directMaxFlops || n <= directMaxN
}

const (
	directMaxFlops = 1 << 24
	directMaxN     = 64
)

// gemmDirect computes C = alpha*A*B + beta*C, C with unit column stride,
// with the direct kernel over tiles of C: A is read in place with any
// strides, B in place when its columns are adjacent (csb == 1) and from a
// row-major copy otherwise. Strides must be >= 0.
func gemmDirect[T Float](kern *gemmKernel[T], m, n, k int, alpha T, a []T, rsa, csa int, b []T, rsb, csb int, beta T, c []T, rsc int) {
	// the kernel reads and writes these elements at most
	_ = a[(m-1)*rsa+(k-1)*csa]
	_ = b[(k-1)*rsb+(n-1)*csb]
	_ = c[(m-1)*rsc+n-1]
	var buf *[]T
	if csb != 1 {
		// The kernel loads B's rows unaligned anyway, and aligned's extra
		// 64 bytes would move a 64×64 copy up a size class.
		buf = getSlice[T](&poolsFor[T]().direct, k*n, false)
		bt := (*buf)[:k*n]
		copyRowMajor(bt, b, k, n, rsb, csb)
		b, rsb = bt, n
	}
	for j0 := 0; j0 < n; j0 += kern.dnr {
		nn := min(kern.dnr, n-j0)
		for i0 := 0; i0 < m; i0 += kern.dmr {
			mr := min(kern.dmr, m-i0)
			kern.direct(mr, nn, k, &a[i0*rsa], rsa, csa, &b[j0], rsb, &c[i0*rsc+j0], rsc, alpha, beta)
		}
	}
	if buf != nil {
		poolsFor[T]().direct.Put(buf)
	}
}

// copyRowMajor sets dst[p*n+j] = B(p, j) = b[p*rsb+j*csb].
func copyRowMajor[T Float](dst, b []T, k, n, rsb, csb int) {
	if rsb == 1 && k >= n { // B is stored transposed: its columns are contiguous
		j := 0
		for ; j+4 <= n; j += 4 { // four columns at a time
			c0 := b[j*csb : j*csb+k]
			c1 := b[(j+1)*csb : (j+1)*csb+k]
			c2 := b[(j+2)*csb : (j+2)*csb+k]
			c3 := b[(j+3)*csb : (j+3)*csb+k]
			for p := range c0 {
				d := (*[4]T)(dst[p*n+j:])
				d[0], d[1], d[2], d[3] = c0[p], c1[p], c2[p], c3[p]
			}
		}
		for ; j < n; j++ {
			col := b[j*csb : j*csb+k]
			d := dst[j:]
			for p, v := range col {
				d[p*n] = v
			}
		}
		return
	}
	for p := 0; p < k; p++ {
		row := dst[p*n : p*n+n]
		src := b[p*rsb : p*rsb+(n-1)*csb+1]
		o := 0
		for j := range row {
			row[j] = src[o]
			o += csb
		}
	}
}

// gemmPanels computes C = alpha*A*B + beta*C, C with unit column stride, on
// one goroutine: B is packed a kc×nc block at a time into nr-column panels
// and the direct kernel runs on the tiles with A read in place, so A is
// never packed.
func gemmPanels[T Float](kern *gemmKernel[T], m, n, k int, alpha T, a []T, rsa, csa int, b []T, rsb, csb int, beta T, c []T, rsc int) {
	_ = a[(m-1)*rsa+(k-1)*csa]
	_ = c[(m-1)*rsc+n-1]
	nr := kern.dnr
	pool := &poolsFor[T]().panels
	buf := getSlice[T](pool, (kern.nc+nr)*kern.kc, true)
	defer pool.Put(buf)
	bp := *buf
	for jc := 0; jc < n; jc += kern.nc {
		nc := min(kern.nc, n-jc)
		for pc := 0; pc < k; pc += kern.kc {
			kc := min(kern.kc, k-pc)
			packB(bp, b, pc, jc, kc, nc, rsb, csb, nr)
			be := beta
			if pc > 0 {
				be = 1
			}
			for ir := 0; ir < m; ir += kern.dmr {
				mr := min(kern.dmr, m-ir)
				ap := &a[ir*rsa+pc*csa]
				for jr := 0; jr < nc; jr += nr {
					kern.direct(mr, min(nr, nc-jr), kc, ap, rsa, csa, &bp[jr*kc], nr, &c[ir*rsc+jc+jr], rsc, alpha, be)
				}
			}
		}
	}
}

// restrideMax is the largest A, in bytes, that restrideA copies.
const restrideMax = 32 << 20

// restrideA returns A copied, in the same orientation, to a pooled buffer
// with lines (rows when csa == 1, columns when rsa == 1) 64-byte aligned
// and not a multiple of 1 KiB apart, when its lines are a multiple of 4 KiB
// apart and it is at most restrideMax bytes; otherwise buf is nil. The
// direct kernel reads a tile's rows of A (its columns when A is stored
// transposed) at once, and at a 4 KiB stride they all fall into one set of
// the L1 cache, which the packed B panel streaming through also needs: at
// 1024×1024×1024 float32 every tile's A was fetched again from L2: one core
// ran at 145–155 GFLOP/s before the copy and 161–192 with it
// (BenchmarkGemm/f32/1024/t1). The copy costs m·k element moves, against
// 2·m·n·k flops.
func restrideA[T Float](m, k int, a []T, rsa, csa int) (buf *[]T, a2 []T, rsa2, csa2 int) {
	var z T
	sz := int(unsafe.Sizeof(z))
	lines, n, ld := m, k, rsa // A as lines of n elements, ld apart
	if csa != 1 {
		if rsa != 1 {
			return nil, nil, 0, 0
		}
		lines, n, ld = k, m, csa
	}
	if ld*sz%4096 != 0 || lines*n*sz > restrideMax {
		return nil, nil, 0, 0
	}
	nld := (n*sz + 63) / 64 * 64
	if nld%1024 == 0 {
		nld += 64
	}
	nld /= sz
	buf = getSlice[T](&poolsFor[T]().restride, lines*nld, true)
	d := *buf
	for i := 0; i < lines; i++ {
		copy(d[i*nld:i*nld+n], a[i*ld:i*ld+n])
	}
	if csa != 1 {
		return buf, d, 1, nld
	}
	return buf, d, nld, 1
}
