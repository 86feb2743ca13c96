// Package exec runs graphs.
//
// A Session runs one graph: Output(feeds, names...) computes only the ops the
// named outputs need, in dependency order, after checking every fed
// placeholder's dtype and shape. It tracks buffers rather than arrays (ops
// like identity and reshape may hand back their input's buffer, CreateView
// always does), releases each buffer after the last array that uses it dies,
// and recycles released buffers in later ops and later runs, so that a
// training loop reaches a steady state without allocating. An op's own
// temporaries, taken from the pool too, come back when it gives them back
// (ops.Ctx.Release) and has returned, unless an output it returns lies on
// them.
//
// Outputs are values that nothing changes later: an output on a
// VARIABLE's buffer (the variable itself, or a reshape or view of it) is a
// copy, because a trainer updates its variables' arrays in place.
//
// Exec takes a Request; its Context stops a run between ops (a loop that
// would run until Session.MaxIterations, a deadline in a server), and
// inside the long ones that ask it as they go (matmul and the GEMM-based
// convolutions, between panels of about 2^26 multiply-adds: ops.Ctx.Stop),
// with an error that wraps the context's.
//
// Every buffer a run allocates is checked against ndarray's memory budget
// (ndarray.AllocLimit), which counts the whole heap in use: the values a
// loop keeps for its gradient, tensor arrays and the session's pool
// included. An op whose output does not fit fails with an error wrapping
// ndarray.ErrTooLarge that names the op, its inputs, the shape and (in a
// loop) the iteration; before that, the pool lets go of the buffers it
// keeps (ndarray.OnMemoryPressure).
//
// Listeners see every op before and after it runs; the validation
// listeners and the training loop hook in there.
//
// A Session is safe for concurrent use: plans are cached under a lock, each
// run keeps its state to itself, and the graph is only read.
package exec
