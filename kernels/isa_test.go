package kernels

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestISACapWarning runs the test binary again with SDGO_ISA set: a value
// that names no instruction set is reported on stderr, with the names
// there are, since a misspelt cap (avx-2, sse) silently left the kernels
// on the best instruction set; the documented values are not reported.
func TestISACapWarning(t *testing.T) {
	if os.Getenv("SDGO_TEST_ISA_CHILD") != "" {
		return
	}
	for _, tc := range []struct {
		cap  string
		warn bool
	}{
		{"avx-2", true}, {"sse", true}, {"AVX2", false}, {" generic ", false}, {"avx512", false}, {"neon", false}, {"purego", false}, {"", false},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestISACapWarning$")
		// GORACE: a binary built with -race sleeps a second on exit (so
		// that goroutines still running can report races); the child
		// starts none.
		cmd.Env = append(os.Environ(), "SDGO_TEST_ISA_CHILD=1", "SDGO_ISA="+tc.cap, "GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=0")
		out, err := cmd.CombinedOutput()
		if err != nil {
			if _, ok := err.(*exec.ExitError); !ok {
				t.Skipf("cannot run the test binary again: %v", err)
			}
			t.Fatalf("SDGO_ISA=%q: %v\n%s", tc.cap, err, out)
		}
		warned := strings.Contains(string(out), "SDGO_ISA=")
		if warned != tc.warn {
			t.Errorf("SDGO_ISA=%q: warned %v, want %v; output:\n%s", tc.cap, warned, tc.warn, out)
		}
		if warned && !strings.Contains(string(out), "avx512, avx2, neon, generic") {
			t.Errorf("SDGO_ISA=%q: the warning does not list the names:\n%s", tc.cap, out)
		}
	}
}
