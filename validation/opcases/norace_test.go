//go:build !race

package opcases_test

const raceEnabled = false
