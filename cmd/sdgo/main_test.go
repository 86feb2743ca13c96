package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"version"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "kernels ") {
		t.Errorf("version output %q does not show the kernel instruction set", out.String())
	}
	if code := run([]string{"bogus"}, &out, &errb); code == 0 || !strings.Contains(errb.String(), "bogus") {
		t.Errorf("unknown command: exit %d, %q", code, errb.String())
	}
}
