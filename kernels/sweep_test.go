package kernels

// The tests of this package sweep: every length from 0 to 67 and three long
// ones, every stride to 9 and two larger, dozens of GEMM shapes in six
// layouts on one and two goroutines, millions of inputs to the
// transcendentals. Without the race detector every sweep runs in full, and
// make test runs this package without it (make sweeps) as well as with it.
// The race detector makes the Go loops the kernels are checked against
// about ten times slower and has nothing to watch in a sweep on one
// goroutine, so under it (raceEnabled) each sweep runs on a part that keeps
// its edges: the lengths around every vector width and a long run, the
// strides the assembly has paths of its own for, every GEMM path with one
// goroutine and with two.
//
// The sweeps run each implementation and element type (TestAccuracy: each
// function) as a parallel subtest, so that this package's tests, which
// make test also runs alone for arm64 under qemu, keep every core busy.

// raceSubset returns s, or under the race detector the elements keep
// accepts.
func raceSubset[E any](s []E, keep func(E) bool) []E {
	if !raceEnabled {
		return s
	}
	var part []E
	for _, e := range s {
		if keep(e) {
			part = append(part, e)
		}
	}
	return part
}

// sampled reports whether case i of a sweep runs: every case without the
// race detector, every every-th one (i%every == 0) under it.
func sampled(i, every int) bool { return !raceEnabled || i%every == 0 }
