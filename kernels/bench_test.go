package kernels

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
)

// GEMM: C = A*B, square n×n, row-major, next to gonum's native (pure Go)
// GEMM. "t1" is one goroutine (gonum runs with GOMAXPROCS=1, since it
// splits work across goroutines itself), "tN" uses every core.
func BenchmarkGemm(b *testing.B) {
	for _, n := range []int{64, 256, 512, 1024} {
		for _, th := range []string{"t1", "tN"} {
			threads := 1
			if th == "tN" {
				threads = runtime.NumCPU()
			}
			b.Run(fmt.Sprintf("f32/%d/%s/sdgo", n, th), func(b *testing.B) { benchGemm[float32](b, n, threads, false) })
			b.Run(fmt.Sprintf("f32/%d/%s/gonum", n, th), func(b *testing.B) { benchGemm[float32](b, n, threads, true) })
			b.Run(fmt.Sprintf("f64/%d/%s/sdgo", n, th), func(b *testing.B) { benchGemm[float64](b, n, threads, false) })
			b.Run(fmt.Sprintf("f64/%d/%s/gonum", n, th), func(b *testing.B) { benchGemm[float64](b, n, threads, true) })
		}
	}
}

func benchGemm[T Float](b *testing.B, n, threads int, gonum bool) {
	r := rand.New(rand.NewPCG(1, 1))
	a := input[T](r, n*n, 0, false, -1, 1)
	bb := input[T](r, n*n, 0, false, -1, 1)
	c := make([]T, n*n)
	var run func()
	if gonum {
		switch a := any(a).(type) {
		case []float32:
			A := blas32.General{Rows: n, Cols: n, Stride: n, Data: a}
			B := blas32.General{Rows: n, Cols: n, Stride: n, Data: any(bb).([]float32)}
			C := blas32.General{Rows: n, Cols: n, Stride: n, Data: any(c).([]float32)}
			run = func() { blas32.Gemm(blas.NoTrans, blas.NoTrans, 1, A, B, 0, C) }
		case []float64:
			A := blas64.General{Rows: n, Cols: n, Stride: n, Data: a}
			B := blas64.General{Rows: n, Cols: n, Stride: n, Data: any(bb).([]float64)}
			C := blas64.General{Rows: n, Cols: n, Stride: n, Data: any(c).([]float64)}
			run = func() { blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, A, B, 0, C) }
		}
		if threads == 1 {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
		}
	} else {
		run = func() { Gemm(threads, n, n, n, 1, a, n, 1, bb, n, 1, 0, c, n, 1) }
	}
	run()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		run()
	}
	b.ReportMetric(2*float64(n)*float64(n)*float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

var benchLens = []struct {
	name string
	n    int
}{{"1e3", 1000}, {"1e5", 100000}, {"1e7", 10000000}}

// Elementwise kernels of the selected table, with GB/s counting every byte
// read and written; Copy is the builtin copy of the same bytes (dst and one
// source) for reference.
func BenchmarkElementwise(b *testing.B) {
	for _, l := range benchLens {
		b.Run("f32/Copy/"+l.name, func(b *testing.B) { benchElem[float32](b, l.n, "Copy") })
		for _, op := range []string{"Add", "Mul", "Exp"} {
			b.Run("f32/"+op+"/"+l.name, func(b *testing.B) { benchElem[float32](b, l.n, op) })
			b.Run("f64/"+op+"/"+l.name, func(b *testing.B) { benchElem[float64](b, l.n, op) })
		}
		b.Run("f64/Copy/"+l.name, func(b *testing.B) { benchElem[float64](b, l.n, "Copy") })
	}
}

func benchElem[T Float](b *testing.B, n int, op string) {
	r := rand.New(rand.NewPCG(1, 1))
	x := input[T](r, n, 0, false, -5, 5)
	y := input[T](r, n, 0, false, -5, 5)
	dst := make([]T, n)
	tab := For[T]()
	var f func()
	streams := 3
	switch op {
	case "Add":
		f = func() { tab.Add(dst, x, y) }
	case "Mul":
		f = func() { tab.Mul(dst, x, y) }
	case "Exp":
		f, streams = func() { tab.Exp(dst, x) }, 2
	case "Copy":
		f, streams = func() { copy(dst, x) }, 2
	}
	var z T
	f()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f()
	}
	bytes := float64(streams*n) * float64(sizeOf(z))
	b.ReportMetric(bytes*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
}

func sizeOf[T Float](z T) int {
	if _, ok := any(z).(float32); ok {
		return 4
	}
	return 8
}

// Reductions of the selected table.
func BenchmarkReduce(b *testing.B) {
	for _, l := range benchLens {
		for _, op := range []string{"Sum", "Dot", "MaxReduce"} {
			b.Run("f32/"+op+"/"+l.name, func(b *testing.B) { benchReduce[float32](b, l.n, op) })
			b.Run("f64/"+op+"/"+l.name, func(b *testing.B) { benchReduce[float64](b, l.n, op) })
		}
	}
}

var sink float64

func benchReduce[T Float](b *testing.B, n int, op string) {
	r := rand.New(rand.NewPCG(1, 1))
	x := input[T](r, n, 0, false, -5, 5)
	y := input[T](r, n, 0, false, -5, 5)
	tab := For[T]()
	streams := 1
	var f func() T
	switch op {
	case "Sum":
		f = func() T { return tab.Sum(x) }
	case "Dot":
		f, streams = func() T { return tab.Dot(x, y) }, 2
	case "MaxReduce":
		f = func() T { return tab.MaxReduce(x) }
	}
	var z T
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += float64(f())
	}
	bytes := float64(streams*n) * float64(sizeOf(z))
	b.ReportMetric(bytes*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
}
