// Command gomlx is the GoMLX peer of `go run ./bench` (bench/gomlx.go
// builds and runs it; it is not meant to be run by hand). It lives in a
// module of its own so that sdgo's module does not depend on GoMLX. It
// builds the model named on the command line on GoMLX's pure-Go simplego
// backend, from the arrays of a .npz file the bench wrote (the batch and
// sdgo's initial parameters), prints the loss of its first training step,
// then answers "run N" lines on stdin with the seconds N more steps took:
// the protocol of torch_peer.py.
//
//	gomlx MODEL DTYPE THREADS FILE.npz
package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/train"
	"github.com/gomlx/gomlx/pkg/ml/train/losses"
	"github.com/gomlx/gomlx/pkg/ml/train/optimizers"

	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ndarray/npy"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gomlx peer:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 4 {
		return fmt.Errorf("usage: gomlx MODEL DTYPE THREADS FILE.npz")
	}
	model, dtype, path := args[0], args[1], args[3]
	threads, err := strconv.Atoi(args[2])
	if err != nil || threads < 1 {
		return fmt.Errorf("threads %q", args[2])
	}
	if model != "mlp" {
		return fmt.Errorf("unknown model %q", model)
	}
	runtime.GOMAXPROCS(threads)
	// The protocol owns stdout; GoMLX prints notes of its own there.
	proto := bufio.NewWriter(os.Stdout)
	os.Stdout = os.Stderr
	arrays, err := npy.ReadNPZFile(path)
	if err != nil {
		return err
	}
	var step func() (float64, error)
	switch dtype {
	case "float32":
		step, err = mlp[float32](arrays, threads)
	case "float64":
		step, err = mlp[float64](arrays, threads)
	default:
		err = fmt.Errorf("dtype %q", dtype)
	}
	if err != nil {
		return err
	}
	loss, err := step()
	if err != nil {
		return err
	}
	fmt.Fprintf(proto, "loss %v\n", loss)
	proto.Flush()
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		words := strings.Fields(in.Text())
		if len(words) == 0 {
			continue
		}
		n, err := strconv.Atoi(words[len(words)-1])
		if words[0] != "run" || len(words) != 2 || err != nil {
			return fmt.Errorf("unknown request %q", in.Text())
		}
		start := time.Now()
		for i := 0; i < n; i++ {
			if _, err := step(); err != nil {
				return err
			}
		}
		fmt.Fprintf(proto, "seconds %v\n", time.Since(start).Seconds())
		proto.Flush()
	}
	return in.Err()
}

// tensorOf converts an sdgo array to a GoMLX tensor of T.
func tensorOf[T float32 | float64](a *ndarray.Array) (*tensors.Tensor, error) {
	if a == nil {
		return nil, fmt.Errorf("an array is missing")
	}
	c, err := ndarray.Cast(a, map[bool]ndarray.DType{true: ndarray.Float32, false: ndarray.Float64}[isFloat32[T]()])
	if err != nil {
		return nil, err
	}
	return tensors.FromFlatDataAndDimensions(ndarray.Values[T](c), c.Shape()...), nil
}

func isFloat32[T float32 | float64]() bool {
	var z T
	_, ok := any(z).(float32)
	return ok
}

// mlp is the bench's MLP: dense layers w0/b0, w1/b1, ... with relu between
// them, softmax cross-entropy averaged over the batch, Adam (lr 1e-3,
// β 0.9/0.999, ε 1e-8), trained by GoMLX's train.Trainer.
//
// GoMLX v0.26.0 differentiates a matrix product (dotVJP, dotGeneralVJP in
// pkg/core/graph) as a broadcast multiply of [i, j, k] elements summed
// over one axis, which XLA fuses but simplego runs as written: a step of
// this MLP makes and sums 128·784·512 products per weight gradient, so it
// takes seconds. That is GoMLX's pure-Go training as a user gets it; the
// bench reports it as measured.
func mlp[T float32 | float64](arrays map[string]*ndarray.Array, threads int) (func() (float64, error), error) {
	backend, err := simplego.New("parallelism=" + strconv.Itoa(threads))
	if err != nil {
		return nil, err
	}
	x, err := tensorOf[T](arrays["x"])
	if err != nil {
		return nil, fmt.Errorf("x: %w", err)
	}
	y, err := tensorOf[T](arrays["y"])
	if err != nil {
		return nil, fmt.Errorf("y: %w", err)
	}
	ctx := context.New()
	var layers int
	for ; arrays[fmt.Sprintf("w%d", layers)] != nil; layers++ {
		for _, name := range []string{"w", "b"} {
			t, err := tensorOf[T](arrays[fmt.Sprintf("%s%d", name, layers)])
			if err != nil {
				return nil, fmt.Errorf("%s%d: %w", name, layers, err)
			}
			ctx.In(fmt.Sprintf("layer%d", layers)).VariableWithValue(name, t)
		}
	}
	model := func(ctx *context.Context, _ any, inputs []*graph.Node) []*graph.Node {
		g, h := inputs[0].Graph(), inputs[0]
		for i := 0; i < layers; i++ {
			c := ctx.In(fmt.Sprintf("layer%d", i)).Reuse()
			w := c.GetVariableByScopeAndName(c.Scope(), "w").ValueGraph(g)
			b := c.GetVariableByScopeAndName(c.Scope(), "b").ValueGraph(g)
			h = graph.Add(graph.Dot(h, w), graph.ExpandAxes(b, 0))
			if i < layers-1 {
				h = graph.Max(h, graph.ZerosLike(h))
			}
		}
		return []*graph.Node{h}
	}
	opt := optimizers.Adam().LearningRate(1e-3).Betas(0.9, 0.999).Epsilon(1e-8).Done()
	trainer := train.NewTrainer(backend, ctx, model, losses.CategoricalCrossEntropyLogits, opt, nil, nil)
	inputs, labels := []*tensors.Tensor{x}, []*tensors.Tensor{y}
	return func() (float64, error) {
		m, err := trainer.TrainStep(nil, inputs, labels)
		if err != nil {
			return 0, err
		}
		return float64(tensors.ToScalar[T](m[0])), nil
	}, nil
}
