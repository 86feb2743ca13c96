//go:build race

package serialize

// raceEnabled: the race detector slows the byte-by-byte corruption sweep
// about tenfold, so under it the sweep samples (see sweepPlan).
const raceEnabled = true
