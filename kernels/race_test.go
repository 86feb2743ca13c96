//go:build race

package kernels

// raceEnabled: sync.Pool drops items at random under the race detector.
const raceEnabled = true
