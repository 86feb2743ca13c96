package layers

import (
	"fmt"
	"strings"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
)

// BatchNormConfig holds a BatchNorm layer's options.
type BatchNormConfig struct {
	// ChannelsLast says the channels (features) are x's last axis. Default
	// false: axis 1, the channels of NCHW data and the features of
	// [batch, features].
	ChannelsLast bool
	// Epsilon is added to the variance before its square root. Default (0)
	// means 1e-5.
	Epsilon float64
}

// BatchNorm normalizes x [batch, channels, ...] per channel,
// (x - mean)/√(variance + ε)·gamma + beta (op batchnorm), with the
// trainable VARIABLEs name/gamma (ones) and name/beta (zeros). For
// training, mean and variance are the batch's, over every axis but the
// channels' (op moments, the variance divided by n), and are named
// name/batch_mean and name/batch_variance; for inference they are the
// CONSTANTs name/mean (zeros) and name/variance (ones), which a training
// graph holds too. A run changes no stored value, so no running average
// moves during training: SetBatchNormStats sets those constants from the
// batch statistics of the trained graph afterwards.
func (b *Builder) BatchNorm(name string, x *graph.Variable, cfg BatchNormConfig) *graph.Variable {
	l := b.layer("BatchNorm", name)
	if bad := l.input(x, "[batch, channels, ...]", 2, 3, 4, 5); bad != nil {
		return bad
	}
	axis := 1
	if cfg.ChannelsLast {
		axis = len(x.Shape()) - 1
	}
	c, bad := l.known(x, axis, "number of channels")
	if bad != nil {
		return bad
	}
	gamma := l.filled(graph.VARIABLE, "gamma", 1, c)
	beta := l.filled(graph.VARIABLE, "beta", 0, c)
	mean := l.filled(graph.CONSTANT, "mean", 0, c)
	variance := l.filled(graph.CONSTANT, "variance", 1, c)
	if bad := firstErr(gamma, beta, mean, variance); bad != nil {
		return bad
	}
	if b.training {
		var axes []int
		for i := range x.Shape() {
			if i != axis {
				axes = append(axes, i)
			}
		}
		mean, variance = b.g.Math().Moments(x, false, axes...)
		mean, variance = mean.Named(l.name+"/batch_mean"), variance.Named(l.name+"/batch_variance")
	}
	return b.g.NN().BatchNorm(x, mean, variance, gamma, beta, graph.BatchNormConfig{Epsilon: cfg.Epsilon, Axes: []int{axis}})
}

// LayerNormConfig holds a LayerNorm layer's options.
type LayerNormConfig struct {
	// NoBias leaves the bias out.
	NoBias bool
}

// LayerNorm standardizes x [..., features] over its last axis and scales
// and shifts it per feature: (x - mean)/σ·gain + bias, σ the population
// standard deviation (op layer_norm, which adds no ε: a row whose σ is 0
// becomes 0), with the VARIABLEs name/gain (ones) and name/b (zeros).
func (b *Builder) LayerNorm(name string, x *graph.Variable, cfg LayerNormConfig) *graph.Variable {
	l := b.layer("LayerNorm", name)
	if bad := l.input(x, "[batch, ..., features]", 2, 3, 4, 5); bad != nil {
		return bad
	}
	last := len(x.Shape()) - 1
	f, bad := l.known(x, last, "number of features")
	if bad != nil {
		return bad
	}
	gain := l.filled(graph.VARIABLE, "gain", 1, f)
	var bias *graph.Variable
	if !cfg.NoBias {
		bias = l.bias("b", nil, f)
	}
	if bad := firstErr(gain, bias); bad != nil {
		return bad
	}
	return b.g.NN().LayerNorm(x, gain, bias, graph.LayerNormConfig{Axes: []int{last}, ChannelsLast: true})
}

// SetBatchNormStats runs the training graph trained (built WithTraining)
// on each batch of feeds and sets the CONSTANTs name/mean and
// name/variance of every BatchNorm layer of infer to the average of the
// batch means and of the batch variances, each made unbiased
// (·m/(m-1), m the values per channel in a batch, as PyTorch keeps its
// running variance): the population statistics inference normalizes with.
// Layers are matched by name; a layer of infer that trained lacks is an
// error naming it, and nothing is set then.
func SetBatchNormStats(infer, trained *graph.Graph, feeds []map[string]*ndarray.Array) error {
	type stat struct {
		layer, input string
		mean, vari   []float64 // sums over the batches
	}
	var stats []*stat
	var outs []string
	for _, v := range infer.VariablesOf(graph.CONSTANT) {
		n, ok := strings.CutSuffix(v.Name(), "/mean")
		if _, isBN := infer.Variable(n + "/gamma"); !ok || !isBN {
			continue
		}
		m, ok := trained.Variable(n + "/batch_mean")
		if !ok || m.Op() == nil {
			return fmt.Errorf("layers: BatchNorm statistics: the training graph has no %q for layer %q (built WithTraining?)", n+"/batch_mean", n)
		}
		st := &stat{layer: n, input: m.Op().Inputs()[0].Name()}
		stats = append(stats, st)
		outs = append(outs, n+"/batch_mean", n+"/batch_variance", st.input)
	}
	if len(stats) == 0 {
		return fmt.Errorf("layers: BatchNorm statistics: the inference graph has no BatchNorm layer")
	}
	if len(feeds) == 0 {
		return fmt.Errorf("layers: BatchNorm statistics: no batches")
	}
	s := exec.New(trained)
	for i, f := range feeds {
		vals, err := s.Output(f, outs...)
		if err != nil {
			return fmt.Errorf("layers: BatchNorm statistics: batch %d: %w", i, err)
		}
		for _, st := range stats {
			mean, vari := vals[st.layer+"/batch_mean"].Float64s(), vals[st.layer+"/batch_variance"].Float64s()
			m := vals[st.input].Size() / len(mean)
			if m < 2 {
				return fmt.Errorf("layers: BatchNorm statistics: batch %d has %d value per channel for layer %q; a variance needs 2 or more", i, m, st.layer)
			}
			if st.mean == nil {
				st.mean, st.vari = make([]float64, len(mean)), make([]float64, len(mean))
			}
			for k := range mean {
				st.mean[k] += mean[k]
				st.vari[k] += vari[k] * float64(m) / float64(m-1)
			}
		}
	}
	type update struct {
		v *graph.Variable
		a *ndarray.Array
	}
	var ups []update
	for _, st := range stats {
		for suffix, sum := range map[string][]float64{"/mean": st.mean, "/variance": st.vari} {
			dst, _ := infer.Variable(st.layer + suffix)
			avg := make([]float64, len(sum))
			for k, v := range sum {
				avg[k] = v / float64(len(feeds))
			}
			a, err := ndarray.Cast(ndarray.Must(ndarray.FromSlice(avg, len(avg))), dst.DType())
			if err != nil {
				return fmt.Errorf("layers: BatchNorm statistics: %w", err)
			}
			if !ndarray.SameShape(a.Shape(), dst.Shape()) {
				return fmt.Errorf("layers: BatchNorm statistics: layer %q has %d channels in training, %v for inference", st.layer, len(avg), dst.Shape())
			}
			ups = append(ups, update{dst, a})
		}
	}
	for _, u := range ups {
		if err := u.v.SetValue(u.a); err != nil {
			return fmt.Errorf("layers: BatchNorm statistics: %w", err)
		}
	}
	return nil
}
