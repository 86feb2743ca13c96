// Package openblas calls OpenBLAS's GEMM through cgo and benchmarks it
// under the names of the kernels' BenchmarkGemm, so that sdgo can be
// compared with the library its GEMM targets are set against:
//
//	go test -tags openblas -run XXX -bench '^BenchmarkGemm$/f(32|64)/(512|1024)/' ./kernels/...
//
// runs both, each package in a process of its own. The package is built
// only with the build tag openblas (and cgo), which needs OpenBLAS's
// headers and library (Debian: libopenblas-dev); without the tag it is
// empty and nothing in sdgo links OpenBLAS.
package openblas
