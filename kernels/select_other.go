//go:build purego || !(amd64 || arm64)

package kernels

// Without assembly for this architecture (or with the purego tag) the
// tables keep the portable Go kernels.

// archImpls lists the assembly implementations this CPU can run: none.
func archImpls() []impl { return nil }
