//go:build !linux

package ndarray

// defaultLimit is MaxBytes where sdgo does not read the system's limits.
func defaultLimit() int { return MaxBytes }
