//go:build !linux

package kernels

import "testing"

// guarded returns a slice of n elements (on Linux, one that ends where a
// page without access begins).
func guarded[T Float](t *testing.T, n int) []T { return make([]T, n) }
