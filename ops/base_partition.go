package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// SameDiff's dynamic_partition (with libnd4j's dynamic_partition_bp) and
// dynamic_stitch, TensorFlow's ops of the same names.

// partitionRows checks that the partition indices' shape is a prefix of
// the data's and returns the number of rows (index elements) and the size
// of a row (the data's elements per index).
func partitionRows(name string, x, idx []int) (rows, inner int, err error) {
	if len(idx) > len(x) {
		return 0, 0, fmt.Errorf("%s: indices of shape %v for data of shape %v: the indices' shape must begin the data's", name, idx, x)
	}
	for i, d := range idx {
		if x[i] >= 0 && d >= 0 && x[i] != d {
			return 0, 0, fmt.Errorf("%s: indices of shape %v for data of shape %v: the indices' shape must begin the data's", name, idx, x)
		}
	}
	return diagLen(idx), diagLen(x[len(idx):]), nil
}

// rowOffsets returns the packed element offsets of rows (of inner
// elements each), row after row.
func rowOffsets(rows []int, inner int) []int {
	offs := make([]int, 0, len(rows)*inner)
	for _, r := range rows {
		for k := 0; k < inner; k++ {
			offs = append(offs, r*inner+k)
		}
	}
	return offs
}

// partitionArg reads dynamic_partition's number of partitions, int arg 0.
func partitionArg(name string, a *Args) (int, error) {
	n := a.Int(0, -1)
	if n < 1 || n > 1<<16 {
		return 0, fmt.Errorf("%s: the number of partitions (int arg 0) must be positive, got %d", name, n)
	}
	return int(n), nil
}

// dynamicPartitionOp is libnd4j's dynamic_partition: inputs data and
// integer partitions (whose shape begins data's); int arg 0 the number of
// partitions n. Output p holds, in order, the data's slices data[i...]
// whose partitions[i...] is p: shape [count of p] ++ data.shape[r:] with r
// the partitions' rank. Partition numbers outside [0, n) are an error.
var dynamicPartitionOp = Register(&Def{
	Name: "dynamic_partition", Type: Custom, MinIn: 2, MaxIn: 2, NonDiff: []int{1},
	Doc: "n outputs: the slices of data whose partition number (input 1) is 0, 1, ..., n-1; int arg 0: n",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		n, err := partitionArg("dynamic_partition", a)
		if err != nil {
			return nil, err
		}
		x, idx := in[0], in[1]
		if err := needComputable("dynamic_partition", x); err != nil {
			return nil, err
		}
		if !idx.DType.IsInt() {
			return nil, fmt.Errorf("dynamic_partition: the partitions are %v; they must be integers", idx.DType)
		}
		out := make([]Info, n)
		if x.UnknownRank || idx.UnknownRank {
			for p := range out {
				out[p] = Info{DType: x.DType, UnknownRank: true}
			}
			return out, nil
		}
		if _, _, err := partitionRows("dynamic_partition", x.Shape, idx.Shape); err != nil {
			return nil, err
		}
		counts := make([]int, n)
		if v, ok := constInts(idx); ok {
			for _, p := range v {
				if p < 0 || p >= n {
					return nil, fmt.Errorf("dynamic_partition: partition %d outside [0, %d)", p, n)
				}
				counts[p]++
			}
		} else {
			for p := range counts {
				counts[p] = -1
			}
		}
		for p := range out {
			out[p] = Info{DType: x.DType, Shape: append([]int{counts[p]}, x.Shape[len(idx.Shape):]...)}
		}
		return out, nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		n, err := partitionArg("dynamic_partition", a)
		if err != nil {
			return nil, err
		}
		x, idx := in[0], in[1]
		if _, _, err := partitionRows("dynamic_partition", x.Shape(), idx.Shape()); err != nil {
			return nil, err
		}
		v, err := arrayInts("dynamic_partition: the partitions", idx)
		if err != nil {
			return nil, err
		}
		_, inner, _ := partitionRows("dynamic_partition", x.Shape(), idx.Shape())
		rows := make([][]int, n)
		for i, p := range v {
			if p < 0 || p >= n {
				return nil, fmt.Errorf("dynamic_partition: partition %d outside [0, %d)", p, n)
			}
			rows[p] = append(rows[p], i)
		}
		rest := x.Shape()[idx.Rank():]
		outs := make([]*ndarray.Array, n)
		for p := range outs {
			if !c.Needed(p) {
				continue
			}
			offs := rowOffsets(rows[p], inner)
			if outs[p], err = gatherOffsets(x, offs, append([]int{len(rows[p])}, rest...)); err != nil {
				return nil, err
			}
		}
		return outs, nil
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		in := []Value{n.In[0], n.In[1]}
		for p, g := range d {
			if g == nil { // a partition that does not reach the loss
				g = op1(b, "zeros_as", Args{}, n.Out[p])
			}
			in = append(in, g)
		}
		return []Value{b.Op("dynamic_partition_bp", n.Args.Clone(), in...)[0], nil}
	},
})

// dynamicPartitionBpOp is libnd4j's dynamic_partition_bp: inputs data,
// partitions and the n partitions' gradients; int arg 0 n. Outputs the
// data's gradient (each gradient row put back where its slice came from)
// and, as libnd4j gives it, the partitions themselves.
var dynamicPartitionBpOp = Register(&Def{
	Name: "dynamic_partition_bp", Type: Custom, MinIn: 3, MaxIn: -1, NonDiff: []int{1},
	Doc: "gradient of dynamic_partition for inputs data, partitions, gradients of the n outputs; outputs the data's gradient and the partitions",
	Infer: func(in []Info, a *Args) ([]Info, error) {
		n, err := partitionArg("dynamic_partition_bp", a)
		if err != nil {
			return nil, err
		}
		if len(in) != n+2 {
			return nil, fmt.Errorf("dynamic_partition_bp: %d partitions need %d inputs, got %d", n, n+2, len(in))
		}
		x, idx := in[0], in[1]
		if err := needFloat("dynamic_partition_bp", x); err != nil {
			return nil, err
		}
		if !idx.DType.IsInt() {
			return nil, fmt.Errorf("dynamic_partition_bp: the partitions are %v; they must be integers", idx.DType)
		}
		for p, g := range in[2:] {
			if g.DType != x.DType {
				return nil, fmt.Errorf("dynamic_partition_bp: gradient %d is %v, the data %v", p, g.DType, x.DType)
			}
		}
		if !x.UnknownRank && !idx.UnknownRank {
			if _, _, err := partitionRows("dynamic_partition_bp", x.Shape, idx.Shape); err != nil {
				return nil, err
			}
		}
		return []Info{same(x), same(idx)}, nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
		n, err := partitionArg("dynamic_partition_bp", a)
		if err != nil {
			return nil, err
		}
		if len(in) != n+2 {
			return nil, fmt.Errorf("dynamic_partition_bp: %d partitions need %d inputs, got %d", n, n+2, len(in))
		}
		x, idx := in[0], in[1]
		if _, _, err := partitionRows("dynamic_partition_bp", x.Shape(), idx.Shape()); err != nil {
			return nil, err
		}
		v, err := arrayInts("dynamic_partition_bp: the partitions", idx)
		if err != nil {
			return nil, err
		}
		rows := make([][]int, n)
		for i, p := range v {
			if p < 0 || p >= n {
				return nil, fmt.Errorf("dynamic_partition_bp: partition %d outside [0, %d)", p, n)
			}
			rows[p] = append(rows[p], i)
		}
		rest := x.Shape()[idx.Rank():]
		// The gradients are the stitch of the rows' positions and the
		// partitions' gradients.
		var pos, gs []*ndarray.Array
		for p := 0; p < n; p++ {
			want := append([]int{len(rows[p])}, rest...)
			if g := in[2+p]; !ndarray.SameShape(g.Shape(), want) {
				return nil, fmt.Errorf("dynamic_partition_bp: gradient %d has shape %v, partition %d %v", p, g.Shape(), p, want)
			}
			r := make([]int64, len(rows[p]))
			for i, k := range rows[p] {
				r[i] = int64(k)
			}
			pa, err := ndarray.Wrap(r, len(r))
			if err != nil {
				return nil, err
			}
			pos, gs = append(pos, pa), append(gs, in[2+p])
		}
		dx, err := stitch(c, "dynamic_partition_bp", pos, gs, x.Shape()[:idx.Rank()], rest, x.DType())
		if err != nil {
			return nil, err
		}
		return []*ndarray.Array{dx, idx}, nil
	},
})

// stitchT writes the rows of each data array into out (packed, zeroed
// first) at the rows its indices name; later ones win.
func stitchT[T ndarray.Elem](out *ndarray.Array, idx [][]int, data []*ndarray.Array, inner int) error {
	o := ndarray.Raw[T](out)[out.Offset() : out.Offset()+out.Size()]
	var z T
	for i := range o {
		o[i] = z
	}
	for j, d := range data {
		v, err := packedValues[T](d)
		if err != nil {
			return err
		}
		for k, r := range idx[j] {
			copy(o[r*inner:(r+1)*inner], v[k*inner:(k+1)*inner])
		}
	}
	return nil
}

// stitch puts data[j]'s rows at the rows indices[j] names of an array of
// shape lead ++ rest (lead flattened to rows) of dtype dt; rows no index
// names are zero.
func stitch(c *Ctx, name string, indices, data []*ndarray.Array, lead, rest []int, dt ndarray.DType) (*ndarray.Array, error) {
	rows, inner := diagLen(lead), diagLen(rest)
	idx := make([][]int, len(indices))
	for j, ix := range indices {
		v, err := arrayInts(name+": the indices", ix)
		if err != nil {
			return nil, err
		}
		want := append(append([]int(nil), ix.Shape()...), rest...)
		if data[j].DType() != dt || !ndarray.SameShape(data[j].Shape(), want) {
			return nil, fmt.Errorf("%s: data %d is %v%v; with indices of shape %v it must be %v%v", name, j, data[j].DType(), data[j].Shape(), ix.Shape(), dt, want)
		}
		for _, r := range v {
			if r < 0 || r >= rows {
				return nil, fmt.Errorf("%s: index %d outside [0, %d)", name, r, rows)
			}
		}
		idx[j] = v
	}
	out, err := c.TryAlloc(dt, append(append([]int(nil), lead...), rest...))
	if err != nil {
		return nil, err
	}
	switch dt {
	case ndarray.Float32:
		err = stitchT[float32](out, idx, data, inner)
	case ndarray.Float64:
		err = stitchT[float64](out, idx, data, inner)
	case ndarray.Int32:
		err = stitchT[int32](out, idx, data, inner)
	case ndarray.Int64:
		err = stitchT[int64](out, idx, data, inner)
	case ndarray.Bool:
		err = stitchT[bool](out, idx, data, inner)
	default:
		err = fmt.Errorf("%s of %v arrays", name, dt)
	}
	if err != nil {
		c.Release(out)
		return nil, err
	}
	return out, nil
}

// stitchInfo checks dynamic_stitch's inputs (n integer index arrays, then
// n data arrays of one dtype) and returns the data's dtype and the shape
// of a row, data[0].shape[indices[0].rank:], when known.
func stitchInfo(in []Info) (ndarray.DType, []int, bool, error) {
	if len(in)%2 != 0 {
		return 0, nil, false, fmt.Errorf("dynamic_stitch takes n index arrays then n data arrays, got %d inputs", len(in))
	}
	n := len(in) / 2
	dt := in[n].DType
	if err := needComputable("dynamic_stitch", in[n]); err != nil {
		return 0, nil, false, err
	}
	var rest []int
	known := false
	for j := 0; j < n; j++ {
		ix, d := in[j], in[n+j]
		if !ix.DType.IsInt() {
			return 0, nil, false, fmt.Errorf("dynamic_stitch: indices %d are %v; they must be integers", j, ix.DType)
		}
		if d.DType != dt {
			return 0, nil, false, fmt.Errorf("dynamic_stitch: data %d is %v, data 0 %v", j, d.DType, dt)
		}
		if ix.UnknownRank || d.UnknownRank {
			continue
		}
		if _, _, err := partitionRows("dynamic_stitch", d.Shape, ix.Shape); err != nil {
			return 0, nil, false, err
		}
		r := d.Shape[len(ix.Shape):]
		if !known {
			rest, known = r, true
		} else if !(Info{Shape: rest}).Admits(r) {
			return 0, nil, false, fmt.Errorf("dynamic_stitch: data slices of shapes %v and %v differ", rest, r)
		}
	}
	return dt, rest, known, nil
}

// dynamicStitchOp is libnd4j's dynamic_stitch: inputs indices_0 ...
// indices_{n-1}, then data_0 ... data_{n-1}; out[indices_j[i...]] =
// data_j[i...], of shape [max index + 1] ++ data_0.shape[rank of
// indices_0:] (TensorFlow's shape rule; libnd4j's agrees for vector
// indices). Rows no index names are zero; a row named twice takes the
// later value. No arguments. The gradient of data_j gathers the output
// gradient at indices_j, as TensorFlow's does.
var dynamicStitchOp = Register(&Def{
	Name: "dynamic_stitch", Type: Custom, MinIn: 2, MaxIn: -1, Flags: NoInference,
	Doc: "out[indices_j[i...]] = data_j[i...]; inputs n index arrays then n data arrays",
	Infer: func(in []Info, _ *Args) ([]Info, error) {
		dt, rest, known, err := stitchInfo(in)
		if err != nil {
			return nil, err
		}
		if !known {
			return infos(Info{DType: dt, UnknownRank: true}), nil
		}
		rows := 0
		for _, ix := range in[:len(in)/2] {
			v, ok := constInts(ix)
			if !ok {
				rows = -1
				break
			}
			for _, r := range v {
				if r < 0 {
					return nil, fmt.Errorf("dynamic_stitch: negative index %d", r)
				}
				rows = max(rows, r+1)
			}
		}
		return infos(Info{DType: dt, Shape: append([]int{rows}, rest...)}), nil
	},
	Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
		infoIn := make([]Info, len(in))
		for i, x := range in {
			infoIn[i] = Info{DType: x.DType(), Shape: x.Shape()}
		}
		dt, rest, _, err := stitchInfo(infoIn)
		if err != nil {
			return nil, err
		}
		n := len(in) / 2
		rows := 0
		for _, ix := range in[:n] {
			v, err := arrayInts("dynamic_stitch: the indices", ix)
			if err != nil {
				return nil, err
			}
			for _, r := range v {
				if r < 0 {
					return nil, fmt.Errorf("dynamic_stitch: negative index %d", r)
				}
				rows = max(rows, r+1)
			}
		}
		return one(stitch(c, "dynamic_stitch", in[:n], in[n:], []int{rows}, rest, dt))
	},
	Grad: func(b GradBuilder, n GradNode, d []Value) []Value {
		k := len(n.In) / 2
		out := make([]Value, len(n.In))
		for j := 0; j < k; j++ {
			out[k+j] = op1(b, "gather", Args{I: []int64{0}}, d[0], n.In[j])
		}
		return out
	},
})
