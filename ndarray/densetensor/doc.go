// Package densetensor converts between sdgo's arrays and gorgonia's
// *tensor.Dense (gorgonia.org/tensor).
//
// Of sdgo's library packages it is the only one that imports gorgonia: the
// engine (ndarray, graph, ops, autodiff, exec, serialize, train,
// validation and the packages below them) builds without it, and a program
// that never converts does not build or link gorgonia.
//
// Both directions share memory where the layouts allow: a packed array
// becomes a tensor over the same elements, and a contiguous row-major tensor
// becomes an array over its backing slice. Other layouts are copied first.
// Arrays are values in sdgo (nothing changes their elements once they are
// handed on), so a tensor made by ToDense must be treated as read-only, and
// a tensor handed to FromDense must not be changed afterwards.
//
// Float32, Float64, Int32, Int64 and Bool convert; other dtypes are an
// error.
package densetensor
