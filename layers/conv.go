package layers

import (
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/weightinit"
)

// ConvConfig holds the options of the convolution layers; the arrays have
// one entry per spatial axis (Conv1D reads entry 0, Conv2D entries 0 and
// 1, Conv3D all three).
type ConvConfig struct {
	// Filters is the number of output channels; required.
	Filters int
	// Kernel is the window's size; required.
	Kernel [3]int
	// Stride is the step between windows. Default (0) means 1.
	Stride [3]int
	// Pad is the explicit padding on each side in PaddingValid mode.
	// Default 0.
	Pad [3]int
	// Dilation spaces the window's cells. Default (0) means 1.
	Dilation [3]int
	// Padding is the padding mode. Default graph.PaddingValid; Conv1D
	// takes graph.PaddingCausal too.
	Padding graph.PaddingMode
	// ChannelsLast says the data is [batch, spatial..., channels] (NWC,
	// NHWC, NDHWC). Default false: [batch, channels, spatial...].
	ChannelsLast bool
	// Init draws the kernel, with fans computed as DL4J does
	// (weightinit.ConvFans: fan-in iC·∏k, fan-out oC·∏k/∏stride). Default
	// weightinit.Xavier.
	Init weightinit.Initializer
	// BiasInit draws the bias [Filters]. Default zeros.
	BiasInit weightinit.Initializer
	// NoBias leaves the bias out.
	NoBias bool
	// Activation is applied to the convolution's output. Default none.
	Activation Activation
}

func (c ConvConfig) format() graph.DataFormat {
	if c.ChannelsLast {
		return graph.NHWC
	}
	return graph.NCHW
}

// conv checks x and the config and adds the kernel name/W
// [k..., iC, Filters] (libnd4j's default weight layout) and the bias
// name/b; n is the number of spatial axes.
func (b *Builder) conv(kind, name string, x *graph.Variable, n int, layout string, cfg ConvConfig) (l *layer, w, bias, bad *graph.Variable) {
	l = b.layer(kind, name)
	if bad = l.input(x, layout, n+2); bad != nil {
		return l, nil, nil, bad
	}
	cAxis := 1
	if cfg.ChannelsLast {
		cAxis = n + 1
	}
	iC, bad := l.known(x, cAxis, "number of channels")
	if bad != nil {
		return l, nil, nil, bad
	}
	if cfg.Filters <= 0 {
		return l, nil, nil, l.fail("Filters is %d; it must be at least 1", cfg.Filters)
	}
	// The kernel is drawn in DL4J's layout [oC, iC, k...], which the
	// initializers' fans and their identity and orthogonal shapes read,
	// then laid out as [k..., iC, oC] for the op.
	shape := []int{cfg.Filters, iC}
	strides := make([]int, n)
	for i := 0; i < n; i++ {
		if cfg.Kernel[i] <= 0 {
			return l, nil, nil, l.fail("kernel %v: every size must be at least 1", cfg.Kernel[:n])
		}
		shape = append(shape, cfg.Kernel[i])
		strides[i] = max(cfg.Stride[i], 1)
	}
	fans, err := weightinit.ConvFans(shape, strides...)
	if err != nil {
		return l, nil, nil, l.fail("%v", err)
	}
	in := cfg.Init
	if in == nil {
		in = weightinit.Xavier
	}
	b.shared.mu.Lock()
	a, err := weightinit.NewFans(in, b.dt, b.shared.rng, fans, shape...)
	b.shared.mu.Unlock()
	if err == nil {
		perm := make([]int, 0, n+2)
		for i := 0; i < n; i++ {
			perm = append(perm, i+2)
		}
		if a, err = ndarray.Permute(a, append(perm, 1, 0)...); err == nil {
			a, err = ndarray.Copy(a)
		}
	}
	if err != nil {
		return l, nil, nil, l.fail("kernel: %v", err)
	}
	w = b.g.Var(l.name+"/W", a)
	if !cfg.NoBias {
		bias = l.bias("b", cfg.BiasInit, cfg.Filters)
	}
	return l, w, bias, firstErr(w, bias)
}

// Conv1D convolves x [batch, channels, width] (or [batch, width,
// channels] with ChannelsLast) with the kernel name/W [k, channels,
// Filters] and adds the bias name/b (op conv1d).
func (b *Builder) Conv1D(name string, x *graph.Variable, cfg ConvConfig) *graph.Variable {
	_, w, bias, bad := b.conv("Conv1D", name, x, 1, "[batch, channels, width]", cfg)
	if bad != nil {
		return bad
	}
	return cfg.Activation.apply(b.g.CNN().Conv1D(x, w, bias, graph.Conv1DConfig{
		Kernel: cfg.Kernel[0], Stride: cfg.Stride[0], Pad: cfg.Pad[0], Dilation: cfg.Dilation[0],
		Padding: cfg.Padding, DataFormat: cfg.format()}))
}

// Conv2D convolves x [batch, channels, height, width] (or NHWC with
// ChannelsLast) with the kernel name/W [kH, kW, channels, Filters] and
// adds the bias name/b (op conv2d).
func (b *Builder) Conv2D(name string, x *graph.Variable, cfg ConvConfig) *graph.Variable {
	_, w, bias, bad := b.conv("Conv2D", name, x, 2, "[batch, channels, height, width]", cfg)
	if bad != nil {
		return bad
	}
	return cfg.Activation.apply(b.g.CNN().Conv2D(x, w, bias, graph.Conv2DConfig{
		Kernel: [2]int(cfg.Kernel[:2]), Stride: [2]int(cfg.Stride[:2]), Pad: [2]int(cfg.Pad[:2]),
		Dilation: [2]int(cfg.Dilation[:2]), Padding: cfg.Padding, DataFormat: cfg.format()}))
}

// Conv3D convolves x [batch, channels, depth, height, width] (or NDHWC
// with ChannelsLast) with the kernel name/W [kD, kH, kW, channels,
// Filters] and adds the bias name/b (op conv3dnew).
func (b *Builder) Conv3D(name string, x *graph.Variable, cfg ConvConfig) *graph.Variable {
	_, w, bias, bad := b.conv("Conv3D", name, x, 3, "[batch, channels, depth, height, width]", cfg)
	if bad != nil {
		return bad
	}
	return cfg.Activation.apply(b.g.CNN().Conv3D(x, w, bias, graph.Conv3DConfig{
		Kernel: cfg.Kernel, Stride: cfg.Stride, Pad: cfg.Pad, Dilation: cfg.Dilation,
		Padding: cfg.Padding, DataFormat: cfg.format()}))
}

// PoolConfig holds the pooling layers' options; the arrays have one entry
// per spatial axis (2-D pooling reads entries 0 and 1).
type PoolConfig struct {
	// Kernel is the window's size; required.
	Kernel [3]int
	// Stride is the step between windows. Default (0): the kernel's size,
	// windows that do not overlap.
	Stride [3]int
	// Pad is the explicit padding on each side in PaddingValid mode.
	// Default 0.
	Pad [3]int
	// Padding is graph.PaddingValid (the default) or graph.PaddingSame.
	Padding graph.PaddingMode
	// ChannelsLast says the data is NHWC (NDHWC). Default NCHW (NCDHW).
	ChannelsLast bool
	// IncludePadding makes average pooling divide by the whole window's
	// size; by default it divides by the cells inside the input.
	IncludePadding bool
}

// pool checks x and the config and returns the window's stride and the
// data format.
func (b *Builder) pool(kind string, x *graph.Variable, n int, cfg PoolConfig) (stride [3]int, f graph.DataFormat, bad *graph.Variable) {
	l := b.layer(kind, "")
	layout := "[batch, channels, height, width]"
	if n == 3 {
		layout = "[batch, channels, depth, height, width]"
	}
	if bad = l.input(x, layout, n+2); bad != nil {
		return stride, f, bad
	}
	for i := 0; i < n; i++ {
		if cfg.Kernel[i] <= 0 {
			return stride, f, l.fail("kernel %v: every size must be at least 1", cfg.Kernel[:n])
		}
		stride[i] = cfg.Stride[i]
		if stride[i] == 0 {
			stride[i] = cfg.Kernel[i]
		}
	}
	if cfg.ChannelsLast {
		f = graph.NHWC
	}
	return stride, f, nil
}

// pool2 adds a 2-D pooling op after the layer's checks.
func (b *Builder) pool2(kind string, x *graph.Variable, c PoolConfig, op func(*graph.Variable, graph.Pooling2DConfig) *graph.Variable) *graph.Variable {
	s, f, bad := b.pool(kind, x, 2, c)
	if bad != nil {
		return bad
	}
	return op(x, graph.Pooling2DConfig{Kernel: [2]int(c.Kernel[:2]), Stride: [2]int(s[:2]), Pad: [2]int(c.Pad[:2]),
		Padding: c.Padding, DataFormat: f, IncludePadding: c.IncludePadding})
}

// pool3 adds a 3-D pooling op after the layer's checks.
func (b *Builder) pool3(kind string, x *graph.Variable, c PoolConfig, op func(*graph.Variable, graph.Pooling3DConfig) *graph.Variable) *graph.Variable {
	s, f, bad := b.pool(kind, x, 3, c)
	if bad != nil {
		return bad
	}
	return op(x, graph.Pooling3DConfig{Kernel: c.Kernel, Stride: s, Pad: c.Pad, Padding: c.Padding, DataFormat: f, IncludePadding: c.IncludePadding})
}

// MaxPool2D is the maximum over each window of x [batch, channels, height,
// width] (op maxpool2d).
func (b *Builder) MaxPool2D(x *graph.Variable, cfg PoolConfig) *graph.Variable {
	return b.pool2("MaxPool2D", x, cfg, b.g.CNN().MaxPool2D)
}

// AvgPool2D is the mean over each window of x [batch, channels, height,
// width] (op avgpool2d).
func (b *Builder) AvgPool2D(x *graph.Variable, cfg PoolConfig) *graph.Variable {
	return b.pool2("AvgPool2D", x, cfg, b.g.CNN().AvgPool2D)
}

// MaxPool3D is the maximum over each window of x [batch, channels, depth,
// height, width] (op maxpool3dnew).
func (b *Builder) MaxPool3D(x *graph.Variable, cfg PoolConfig) *graph.Variable {
	return b.pool3("MaxPool3D", x, cfg, b.g.CNN().MaxPool3D)
}

// AvgPool3D is the mean over each window of x [batch, channels, depth,
// height, width] (op avgpool3dnew).
func (b *Builder) AvgPool3D(x *graph.Variable, cfg PoolConfig) *graph.Variable {
	return b.pool3("AvgPool3D", x, cfg, b.g.CNN().AvgPool3D)
}
