// Package createview implements CreateView (libnd4j's create_view, ADR 0021)
// with run-time index resolution (ADR 0022), and sdgo's writes through views.
//
// # Index descriptors
//
// A view is described by one INT64 vector per index, laid out as ADR 0021
// and libnd4j define it, [type, count, stride, values..., inclusive]:
//
//	Point(p)                          {0, 1, 1, p, 1}
//	IntervalStep(start, end, step, i) {1, 2, 1, start, end, step, i}
//	All()                             {2, 0, 1, 1}
//	NewAxis()                         {3, 1, 1, 0, 1}   (Java writes {3, 1, 10, 1}; Parse accepts both)
//
// Index is the typed form; Descriptor and Parse convert between the two.
//
// # Resolution
//
// Resolve turns an input layout (shape, strides in elements, offset) and the
// descriptors into the view's layout, in O(rank):
//
//   - Indices are matched with input axes left to right. A point consumes an
//     axis and drops it (the offset moves to the point); an interval or all
//     consumes an axis and keeps it; a new axis consumes no input axis and
//     adds an axis of size 1. Input axes left over are kept whole (padded
//     with all).
//   - Negative point and interval bounds count from the end of the input
//     axis they index (-1 is the last element), whatever points and new axes
//     come before them. A bound still out of range after that is an error;
//     nothing is clamped.
//   - An interval keeps the elements start, start+step, ... up to end
//     (excluded, or included when the inclusive flag is 1): its length is
//     ceil((end-start)/step), or (end-start)/step+1 when inclusive, and its
//     stride step times the input stride. The step is slot 5 of the
//     descriptor (libnd4j wrongly reads slot 2, which is always 1). An
//     exclusive interval with end == start is empty; end before start is an
//     error.
//   - Steps must be at least 1. Negative steps (numpy's x[::-1]) would need
//     negative strides, which sdgo layouts, like libnd4j's C-order ones, do
//     not have; they are rejected.
//
// Every malformed descriptor is rejected with an *IndexError naming the
// index's position and what is wrong: unknown type, wrong length or count,
// a stride slot or inclusive flag with a value the layout does not allow,
// step below 1, a bound out of range, more indices than axes.
//
// These rules avoid the upstream defects listed in FORMAT.md: the step is
// honoured and the input strides are used (views of views and of padded
// arrays are right), negative bounds are resolved against the size of the
// axis they index (not the rank, not the index's position), and the
// gradient scatters back into the input's shape instead of viewing the
// output gradient.
//
// # Ops
//
// The package registers, in package ops's registry:
//
//   - "create_view" (SameDiff's op): input 0 is the array, inputs 1.. are
//     the index vectors, which may be constants, placeholders or computed
//     values and are resolved when the op runs, against the actual layout of
//     the input (itself possibly a view). The output shares the input's
//     buffer (flag ops.View) and costs O(rank) whatever the array's size.
//   - "create_view_bp": the gradient of create_view, the output gradient
//     scattered into zeros of the input's shape.
//   - "view_assign", "view_add", "view_sub", "view_mul", "view_div": sdgo
//     extensions (SameDiff has no such ops). Inputs are (base, value,
//     index...); the output is the new version of base: base with the view's
//     region replaced by value, or combined with it (+=, -=, *=, /=), value
//     broadcast to the view's shape. They are flagged ops.InPlace: the
//     executor lets them write into base's buffer when nothing still needs
//     base's old contents, and they copy base first otherwise, so the result
//     is the same either way and only the cost differs (O(view) in place,
//     O(base) with the copy).
//
// Every op has its gradient rule beside its definition.
package createview
