package ndarray

import (
	"io/fs"
	"testing"
)

// fakeSources serves files from a map, and rlimits from another.
func fakeSources(files map[string]string, rlimits map[int]uint64) memSources {
	return memSources{
		read: func(p string) ([]byte, error) {
			if s, ok := files[p]; ok {
				return []byte(s), nil
			}
			return nil, fs.ErrNotExist
		},
		rlimit: func(res int) (uint64, bool) {
			v, ok := rlimits[res]
			return v, ok
		},
	}
}

func TestKBField(t *testing.T) {
	meminfo := []byte("MemTotal:       24000000 kB\nMemFree:        20000000 kB\nMemAvailable:   22711000 kB\nHugePages_Total:       7\n")
	if n, ok := kbField(meminfo, "MemAvailable"); !ok || n != 22711000*1024 {
		t.Errorf("MemAvailable = %d, %v", n, ok)
	}
	if n, ok := kbField(meminfo, "HugePages_Total"); !ok || n != 7 {
		t.Errorf("a count without kB = %d, %v", n, ok)
	}
	if _, ok := kbField(meminfo, "Mem"); ok {
		t.Error("a prefix of a name matched")
	}
	if _, ok := kbField([]byte("MemAvailable: lots kB\n"), "MemAvailable"); ok {
		t.Error("a value that is no number was taken")
	}
}

// The cgroup limits: v2 and v1, the process's own cgroup and its parents
// (the least room wins), a container's mount whose root is its own
// cgroup, and "no limit" in both spellings.
func TestCgroupRoom(t *testing.T) {
	v2mounts := "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"
	cases := []struct {
		name  string
		files map[string]string
		want  int
		ok    bool
	}{
		{"v2 own", map[string]string{
			"/proc/self/cgroup":                            "0::/user.slice/app\n",
			"/proc/self/mountinfo":                         v2mounts,
			"/sys/fs/cgroup/user.slice/app/memory.max":     "4000000000\n",
			"/sys/fs/cgroup/user.slice/app/memory.current": "1000000000\n",
			"/sys/fs/cgroup/user.slice/memory.max":         "max\n",
		}, 3000000000, true},
		{"v2 parent tighter", map[string]string{
			"/proc/self/cgroup":                            "0::/user.slice/app\n",
			"/proc/self/mountinfo":                         v2mounts,
			"/sys/fs/cgroup/user.slice/app/memory.max":     "4000000000\n",
			"/sys/fs/cgroup/user.slice/app/memory.current": "1000000000\n",
			"/sys/fs/cgroup/user.slice/memory.max":         "2000000000\n",
			"/sys/fs/cgroup/user.slice/memory.current":     "1500000000\n",
		}, 500000000, true},
		{"v2 no limit", map[string]string{
			"/proc/self/cgroup":         "0::/\n",
			"/proc/self/mountinfo":      v2mounts,
			"/sys/fs/cgroup/memory.max": "max\n",
		}, 0, false},
		{"v1 container root", map[string]string{
			"/proc/self/cgroup": "12:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n0::/\n",
			"/proc/self/mountinfo": "35 31 0:32 /docker/abc /sys/fs/cgroup/memory ro,nosuid - cgroup cgroup rw,memory\n" +
				"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n",
			"/sys/fs/cgroup/memory/memory.limit_in_bytes": "1073741824\n",
			"/sys/fs/cgroup/memory/memory.usage_in_bytes": "73741824\n",
		}, 1000000000, true},
		{"v1 unlimited", map[string]string{
			"/proc/self/cgroup":    "4:memory:/process_api/x\n",
			"/proc/self/mountinfo": "35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n",
			"/sys/fs/cgroup/memory/process_api/x/memory.limit_in_bytes": "9223372036854771712\n",
			"/sys/fs/cgroup/memory/process_api/x/memory.usage_in_bytes": "41902080\n",
			"/sys/fs/cgroup/memory/memory.limit_in_bytes":               "9223372036854771712\n",
		}, 0, false},
		{"no /proc", nil, 0, false},
	}
	for _, c := range cases {
		got, ok := cgroupRoom(fakeSources(c.files, nil))
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("%s: room %d, %v; want %d, %v", c.name, got, ok, c.want, c.ok)
		}
	}
	if got := unescapeMount(`/mnt/my\040cgroup`); got != "/mnt/my cgroup" {
		t.Errorf("unescapeMount = %q", got)
	}
}

func TestBudgetFrom(t *testing.T) {
	if got := budgetFrom(100<<20, 4<<30); got != 100<<20+3<<30 {
		t.Errorf("budgetFrom(100 MiB, 4 GiB) = %d", got)
	}
	if got := budgetFrom(100<<20, -5); got != 100<<20 {
		t.Errorf("no room left: %d", got)
	}
	if got := budgetFrom(MaxBytes/2, MaxBytes); got != MaxBytes {
		t.Errorf("budgetFrom(MaxBytes/2, MaxBytes) = %d, not capped", got)
	}
}
