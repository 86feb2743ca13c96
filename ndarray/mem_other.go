//go:build !linux

package ndarray

// systemMemory is MaxBytes where sdgo does not read the machine's memory.
func systemMemory() int { return MaxBytes }
