//go:build race

package mnist

// raceEnabled: converting 70,000 images under the race detector takes most
// of a minute, so TestLoad runs in make sweeps, without it.
const raceEnabled = true
