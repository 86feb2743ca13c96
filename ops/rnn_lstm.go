package ops

import (
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
)

// SameDiff's lstmLayer (SDRNN.lstmLayer): an LSTM over a whole sequence in
// libnd4j's layout, one direction or both, with its backprop op
// lstmLayer_bp. The step cell is libnd4j's lstmLayerCell (gate columns i,
// f, g, o), not lstmBlockCell's (i, z, f, o), so the cells in rnn_cell.go
// are not reused; the GEMM kernels are: one GEMM projects the inputs of
// all steps, one per step multiplies the recurrent weights.

// lstmAct is one of lstmLayer's activations: libnd4j's code (0 tanh, 1
// relu, 2 sigmoid, 3 affine αx+β, 4 leaky relu, 5 thresholded relu (x
// where x > α, else 0), 6 scaled tanh α·tanh(βx), 7 hard sigmoid, 8 elu,
// 9 softsign, 10 softplus) and its α and β.
type lstmAct struct {
	id          int
	alpha, beta float64
}

func (a lstmAct) hasAlpha() bool {
	switch a.id {
	case 3, 4, 5, 6, 8:
		return true
	}
	return false
}

func (a lstmAct) hasBeta() bool { return a.id == 3 || a.id == 6 }

// lstmLayerOpts are lstmLayer's arguments and where its optional inputs
// are (-1 when absent).
type lstmLayerOpts struct {
	format, mode     int
	gate, cell, out  lstmAct
	clip             float64
	retH, retHL      bool
	retCL            bool
	b, seq, hI, cI   int
	wp               int
	nIn, dirs, nOuts int
}

// lstmLayerParse reads lstmLayer's arguments: int args dataFormat,
// directionMode, gateAct, cellAct, outAct; bool args hasBiases, hasSeqLen,
// hasInitH, hasInitC, hasPH, retFullSeq, retLastH, retLastC; float args
// cellClip, then the α and β of the gate, cell and output activations that
// take them, in that order.
func lstmLayerParse(name string, a *Args) (lstmLayerOpts, error) {
	o := lstmLayerOpts{format: int(a.Int(0, 0)), mode: int(a.Int(1, 0)), clip: a.Float(0, 0)}
	o.gate.id, o.cell.id, o.out.id = int(a.Int(2, 2)), int(a.Int(3, 0)), int(a.Int(4, 0))
	if o.format < 0 || o.format > 3 {
		return o, fmt.Errorf("%s: int arg 0 (dataFormat) is %d; want 0 [time, batch, nIn], 1 [batch, time, nIn], 2 [batch, nIn, time] or 3 [time, batch, nIn] with output [time, 2, batch, nOut]", name, o.format)
	}
	if o.mode < 0 || o.mode > 4 {
		return o, fmt.Errorf("%s: int arg 1 (directionMode) is %d; want 0 forward, 1 backward, 2 bidirectional sum, 3 bidirectional concat or 4 bidirectional extra dimension", name, o.mode)
	}
	if o.format == 3 && o.mode != 4 {
		return o, fmt.Errorf("%s: dataFormat 3 needs directionMode 4, got %d", name, o.mode)
	}
	if o.mode == 4 && o.format != 0 && o.format != 3 {
		return o, fmt.Errorf("%s: directionMode 4 ([time, 2, batch, nOut] output) needs dataFormat 3 (or 0), got %d", name, o.format)
	}
	k := 1
	for i, act := range []*lstmAct{&o.gate, &o.cell, &o.out} {
		what := [...]string{"gateAct", "cellAct", "outAct"}[i]
		if act.id < 0 || act.id > 10 {
			return o, fmt.Errorf("%s: int arg %d (%s) is %d; want an activation code 0 to 10", name, 2+i, what, act.id)
		}
		for _, p := range []struct {
			has bool
			v   *float64
			n   string
		}{{act.hasAlpha(), &act.alpha, "alpha"}, {act.hasBeta(), &act.beta, "beta"}} {
			if !p.has {
				continue
			}
			if k >= len(a.F) {
				return o, fmt.Errorf("%s: %s %d takes an %s: float arg %d is missing (float args %v)", name, what, act.id, p.n, k, a.F)
			}
			*p.v = a.F[k]
			k++
		}
	}
	if !(o.clip >= 0) || math.IsInf(o.clip, 0) {
		return o, fmt.Errorf("%s: float arg 0 (cellClip) is %g; want 0 (no clipping) or a positive number", name, o.clip)
	}
	has := func(i int) bool { return a.Bool(i, false) }
	o.retH, o.retHL, o.retCL = has(5), has(6), has(7)
	if !o.retH && !o.retHL && !o.retCL {
		return o, fmt.Errorf("%s: bool args 5-7 (retFullSeq, retLastH, retLastC) are all false; want at least one output", name)
	}
	n := 3
	for i, p := range []*int{&o.b, &o.seq, &o.hI, &o.cI, &o.wp} {
		*p = -1
		if has(i) {
			*p = n
			n++
		}
	}
	o.nIn, o.dirs = n, 1
	if o.mode >= 2 {
		o.dirs = 2
	}
	for _, r := range []bool{o.retH, o.retHL, o.retCL} {
		if r {
			o.nOuts++
		}
	}
	return o, nil
}

// lstmDims are the sizes of an lstmLayer run (-1 where unknown).
type lstmDims struct{ sL, bS, nIn, nOut int }

// hShape is the shape of the full output h.
func (o lstmLayerOpts) hShape(d lstmDims) []int {
	w := d.nOut
	if o.mode == 3 && w >= 0 {
		w *= 2
	}
	switch {
	case o.mode == 4:
		return []int{d.sL, 2, d.bS, d.nOut}
	case o.format == 1:
		return []int{d.bS, d.sL, w}
	case o.format == 2:
		return []int{d.bS, w, d.sL}
	}
	return []int{d.sL, d.bS, w}
}

// lastShape is the shape of hL and cL.
func (o lstmLayerOpts) lastShape(d lstmDims) []int {
	if o.dirs == 2 {
		return []int{2, d.bS, d.nOut}
	}
	return []int{d.bS, d.nOut}
}

// lead prepends the direction axis when both directions run.
func (o lstmLayerOpts) lead(s ...int) []int {
	if o.dirs == 2 {
		return append([]int{2}, s...)
	}
	return s
}

// outInfos are lstmLayer's outputs: h, hL, cL as requested.
func (o lstmLayerOpts) outInfos(dt ndarray.DType, d lstmDims) []Info {
	var out []Info
	if o.retH {
		out = append(out, Info{DType: dt, Shape: o.hShape(d)})
	}
	for _, r := range []bool{o.retHL, o.retCL} {
		if r {
			out = append(out, Info{DType: dt, Shape: o.lastShape(d)})
		}
	}
	return out
}

// lstmLayerDims checks lstmLayer's inputs as far as they are known and
// returns the sizes.
func lstmLayerDims(name string, o lstmLayerOpts, in []Info) (lstmDims, error) {
	d := lstmDims{-1, -1, -1, -1}
	if len(in) < o.nIn {
		return d, fmt.Errorf("%s: the bool args announce %d inputs (x, Wx, Wr and the optional ones), got %d", name, o.nIn, len(in))
	}
	for i, v := range in[:o.nIn] {
		if i == o.seq {
			if !v.DType.IsNumeric() {
				return d, fmt.Errorf("%s: seqLen is %v; want a numeric vector", name, v.DType)
			}
			continue
		}
		if err := needFloat(name, v); err != nil {
			return d, err
		}
		if v.DType != in[0].DType {
			return d, fmt.Errorf("%s: input %d is %v, x %v; they must have one dtype", name, i, v.DType, in[0].DType)
		}
	}
	x, wx, wr := in[0], in[1], in[2]
	if !x.UnknownRank {
		if len(x.Shape) != 3 {
			return d, fmt.Errorf("%s: x has shape %v; want rank 3 (dataFormat %d)", name, x.Shape, o.format)
		}
		switch o.format {
		case 1:
			d.bS, d.sL, d.nIn = x.Shape[0], x.Shape[1], x.Shape[2]
		case 2:
			d.bS, d.nIn, d.sL = x.Shape[0], x.Shape[1], x.Shape[2]
		default:
			d.sL, d.bS, d.nIn = x.Shape[0], x.Shape[1], x.Shape[2]
		}
	}
	if !wx.UnknownRank && len(wx.Shape) > 0 {
		if g := wx.Shape[len(wx.Shape)-1]; g >= 0 {
			if g%4 != 0 || g == 0 {
				return d, fmt.Errorf("%s: Wx has shape %v; its last size must be 4·nOut (gates i, f, g, o)", name, wx.Shape)
			}
			d.nOut = g / 4
		}
	}
	if d.nOut < 0 && !wr.UnknownRank && len(wr.Shape) >= 2 {
		d.nOut = wr.Shape[len(wr.Shape)-2]
	}
	times := func(k, v int) int {
		if v < 0 {
			return -1
		}
		return k * v
	}
	fit := func(a, b int) bool { return a < 0 || b < 0 || a == b }
	check := func(what string, got Info, shape ...int) error {
		if got.UnknownRank {
			return nil
		}
		ok := len(got.Shape) == len(shape)
		for i := 0; ok && i < len(shape); i++ {
			ok = fit(got.Shape[i], shape[i])
		}
		if !ok {
			return fmt.Errorf("%s: %s has shape %v; want %v (batch %d, nIn %d, nOut %d, directionMode %d)", name, what, got.Shape, shape, d.bS, d.nIn, d.nOut, o.mode)
		}
		return nil
	}
	g4 := times(4, d.nOut)
	checks := []struct {
		i     int
		what  string
		shape []int
	}{
		{1, "Wx (input weights)", o.lead(d.nIn, g4)},
		{2, "Wr (recurrent weights)", o.lead(d.nOut, g4)},
		{o.b, "b (biases)", o.lead(g4)},
		{o.seq, "seqLen (sequence lengths)", []int{d.bS}},
		{o.hI, "hI (initial output)", o.lead(d.bS, d.nOut)},
		{o.cI, "cI (initial cell state)", o.lead(d.bS, d.nOut)},
		{o.wp, "Wp (peephole weights)", o.lead(times(3, d.nOut))},
	}
	for _, c := range checks {
		if c.i < 0 {
			continue
		}
		if err := check(c.what, in[c.i], c.shape...); err != nil {
			return d, err
		}
	}
	// Sizes the weights, states and lengths know when x does not.
	if d.nIn < 0 && !wx.UnknownRank && len(wx.Shape) >= 2 {
		d.nIn = wx.Shape[len(wx.Shape)-2]
	}
	for _, i := range []int{o.hI, o.cI, o.seq} {
		if d.bS < 0 && i >= 0 && !in[i].UnknownRank {
			s := in[i].Shape
			if i == o.seq {
				d.bS = s[0]
			} else {
				d.bS = s[len(s)-2]
			}
		}
	}
	return d, nil
}

func infosOf(in []*ndarray.Array) []Info {
	out := make([]Info, len(in))
	for i, a := range in {
		out[i] = Info{DType: a.DType(), Shape: a.Shape()}
	}
	return out
}

// lstmLimits reads seqLen (or gives every row the whole sequence): each
// length must be a whole number from 0 to the sequence length.
func lstmLimits(name string, o lstmLayerOpts, in []*ndarray.Array, d lstmDims) ([]int, error) {
	if err := reserve[int](name, d.bS); err != nil {
		return nil, err // an x of no time steps may have any batch size
	}
	lim := make([]int, d.bS)
	if o.seq < 0 {
		for i := range lim {
			lim[i] = d.sL
		}
		return lim, nil
	}
	for i, v := range in[o.seq].Float64s() {
		if v != math.Trunc(v) || v < 0 || v > float64(d.sL) {
			return nil, fmt.Errorf("%s: seqLen[%d] is %g; want a whole number from 0 to %d (the time steps of x %v)", name, i, v, d.sL, in[0].Shape())
		}
		lim[i] = int(v)
	}
	return lim, nil
}

// lstmLayout places [time, batch, feature] (and direction) indices in an
// array of one of lstmLayer's formats.
type lstmLayout struct{ t, e, j, d int }

func (l lstmLayout) at(t, e, j, d int) int { return t*l.t + e*l.e + j*l.j + d*l.d }

// xLayout is x's layout (and dLdx's).
func (o lstmLayerOpts) xLayout(d lstmDims) lstmLayout {
	switch o.format {
	case 1:
		return lstmLayout{t: d.nIn, e: d.sL * d.nIn, j: 1}
	case 2:
		return lstmLayout{t: 1, e: d.nIn * d.sL, j: d.sL}
	}
	return lstmLayout{t: d.bS * d.nIn, e: d.nIn, j: 1}
}

// hLayout is h's layout (and dLdh's): the backward direction's features
// follow the forward one's in concat mode, have their own axis in mode 4
// and share the forward one's place in sum mode.
func (o lstmLayerOpts) hLayout(d lstmDims) lstmLayout {
	w, dOff := d.nOut, 0
	if o.mode == 3 {
		w, dOff = 2*d.nOut, d.nOut
	}
	switch {
	case o.mode == 4:
		return lstmLayout{t: 2 * d.bS * d.nOut, e: d.nOut, j: 1, d: d.bS * d.nOut}
	case o.format == 1:
		return lstmLayout{t: w, e: d.sL * w, j: 1, d: dOff}
	case o.format == 2:
		return lstmLayout{t: 1, e: w * d.sL, j: d.sL, d: dOff * d.sL}
	}
	return lstmLayout{t: d.bS * w, e: w, j: 1, d: dOff}
}

// timeOf is the time index that step s of direction dir reads for batch
// row e of length lim: forward s; backward alone counts down from the
// last step (a shorter row's steps are the last ones, as libnd4j does);
// the backward half of a bidirectional layer counts down from the row's
// last step.
func (o lstmLayerOpts) timeOf(dir, s, lim, sL int) int {
	switch {
	case dir == 0 && o.mode != 1:
		return s
	case o.mode == 1:
		return sL - 1 - s
	}
	return lim - 1 - s
}

// lstmApply writes act(z) into dst (which may be z).
func lstmApply[T float32 | float64](act lstmAct, dst, z []T) error {
	al, be := T(act.alpha), T(act.beta)
	kernel := func(op ndarray.UnaryOp, param float64) error {
		src, err := ndarray.Wrap(z)
		if err != nil {
			return err
		}
		out, err := ndarray.Wrap(dst)
		if err != nil {
			return err
		}
		return ndarray.UnaryInto(op, out, src, param)
	}
	// The common activations call the kernels UnaryInto would, on the
	// slices, sparing the arrays it needs at every step.
	tab := kernels.For[T]()
	switch act.id {
	case 0:
		tab.Tanh(dst, z)
	case 1:
		tab.Relu(dst, z)
	case 2:
		tab.Sigmoid(dst, z)
	case 3:
		for i, v := range z {
			dst[i] = al*v + be
		}
	case 4:
		return kernel(ndarray.LeakyRelu, act.alpha)
	case 5:
		for i, v := range z {
			dst[i] = 0
			if v > al {
				dst[i] = v
			}
		}
	case 6:
		for i, v := range z {
			dst[i] = be * v
		}
		z = dst
		if err := kernel(ndarray.Tanh, 0); err != nil {
			return err
		}
		for i := range dst {
			dst[i] *= al
		}
	case 7:
		for i, v := range z {
			dst[i] = min(1, max(0, T(0.2)*v+T(0.5)))
		}
	case 8:
		e := make([]T, len(z))
		src, out := ndarray.Must(ndarray.Wrap(z)), ndarray.Must(ndarray.Wrap(e))
		if err := ndarray.UnaryInto(ndarray.Expm1, out, src, 0); err != nil {
			return err
		}
		for i, v := range z {
			dst[i] = v
			if v < 0 {
				dst[i] = al * e[i]
			}
		}
	case 9:
		for i, v := range z {
			dst[i] = v / (1 + max(v, -v))
		}
	case 10:
		return kernel(ndarray.Softplus, 0)
	}
	return nil
}

// lstmDeriv writes act'(z) into dst, given z and a = act(z) (dst is
// neither).
func lstmDeriv[T float32 | float64](act lstmAct, dst, z, a []T) error {
	// The default gates' and cells' derivatives on the vector kernels:
	// the same products and differences as the loop below, rounded alike.
	switch tab := kernels.For[T](); act.id {
	case 0: // 1 - a²
		tab.Mul(dst, a, a)
		tab.ScalarSub(dst, 1, dst)
		return nil
	case 2: // a·(1 - a)
		tab.ScalarSub(dst, 1, a)
		tab.Mul(dst, a, dst)
		return nil
	}
	al, be := T(act.alpha), T(act.beta)
	for i, v := range z {
		var g T
		switch act.id {
		case 0:
			g = 1 - a[i]*a[i]
		case 1:
			if v > 0 {
				g = 1
			}
		case 2:
			g = a[i] * (1 - a[i])
		case 3:
			g = al
		case 4:
			g = al
			if v > 0 {
				g = 1
			}
		case 5:
			if v > al {
				g = 1
			}
		case 6:
			if al != 0 {
				t := a[i] / al
				g = al * be * (1 - t*t)
			}
		case 7:
			if a[i] > 0 && a[i] < 1 {
				g = 0.2
			}
		case 8:
			g = 1
			if v < 0 {
				g = a[i] + al
			}
		case 9:
			s := 1 + max(v, -v)
			g = 1 / (s * s)
		}
		dst[i] = g
	}
	if act.id == 10 { // softplus' = σ
		src, out := ndarray.Must(ndarray.Wrap(z)), ndarray.Must(ndarray.Wrap(dst))
		return ndarray.UnaryInto(ndarray.Sigmoid, out, src, 0)
	}
	return nil
}

// lstmDir is one direction's parameters: its slices of the weights (as
// packed arrays for the GEMMs), biases, peepholes and initial state.
type lstmDir[T float32 | float64] struct {
	dir            int
	wx, wr         *ndarray.Array
	b, wp, hI, cI  []T
	wxs, wrs       []T
	nIn, nOut, gts int
}

// lstmValues are a's elements in C order, for reading only: its own
// buffer when packed (the inputs' megabytes are not copied at every call).
func lstmValues[T float32 | float64](a *ndarray.Array) []T {
	if a.IsPacked() {
		return ndarray.Raw[T](a)[a.Offset():][:a.Size()]
	}
	return ndarray.Values[T](a)
}

func lstmDirOf[T float32 | float64](o lstmLayerOpts, in []*ndarray.Array, d lstmDims, dir int) *lstmDir[T] {
	g4 := 4 * d.nOut
	part := func(i, size int) []T {
		if i < 0 {
			return nil
		}
		return lstmValues[T](in[i])[dir*size : (dir+1)*size]
	}
	p := &lstmDir[T]{dir: dir, nIn: d.nIn, nOut: d.nOut, gts: g4}
	p.wxs, p.wrs = part(1, d.nIn*g4), part(2, d.nOut*g4)
	p.wx, p.wr = ndarray.Must(ndarray.Wrap(p.wxs, d.nIn, g4)), ndarray.Must(ndarray.Wrap(p.wrs, d.nOut, g4))
	p.b, p.wp = part(o.b, g4), part(o.wp, 3*d.nOut)
	p.hI, p.cI = part(o.hI, d.bS*d.nOut), part(o.cI, d.bS*d.nOut)
	return p
}

// lstmTrace is one direction's forward pass, in step order: the inputs
// xs [steps·batch, nIn] (zero rows where a sequence has ended), the
// pre-activations z and activations a of the gates ([step][4][batch][nOut],
// gate-major), the states h and c ([step+1][batch][nOut]: before step s at
// s), the output activation of each new cell state ac, and where the cell
// state was clipped.
type lstmTrace[T float32 | float64] struct {
	xs, za, aa, ha, ca, aca *ndarray.Array
	x, z, a, h, c, ac       []T
	clipped                 []bool
}

func (tr *lstmTrace[T]) release(ctx *Ctx) {
	for _, a := range tr.arrays() {
		ctx.Release(a)
	}
}

// reclaim gives back a trace an earlier call kept (lstmKeep).
func (tr *lstmTrace[T]) reclaim(ctx *Ctx) {
	for _, a := range tr.arrays() {
		ctx.Reclaim(a)
	}
}

func (tr *lstmTrace[T]) arrays() []*ndarray.Array {
	return []*ndarray.Array{tr.xs, tr.za, tr.aa, tr.ha, tr.ca, tr.aca}
}

// lstmLayer_bp needs the forward pass's trace, which lstmLayer has just
// computed in the same run: lstmLayer keeps it in the run's State and
// lstmLayer_bp takes it instead of running the forward pass again (a
// third of a training step's work). The key is the inputs (the same
// arrays: values do not change within a run, and these stay alive until
// lstmLayer_bp, which reads them all), the direction and the arguments;
// without a match, lstmLayer_bp recomputes the trace, with the same
// result.
type lstmTraceKey struct {
	in  [8]*ndarray.Array
	dir int
	o   lstmLayerOpts
}

func lstmKeyOf(o lstmLayerOpts, in []*ndarray.Array, dir int) lstmTraceKey {
	k := lstmTraceKey{dir: dir, o: o}
	copy(k.in[:], in[:o.nIn])
	return k
}

// lstmKept is the traces a run keeps, oldest first. Their number is
// bounded: a layer run many times in a loop, or without its backprop op,
// must not hold a trace per call until the run ends; the oldest goes back
// to the pool, and its backprop op, if any, recomputes it.
type lstmKept struct {
	keys   []lstmTraceKey
	traces []any // *lstmTrace[float32] or *lstmTrace[float64]
}

const lstmKeptMax = 8

type lstmKeptKey struct{}

func (k *lstmKept) heldBuffers() []*ndarray.Array {
	var out []*ndarray.Array
	for _, t := range k.traces {
		out = append(out, keptArrays(t)...)
	}
	return out
}

func keptArrays(t any) []*ndarray.Array {
	if t, ok := t.(*lstmTrace[float32]); ok {
		return t.arrays()
	}
	return t.(*lstmTrace[float64]).arrays()
}

// take removes the entry at i and gives its trace.
func (k *lstmKept) take(i int) any {
	t := k.traces[i]
	k.keys = append(k.keys[:i], k.keys[i+1:]...)
	k.traces = append(k.traces[:i], k.traces[i+1:]...)
	return t
}

func lstmKeptOf(ctx *Ctx) *lstmKept {
	st := ctx.State()
	k, _ := st[lstmKeptKey{}].(*lstmKept)
	if k == nil {
		k = &lstmKept{}
		st[lstmKeptKey{}] = k
	}
	return k
}

// lstmKeep keeps tr for lstmLayer_bp under key, or releases it when the
// context cannot keep it (no executor) or holds one already for key.
func lstmKeep[T float32 | float64](ctx *Ctx, key lstmTraceKey, tr *lstmTrace[T]) {
	if !ctx.keepsState() {
		tr.release(ctx)
		return
	}
	k := lstmKeptOf(ctx)
	if slices.Contains(k.keys, key) {
		tr.release(ctx) // the same inputs give the same trace
		return
	}
	if len(k.keys) == lstmKeptMax {
		for _, a := range keptArrays(k.take(0)) {
			ctx.Reclaim(a)
		}
	}
	k.keys = append(k.keys, key)
	k.traces = append(k.traces, tr)
}

// lstmTaken returns the trace lstmLayer kept under key, removed from the
// State, or nil.
func lstmTaken[T float32 | float64](ctx *Ctx, key lstmTraceKey) *lstmTrace[T] {
	if !ctx.keepsState() {
		return nil
	}
	k := lstmKeptOf(ctx)
	i := slices.Index(k.keys, key)
	if i < 0 {
		return nil
	}
	tr, _ := k.take(i).(*lstmTrace[T])
	lstmKeptHits.Add(1)
	return tr
}

// lstmKeptHits counts the traces lstmLayer_bp took, for the tests to see
// that the executor's runs reach them.
var lstmKeptHits atomic.Int64

// lstmForward runs one direction over the sequence.
func lstmForward[T float32 | float64](ctx *Ctx, name string, o lstmLayerOpts, x []T, d lstmDims, p *lstmDir[T], lim []int) (*lstmTrace[T], error) {
	dt := ndarray.DTypeOf[T]()
	sL, bS, nIn, nOut := d.sL, d.bS, d.nIn, d.nOut
	n, g4 := bS*nOut, 4*nOut
	tr := &lstmTrace[T]{
		xs: ctx.Alloc(dt, []int{sL * bS, nIn}), za: ctx.Alloc(dt, []int{sL * bS * g4}), aa: ctx.Alloc(dt, []int{sL * bS * g4}),
		ha: ctx.Alloc(dt, []int{(sL + 1) * n}), ca: ctx.Alloc(dt, []int{(sL + 1) * n}), aca: ctx.Alloc(dt, []int{sL * n}),
	}
	if o.clip > 0 { // without clipping nothing is ever clipped
		tr.clipped = make([]bool, sL*n)
	}
	tr.x, tr.z, tr.a = ndarray.Raw[T](tr.xs)[:sL*bS*nIn], ndarray.Raw[T](tr.za)[:sL*bS*g4], ndarray.Raw[T](tr.aa)[:sL*bS*g4]
	tr.h, tr.c, tr.ac = ndarray.Raw[T](tr.ha)[:(sL+1)*n], ndarray.Raw[T](tr.ca)[:(sL+1)*n], ndarray.Raw[T](tr.aca)[:sL*n]
	fail := func(err error) (*lstmTrace[T], error) {
		tr.release(ctx)
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	xl := o.xLayout(d)
	clear(tr.x)
	for s := 0; s < sL; s++ {
		for e := 0; e < bS; e++ {
			if s >= lim[e] {
				continue
			}
			t, row := o.timeOf(p.dir, s, lim[e], sL), tr.x[(s*bS+e)*nIn:]
			for j := 0; j < nIn; j++ {
				row[j] = x[xl.at(t, e, j, 0)]
			}
		}
	}
	// The input projections of all steps in one GEMM, plus the biases.
	xw := ctx.Alloc(dt, []int{sL * bS, g4})
	defer ctx.Release(xw)
	if err := ndarray.MatMulInto(xw, tr.xs, p.wx, false, false); err != nil {
		return fail(err)
	}
	xws := ndarray.Raw[T](xw)[:sL*bS*g4]
	add := kernels.For[T]().Add
	if p.b != nil {
		for r := 0; r < sL*bS; r++ {
			row := xws[r*g4 : (r+1)*g4]
			add(row, row, p.b)
		}
	}
	if p.hI != nil {
		copy(tr.h[:n], p.hI)
	} else {
		clear(tr.h[:n])
	}
	if p.cI != nil {
		copy(tr.c[:n], p.cI)
	} else {
		clear(tr.c[:n])
	}
	ra := ctx.Alloc(dt, []int{bS, g4})
	defer ctx.Release(ra)
	rs := ndarray.Raw[T](ra)[:bS*g4]
	lc := T(o.clip)
	for s := 0; s < sL; s++ {
		if err := ctx.Err(); err != nil { // a deadline ends a long sequence between steps
			return fail(err)
		}
		hp, cp := tr.h[s*n:(s+1)*n], tr.c[s*n:(s+1)*n]
		hn, cn := tr.h[(s+1)*n:(s+2)*n], tr.c[(s+1)*n:(s+2)*n]
		hpa, err := ndarray.Wrap(hp, bS, nOut)
		if err == nil {
			err = ndarray.MatMulInto(ra, hpa, p.wr, false, false)
		}
		if err != nil {
			return fail(err)
		}
		z, a := tr.z[s*bS*g4:(s+1)*bS*g4], tr.a[s*bS*g4:(s+1)*bS*g4]
		zi, zf, zg, zo := z[:n], z[n:2*n], z[2*n:3*n], z[3*n:]
		for e := 0; e < bS; e++ {
			xr, rr := xws[(s*bS+e)*g4:], rs[e*g4:]
			for k := 0; k < 4; k++ {
				add(z[k*n+e*nOut:k*n+(e+1)*nOut], xr[k*nOut:(k+1)*nOut], rr[k*nOut:(k+1)*nOut])
			}
			if p.wp != nil {
				for j := 0; j < nOut; j++ {
					zi[e*nOut+j] += cp[e*nOut+j] * p.wp[j]
					zf[e*nOut+j] += cp[e*nOut+j] * p.wp[nOut+j]
				}
			}
		}
		if err := lstmApply(o.gate, a[:2*n], z[:2*n]); err != nil {
			return fail(err)
		}
		if err := lstmApply(o.cell, a[2*n:3*n], zg); err != nil {
			return fail(err)
		}
		ai, af, ag := a[:n], a[n:2*n], a[2*n:3*n]
		var clipped []bool
		if tr.clipped != nil {
			clipped = tr.clipped[s*n : (s+1)*n]
		}
		for k := range cn {
			v := af[k]*cp[k] + ai[k]*ag[k]
			if lc > 0 && (v > lc || v < -lc) {
				clipped[k] = true
				v = max(min(v, lc), -lc)
			}
			cn[k] = v
		}
		if p.wp != nil {
			for e := 0; e < bS; e++ {
				for j := 0; j < nOut; j++ {
					zo[e*nOut+j] += cn[e*nOut+j] * p.wp[2*nOut+j]
				}
			}
		}
		if err := lstmApply(o.gate, a[3*n:], zo); err != nil {
			return fail(err)
		}
		ac := tr.ac[s*n : (s+1)*n]
		if err := lstmApply(o.out, ac, cn); err != nil {
			return fail(err)
		}
		ao := a[3*n:]
		for k := range hn {
			hn[k] = ao[k] * ac[k]
		}
		// Rows whose sequence has ended keep their state.
		for e := 0; e < bS; e++ {
			if s >= lim[e] {
				copy(hn[e*nOut:(e+1)*nOut], hp[e*nOut:(e+1)*nOut])
				copy(cn[e*nOut:(e+1)*nOut], cp[e*nOut:(e+1)*nOut])
				if clipped != nil {
					clear(clipped[e*nOut : (e+1)*nOut])
				}
			}
		}
	}
	return tr, nil
}

// lstmLayerForward computes lstmLayer's requested outputs.
func lstmLayerForward[T float32 | float64](ctx *Ctx, name string, o lstmLayerOpts, in []*ndarray.Array, d lstmDims, lim []int) ([]*ndarray.Array, error) {
	dt := in[0].DType()
	x := lstmValues[T](in[0])
	n := d.bS * d.nOut
	var h, hL, cL *ndarray.Array
	var hs, hLs, cLs []T
	if o.retH {
		h = ctx.Alloc(dt, o.hShape(d))
		hs = ndarray.Raw[T](h)[:h.Size()]
		clear(hs)
	}
	if o.retHL {
		hL = ctx.Alloc(dt, o.lastShape(d))
		hLs = ndarray.Raw[T](hL)[:hL.Size()]
	}
	if o.retCL {
		cL = ctx.Alloc(dt, o.lastShape(d))
		cLs = ndarray.Raw[T](cL)[:cL.Size()]
	}
	hl := o.hLayout(d)
	for dir := 0; dir < o.dirs; dir++ {
		p := lstmDirOf[T](o, in, d, dir)
		tr, err := lstmForward(ctx, name, o, x, d, p, lim)
		if err != nil {
			for _, a := range []*ndarray.Array{h, hL, cL} {
				if a != nil {
					ctx.Release(a)
				}
			}
			return nil, err
		}
		if hs != nil {
			for s := 0; s < d.sL; s++ {
				for e := 0; e < d.bS; e++ {
					if s >= lim[e] {
						continue
					}
					t, hr := o.timeOf(dir, s, lim[e], d.sL), tr.h[(s+1)*n+e*d.nOut:]
					for j := 0; j < d.nOut; j++ {
						hs[hl.at(t, e, j, dir)] += hr[j]
					}
				}
			}
		}
		for _, l := range []struct{ dst, src []T }{{hLs, tr.h[d.sL*n:]}, {cLs, tr.c[d.sL*n:]}} {
			if l.dst == nil {
				continue
			}
			out := l.dst[dir*n : (dir+1)*n]
			copy(out, l.src[:n])
			for e := 0; e < d.bS; e++ {
				if lim[e] == 0 { // libnd4j gives zeros, not the initial state
					clear(out[e*d.nOut : (e+1)*d.nOut])
				}
			}
		}
		lstmKeep(ctx, lstmKeyOf(o, in, dir), tr)
	}
	var out []*ndarray.Array
	for _, a := range []*ndarray.Array{h, hL, cL} {
		if a != nil {
			out = append(out, a)
		}
	}
	return out, nil
}

// lstmLayerInfo parses the arguments of lstmLayer (bp false) or
// lstmLayer_bp (bp true, the output gradients following the inputs) and
// checks the inputs as far as they are known.
func lstmLayerInfo(name string, in []Info, a *Args, bp bool) (lstmLayerOpts, lstmDims, error) {
	o, err := lstmLayerParse(name, a)
	if err != nil {
		return o, lstmDims{}, err
	}
	switch {
	case !bp && len(in) != o.nIn:
		return o, lstmDims{}, fmt.Errorf("%s: the bool args announce %d inputs (x, Wx, Wr and the optional ones), got %d", name, o.nIn, len(in))
	case bp && len(in) != o.nIn+o.nOuts:
		return o, lstmDims{}, fmt.Errorf("%s: the bool args announce %d inputs and %d output gradients, got %d in all", name, o.nIn, o.nOuts, len(in))
	}
	d, err := lstmLayerDims(name, o, in)
	return o, d, err
}

// lstmLayerArrays is lstmLayerInfo for a run, with the rows' sequence
// lengths.
func lstmLayerArrays(name string, in []*ndarray.Array, a *Args, bp bool) (lstmLayerOpts, lstmDims, []int, error) {
	o, d, err := lstmLayerInfo(name, infosOf(in), a, bp)
	if err != nil {
		return o, d, nil, err
	}
	lim, err := lstmLimits(name, o, in, d)
	return o, d, lim, err
}

// lstmLayerOp is libnd4j's lstmLayer (SameDiff's SDRNN.lstmLayer): an LSTM
// over a whole sequence. Inputs: x ([time, batch, nIn] for dataFormat 0
// and 3, [batch, time, nIn] for 1, [batch, nIn, time] for 2), Wx
// [nIn, 4·nOut], Wr [nOut, 4·nOut], then as the bool args announce b
// [4·nOut], seqLen [batch], hI and cI [batch, nOut], Wp [3·nOut] (with a
// leading axis of 2, forward then backward, in the bidirectional modes);
// gate columns i, f, g, o (peepholes i, f, o). Int args: dataFormat,
// directionMode (0 forward, 1 backward, 2 bidirectional sum, 3
// bidirectional concat, 4 bidirectional on an extra axis), gateAct,
// cellAct, outAct (codes as lstmAct). Bool args: hasBiases, hasSeqLen,
// hasInitH, hasInitC, hasPH, retFullSeq, retLastH, retLastC. Float args:
// cellClip (0: none), then the α, β of the activations that take them.
// Per step: i, f = gateAct(x·Wx + h·Wr + b + Wp∘cPrev), g = cellAct(...),
// c = clip(f∘cPrev + i∘g), o = gateAct(... + Wp∘c), h = o∘outAct(c).
// Outputs, as requested: h (every step), hL and cL (the last step's; zeros
// for an empty sequence). A row's steps past its seqLen are zeros in h.
//
// Java's LSTMLayer writes outAct as int arg 3 and cellAct as 4; sdgo reads
// them as libnd4j does (cellAct 3, outAct 4).
var lstmLayerOp = Register(&Def{
	Name: "lstmLayer", Type: Custom, MinIn: 3, MaxIn: 8, Flags: Stateful,
	Doc: "an LSTM over a whole sequence in libnd4j's layout: x, Wx, Wr and optional b, seqLen, hI, cI, Wp; outputs h, hL, cL as requested",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		o, d, err := lstmLayerInfo("lstmLayer", in, a, false)
		if err != nil {
			return nil, err
		}
		return o.outInfos(in[0].DType, d), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		o, d, lim, err := lstmLayerArrays("lstmLayer", in, a, false)
		if err != nil {
			return nil, err
		}
		if in[0].DType() == ndarray.Float32 {
			return lstmLayerForward[float32](c, "lstmLayer", o, in, d, lim)
		}
		return lstmLayerForward[float64](c, "lstmLayer", o, in, d, lim)
	},
	// libnd4j's lstmLayer_bp, which SameDiff's LSTMLayer.doDiff calls:
	// backpropagation through time in one op, its GEMMs batched over the
	// steps where the recurrence allows.
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		o, err := lstmLayerParse("lstmLayer", n.Args)
		if err != nil {
			return nil
		}
		in := append([]Value(nil), n.In...)
		for i := range n.Out {
			g := d[i]
			if g == nil {
				g = op1(b, "zeros_as", Args{}, n.Out[i])
			}
			in = append(in, g)
		}
		out := b.Op("lstmLayer_bp", n.Args.Clone(), in...)
		if o.seq >= 0 && o.seq < len(out) {
			out[o.seq] = nil
		}
		return out
	},
})

// lstmBackward is one direction's backpropagation through time: dh
// [step][batch][nOut] are the gradients of its outputs in step order, dhL
// and dcL (nil when absent) those of its last output and cell state. It
// adds dLdx into dx (x's layout) and writes the parameter gradients into
// the direction's parts of dwx, dwr, db, dwp, dhI, dcI (nil when absent
// or not needed: their GEMMs are skipped).
func lstmBackward[T float32 | float64](ctx *Ctx, name string, o lstmLayerOpts, d lstmDims, p *lstmDir[T], tr *lstmTrace[T], lim []int,
	dh, dhL, dcL, dx, dwx, dwr, db, dwp, dhI, dcI []T) error {
	dt := ndarray.DTypeOf[T]()
	sL, bS, nIn, nOut := d.sL, d.bS, d.nIn, d.nOut
	n, g4 := bS*nOut, 4*nOut
	dza := ctx.Alloc(dt, []int{sL * bS, g4})
	defer ctx.Release(dza)
	dz := ndarray.Raw[T](dza)[:sL*bS*g4]
	dhp := ctx.Alloc(dt, []int{bS, nOut})
	defer ctx.Release(dhp)
	dhps := ndarray.Raw[T](dhp)[:n]
	// Wrᵀ once per run: the GEMM would otherwise copy Wr into row-major
	// order at every step.
	wrT := ctx.Alloc(dt, []int{g4, nOut})
	defer ctx.Release(wrT)
	wrTs := ndarray.Raw[T](wrT)[:g4*nOut]
	transposeInto(wrTs, p.wrs, nOut, g4)
	// The derivatives of the step's gates and of outAct, then the
	// gradients flowing into the step from the next one.
	sc := ctx.Alloc(dt, []int{7 * n})
	defer ctx.Release(sc)
	scratch := ndarray.Raw[T](sc)[:7*n]
	dhNext, dcNext := scratch[5*n:6*n], scratch[6*n:]
	clear(dhNext)
	clear(dcNext)
	scratch = scratch[:5*n]
	if dwp == nil && p.wp != nil {
		dwp = make([]T, 3*nOut) // the loop accumulates it; nobody reads it
	}
	if dwp != nil {
		clear(dwp)
	}
	for s := sL - 1; s >= 0; s-- {
		if err := ctx.Err(); err != nil { // a deadline ends a long sequence between steps
			return fmt.Errorf("%s: %w", name, err)
		}
		z, a := tr.z[s*bS*g4:(s+1)*bS*g4], tr.a[s*bS*g4:(s+1)*bS*g4]
		cp, cn, ac := tr.c[s*n:(s+1)*n], tr.c[(s+1)*n:(s+2)*n], tr.ac[s*n:(s+1)*n]
		if err := lstmDeriv(o.gate, scratch[:2*n], z[:2*n], a[:2*n]); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := lstmDeriv(o.cell, scratch[2*n:3*n], z[2*n:3*n], a[2*n:3*n]); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := lstmDeriv(o.gate, scratch[3*n:4*n], z[3*n:], a[3*n:]); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := lstmDeriv(o.out, scratch[4*n:], cn, ac); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		di, df, dg, do, dac := scratch[:n], scratch[n:2*n], scratch[2*n:3*n], scratch[3*n:4*n], scratch[4*n:]
		ai, af, ag, ao := a[:n], a[n:2*n], a[2*n:3*n], a[3*n:]
		var clipped []bool
		if tr.clipped != nil {
			clipped = tr.clipped[s*n : (s+1)*n]
		}
		step := dz[s*bS*g4 : (s+1)*bS*g4]
		for e := 0; e < bS; e++ {
			row := step[e*g4 : (e+1)*g4]
			if s >= lim[e] {
				clear(row)
				continue
			}
			if s == lim[e]-1 {
				for j := 0; j < nOut; j++ {
					if dhL != nil {
						dhNext[e*nOut+j] += dhL[e*nOut+j]
					}
					if dcL != nil {
						dcNext[e*nOut+j] += dcL[e*nOut+j]
					}
				}
			}
			for j := 0; j < nOut; j++ {
				k := e*nOut + j
				gh := dh[s*n+k] + dhNext[k]
				dzo := gh * ac[k] * do[k]
				dc := dcNext[k] + gh*ao[k]*dac[k]
				if p.wp != nil {
					dc += dzo * p.wp[2*nOut+j]
					dwp[2*nOut+j] += dzo * cn[k]
				}
				if clipped != nil && clipped[k] {
					dc = 0
				}
				dzi, dzf, dzg := dc*ag[k]*di[k], dc*cp[k]*df[k], dc*ai[k]*dg[k]
				dcp := dc * af[k]
				if p.wp != nil {
					dcp += dzi*p.wp[j] + dzf*p.wp[nOut+j]
					dwp[j] += dzi * cp[k]
					dwp[nOut+j] += dzf * cp[k]
				}
				dcNext[k] = dcp
				row[j], row[nOut+j], row[2*nOut+j], row[3*nOut+j] = dzi, dzf, dzg, dzo
			}
		}
		// dhPrev = dz·Wrᵀ for the step.
		sa, err := ndarray.Wrap(step, bS, g4)
		if err == nil {
			err = ndarray.MatMulInto(dhp, sa, wrT, false, false)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		copy(dhNext, dhps)
	}
	if dhI != nil {
		copy(dhI, dhNext)
	}
	if dcI != nil {
		copy(dcI, dcNext)
	}
	// The weight gradients over all steps in one GEMM each:
	// dWr = Σ hPrevᵀ·dz, dWx = xsᵀ·dz; db the column sums of dz.
	hPrev, err := ndarray.Wrap(tr.h[:sL*n], sL*bS, nOut)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	for _, m := range []struct {
		dst []T
		a   *ndarray.Array
		r   int
	}{{dwr, hPrev, nOut}, {dwx, tr.xs, nIn}} {
		if m.dst == nil {
			continue
		}
		dst, err := ndarray.Wrap(m.dst, m.r, g4)
		if err == nil {
			err = ndarray.MatMulInto(dst, m.a, dza, true, false)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if db != nil {
		clear(db)
		for r := 0; r < sL*bS; r++ {
			for j, v := range dz[r*g4 : (r+1)*g4] {
				db[j] += v
			}
		}
	}
	if dx == nil {
		return nil
	}
	// dLdx: dz·Wxᵀ for all steps, added at the inputs the steps read.
	dxs := ctx.Alloc(dt, []int{sL * bS, nIn})
	defer ctx.Release(dxs)
	if err := ndarray.MatMulInto(dxs, dza, p.wx, false, true); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	xg, xl := ndarray.Raw[T](dxs)[:sL*bS*nIn], o.xLayout(d)
	for s := 0; s < sL; s++ {
		for e := 0; e < bS; e++ {
			if s >= lim[e] {
				continue
			}
			t, row := o.timeOf(p.dir, s, lim[e], sL), xg[(s*bS+e)*nIn:]
			for j := 0; j < nIn; j++ {
				dx[xl.at(t, e, j, 0)] += row[j]
			}
		}
	}
	return nil
}

// lstmLayerBackward computes lstmLayer_bp's outputs.
func lstmLayerBackward[T float32 | float64](ctx *Ctx, name string, o lstmLayerOpts, in []*ndarray.Array, d lstmDims, lim []int) ([]*ndarray.Array, error) {
	dt := in[0].DType()
	x := lstmValues[T](in[0])
	n := d.bS * d.nOut
	// The output gradients, a rank-0 one standing for every element.
	grads := make([][]T, 3)
	k := o.nIn
	shapes := [][]int{o.hShape(d), o.lastShape(d), o.lastShape(d)}
	for i, r := range []bool{o.retH, o.retHL, o.retCL} {
		if !r {
			continue
		}
		g := in[k]
		k++
		size := ndarray.Packed(shapes[i]...).Size()
		switch {
		case g.DType() != dt:
			return nil, fmt.Errorf("%s: the gradient of %s is %v, x %v", name, [...]string{"h", "hL", "cL"}[i], g.DType(), dt)
		case g.Rank() == 0:
			if err := reserve[T](name, size); err != nil {
				return nil, err // a scalar stands for the whole gradient
			}
			v := ndarray.Values[T](g)[0]
			grads[i] = make([]T, size)
			for j := range grads[i] {
				grads[i][j] = v
			}
		case ndarray.SameShape(g.Shape(), shapes[i]):
			grads[i] = lstmValues[T](g)
		default:
			return nil, fmt.Errorf("%s: the gradient of %s has shape %v; want %v", name, [...]string{"h", "hL", "cL"}[i], g.Shape(), shapes[i])
		}
	}
	// Gradients nobody reads are not computed (nil in their place).
	out := make([]*ndarray.Array, o.nIn)
	raw := make([][]T, o.nIn)
	for i := range out {
		if !ctx.Needed(i) {
			continue
		}
		if i == o.seq {
			z, err := ndarray.Zeros(in[i].DType(), in[i].Shape()...)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			out[i] = z
			continue
		}
		out[i] = ctx.Alloc(dt, in[i].Shape())
		raw[i] = ndarray.Raw[T](out[i])[:out[i].Size()]
	}
	if raw[0] != nil {
		clear(raw[0])
	}
	part := func(i, size, dir int) []T {
		if i < 0 || raw[i] == nil {
			return nil
		}
		return raw[i][dir*size : (dir+1)*size]
	}
	hl := o.hLayout(d)
	dha := ctx.Alloc(dt, []int{d.sL * n})
	defer ctx.Release(dha)
	dh := ndarray.Raw[T](dha)[:d.sL*n]
	g4 := 4 * d.nOut
	for dir := 0; dir < o.dirs; dir++ {
		p := lstmDirOf[T](o, in, d, dir)
		tr, release := lstmTaken[T](ctx, lstmKeyOf(o, in, dir)), (*lstmTrace[T]).reclaim
		if tr == nil {
			var err error
			if tr, err = lstmForward(ctx, name, o, x, d, p, lim); err != nil {
				return nil, err
			}
			release = (*lstmTrace[T]).release
		}
		clear(dh)
		if g := grads[0]; g != nil {
			for s := 0; s < d.sL; s++ {
				for e := 0; e < d.bS; e++ {
					if s >= lim[e] {
						continue
					}
					t := o.timeOf(dir, s, lim[e], d.sL)
					for j := 0; j < d.nOut; j++ {
						dh[s*n+e*d.nOut+j] = g[hl.at(t, e, j, dir)]
					}
				}
			}
		}
		var dhL, dcL []T
		if grads[1] != nil {
			dhL = grads[1][dir*n : (dir+1)*n]
		}
		if grads[2] != nil {
			dcL = grads[2][dir*n : (dir+1)*n]
		}
		err := lstmBackward(ctx, name, o, d, p, tr, lim, dh, dhL, dcL, raw[0],
			part(1, d.nIn*g4, dir), part(2, d.nOut*g4, dir), part(o.b, g4, dir), part(o.wp, 3*d.nOut, dir),
			part(o.hI, n, dir), part(o.cI, n, dir))
		release(tr, ctx)
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// lstmLayerBpOp is libnd4j's lstmLayer_bp: lstmLayer's inputs and
// arguments, then the gradients of its requested outputs (dLdh if
// retFullSeq, dLdhL if retLastH, dLdcL if retLastC; a rank-0 gradient
// stands for every element). Outputs the gradients of every input in
// their order (seqLen's is zeros).
var lstmLayerBpOp = Register(&Def{
	Name: "lstmLayer_bp", Type: Custom, MinIn: 4, MaxIn: 11, Flags: Stateful,
	Doc: "gradient of lstmLayer for its inputs and the gradients of its requested outputs",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		o, d, err := lstmLayerInfo("lstmLayer_bp", in, a, true)
		if err != nil {
			return nil, err
		}
		for i, want := range o.outInfos(in[0].DType, d) {
			g := in[o.nIn+i]
			if g.DType != want.DType {
				return nil, fmt.Errorf("lstmLayer_bp: output gradient %d is %v, x %v", i, g.DType, want.DType)
			}
			if !g.UnknownRank && len(g.Shape) != 0 && !want.Admits(g.Shape) {
				return nil, fmt.Errorf("lstmLayer_bp: output gradient %d has shape %v; want %v or a scalar", i, g.Shape, want.Shape)
			}
		}
		return sameInfos(in, o.nIn), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		o, d, lim, err := lstmLayerArrays("lstmLayer_bp", in, a, true)
		if err != nil {
			return nil, err
		}
		if in[0].DType() == ndarray.Float32 {
			return lstmLayerBackward[float32](c, "lstmLayer_bp", o, in, d, lim)
		}
		return lstmLayerBackward[float64](c, "lstmLayer_bp", o, in, d, lim)
	},
})
