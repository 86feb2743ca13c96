package ops

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/ndarray"
)

// SDLoss's ctc_loss, the connectionist temporal classification loss, and
// its gradient op ctc_loss_grad (libnd4j's ctc_loss.cpp and
// helpers/cpu/ctcLoss.cpp).
//
// Inputs, libnd4j's order: targetLabels [batch, maxS] (integer class
// indices), logitInput [batch, maxT, K] (log-probabilities: libnd4j reads
// them as the output of a log-softmax and does not normalize them),
// targetLabelLengths [batch] and logitInputLengths [batch] (integers);
// int arg 0 the blank class index (0 when absent: SameDiff's CtcLoss
// writes none). The loss of example b is -log Σ over the alignments π of
// its first lenS labels to its first lenT frames (the paths of K classes
// that give the labels once repeats are merged and blanks dropped) of
// Π_t exp(logitInput[b, t, π_t]), computed in log space by the
// forward-backward algorithm over the labels with blanks between them.
//
// As in libnd4j, a length above the array's size is clipped to it, and a
// label length above the frame length is clipped to the frame length (the
// labels beyond are ignored). Where libnd4j gives -Inf (an empty label
// sequence, or no frames) sdgo gives the loss's value: -Σ_t log p(blank)
// for an empty label sequence, 0 for no frames and no labels; and where no
// alignment exists (repeated labels need a blank between them, so lenS
// plus the number of repeats must not pass lenT) the loss is +Inf with a
// zero gradient, where libnd4j's arithmetic gives NaN. A negative length,
// a label outside [0, K) or equal to the blank are errors.

// ctcArgs are ctc_loss's checked inputs.
type ctcArgs struct {
	labels        []int // [batch·maxS]
	lenS, lenT    []int // clipped
	batch, maxT   int
	maxS, classes int
	blank         int
}

// ctcCheck checks ctc_loss's inputs as far as they are known and returns
// the loss info.
func ctcCheck(name string, in []Info, a *Args) (Info, error) {
	lab, x, ls, lt := in[0], in[1], in[2], in[3]
	if err := needFloat(name+"'s logitInput (input 1)", x); err != nil {
		return Info{}, err
	}
	for i, v := range []Info{lab, ls, lt} {
		what := []string{"targetLabels (input 0)", "targetLabelLengths (input 2)", "logitInputLengths (input 3)"}[i]
		if err := needIntInput(name, what, v); err != nil {
			return Info{}, err
		}
	}
	if a.Int(0, 0) < 0 {
		return Info{}, fmt.Errorf("%s: blank index (int arg 0) %d is negative", name, a.Int(0, 0))
	}
	fit := func(p, q int) bool { return p < 0 || q < 0 || p == q }
	batch := -1
	for i, c := range []struct {
		v    Info
		rank int
		what string
	}{{lab, 2, "targetLabels [batch, maxLabels]"}, {x, 3, "logitInput [batch, frames, classes]"},
		{ls, 1, "targetLabelLengths [batch]"}, {lt, 1, "logitInputLengths [batch]"}} {
		if c.v.UnknownRank {
			continue
		}
		if len(c.v.Shape) != c.rank {
			return Info{}, fmt.Errorf("%s: input %d has shape %v; want rank %d (%s)", name, i, c.v.Shape, c.rank, c.what)
		}
		if !fit(batch, c.v.Shape[0]) {
			return Info{}, fmt.Errorf("%s: input %d has shape %v; its batch size (axis 0) differs from %d, the other inputs'", name, i, c.v.Shape, batch)
		}
		batch = max(batch, c.v.Shape[0])
	}
	if !x.UnknownRank && x.Shape[2] >= 0 && a.Int(0, 0) >= int64(x.Shape[2]) {
		return Info{}, fmt.Errorf("%s: blank index (int arg 0) %d is not a class of logitInput %v", name, a.Int(0, 0), x.Shape)
	}
	return Info{DType: x.DType, Shape: []int{batch}}, nil
}

// ctcArrays reads and checks the integer inputs at run time.
func ctcArrays(name string, in []*ndarray.Array, a *Args) (*ctcArgs, error) {
	info := make([]Info, 4)
	for i := range info {
		info[i] = Info{DType: in[i].DType(), Shape: in[i].Shape()}
	}
	if _, err := ctcCheck(name, info, a); err != nil {
		return nil, err
	}
	xs := in[1].Shape()
	p := &ctcArgs{batch: xs[0], maxT: xs[1], classes: xs[2], maxS: in[0].Shape()[1], blank: int(a.Int(0, 0))}
	var err error
	if p.labels, err = arrayInts(name+"'s targetLabels", in[0]); err != nil {
		return nil, err
	}
	if p.lenS, err = arrayInts(name+"'s targetLabelLengths", in[2]); err != nil {
		return nil, err
	}
	if p.lenT, err = arrayInts(name+"'s logitInputLengths", in[3]); err != nil {
		return nil, err
	}
	for b := 0; b < p.batch; b++ {
		if p.lenS[b] < 0 || p.lenT[b] < 0 {
			return nil, fmt.Errorf("%s: example %d has label length %d and frame length %d; lengths must not be negative", name, b, p.lenS[b], p.lenT[b])
		}
		p.lenT[b] = min(p.lenT[b], p.maxT)
		p.lenS[b] = min(p.lenS[b], p.maxS, p.lenT[b])
		for s, l := range p.labels[b*p.maxS : b*p.maxS+p.lenS[b]] {
			if l < 0 || l >= p.classes || l == p.blank {
				return nil, fmt.Errorf("%s: label %d of example %d is %d; labels must be classes in [0, %d) other than the blank %d", name, s, b, l, p.classes, p.blank)
			}
		}
	}
	return p, nil
}

// logAdd is log(e^a + e^b) without overflow; -Inf is e^-Inf = 0.
func logAdd[T ndarray.Float](a, b T) T {
	if a < b {
		a, b = b, a
	}
	if math.IsInf(float64(b), -1) {
		return a
	}
	return a + T(math.Log1p(math.Exp(float64(b-a))))
}

func isNegInf[T ndarray.Float](v T) bool { return math.IsInf(float64(v), -1) }

// ctcOne is one example's loss and, when grad is not nil, its gradient:
// x [lenT·K] row-major log-probabilities (a frame every stride elements),
// lab the labels, in T (the logarithms and exponentials of single values
// through float64). grad (a frame every stride elements, only the first
// lenT frames written) gets -γ(t, k), the derivative of the loss, or with
// softmax set exp(x) - γ, libnd4j's (the derivative with respect to the
// logits of a log-softmax that gave x). The recursions run over the
// labels with blanks around and between them, l'(s) = blank for even s,
// lab[(s-1)/2] for odd s; alpha and beta are lenT×(2·lenS+1), in
// log space, both including the frame's own log-probability.
func ctcOne[T ndarray.Float](x []T, stride, lenT, classes int, lab []int, blank int, grad []T, softmax bool, scale T) T {
	lenS := len(lab)
	L := 2*lenS + 1
	ext := func(s int) int {
		if s%2 == 0 {
			return blank
		}
		return lab[s/2]
	}
	at := func(t, k int) T { return x[t*stride+k] }
	if lenT == 0 {
		if lenS == 0 {
			return 0
		}
		return T(math.Inf(1))
	}
	ninf := T(math.Inf(-1))
	alpha := make([]T, lenT*L)
	for i := range alpha {
		alpha[i] = ninf
	}
	alpha[0] = at(0, blank)
	if L > 1 {
		alpha[1] = at(0, ext(1))
	}
	for t := 1; t < lenT; t++ {
		prev, cur := alpha[(t-1)*L:t*L], alpha[t*L:(t+1)*L]
		for s := 0; s < L; s++ {
			v := prev[s]
			if s > 0 {
				v = logAdd(v, prev[s-1])
			}
			if s > 1 && ext(s) != blank && ext(s) != ext(s-2) {
				v = logAdd(v, prev[s-2])
			}
			if !isNegInf(v) {
				cur[s] = v + at(t, ext(s))
			}
		}
	}
	last := alpha[(lenT-1)*L:]
	logZ := last[L-1]
	if L > 1 {
		logZ = logAdd(logZ, last[L-2])
	}
	if grad == nil {
		return -logZ
	}
	for t := 0; t < lenT; t++ {
		for k := 0; k < classes; k++ {
			grad[t*stride+k] = 0
		}
	}
	if isNegInf(logZ) {
		return T(math.Inf(1))
	}
	beta := make([]T, lenT*L)
	for i := range beta {
		beta[i] = ninf
	}
	bl := beta[(lenT-1)*L:]
	bl[L-1] = at(lenT-1, blank)
	if L > 1 {
		bl[L-2] = at(lenT-1, ext(L-2))
	}
	for t := lenT - 2; t >= 0; t-- {
		next, cur := beta[(t+1)*L:(t+2)*L], beta[t*L:(t+1)*L]
		for s := 0; s < L; s++ {
			v := next[s]
			if s+1 < L {
				v = logAdd(v, next[s+1])
			}
			if s+2 < L && ext(s) != blank && ext(s) != ext(s+2) {
				v = logAdd(v, next[s+2])
			}
			if !isNegInf(v) {
				cur[s] = v + at(t, ext(s))
			}
		}
	}
	// γ(t, k) = Σ_{s: l'(s) = k} e^(alpha + beta - x(t, k) - logZ): the
	// probability that the alignments pass through class k at frame t.
	occ := make([]T, classes)
	for t := 0; t < lenT; t++ {
		for k := range occ {
			occ[k] = ninf
		}
		for s := 0; s < L; s++ {
			if ab := alpha[t*L+s] + beta[t*L+s]; !isNegInf(ab) {
				occ[ext(s)] = logAdd(occ[ext(s)], ab)
			}
		}
		for k := 0; k < classes; k++ {
			var g T
			if !isNegInf(occ[k]) {
				g = -T(math.Exp(float64(occ[k] - logZ - at(t, k))))
			}
			if softmax {
				g += T(math.Exp(float64(at(t, k))))
			}
			grad[t*stride+k] = g * scale
		}
	}
	return -logZ
}

// ctcRun computes the losses, or with wantGrad the gradient (times g's
// per-example factor when g is not nil).
func ctcRun[T ndarray.Float](c *Ctx, name string, in []*ndarray.Array, a *Args, wantGrad bool, g *ndarray.Array) (*ndarray.Array, error) {
	p, err := ctcArrays(name, in, a)
	if err != nil {
		return nil, err
	}
	x, err := packedValues[T](in[1])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	// alpha and beta (ctcOne) are frames by labels, which no input's size
	// bounds; one example's are live at a time. The sizes are compared in
	// float64, where their product cannot overflow.
	frames, labels := 0, 0
	for b := range p.batch {
		if l := 2*p.lenS[b] + 1; float64(p.lenT[b])*float64(l) > float64(frames)*float64(labels) {
			frames, labels = p.lenT[b], l
		}
	}
	if err := reserve[T](name, 2, frames, labels); err != nil {
		return nil, err
	}
	frame := p.maxT * p.classes
	if !wantGrad {
		out, o := allocT[T](c, []int{p.batch})
		for b := 0; b < p.batch; b++ {
			o[b] = ctcOne(x[b*frame:], p.classes, p.lenT[b], p.classes, p.labels[b*p.maxS:b*p.maxS+p.lenS[b]], p.blank, nil, false, 1)
		}
		return out, nil
	}
	var gv []T
	if g != nil {
		if g.DType() != in[1].DType() || !ndarray.SameShape(g.Shape(), []int{p.batch}) {
			return nil, fmt.Errorf("%s: the loss's gradient (input 4) is %v%v; want %v[%d]", name, g.DType(), g.Shape(), in[1].DType(), p.batch)
		}
		if gv, err = packedValues[T](g); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	out, o := allocT[T](c, in[1].Shape())
	for b := 0; b < p.batch; b++ {
		ob := o[b*frame : (b+1)*frame]
		for i := p.lenT[b] * p.classes; i < frame; i++ {
			ob[i] = 0 // frames past the example's length
		}
		scale := T(1)
		if gv != nil {
			scale = gv[b]
		}
		ctcOne(x[b*frame:], p.classes, p.lenT[b], p.classes, p.labels[b*p.maxS:b*p.maxS+p.lenS[b]], p.blank, ob, g == nil, scale)
	}
	return out, nil
}

// ctcLossOp is libnd4j's ctc_loss: inputs targetLabels [batch, maxS],
// logitInput [batch, maxT, K] (log-probabilities), targetLabelLengths
// [batch], logitInputLengths [batch]; int arg 0 the blank index (default
// 0). Output the loss of each example, [batch]. The integer inputs get no
// gradient.
var ctcLossOp = Register(&Def{
	Name: "ctc_loss", Type: Custom, MinIn: 4, MaxIn: 4,
	Doc: "connectionist temporal classification loss per example of log-probabilities [batch, frames, classes] against labels, with label and frame lengths; int arg 0 the blank index",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		out, err := ctcCheck("ctc_loss", in, a)
		if err != nil {
			return nil, err
		}
		return infos(out), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		return byFloat("ctc_loss", in[1].DType(),
			func() ([]*ndarray.Array, error) { return one(ctcRun[float32](c, "ctc_loss", in, a, false, nil)) },
			func() ([]*ndarray.Array, error) { return one(ctcRun[float64](c, "ctc_loss", in, a, false, nil)) })
	},
	NonDiff: []int{0, 2, 3},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		g := b.Op("ctc_loss_grad", n.Args.Clone(), n.In[0], n.In[1], n.In[2], n.In[3], d[0])
		return []Value{nil, g[0], nil, nil}
	},
})

// ctcLossGradOp is libnd4j's ctc_loss_grad: ctc_loss's four inputs and
// int arg 0; output [batch, maxT, K]. With those alone it is libnd4j's
// gradient, exp(x) - γ (γ the alignments' occupancy of each class and
// frame): the derivative of the loss with respect to the logits z of a
// log-softmax x = log_softmax(z) that gave the input, which is what
// SameDiff applies. As an sdgo extension (files from SameDiff never have
// it), a fifth input g [batch] makes the output g·(-γ), the derivative of
// ctc_loss itself, which sdgo's gradient rule uses. Frames past an
// example's length get 0.
var ctcLossGradOp = Register(&Def{
	Name: "ctc_loss_grad", Type: Custom, MinIn: 4, MaxIn: 5,
	Doc: "ctc_loss's gradient for its logitInput: exp(x) - γ (libnd4j's), or with a fifth input g, g·(-γ); int arg 0 the blank index",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		out, err := ctcCheck("ctc_loss_grad", in, a)
		if err != nil {
			return nil, err
		}
		if len(in) > 4 {
			if err := sameShapeGrad("ctc_loss_grad", out, in[4]); err != nil {
				return nil, err
			}
		}
		return infos(same(in[1])), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		var g *ndarray.Array
		if len(in) > 4 {
			g = in[4]
		}
		return byFloat("ctc_loss_grad", in[1].DType(),
			func() ([]*ndarray.Array, error) { return one(ctcRun[float32](c, "ctc_loss_grad", in, a, true, g)) },
			func() ([]*ndarray.Array, error) { return one(ctcRun[float64](c, "ctc_loss_grad", in, a, true, g)) })
	},
})
