package serialize_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/serialize"
)

// Build a small graph, save it, load it back and run it.
func ExampleSave() {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float32, -1, 2)
	w := g.Var("w", ndarray.Must(ndarray.FromSlice([]float32{1, 2, 3, 4}, 2, 2)))
	b := g.Const("b", ndarray.Must(ndarray.FromSlice([]float32{0.5, -0.5})))
	x.MatMul(w).Add(b).Named("y")
	if err := g.Err(); err != nil {
		log.Fatal(err)
	}

	dir, err := os.MkdirTemp("", "sdgo-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "model.fb")
	// Little-endian by default; BigEndian: true writes what SameDiff's Java writer writes.
	if err := serialize.Save(path, g, &serialize.SaveOptions{}); err != nil {
		log.Fatal(err)
	}

	loaded, err := serialize.Load(path)
	if err != nil {
		log.Fatal(err)
	}
	in := map[string]*ndarray.Array{"x": ndarray.Must(ndarray.FromSlice([]float32{1, 1}, 1, 2))}
	out, err := exec.New(loaded).Output(in, "y")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out["y"].Float64s())
	// Output: [4.5 5.5]
}

// Load a file written by SameDiff: ops sdgo implements run, the others load
// as opaque ops and are listed in the load report.
func ExampleLoad() {
	dir := "../testdata/samediff"
	g, err := serialize.Load(filepath.Join(dir, "pad_1D.fb"))
	if err != nil {
		log.Fatal(err)
	}
	out, err := exec.New(g).Output(nil, "PadV2")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%.3f\n", out["PadV2"].Float64s())

	// A while loop that counts from 0 while the count is below in_0 (3).
	g, err = serialize.Load(filepath.Join(dir, "while_iter3.fb"))
	if err != nil {
		log.Fatal(err)
	}
	out, err = exec.New(g).Output(nil, "while/Exit")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("count:", out["while/Exit"], "not implemented:", serialize.ReportOf(g).Unimplemented)
	// Output:
	// [10.000 0.779 0.801 0.724 0.231 0.727 10.000]
	// count: float32[] 3 not implemented: []
}
