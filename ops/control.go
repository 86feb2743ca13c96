package ops

import (
	"fmt"
	"strings"

	"github.com/sdgo/sdgo/ndarray"
)

// Control flow as SameDiff stores it: TensorFlow v1's primitives. A
// conditional is Switch -> branches -> Merge; a loop is Enter -> Merge ->
// condition -> LoopCond -> Switch -> (Exit | body -> NextIteration -> back
// into the Merge). The executor runs them with frames (one per loop
// instance), iterations, and dead values for branches not taken; their Run
// functions below only move data, as the ops do when the executor is not
// involved.
//
// Arguments: enter takes the frame's name as string argument 0 and whether
// the value is loop-invariant (visible in every iteration) as bool
// argument 0, SameDiff's frameName and isConstant properties.

// EnterArgs returns enter's arguments.
func EnterArgs(frame string, constant bool) Args {
	return Args{S: []string{frame}, B: []bool{constant}}
}

// FrameName returns enter's frame name.
func FrameName(a *Args) string {
	if a != nil && len(a.S) > 0 {
		return a.S[0]
	}
	return ""
}

func passInfo(in []Info, _ *Args) ([]Info, error) { return infos(same(in[0])), nil }

func passRun(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) { return one(in[0], nil) }

// passDef defines a one-input primitive whose data movement is passing x on.
func passDef(name string, num int64, doc string) *Def {
	return &Def{Name: name, Type: Logic, Num: num, MinIn: 1, MaxIn: 1, Flags: ControlFlow, Doc: doc, Infer: passInfo, Run: passRun}
}

var (
	enterOp         = Register(passDef("enter", 100, "x, entering the loop frame named by string arg 0; bool arg 0: loop-invariant"))
	exitOp          = Register(passDef("exit", 90, "x, leaving its loop frame when the loop ends"))
	nextIterationOp = Register(passDef("next_iteration", 80, "x, passed to the next iteration of its loop"))
	loopCondOp      = Register(&Def{
		Name: "loop_cond", Type: Logic, Num: 70, MinIn: 1, MaxIn: 1, Flags: ControlFlow,
		Doc: "the boolean scalar that decides whether a loop goes on",
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			if err := scalarBool("loop_cond", in[0]); err != nil {
				return nil, err
			}
			return infos(same(in[0])), nil
		},
		Run: passRun,
	})
	switchOp = Register(&Def{
		Name: "switch", Type: Logic, Num: 30, MinIn: 2, MaxIn: 2, Flags: ControlFlow,
		Doc: "x routed to output 1 when the predicate (input 1) is true, to output 0 when false; the other output is dead",
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			if err := scalarBool("switch's predicate", in[1]); err != nil {
				return nil, err
			}
			return infos(same(in[0]), same(in[0])), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
			// Outside an executor both outputs carry x; the executor
			// marks the branch not taken dead.
			if _, err := Predicate(in[1]); err != nil {
				return nil, err
			}
			return []*ndarray.Array{in[0], in[0]}, nil
		},
		// A conditional's switch: the gradient of the branch taken, or zeros
		// when that branch did not use the value.
		Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
			side := make([]Value, 2)
			for i := range side {
				side[i] = d[i]
				if side[i] == nil {
					side[i] = op1(b, "route", Args{}, op1(b, "zeros_as", Args{}, n.In[0]), n.Out[i])
				}
			}
			return []Value{op1(b, "merge", Args{}, side[0], side[1]), nil}
		},
	})
	mergeOp = Register(&Def{
		Name: "merge", Type: Logic, Num: 60, MinIn: 1, MaxIn: -1, Flags: ControlFlow,
		Doc: "the input that is alive (the branch taken, or the loop value of this iteration)",
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			o := same(in[0])
			for _, x := range in[1:] {
				o = joinInfo(o, x)
			}
			return infos(o), nil
		},
		Run: passRun,
		// A conditional's merge: each input gets the gradient where it was the
		// one alive (the branch taken). A loop's merge is differentiated with
		// its whole loop by package autodiff.
		Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
			out := make([]Value, len(n.In))
			for i, x := range n.In {
				out[i] = op1(b, "route", Args{}, d[0], x)
			}
			return out
		},
	})
)

// Predicate reads a switch's or loop's boolean scalar (any one-element bool
// array).
func Predicate(a *ndarray.Array) (bool, error) {
	if a.DType() != ndarray.Bool || a.Size() != 1 {
		return false, fmt.Errorf("the predicate must be one bool, not %v%v", a.DType(), a.Shape())
	}
	return ndarray.Values[bool](a)[0], nil
}

func scalarBool(what string, x Info) error {
	if x.DType != ndarray.Bool {
		return fmt.Errorf("%s must be bool, not %v", what, x.DType)
	}
	if !x.UnknownRank {
		n := 1
		for _, d := range x.Shape {
			if d >= 0 {
				n *= d
			}
		}
		if n != 1 {
			return fmt.Errorf("%s must hold one value, not shape %v", what, x.Shape)
		}
	}
	return nil
}

// joinInfo returns what is known of a value that is either a or b: the
// dtype they share, and sizes where they agree.
func joinInfo(a, b Info) Info {
	if a.UnknownRank || b.UnknownRank || len(a.Shape) != len(b.Shape) {
		return Info{DType: a.DType, UnknownRank: true}
	}
	s := make([]int, len(a.Shape))
	for i := range s {
		if a.Shape[i] == b.Shape[i] {
			s[i] = a.Shape[i]
		} else {
			s[i] = -1
		}
	}
	return Info{DType: a.DType, Shape: s}
}

// Ops for the gradients of loops and conditionals (sdgo extensions; SameDiff
// has no gradients through its control flow).
//
// A loop's gradient is a second loop that runs as many times as the first
// ran its body, visiting the forward iterations backwards. Its enters name,
// besides their own frame (string arg 0), the forward frame they mirror
// (string arg 1). loop_count gives the number of body runs of the forward
// frame named by string arg 0 (the instance entered from the frame
// iteration the op runs in); loop_value, run in iteration k of a backward
// frame, gives its input's value from iteration N-1-k of the forward frame.
// Both need the executor; input 1 of loop_value and the input of loop_count
// only place the op in the right frame iteration.

// BackEnterArgs returns the arguments of an enter of a backward loop.
func BackEnterArgs(frame, forward string, constant bool) Args {
	return Args{S: []string{frame, forward}, B: []bool{constant}}
}

// ForwardFrame returns the forward frame a backward enter mirrors ("" for
// ordinary enters).
func ForwardFrame(a *Args) string {
	if a != nil && len(a.S) > 1 {
		return a.S[1]
	}
	return ""
}

func needExecutor(name string) func(*Ctx, []*ndarray.Array, *Args) ([]*ndarray.Array, error) {
	return func(*Ctx, []*ndarray.Array, *Args) ([]*ndarray.Array, error) {
		return nil, fmt.Errorf("%s runs only inside the executor's control flow", name)
	}
}

var (
	loopCountOp = Register(&Def{
		Name: "loop_count", Type: Custom, MinIn: 1, MaxIn: 1, Flags: ControlFlow, NonDiff: []int{0},
		Doc: "the number of times the forward loop frame named by string arg 0 ran its body (int64); the input places the op",
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if len(a.S) == 0 {
				return nil, fmt.Errorf("loop_count needs the forward frame's name as string arg 0")
			}
			return infos(Info{DType: ndarray.Int64, Shape: []int{}}), nil
		},
		Run: needExecutor("loop_count"),
	})
	loopValueOp = Register(&Def{
		Name: "loop_value", Type: Custom, MinIn: 2, MaxIn: 2, Flags: ControlFlow, NonDiff: []int{0, 1},
		Doc:   "input 0 as it was in the forward loop iteration that this backward iteration mirrors; input 1 places the op",
		Infer: passInfo, Run: needExecutor("loop_value"),
	})
	// routeOp passes its first input on, as a gradient rule's way to make
	// a value dead exactly where the second input is: the gradient of a
	// conditional follows the branch taken.
	routeOp = Register(&Def{
		Name: "route", Type: Custom, MinIn: 2, MaxIn: 2, NonDiff: []int{1},
		Doc:   "input 0, dead where input 1 is dead (it follows the branch input 1 lies on)",
		Infer: passInfo, Run: passRun,
		Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
			return []Value{op1(b, "route", Args{}, d[0], n.In[1]), nil}
		},
	})
)

// ---------------------------------------------------------------- noop, Assert

// noOpOp does nothing: TensorFlow's NoOp, which SameDiff gives one bool
// output. It takes any inputs (TensorFlow's control dependencies) and
// outputs true.
var noOpOp = Register(&Def{
	Name: "noop", Aliases: []string{"NoOp"}, Type: Custom, MinIn: 0, MaxIn: -1,
	Doc: "nothing; outputs a bool scalar true once its inputs (if any) are there",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		return infos(Info{DType: ndarray.Bool, Shape: []int{}}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		return one(ndarray.Scalar(true), nil)
	},
})

// assertSummarize is how many elements of each data array a failed Assert
// shows by default (int arg 0 changes it).
const assertSummarize = 20

// assertOp is TensorFlow's Assert: input 0 is the condition (bool; every
// element must be true), the other inputs the data to show when it fails;
// string args, when given, are shown first as the message. A holding
// assertion outputs the condition; a failing one is an error that shows the
// data (at most int arg 0 elements of each, default 20).
var assertOp = Register(&Def{
	Name: "Assert", Aliases: []string{"assert"}, Type: Custom, MinIn: 1, MaxIn: -1, Flags: AnyDType,
	Doc: "fails, showing the data inputs, unless every element of the bool input 0 is true; outputs input 0",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		if in[0].DType != ndarray.Bool {
			return nil, fmt.Errorf("Assert: the condition (input 0) must be bool, not %v", in[0].DType)
		}
		return infos(same(in[0])), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		cond := ndarray.Values[bool](in[0])
		for _, ok := range cond {
			if ok {
				continue
			}
			limit := int(a.Int(0, assertSummarize))
			var parts []string
			parts = append(parts, a.S...)
			for _, d := range in[1:] {
				parts = append(parts, formatData(d, limit))
			}
			msg := strings.TrimSpace(strings.Join(parts, " "))
			if msg == "" {
				msg = "(no data)"
			}
			return nil, fmt.Errorf("assertion %q failed: condition %s; data: %s", c.nodeName("Assert"), formatData(in[0], limit), msg)
		}
		return one(in[0], nil)
	},
})

// formatData shows an array's values (at most limit of them) for a message;
// string arrays show their text.
func formatData(a *ndarray.Array, limit int) string {
	if limit <= 0 {
		limit = assertSummarize
	}
	if a.DType() == ndarray.UTF8 {
		if ss, err := ndarray.Strings(a); err == nil {
			if len(ss) == 1 && a.Rank() == 0 {
				return ss[0]
			}
			if len(ss) > limit {
				ss = append(ss[:limit:limit], "...")
			}
			return "[" + strings.Join(ss, " ") + "]"
		}
	}
	if !a.DType().Computable() {
		return fmt.Sprintf("<%v%v>", a.DType(), a.Shape())
	}
	vals := a.Float64s()
	var sb strings.Builder
	if a.Rank() > 0 {
		sb.WriteByte('[')
	}
	for i, v := range vals {
		if i == limit {
			sb.WriteString(" ...")
			break
		}
		if i > 0 {
			sb.WriteByte(' ')
		}
		if a.DType() == ndarray.Bool {
			fmt.Fprintf(&sb, "%v", v != 0)
		} else {
			fmt.Fprintf(&sb, "%v", v)
		}
	}
	if a.Rank() > 0 {
		sb.WriteByte(']')
	}
	if a.Rank() > 1 {
		fmt.Fprintf(&sb, " (shape %v)", a.Shape())
	}
	return sb.String()
}
