package serialize

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// bigGraph holds n float32 parameters split over 50 variables.
func bigGraph(n int) *rawGraph {
	const parts = 50
	g := &rawGraph{}
	per := n / parts
	for i := 0; i < parts; i++ {
		si, _ := cShapeInfo([]int64{int64(per)}, fb.DTypeFLOAT, false, false)
		g.Variables = append(g.Variables, rawVariable{
			ID: &rawIntPair{int32(i), 0}, Name: "w" + string(rune('a'+i%26)) + string(rune('a'+i/26)),
			DType: fb.DTypeFLOAT, VarType: fb.VarTypeVARIABLE, Device: -1,
			Array: &rawArray{ShapeInfo: si, Buffer: make([]byte, 4*per), DType: fb.DTypeFLOAT, ByteOrder: fb.ByteOrderLE},
		})
	}
	return g
}

const benchBytes = 200 << 20 // 200 MB of float32 parameters

// BenchmarkRawEncode200MB / BenchmarkRawDecode200MB measure the raw layer on
// 200 MB of parameters; BenchmarkCopy200MB is a plain memory copy of the same
// bytes for comparison. (File I/O belongs to the Save/Load benchmarks.)
func BenchmarkRawEncode200MB(b *testing.B) {
	g := bigGraph(benchBytes / 4)
	b.SetBytes(benchBytes)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := encode(g); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRawDecode200MB(b *testing.B) {
	buf, err := encode(bigGraph(benchBytes / 4))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(benchBytes)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := decode(buf); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCopy200MB(b *testing.B) {
	src := make([]byte, benchBytes)
	dst := make([]byte, benchBytes)
	b.SetBytes(benchBytes)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		copy(dst, src)
	}
}

// bigParams is a graph holding n float32 parameters in 50 variables.
func bigParams(tb testing.TB, n int) *graph.Graph {
	g := graph.New()
	const parts = 50
	for i := 0; i < parts; i++ {
		a, err := ndarray.Zeros(ndarray.Float32, n/parts)
		if err != nil {
			tb.Fatal(err)
		}
		g.Var(fmt.Sprintf("w%d", i), a)
	}
	return g
}

// BenchmarkSave200MB / BenchmarkLoad200MB save and load 200 MB of float32
// parameters through files (Save syncs the file before renaming it);
// BenchmarkFileCopy200MB copies a file of the same size (read, write, sync)
// for comparison, in the same run. Run with -benchtime 3x or so.
func BenchmarkSave200MB(b *testing.B) {
	g := bigParams(b, benchBytes/4)
	path := filepath.Join(b.TempDir(), "big.fb")
	b.SetBytes(benchBytes)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := Save(path, g, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoad200MB(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.fb")
	if err := Save(path, bigParams(b, benchBytes/4), nil); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(benchBytes)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g, err := Load(path)
		if err != nil {
			b.Fatal(err)
		}
		if len(g.Variables()) != 50 {
			b.Fatal("wrong graph")
		}
	}
}

func BenchmarkLoadBigEndian200MB(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.fb")
	if err := Save(path, bigParams(b, benchBytes/4), &SaveOptions{BigEndian: true}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(benchBytes)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Load(path); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFileCopy200MB(b *testing.B) {
	dir := b.TempDir()
	src := filepath.Join(dir, "src")
	if err := os.WriteFile(src, make([]byte, benchBytes), 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(benchBytes)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		in, err := os.Open(src)
		if err != nil {
			b.Fatal(err)
		}
		out, err := os.Create(filepath.Join(dir, "dst"))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(out, in); err != nil {
			b.Fatal(err)
		}
		if err := out.Sync(); err != nil {
			b.Fatal(err)
		}
		out.Close()
		in.Close()
	}
}

// BenchmarkDecodeFixtures decodes every fixture file (real SameDiff graphs:
// mostly nodes, few parameters), the loader's per-node work.
func BenchmarkDecodeFixtures(b *testing.B) {
	var bufs [][]byte
	for _, f := range fixtureFiles(b) {
		buf, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		bufs = append(bufs, buf)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, buf := range bufs {
			if _, err := Decode(buf); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(len(bufs)), "µs/file")
}
