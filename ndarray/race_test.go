//go:build race

package ndarray

// raceEnabled: the race detector makes the random reference tests several
// times slower, so under it they draw a quarter of their cases (refIters);
// make test also runs this package without it.
const raceEnabled = true
