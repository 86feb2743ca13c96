package kernels

// Parallel calls work on the calling goroutine and on up to extra other
// goroutines at the same time, and returns once every call has returned:
// the warm helpers the GEMM splits its products over when no product holds
// them, new goroutines otherwise. Callers whose work is a loop of
// independent pieces (the images of a convolution) use it to share the
// pieces out: work must take its pieces from a shared counter and return
// as soon as none is left, since it may be called once more after the
// others are done. A GEMM that work calls with threads 1 runs on work's
// goroutine.
func Parallel(extra int, work func()) { helpers.run(extra, work) }

// Share is Parallel for work the calling goroutine could as well do alone
// in little time, as the parts of an elementwise op: it takes only the
// warm helpers, and when another product holds them (work called from
// within a Parallel, or from another goroutine's product) it calls work
// alone, since a new goroutine would wait for a core that product keeps
// busy, and the caller would wait for it.
func Share(extra int, work func()) { helpers.offer(extra, work, false) }
