package ops

import (
	"fmt"

	"github.com/sdgo/sdgo/ndarray"
)

// Ops of SameDiff's base namespace that compare (equals, less, ...) and
// the boolean ops on bool arrays.

// Comparisons give bool arrays.

func compareDef(name string, op ndarray.CompareOp, doc string) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: 2, MaxIn: 2, Doc: doc,
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			o, err := BroadcastInfo(in[0], in[1])
			if err != nil {
				return nil, err
			}
			if in[0].DType == ndarray.Bool && op != ndarray.Eq && op != ndarray.Ne {
				return nil, fmt.Errorf("%s is not defined on bool inputs", name)
			}
			o.DType = ndarray.Bool
			return infos(o), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
			return one(compareFor(c, op, in[0], in[1]))
		},
	}
}

var (
	equalsOp       = Register(compareDef("equals", ndarray.Eq, "x == y"))
	notEqualsOp    = Register(compareDef("not_equals", ndarray.Ne, "x != y"))
	lessOp         = Register(compareDef("less", ndarray.Lt, "x < y"))
	lessEqualOp    = Register(compareDef("less_equal", ndarray.Le, "x <= y"))
	greaterOp      = Register(compareDef("greater", ndarray.Gt, "x > y"))
	greaterEqualOp = Register(compareDef("greater_equal", ndarray.Ge, "x >= y"))
)

func logicDef(name string, op ndarray.LogicOp, doc string) *Def {
	return &Def{
		Name: name, Type: Custom, MinIn: 2, MaxIn: 2, Doc: doc,
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			if in[0].DType != ndarray.Bool || in[1].DType != ndarray.Bool {
				return nil, fmt.Errorf("%s needs bool inputs, not %v and %v", name, in[0].DType, in[1].DType)
			}
			o, err := BroadcastInfo(in[0], in[1])
			if err != nil {
				return nil, err
			}
			return infos(o), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) {
			return one(ndarray.Logic(op, in[0], in[1]))
		},
	}
}

var (
	andOp = Register(logicDef("boolean_and", ndarray.And, "x AND y"))
	orOp  = Register(logicDef("boolean_or", ndarray.Or, "x OR y"))
	xorOp = Register(logicDef("boolean_xor", ndarray.Xor, "x XOR y"))
	notOp = Register(&Def{
		Name: "boolean_not", Type: Custom, MinIn: 1, MaxIn: 1, Doc: "NOT x",
		Infer: func(in []Info, _ *Args) ([]Info, error) {
			if in[0].DType != ndarray.Bool {
				return nil, fmt.Errorf("boolean_not needs a bool input, not %v", in[0].DType)
			}
			return infos(same(in[0])), nil
		},
		Run: func(c *Ctx, in []*ndarray.Array, _ *Args) ([]*ndarray.Array, error) { return one(ndarray.Not(in[0])) },
	})
)
