package ndarray

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Compare and Logic agree with a per-element reference on every op, on
// packed operands, scalars on either side, broadcast rows and columns, and
// stepped and padded layouts, with lengths that are not multiples of eight
// and NaN among the values.
func TestCompareLogicReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	const r, c = 5, 19
	vals := func() []float64 {
		v := make([]float64, r*c)
		for i := range v {
			v[i] = float64(rng.IntN(5) - 2)
		}
		v[3] = math.NaN()
		return v
	}
	xv, yv := vals(), vals()
	x, y := f64(t, []int{r, c}, xv...), f64(t, []int{r, c}, yv...)
	row, col := f64(t, []int{c}, yv[:c]...), f64(t, []int{r, 1}, yv[:r]...)
	s := Scalar(0.0)
	ys := map[string]*Array{"packed": y, "row": row, "col": col, "scalar": s}
	ref := [...]func(a, b float64) bool{
		Eq: func(a, b float64) bool { return a == b },
		Ne: func(a, b float64) bool { return a != b },
		Lt: func(a, b float64) bool { return a < b },
		Le: func(a, b float64) bool { return a <= b },
		Gt: func(a, b float64) bool { return a > b },
		Ge: func(a, b float64) bool { return a >= b },
	}
	check := func(name string, got *Array, want func(i, j int) bool) {
		t.Helper()
		assertShape(t, got, r, c)
		g := Values[bool](got)
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				if g[i*c+j] != want(i, j) {
					t.Fatalf("%s: element (%d,%d) is %v", name, i, j, g[i*c+j])
				}
			}
		}
	}
	for op := Eq; op <= Ge; op++ {
		for yn, yy := range ys {
			for _, dt := range []DType{Float32, Float64, Int32, Int64} {
				xc, yc := Must(Cast(x, dt)), Must(Cast(yy, dt))
				xf, yf := xc.Float64s(), yc.Float64s()
				yAtC := func(i, j int) float64 {
					switch yn {
					case "row":
						return yf[j]
					case "col":
						return yf[i]
					case "scalar":
						return yf[0]
					}
					return yf[i*c+j]
				}
				forms := map[string][2]*Array{"packed": {xc, yc}, "stepped": {strided(t, xc), strided(t, yc)}, "padded": {padded(t, xc), padded(t, yc)}}
				for fn, f := range forms {
					got := Must(Compare(op, f[0], f[1]))
					check(op.String()+"/"+yn+"/"+fn+"/"+dt.String(), got, func(i, j int) bool { return ref[op](xf[i*c+j], yAtC(i, j)) })
					// The same with the operands swapped (scalar on the left).
					got = Must(Compare(op, f[1], f[0]))
					check(op.String()+"/swapped/"+yn+"/"+fn+"/"+dt.String(), got, func(i, j int) bool { return ref[op](yAtC(i, j), xf[i*c+j]) })
				}
			}
		}
	}
	// Bool operands: Eq, Ne and the logic ops.
	bx, by := Must(Compare(Gt, x, s)), Must(Compare(Lt, y, s))
	xb, yb := Values[bool](bx), Values[bool](by)
	bref := map[string]func(a, b bool) bool{
		"eq": func(a, b bool) bool { return a == b }, "ne": func(a, b bool) bool { return a != b },
		"and": func(a, b bool) bool { return a && b }, "or": func(a, b bool) bool { return a || b },
		"xor": func(a, b bool) bool { return a != b },
	}
	run := func(name string, a, b *Array) *Array {
		switch name {
		case "eq":
			return Must(Compare(Eq, a, b))
		case "ne":
			return Must(Compare(Ne, a, b))
		case "and":
			return Must(Logic(And, a, b))
		case "or":
			return Must(Logic(Or, a, b))
		}
		return Must(Logic(Xor, a, b))
	}
	for name, f := range bref {
		for fn, ops := range map[string][2]*Array{"packed": {bx, by}, "stepped": {strided(t, bx), strided(t, by)}, "padded": {padded(t, bx), padded(t, by)}} {
			check(name+"/"+fn, run(name, ops[0], ops[1]), func(i, j int) bool { return f(xb[i*c+j], yb[i*c+j]) })
		}
		for _, v := range []bool{false, true} {
			check(name+"/scalar", run(name, bx, Scalar(v)), func(i, j int) bool { return f(xb[i*c+j], v) })
			check(name+"/scalar-left", run(name, Scalar(v), bx), func(i, j int) bool { return f(v, xb[i*c+j]) })
		}
	}
	if _, err := Compare(Lt, bx, by); err == nil {
		t.Error("Lt on bool arrays: no error")
	}
}
