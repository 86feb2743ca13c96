//go:build purego || !amd64

package kernels

// Without assembly for this architecture (or with the purego tag) the
// tables keep the portable Go kernels.
