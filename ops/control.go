package ops

import (
	"fmt"

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
	EnterOp         = Register(passDef("enter", 100, "x, entering the loop frame named by string arg 0; bool arg 0: loop-invariant"))
	ExitOp          = Register(passDef("exit", 90, "x, leaving its loop frame when the loop ends"))
	NextIterationOp = Register(passDef("next_iteration", 80, "x, passed to the next iteration of its loop"))
	LoopCondOp      = Register(&Def{
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
	SwitchOp = Register(&Def{
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
	})
	MergeOp = Register(&Def{
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
	LoopCountOp = Register(&Def{
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
	LoopValueOp = Register(&Def{
		Name: "loop_value", Type: Custom, MinIn: 2, MaxIn: 2, Flags: ControlFlow, NonDiff: []int{0, 1},
		Doc:   "input 0 as it was in the forward loop iteration that this backward iteration mirrors; input 1 places the op",
		Infer: passInfo, Run: needExecutor("loop_value"),
	})
	// RouteOp passes its first input on, as a gradient rule's way to make
	// a value dead exactly where the second input is: the gradient of a
	// conditional follows the branch taken.
	RouteOp = Register(&Def{
		Name: "route", Type: Custom, MinIn: 2, MaxIn: 2, NonDiff: []int{1},
		Doc:   "input 0, dead where input 1 is dead (it follows the branch input 1 lies on)",
		Infer: passInfo, Run: passRun,
	})
)

func init() {
	// A conditional's merge: each input gets the gradient where it was the
	// one alive (the branch taken). A loop's merge is differentiated with
	// its whole loop by package autodiff.
	MergeOp.Grad = func(b GradBuilder, n GradNode, d []Value) []Value {
		out := make([]Value, len(n.In))
		for i, x := range n.In {
			out[i] = op1(b, "route", Args{}, d[0], x)
		}
		return out
	}
	// A conditional's switch: the gradient of the branch taken, or zeros
	// when that branch did not use the value.
	SwitchOp.Grad = func(b GradBuilder, n GradNode, d []Value) []Value {
		side := make([]Value, 2)
		for i := range side {
			side[i] = d[i]
			if side[i] == nil {
				side[i] = op1(b, "route", Args{}, op1(b, "zeros_as", Args{}, n.In[0]), n.Out[i])
			}
		}
		return []Value{op1(b, "merge", Args{}, side[0], side[1]), nil}
	}
	RouteOp.Grad = func(b GradBuilder, n GradNode, d []Value) []Value {
		return []Value{op1(b, "route", Args{}, d[0], n.In[1]), nil}
	}
}
