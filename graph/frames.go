package graph

import (
	"slices"

	"github.com/sdgo/sdgo/ops"
)

// Frame is a loop frame as the graph describes it: the frame an enter
// opens, inside the frame the enter runs in. The executor makes one
// instance of it per iteration of its parent; this is the static frame
// they all share.
type Frame struct {
	Name   string
	Parent *Frame // nil: the frame is inside the root, outside every loop
	Depth  int    // 1 for a loop at the root
}

// Within reports whether f is g or lies inside it. Every frame lies inside
// the root (nil).
func (f *Frame) Within(g *Frame) bool {
	if g == nil {
		return true
	}
	for x := f; x != nil && x.Depth >= g.Depth; x = x.Parent {
		if x == g {
			return true
		}
	}
	return false
}

// FrameName returns the name of the frame enter op e opens: its frame name
// argument, or, when a file left that empty, the op's own name, so that the
// enters of a frame name it alike and each unnamed enter has a frame of its
// own.
func FrameName(e *Op) string {
	if name := ops.FrameName(e.args); name != "" {
		return name
	}
	return e.name
}

// Frames places ops in the loop frames they statically belong to. The
// executor runs an op in the frame this gives (in each of its instances)
// and reverse mode differentiates each frame's ops as one loop; both place
// ops with it, so they agree on what lies inside a loop.
//
// The zero value is ready to use. It knows variables by ID, which building
// a While loop may renumber (moving ops before others): place ops while
// no While is being built. Adding ops renumbers nothing, so the frames of
// placed variables stay right while autodiff adds its backward ops.
type Frames struct {
	frames map[frameKey]*Frame
	vars   []*Frame // by variable ID, not a map: a session places its plans' ops on its first runs
}

type frameKey struct {
	parent *Frame
	name   string
}

// Place places op o and its outputs; every op producing an input of o must
// have been placed before, back edges aside (the graph's op order does
// that). It returns the frame o runs in and the frame its outputs are in.
//
// The rule: o runs in the deepest frame among its inputs' frames. A value
// made from a loop's values exists once per iteration, so an op reading it
// runs once per iteration; one made only from values outside a loop is the
// same in every iteration and runs once, outside (a loop body that must go
// round with such a value routes it through the loop first, as While
// does). Placeholders, variables and constants are in the root (nil) and
// visible in every frame. Two inputs are left out: a merge's back edge,
// which comes round from the iteration before, in the frame the merge
// already is in (its producer comes after the merge in the graph's
// order); and loop_value's forward value (input 0), which a backward loop
// reads from the forward frame it mirrors, not one it runs in. An enter's
// output is in the frame the enter opens, named by FrameName, inside the
// frame the enter runs in (the enters of one loop, one per loop variable,
// name the same frame and open it together); an exit's output is in the frame around the
// one the exit runs in (the root for an exit outside every loop, a
// malformed graph whose exit fails when it runs).
func (fs *Frames) Place(o *Op) (run, out *Frame) {
	for i, in := range o.Inputs() {
		if o.IsBackEdge(i) || (i == 0 && o.opName == "loop_value") {
			continue
		}
		if f := fs.Of(in); f != nil && (run == nil || f.Depth > run.Depth) {
			run = f
		}
	}
	out = run
	switch o.opName {
	case "enter":
		k := frameKey{run, FrameName(o)}
		out = fs.frames[k]
		if out == nil {
			if fs.frames == nil {
				fs.frames = map[frameKey]*Frame{}
			}
			out = &Frame{Name: k.name, Parent: run, Depth: 1}
			if run != nil {
				out.Depth = run.Depth + 1
			}
			fs.frames[k] = out
		}
	case "exit":
		if run != nil {
			out = run.Parent
		}
	}
	for _, v := range o.outputs {
		id := int(v.id)
		if id >= len(fs.vars) {
			fs.vars = slices.Grow(fs.vars, id+1-len(fs.vars))[:id+1]
		}
		fs.vars[id] = out
	}
	return run, out
}

// Of returns the frame of a variable placed by Place (nil, the root, for
// any other).
func (fs *Frames) Of(v *Variable) *Frame {
	if id := int(v.id); id < len(fs.vars) {
		return fs.vars[id]
	}
	return nil
}
