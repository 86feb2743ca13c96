package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Arguments in the wrong place get a message that says so: flags after the
// file were taken as output names ("the graph has no variable \"-ph\""), and
// a second file for info, dot or gradcheck printed the usage without a word
// about what was wrong.
func TestArgumentsAfterTheFile(t *testing.T) {
	simplewhile := filepath.Join(fixtures, "simplewhile_1.fb")
	code, out, errs := sdgo(t, "run", simplewhile, "-ph", "input_0=1,2,3,4")
	if code != 2 || out != "" || !strings.Contains(errs, `"-ph"`) || !strings.Contains(errs, "flags go before the file") {
		t.Errorf("run FILE -ph: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	for _, cmd := range []string{"info", "dot", "gradcheck"} {
		code, out, errs := sdgo(t, cmd, simplewhile, "-arrays=false")
		if code != 2 || out != "" || !strings.Contains(errs, `unexpected argument "-arrays=false" after the file`) {
			t.Errorf("%s FILE -arrays=false: exit %d, stdout %q, stderr %q", cmd, code, out, errs)
		}
	}
}

// A feed the executor refuses (a shape the placeholder cannot take) is a
// usage error like any other bad feed, exit 2 as run -h says, not 1, the
// status of an op that fails.
func TestFeedOfWrongShapeIsAUsageError(t *testing.T) {
	simplewhile := filepath.Join(fixtures, "simplewhile_1.fb")
	code, out, errs := sdgo(t, "run", "-ph", "input_0=1,2,3,4", "-ph", "input_1=1:1", simplewhile)
	if code != 2 || out != "" || !strings.Contains(errs, `placeholder "input_1"`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
