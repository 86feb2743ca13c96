package ndarray

import (
	"fmt"
	"math"

	"github.com/sdgo/sdgo/kernels"
)

// Softmax returns exp(x - max) / sum(exp(x - max)) along axis.
func Softmax(a *Array, axis int) (*Array, error) { return softmax(a, axis, false) }

// LogSoftmax returns x - max - log(sum(exp(x - max))) along axis.
func LogSoftmax(a *Array, axis int) (*Array, error) { return softmax(a, axis, true) }

func softmax(a *Array, axis int, logForm bool) (*Array, error) {
	name := "softmax"
	if logForm {
		name = "log_softmax"
	}
	if !a.DType().IsFloat() || !a.DType().IsNumeric() {
		return nil, fmt.Errorf("ndarray: %s needs a float32 or float64 array, not %v", name, a.DType())
	}
	if a.Rank() == 0 {
		return nil, fmt.Errorf("ndarray: %s of a scalar", name)
	}
	ax, err := NormAxes([]int{axis}, a.Rank())
	if err != nil {
		return nil, fmt.Errorf("ndarray: %s of shape %v: %w", name, a.shape, err)
	}
	out, err := alloc(a.DType(), a.shape)
	if err != nil {
		return nil, err
	}
	if a.Size() == 0 {
		return out, nil
	}
	if a.DType() == Float32 {
		softmaxTyped(kernels.F32, out, a, ax[0], logForm)
	} else {
		softmaxTyped(kernels.F64, out, a, ax[0], logForm)
	}
	return out, nil
}

// softmaxTyped handles one row (the elements along axis) at a time: copied
// into a contiguous scratch row, transformed there with the vector kernels,
// and copied to the output.
func softmaxTyped[T kernels.Float](tab *kernels.Table[T], out, a *Array, r int, logForm bool) {
	shape := make([]int, 0, a.Rank())
	ast := make([]int, 0, a.Rank())
	ost := make([]int, 0, a.Rank())
	for i := range a.shape {
		if i != r {
			shape = append(shape, a.shape[i])
			ast = append(ast, a.strides[i])
			ost = append(ost, out.strides[i])
		}
	}
	L, sa, so := a.shape[r], a.strides[r], out.strides[r]
	x, d := Raw[T](a), Raw[T](out)
	row := make([]T, L)
	var tmp []T
	if logForm {
		tmp = make([]T, L)
	}
	nn, ok := newNest(shape, 2, [3][]int{ost, ast}, [3]int{out.offset, a.offset})
	if !ok {
		return
	}
	nn.each(func(off [3]int, cnt int, inc [3]int) {
		for i := 0; i < cnt; i++ {
			oo, oa := off[0]+i*inc[0], off[1]+i*inc[1]
			for j := range row {
				row[j] = x[oa+j*sa]
			}
			softmaxRow(tab, row, tmp, logForm)
			if so == 1 {
				copy(d[oo:oo+L], row)
				continue
			}
			for j, v := range row {
				d[oo+j*so] = v
			}
		}
	})
}

// softmaxRow transforms row in place; tmp is scratch of the same length for
// the log form.
func softmaxRow[T kernels.Float](tab *kernels.Table[T], row, tmp []T, logForm bool) {
	m := tab.MaxReduce(row)
	if math.IsInf(float64(m), 0) {
		// All -Inf (or +Inf present): subtracting would give NaN from
		// Inf-Inf; use 0 so that e^x keeps the infinities' meaning.
		if math.IsInf(float64(m), -1) {
			m = 0
		}
	}
	tab.AddScalar(row, row, -m)
	if logForm {
		// x - m - log(sum(e^(x-m))), with e^(x-m) computed in a copy.
		tab.Exp(tmp, row)
		lse := T(math.Log(float64(tab.Sum(tmp))))
		tab.AddScalar(row, row, -lse)
		return
	}
	tab.Exp(row, row)
	s := tab.Sum(row)
	tab.Scale(row, row, 1/s)
}
