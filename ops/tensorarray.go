package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// Tensor arrays, as SameDiff files imported from TensorFlow hold them
// (TensorArrayV3 and friends; libnd4j runs them as its list ops, whose
// hashes the files store: create_list, write_list, read_list, ...).
//
// A tensor array is a growable list of arrays of one dtype that lives as
// long as one run. tensorarrayv3 creates one and returns two values: a
// handle (a bool scalar that stands for the array: every other op takes it
// as input 0) and a flow (a float32 scalar). The ops that change the array
// (write, scatter, split, unstack, close) take the current flow as their
// last input and return a new one; the ops that read it (read, gather,
// stack, concat, size) take the flow of the last change they must see. The
// flow values are what orders the ops: the executor runs an op once its
// inputs are there, so a read runs after the writes whose flow it takes,
// in loops too (a tensor array created outside a loop and written inside it
// gets one element per iteration when the index is the iteration counter).
//
// Semantics (TensorFlow's, where SameDiff's differ they are noted):
//   - The array starts with the size given by the create op's input (or int
//     arg 0 without one) and grows when an element beyond it is written,
//     unless bool arg 0 of the create op is false (TensorFlow's dynamic_size;
//     SameDiff and libnd4j always grow, and their files do not say, so
//     growing is the default).
//   - Every element has the array's dtype: dtype arg 0 of the create op when
//     given, else the dtype of the first element stored.
//   - Elements written by write and scatter must have the shape of the
//     elements already there; split may store pieces whose first axis
//     differs. gather and stack need identical shapes, concat all but the
//     first axis.
//   - Writing an element again replaces it (SameDiff's behaviour;
//     TensorFlow refuses).
//   - Reading an element never written, or beyond the size, is an error that
//     names the op and the index.
//   - An index list holding the single value -1 means every element
//     (SameDiff's stack and unstack are gather and scatter with [-1]).
//   - After close, any use of the array is an error naming the close op.
//
// The ops that give an element (read, gather, stack, concat) take its dtype
// as dtype arg 0, which shape inference needs (files loaded by package
// serialize get it from the node's output types); without it the output's
// dtype is unknown until run time. The handle and the flow values carry no
// data; the flow inputs may have any dtype. The ops are Stateful: an
// executor running ops concurrently runs them one at a time.

// taKey keys a tensor array in a run's state: the handle's buffer.
type taKey struct{ b *ndarray.Buffer }

type tensorArray struct {
	creator  string // the node that created it
	dtype    ndarray.DType
	elems    []*ndarray.Array
	writes   []int // how many times each element was stored (kept after close, for gradients)
	closed   []int // the elements' lengths along axis 0 when closed (rows)
	fixed    bool  // cannot grow beyond its size
	closedBy string
}

// TensorArrayArgs returns the arguments of tensorarrayv3: the element dtype
// (Invalid: the first element's) and whether the array may grow.
func TensorArrayArgs(dt ndarray.DType, dynamic bool) Args {
	a := Args{B: []bool{dynamic}}
	if dt != ndarray.Invalid {
		a.D = []ndarray.DType{dt}
	}
	return a
}

// lookupTA finds the tensor array a handle stands for.
func lookupTA(c *Ctx, op string, h *ndarray.Array) (*tensorArray, error) {
	ta, _ := c.State()[taKey{h.Buffer()}].(*tensorArray)
	if ta == nil {
		return nil, fmt.Errorf("%s: input 0 (%v%v) is not the handle of a tensor array created in this run", op, h.DType(), h.Shape())
	}
	if ta.closedBy != "" {
		return nil, fmt.Errorf("%s: the tensor array created by %q was closed by %q", op, ta.creator, ta.closedBy)
	}
	return ta, nil
}

func (ta *tensorArray) String() string {
	return fmt.Sprintf("the tensor array created by %q (%d elements)", ta.creator, len(ta.elems))
}

// scalarIndex reads an index input: one integer.
func scalarIndex(op string, a *ndarray.Array) (int, error) {
	if !a.DType().IsInt() || a.Size() != 1 {
		return 0, fmt.Errorf("%s: the index must be one integer, not %v%v", op, a.DType(), a.Shape())
	}
	return int(a.Int64s()[0]), nil
}

// indexList reads an index vector; [-1] means 0..n-1.
func indexList(op string, a *ndarray.Array, n int) ([]int, error) {
	if !a.DType().IsInt() || a.Rank() > 1 {
		return nil, fmt.Errorf("%s: the indices must be an integer vector, not %v%v", op, a.DType(), a.Shape())
	}
	idx := intsOf(a.Int64s())
	if len(idx) == 1 && idx[0] == -1 {
		if err := reserve[int](op, n); err != nil {
			return nil, err
		}
		idx = make([]int, n)
		for i := range idx {
			idx[i] = i
		}
	}
	return idx, nil
}

// maxTensorArrayLen bounds how far a write may grow a tensor array: a
// corrupted or hostile index must give an error, not a fatal allocation.
const maxTensorArrayLen = 1 << 24

// put stores v (a copy) at index i, growing the array when it may.
func (ta *tensorArray) put(op string, i int, v *ndarray.Array) error {
	if i < 0 {
		return fmt.Errorf("%s: index %d into %v is negative", op, i, ta)
	}
	if ta.dtype == ndarray.Invalid {
		ta.dtype = v.DType()
	}
	if v.DType() != ta.dtype {
		return fmt.Errorf("%s: cannot store a %v value at index %d of %v, whose elements are %v", op, v.DType(), i, ta, ta.dtype)
	}
	if i >= len(ta.elems) {
		if ta.fixed {
			return fmt.Errorf("%s: index %d is beyond %v, which cannot grow", op, i, ta)
		}
		if i >= maxTensorArrayLen {
			return fmt.Errorf("%s: index %d would grow %v past %d elements", op, i, ta, maxTensorArrayLen)
		}
		if err := reserve[int](op, 2, i+1); err != nil {
			return err // the elements and their write counts
		}
		ta.elems = append(ta.elems, make([]*ndarray.Array, i+1-len(ta.elems))...)
	}
	if len(ta.writes) < len(ta.elems) {
		ta.writes = append(ta.writes, make([]int, len(ta.elems)-len(ta.writes))...)
	}
	ta.writes[i]++
	c, err := ndarray.Copy(v)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	ta.elems[i] = c
	return nil
}

// checkShape checks a new element's shape against the elements already there (all of
// the shape when trailing is false, all but the first axis when true).
func (ta *tensorArray) checkShape(op string, i int, shape []int, trailing bool) error {
	for j, e := range ta.elems {
		if e == nil || j == i {
			continue
		}
		es := e.Shape()
		ok := len(es) == len(shape)
		if ok && trailing && len(shape) > 0 {
			ok = ndarray.SameShape(es[1:], shape[1:])
		} else if ok {
			ok = ndarray.SameShape(es, shape)
		}
		if !ok {
			return fmt.Errorf("%s: the value for index %d has shape %v, element %d of %v has shape %v", op, i, shape, j, ta, es)
		}
		return nil
	}
	return nil
}

// rows are the elements' lengths along axis 0 (-1 for a scalar or an
// element never written), which a concat's gradient splits by: kept when
// the array is closed, as its gradient runs after the forward pass.
func (ta *tensorArray) rows() []int {
	if ta.elems == nil && ta.closedBy != "" {
		return ta.closed
	}
	n := make([]int, len(ta.elems))
	for i, e := range ta.elems {
		n[i] = -1
		if e != nil && e.Rank() > 0 {
			n[i] = e.Shape()[0]
		}
	}
	return n
}

// get returns element i, as stored: what an op outputs must be a copy (the
// executor may recycle or overwrite its outputs' buffers).
func (ta *tensorArray) get(op string, i int) (*ndarray.Array, error) {
	if i < 0 || i >= len(ta.elems) {
		return nil, fmt.Errorf("%s: index %d is outside %v", op, i, ta)
	}
	if ta.elems[i] == nil {
		return nil, fmt.Errorf("%s: element %d of %v was never written", op, i, ta)
	}
	return ta.elems[i], nil
}

// flowOut returns a fresh flow value.
func flowOut() *ndarray.Array { return ndarray.Scalar(float32(0)) }

func handleInfo() Info { return Info{DType: ndarray.Bool, Shape: []int{}} }
func flowInfo() Info   { return Info{DType: ndarray.Float32, Shape: []int{}} }

// elemDType is an element-giving op's output dtype: dtype arg 0, or
// unknown until run time.
func elemDType(a *Args) ndarray.DType { return a.DType(0, ndarray.Invalid) }

func needHandle(op string, in []Info) error {
	if in[0].DType != ndarray.Bool {
		return fmt.Errorf("%s: input 0 must be a tensor array handle (bool), not %v", op, in[0].DType)
	}
	return nil
}

func needIntInput(op, what string, x Info) error {
	if !x.DType.IsInt() {
		return fmt.Errorf("%s: %s must be an integer array, not %v", op, what, x.DType)
	}
	return nil
}

// lookupElemTA is lookupTA for the ops that give elements: it also
// compares what the array holds with the op's declared dtype.
func lookupElemTA(c *Ctx, op string, h *ndarray.Array, a *Args) (*tensorArray, error) {
	ta, err := lookupTA(c, op, h)
	if err != nil {
		return nil, err
	}
	if want := elemDType(a); want != ndarray.Invalid && ta.dtype != ndarray.Invalid && want != ta.dtype {
		return nil, fmt.Errorf("%s: dtype arg 0 says %v, but %v holds %v", op, want, ta, ta.dtype)
	}
	return ta, nil
}

// concatNotStack drops the libnd4j name taDef made an alias of
// tensorarrayconcatv3, keeping its hash: libnd4j has no concat of a list,
// and ND4J writes its TensorArrayConcat as stack_list (its opName, so the
// opNum is that name's hash), a name that stands for tensorarraystack
// when a file gives it as the op's name.
func concatNotStack(d *Def) *Def {
	d.Aliases = d.Aliases[1:]
	return d
}

// taDef fills in what every tensor array op shares; grad is the op's
// gradient rule (nil for the ops that neither store nor give elements).
func taDef(name, lib string, aliases []string, minIn, maxIn int, doc string, infer func([]Info, *Args) ([]Info, error),
	run func(*Ctx, []*ndarray.Array, *Args) ([]*ndarray.Array, error), grad GradFunc) *Def {
	return &Def{
		Name: name, Aliases: append([]string{lib}, aliases...), Type: Custom, Num: Hash(lib),
		MinIn: minIn, MaxIn: maxIn, Flags: NoInference | Stateful, Doc: doc, Infer: infer, Run: run, Grad: grad,
	}
}

var (
	tensorArrayOp = Register(taDef("tensorarrayv3", "create_list", []string{"TensorArrayV3"}, 0, 1,
		"a new tensor array of the size input 0 (or int arg 0) gives; outputs its handle and flow; dtype arg 0 the element dtype, bool arg 0 false: it cannot grow",
		func(in []Info, a *Args) ([]Info, error) {
			if len(in) > 0 {
				if err := needIntInput("tensorarrayv3", "the size", in[0]); err != nil {
					return nil, err
				}
			}
			if dt := a.DType(0, ndarray.Invalid); dt != ndarray.Invalid && !dt.Computable() {
				return nil, fmt.Errorf("tensorarrayv3: sdgo cannot compute with elements of dtype %v", dt)
			}
			return infos(handleInfo(), flowInfo()), nil
		},
		func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			size := int(a.Int(0, 0))
			if len(in) > 0 {
				n, err := scalarIndex("tensorarrayv3", in[0])
				if err != nil {
					return nil, err
				}
				size = n
			}
			if size < 0 {
				return nil, fmt.Errorf("tensorarrayv3: negative size %d", size)
			}
			// The size is allocated at once, as a slice of element pointers:
			// a hostile one would end the program, not fail with an error.
			if size > maxTensorArrayLen {
				return nil, fmt.Errorf("tensorarrayv3: size %d is above the maximum %d", size, maxTensorArrayLen)
			}
			if err := reserve[*ndarray.Array]("tensorarrayv3", size); err != nil {
				return nil, err
			}
			h := ndarray.Scalar(true)
			c.State()[taKey{h.Buffer()}] = &tensorArray{creator: c.nodeName("tensorarrayv3"), dtype: a.DType(0, ndarray.Invalid),
				elems: make([]*ndarray.Array, size), fixed: !a.Bool(0, true)}
			return []*ndarray.Array{h, flowOut()}, nil
		}, nil))

	tensorArrayWriteOp = Register(taDef("tensorarraywritev3", "write_list", []string{"TensorArrayWriteV3"}, 3, 4,
		"writes input 2 at the index input 1 gives into the tensor array of handle input 0, after the flow input 3; outputs the new flow",
		func(in []Info, _ *Args) ([]Info, error) {
			if err := needHandle("tensorarraywritev3", in); err != nil {
				return nil, err
			}
			if err := needIntInput("tensorarraywritev3", "the index", in[1]); err != nil {
				return nil, err
			}
			return infos(flowInfo()), nil
		},
		func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
			const op = "tensorarraywritev3"
			ta, err := lookupTA(c, op, in[0])
			if err != nil {
				return nil, err
			}
			i, err := scalarIndex(op, in[1])
			if err != nil {
				return nil, err
			}
			if err := ta.checkShape(op, i, in[2].Shape(), false); err != nil {
				return nil, err
			}
			if err := ta.put(op, i, in[2]); err != nil {
				return nil, err
			}
			return []*ndarray.Array{flowOut()}, nil
		}, taStoreGrad(2, taOne)))

	tensorArrayReadOp = Register(taDef("tensorarrayreadv3", "read_list", []string{"TensorArrayReadV3"}, 2, 3,
		"element input 1 of the tensor array of handle input 0, after the flow input 2; dtype arg 0 its dtype",
		func(in []Info, a *Args) ([]Info, error) {
			if err := needHandle("tensorarrayreadv3", in); err != nil {
				return nil, err
			}
			if err := needIntInput("tensorarrayreadv3", "the index", in[1]); err != nil {
				return nil, err
			}
			return infos(Info{DType: elemDType(a), UnknownRank: true}), nil
		},
		func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			const op = "tensorarrayreadv3"
			ta, err := lookupElemTA(c, op, in[0], a)
			if err != nil {
				return nil, err
			}
			i, err := scalarIndex(op, in[1])
			if err != nil {
				return nil, err
			}
			e, err := ta.get(op, i)
			if err != nil {
				return nil, err
			}
			return one(ndarray.Copy(e))
		}, taGiveGrad(taOne)))

	tensorArrayGatherOp = Register(taDef("tensorarraygatherv3", "gather_list", []string{"TensorArrayGatherV3"}, 2, 3,
		"the elements of the tensor array of handle input 0 at the indices input 1 gives ([-1]: all), stacked along a new axis 0, after the flow input 2; dtype arg 0 their dtype",
		func(in []Info, a *Args) ([]Info, error) {
			if err := needHandle("tensorarraygatherv3", in); err != nil {
				return nil, err
			}
			if err := needIntInput("tensorarraygatherv3", "the indices", in[1]); err != nil {
				return nil, err
			}
			return infos(Info{DType: elemDType(a), UnknownRank: true}), nil
		},
		func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			const op = "tensorarraygatherv3"
			ta, err := lookupElemTA(c, op, in[0], a)
			if err != nil {
				return nil, err
			}
			idx, err := indexList(op, in[1], len(ta.elems))
			if err != nil {
				return nil, err
			}
			return one(ta.stack(op, idx, a))
		}, taGiveGrad(taStacked)))

	tensorArrayStackOp = Register(taDef("tensorarraystack", "stack_list", nil, 1, 2,
		"every element of the tensor array of handle input 0 stacked along a new axis 0, after the flow input 1; dtype arg 0 their dtype",
		func(in []Info, a *Args) ([]Info, error) {
			if err := needHandle("tensorarraystack", in); err != nil {
				return nil, err
			}
			return infos(Info{DType: elemDType(a), UnknownRank: true}), nil
		},
		func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			const op = "tensorarraystack"
			ta, err := lookupElemTA(c, op, in[0], a)
			if err != nil {
				return nil, err
			}
			idx := make([]int, len(ta.elems))
			for i := range idx {
				idx[i] = i
			}
			return one(ta.stack(op, idx, a))
		}, taGiveGrad(taStacked)))

	tensorArrayConcatOp = Register(concatNotStack(taDef("tensorarrayconcatv3", "stack_list", []string{"TensorArrayConcatV3"}, 1, 2,
		"every element of the tensor array of handle input 0 joined along axis 0, after the flow input 1; dtype arg 0 their dtype; with bool arg 0 true, output 1 is the elements' lengths along axis 0 (int64, TensorFlow's lengths)",
		func(in []Info, a *Args) ([]Info, error) {
			if err := needHandle("tensorarrayconcatv3", in); err != nil {
				return nil, err
			}
			out := Info{DType: elemDType(a), UnknownRank: true}
			if a.Bool(0, false) {
				return infos(out, Info{DType: ndarray.Int64, Shape: []int{-1}}), nil
			}
			return infos(out), nil
		},
		func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			const op = "tensorarrayconcatv3"
			ta, err := lookupElemTA(c, op, in[0], a)
			if err != nil {
				return nil, err
			}
			if len(ta.elems) == 0 {
				return nil, fmt.Errorf("%s: %v is empty: the shape of the result is unknown", op, ta)
			}
			parts := make([]*ndarray.Array, len(ta.elems))
			for i := range parts {
				e, err := ta.get(op, i)
				if err != nil {
					return nil, err
				}
				if e.Rank() == 0 {
					return nil, fmt.Errorf("%s: element %d of %v is a scalar; concat needs rank 1 or more", op, i, ta)
				}
				if i > 0 && (e.Rank() != parts[0].Rank() || !ndarray.SameShape(e.Shape()[1:], parts[0].Shape()[1:])) {
					return nil, fmt.Errorf("%s: element %d of %v has shape %v, element 0 %v: only axis 0 may differ", op, i, ta, e.Shape(), parts[0].Shape())
				}
				parts[i] = e
			}
			joined, err := ndarray.Concat(0, parts...)
			if err != nil || !a.Bool(0, false) {
				return one(joined, err)
			}
			lengths := make([]int64, len(parts))
			for i, p := range parts {
				lengths[i] = int64(p.Shape()[0])
			}
			return []*ndarray.Array{joined, ndarray.Must(ndarray.FromSlice(lengths, len(lengths)))}, nil
		}, taGiveGrad(taJoined))))

	tensorArrayScatterOp = Register(taDef("tensorarrayscatterv3", "scatter_list", []string{"TensorArrayScatterV3"}, 3, 4,
		"writes slice k of input 2 (along axis 0) at index k of input 1 ([-1]: 0, 1, ...) into the tensor array of handle input 0, after the flow input 3; outputs the new flow",
		func(in []Info, _ *Args) ([]Info, error) {
			if err := needHandle("tensorarrayscatterv3", in); err != nil {
				return nil, err
			}
			if err := needIntInput("tensorarrayscatterv3", "the indices", in[1]); err != nil {
				return nil, err
			}
			return infos(flowInfo()), nil
		},
		func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
			const op = "tensorarrayscatterv3"
			ta, err := lookupTA(c, op, in[0])
			if err != nil {
				return nil, err
			}
			v := in[2]
			if v.Rank() == 0 {
				return nil, fmt.Errorf("%s: the value is a scalar; scatter splits it along axis 0", op)
			}
			idx, err := indexList(op, in[1], v.Shape()[0])
			if err != nil {
				return nil, err
			}
			if len(idx) != v.Shape()[0] {
				return nil, fmt.Errorf("%s: %d indices for a value of shape %v (%d slices)", op, len(idx), v.Shape(), v.Shape()[0])
			}
			return scatterSlices(op, ta, idx, v)
		}, taStoreGrad(2, taStacked)))

	tensorArrayUnstackOp = Register(taDef("tensorarrayunstack", "unstack_list", nil, 2, 3,
		"writes slice k of input 1 (along axis 0) at index k of the tensor array of handle input 0, after the flow input 2; outputs the new flow",
		func(in []Info, _ *Args) ([]Info, error) {
			if err := needHandle("tensorarrayunstack", in); err != nil {
				return nil, err
			}
			return infos(flowInfo()), nil
		},
		func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
			const op = "tensorarrayunstack"
			ta, err := lookupTA(c, op, in[0])
			if err != nil {
				return nil, err
			}
			v := in[1]
			if v.Rank() == 0 {
				return nil, fmt.Errorf("%s: the value is a scalar; unstack splits it along axis 0", op)
			}
			if err := reserve[int](op, v.Shape()[0]); err != nil {
				return nil, err // v may have no elements, whatever its rows
			}
			idx := make([]int, v.Shape()[0])
			for i := range idx {
				idx[i] = i
			}
			return scatterSlices(op, ta, idx, v)
		}, taStoreGrad(1, taStacked)))

	tensorArraySplitOp = Register(taDef("tensorarraysplitv3", "split_list", []string{"TensorArraySplitV3"}, 3, 4,
		"splits input 1 along axis 0 into pieces of the lengths input 2 gives, stored at indices 0, 1, ... of the tensor array of handle input 0, after the flow input 3; outputs the new flow",
		func(in []Info, _ *Args) ([]Info, error) {
			if err := needHandle("tensorarraysplitv3", in); err != nil {
				return nil, err
			}
			if err := needIntInput("tensorarraysplitv3", "the lengths", in[2]); err != nil {
				return nil, err
			}
			return infos(flowInfo()), nil
		},
		func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
			const op = "tensorarraysplitv3"
			ta, err := lookupTA(c, op, in[0])
			if err != nil {
				return nil, err
			}
			v := in[1]
			if in[2].Rank() > 1 {
				return nil, fmt.Errorf("%s: the lengths must be a vector, not shape %v", op, in[2].Shape())
			}
			lengths := intsOf(in[2].Int64s())
			if v.Rank() == 0 {
				return nil, fmt.Errorf("%s: the value is a scalar; split cuts it along axis 0", op)
			}
			total := 0
			for k, n := range lengths {
				if n < 0 {
					return nil, fmt.Errorf("%s: length %d is negative (%d)", op, k, n)
				}
				total += n
			}
			if total != v.Shape()[0] {
				return nil, fmt.Errorf("%s: the lengths %v add up to %d, the value has %d rows (shape %v)", op, lengths, total, v.Shape()[0], v.Shape())
			}
			pos := 0
			for k, n := range lengths {
				piece, err := rows(v, pos, n)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", op, err)
				}
				pos += n
				if err := ta.checkShape(op, k, piece.Shape(), true); err != nil {
					return nil, err
				}
				if err := ta.put(op, k, piece); err != nil {
					return nil, err
				}
			}
			return []*ndarray.Array{flowOut()}, nil
		}, taStoreGrad(1, taJoined)))

	tensorArraySizeOp = Register(taDef("tensorarraysizev3", "size_list", []string{"TensorArraySizeV3"}, 1, 2,
		"the number of elements of the tensor array of handle input 0, after the flow input 1 (int64, or dtype arg 0)",
		func(in []Info, a *Args) ([]Info, error) {
			if err := needHandle("tensorarraysizev3", in); err != nil {
				return nil, err
			}
			dt := a.DType(0, ndarray.Int64)
			if !dt.IsInt() || !dt.Computable() {
				return nil, fmt.Errorf("tensorarraysizev3: dtype arg 0 must be int32 or int64, not %v", dt)
			}
			return infos(Info{DType: dt, Shape: []int{}}), nil
		},
		func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			ta, err := lookupTA(c, "tensorarraysizev3", in[0])
			if err != nil {
				return nil, err
			}
			return one(ndarray.ScalarOf(a.DType(0, ndarray.Int64), float64(len(ta.elems))))
		}, nil))

	tensorArrayCloseOp = Register(taDef("tensorarrayclosev3", "delete_list", []string{"TensorArrayCloseV3"}, 1, 2,
		"closes the tensor array of handle input 0 after the flow input 1: later uses fail; outputs a bool scalar",
		func(in []Info, _ *Args) ([]Info, error) {
			if err := needHandle("tensorarrayclosev3", in); err != nil {
				return nil, err
			}
			return infos(Info{DType: ndarray.Bool, Shape: []int{}}), nil
		},
		func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
			ta, err := lookupTA(c, "tensorarrayclosev3", in[0])
			if err != nil {
				return nil, err
			}
			ta.closedBy = c.nodeName("tensorarrayclosev3")
			ta.closed = ta.rows()
			ta.elems = nil
			return []*ndarray.Array{ndarray.Scalar(true)}, nil
		}, nil))
)

// stack gathers elements idx of the array into one array along a new axis 0.
func (ta *tensorArray) stack(op string, idx []int, a *Args) (*ndarray.Array, error) {
	if len(idx) == 0 {
		return nil, fmt.Errorf("%s: no element to gather from %v: the shape of the result is unknown", op, ta)
	}
	parts := make([]*ndarray.Array, len(idx))
	for k, i := range idx {
		e, err := ta.get(op, i)
		if err != nil {
			return nil, err
		}
		if k > 0 && !ndarray.SameShape(e.Shape(), parts[0].Shape()) {
			return nil, fmt.Errorf("%s: element %d of %v has shape %v, element %d %v: stacking needs one shape", op, i, ta, e.Shape(), idx[0], parts[0].Shape())
		}
		parts[k] = e
	}
	return ndarray.Stack(0, parts...)
}

// scatterSlices stores v's slices along axis 0 at the indices.
func scatterSlices(op string, ta *tensorArray, idx []int, v *ndarray.Array) ([]*ndarray.Array, error) {
	for k, i := range idx {
		s, err := rows(v, k, 1)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		if s, err = ndarray.Squeeze(s, 0); err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		if err := ta.checkShape(op, i, s.Shape(), false); err != nil {
			return nil, err
		}
		if err := ta.put(op, i, s); err != nil {
			return nil, err
		}
	}
	return []*ndarray.Array{flowOut()}, nil
}

// rows returns rows k to k+n-1 of v along axis 0 as a view of v's buffer:
// put copies what it stores, so a copy here would be a second one.
func rows(v *ndarray.Array, k, n int) (*ndarray.Array, error) {
	l := v.Layout()
	l.Shape[0] = n
	l.Offset += k * l.Strides[0]
	return v.WithLayout(l)
}

// ---------------------------------------------------------------- gradients

// Gradients through tensor arrays (TensorFlow's scheme, in sdgo's own two
// ops). Each tensor array gets, in the run, a gradient array of the same
// elements' gradients, created when first used. An op that gives elements
// (read, gather, stack, concat) has the rule tensorarray_grad_add: it adds
// its output's gradient into the gradient array's elements and returns a
// flow, the gradient of its flow input. An op that stores elements (write,
// scatter, unstack, split) has the rule tensorarray_grad_get: after the
// gradient of its output flow (the sum of the flows of every later op's
// rule, so after every addition that concerns it) it takes its stored
// values' gradients out of the gradient array, zeros where nothing was
// added. The flows order the gradient ops as they order the forward ones.
//
// As in TensorFlow, the gradient is that of an array whose elements are
// each written once: an element stored twice (sdgo's forward pass allows
// it) makes tensorarray_grad_get fail rather than give the first value the
// gradient of the second.

// The layouts a gradient op moves values in (int arg 0): one element at a
// scalar index; elements at an index vector stacked along axis 0 ([-1]:
// 0, 1, ...); elements joined along axis 0.
const (
	taOne     = 0
	taStacked = 1
	taJoined  = 2
)

// taGradKey keys a tensor array's gradient array in a run's state: the
// forward handle's buffer.
type taGradKey struct{ b *ndarray.Buffer }

// gradArray is a tensor array's gradient array: nil elements are zero.
type gradArray struct{ elems []*ndarray.Array }

// taGradState returns the forward tensor array of handle h, closed or not,
// and its gradient array, made when first asked for.
func taGradState(c *Ctx, op string, h *ndarray.Array) (*tensorArray, *gradArray, error) {
	st := c.State()
	ta, _ := st[taKey{h.Buffer()}].(*tensorArray)
	if ta == nil {
		return nil, nil, fmt.Errorf("%s: input 0 (%v%v) is not the handle of a tensor array created in this run", op, h.DType(), h.Shape())
	}
	ga, _ := st[taGradKey{h.Buffer()}].(*gradArray)
	if ga == nil {
		ga = &gradArray{}
		st[taGradKey{h.Buffer()}] = ga
	}
	return ta, ga, nil
}

// add adds v into element i.
func (ga *gradArray) add(op string, i int, v *ndarray.Array) error {
	if i < 0 || i >= maxTensorArrayLen {
		return fmt.Errorf("%s: index %d is outside the tensor array", op, i)
	}
	if i >= len(ga.elems) {
		if err := reserve[*ndarray.Array](op, i+1); err != nil {
			return err
		}
		ga.elems = append(ga.elems, make([]*ndarray.Array, i+1-len(ga.elems))...)
	}
	var err error
	if ga.elems[i] == nil {
		ga.elems[i], err = ndarray.Copy(v)
	} else {
		if !ndarray.SameShape(ga.elems[i].Shape(), v.Shape()) {
			return fmt.Errorf("%s: a gradient of shape %v for element %d, which had one of shape %v", op, v.Shape(), i, ga.elems[i].Shape())
		}
		ga.elems[i], err = ndarray.Binary(ndarray.Add, ga.elems[i], v)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// get returns element i's gradient, zeros of the given shape and dtype when
// nothing was added; the forward element must have been stored once.
func (ga *gradArray) get(op string, ta *tensorArray, i int, dt ndarray.DType, shape []int) (*ndarray.Array, error) {
	if i >= 0 && i < len(ta.writes) && ta.writes[i] > 1 {
		return nil, fmt.Errorf("%s: element %d of %v was stored %d times; gradients through a tensor array need each element stored once",
			op, i, ta, ta.writes[i])
	}
	if i >= 0 && i < len(ga.elems) && ga.elems[i] != nil {
		e := ga.elems[i]
		if !ndarray.SameShape(e.Shape(), shape) {
			return nil, fmt.Errorf("%s: the gradient of element %d has shape %v, the value stored there %v", op, i, e.Shape(), shape)
		}
		return e, nil
	}
	return ndarray.Zeros(dt, shape...)
}

// taRows splits v along axis 0 into pieces of the given lengths (views).
func taRows(op string, v *ndarray.Array, lengths []int) ([]*ndarray.Array, error) {
	if v.Rank() == 0 {
		return nil, fmt.Errorf("%s: a scalar has no axis 0 to split", op)
	}
	total := 0
	for _, n := range lengths {
		total += n
	}
	if total != v.Shape()[0] {
		return nil, fmt.Errorf("%s: pieces of lengths %v add up to %d, the value has shape %v", op, lengths, total, v.Shape())
	}
	out, pos := make([]*ndarray.Array, len(lengths)), 0
	for k, n := range lengths {
		r, err := rows(v, pos, n)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		out[k], pos = r, pos+n
	}
	return out, nil
}

// taGradIndices reads a gradient op's index input for its layout: one
// index, or a list ([-1]: 0 to n-1).
func taGradIndices(op string, mode int, a *ndarray.Array, n int) ([]int, error) {
	if mode == taOne {
		i, err := scalarIndex(op, a)
		return []int{i}, err
	}
	return indexList(op, a, n)
}

func taGradMode(op string, a *Args) (int, error) {
	m := int(a.Int(0, taOne))
	if m < taOne || m > taJoined {
		return 0, fmt.Errorf("%s: int arg 0 (layout) is %d; want 0 (one element), 1 (stacked) or 2 (joined)", op, m)
	}
	return m, nil
}

// taGradBegin reads a gradient op's layout and finds its arrays.
func taGradBegin(c *Ctx, op string, h *ndarray.Array, a *Args) (int, *tensorArray, *gradArray, error) {
	mode, err := taGradMode(op, a)
	if err != nil {
		return 0, nil, nil, err
	}
	ta, ga, err := taGradState(c, op, h)
	return mode, ta, ga, err
}

// taGradInfer is a gradient op's shape inference, its output out(in).
func taGradInfer(op string, out func([]Info) Info) func([]Info, *Args) ([]Info, error) {
	return func(in []Info, a *Args) ([]Info, error) {
		if _, err := taGradMode(op, a); err != nil {
			return nil, err
		}
		if err := needHandle(op, in); err != nil {
			return nil, err
		}
		return infos(out(in)), needIntInput(op, "the index", in[1])
	}
}

var (
	tensorArrayGradAddOp = Register(&Def{
		Name: "tensorarray_grad_add", Type: Custom, MinIn: 4, MaxIn: 4, Flags: NoInference | Stateful, NonDiff: []int{0, 1, 2, 3},
		Doc:   "adds input 2 into the gradient array of the tensor array of handle input 0, after the flow input 3: int arg 0 0 at index input 1, 1 its slices along axis 0 at the indices input 1 ([-1]: 0, 1, ...), 2 its pieces along axis 0 as long as the elements; outputs a flow",
		Infer: taGradInfer("tensorarray_grad_add", func([]Info) Info { return flowInfo() }),
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			const op = "tensorarray_grad_add"
			mode, ta, ga, err := taGradBegin(c, op, in[0], a)
			if err != nil {
				return nil, err
			}
			v := in[2]
			if mode == taOne {
				i, err := scalarIndex(op, in[1])
				if err != nil {
					return nil, err
				}
				return []*ndarray.Array{flowOut()}, ga.add(op, i, v)
			}
			if v.Rank() == 0 {
				return nil, fmt.Errorf("%s: the gradient is a scalar; the layout needs an axis 0", op)
			}
			var idx, lengths []int
			if mode == taStacked {
				if idx, err = indexList(op, in[1], v.Shape()[0]); err != nil {
					return nil, err
				}
				lengths = make([]int, len(idx))
				for k := range lengths {
					lengths[k] = 1
				}
			} else {
				for i, n := range ta.rows() {
					if n < 0 {
						return nil, fmt.Errorf("%s: element %d of %v has no axis 0 length", op, i, ta)
					}
					idx, lengths = append(idx, i), append(lengths, n)
				}
			}
			pieces, err := taRows(op, v, lengths)
			if err != nil {
				return nil, err
			}
			for k, p := range pieces {
				if mode == taStacked {
					if p, err = ndarray.Squeeze(p, 0); err != nil {
						return nil, fmt.Errorf("%s: %w", op, err)
					}
				}
				if err := ga.add(op, idx[k], p); err != nil {
					return nil, err
				}
			}
			return []*ndarray.Array{flowOut()}, nil
		},
	})

	tensorArrayGradGetOp = Register(&Def{
		Name: "tensorarray_grad_get", Type: Custom, MinIn: 4, MaxIn: 4, Flags: NoInference | Stateful, NonDiff: []int{0, 1, 2, 3},
		Doc:   "the gradient of input 2, a value stored into the tensor array of handle input 0, from its gradient array after the flow input 3: int arg 0 0 element input 1, 1 the elements at the indices input 1 ([-1]: 0, 1, ...) stacked, 2 elements 0, 1, ... joined, as long along axis 0 as input 1 says",
		Infer: taGradInfer("tensorarray_grad_get", func(in []Info) Info { return in[2] }),
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			const op = "tensorarray_grad_get"
			mode, ta, ga, err := taGradBegin(c, op, in[0], a)
			if err != nil {
				return nil, err
			}
			like := in[2]
			dt := like.DType()
			if mode == taOne {
				i, err := scalarIndex(op, in[1])
				if err != nil {
					return nil, err
				}
				e, err := ga.get(op, ta, i, dt, like.Shape())
				if err != nil {
					return nil, err
				}
				return one(ndarray.Copy(e))
			}
			if like.Rank() == 0 {
				return nil, fmt.Errorf("%s: the stored value is a scalar; the layout needs an axis 0", op)
			}
			var idx, lengths []int
			if mode == taStacked {
				if idx, err = indexList(op, in[1], like.Shape()[0]); err != nil {
					return nil, err
				}
				if len(idx) != like.Shape()[0] {
					return nil, fmt.Errorf("%s: %d indices for a value of shape %v", op, len(idx), like.Shape())
				}
			} else {
				if in[1].Rank() > 1 {
					return nil, fmt.Errorf("%s: the lengths must be a vector, not shape %v", op, in[1].Shape())
				}
				lengths = intsOf(in[1].Int64s())
				idx = make([]int, len(lengths))
				for k := range idx {
					idx[k] = k
				}
			}
			parts := make([]*ndarray.Array, len(idx))
			for k, i := range idx {
				shape := append([]int(nil), like.Shape()[1:]...)
				if mode == taJoined {
					shape = append([]int{lengths[k]}, shape...)
				}
				if parts[k], err = ga.get(op, ta, i, dt, shape); err != nil {
					return nil, err
				}
			}
			var out *ndarray.Array
			if mode == taStacked {
				out, err = ndarray.Stack(0, parts...)
			} else {
				out, err = ndarray.Concat(0, parts...)
			}
			if err == nil && !ndarray.SameShape(out.Shape(), like.Shape()) {
				err = fmt.Errorf("the gradients make shape %v, the stored value has %v", out.Shape(), like.Shape())
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %w", op, err)
			}
			return []*ndarray.Array{out}, nil
		},
	})
)

// taAllIndices adds the index list [-1] (every element).
func taAllIndices(b GradBuilder) Value {
	return b.Const(ndarray.Must(ndarray.FromSlice([]int64{-1}, 1)))
}

// taGiveGrad is the rule of an op that gives elements in the layout mode:
// its output's gradient is added into the gradient array, and the flow
// that returns is its flow input's gradient. Input 1 is the index (or
// index list) when the op has three inputs; the flow is the last.
func taGiveGrad(mode int) GradFunc {
	return func(b GradBuilder, n GradNode, d []Value) []Value {
		grads := make([]Value, len(n.In))
		flowAt := len(n.In) - 1
		if d[0] == nil || flowAt < 1 || !n.In[flowAt].Info().DType.IsFloat() || (mode == taOne && len(n.In) < 3) {
			return grads // no flow to order the gradient after: nothing reaches a stored value
		}
		idx := taAllIndices(b)
		if len(n.In) == 3 {
			idx = n.In[1]
		}
		grads[flowAt] = flowAs(b, op1(b, "tensorarray_grad_add", Args{I: []int64{int64(mode)}}, n.In[0], idx, d[0], n.In[flowAt]), n.In[flowAt])
		return grads
	}
}

// taStoreGrad is the rule of an op that stores input valueAt in the layout
// mode: after its output flow's gradient, the value's gradient is taken
// from the gradient array, and that flow passes on to the flow input.
// The index input, when the op has one, is input 1 for a single element or
// a list, input 2 (the lengths) for joined pieces.
func taStoreGrad(valueAt int, mode int) GradFunc {
	return func(b GradBuilder, n GradNode, d []Value) []Value {
		grads := make([]Value, len(n.In))
		if d[0] == nil {
			return grads
		}
		var idx Value
		switch {
		case mode == taJoined:
			idx = n.In[2]
		case valueAt == 2:
			idx = n.In[1]
		default:
			idx = taAllIndices(b)
		}
		grads[valueAt] = op1(b, "tensorarray_grad_get", Args{I: []int64{int64(mode)}}, n.In[0], idx, n.In[valueAt], d[0])
		if flowAt := len(n.In) - 1; flowAt > valueAt && (mode != taJoined || flowAt > 2) && n.In[flowAt].Info().DType.IsFloat() {
			grads[flowAt] = flowAs(b, d[0], n.In[flowAt])
		}
		return grads
	}
}

// flowAs gives a gradient flow the dtype of the flow input it is the
// gradient of (a float64 copy of a graph, as the gradient checker runs,
// has float64 flows).
func flowAs(b GradBuilder, flow, in Value) Value {
	if dt := in.Info().DType; flow.Info().DType != dt {
		return op1(b, "cast", Args{D: []ndarray.DType{dt}}, flow)
	}
	return flow
}
