package graph_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// A Snapshot reads what the Graph's and the Variables' own methods read,
// Read returns f's error, and the lists it hands out have no room to
// append into the graph's arrays.
func TestSnapshotAgrees(t *testing.T) {
	g := graph.New()
	x := g.Placeholder("x", ndarray.Float64, -1, 2)
	w := g.Var("w", ndarray.Must(ndarray.FromSlice([]float64{1, 2})))
	c := g.Const("c", ndarray.Must(ndarray.FromSlice([]float64{3, 4})))
	y := x.Mul(w).Add(c).Named("y")
	if err := g.SetLoss(y.Name()); err != nil {
		t.Fatal(err)
	}
	g.Placeholder("bad", ndarray.Float64, -2) // records a build error

	vars, gops, losses, ver, gerr := g.Variables(), g.Ops(), g.Losses(), g.Version(), g.Err()
	if gerr == nil {
		t.Fatal("no build error recorded")
	}
	stop := errors.New("stop")
	err := g.Read(func(s graph.Snapshot) error {
		if !slices.Equal(s.Variables(), vars) || !slices.Equal(s.Ops(), gops) || !slices.Equal(s.Losses(), losses) {
			t.Errorf("snapshot lists %v %v %v, graph's %v %v %v", s.Variables(), s.Ops(), s.Losses(), vars, gops, losses)
		}
		if s.Version() != ver || s.Err() != gerr {
			t.Errorf("snapshot version %d err %v, graph's %d %v", s.Version(), s.Err(), ver, gerr)
		}
		if v, ok := s.Variable("y"); !ok || v != y {
			t.Errorf(`Variable("y") = %v, %v`, v, ok)
		}
		if _, ok := s.Variable("nothing"); ok {
			t.Error(`Variable("nothing") found`)
		}
		if s.Value(w) != w.Value() || s.Value(c) != c.Value() || s.Value(x) != nil {
			t.Error("Value differs from Variable.Value")
		}
		if i := s.Info(c); i.Value != c.Value() || !slices.Equal(i.Shape, c.Shape()) {
			t.Errorf("Info(c) = %v", i)
		}
		if !s.StoresBuffer(w.Value().Buffer()) || !s.StoresBuffer(c.Value().Buffer()) ||
			s.StoresBuffer(ndarray.Must(ndarray.Zeros(ndarray.Float64, 2)).Buffer()) {
			t.Error("StoresBuffer is wrong")
		}
		// An append to a list must not write into the graph's array,
		// where the graph's next append would write too.
		if cap(s.Variables()) != len(vars) || cap(s.Ops()) != len(gops) || cap(s.Losses()) != len(losses) {
			t.Error("a snapshot's list has room to append in the graph's array")
		}
		return stop
	})
	if err != stop {
		t.Errorf("Read returned %v, not f's error", err)
	}
}

// A builder waits while a Read is under way: what the snapshot shows does
// not change under f (and under -race, a builder running beside f would be
// reported).
func TestReadHoldsBuilders(t *testing.T) {
	g := graph.New()
	g.Placeholder("x", ndarray.Float32, 2)
	built := make(chan struct{})
	_ = g.Read(func(s graph.Snapshot) error {
		ver, n := s.Version(), len(s.Variables())
		go func() {
			g.Placeholder("y", ndarray.Float32, 2)
			close(built)
		}()
		select {
		case <-built:
			t.Error("a builder ran during Read")
		case <-time.After(20 * time.Millisecond):
		}
		if s.Version() != ver || len(s.Variables()) != n {
			t.Error("the snapshot changed during Read")
		}
		return nil
	})
	<-built
	if _, ok := g.Variable("y"); !ok {
		t.Error("the builder's placeholder is missing")
	}
}
