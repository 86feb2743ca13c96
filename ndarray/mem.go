package ndarray

import (
	"bytes"
	"path"
	"strconv"
	"strings"
)

// memSources is where the default budget reads the system's limits: the
// real files and rlimits, or a test's.
type memSources struct {
	read   func(path string) ([]byte, error)
	rlimit func(resource int) (cur uint64, limited bool)
}

// budgetFrom is the budget for a heap of heap bytes in use with room bytes
// more to take: three quarters of the room (see AllocLimit).
func budgetFrom(heap, room int) int {
	room = max(room, 0)
	return min(heap+room-room/4, MaxBytes)
}

// kbField returns the value of a "Name:   123 kB" line of /proc/meminfo or
// /proc/self/status, in bytes.
func kbField(data []byte, name string) (int, bool) {
	for line := range bytes.Lines(data) {
		rest, ok := bytes.CutPrefix(line, []byte(name+":"))
		if !ok {
			continue
		}
		f := strings.Fields(string(rest))
		if len(f) == 0 {
			return 0, false
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || n < 0 || n > MaxBytes/1024 {
			return 0, false
		}
		if len(f) > 1 && f[1] == "kB" {
			n *= 1024
		}
		return int(n), true
	}
	return 0, false
}

// cgroupRoom returns the least room that the memory limits of the
// process's cgroup and its ancestors leave (limit less usage), in cgroup
// v2 (memory.max, memory.current) and v1 (memory.limit_in_bytes,
// memory.usage_in_bytes), and whether any cgroup sets a limit.
func cgroupRoom(src memSources) (int, bool) {
	self, err := src.read("/proc/self/cgroup")
	if err != nil {
		return 0, false
	}
	mounts, _ := src.read("/proc/self/mountinfo")
	room, said := MaxBytes, false
	for line := range bytes.Lines(self) {
		// hierarchy-ID:controllers:path; v2 is "0::path".
		f := strings.SplitN(strings.TrimSpace(string(line)), ":", 3)
		if len(f) != 3 {
			continue
		}
		var mnt, root, limitFile, usageFile string
		switch {
		case f[0] == "0" && f[1] == "":
			mnt, root = cgroupMount(mounts, "cgroup2", "")
			if mnt == "" {
				mnt, root = "/sys/fs/cgroup", "/"
			}
			limitFile, usageFile = "memory.max", "memory.current"
		case hasItem(f[1], "memory"):
			mnt, root = cgroupMount(mounts, "cgroup", "memory")
			if mnt == "" {
				mnt, root = "/sys/fs/cgroup/memory", "/"
			}
			limitFile, usageFile = "memory.limit_in_bytes", "memory.usage_in_bytes"
		default:
			continue
		}
		// The path is the cgroup's in the whole hierarchy; the mount
		// shows the hierarchy from root down (a container's own cgroup).
		rel := strings.TrimPrefix(path.Clean("/"+f[2]), path.Clean(root))
		for p := path.Clean("/" + rel); ; p = path.Dir(p) {
			dir := path.Join(mnt, p)
			if r, ok := cgroupDirRoom(src, dir, limitFile, usageFile); ok {
				room, said = min(room, r), true
			}
			if p == "/" {
				break
			}
		}
	}
	return room, said
}

// cgroupDirRoom reads one cgroup's memory limit and usage; ok is false
// when it sets no limit ("max", or v1's page-rounded 2^63-1).
func cgroupDirRoom(src memSources, dir, limitFile, usageFile string) (int, bool) {
	lim, ok := readInt(src, path.Join(dir, limitFile))
	if !ok || lim >= 1<<62 {
		return 0, false
	}
	used, _ := readInt(src, path.Join(dir, usageFile))
	return max(int(min(lim, MaxBytes))-used, 0), true
}

// readInt reads a file holding one decimal integer.
func readInt(src memSources, name string) (int, bool) {
	b, err := src.read(name)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0, false
	}
	return int(min(n, 1<<62)), true
}

// cgroupMount finds the mount point and root of the cgroup file system of
// type fstype in /proc/self/mountinfo whose super options include option
// (any, when option is empty).
func cgroupMount(mountinfo []byte, fstype, option string) (mnt, root string) {
	for line := range bytes.Lines(mountinfo) {
		// id parent major:minor root mountpoint opts [tags...] - type source superopts
		pre, post, ok := strings.Cut(strings.TrimSpace(string(line)), " - ")
		if !ok {
			continue
		}
		a, b := strings.Fields(pre), strings.Fields(post)
		if len(a) < 5 || len(b) < 3 || b[0] != fstype {
			continue
		}
		if option == "" || hasItem(b[2], option) {
			return unescapeMount(a[4]), unescapeMount(a[3])
		}
	}
	return "", ""
}

// hasItem reports whether the comma-separated list holds item.
func hasItem(list, item string) bool {
	for it := range strings.SplitSeq(list, ",") {
		if it == item {
			return true
		}
	}
	return false
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
