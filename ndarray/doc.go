// Package ndarray holds sdgo's n-dimensional array: a dtype, a shared
// 64-byte-aligned buffer and a layout (shape, strides in elements, offset).
//
// Arrays are values: nothing in sdgo changes an array's elements after it has
// been handed to another piece of code, except the executor's declared
// in-place writes. Several arrays may share one buffer (views); a view costs
// O(rank) to make whatever the array's size.
//
// Layouts follow C order but need not be packed: padded layouts (libnd4j's
// padded-buffer ADR) let rows start aligned or leave a border around the data,
// as long as strides[i-1] >= strides[i]*shape[i]. Every function here accepts
// any valid layout and gives the same answer on packed, strided and padded
// arrays; the element loops hand each contiguous inner run to the vector
// kernels of package kernels and never read padding as data.
//
// Every allocation is checked against AllocLimit, by default the machine's
// memory, and fails with an error wrapping ErrTooLarge: Go cannot report a
// failed allocation to its caller, so an oversized result (an outer
// broadcast by mistake, a shape from an untrusted file) would otherwise end
// the program.
//
// Element loops are written once with generics over the element types; there
// is no interface value per element.
package ndarray
