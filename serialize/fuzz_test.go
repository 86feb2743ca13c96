package serialize

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// FuzzDecode feeds arbitrary bytes to decode. It must never panic; whatever
// decodes must encode, decode again, and encode to the same bytes.
func FuzzDecode(f *testing.F) {
	for _, name := range fixtureFiles(f) {
		buf, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(buf)
		for _, n := range []int{4, 8, 16, 64, len(buf) / 2, len(buf) - 1} {
			if n > 0 && n < len(buf) {
				f.Add(buf[:n])
			}
		}
	}
	f.Add([]byte(baseGraph()))
	if b, err := encode(fullGraph()); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkDecodeProperty(t, data) })
}

// checkDecodeProperty: decode never panics, fails only with a *FormatError,
// and whatever decodes encodes, decodes again and re-encodes to the same bytes.
func checkDecodeProperty(t *testing.T, data []byte) {
	t.Helper()
	g, err := decode(data)
	if err != nil {
		if _, ok := err.(*FormatError); !ok {
			t.Fatalf("error of type %T: %v", err, err)
		}
		return
	}
	dumpGraph(io.Discard, g) // walks every array through checkArray and the value printers
	b1, err := encode(g)
	if err != nil {
		t.Fatalf("encode of a decoded graph: %v", err)
	}
	g2, err := decode(b1)
	if err != nil {
		t.Fatalf("decode of re-encoded graph: %v", err)
	}
	b2, err := encode(g2)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b1, b2) {
		t.Fatal("re-encoding is not stable")
	}
}
