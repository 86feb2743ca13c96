//go:build !race

package autodiff_test

const raceEnabled = false
