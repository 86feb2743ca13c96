package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// Softmax-like ops along one axis: integer argument 0 (default -1, the last).

func softmaxDef(name string, logForm bool, doc string) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: 1, MaxIn: 1, Doc: doc,
		Infer: func(in []Info, a *Args) ([]Info, error) {
			if err := needFloat(name, in[0]); err != nil {
				return nil, err
			}
			if !in[0].UnknownRank {
				if len(in[0].Shape) == 0 {
					return nil, fmt.Errorf("%s of a scalar", name)
				}
				if _, err := ndarray.NormAxes([]int{int(a.Int(0, -1))}, len(in[0].Shape)); err != nil {
					return nil, fmt.Errorf("%s of shape %v: %w", name, in[0].Shape, err)
				}
			}
			return infos(same(in[0])), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, a *Args) ([]*ndarray.Array, error) {
			if logForm {
				return one(ndarray.LogSoftmax(in[0], int(a.Int(0, -1))))
			}
			return one(ndarray.Softmax(in[0], int(a.Int(0, -1))))
		},
	}
}

var (
	SoftmaxOp    = Register(softmaxDef("softmax", false, "e^x / Σe^x along an axis (int arg 0, default -1)"))
	LogSoftmaxOp = Register(softmaxDef("log_softmax", true, "x - log Σe^x along an axis (int arg 0, default -1)"))
)
