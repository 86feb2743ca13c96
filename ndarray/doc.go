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
// # Memory budget
//
// Every buffer is checked, before it is made, against a budget of live
// bytes (AllocLimit, SetAllocLimit), and one that does not fit fails with
// an error wrapping ErrTooLarge that names the dtype, the shape and the
// bytes: Go cannot report a failed allocation to its caller, so an
// oversized result (an outer broadcast by mistake, a shape from an
// untrusted file, a loop that never ends keeping every iteration) would
// otherwise end the program. By default the budget is what the process's
// rlimits, its cgroup's memory limit and the machine's available memory
// leave, less a margin.
//
// The budget counts the Go heap in use (MemoryInUse), read from the
// runtime's statistics, rather than a tally of buffers: so buffers are
// credited when whatever holds them lets go (the executor's pool, the GC),
// and memory allocated outside ndarray counts too. The heap is read again
// only after a few MiB of allocations, or when a buffer would not fit; then
// the caches registered with OnMemoryPressure are emptied and the garbage
// collector runs before the allocation is refused. Memory taken outside
// ndarray in large blocks can be checked first with Reserve.
//
// Element loops are written once with generics over the element types; there
// is no interface value per element.
package ndarray
