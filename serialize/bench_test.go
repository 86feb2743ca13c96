package serialize

import (
	"testing"

	"github.com/sdgo/sdgo/serialize/fb"
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
