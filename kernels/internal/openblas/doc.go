// Package openblas calls OpenBLAS's GEMM through cgo, so that the kernels'
// benchmarks can time the library the GEMM targets are set against in the
// same run as sdgo and gonum. It is built only with the build tag openblas
// (and cgo), which needs OpenBLAS's headers and library (Debian:
// libopenblas-dev); without the tag the package is empty and sdgo never
// links OpenBLAS.
package openblas
