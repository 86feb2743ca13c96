package opcases

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/ndarray"
)

// cancelBefore is a listener that cancels the run's context just before
// an op of the given type runs: the executor has asked the context
// already, so only the op's own checks can stop it.
type cancelBefore struct {
	op     string
	cancel context.CancelFunc
	seen   bool
}

func (l *cancelBefore) PreOp(ev *exec.OpEvent) error {
	if ev.Op.OpName() == l.op {
		l.seen = true
		l.cancel()
	}
	return nil
}

func (l *cancelBefore) PostOp(*exec.OpEvent) error { return nil }

// The ops with long loops of their own (recurrences over time steps,
// depthwise convolution, pooling, factorizations) ask the run's context as
// they go: a run stopped while one runs ends in it, as matmul and the
// convolutions do between GEMM panels (issue 23: -timeout was asked only
// between ops).
func TestLongOpsAskTheContext(t *testing.T) {
	for _, op := range []string{
		"gru", "gru_bp", "lstmBlock", "lstmBlock_bp", "lstmLayer", "lstmLayer_bp", "sru", "sru_bp",
		"depthwise_conv2d", "depthwise_conv2d_bp",
		"maxpool2d", "maxpool2d_bp", "avgpool2d", "pnormpool2d", "maxpool3dnew", "avgpool3dnew_bp",
		"matrix_inverse", "matrix_determinant", "logdet", "cholesky", "lu", "qr", "svd", "solve", "triangular_solve", "lstsq",
	} {
		ran := false
		for _, c := range For(op) {
			tc := c.Build()
			if tc.BuildErr != nil || len(tc.Expected) == 0 {
				continue
			}
			ctx, cancel := context.WithCancel(context.Background())
			l := &cancelBefore{op: op, cancel: cancel}
			names := make([]string, len(tc.Expected))
			for i, e := range tc.Expected {
				names[i] = e.Name
			}
			_, err := exec.New(tc.Graph).Exec(exec.Request{Feeds: tc.Feeds, Outputs: names, Context: ctx, Listeners: []exec.Listener{l}})
			cancel()
			if !l.seen {
				continue // the case's outputs do not need the op itself
			}
			ran = true
			if !errors.Is(err, ndarray.ErrStopped) || !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "run stopped in op") {
				t.Errorf("%s (%s): %v, want the op stopped by the cancelled context", op, c.Name, err)
			}
			break
		}
		if !ran {
			t.Errorf("%s: no case runs the op", op)
		}
	}
}
