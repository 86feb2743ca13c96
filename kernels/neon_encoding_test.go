package kernels

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestNEONEncodings checks every vector instruction that arm64/gen.go emits
// as a WORD (Go's assembler lacks them) against GNU as: each distinct
// "WORD $0x... // insn" of arm64/neon_arm64.s is assembled with
// aarch64-linux-gnu-as (Debian: binutils-aarch64-linux-gnu) and the words
// compared. Skipped when the assembler is not installed.
func TestNEONEncodings(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("runs on the amd64 development host")
	}
	as, err := exec.LookPath("aarch64-linux-gnu-as")
	if err != nil {
		t.Skip("aarch64-linux-gnu-as not installed")
	}
	objdump, err := exec.LookPath("aarch64-linux-gnu-objdump")
	if err != nil {
		t.Skip("aarch64-linux-gnu-objdump not installed")
	}
	src, err := os.ReadFile(filepath.Join("arm64", "neon_arm64.s"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	var insns []string
	for _, m := range regexp.MustCompile(`WORD \$0x([0-9a-f]{8}) // (.+)`).FindAllStringSubmatch(string(src), -1) {
		w, ins := m[1], strings.TrimSpace(m[2])
		if prev, ok := want[ins]; ok {
			if prev != w {
				t.Errorf("%s encoded both as %s and %s", ins, prev, w)
			}
			continue
		}
		want[ins] = w
		insns = append(insns, ins)
	}
	dir := t.TempDir()
	s, o := filepath.Join(dir, "a.s"), filepath.Join(dir, "a.o")
	if err := os.WriteFile(s, []byte(strings.Join(insns, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(as, "-o", o, s).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", as, err, out)
	}
	out, err := exec.Command(objdump, "-d", o).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := regexp.MustCompile(`(?m)^\s+[0-9a-f]+:\s+([0-9a-f]{8})\s`).FindAllStringSubmatch(string(out), -1)
	if len(got) != len(insns) {
		t.Fatalf("objdump shows %d words for %d instructions", len(got), len(insns))
	}
	for i, ins := range insns {
		if got[i][1] != want[ins] {
			t.Errorf("%s: gen.go emits %s, GNU as %s", ins, want[ins], got[i][1])
		}
	}
	t.Logf("%d distinct instructions match GNU as", len(insns))
}
