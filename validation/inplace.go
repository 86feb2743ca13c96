package validation

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
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
// An input that is a view (it does not cover its buffer) has its whole
// buffer compared too: an op that writes beside the view's elements (one
// that forgets the offset, say) changes the array the view was made from.
// Buffers the executor let an in-place op overwrite are exempt from that.
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
	// (views): an op writing there, outside its input's elements, changes
	// the array the view was made from, which later ops read.
	bufs []bufSnap
}

// bufSnap is the snapshot of the buffer of input `input`.
type bufSnap struct {
	input int
	data  []byte
}

type inputSnap struct {
	// data holds the elements in C order or, when byPos, the whole buffer
	// (a view input's buffer snapshot, shared rather than copied twice).
	data   []byte
	byPos  bool
	layout ndarray.Layout
	// written marks, by buffer position, the region an in-place op may
	// write (nil: nothing may change).
	written []uint64
}

// PreOp snapshots the op's inputs.
func (l *NonInPlace) PreOp(ev *exec.OpEvent) error {
	def := ev.Op.Def()
	snap := &opSnap{ins: make([]*inputSnap, len(ev.Inputs))}
	var st InPlaceStats
	st.Ops = 1
	for i, a := range ev.Inputs {
		if a == nil || a.DType().Size() == 0 || a.Size() == a.Buffer().Len() || ownsBuffer(ev, def, a.Buffer()) ||
			slices.ContainsFunc(snap.bufs, func(b bufSnap) bool { return ev.Inputs[b.input].SameBuffer(a) }) {
			continue
		}
		b := bufSnap{input: i, data: append([]byte(nil), a.Buffer().Bytes()...)}
		st.Bytes += len(b.data)
		snap.bufs = append(snap.bufs, b)
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
			r, err := f(ev.Inputs, i)
			if err != nil {
				// The op will reject these indices itself; nothing can be
				// written, so the whole input is compared.
				r = ndarray.Layout{Shape: []int{0}, Strides: []int{1}}
			}
			s.written = marks(r, a.Buffer().Len())
			st.InPlace++
		}
		if k := slices.IndexFunc(snap.bufs, func(b bufSnap) bool { return ev.Inputs[b.input].SameBuffer(a) }); k >= 0 && s.written == nil {
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
		if s.written != nil {
			st.OutsideOnly += n
		}
		if !ok {
			idx := unflatten(flat, s.layout.Shape)
			if !s.byPos {
				at = flat
			}
			was, now := elemString(a.DType(), s.data, at), elemAt(a, idx)
			if s.written != nil {
				return fmt.Errorf("validation: %w: %s wrote outside the view it writes: input %d (%q) element %v was %s, now %s",
					ErrInPlace, opDesc(), i, inName(i), idx, was, now)
			}
			return fmt.Errorf("validation: %w: %s changed its input %d (%q): element %v was %s, now %s",
				ErrInPlace, opDesc(), i, inName(i), idx, was, now)
		}
	}
	for _, b := range snap.bufs {
		a := ev.Inputs[b.input]
		sz := a.DType().Size()
		raw := a.Buffer().Bytes()
		if bytes.Equal(raw, b.data) {
			continue
		}
		for p := 0; p*sz < len(raw); p++ {
			if !bytes.Equal(raw[p*sz:(p+1)*sz], b.data[p*sz:(p+1)*sz]) {
				return fmt.Errorf("validation: %w: %s wrote into the buffer of its input %d (%q) outside the input's elements: buffer position %d was %s, now %s",
					ErrInPlace, opDesc(), b.input, inName(b.input), p, decode(a.DType(), b.data[p*sz:(p+1)*sz]), decode(a.DType(), raw[p*sz:(p+1)*sz]))
			}
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

// snapshot copies a's elements, in C order, as raw bytes. For dtypes without
// a fixed element size (strings) it copies the whole buffer.
func snapshot(a *ndarray.Array) ([]byte, error) {
	sz := a.DType().Size()
	if sz == 0 {
		return append([]byte(nil), a.Buffer().Bytes()...), nil
	}
	c, err := ndarray.Copy(a)
	if err != nil {
		return nil, err
	}
	return c.Buffer().Bytes(), nil
}

// marks returns a bitset over buffer positions of the region's elements.
func marks(r ndarray.Layout, bufLen int) []uint64 {
	m := make([]uint64, (bufLen+63)/64+1)
	r.EachRun(func(pos, n, inc int) {
		for k := 0; k < n; k++ {
			p := pos + k*inc
			if p >= 0 && p < bufLen {
				m[p/64] |= 1 << (p % 64)
			}
		}
	})
	return m
}

func marked(m []uint64, p int) bool { return m[p/64]&(1<<(p%64)) != 0 }

// compare checks a against its snapshot, skipping the written region. It
// returns the C-order index of the first difference and its buffer
// position, the number of elements compared outside a written region, and
// whether all agreed.
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
	flat := 0
	first = -1
	s.layout.EachRun(func(pos, n, inc int) {
		if first >= 0 {
			return
		}
		if s.written == nil && inc == 1 {
			if bytes.Equal(raw[pos*sz:(pos+n)*sz], snap(pos, flat, n)) {
				flat += n
				return
			}
		}
		for k := 0; k < n; k++ {
			p := pos + k*inc
			if s.written != nil {
				if marked(s.written, p) {
					continue
				}
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
