// Package kernels holds the numeric inner loops sdgo runs on contiguous runs
// of float32 and float64 elements, and the GEMM driver.
//
// The loops are reached through a table of function values, one per element
// type (F32, F64), filled once at start-up: with Go assembly for AVX-512 or
// AVX2+FMA on amd64 and NEON on arm64 when the CPU has it, and with the
// portable Go versions in this package otherwise or when built with the
// purego tag. The environment variable SDGO_ISA caps the instruction set
// (for example SDGO_ISA=avx2 or SDGO_ISA=generic), which helps when debugging
// and comparing; ISA reports what was chosen.
//
// Kernels never see a layout: the ndarray package walks strided and padded
// arrays and hands each contiguous inner run to a kernel, so a kernel only has
// to be right and fast on a plain slice.
//
// Contract shared by every kernel, so callers never need a length check:
//   - all slice arguments of an elementwise kernel have the length of dst;
//   - dst may be the same slice as an input (dst == x), but must not overlap
//     it partially;
//   - reductions of an empty slice return the operation's identity
//     (0 for Sum and Dot, -Inf for Max, +Inf for Min);
//   - NaN propagates: if any input element is NaN, so is the result of Max,
//     Min and the reductions.
package kernels
