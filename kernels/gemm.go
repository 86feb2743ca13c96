package kernels

import (
	"runtime"
	"sync"
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
// C must not overlap A or B.
//
// Gemm is a GotoBLAS/BLIS-style driver: it packs a kc-deep panel of A (alpha
// folded in) into mr-row micro-panels and a kc×nc block of B into nr-column
// micro-panels, in 64-byte aligned buffers reused through a sync.Pool, and
// runs the register-blocked micro-kernel of the chosen instruction set over
// the tiles. Edge tiles and C layouts other than unit column stride go through
// a small tile buffer. Large products are split across goroutines along the
// longer side of C.
func Gemm[T Float](threads int, m, n, k int, alpha T, a []T, rsa, csa int, b []T, rsb, csb int, beta T, c []T, rsc, csc int) {
	gemmWith(gemmKernelFor[T](), threads, m, n, k, alpha, a, rsa, csa, b, rsb, csb, beta, c, rsc, csc)
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
	if k <= 0 || alpha == 0 {
		scaleC(m, n, beta, c, rsc, csc)
		return
	}
	if m*n*k <= 8*8*8 {
		gemmGo(m, n, k, alpha, a, rsa, csa, b, rsb, csb, beta, c, rsc, csc)
		return
	}
	if beta != 0 && beta != 1 {
		scaleC(m, n, beta, c, rsc, csc)
	}
	overwrite := beta == 0

	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	// At least about 2 MFLOP per goroutine.
	if w := m * n * k / (1 << 20); w < threads {
		threads = max(w, 1)
	}
	if threads == 1 {
		gemmSerial(kern, m, n, k, alpha, a, rsa, csa, b, rsb, csb, c, rsc, csc, overwrite)
		return
	}
	gemmParallel(kern, threads, m, n, k, alpha, a, rsa, csa, b, rsb, csb, c, rsc, csc, overwrite)
}

// gemmParallel splits C along its longer side into threads parts that are
// multiples of the tile, one goroutine each. (A separate function so that
// the closures' captures do not make the serial path allocate.)
func gemmParallel[T Float](kern *gemmKernel[T], threads int, m, n, k int, alpha T, a []T, rsa, csa int, b []T, rsb, csb int, c []T, rsc, csc int, overwrite bool) {
	var wg sync.WaitGroup
	if n >= m {
		// split the columns in multiples of nr
		chunk := (n + threads - 1) / threads
		chunk = (chunk + kern.nr - 1) / kern.nr * kern.nr
		for j0 := 0; j0 < n; j0 += chunk {
			nn := min(chunk, n-j0)
			wg.Add(1)
			go func(j0, nn int) {
				defer wg.Done()
				gemmSerial(kern, m, nn, k, alpha, a, rsa, csa, b[j0*csb:], rsb, csb, c[j0*csc:], rsc, csc, overwrite)
			}(j0, nn)
		}
	} else {
		chunk := (m + threads - 1) / threads
		chunk = (chunk + kern.mr - 1) / kern.mr * kern.mr
		for i0 := 0; i0 < m; i0 += chunk {
			mm := min(chunk, m-i0)
			wg.Add(1)
			go func(i0, mm int) {
				defer wg.Done()
				gemmSerial(kern, mm, n, k, alpha, a[i0*rsa:], rsa, csa, b, rsb, csb, c[i0*rsc:], rsc, csc, overwrite)
			}(i0, mm)
		}
	}
	wg.Wait()
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

// gemmBufs are the packing buffers of one goroutine.
type gemmBufs[T Float] struct {
	ap, bp, tile []T
}

var (
	pool32 sync.Pool
	pool64 sync.Pool
)

func poolFor[T Float]() *sync.Pool {
	var z T
	if _, ok := any(z).(float32); ok {
		return &pool32
	}
	return &pool64
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
	p := poolFor[T]()
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
	defer poolFor[T]().Put(bufs)
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
							_ = c[ci+(mr-1)*rsc+nr-1] // the kernel writes up to here
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
			for j := 0; j < nn; j++ {
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
