package validation

import (
	"fmt"
	"slices"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// cloneSpec says how to copy a graph for a check.
type cloneSpec struct {
	// float64 converts every floating-point variable, constant, placeholder,
	// dtype argument and op output to float64.
	float64 bool
	// placeholders names VARIABLEs and op outputs (ARRAYs) that become
	// placeholders of the given shape in the copy: the checker feeds them
	// perturbed values without changing the graph (which would invalidate
	// the session's compiled plan).
	placeholders map[string][]int
}

// cloneGraph replays g into a new graph: the same variable names, op names,
// op arguments, inputs and loss variables, changed as spec says. The copy
// shares no mutable state with g; g is only read.
func cloneGraph(g *graph.Graph, spec cloneSpec) (*graph.Graph, error) {
	if err := g.Err(); err != nil {
		return nil, fmt.Errorf("validation: the graph has a build error: %w", err)
	}
	// The graph at one moment, as a save takes it: a Graph is safe for
	// concurrent use, and variables and ops taken one after the other
	// could disagree about an op added in between.
	var vars []*graph.Variable
	var all []*graph.Op
	var losses []string
	_ = g.Read(func(snap graph.Snapshot) error {
		vars = slices.Clone(snap.Variables())
		all = slices.Clone(snap.Ops())
		losses = slices.Clone(snap.Losses())
		return nil
	})
	c := graph.New()
	m := map[*graph.Variable]*graph.Variable{}
	conv := func(dt ndarray.DType) ndarray.DType {
		if spec.float64 && dt.IsFloat() {
			return ndarray.Float64
		}
		return dt
	}
	for _, v := range vars {
		if v.Op() != nil {
			continue
		}
		var nv *graph.Variable
		if shape, ok := spec.placeholders[v.Name()]; ok {
			nv = c.Placeholder(v.Name(), conv(v.DType()), shape...)
		} else {
			switch v.Type() {
			case graph.PLACEHOLDER:
				sh := v.Shape()
				if sh == nil {
					return nil, fmt.Errorf("validation: placeholder %q has an unknown rank; the checker cannot copy it", v.Name())
				}
				nv = c.Placeholder(v.Name(), conv(v.DType()), sh...)
			case graph.VARIABLE, graph.CONSTANT:
				val := v.Value()
				if conv(val.DType()) != val.DType() {
					cv, err := ndarray.Cast(val, ndarray.Float64)
					if err != nil {
						return nil, fmt.Errorf("validation: converting %v %q to float64: %w", v.Type(), v.Name(), err)
					}
					val = cv
				}
				if v.Type() == graph.VARIABLE {
					nv = c.Var(v.Name(), val)
				} else {
					nv = c.Const(v.Name(), val)
				}
			default:
				// A SEQUENCE kept from a file: nothing computes it.
				continue
			}
		}
		if err := nv.Err(); err != nil {
			return nil, fmt.Errorf("validation: copying %q: %w", v.Name(), err)
		}
		m[v] = nv
	}
	order, err := topoOrder(all)
	if err != nil {
		return nil, err
	}
	taken := func(n string) bool {
		if _, ok := g.Variable(n); ok {
			return true
		}
		_, ok := c.Variable(n)
		return ok
	}
	opTaken := func(n string) bool {
		if _, ok := g.OpByName(n); ok {
			return true
		}
		_, ok := c.OpByName(n)
		return ok || taken(n)
	}
	type backEdge struct {
		merge  *graph.Op
		inputs []*graph.Variable
	}
	var backEdges []backEdge
	for _, o := range order {
		spec2 := graph.OpSpec{Name: o.Name(), OpName: o.OpName(), Args: o.Args().Clone(), Opaque: o.Opaque()}
		if spec.float64 {
			convertArgs(o, &spec2.Args)
		}
		var back []*graph.Variable // a loop's merge: the values next_iteration brings round
		for i, in := range o.Inputs() {
			if o.IsBackEdge(i) {
				back = append(back, in)
				continue
			}
			ni, ok := m[in]
			if !ok {
				return nil, fmt.Errorf("validation: op %q (%s): input %q cannot be copied", o.Name(), o.OpName(), in.Name())
			}
			spec2.Inputs = append(spec2.Inputs, ni)
		}
		outs := o.Outputs()
		// Outputs that become placeholders, or that must be cast to float64
		// after the op, get a private name; the original name goes to the
		// placeholder or the cast.
		rename := make([]bool, len(outs))
		for i, out := range outs {
			_, ph := spec.placeholders[out.Name()]
			rename[i] = ph
		}
		names := make([]string, len(outs))
		for i, out := range outs {
			names[i] = out.Name()
			if rename[i] {
				names[i] = freshName(out.Name()+"/replaced", taken)
			}
		}
		spec2.OutputNames = names
		if o.Def() == nil {
			for _, out := range outs {
				info := out.Info()
				info.DType = conv(info.DType)
				spec2.OutputInfos = append(spec2.OutputInfos, info)
			}
		}
		nop, err := c.AddOp(spec2)
		if err != nil {
			return nil, fmt.Errorf("validation: copying op %q (%s): %w", o.Name(), o.OpName(), err)
		}
		if len(back) > 0 {
			backEdges = append(backEdges, backEdge{nop, back})
		}
		for i, out := range outs {
			nout := nop.Outputs()[i]
			if rename[i] {
				shape := spec.placeholders[out.Name()]
				p := c.Placeholder(out.Name(), conv(out.DType()), shape...)
				if err := p.Err(); err != nil {
					return nil, fmt.Errorf("validation: replacing %q with a placeholder: %w", out.Name(), err)
				}
				m[out] = p
				continue
			}
			if spec.float64 && nout.DType().IsFloat() && nout.DType() != ndarray.Float64 {
				// An op that chose a float dtype of its own (fill's default,
				// for example): cast its output so the copy stays float64.
				tmp := freshName(out.Name()+"/narrow", taken)
				if err := c.Rename(nout, tmp); err != nil {
					return nil, err
				}
				cop, err := c.AddOp(graph.OpSpec{
					Name: freshName(o.Name()+"/widen", opTaken), OpName: "cast",
					Args: ops.Args{D: []ndarray.DType{ndarray.Float64}}, Inputs: []*graph.Variable{nout},
					OutputNames: []string{out.Name()},
				})
				if err != nil {
					return nil, fmt.Errorf("validation: widening %q to float64: %w", out.Name(), err)
				}
				nout = cop.Outputs()[0]
			}
			m[out] = nout
		}
	}
	for _, b := range backEdges {
		for _, in := range b.inputs {
			ni, ok := m[in]
			if !ok {
				return nil, fmt.Errorf("validation: op %q: back edge %q cannot be copied", b.merge.Name(), in.Name())
			}
			if err := c.AddBackEdge(b.merge, ni); err != nil {
				return nil, fmt.Errorf("validation: copying a loop: %w", err)
			}
		}
	}
	if len(losses) > 0 {
		if err := c.SetLoss(losses...); err != nil {
			return nil, fmt.Errorf("validation: copying the loss variables: %w", err)
		}
	}
	return c, nil
}

// convertArgs turns floating-point dtype arguments into float64, including
// cast's target when it is given as an integer (a SameDiff dtype number).
func convertArgs(o *graph.Op, a *ops.Args) {
	for i, d := range a.D {
		if d.IsFloat() {
			a.D[i] = ndarray.Float64
		}
	}
	name := o.OpName()
	if d := o.Def(); d != nil {
		name = d.Name
	}
	if name == "cast" && len(a.D) == 0 && len(a.I) > 0 && ndarray.DType(a.I[0]).IsFloat() {
		a.I[0] = int64(ndarray.Float64)
	}
}

func freshName(base string, taken func(string) bool) string {
	n := base
	for i := 1; taken(n); i++ {
		n = fmt.Sprintf("%s_%d", base, i)
	}
	return n
}

// topoOrder returns g's ops in an order where every op comes after the
// producers of its inputs, loops' back edges aside (the order they were
// added when that works).
func topoOrder(all []*graph.Op) ([]*graph.Op, error) {
	out := make([]*graph.Op, 0, len(all))
	err := graph.PostOrder(all, func(o *graph.Op) error {
		out = append(out, o)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("validation: the checker cannot copy the graph: %w", err)
	}
	return out, nil
}

// convertFeeds returns the feeds with floating-point arrays cast to float64
// when the copy is float64 (other arrays are shared).
func convertFeeds(feeds map[string]*ndarray.Array, toFloat64 bool) (map[string]*ndarray.Array, error) {
	out := make(map[string]*ndarray.Array, len(feeds))
	for k, a := range feeds {
		if a == nil {
			return nil, fmt.Errorf("validation: placeholder %q is fed nil", k)
		}
		if toFloat64 && a.DType().IsFloat() && a.DType() != ndarray.Float64 {
			c, err := ndarray.Cast(a, ndarray.Float64)
			if err != nil {
				return nil, fmt.Errorf("validation: converting the value of %q to float64: %w", k, err)
			}
			a = c
		}
		out[k] = a
	}
	return out, nil
}
