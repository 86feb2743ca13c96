package exec

import (
	"fmt"

	"github.com/sdgo/sdgo/autodiff"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// CalculateGradients returns the gradients of the graph's loss variables
// (summed) with respect to the named variables, computed with these
// placeholder values. The gradient ops are built into the graph on the first
// call and reused afterwards (see autodiff.Gradients).
func (s *Session) CalculateGradients(feeds map[string]*ndarray.Array, names ...string) (map[string]*ndarray.Array, error) {
	wrt := make([]*graph.Variable, len(names))
	for i, n := range names {
		v, ok := s.g.Variable(n)
		if !ok {
			return nil, fmt.Errorf("exec: no variable named %q", n)
		}
		wrt[i] = v
	}
	grads, err := autodiff.Gradients(s.g, wrt...)
	if err != nil {
		return nil, err
	}
	outNames := make([]string, len(grads))
	for i, gv := range grads {
		outNames[i] = gv.Name()
	}
	res, err := s.Output(feeds, outNames...)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*ndarray.Array, len(names))
	for i, n := range names {
		out[n] = res[outNames[i]]
	}
	return out, nil
}

// Exclusive reports whether a is an output of a Recyclable request whose
// buffer is the caller's alone: the run allocated it and no other output,
// feed, variable or constant shares it. The caller may then write into a
// until it hands it back with Recycle.
func (s *Session) Exclusive(a *ndarray.Array) bool {
	return a != nil && s.handed.has(a.Buffer())
}

// Recycle hands arrays that a run made for a Request with Recyclable set
// back to the session, to be reused by later runs. Arrays the run did not
// allocate itself (variables, constants, feeds, or views of them) are left
// alone. The caller must not use the arrays afterwards. Training calls it on
// each step's gradients.
func (s *Session) Recycle(arrays ...*ndarray.Array) {
	for _, a := range arrays {
		if a == nil {
			continue
		}
		if s.handed.take(a.Buffer()) {
			s.pool.putArray(a)
		}
	}
}

// Pooled returns the bytes of released buffers the session keeps for reuse.
func (s *Session) Pooled() int { return s.pool.pooled() }
