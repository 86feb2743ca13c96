package ndarray

import (
	"syscall"
	"testing"
)

// The room is the least of the address-space and data rlimits less what
// the process maps, the cgroup's, and MemAvailable.
func TestSystemRoom(t *testing.T) {
	files := map[string]string{
		"/proc/self/status": "Name:\tsdgo\nVmPeak:\t 1300000 kB\nVmSize:\t 1200000 kB\nVmData:\t   40000 kB\n",
		"/proc/meminfo":     "MemTotal: 24000000 kB\nMemAvailable: 3000000 kB\n",
	}
	cases := []struct {
		name    string
		rlimits map[int]uint64
		want    int
	}{
		{"MemAvailable", nil, 3000000 * 1024},
		{"RLIMIT_AS", map[int]uint64{syscall.RLIMIT_AS: 4000000 * 1024}, 2800000 * 1024},
		{"RLIMIT_DATA", map[int]uint64{syscall.RLIMIT_AS: 4000000 * 1024, syscall.RLIMIT_DATA: 1040000 * 1024}, 1000000 * 1024},
		{"mapped past the limit", map[int]uint64{syscall.RLIMIT_AS: 1000000 * 1024}, 0},
	}
	for _, c := range cases {
		got, ok := systemRoom(fakeSources(files, c.rlimits))
		if !ok || got != c.want {
			t.Errorf("%s: %d, %v; want %d", c.name, got, ok, c.want)
		}
	}
	if _, ok := systemRoom(fakeSources(nil, nil)); ok {
		t.Error("no sources: the room is known")
	}
}
