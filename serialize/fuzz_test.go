package serialize

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
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
	f.Fuzz(func(t *testing.T, data []byte) { checkDecodeProperty(t, data, true) })
}

// checkDecodeProperty: decode never panics, fails only with a *FormatError,
// and whatever decodes encodes, decodes again and re-encodes to the same bytes.
// With dump, the decoded graph is also listed by dumpGraph.
func checkDecodeProperty(t *testing.T, data []byte, dump bool) {
	t.Helper()
	g, err := decode(data)
	if err != nil {
		if _, ok := err.(*FormatError); !ok {
			t.Fatalf("error of type %T: %v", err, err)
		}
		return
	}
	if dump {
		dumpGraph(io.Discard, g) // walks every array through checkArray and the value printers
	}
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

// FuzzRead feeds arbitrary bytes to Read. It must never panic, loop or
// allocate without bound; whatever loads must save in both byte orders and
// load back as an equal graph.
func FuzzRead(f *testing.F) {
	for _, name := range fixtureFiles(f) {
		buf, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(buf)
		for _, n := range []int{8, 64, len(buf) / 2, len(buf) - 1} {
			if n > 0 && n < len(buf) {
				f.Add(buf[:n])
			}
		}
	}
	for _, g := range fuzzSeedGraphs(f) {
		for _, big := range []bool{false, true} {
			b, err := Encode(g, &SaveOptions{BigEndian: big, UpdaterState: true})
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	// Writes through views saved for Java: the group Read folds back.
	vb, err := Encode(viewWrites(f), &SaveOptions{Java: true})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(vb)
	for _, r := range []*rawGraph{chain(), loopGraph()} {
		b, err := encode(r)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add(newerSchemaBuffer())
	f.Fuzz(func(t *testing.T, data []byte) {
		// No input may make loading (or the round trip) run for long: the
		// fuzzer has no per-input time limit, so a slow input would only
		// show as a stall.
		done := make(chan struct{})
		go func() {
			defer close(done)
			checkReadProperty(t, data)
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("Read and its round trip took over 20 s on a %d-byte input", len(data))
		}
	})
}

// fuzzSeedGraphs are graphs built in Go: the MLP, and one holding every
// dtype, strings and empty arrays.
func fuzzSeedGraphs(tb testing.TB) []*graph.Graph {
	g := mlp(tb)
	d := graph.New()
	for _, dt := range []ndarray.DType{ndarray.Half, ndarray.Uint8, ndarray.Int16, ndarray.Bool, ndarray.Int64} {
		b := make([]byte, 2*dt.Size())
		buf, _ := ndarray.BufferFromBytes(dt, 2, b)
		d.Const("c_"+dt.String(), ndarray.Must(ndarray.NewView(buf, ndarray.Packed(2))))
	}
	d.Const("s", ndarray.Must(ndarray.FromStrings([]string{"ab", "c"})))
	d.Const("e", ndarray.Must(ndarray.Zeros(ndarray.Float32, 0, 3)))
	d.Placeholder("p", ndarray.Int32, -1)
	return []*graph.Graph{g, d}
}

// checkReadProperty: Read fails with an error or gives a graph that encodes
// in both byte orders and decodes back to an equal graph.
func checkReadProperty(t *testing.T, data []byte) {
	t.Helper()
	g, err := Read(bytes.NewReader(data))
	if err != nil {
		var pe *ops.PanicError
		if strings.Contains(err.Error(), "internal error") || errors.As(err, &pe) {
			if pe != nil {
				t.Logf("%s", pe.Stack)
			}
			t.Fatalf("loader bug: %v", err)
		}
		return
	}
	if ReportOf(g) == nil {
		t.Fatal("loaded graph without a report")
	}
	for _, big := range []bool{false, true} {
		opts := &SaveOptions{BigEndian: big, UpdaterState: true}
		b, err := Encode(g, opts)
		if err != nil {
			t.Fatalf("a loaded graph does not save: %v", err)
		}
		g2, err := Decode(b)
		if err != nil {
			t.Fatalf("a saved graph does not load: %v", err)
		}
		if d := graphDiff(g, g2); d != "" {
			t.Fatalf("save/load changed the graph:\n%s", d)
		}
	}
}
