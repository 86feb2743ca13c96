// Package autodiff builds reverse-mode gradients into a graph.
//
// As in SameDiff the gradient is itself part of the graph: Grad adds the ops
// that compute it, from each op's gradient rule (ops.Def.Grad), and returns
// the gradient variables, which run, save and check like any other.
//
// Only the ops between the wanted variables and the loss are differentiated.
// Several losses are summed. Integer and bool values carry no gradient;
// asking for one is an error. The stop_gradient op blocks the gradient.
package autodiff
