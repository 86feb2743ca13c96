//go:build race

package autodiff_test

// raceEnabled: the race detector makes the comparisons with gorgonia several
// times slower, so under it they run on fewer random applications (see
// TestOpsAgainstGorgonia); make test also runs this package without it.
const raceEnabled = true
