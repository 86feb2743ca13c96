package createview

import (
	"errors"
	"fmt"
	"strings"
)

// Kind is an index's type: slot 0 of its descriptor.
type Kind int64

// The index types of ADR 0021, with libnd4j's names.
const (
	PointType    Kind = 0 // POINT_TYPE
	IntervalType Kind = 1 // INTERVAL_TYPE
	AllType      Kind = 2 // ALL_TYPE
	NewAxisType  Kind = 3 // NEW_AXIS
)

// DefaultInclusive is the inclusive flag written by points, all and new axes
// (DEFAULT_INCLUSIVE), where it means nothing.
const DefaultInclusive int64 = 1

// javaNewAxisStride is slot 2 of the new-axis descriptor SameDiff's Java side
// writes: {NEW_AXIS, 1, 10, DEFAULT_INCLUSIVE}.
const javaNewAxisStride = 10

// String is the kind's name: point, interval, all or new axis.
func (k Kind) String() string {
	switch k {
	case PointType:
		return "point"
	case IntervalType:
		return "interval"
	case AllType:
		return "all"
	case NewAxisType:
		return "new axis"
	}
	return fmt.Sprintf("type %d", int64(k))
}

// Index is one index of a view in typed form. Build it with Point, Interval,
// IntervalStep, All or NewAxis, or from a descriptor with Parse. The zero
// Index is Point(0).
type Index struct {
	kind       Kind
	start, end int64 // point: start; interval: start and end
	step       int64 // interval only
	inclusive  bool  // interval only
}

// Point selects element i of an axis and drops the axis; a negative i counts
// from the end (-1 is the last element).
func Point(i int) Index { return Index{kind: PointType, start: int64(i)} }

// Interval keeps elements start to end-1 of an axis, like numpy's
// x[start:end]; negative bounds count from the end.
func Interval(start, end int) Index { return IntervalStep(start, end, 1, false) }

// IntervalStep keeps elements start, start+step, ... up to end, excluded or
// included, like numpy's x[start:end:step] (end included when inclusive);
// negative bounds count from the end. A step below 1 is an error reported
// when the index is used.
func IntervalStep(start, end, step int, inclusive bool) Index {
	return Index{kind: IntervalType, start: int64(start), end: int64(end), step: int64(step), inclusive: inclusive}
}

// All keeps a whole axis, like numpy's x[:].
func All() Index { return Index{kind: AllType} }

// NewAxis inserts an axis of size 1, like numpy's x[None]; it consumes no
// axis of the input.
func NewAxis() Index { return Index{kind: NewAxisType} }

// Kind returns the index's type.
func (x Index) Kind() Kind { return x.kind }

// Point returns a point's element (meaningless for other kinds).
func (x Index) Point() int64 { return x.start }

// Bounds returns an interval's start, end, step and inclusive flag
// (meaningless for other kinds).
func (x Index) Bounds() (start, end, step int64, inclusive bool) {
	return x.start, x.end, x.step, x.inclusive
}

// Descriptor returns the index as the INT64 vector create_view takes, in
// libnd4j's layout (new axes in the C++ form).
func (x Index) Descriptor() []int64 {
	switch x.kind {
	case PointType:
		return []int64{int64(PointType), 1, 1, x.start, DefaultInclusive}
	case IntervalType:
		return []int64{int64(IntervalType), 2, 1, x.start, x.end, x.step, b2i(x.inclusive)}
	case AllType:
		return []int64{int64(AllType), 0, 1, DefaultInclusive}
	case NewAxisType:
		return []int64{int64(NewAxisType), 1, 1, 0, DefaultInclusive}
	}
	return []int64{int64(x.kind)} // unreachable through the constructors and Parse
}

// Descriptors returns the descriptors of several indices.
func Descriptors(idx ...Index) [][]int64 {
	out := make([][]int64, len(idx))
	for i, x := range idx {
		out[i] = x.Descriptor()
	}
	return out
}

// String describes the index: point(3), interval(1, 4, step 2), all or
// newAxis.
func (x Index) String() string {
	switch x.kind {
	case PointType:
		return fmt.Sprintf("point(%d)", x.start)
	case IntervalType:
		incl := ""
		if x.inclusive {
			incl = ", inclusive"
		}
		return fmt.Sprintf("interval(%d, %d, step %d%s)", x.start, x.end, x.step, incl)
	case AllType:
		return "all"
	case NewAxisType:
		return "newAxis"
	}
	return x.kind.String()
}

// layout describes the descriptor layout of a kind, "" for unknown kinds.
func (k Kind) layout() string {
	switch k {
	case PointType:
		return "{0, 1, 1, p, inclusive}"
	case IntervalType:
		return "{1, 2, 1, start, end, step, inclusive}"
	case AllType:
		return "{2, 0, 1, inclusive}"
	case NewAxisType:
		return "{3, 1, 1, 0, inclusive} or {3, 1, 10, inclusive}"
	}
	return ""
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// ErrIndex is wrapped by every *IndexError.
var ErrIndex = errors.New("bad view index")

// IndexError reports a malformed or out-of-range index.
type IndexError struct {
	// Pos is the index's position among the view's indices (0 for the
	// first), or -1 when the index was parsed on its own.
	Pos int
	// Axis is the input axis the index applies to, or -1 when it applies to
	// none (a new axis, a malformed descriptor, one index too many).
	Axis int
	// Desc is the descriptor as given.
	Desc []int64
	// Msg says what is wrong.
	Msg string
	// Shape is the input's shape (-1 for unknown sizes), or nil when the
	// index was parsed on its own or the input's rank is unknown.
	Shape []int
}

// Error gives the index's position and descriptor, what is wrong with it
// and the input's shape when known.
func (e *IndexError) Error() string {
	var sb strings.Builder
	if e.Pos >= 0 {
		fmt.Fprintf(&sb, "index %d ", e.Pos)
	} else {
		sb.WriteString("index ")
	}
	sb.WriteString(formatDesc(e.Desc))
	sb.WriteString(": ")
	sb.WriteString(e.Msg)
	if e.Shape != nil {
		fmt.Fprintf(&sb, " (input shape %v)", e.Shape)
	}
	return sb.String()
}

// Unwrap makes errors.Is(err, ErrIndex) true.
func (e *IndexError) Unwrap() error { return ErrIndex }

// formatDesc prints a descriptor, shortened when it is long.
func formatDesc(d []int64) string {
	const show = 8
	if len(d) <= show {
		return fmt.Sprint(d)
	}
	return strings.TrimSuffix(fmt.Sprint(d[:show]), "]") + fmt.Sprintf(" ... (%d values)]", len(d))
}

func parseErr(d []int64, format string, a ...any) error {
	return &IndexError{Pos: -1, Axis: -1, Desc: d, Msg: fmt.Sprintf(format, a...)}
}

// Parse reads a descriptor. It accepts exactly the layouts of ADR 0021
// (and Java's new axis, {3, 1, 10, 1}): the type, the length, the count
// (slot 1) and the stride slot (slot 2, which is 1, except in Java's new
// axis) must match, an inclusive flag must be 0 or 1, a new axis's value
// slot must be 0 and an interval's step (slot 5) at least 1. Errors are
// *IndexError with Pos -1.
func Parse(d []int64) (Index, error) {
	if len(d) == 0 {
		return Index{}, parseErr(d, "empty descriptor")
	}
	k := Kind(d[0])
	layout := k.layout()
	if layout == "" {
		return Index{}, parseErr(d, "unknown index type %d (want %d point, %d interval, %d all or %d new axis)",
			d[0], PointType, IntervalType, AllType, NewAxisType)
	}
	bad := func(what string, a ...any) (Index, error) {
		return Index{}, parseErr(d, "%s %s (want %s)", k, fmt.Sprintf(what, a...), layout)
	}
	checkFlag := func(v int64) bool { return v == 0 || v == 1 }
	switch k {
	case PointType:
		if len(d) != 5 {
			return bad("descriptor has %d values, not 5", len(d))
		}
		if d[1] != 1 {
			return bad("count (slot 1) is %d, not 1", d[1])
		}
		if d[2] != 1 {
			return bad("stride slot (slot 2) is %d, not 1", d[2])
		}
		if !checkFlag(d[4]) {
			return bad("inclusive flag (slot 4) is %d, not 0 or 1", d[4])
		}
		return Index{kind: PointType, start: d[3]}, nil
	case IntervalType:
		if len(d) != 7 {
			return bad("descriptor has %d values, not 7", len(d))
		}
		if d[1] != 2 {
			return bad("count (slot 1) is %d, not 2", d[1])
		}
		if d[2] != 1 {
			return bad("stride slot (slot 2) is %d, not 1; the step is slot 5", d[2])
		}
		if d[5] == 0 {
			return bad("step (slot 5) is 0")
		}
		if d[5] < 0 {
			return bad("step (slot 5) is %d; negative steps are not supported (they would need negative strides)", d[5])
		}
		if !checkFlag(d[6]) {
			return bad("inclusive flag (slot 6) is %d, not 0 or 1", d[6])
		}
		return Index{kind: IntervalType, start: d[3], end: d[4], step: d[5], inclusive: d[6] == 1}, nil
	case AllType:
		if len(d) != 4 {
			return bad("descriptor has %d values, not 4", len(d))
		}
		if d[1] != 0 {
			return bad("count (slot 1) is %d, not 0", d[1])
		}
		if d[2] != 1 {
			return bad("stride slot (slot 2) is %d, not 1 (use an interval for a step)", d[2])
		}
		if !checkFlag(d[3]) {
			return bad("inclusive flag (slot 3) is %d, not 0 or 1", d[3])
		}
		return All(), nil
	default: // NewAxisType
		switch len(d) {
		case 5: // C++: {3, 1, 1, 0, inclusive}
			if d[1] != 1 {
				return bad("count (slot 1) is %d, not 1", d[1])
			}
			if d[2] != 1 {
				return bad("stride slot (slot 2) is %d, not 1", d[2])
			}
			if d[3] != 0 {
				return bad("value slot (slot 3) is %d, not 0", d[3])
			}
			if !checkFlag(d[4]) {
				return bad("inclusive flag (slot 4) is %d, not 0 or 1", d[4])
			}
		case 4: // Java: {3, 1, 10, inclusive}
			if d[1] != 1 {
				return bad("count (slot 1) is %d, not 1", d[1])
			}
			if d[2] != javaNewAxisStride {
				return bad("slot 2 of the 4-value form is %d, not %d", d[2], javaNewAxisStride)
			}
			if !checkFlag(d[3]) {
				return bad("inclusive flag (slot 3) is %d, not 0 or 1", d[3])
			}
		default:
			return bad("descriptor has %d values, not 5 (or 4 in Java's form)", len(d))
		}
		return NewAxis(), nil
	}
}
