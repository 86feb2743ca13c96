package graph

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Builder methods of SameDiff's pooling ops (ops/cnn_pool.go).

// Pooling2DConfig holds the options of the 2-D pooling ops. Sizes are
// [height, width].
type Pooling2DConfig struct {
	// Kernel is the window's size; required.
	Kernel [2]int
	// Stride is the step between windows. Default (0) means 1.
	Stride [2]int
	// Pad is the explicit padding before and after each axis in PaddingValid
	// mode; PaddingSame computes its own. Default 0.
	Pad [2]int
	// Dilation spaces the window's cells. Default (0) means 1.
	Dilation [2]int
	// Padding is PaddingValid (default) or PaddingSame.
	Padding PaddingMode
	// DataFormat is NCHW (default) or NHWC (NCDHW or NDHWC in 3-D).
	DataFormat DataFormat
	// IncludePadding makes average pooling divide by the whole kernel's
	// size; by default (false) it divides by the cells inside the input.
	IncludePadding bool
	// P is p-norm pooling's exponent. Default (0) means 2.
	P int
}

// Pooling3DConfig holds the options of the 3-D pooling ops. Sizes are
// [depth, height, width]; the fields mean what Pooling2DConfig's do.
type Pooling3DConfig struct {
	Kernel, Stride, Pad, Dilation [3]int
	Padding                       PaddingMode
	DataFormat                    DataFormat
	IncludePadding                bool
}

// args2 lays a 2-D config out as libnd4j's int args with extraParam0.
func (c Pooling2DConfig) args(extra int64) ops.Args {
	return ops.Args{I: []int64{int64(c.Kernel[0]), int64(c.Kernel[1]), orOne(c.Stride[0]), orOne(c.Stride[1]),
		int64(c.Pad[0]), int64(c.Pad[1]), orOne(c.Dilation[0]), orOne(c.Dilation[1]), int64(c.Padding), extra, int64(c.DataFormat)}}
}

func (c Pooling3DConfig) args(extra int64) ops.Args {
	i := make([]int64, 0, 15)
	for j := 0; j < 3; j++ {
		i = append(i, int64(c.Kernel[j]))
	}
	for j := 0; j < 3; j++ {
		i = append(i, orOne(c.Stride[j]))
	}
	for j := 0; j < 3; j++ {
		i = append(i, int64(c.Pad[j]))
	}
	for j := 0; j < 3; j++ {
		i = append(i, orOne(c.Dilation[j]))
	}
	return ops.Args{I: append(i, int64(c.Padding), extra, int64(c.DataFormat))}
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// MaxPool2D is the maximum over each window of a 4-D image batch (op
// maxpool2d).
func (n CNN) MaxPool2D(x *Variable, cfg Pooling2DConfig) *Variable {
	return n.g.Apply("maxpool2d", cfg.args(0), x)
}

// AvgPool2D is the mean over each window (op avgpool2d); cfg.IncludePadding
// chooses the divisor.
func (n CNN) AvgPool2D(x *Variable, cfg Pooling2DConfig) *Variable {
	return n.g.Apply("avgpool2d", cfg.args(boolInt(cfg.IncludePadding)), x)
}

// PnormPool2D is (Σ|x|^p)^(1/p) over each window, p = cfg.P (op
// pnormpool2d).
func (n CNN) PnormPool2D(x *Variable, cfg Pooling2DConfig) *Variable {
	p := int64(cfg.P)
	if p == 0 {
		p = 2
	}
	return n.g.Apply("pnormpool2d", cfg.args(p), x)
}

// MaxPoolWithArgmax is MaxPool2D and the offset of each maximum within its
// sample's input, as int64 (op max_pool_with_argmax).
func (n CNN) MaxPoolWithArgmax(x *Variable, cfg Pooling2DConfig) (values, indices *Variable) {
	if x != nil && x.err != nil {
		return x, x
	}
	out, err := n.g.Op("max_pool_with_argmax", cfg.args(0), x)
	if err != nil {
		v := n.g.fail(err)
		return v, v
	}
	return out[0], out[1]
}

// MaxPool3D is the maximum over each window of a 5-D volume batch (op
// maxpool3dnew).
func (n CNN) MaxPool3D(x *Variable, cfg Pooling3DConfig) *Variable {
	return n.g.Apply("maxpool3dnew", cfg.args(0), x)
}

// AvgPool3D is the mean over each window of a 5-D volume batch (op
// avgpool3dnew); cfg.IncludePadding chooses the divisor.
func (n CNN) AvgPool3D(x *Variable, cfg Pooling3DConfig) *Variable {
	return n.g.Apply("avgpool3dnew", cfg.args(boolInt(cfg.IncludePadding)), x)
}

// SpaceToDepth moves each blockSize x blockSize block of a 4-D image batch
// into the channels, the block's row and column before the channel (op
// space_to_depth); format says where the channels are.
func (n CNN) SpaceToDepth(x *Variable, blockSize int, format DataFormat) *Variable {
	return n.g.Apply("space_to_depth", ops.Args{I: []int64{int64(blockSize), int64(format)}}, x)
}

// DepthToSpace is SpaceToDepth's inverse (op depth_to_space).
func (n CNN) DepthToSpace(x *Variable, blockSize int, format DataFormat) *Variable {
	return n.g.Apply("depth_to_space", ops.Args{I: []int64{int64(blockSize), int64(format)}}, x)
}

// isNCHW is upsampling's format flag: libnd4j reads 1 as channels first.
func (f DataFormat) isNCHW() int64 { return boolInt(f == NCHW) }

// Upsampling2D repeats each pixel factor[0] x factor[1] times (op
// upsampling2d).
func (n CNN) Upsampling2D(x *Variable, factor [2]int, format DataFormat) *Variable {
	return n.g.Apply("upsampling2d", ops.Args{I: []int64{int64(factor[0]), int64(factor[1]), format.isNCHW()}}, x)
}

// Upsampling3D repeats each voxel factor[0] x factor[1] x factor[2] times
// (op upsampling3d).
func (n CNN) Upsampling3D(x *Variable, factor [3]int, format DataFormat) *Variable {
	return n.g.Apply("upsampling3d", ops.Args{I: []int64{int64(factor[0]), int64(factor[1]), int64(factor[2]), format.isNCHW()}}, x)
}

// SpaceToBatchConfig holds the options of SpaceToBatch and BatchToSpace.
type SpaceToBatchConfig struct {
	// BlockSize is the side of the square blocks moved between the image
	// and the batch; required (at least 1; SameDiff's files hold 2 or more).
	BlockSize int
	// Edges are the zeros added before and after the height and the width
	// ({{top, bottom}, {left, right}}) by SpaceToBatch, or the cells cut
	// off by BatchToSpace. Default none.
	Edges [2][2]int
}

// edges is the [2, 2] int64 constant the ops take as input 1.
func (c SpaceToBatchConfig) edges(g *Graph) *Variable {
	e := []int64{int64(c.Edges[0][0]), int64(c.Edges[0][1]), int64(c.Edges[1][0]), int64(c.Edges[1][1])}
	return g.Const("", ndarray.Must(ndarray.FromSlice(e, 2, 2)))
}

// SpaceToBatch pads a 4-D NHWC image batch by cfg.Edges and moves each
// cell of its BlockSize x BlockSize blocks into its own batch: the output
// has BlockSize² times the batch, the block's row and column before the
// sample (op space_to_batch).
func (n CNN) SpaceToBatch(x *Variable, cfg SpaceToBatchConfig) *Variable {
	return n.g.Apply("space_to_batch", ops.Args{I: []int64{int64(cfg.BlockSize)}}, x, cfg.edges(n.g))
}

// BatchToSpace is SpaceToBatch's inverse: BlockSize² batches interleaved
// into blocks of the image, cropped by cfg.Edges (op batch_to_space).
func (n CNN) BatchToSpace(x *Variable, cfg SpaceToBatchConfig) *Variable {
	return n.g.Apply("batch_to_space", ops.Args{I: []int64{int64(cfg.BlockSize)}}, x, cfg.edges(n.g))
}

// SpaceToBatchNDConfig holds the options of SpaceToBatchND and
// BatchToSpaceND.
type SpaceToBatchNDConfig struct {
	// Blocks are the block sizes of the M axes after the batch; required
	// (each at least 1).
	Blocks []int
	// Edges are the cells added before and after each of those axes by
	// SpaceToBatchND, or cut off by BatchToSpaceND. Default (nil) none.
	Edges [][2]int
}

// ndInputs are the blocks vector and the [M, 2] edges the _nd ops take as
// inputs 1 and 2.
func (c SpaceToBatchNDConfig) ndInputs(g *Graph) (*Variable, *Variable) {
	m := len(c.Blocks)
	b, e := make([]int64, m), make([]int64, 2*m)
	for i, v := range c.Blocks {
		b[i] = int64(v)
	}
	for i := 0; i < m && i < len(c.Edges); i++ {
		e[2*i], e[2*i+1] = int64(c.Edges[i][0]), int64(c.Edges[i][1])
	}
	if len(c.Edges) > m {
		return g.fail(fmt.Errorf("graph: space_to_batch_nd: %d edges for %d blocks", len(c.Edges), m)), nil
	}
	return g.Const("", ndarray.Must(ndarray.FromSlice(b, m))), g.Const("", ndarray.Must(ndarray.FromSlice(e, m, 2)))
}

// SpaceToBatchND is SpaceToBatch over the M axes after the batch, M =
// len(cfg.Blocks), with a block size per axis; the axes after them move
// along (op space_to_batch_nd).
func (n CNN) SpaceToBatchND(x *Variable, cfg SpaceToBatchNDConfig) *Variable {
	b, e := cfg.ndInputs(n.g)
	return n.g.Apply("space_to_batch_nd", ops.Args{}, x, b, e)
}

// BatchToSpaceND is SpaceToBatchND's inverse (op batch_to_space_nd).
func (n CNN) BatchToSpaceND(x *Variable, cfg SpaceToBatchNDConfig) *Variable {
	b, e := cfg.ndInputs(n.g)
	return n.g.Apply("batch_to_space_nd", ops.Args{}, x, b, e)
}
