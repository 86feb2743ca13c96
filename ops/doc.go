// Package ops is sdgo's op registry: one definition per op, holding its
// SameDiff name and libnd4j name hash (so graph files can refer to it), its
// arity, its shape and dtype inference, its forward computation and its
// gradient rule, side by side so a reader sees them together.
//
// Op arguments are kept in SameDiff's positional form (Args: float, integer,
// bool, dtype and string arguments and dimensions), exactly as graph files
// store them, so a file's node and an op built in Go are the same thing.
//
// Ops never change their inputs: each writes fresh outputs, allocated through
// the Ctx the executor passes so buffers can be recycled (temporaries too,
// given back with Ctx.Release once the op no longer reads them). The exceptions are
// declared with flags (View for CreateView's aliasing output, InPlace for the
// writes through views), which the executor and the validation listener
// honour.
//
// What an op allocates through the Ctx counts against ndarray's memory
// budget before it is made. A Go slice an op makes for itself (an offset
// table, an accumulator, a workspace) whose size comes from shapes or
// argument values is reserved first in the same way, once per call, so
// that a hostile size is an error naming the op, not the end of the
// process. A slice no larger than a small multiple of an array already in
// memory, or sized by the rank or a constant, needs no reservation.
package ops
