package kernels

// stopPanel is the work, in multiply-adds, between two calls of a
// product's stop function: 2^26, some 5 to 30 ms on one core with the
// amd64 kernels, under a second with the portable one.
var stopPanel float64 = 1 << 26 // a variable for the tests

// GemmStop is Gemm that asks stop, between panels of C of about 2^26
// multiply-adds each (rows of C, or columns when C has more columns than
// rows), whether to go on: it returns false, with C partly computed, as
// soon as stop returns true, so that a deadline ends even one large
// product within about a panel's time. Each panel is a product of its own,
// split across goroutines as Gemm splits it; the elements computed are
// those Gemm computes. With a nil stop, or a product under two panels, or
// strides that put a panel before its slice, it is Gemm (stop asked once,
// before anything runs).
func GemmStop[T Float](stop func() bool, threads int, m, n, k int, alpha T, a []T, rsa, csa int, b []T, rsb, csb int, beta T, c []T, rsc, csc int) bool {
	if stop != nil && stop() {
		return false
	}
	macs := float64(m) * float64(n) * float64(k)
	if stop == nil || m <= 0 || n <= 0 || k <= 0 || macs < 2*stopPanel {
		Gemm(threads, m, n, k, alpha, a, rsa, csa, b, rsb, csb, beta, c, rsc, csc)
		return true
	}
	// Checked whole first, so that a bad operand panics before any panel
	// runs, as Gemm's does.
	checkExtent("C", c, 0, m, n, rsc, csc)
	checkExtent("A", a, 0, m, k, rsa, csa)
	checkExtent("B", b, 0, k, n, rsb, csb)
	// Panels of C's columns (B's) when it has more columns than rows, else
	// of its rows (A's); a negative stride there puts a panel before its
	// slice, so the product runs whole.
	cols := n > m
	size, perLine, neg := m, float64(n)*float64(k), rsa < 0 || rsc < 0
	if cols {
		size, perLine, neg = n, float64(m)*float64(k), csb < 0 || csc < 0
	}
	if neg {
		Gemm(threads, m, n, k, alpha, a, rsa, csa, b, rsb, csb, beta, c, rsc, csc)
		return true
	}
	w := panelWidth(size, perLine)
	for o := 0; o < size; o += w {
		if o > 0 && stop() {
			return false
		}
		if p := min(w, size-o); cols {
			Gemm(threads, m, p, k, alpha, a, rsa, csa, b[o*csb:], rsb, csb, beta, c[o*csc:], rsc, csc)
		} else {
			Gemm(threads, p, n, k, alpha, a[o*rsa:], rsa, csa, b, rsb, csb, beta, c[o*rsc:], rsc, csc)
		}
	}
	return true
}

// panelWidth is how many of size lines, each of perLine multiply-adds, make
// a panel: at least one, a multiple of 16 when there are more (whole tiles
// for every kernel).
func panelWidth(size int, perLine float64) int {
	w := int(min(stopPanel/perLine, 1<<30))
	if w >= 16 {
		w -= w % 16
	}
	return max(min(w, size), 1)
}

// GemmBatchStop is GemmBatch that asks stop between groups of products of
// about 2^26 multiply-adds together, and within a product of more than that
// (see GemmStop); false means it stopped, leaving the C_i partly computed.
func GemmBatchStop[T Float](stop func() bool, threads int, m, n, k int, alpha T, a []T, rsa, csa int, b []T, rsb, csb int, beta T, c []T, rsc, csc int, offs [][3]int) bool {
	if stop == nil {
		GemmBatch(threads, m, n, k, alpha, a, rsa, csa, b, rsb, csb, beta, c, rsc, csc, offs)
		return true
	}
	if stop() {
		return false
	}
	per := float64(m) * float64(n) * float64(max(k, 1))
	if per >= stopPanel {
		for _, o := range offs { // all checked before any runs, as GemmBatch does
			checkExtent("C", c, o[2], m, n, rsc, csc)
			if k > 0 && alpha != 0 {
				checkExtent("A", a, o[0], m, k, rsa, csa)
				checkExtent("B", b, o[1], k, n, rsb, csb)
			}
		}
		for i, o := range offs {
			if i > 0 && stop() {
				return false
			}
			aa, bb := a, b
			if k > 0 && alpha != 0 {
				aa, bb = a[o[0]:], b[o[1]:]
			}
			if !GemmStop(stop, threads, m, n, k, alpha, aa, rsa, csa, bb, rsb, csb, beta, c[o[2]:], rsc, csc) {
				return false
			}
		}
		return true
	}
	group := max(int(stopPanel/per), 1)
	for i := 0; i < len(offs); i += group {
		if i > 0 && stop() {
			return false
		}
		GemmBatch(threads, m, n, k, alpha, a, rsa, csa, b, rsb, csb, beta, c, rsc, csc, offs[i:min(i+group, len(offs))])
	}
	return true
}
