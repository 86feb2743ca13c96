// Package graph holds the computation graph a user builds: a Graph of
// Variables (SameDiff's VARIABLE, CONSTANT, PLACEHOLDER and ARRAY types) and
// the Ops that connect them.
//
// Building reads as Go:
//
//	g := graph.New()
//	x := g.Placeholder("x", ndarray.Float32, -1, 784)
//	w := g.Var("w", w0)
//	b := g.Var("b", b0)
//	y := g.Math().Tanh(x.MatMul(w).Add(b))
//
// Shapes and dtypes are inferred as each op is added (-1 marks a size known
// only at run time). A mismatch is reported when the op is added, naming the
// op and the shapes: the explicit methods (Graph.Op, Graph.AddOp) return the
// error, and the chainable ones (x.MatMul(w)...) return a Variable that
// carries it, pass it on through every later call, and record the first one
// in Graph.Err.
//
// A Graph is safe for concurrent use: building takes a lock, and running it
// (package exec) only reads it. A reader that needs several things to agree
// (a save needs the variables, ops and losses of one graph) takes them in
// one Graph.Read, which holds the graph still while it reads.
package graph
