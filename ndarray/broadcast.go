package ndarray

import "fmt"

// BroadcastShapes returns the shape numpy's broadcasting rules give for two
// operands: shapes aligned on the right, each pair of sizes equal or one of
// them 1.
func BroadcastShapes(a, b []int) ([]int, error) {
	n := max(len(a), len(b))
	out := make([]int, n)
	for i := 0; i < n; i++ {
		da, db := aligned(a, n, i), aligned(b, n, i)
		s, ok := BroadcastSize(da, db)
		if !ok {
			return nil, fmt.Errorf("shapes %v and %v do not broadcast (axis %d: %d vs %d)", a, b, i, da, db)
		}
		out[i] = s
	}
	return out, nil
}

// aligned is the size of shape's axis that stands at axis i of a
// broadcast to rank n: 1 where shape has no such axis.
func aligned(shape []int, n, i int) int {
	if j := len(shape) - n + i; j >= 0 {
		return shape[j]
	}
	return 1
}

// broadcastsTo reports whether BroadcastShapes(a, b) is shape, without
// allocating.
func broadcastsTo(shape, a, b []int) bool {
	n := max(len(a), len(b))
	if len(shape) != n {
		return false
	}
	for i := 0; i < n; i++ {
		da, db := aligned(a, n, i), aligned(b, n, i)
		if s, ok := BroadcastSize(da, db); !ok || s != shape[i] {
			return false
		}
	}
	return true
}

// BroadcastSize is the rule BroadcastShapes applies to each pair of aligned
// sizes: equal sizes stay, a 1 takes the other size; ok is false otherwise.
func BroadcastSize(da, db int) (size int, ok bool) {
	switch {
	case da == db || db == 1:
		return da, true
	case da == 1:
		return db, true
	}
	return 0, false
}

// broadcastStrides returns a's strides over the index space out, which a
// broadcasts to: right-aligned, 0 on axes a lacks or has size 1 on.
func broadcastStrides(a *Array, out []int) []int {
	return broadcastStridesInto(make([]int, len(out)), a, out)
}

// broadcastStridesInto is broadcastStrides writing into st (len(out) long).
func broadcastStridesInto(st []int, a *Array, out []int) []int {
	clear(st)
	d := len(out) - len(a.shape)
	for i := range a.shape {
		if a.shape[i] != 1 {
			st[i+d] = a.strides[i]
		}
	}
	return st
}

// CanBroadcastTo reports whether shape broadcasts to out without changing out.
func CanBroadcastTo(shape, out []int) bool {
	if len(shape) > len(out) {
		return false
	}
	d := len(out) - len(shape)
	for i, s := range shape {
		if s != 1 && s != out[i+d] {
			return false
		}
	}
	return true
}
