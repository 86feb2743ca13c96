package ndarray

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// layouts returns the same 1000×1000 float32 values packed, in a padded
// buffer (rows padded to 1024 and offset by a border), as a strided view
// with contiguous rows (columns 500..1499 of a 1000×2000 matrix, as
// CreateView's intervals on outer axes give), and stepped (every second
// element of every second row: no contiguous run at all).
func layouts(b *testing.B) map[string]*Array {
	rng := rand.New(rand.NewPCG(1, 1))
	x := randArray(b, rng, Float32, 1000, 1000)
	p, err := NewPadded(Float32, []int{1000, 1000}, []int{2, 24}, []int{1, 8})
	if err != nil {
		b.Fatal(err)
	}
	if err := CopyInto(p, x); err != nil {
		b.Fatal(err)
	}
	big := Must(Zeros(Float32, 1000, 2000))
	rows, err := big.WithLayout(Layout{Shape: []int{1000, 1000}, Strides: []int{2000, 1}, Offset: 500})
	if err != nil {
		b.Fatal(err)
	}
	if err := CopyInto(rows, x); err != nil {
		b.Fatal(err)
	}
	return map[string]*Array{"packed": x, "padded": p, "strided": rows, "stepped": strided(b, x)}
}

// BenchmarkLayouts compares elementwise ops and a reduction on packed,
// padded and strided layouts of 1e6 elements (GB/s counts the bytes of the
// elements read and written, not the padding).
func BenchmarkLayouts(b *testing.B) {
	ls := layouts(b)
	for _, name := range []string{"packed", "padded", "strided", "stepped"} {
		a := ls[name]
		out := Must(Zeros(Float32, 1000, 1000))
		b.Run(fmt.Sprintf("add/%s", name), func(b *testing.B) {
			b.SetBytes(3 * 4e6)
			for i := 0; i < b.N; i++ {
				if err := BinaryInto(Add, out, a, a); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("tanh/%s", name), func(b *testing.B) {
			b.SetBytes(2 * 4e6)
			for i := 0; i < b.N; i++ {
				if err := UnaryInto(Tanh, out, a, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
		sum := Must(Zeros(Float32, 1000))
		b.Run(fmt.Sprintf("sum-rows/%s", name), func(b *testing.B) {
			b.SetBytes(4e6)
			for i := 0; i < b.N; i++ {
				if err := ReduceInto(Sum, sum, a, []int{1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
