//go:build race

package opcases_test

// raceEnabled: the race detector makes the random differential test several
// times slower, so under it the test runs fewer cases per op (see
// TestRandomGradients); make test also runs this package without it.
const raceEnabled = true
