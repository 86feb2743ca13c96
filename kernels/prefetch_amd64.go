//go:build amd64 && !purego

package kernels

import "github.com/sdgo/sdgo/kernels/amd64"

// prefetchLines asks for n cache lines, step bytes apart from p, unless
// SDGO_ISA capped the kernels to portable Go.
func prefetchLines(p *byte, n, step int) {
	if isa != "generic" {
		amd64.Prefetch(p, n, step)
	}
}
