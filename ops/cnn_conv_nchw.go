package ops

import (
	"runtime"
	"sync/atomic"

	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
)

// conv2d's NCHW path, one image at a time. Each image is lowered into a
// column scratch of its own [K, P] (one row per (ic, kh, kw) cell), small
// enough to stay in the core's cache while the GEMMs read it, and the
// images are shared out over the cores, each with its own scratch, so
// that the lowering and the col2im run in parallel as the products do.
// The products run on the direct kernel, which reads A with any strides
// and B by rows:
//
//	forward:  out_i[oC, P] = W[oC, K] · col_i[K, P]
//	weights:  dWᵀ[K, oC] += col_i[K, P] · g_iᵀ[P, oC]   (image by image)
//	input:    dcol_i[K, P] = Wᵀ[K, oC] · g_i[oC, P], then col2im into dx_i
//
// The weights gradient is formed transposed so that the operand the GEMM
// must copy to rows is the output gradient's image (oC·P elements), not
// the K·P column matrix. A 1x1 convolution with unit strides and no padding
// lowers to the image itself, so it skips the scratch.

// convMinMacs is the least work, in multiply-adds, worth another core.
const convMinMacs = 1 << 21

// convWorkers is how many cores share n images of macs multiply-adds each.
func convWorkers(n int, macs float64) int {
	return max(1, min(runtime.GOMAXPROCS(0), n, int(float64(n)*macs/convMinMacs)))
}

// eachPart calls f(w, j) for every part j < np, the parts taken as they
// come by up to nw goroutines, w < nw naming the goroutine (and so its
// scratch). It returns false, with some parts left out, once stop says
// so; f may stop inside a part too (its products through
// kernels.GemmStop), since one image's convolution can be long.
func eachPart(nw, np int, stop func() bool, f func(w, j int)) bool {
	var next, slot atomic.Int64
	var stopped atomic.Bool
	kernels.Parallel(nw-1, func() {
		w := int(slot.Add(1) - 1)
		if w >= nw {
			return
		}
		for j := int(next.Add(1) - 1); j < np; j = int(next.Add(1) - 1) {
			if stopped.Load() || (stop != nil && stop()) {
				stopped.Store(true)
				return
			}
			f(w, j)
		}
	})
	// A part that stopped inside its products (kernels.GemmStop) returns
	// unfinished; with no part left to start, only stop itself says so.
	return !stopped.Load() && (stop == nil || !stop())
}

// pointwise reports whether the convolution is 1x1 with unit strides and
// no padding: its column matrix is the image.
func (p conv2dPlan) pointwise() bool {
	return p.d.kH == 1 && p.d.kW == 1 && p.cfg.sH == 1 && p.cfg.sW == 1 && p.d.pH == 0 && p.d.pW == 0 &&
		p.d.oH == p.d.iH && p.d.oW == p.d.iW
}

// conv2dFwdNCHW computes the NCHW forward pass: xv the input, wv the
// weights as [oC, K], bv the bias or nil, ov the output.
func conv2dFwdNCHW[T kernels.Float](c *Ctx, p conv2dPlan, dt ndarray.DType, xv, wv, bv, ov []T) error {
	if g, ok := p.wideFwdGeom(); ok && !p.pointwise() && g.worth() {
		return conv2dFwdWide(c, p, g, dt, xv, wv, bv, ov)
	}
	d := p.d
	iSz, oSz, kp := d.iH*d.iW*d.iC, p.P*d.oC, p.K*p.P
	nw := convWorkers(d.bS, float64(d.oC)*float64(kp))
	var cols []T
	if !p.pointwise() {
		v, ct := scratch[T](c, dt, nw*kp)
		defer c.Release(ct)
		cols = v
	}
	stop := c.Stop()
	ok := eachPart(nw, d.bS, stop, func(w, i int) {
		im, o := xv[i*iSz:(i+1)*iSz], ov[i*oSz:(i+1)*oSz]
		col := im
		if cols != nil {
			col = cols[w*kp : (w+1)*kp]
			im2colNCHW(p, im, col)
		}
		beta := T(0)
		if bv != nil {
			convFillBias(o, bv, p.P, false)
			beta = 1
		}
		kernels.GemmStop(stop, 1, d.oC, p.P, p.K, 1, wv, p.K, 1, col, p.P, 1, beta, o, p.P, 1)
	})
	if !ok {
		return c.Err()
	}
	return nil
}

// conv2dBwdNCHW computes the NCHW gradients: of the input into dxv and of
// the weights, as dWᵀ [K, oC], into dwt (either nil: not computed); xv is
// read only for dwt, wv ([oC, K]) only for dxv.
func conv2dBwdNCHW[T kernels.Float](c *Ctx, p conv2dPlan, dt ndarray.DType, xv, wv, gv, dxv, dwt []T) error {
	d := p.d
	iSz, oSz, kp := d.iH*d.iW*d.iC, p.P*d.oC, p.K*p.P
	work := 0.0
	if dwt != nil {
		work += float64(d.oC) * float64(kp)
	}
	if dxv != nil {
		work += float64(d.oC) * float64(kp)
	}
	nw := convWorkers(d.bS, work)
	pw := p.pointwise()
	var col, dcols []T
	if !pw && dwt != nil {
		v, t := scratch[T](c, dt, kp)
		defer c.Release(t)
		col = v
	}
	if !pw && dxv != nil {
		v, t := scratch[T](c, dt, nw*kp)
		defer c.Release(t)
		dcols = v
	}
	first, tasks := convBwdTasks(dwt, dxv != nil, d.bS)
	stop := c.Stop()
	ok := eachPart(nw, tasks, stop, func(w, j int) {
		if j < first {
			for i := 0; i < d.bS; i++ {
				im, g := xv[i*iSz:(i+1)*iSz], gv[i*oSz:(i+1)*oSz]
				cl := im
				if col != nil {
					cl = col
					im2colNCHW(p, im, cl)
				}
				if !kernels.GemmStop(stop, 1, p.K, d.oC, p.P, 1, cl, p.P, 1, g, 1, p.P, 1, dwt, d.oC, 1) {
					return
				}
			}
			return
		}
		i := j - first
		g, dx := gv[i*oSz:(i+1)*oSz], dxv[i*iSz:(i+1)*iSz]
		if pw {
			kernels.GemmStop(stop, 1, p.K, p.P, d.oC, 1, wv, 1, p.K, g, p.P, 1, 0, dx, p.P, 1)
			return
		}
		dcol := dcols[w*kp : (w+1)*kp]
		if !kernels.GemmStop(stop, 1, p.K, p.P, d.oC, 1, wv, 1, p.K, g, p.P, 1, 0, dcol, p.P, 1) {
			return
		}
		clear(dx)
		col2imNCHW(p, dcol, dx, true)
	})
	if !ok {
		return c.Err()
	}
	return nil
}

// convBwdTasks lays out the backward pass's tasks: with the weights
// gradient (dwt, which it clears), task 0 sums it over the images in
// order, on one core; then, with the input gradient, one task per image
// (of bS), which the other cores (and the first, when done) share. first
// is the first image's task.
func convBwdTasks[T kernels.Float](dwt []T, dx bool, bS int) (first, tasks int) {
	if dwt != nil {
		clear(dwt)
		first, tasks = 1, 1
	}
	if dx {
		tasks += bS
	}
	return first, tasks
}

// wFromIHWO permutes dWᵀ, [iC, kH, kW, oC], into each weights format.
var wFromIHWO = [3][]int{{1, 2, 0, 3}, {3, 0, 1, 2}, {3, 1, 2, 0}}

// conv2dBwdNCHWArrays is conv2dBwd on NCHW arrays: it packs the operands,
// runs conv2dBwdNCHW and writes the weights gradient in its format.
func conv2dBwdNCHWArrays[T kernels.Float](c *Ctx, p conv2dPlan, x, w, g, dx, dw *ndarray.Array) error {
	gv, gt, err := packed[T](c, g)
	if err != nil {
		return err
	}
	defer c.Release(gt)
	var xv, wv, dxv, dwt []T
	if dw != nil {
		v, xt, err := packed[T](c, x)
		if err != nil {
			return err
		}
		defer c.Release(xt)
		xv = v
		v, dt := scratch[T](c, dw.DType(), p.K*p.d.oC)
		defer c.Release(dt)
		dwt = v
	}
	if dx != nil {
		v, wt, err := convWeights[T](c, w, p.cfg.wFormat, false)
		if err != nil {
			return err
		}
		defer c.Release(wt)
		wv, dxv = v, flat[T](dx)
	}
	d := p.d
	fg, wide := p.wideFwdGeom()
	bg, _ := p.wideBwdGeom()
	wide = wide && !p.pointwise() && (dw == nil || fg.worth()) && (dx == nil || bg.worth())
	if wide {
		err = conv2dBwdWide(c, p, fg, bg, g.DType(), xv, wv, gv, dxv, dwt)
	} else {
		err = conv2dBwdNCHW(c, p, g.DType(), xv, wv, gv, dxv, dwt)
	}
	if err != nil || dw == nil {
		return err
	}
	shape, perm := []int{d.iC, d.kH, d.kW, d.oC}, wFromIHWO[p.cfg.wFormat]
	if wide {
		shape, perm = []int{d.kH, d.iC, d.kW, d.oC}, wFromHIWO[p.cfg.wFormat]
	}
	a, err := ndarray.Wrap(dwt, shape...)
	if err != nil {
		return err
	}
	v, err := ndarray.Permute(a, perm...)
	if err != nil {
		return err
	}
	return ndarray.CopyInto(dw, v)
}
