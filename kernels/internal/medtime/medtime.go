// Package medtime times benchmark calls by their median, for the kernels'
// benchmarks and their OpenBLAS peer (kernels/internal/openblas), which
// runs in a process of its own.
package medtime

import (
	"sort"
	"testing"
	"time"
)

// Call runs f b.N times in batches of at least about 20 µs, times each
// batch and returns the median time of one call in seconds, which it also
// reports as med-ns/op. On a shared machine the mean (ns/op) counts the
// time other processes hold the core; a short batch is rarely preempted,
// so the median is the time of an undisturbed call.
func Call(b *testing.B, f func()) float64 {
	b.Helper()
	f() // warm caches and pools
	t0 := time.Now()
	f()
	per := max(time.Since(t0), time.Nanosecond)
	batch := int(20*time.Microsecond/per) + 1
	var ts []float64
	b.ResetTimer()
	for done := 0; done < b.N; {
		nb := min(batch, b.N-done)
		t := time.Now()
		for i := 0; i < nb; i++ {
			f()
		}
		ts = append(ts, time.Since(t).Seconds()/float64(nb))
		done += nb
	}
	b.StopTimer()
	med := Median(ts)
	b.ReportMetric(med*1e9, "med-ns/op")
	return med
}

// Median returns the median of s (the upper one for an even count),
// sorting s.
func Median(s []float64) float64 {
	sort.Float64s(s)
	return s[len(s)/2]
}
