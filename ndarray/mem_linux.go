package ndarray

import "syscall"

// systemMemory returns RAM plus swap, the most that one allocation can get
// from Linux, capped at MaxBytes.
func systemMemory() int {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return MaxBytes
	}
	total := (uint64(si.Totalram) + uint64(si.Totalswap)) * uint64(si.Unit)
	if total == 0 || total > MaxBytes {
		return MaxBytes
	}
	return int(total)
}
