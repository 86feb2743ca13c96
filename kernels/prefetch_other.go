//go:build purego || !amd64

package kernels

// prefetchLines does nothing: portable Go has no prefetch instruction,
// and the arm64 kernels have none yet.
func prefetchLines(p *byte, n, step int) {}
