package ndarray

import "fmt"

// BroadcastShapes returns the shape numpy's broadcasting rules give for two
// operands: shapes aligned on the right, each pair of sizes equal or one of
// them 1.
func BroadcastShapes(a, b []int) ([]int, error) {
	n := max(len(a), len(b))
	out := make([]int, n)
	for i := 0; i < n; i++ {
		da, db := 1, 1
		if j := len(a) - n + i; j >= 0 {
			da = a[j]
		}
		if j := len(b) - n + i; j >= 0 {
			db = b[j]
		}
		s, ok := BroadcastSize(da, db)
		if !ok {
			return nil, fmt.Errorf("shapes %v and %v do not broadcast (axis %d: %d vs %d)", a, b, i, da, db)
		}
		out[i] = s
	}
	return out, nil
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
