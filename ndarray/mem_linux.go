package ndarray

import (
	"os"
	"syscall"
)

// defaultLimit is the default memory budget (see AllocLimit), from what
// Linux says of the process's limits and the machine's memory.
func defaultLimit() int {
	room, ok := systemRoom(memSources{
		read: os.ReadFile,
		rlimit: func(res int) (uint64, bool) {
			var rl syscall.Rlimit
			if syscall.Getrlimit(res, &rl) != nil || rl.Cur == ^uint64(0) {
				return 0, false
			}
			return rl.Cur, true
		},
	})
	if !ok {
		return MaxBytes
	}
	return budgetFrom(MemoryInUse(), room)
}

// systemRoom returns the memory the process can still take, the least of
// what its rlimits, its cgroups and the machine's available memory leave,
// and whether any of them said.
func systemRoom(src memSources) (int, bool) {
	room, said := MaxBytes, false
	take := func(r int, ok bool) {
		if ok {
			room, said = min(room, max(r, 0)), true
		}
	}
	status, _ := src.read("/proc/self/status")
	for _, l := range []struct {
		res   int
		field string
	}{{syscall.RLIMIT_AS, "VmSize"}, {syscall.RLIMIT_DATA, "VmData"}} {
		if lim, ok := src.rlimit(l.res); ok {
			used, _ := kbField(status, l.field)
			take(int(min(lim, MaxBytes))-used, true)
		}
	}
	take(cgroupRoom(src))
	meminfo, _ := src.read("/proc/meminfo")
	take(kbField(meminfo, "MemAvailable"))
	return room, said
}
