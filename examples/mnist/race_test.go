//go:build race

package main

// raceEnabled: the race detector makes training 5-10x slower, so the
// full-size run is left to make sweeps, which runs without it.
const raceEnabled = true
