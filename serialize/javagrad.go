package serialize

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// Gradients in the Java-compatible save.
//
// SameDiff keeps the gradient it builds in a function apart from the graph
// and saves only the graph (its forward ops, and the loss variables); on
// load it builds the gradient again when asked, naming each "<var>-grad".
// sdgo's autodiff adds the gradient to the graph itself, with ops of its
// own (reduce_to_shape_of, create_view_bp, ...) that Java lacks, and names
// the gradients as SameDiff names its own. Saved as ops of the main graph
// they would block the load or collide with the gradient Java builds.
//
// So a save for Java leaves out every variable and op a differentiation
// added (autodiff.Builds), and marks, for sdgo, what each differentiation
// was: its losses, the variables it differentiated with respect to, and the
// names of their gradients. The mark is a UTF8 constant named gradMarker,
// one string per differentiation (JSON), that no op reads: Java loads it as
// an unused constant. (An UpdaterState entry, as files before held it,
// breaks Java's load: SameDiff.fromFlatBuffers instantiates the training
// config's updater from every entry, whatever its name, and an updater
// refuses state that is not its own; with no training config the load
// fails on the missing config.) Loading builds the gradients again in the
// same order, with the same names, after the rest of the graph: the graph
// is the one saved, its gradients last.

// gradMarker is the name of the mark.
const gradMarker = "sdgo/autodiff.builds"

// gradBuild is one differentiation in the mark.
type gradBuild struct {
	Losses []string `json:"losses"`
	Wrt    []string `json:"wrt"`
	Grads  []string `json:"grads"`
}

// javaGradients returns the variables and ops of g that a save for Java
// leaves out, and the mark that brings them back; an error when an op kept
// reads one of them (the gradient is not there for it in the file).
func (s *saver) javaGradients(vars []*graph.Variable, gops []*graph.Op) (map[*graph.Variable]bool, map[*graph.Op]bool, []string, error) {
	builds := autodiff.Builds(s.g)
	if len(builds) == 0 {
		return nil, nil, nil, nil
	}
	inFile := make(map[*graph.Variable]bool, len(vars))
	for _, v := range vars {
		inFile[v] = true
	}
	omitVar := map[*graph.Variable]bool{}
	names := func(vs []*graph.Variable) []string {
		out := make([]string, len(vs))
		for i, v := range vs {
			out[i] = s.name(v)
		}
		return out
	}
	var mark []string
	for _, b := range builds {
		for _, v := range b.Added {
			if inFile[v] {
				omitVar[v] = true
			}
		}
		js, err := json.Marshal(gradBuild{Losses: names(b.Losses), Wrt: names(b.Wrt), Grads: names(b.Grads)})
		if err != nil {
			return nil, nil, nil, fmt.Errorf("serialize: saving for Java: %w", err)
		}
		mark = append(mark, string(js))
	}
	for _, b := range builds {
		for _, v := range slices.Concat(b.Losses, b.Wrt) {
			if omitVar[v] {
				return nil, nil, nil, fmt.Errorf("serialize: saving for Java: %q, a loss or variable of a gradient, was itself added by a gradient; SameDiff has no form for a gradient of a gradient", s.name(v))
			}
		}
	}
	if _, clash := s.g.Variable(gradMarker); clash {
		return nil, nil, nil, fmt.Errorf("serialize: saving for Java: the graph has a variable %q, the name of sdgo's mark of its gradients; rename it", gradMarker)
	}
	omitOp := map[*graph.Op]bool{}
	for _, op := range gops {
		outs := op.Outputs()
		gradOp := len(outs) > 0
		for _, v := range outs {
			gradOp = gradOp && omitVar[v]
		}
		if gradOp {
			omitOp[op] = true
			continue
		}
		for _, in := range op.Inputs() {
			if omitVar[in] {
				return nil, nil, nil, fmt.Errorf("serialize: saving for Java: op %q (%s) reads %q, which a gradient computes; a save for Java leaves the gradient out (SameDiff builds its own), so no op of the graph may read it",
					op.Name(), op.OpName(), s.name(in))
			}
		}
	}
	return omitVar, omitOp, mark, nil
}

// gradMarkVariable is the mark of the differentiations builds (JSON), as
// the constant variable of the given id.
func (s *saver) gradMarkVariable(builds []string, id rawIntPair) (rawVariable, error) {
	arr, err := ndarray.FromStrings(builds, len(builds))
	if err != nil {
		return rawVariable{}, fmt.Errorf("serialize: saving for Java: the mark of the gradients: %w", err)
	}
	ra, err := arrayToRaw(arr, s.bo, false, s.opts.LegacyArrayLayouts)
	if err != nil {
		return rawVariable{}, fmt.Errorf("serialize: saving for Java: the mark of the gradients: %w", err)
	}
	return rawVariable{ID: &id, Name: gradMarker, DType: fb.DType(ndarray.UTF8), Array: &ra, Device: -1, VarType: fb.VarTypeCONSTANT}, nil
}

// takeGradMarks removes the mark of a save for Java from r (a UTF8
// constant no node reads, or, in files written before, an UpdaterState
// entry) and returns the differentiations it lists.
func takeGradMarks(r *rawGraph) ([]gradBuild, error) {
	var keys []string
	found := false
	kept := r.UpdaterState[:0:0]
	for _, u := range r.UpdaterState {
		if u.ParamName != gradMarker {
			kept = append(kept, u)
			continue
		}
		keys, found = append(keys, u.Keys...), true
	}
	if found {
		r.UpdaterState = kept
	}
	for i := range r.Variables {
		v := &r.Variables[i]
		if v.Name != gradMarker || v.VarType != fb.VarTypeCONSTANT || v.Array == nil || gradMarkRead(r, v) {
			continue
		}
		la, err := arrayFromRaw(v.Array, ndarray.UTF8)
		if err != nil {
			return nil, fmt.Errorf("serialize: the file's mark of sdgo's gradients: %w", err)
		}
		ss, err := ndarray.Strings(la.arr)
		if err != nil || la.arr.Rank() != 1 {
			return nil, fmt.Errorf("serialize: the file's mark of sdgo's gradients is not a vector of strings (%v, shape %v)", la.arr.DType(), la.arr.Shape())
		}
		keys, found = append(keys, ss...), true
		r.Variables = slices.Delete(r.Variables, i, i+1)
		break
	}
	var out []gradBuild
	for _, k := range keys {
		var b gradBuild
		if err := json.Unmarshal([]byte(k), &b); err != nil {
			return nil, fmt.Errorf("serialize: the file's mark of sdgo's gradients: %w", err)
		}
		out = append(out, b)
	}
	return out, nil
}

// gradMarkRead reports whether a node of r reads variable v (then it is a
// variable of the graph that happens to have the mark's name).
func gradMarkRead(r *rawGraph, v *rawVariable) bool {
	if v.ID == nil {
		return false
	}
	for i := range r.Nodes {
		if slices.Contains(r.Nodes[i].InputPaired, *v.ID) {
			return true
		}
	}
	return false
}

// rebuildGradients builds the differentiations of a save for Java again
// and gives their gradients the names they had.
func rebuildGradients(g *graph.Graph, builds []gradBuild) error {
	lookup := func(what string, names []string) ([]*graph.Variable, error) {
		out := make([]*graph.Variable, len(names))
		for i, n := range names {
			v, ok := g.Variable(n)
			if !ok {
				return nil, fmt.Errorf("serialize: the file marks a gradient whose %s %q is not in the graph", what, n)
			}
			out[i] = v
		}
		return out, nil
	}
	for _, b := range builds {
		losses, err := lookup("loss", b.Losses)
		if err != nil {
			return err
		}
		wrt, err := lookup("variable", b.Wrt)
		if err != nil {
			return err
		}
		if len(b.Grads) != len(wrt) {
			return fmt.Errorf("serialize: the file marks %d gradient names for %d variables", len(b.Grads), len(wrt))
		}
		grads, err := autodiff.GradSum(losses, wrt...)
		if err != nil {
			return fmt.Errorf("serialize: building again the gradient the file marks: %w", err)
		}
		for i, gv := range grads {
			if gv.Name() != b.Grads[i] && slices.Index(wrt, gv) < 0 {
				if err := g.Rename(gv, b.Grads[i]); err != nil {
					return fmt.Errorf("serialize: naming the gradient of %q: %w", b.Wrt[i], err)
				}
			}
		}
	}
	return nil
}
