package ops

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/ndarray"
)

// Ops of SameDiff's base namespace that reduce segments: segment_sum,
// _mean, _max, _min, _prod (sorted segment ids) and unsorted_segment_sum,
// _mean, _max, _min, _prod, _sqrt_n (any order, a given number of
// segments), each with its _bp op. x's rows (slices along axis 0) with
// the same id are reduced into row id of the output. Ids are checked: a
// negative one, one past the number of segments or (sorted ops) one out of
// order is an error naming the op, the id and its position.
//
// An empty segment gives 0 (sum, mean, sqrt_n, and the sorted max and min,
// as TensorFlow), 1 (prod), and for unsorted max and min the lowest and
// highest value of the dtype (-Inf and +Inf for floats), as TensorFlow.

// Segment reductions.
const (
	segSum = iota
	segMean
	segMax
	segMin
	segProd
	segSqrtN
)

// segmentIDs reads and checks the ids against x (one per row) and returns
// them with the number of segments: for sorted ops the last id + 1, for
// unsorted ones num.
func segmentIDs(op string, x, ids *ndarray.Array, sorted bool, num int) ([]int, int, error) {
	if !ids.DType().IsInt() {
		return nil, 0, fmt.Errorf("%s: the segment ids must be an integer array, not %v", op, ids.DType())
	}
	if ids.Rank() != 1 || x.Rank() == 0 || ids.Size() != x.Shape()[0] {
		return nil, 0, fmt.Errorf("%s: segment ids of shape %v for x of shape %v; want one id per row of x", op, ids.Shape(), x.Shape())
	}
	v := intsOf(ids.Int64s())
	if sorted {
		var err error
		if num, err = sortedSegmentCount(op, v); err != nil {
			return nil, 0, err
		}
	}
	if err := checkSegmentCount(op, num); err != nil {
		return nil, 0, err
	}
	for i, s := range v {
		if s < 0 || s >= num {
			return nil, 0, fmt.Errorf("%s: segment id %d (position %d) is out of range for %d segments", op, s, i, num)
		}
		if sorted && i > 0 && s < v[i-1] {
			return nil, 0, fmt.Errorf("%s: segment id %d (position %d) follows %d; the ids must be sorted", op, s, i, v[i-1])
		}
	}
	return v, num, nil
}

// sortedSegmentCount is the number of segments of sorted ids: the last id
// + 1, which is checked first since the largest id would wrap around.
func sortedSegmentCount(op string, ids []int) (int, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	last := ids[len(ids)-1]
	if last < 0 || last >= maxSegments {
		return 0, fmt.Errorf("%s: last segment id %d is out of range 0..%d", op, last, maxSegments-1)
	}
	return last + 1, nil
}

// maxSegments bounds the number of segments, and so the rows of the output.
const maxSegments = maxUnstack * 16

func checkSegmentCount(op string, num int) error {
	if num < 0 || num > maxSegments {
		return fmt.Errorf("%s: %d segments; at most %d", op, num, maxSegments)
	}
	return nil
}

// segInner returns the size of one row of x.
func segInner(s []int) int {
	n := 1
	for _, d := range s[1:] {
		n *= d
	}
	return n
}

func extremes[T ndarray.Num]() (lo, hi T) {
	switch p := any(&lo).(type) {
	case *float32:
		*p, *any(&hi).(*float32) = float32(math.Inf(-1)), float32(math.Inf(1))
	case *float64:
		*p, *any(&hi).(*float64) = math.Inf(-1), math.Inf(1)
	case *int32:
		*p, *any(&hi).(*int32) = math.MinInt32, math.MaxInt32
	case *int64:
		*p, *any(&hi).(*int64) = math.MinInt64, math.MaxInt64
	}
	return lo, hi
}

func segmentT[T ndarray.Num](x *ndarray.Array, ids []int, num, mode int, sorted bool) (*ndarray.Array, error) {
	xv, err := packedValues[T](x)
	if err != nil {
		return nil, err
	}
	inner := segInner(x.Shape())
	out := make([]T, num*inner)
	count := make([]int, num)
	for _, s := range ids {
		count[s]++
	}
	lo, hi := extremes[T]()
	for s := 0; s < num; s++ {
		row := out[s*inner : (s+1)*inner]
		var init T
		switch {
		case mode == segProd:
			init = 1
		case count[s] == 0 && !sorted && mode == segMax:
			init = lo
		case count[s] == 0 && !sorted && mode == segMin:
			init = hi
		}
		for e := range row {
			row[e] = init
		}
	}
	seen := make([]bool, num)
	for i, s := range ids {
		row, src := out[s*inner:(s+1)*inner], xv[i*inner:(i+1)*inner]
		first := !seen[s]
		seen[s] = true
		for e, v := range src {
			switch mode {
			case segMax:
				if first || v > row[e] || v != v {
					row[e] = v
				}
			case segMin:
				if first || v < row[e] || v != v {
					row[e] = v
				}
			case segProd:
				row[e] *= v
			default:
				row[e] += v
			}
		}
	}
	if mode == segMean || mode == segSqrtN {
		for s, n := range count {
			if n == 0 {
				continue
			}
			d := T(n)
			if mode == segSqrtN {
				d = T(math.Sqrt(float64(n)))
			}
			for e := range out[s*inner : (s+1)*inner] {
				out[s*inner+e] /= d
			}
		}
	}
	shape := append([]int{num}, x.Shape()[1:]...)
	return ndarray.Wrap(out, shape...)
}

func runSegment(op string, x *ndarray.Array, ids []int, num, mode int, sorted bool) (*ndarray.Array, error) {
	if err := reserveSize(op, x.DType().Size(), num, segInner(x.Shape())); err != nil {
		return nil, err // the output: num rows, however few x has
	}
	switch x.DType() {
	case ndarray.Float32:
		return segmentT[float32](x, ids, num, mode, sorted)
	case ndarray.Float64:
		return segmentT[float64](x, ids, num, mode, sorted)
	case ndarray.Int32:
		return segmentT[int32](x, ids, num, mode, sorted)
	case ndarray.Int64:
		return segmentT[int64](x, ids, num, mode, sorted)
	}
	return nil, fmt.Errorf("%s of %v arrays", op, x.DType())
}

// segmentGradT returns dx for gradient g of the segment reduction y.
func segmentGradT[T ndarray.Float](x, y, g *ndarray.Array, ids []int, num, mode int) (*ndarray.Array, error) {
	xv, err := packedValues[T](x)
	if err != nil {
		return nil, err
	}
	gv, err := packedValues[T](g)
	if err != nil {
		return nil, err
	}
	var yv []T
	if y != nil {
		if yv, err = packedValues[T](y); err != nil {
			return nil, err
		}
	}
	inner := segInner(x.Shape())
	count := make([]int, num)
	for _, s := range ids {
		count[s]++
	}
	// For prod: per segment and element, the zeros among the factors and
	// the product of the others.
	var zeros []int
	var nz []T
	if mode == segProd {
		zeros, nz = make([]int, num*inner), make([]T, num*inner)
		for i := range nz {
			nz[i] = 1
		}
		for i, s := range ids {
			for e := 0; e < inner; e++ {
				if v := xv[i*inner+e]; v == 0 {
					zeros[s*inner+e]++
				} else {
					nz[s*inner+e] *= v
				}
			}
		}
	}
	dx := make([]T, len(xv))
	for i, s := range ids {
		for e := 0; e < inner; e++ {
			k := s*inner + e
			gk := gv[k]
			var d T
			switch mode {
			case segSum:
				d = gk
			case segMean:
				d = gk / T(count[s])
			case segSqrtN:
				d = gk / T(math.Sqrt(float64(count[s])))
			case segMax, segMin:
				if xv[i*inner+e] == yv[k] {
					d = gk
				}
			case segProd:
				switch z := zeros[k]; {
				case xv[i*inner+e] != 0 && z == 0:
					d = gk * nz[k] / xv[i*inner+e]
				case xv[i*inner+e] == 0 && z == 1:
					d = gk * nz[k]
				}
			}
			dx[i*inner+e] = d
		}
	}
	return ndarray.Wrap(dx, x.Shape()...)
}

// segmentArgs returns an unsorted op's number of segments: int arg 0, or
// input numIn (a scalar) when given.
func segmentNum(op string, in []*ndarray.Array, numIn int, a *Args) (int, error) {
	if len(in) > numIn {
		v, err := arrayInts(op+": the number of segments", in[numIn])
		if err != nil {
			return 0, err
		}
		if len(v) != 1 {
			return 0, fmt.Errorf("%s: the number of segments has %d values; want 1", op, len(v))
		}
		return v[0], nil
	}
	if len(a.I) == 0 {
		return 0, fmt.Errorf("%s needs the number of segments as int arg 0 or input %d", op, numIn)
	}
	return int(a.I[0]), nil
}

// segmentDef defines a segment reduction. Sorted: inputs x, ids; the
// output has last id + 1 rows. Unsorted: inputs x, ids, [number of
// segments]; int arg 0 the number of segments when there is no input 2.
func segmentDef(name string, mode int, sorted bool, doc string, grad GradFunc) *Def {
	maxIn := 2
	if !sorted {
		maxIn = 3
	}
	return &Def{
		Name: name, Type: Custom, MinIn: 2, MaxIn: maxIn, NonDiff: []int{1, 2}, Doc: doc,
		Infer: func(in []Info, a *Args) ([]Info, error) {
			x := in[0]
			if err := needNumeric(name, x); err != nil {
				return nil, err
			}
			for _, v := range in[1:] {
				if err := needIntInput(name, "the segment ids and count", v); err != nil {
					return nil, err
				}
			}
			if x.UnknownRank {
				return infos(Info{DType: x.DType, UnknownRank: true}), nil
			}
			if len(x.Shape) == 0 {
				return nil, fmt.Errorf("%s of a scalar: x needs rows", name)
			}
			num := -1
			switch {
			case sorted:
				if v, ok := constInts(in[1]); ok && len(v) > 0 {
					n, err := sortedSegmentCount(name, v)
					if err != nil {
						return nil, err
					}
					num = n
				}
			case len(in) > 2:
				if v, ok := constInts(in[2]); ok && len(v) == 1 {
					num = v[0]
				}
			case len(a.I) > 0:
				num = int(a.I[0])
			default:
				return nil, fmt.Errorf("%s needs the number of segments as int arg 0 or input 2", name)
			}
			if num != -1 {
				if err := checkSegmentCount(name, num); err != nil {
					return nil, err
				}
			}
			return infos(Info{DType: x.DType, Shape: append([]int{num}, x.Shape[1:]...)}), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			num := 0
			if !sorted {
				var err error
				if num, err = segmentNum(name, in, 2, a); err != nil {
					return nil, err
				}
			}
			ids, num, err := segmentIDs(name, in[0], in[1], sorted, num)
			if err != nil {
				return nil, err
			}
			return one(runSegment(name, in[0], ids, num, mode, sorted))
		},
		Grad: grad,
	}
}

// segmentBpDef defines a segment reduction's _bp op: inputs x, ids, gradO
// (and, unsorted, [number of segments]; int arg 0 the number otherwise);
// outputs dx and zeros for the ids.
func segmentBpDef(name, fwd string, mode int, sorted bool) *Def {
	maxIn := 3
	if !sorted {
		maxIn = 4
	}
	return &Def{
		Name: name, Type: Custom, MinIn: 3, MaxIn: maxIn, NonDiff: []int{1, 3},
		Doc: "gradient of " + fwd + " for inputs x, ids, gradO: dx, and zeros for the ids",
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			x, ids, g := in[0], in[1], in[2]
			if err := needFloat(name, g); err != nil {
				return nil, err
			}
			if x.DType != g.DType {
				return nil, fmt.Errorf("%s: x is %v, the gradient %v", name, x.DType, g.DType)
			}
			return infos(same(x), same(ids)), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			x, g := in[0], in[2]
			num := 0
			if !sorted {
				var err error
				if num, err = segmentNum(name, in, 3, a); err != nil {
					return nil, err
				}
			}
			ids, num, err := segmentIDs(name, x, in[1], sorted, num)
			if err != nil {
				return nil, err
			}
			if want := append([]int{num}, x.Shape()[1:]...); !ndarray.SameShape(g.Shape(), want) {
				return nil, fmt.Errorf("%s: gradient of shape %v; want %v", name, g.Shape(), want)
			}
			var y *ndarray.Array
			if mode == segMax || mode == segMin {
				if y, err = runSegment(name, x, ids, num, mode, sorted); err != nil {
					return nil, err
				}
			}
			var dx *ndarray.Array
			switch g.DType() {
			case ndarray.Float32:
				dx, err = segmentGradT[float32](x, y, g, ids, num, mode)
			default:
				dx, err = segmentGradT[float64](x, y, g, ids, num, mode)
			}
			if err != nil {
				return nil, err
			}
			z, err := ndarray.Zeros(in[1].DType(), in[1].Shape()...)
			if err != nil {
				return nil, err
			}
			return []*ndarray.Array{dx, z}, nil
		},
	}
}

// segmentGrad hands the forward op's inputs and gradient to its _bp op,
// with the number of segments (unsorted) moved after the gradient.
func segmentGrad(bp string) GradFunc {
	return func(b GradBuilder, n GradNode, d []Value) []Value {
		in := []Value{n.In[0], n.In[1], d[0]}
		if len(n.In) > 2 {
			in = append(in, n.In[2])
		}
		res := make([]Value, len(n.In))
		res[0] = b.Op(bp, n.Args.Clone(), in...)[0]
		return res
	}
}

var (
	segmentSumOp  = Register(segmentDef("segment_sum", segSum, true, "rows of x with the same (sorted) id summed", segmentGrad("segment_sum_bp")))
	segmentMeanOp = Register(segmentDef("segment_mean", segMean, true, "rows of x with the same (sorted) id averaged", segmentGrad("segment_mean_bp")))
	segmentMaxOp  = Register(segmentDef("segment_max", segMax, true, "the largest of the rows of x with the same (sorted) id", segmentGrad("segment_max_bp")))
	segmentMinOp  = Register(segmentDef("segment_min", segMin, true, "the smallest of the rows of x with the same (sorted) id", segmentGrad("segment_min_bp")))
	segmentProdOp = Register(segmentDef("segment_prod", segProd, true, "rows of x with the same (sorted) id multiplied", segmentGrad("segment_prod_bp")))

	unsortedSegmentSumOp   = Register(segmentDef("unsorted_segment_sum", segSum, false, "rows of x with the same id summed, into int arg 0 segments", segmentGrad("unsorted_segment_sum_bp")))
	unsortedSegmentMeanOp  = Register(segmentDef("unsorted_segment_mean", segMean, false, "rows of x with the same id averaged, into int arg 0 segments", segmentGrad("unsorted_segment_mean_bp")))
	unsortedSegmentMaxOp   = Register(segmentDef("unsorted_segment_max", segMax, false, "the largest of the rows of x with the same id, into int arg 0 segments", segmentGrad("unsorted_segment_max_bp")))
	unsortedSegmentMinOp   = Register(segmentDef("unsorted_segment_min", segMin, false, "the smallest of the rows of x with the same id, into int arg 0 segments", segmentGrad("unsorted_segment_min_bp")))
	unsortedSegmentProdOp  = Register(segmentDef("unsorted_segment_prod", segProd, false, "rows of x with the same id multiplied, into int arg 0 segments", segmentGrad("unsorted_segment_prod_bp")))
	unsortedSegmentSqrtNOp = Register(segmentDef("unsorted_segment_sqrt_n", segSqrtN, false, "rows of x with the same id summed and divided by √count, into int arg 0 segments", segmentGrad("unsorted_segment_sqrt_n_bp")))

	segmentSumBpOp  = Register(segmentBpDef("segment_sum_bp", "segment_sum", segSum, true))
	segmentMeanBpOp = Register(segmentBpDef("segment_mean_bp", "segment_mean", segMean, true))
	segmentMaxBpOp  = Register(segmentBpDef("segment_max_bp", "segment_max", segMax, true))
	segmentMinBpOp  = Register(segmentBpDef("segment_min_bp", "segment_min", segMin, true))
	segmentProdBpOp = Register(segmentBpDef("segment_prod_bp", "segment_prod", segProd, true))

	unsortedSegmentSumBpOp   = Register(segmentBpDef("unsorted_segment_sum_bp", "unsorted_segment_sum", segSum, false))
	unsortedSegmentMeanBpOp  = Register(segmentBpDef("unsorted_segment_mean_bp", "unsorted_segment_mean", segMean, false))
	unsortedSegmentMaxBpOp   = Register(segmentBpDef("unsorted_segment_max_bp", "unsorted_segment_max", segMax, false))
	unsortedSegmentMinBpOp   = Register(segmentBpDef("unsorted_segment_min_bp", "unsorted_segment_min", segMin, false))
	unsortedSegmentProdBpOp  = Register(segmentBpDef("unsorted_segment_prod_bp", "unsorted_segment_prod", segProd, false))
	unsortedSegmentSqrtNBpOp = Register(segmentBpDef("unsorted_segment_sqrt_n_bp", "unsorted_segment_sqrt_n", segSqrtN, false))
)
