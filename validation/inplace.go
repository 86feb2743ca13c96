package validation

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"sync"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
	"github.com/sdgo/sdgo/ops/createview"
)

// ErrInPlace is wrapped by every error of the non-in-place listener.
var ErrInPlace = errors.New("input changed")

// RegionFunc returns the layout, on the buffer of input i, of the region
// that an op may write into input i (flag ops.InPlace) or, for input 0 of an
// op flagged ops.View, the layout its output must have. inputs are the op's
// inputs as the executor gives them. An empty layout (size 0) means that
// nothing of input i may change.
type RegionFunc func(inputs []*ndarray.Array, i int) (ndarray.Layout, error)

var (
	regionMu sync.RWMutex
	regions  = map[string]RegionFunc{}
)

// RegisterRegion declares the region function of an op (by its registered
// name). Packages that add in-place or view ops register theirs so the
// non-in-place listener can check that nothing outside the region changed.
// An in-place op without a region function may change all of an input the
// executor let it overwrite.
func RegisterRegion(opName string, f RegionFunc) {
	regionMu.Lock()
	defer regionMu.Unlock()
	regions[opName] = f
}

func regionOf(opName string) RegionFunc {
	regionMu.RLock()
	defer regionMu.RUnlock()
	return regions[opName]
}

// viewRegion resolves index inputs first.. against input 0's layout, as
// create_view and the writes through views do.
func viewRegion(first int) RegionFunc {
	return func(in []*ndarray.Array, i int) (ndarray.Layout, error) {
		if i != 0 {
			return ndarray.Layout{Shape: []int{0}, Strides: []int{1}}, nil // nothing else is written
		}
		descs := make([][]int64, 0, len(in))
		for k := first; k < len(in); k++ {
			if in[k] == nil || !in[k].DType().IsInt() || in[k].Rank() != 1 {
				return ndarray.Layout{}, fmt.Errorf("input %d is not an integer index vector", k)
			}
			descs = append(descs, in[k].Int64s())
		}
		x := in[0]
		s, st, off, err := createview.Resolve(x.Shape(), x.Strides(), x.Offset(), descs...)
		if err != nil {
			return ndarray.Layout{}, err
		}
		return ndarray.Layout{Shape: s, Strides: st, Offset: off}, nil
	}
}

func init() {
	RegisterRegion(createview.OpName, viewRegion(1))
	for _, n := range []string{createview.OpAssign, createview.OpAdd, createview.OpSub, createview.OpMul, createview.OpDiv} {
		RegisterRegion(n, viewRegion(2))
	}
}

// NonInPlace is an exec.Listener that enforces the value contract: before
// each op it copies the op's inputs (once per distinct array, so at most one
// copy of the inputs per op), after it compares them bit for bit (NaN equals
// NaN) and fails the run, naming the op and the input, if one changed.
//
// An input that is a view (it does not cover its buffer) has the places
// beside its elements compared too: an op that writes there (one that
// forgets the offset, say) changes the array the view was made from. On a
// small buffer (at most 64 KiB, or at most 4 times the view's elements)
// that is the whole buffer; on a larger one it is the places an op that
// mishandles the view's layout writes: the elements' places with offset 0,
// the view's size packed from its offset and from 0, and up to 8 places on
// either side of the view and of each of its rows (a kernel storing a
// vector too many at every row's end), so that the check costs a few times
// what the op reads
// rather than the whole buffer. A write elsewhere in a large buffer is
// caught only when another input of the op covers it; set WholeBuffers to
// compare every view input's whole buffer. Buffers the executor let an
// in-place op overwrite are exempt from all this.
//
// Exempt are empty arrays and, for ops flagged ops.InPlace, the region of an
// input the executor let the op overwrite (OpEvent.Overwritable): there the
// listener checks only that nothing outside the written view changed (the
// region comes from the op's RegionFunc; without one the whole input is
// exempt). For ops flagged ops.View (create_view) nothing may change, and the
// output must alias input 0: share its buffer, with a layout that lies inside
// it (and, with a RegionFunc, equals the resolved view).
//
// One listener may serve concurrent runs. The snapshot of an op whose run
// fails before PostOp (the op returned an error) stays behind until the
// listener is dropped; use a listener per run, or per check, as this
// package does.
type NonInPlace struct {
	// WholeBuffers makes the listener compare the whole buffer of every
	// view input, however large, rather than the places beside the view
	// that a mishandled layout writes. Set it before the first run.
	WholeBuffers bool

	mu    sync.Mutex
	snaps map[*exec.OpEvent]*opSnap
	stats InPlaceStats
}

// InPlaceStats counts what a NonInPlace listener checked.
type InPlaceStats struct {
	Ops         int // ops checked
	Inputs      int // inputs compared
	Bytes       int // bytes copied into snapshots
	InPlace     int // in-place writes whose outside was checked
	Views       int // view outputs whose aliasing was checked
	Exempt      int // inputs not compared (empty, or written by an op without a RegionFunc)
	Duplicated  int // inputs that were the same array as an earlier input of the op
	OutsideOnly int // elements compared outside written regions
}

// NewNonInPlace returns a non-in-place listener.
func NewNonInPlace() *NonInPlace {
	return &NonInPlace{snaps: map[*exec.OpEvent]*opSnap{}}
}

// Stats returns what the listener has checked so far.
func (l *NonInPlace) Stats() InPlaceStats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stats
}

type opSnap struct {
	ins []*inputSnap
	// bufs holds whole buffers of inputs that do not cover their buffer
	// (views) and guards the places beside such inputs on larger buffers:
	// an op writing there, outside its input's elements, changes the array
	// the view was made from, which later ops read.
	bufs   []bufSnap
	guards []guardSnap
}

// bufSnap is the snapshot of the buffer of input `input`.
type bufSnap struct {
	input int
	data  []byte
}

// guardSnap is the snapshot of the places beside input `input`'s elements
// that an op mishandling its layout would write: runs of buffer positions
// (start, length; step 1) and their bytes, one run after the other.
type guardSnap struct {
	input int
	runs  [][2]int
	data  []byte
}

// Whole buffers up to guardWholeBytes, or up to guardWholeFactor times the
// view's elements, are compared whole: that costs little more than the
// view. guardMargin places on either side of a view on a larger buffer are
// compared, for an op that writes one element too many or too few.
const (
	guardWholeBytes  = 64 << 10
	guardWholeFactor = 4
	guardMargin      = 8
)

type inputSnap struct {
	// data holds the elements in C order or, when byPos, the whole buffer
	// (a view input's buffer snapshot, shared rather than copied twice).
	data   []byte
	byPos  bool
	layout ndarray.Layout
	// inPlace is set for the input an in-place op may write; written is
	// then the region it may write, as sorted disjoint runs of buffer
	// positions [start, end) (empty: nothing may change).
	inPlace bool
	written [][2]int
}

// PreOp snapshots the op's inputs.
func (l *NonInPlace) PreOp(ev *exec.OpEvent) error {
	def := ev.Op.Def()
	snap := &opSnap{ins: make([]*inputSnap, len(ev.Inputs))}
	var st InPlaceStats
	st.Ops = 1
	isView := func(a *ndarray.Array) bool {
		return a != nil && a.DType().Size() != 0 && a.Size() != a.Buffer().Len() && !ownsBuffer(ev, def, a.Buffer())
	}
	onSnapped := func(a *ndarray.Array) bool {
		return slices.ContainsFunc(snap.bufs, func(b bufSnap) bool { return ev.Inputs[b.input].SameBuffer(a) })
	}
	for i, a := range ev.Inputs {
		if !isView(a) || !l.whole(a) || onSnapped(a) {
			continue
		}
		data, err := getSnap(len(a.Buffer().Bytes()))
		if err != nil {
			return fmt.Errorf("validation: snapshot of the buffer of input %d of op %q: %w", i, ev.Op.Name(), err)
		}
		b := bufSnap{input: i, data: data}
		copy(b.data, a.Buffer().Bytes())
		st.Bytes += len(b.data)
		snap.bufs = append(snap.bufs, b)
	}
	for i, a := range ev.Inputs {
		if !isView(a) || onSnapped(a) || dupOf(ev.Inputs, i) >= 0 {
			continue
		}
		g := guard(a)
		g.input = i
		st.Bytes += len(g.data)
		snap.guards = append(snap.guards, g)
	}
	for i, a := range ev.Inputs {
		if a == nil || a.Size() == 0 {
			st.Exempt++
			continue
		}
		if dupOf(ev.Inputs, i) >= 0 {
			st.Duplicated++
			continue
		}
		s := &inputSnap{layout: a.Layout()}
		if def != nil && def.Flags&ops.InPlace != 0 && i < len(ev.Overwritable) && ev.Overwritable[i] {
			f := regionOf(def.Name)
			if f == nil {
				st.Exempt++
				continue
			}
			s.inPlace = true
			if r, err := f(ev.Inputs, i); err == nil {
				s.written = runsOf(r)
			} // else the op will reject these indices itself; nothing can be
			// written, so the whole input is compared.
			st.InPlace++
		}
		if k := slices.IndexFunc(snap.bufs, func(b bufSnap) bool { return ev.Inputs[b.input].SameBuffer(a) }); k >= 0 && !s.inPlace {
			s.data, s.byPos = snap.bufs[k].data, true
		} else {
			var err error
			if s.data, err = snapshot(a); err != nil {
				return fmt.Errorf("validation: snapshot of input %d of op %q: %w", i, ev.Op.Name(), err)
			}
			st.Bytes += len(s.data)
		}
		snap.ins[i] = s
	}
	l.mu.Lock()
	l.snaps[ev] = snap
	l.stats.add(st)
	l.mu.Unlock()
	return nil
}

// PostOp compares the inputs with their snapshots and checks views.
func (l *NonInPlace) PostOp(ev *exec.OpEvent) error {
	l.mu.Lock()
	snap := l.snaps[ev]
	delete(l.snaps, ev)
	l.mu.Unlock()
	if snap == nil {
		return nil
	}
	defer snap.release() // after the error below is formatted
	var st InPlaceStats
	defer func() {
		l.mu.Lock()
		l.stats.add(st)
		l.mu.Unlock()
	}()
	// Formatted only for an error: PostOp runs after every op of a watched run.
	opDesc := func() string { return fmt.Sprintf("op %q (%s)", ev.Op.Name(), ev.Op.OpName()) }
	inName := func(i int) string {
		if ins := ev.Op.Inputs(); i < len(ins) {
			return ins[i].Name()
		}
		return "?"
	}
	for i, s := range snap.ins {
		if s == nil {
			continue
		}
		st.Inputs++
		a := ev.Inputs[i]
		flat, at, n, ok := compare(a, s)
		st.OutsideOnly += n
		if !ok {
			idx := unflatten(flat, s.layout.Shape)
			if !s.byPos {
				at = flat
			}
			was, now := elemString(a.DType(), s.data, at), elemAt(a, idx)
			if s.inPlace {
				return fmt.Errorf("validation: %w: %s wrote outside the view it writes: input %d (%q) element %v was %s, now %s",
					ErrInPlace, opDesc(), i, inName(i), idx, was, now)
			}
			return fmt.Errorf("validation: %w: %s changed its input %d (%q): element %v was %s, now %s",
				ErrInPlace, opDesc(), i, inName(i), idx, was, now)
		}
	}
	outside := func(input, p int, was []byte) error {
		a := ev.Inputs[input]
		sz := a.DType().Size()
		return fmt.Errorf("validation: %w: %s wrote into the buffer of its input %d (%q) outside the input's elements: buffer position %d was %s, now %s",
			ErrInPlace, opDesc(), input, inName(input), p, decode(a.DType(), was), decode(a.DType(), a.Buffer().Bytes()[p*sz:(p+1)*sz]))
	}
	for _, b := range snap.bufs {
		a := ev.Inputs[b.input]
		sz := a.DType().Size()
		if k := firstDiff(a.Buffer().Bytes(), b.data, sz); k >= 0 {
			return outside(b.input, k, b.data[k*sz:(k+1)*sz])
		}
	}
	for _, g := range snap.guards {
		a := ev.Inputs[g.input]
		sz := a.DType().Size()
		raw, d := a.Buffer().Bytes(), g.data
		for _, r := range g.runs {
			n := r[1] * sz
			if k := firstDiff(raw[r[0]*sz:r[0]*sz+n], d[:n], sz); k >= 0 {
				return outside(g.input, r[0]+k, d[k*sz:(k+1)*sz])
			}
			d = d[n:]
		}
	}
	def := ev.Op.Def()
	if def != nil && def.Flags&ops.View != 0 && len(ev.Inputs) > 0 && len(ev.Outputs) > 0 {
		in, out := ev.Inputs[0], ev.Outputs[0]
		if in == nil || out == nil || out.Size() == 0 {
			return nil
		}
		st.Views++
		if !out.SameBuffer(in) {
			return fmt.Errorf("validation: %w: %s is a view op but its output does not share input 0's (%q) buffer", ErrInPlace, opDesc(), inName(0))
		}
		if err := out.Layout().Validate(out.Buffer().Len()); err != nil {
			return fmt.Errorf("validation: %w: %s returned a view whose layout does not fit input 0's (%q) buffer: %v", ErrInPlace, opDesc(), inName(0), err)
		}
		if f := regionOf(def.Name); f != nil {
			want, err := f(ev.Inputs, 0)
			if err == nil && !sameElements(want, out.Layout()) {
				return fmt.Errorf("validation: %w: %s returned the view %v of input 0 (%q), but its indices select %v", ErrInPlace, opDesc(), out.Layout(), inName(0), want)
			}
		}
	}
	return nil
}

// ownsBuffer reports whether the executor let the op (flagged ops.InPlace)
// overwrite an input on buffer b: then no other live array is on b, and
// what the op does outside that input's elements is nobody's concern.
func ownsBuffer(ev *exec.OpEvent, def *ops.Def, b *ndarray.Buffer) bool {
	if def == nil || def.Flags&ops.InPlace == 0 {
		return false
	}
	for j, in := range ev.Inputs {
		if in != nil && in.Buffer() == b && j < len(ev.Overwritable) && ev.Overwritable[j] {
			return true
		}
	}
	return false
}

func (s *InPlaceStats) add(o InPlaceStats) {
	s.Ops += o.Ops
	s.Inputs += o.Inputs
	s.Bytes += o.Bytes
	s.InPlace += o.InPlace
	s.Views += o.Views
	s.Exempt += o.Exempt
	s.Duplicated += o.Duplicated
	s.OutsideOnly += o.OutsideOnly
}

// dupOf returns the index of an earlier input with the same buffer and
// layout as input i, or -1.
func dupOf(in []*ndarray.Array, i int) int {
	a := in[i]
	for j := 0; j < i; j++ {
		b := in[j]
		if b == nil {
			continue
		}
		if b == a || (b.SameBuffer(a) && b.Offset() == a.Offset() && slices.Equal(b.Shape(), a.Shape()) && slices.Equal(b.Strides(), a.Strides())) {
			return j
		}
	}
	return -1
}

// snapPool recycles snapshot memory, by size class (a power of two): a
// watched run copies every op's inputs, and allocating and zeroing that
// memory afresh for each op cost about as much as the copying.
var snapPool [bits.UintSize]sync.Pool

// getSnap returns n bytes of snapshot memory (not zeroed), within the
// memory budget that ndarray's allocations keep (ndarray.Reserve; memory
// from the pool is counted too, which at worst reads the heap sooner).
func getSnap(n int) ([]byte, error) {
	if n <= 0 {
		return nil, nil
	}
	if err := ndarray.Reserve(n); err != nil {
		return nil, err
	}
	c := bits.Len(uint(n - 1)) // 1<<c >= n
	if b, _ := snapPool[c].Get().(*[]byte); b != nil {
		return (*b)[:n], nil
	}
	return make([]byte, n, 1<<c), nil
}

// putSnap gives memory from getSnap back.
func putSnap(b []byte) {
	if c := cap(b); c > 0 && c&(c-1) == 0 {
		snapPool[bits.Len(uint(c-1))].Put(&b)
	}
}

// release gives the snapshot's memory back; the snapshot is unusable after.
func (s *opSnap) release() {
	for _, b := range s.bufs {
		putSnap(b.data)
	}
	for _, in := range s.ins {
		if in != nil && !in.byPos {
			putSnap(in.data)
		}
	}
}

// snapshot copies a's elements, in C order, as raw bytes, into memory from
// getSnap. For dtypes without a fixed element size (strings) it copies the
// whole buffer.
func snapshot(a *ndarray.Array) ([]byte, error) {
	sz := a.DType().Size()
	raw := a.Buffer().Bytes()
	if sz == 0 {
		return append([]byte(nil), raw...), nil
	}
	dst, err := getSnap(a.Size() * sz)
	if err != nil {
		return nil, err
	}
	f := 0
	a.Layout().EachRun(func(pos, n, inc int) {
		if inc == 1 {
			copy(dst[f*sz:], raw[pos*sz:(pos+n)*sz])
		} else {
			for k := 0; k < n; k++ {
				p := pos + k*inc
				copy(dst[(f+k)*sz:(f+k+1)*sz], raw[p*sz:(p+1)*sz])
			}
		}
		f += n
	})
	return dst, nil
}

// whole reports whether view input a has its whole buffer compared: when
// asked, or when the buffer is small, absolutely or next to the view, so
// that copying it costs little more than copying the view.
func (l *NonInPlace) whole(a *ndarray.Array) bool {
	n := a.Buffer().Len()
	return l.WholeBuffers || n*a.DType().Size() <= guardWholeBytes || n/guardWholeFactor <= a.Size()
}

// guard snapshots the places of view a's buffer where an op that
// mishandles a's layout writes: a's elements at offset 0 (the offset
// forgotten), a's size packed from a's offset (the strides forgotten) and
// from 0 (both), and guardMargin places before a's first element and after
// its last, and up to as many beside each run of a's layout (a row: one
// element, or one vector, too many). These cost O(a.Size()), where comparing
// the whole buffer costs its length; what they miss is a write far from
// the view on no such pattern, which the whole-buffer check
// (NonInPlace.WholeBuffers) catches.
func guard(a *ndarray.Array) guardSnap {
	l, n, bufLen := a.Layout(), a.Size(), a.Buffer().Len()
	var g guardSnap
	add := func(lo, hi int) {
		lo, hi = max(lo, 0), min(hi, bufLen)
		if lo >= hi {
			return
		}
		// Extend the previous run where this one continues it (the runs of
		// a layout at offset 0 come in order).
		if k := len(g.runs) - 1; k >= 0 && g.runs[k][0]+g.runs[k][1] == lo {
			g.runs[k][1] += hi - lo
			return
		}
		g.runs = append(g.runs, [2]int{lo, hi - lo})
	}
	if n > 0 {
		if l.Offset != 0 {
			l0 := l
			l0.Offset = 0
			for _, r := range runsOf(l0) {
				add(r[0], r[1])
			}
			add(0, n)
		}
		if !l.IsPacked() {
			add(l.Offset, l.Offset+n)
		}
		// Beside every run, not only the view's ends: a kernel that stores
		// a vector too many does so at the end of each row it is given.
		// At most the run's length on either side keeps this O(a.Size()).
		l.EachRun(func(pos, m, inc int) {
			k := min(guardMargin, m)
			last := pos + (m-1)*inc
			add(pos-k, pos)
			add(last+1, last+1+k)
		})
	}
	first, end := l.Offset, l.Offset
	if n > 0 {
		end = l.BufferLen()
	}
	add(first-guardMargin, first)
	add(end, end+guardMargin)
	sz := a.DType().Size()
	raw := a.Buffer().Bytes()
	for _, r := range g.runs {
		g.data = append(g.data, raw[r[0]*sz:(r[0]+r[1])*sz]...)
	}
	return g
}

// runsOf returns the buffer positions of r's elements as sorted, disjoint
// runs [start, end).
func runsOf(r ndarray.Layout) [][2]int {
	var runs [][2]int
	add := func(lo, hi int) {
		if k := len(runs) - 1; k >= 0 && runs[k][1] == lo {
			runs[k][1] = hi
			return
		}
		runs = append(runs, [2]int{lo, hi})
	}
	r.EachRun(func(pos, n, inc int) {
		if inc == 1 {
			add(pos, pos+n)
			return
		}
		for k := 0; k < n; k++ {
			add(pos+k*inc, pos+k*inc+1)
		}
	})
	// A valid layout's C order is buffer order; a RegionFunc may return
	// any layout, so sort and merge rather than trust it.
	if !slices.IsSortedFunc(runs, func(x, y [2]int) int { return x[0] - y[0] }) {
		slices.SortFunc(runs, func(x, y [2]int) int { return x[0] - y[0] })
	}
	merged := runs[:0]
	for _, r := range runs {
		if k := len(merged) - 1; k >= 0 && r[0] <= merged[k][1] {
			merged[k][1] = max(merged[k][1], r[1])
			continue
		}
		merged = append(merged, r)
	}
	return merged
}

// firstDiff returns the first element (of size sz) at which a and b differ,
// or -1.
func firstDiff(a, b []byte, sz int) int {
	if bytes.Equal(a, b) {
		return -1
	}
	for k := 0; (k+1)*sz <= len(a); k++ {
		if !bytes.Equal(a[k*sz:(k+1)*sz], b[k*sz:(k+1)*sz]) {
			return k
		}
	}
	return -1
}

// compare checks a against its snapshot, skipping the written region. It
// returns the C-order index of the first difference and its buffer
// position, the number of elements compared outside a written region (of
// an in-place op's input), and whether all agreed. It compares each
// contiguous stretch at once, between the written runs.
func compare(a *ndarray.Array, s *inputSnap) (first, at, outside int, ok bool) {
	sz := a.DType().Size()
	raw := a.Buffer().Bytes()
	if sz == 0 {
		return 0, 0, 0, bytes.Equal(raw, s.data)
	}
	// snap gives the snapshot's bytes of n elements from buffer position p,
	// C-order index f.
	snap := func(p, f, n int) []byte { return s.data[f*sz : (f+n)*sz] }
	if s.byPos {
		snap = func(p, f, n int) []byte { return s.data[p*sz : (p+n)*sz] }
	}
	w := s.written
	// next returns the first written run that ends after position p.
	next := func(p int) int {
		k, _ := slices.BinarySearchFunc(w, p, func(r [2]int, p int) int {
			if r[1] <= p {
				return -1
			}
			return 1
		})
		return k
	}
	flat := 0
	first = -1
	s.layout.EachRun(func(pos, n, inc int) {
		if first >= 0 {
			return
		}
		if inc == 1 {
			for cur, end := pos, pos+n; cur < end; {
				// [cur, lo) is outside the written region, [lo, hi) inside.
				lo, hi := end, end
				if k := next(cur); k < len(w) && w[k][0] < end {
					lo, hi = max(w[k][0], cur), min(w[k][1], end)
				}
				if lo > cur {
					f := flat + cur - pos
					if k := firstDiff(raw[cur*sz:lo*sz], snap(cur, f, lo-cur), sz); k >= 0 {
						if s.inPlace {
							outside += k + 1
						}
						first, at = f+k, cur+k
						return
					}
					if s.inPlace {
						outside += lo - cur
					}
				}
				cur = hi
			}
			flat += n
			return
		}
		for k := 0; k < n; k++ {
			p := pos + k*inc
			if len(w) > 0 {
				if j := next(p); j < len(w) && w[j][0] <= p {
					continue
				}
			}
			if s.inPlace {
				outside++
			}
			if !bytes.Equal(raw[p*sz:(p+1)*sz], snap(p, flat+k, 1)) {
				first, at = flat+k, p
				return
			}
		}
		flat += n
	})
	return first, at, outside, first < 0
}

// sameElements reports whether two layouts have the same shape and put
// their elements at the same buffer positions.
func sameElements(a, b ndarray.Layout) bool {
	if !slices.Equal(a.Shape, b.Shape) {
		return false
	}
	var pa, pb []int
	a.EachRun(func(pos, n, inc int) {
		for k := 0; k < n; k++ {
			pa = append(pa, pos+k*inc)
		}
	})
	b.EachRun(func(pos, n, inc int) {
		for k := 0; k < n; k++ {
			pb = append(pb, pos+k*inc)
		}
	})
	return slices.Equal(pa, pb)
}

func unflatten(flat int, shape []int) []int {
	idx := make([]int, len(shape))
	for k := len(shape) - 1; k >= 0; k-- {
		if shape[k] > 0 {
			idx[k] = flat % shape[k]
			flat /= shape[k]
		}
	}
	return idx
}

// elemAt formats the element of a at idx from its bytes.
func elemAt(a *ndarray.Array, idx []int) string {
	sz := a.DType().Size()
	if sz == 0 {
		return "(changed bytes)"
	}
	pos := a.Offset()
	for k, v := range idx {
		pos += v * a.Strides()[k]
	}
	return decode(a.DType(), a.Buffer().Bytes()[pos*sz:(pos+1)*sz])
}

// elemString formats element flat of a snapshot.
func elemString(dt ndarray.DType, data []byte, flat int) string {
	sz := dt.Size()
	if sz == 0 || (flat+1)*sz > len(data) {
		return "(bytes)"
	}
	return decode(dt, data[flat*sz:(flat+1)*sz])
}

// decode formats one element from its native bytes; NaNs show their bits,
// since the listener compares bits.
func decode(dt ndarray.DType, b []byte) string {
	switch dt {
	case ndarray.Float64:
		bits := binary.NativeEndian.Uint64(b)
		if v := math.Float64frombits(bits); math.IsNaN(v) {
			return fmt.Sprintf("NaN(%#016x)", bits)
		}
	case ndarray.Float32:
		bits := binary.NativeEndian.Uint32(b)
		if v := math.Float32frombits(bits); v != v {
			return fmt.Sprintf("NaN(%#08x)", bits)
		}
	}
	if !dt.Computable() {
		return fmt.Sprintf("%x", b)
	}
	buf, err := ndarray.BufferFromBytes(dt, 1, append([]byte(nil), b...))
	if err != nil {
		return fmt.Sprintf("%x", b)
	}
	v, err := ndarray.NewView(buf, ndarray.Layout{})
	if err != nil {
		return fmt.Sprintf("%x", b)
	}
	return formatValue(dt, v.Float())
}

func formatValue(dt ndarray.DType, v float64) string {
	switch {
	case dt == ndarray.Bool:
		return strconv.FormatBool(v != 0)
	case dt.IsInt():
		return strconv.FormatInt(int64(v), 10)
	case math.IsNaN(v) || math.IsInf(v, 0):
		return strconv.FormatFloat(v, 'g', -1, 64)
	case dt == ndarray.Float32:
		return strconv.FormatFloat(v, 'g', -1, 32)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
