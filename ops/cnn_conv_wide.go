package ops

import (
	"github.com/sdgo/sdgo/kernels"
	"github.com/sdgo/sdgo/ndarray"
)

// conv2d's NCHW path with unit strides, on "wide rows" instead of a full
// im2col.
//
// Each channel is copied, padded, into a plane of Hp×Wp cells, Hp =
// oH+(kH-1)·dH and Wp = oW+(kW-1)·dW: output cell (oh, ow) reads the cells
// (oh+kh·dH, ow+kw·dW) of the padded planes. Numbering the output cells
// on the padded plane's row pitch, j = oh·Wp+ow (the wide grid, whose
// cells with ow >= oW are computed and dropped), the cells one kernel cell
// reads for consecutive j are consecutive: the plane from kh·dH·Wp+kw·dW
// on. The lowering xe holds kW rows per channel, the plane shifted by
// kw·dW; every kernel row kh then reads xe in place at the offset
// kh·dH·Wp, its rows R cells apart, and the products are kH GEMMs per
// image:
//
//	forward: outW[oC, L] = Σ_kh W_kh[oC, iC·kW] · xe[iC·kW, L] (from kh·dH·Wp)
//	weights: dW_khᵀ[iC·kW, oC] += xe[iC·kW, L] (from kh·dH·Wp) · gWᵀ[L, oC]
//	input:   the forward pass of g through the kernel flipped in space,
//	         its channel axes swapped, padded by (k-1)·d - p (unit strides)
//
// with gW the output gradient on the wide grid, zero at the dropped cells.
// im2col writes kH·kW rows of oH·oW cells per channel, in runs an output
// row long (ten cells in LeNet's second convolution); xe is kW rows of
// about Hp·Wp cells per channel, each one copy.

// wideGeom is one wide-rows pass: C channels of planes sH×sW, placed at
// (padT, padL) in the padded planes (negative: cropped) that an oH×oW
// output of the kernel kH×kW, dilated dH, dW, reads.
type wideGeom struct {
	C, sH, sW, padT, padL  int
	oH, oW, kH, kW, dH, dW int
	Hp, Wp                 int
	L                      int // the wide grid's cells: (oH-1)·Wp + oW
	R                      int // the cells of one row of xe: L + (kH-1)·dH·Wp
}

func newWideGeom(C, sH, sW, padT, padL, oH, oW, kH, kW, dH, dW int) wideGeom {
	g := wideGeom{C: C, sH: sH, sW: sW, padT: padT, padL: padL, oH: oH, oW: oW, kH: kH, kW: kW, dH: dH, dW: dW}
	g.Hp, g.Wp = oH+(kH-1)*dH, oW+(kW-1)*dW
	g.L = (oH-1)*g.Wp + oW
	g.R = g.L + (kH-1)*dH*g.Wp
	return g
}

// worth reports whether the wide rows pay: the GEMMs' depth per kernel
// row (C·kW) is not too shallow for the micro-kernel, and the dropped
// cells add at most half the product's work.
func (g wideGeom) worth() bool {
	return g.C*g.kW >= 16 && 2*g.L <= 3*g.oH*g.oW
}

// sizes are the scratch a worker needs: xe, a padded plane, the wide
// output (or the output gradient on the wide grid, transposed).
func (g wideGeom) sizes(oC int) (xe, xp, ow int) {
	return g.C * g.kW * g.R, g.Hp * g.Wp, oC * g.L
}

// wideLower writes xe [C·kW, R] from the source planes src; xp (Hp·Wp
// cells) is scratch for a padded plane.
func wideLower[T kernels.Float](g wideGeom, src, xe, xp []T) {
	direct := g.padT == 0 && g.padL == 0 && g.Wp == g.sW && g.Hp <= g.sH
	lo, hi := max(0, g.padL), min(g.Wp, g.sW+g.padL)
	for c := 0; c < g.C; c++ {
		plane := src[c*g.sH*g.sW : (c+1)*g.sH*g.sW]
		pp := plane
		if !direct {
			pp = xp
			for hp := 0; hp < g.Hp; hp++ {
				row := xp[hp*g.Wp : (hp+1)*g.Wp]
				sh := hp - g.padT
				if sh < 0 || sh >= g.sH || lo >= hi {
					clear(row)
					continue
				}
				clear(row[:lo])
				copy(row[lo:hi], plane[sh*g.sW+lo-g.padL:])
				clear(row[hi:])
			}
		}
		for kw := 0; kw < g.kW; kw++ {
			r := c*g.kW + kw
			copy(xe[r*g.R:(r+1)*g.R], pp[kw*g.dW:])
		}
	}
}

// wideForward computes one image's pass into out [oC, oH, oW]: wk are the
// weights as [kH, oC, C, kW], bias (or nil) one value per output channel;
// xe, xp and outW are scratch of g.sizes(oC). It returns early, out
// unfinished, once stop (nil: never) says to.
func wideForward[T kernels.Float](stop func() bool, g wideGeom, src, wk []T, oC int, bias, out, xe, xp, outW []T) {
	wideLower(g, src, xe, xp)
	kp := g.C * g.kW
	for kh := 0; kh < g.kH; kh++ {
		beta := T(1)
		if kh == 0 {
			beta = 0
		}
		if !kernels.GemmStop(stop, 1, oC, g.L, kp, 1, wk[kh*oC*kp:], kp, 1, xe[kh*g.dH*g.Wp:], g.R, 1, beta, outW, g.L, 1) {
			return
		}
	}
	for oc := 0; oc < oC; oc++ {
		var b T
		if bias != nil {
			b = bias[oc]
		}
		for oh := 0; oh < g.oH; oh++ {
			dst := out[(oc*g.oH+oh)*g.oW : (oc*g.oH+oh+1)*g.oW]
			src := outW[oc*g.L+oh*g.Wp : oc*g.L+oh*g.Wp+g.oW]
			if bias == nil {
				copy(dst, src)
				continue
			}
			for i, v := range src {
				dst[i] = v + b
			}
		}
	}
}

// wideGradT writes gWᵀ [L, oC]: the output gradient g [oC, oH, oW] on the
// wide grid, transposed, zero at the dropped cells. It goes an output row
// at a time, channel by channel, so that it reads runs of g and writes a
// block of gWᵀ that stays in the L1 cache: a walk along gWᵀ would read
// oC cells a plane apart each time, and planes a multiple of 4 KiB apart
// fall into one cache set.
func wideGradT[T kernels.Float](g wideGeom, oC int, grad, gwt []T) {
	P, oW := g.oH*g.oW, g.oW
	for oh := 0; oh < g.oH; oh++ {
		blk := gwt[oh*g.Wp*oC : (oh*g.Wp+oW)*oC]
		row := func(oc int) []T { return grad[oc*P+oh*oW : oc*P+(oh+1)*oW] }
		oc := 0
		for ; oc+4 <= oC; oc += 4 { // four channels at a time, as copyRowMajor
			r0, r1, r2, r3 := row(oc), row(oc+1), row(oc+2), row(oc+3)
			for ow := range r0 {
				d := (*[4]T)(blk[ow*oC+oc:])
				d[0], d[1], d[2], d[3] = r0[ow], r1[ow], r2[ow], r3[ow]
			}
		}
		for ; oc < oC; oc++ {
			for ow, v := range row(oc) {
				blk[ow*oC+oc] = v
			}
		}
		if oh < g.oH-1 {
			clear(gwt[(oh*g.Wp+oW)*oC : (oh+1)*g.Wp*oC])
		}
	}
}

// wideWeights repacks weights [oC, iC, kH, kW] as wideForward reads them,
// [kH, oC, iC, kW]; flip gives the input gradient's kernel instead: flipped
// in space, the channel axes swapped ([kH, iC, oC, kW]).
func wideWeights[T kernels.Float](w []T, oC, iC, kH, kW int, flip bool, wk []T) {
	for oc := 0; oc < oC; oc++ {
		for ic := 0; ic < iC; ic++ {
			for kh := 0; kh < kH; kh++ {
				for kw := 0; kw < kW; kw++ {
					v := w[((oc*iC+ic)*kH+kh)*kW+kw]
					if flip {
						wk[(((kH-1-kh)*iC+ic)*oC+oc)*kW+kW-1-kw] = v
					} else {
						wk[((kh*oC+oc)*iC+ic)*kW+kw] = v
					}
				}
			}
		}
	}
}

// wideFwdGeom and wideBwdGeom are the forward pass's and the input
// gradient's passes of p; ok is false when p has strides.
func (p conv2dPlan) wideFwdGeom() (wideGeom, bool) {
	d := p.d
	if p.cfg.sH != 1 || p.cfg.sW != 1 {
		return wideGeom{}, false
	}
	return newWideGeom(d.iC, d.iH, d.iW, d.pH, d.pW, d.oH, d.oW, d.kH, d.kW, p.cfg.dH, p.cfg.dW), true
}

func (p conv2dPlan) wideBwdGeom() (wideGeom, bool) {
	d := p.d
	if p.cfg.sH != 1 || p.cfg.sW != 1 {
		return wideGeom{}, false
	}
	dH, dW := p.cfg.dH, p.cfg.dW
	return newWideGeom(d.oC, d.oH, d.oW, (d.kH-1)*dH-d.pH, (d.kW-1)*dW-d.pW, d.iH, d.iW, d.kH, d.kW, dH, dW), true
}

// conv2dFwdWide is conv2dFwdNCHW on wide rows: wv the weights as [oC, K].
func conv2dFwdWide[T kernels.Float](c *Ctx, p conv2dPlan, g wideGeom, dt ndarray.DType, xv, wv, bv, ov []T) error {
	d := p.d
	iSz, oSz := d.iH*d.iW*d.iC, p.P*d.oC
	nw := convWorkers(d.bS, float64(d.oC)*float64(p.K*g.L))
	nxe, nxp, now := g.sizes(d.oC)
	per := nxe + nxp + now
	buf, bt := scratch[T](c, dt, nw*per+len(wv))
	defer c.Release(bt)
	wk := buf[nw*per:]
	wideWeights(wv, d.oC, d.iC, d.kH, d.kW, false, wk)
	stop := c.Stop()
	ok := eachPart(nw, d.bS, stop, func(w, i int) {
		s := buf[w*per : (w+1)*per]
		wideForward(stop, g, xv[i*iSz:(i+1)*iSz], wk, d.oC, bv, ov[i*oSz:(i+1)*oSz], s[:nxe], s[nxe:nxe+nxp], s[nxe+nxp:])
	})
	if !ok {
		return c.Err()
	}
	return nil
}

// conv2dBwdWide is conv2dBwdNCHW on wide rows (fg and bg the forward and
// input-gradient passes): the weights gradient, into dwt as [kH, iC, kW,
// oC], summed over the images in order by one task, the input gradient
// image by image by the others.
func conv2dBwdWide[T kernels.Float](c *Ctx, p conv2dPlan, fg, bg wideGeom, dt ndarray.DType, xv, wv, gv, dxv, dwt []T) error {
	d := p.d
	iSz, oSz := d.iH*d.iW*d.iC, p.P*d.oC
	work := 0.0
	if dwt != nil {
		work += float64(d.oC) * float64(p.K*fg.L)
	}
	if dxv != nil {
		work += float64(d.iC) * float64(p.K*bg.L)
	}
	nw := convWorkers(d.bS, work)
	fxe, fxp, _ := fg.sizes(d.oC)
	bxe, bxp, bow := bg.sizes(d.iC)
	dwN := fxe + fxp + fg.L*d.oC
	dxN := bxe + bxp + bow
	if dxv == nil {
		dxN = 0 // no input-gradient tasks, no scratch for them
	}
	n := nw * dxN
	if dwt != nil {
		n += dwN
	}
	if dxv != nil {
		n += len(wv)
	}
	buf, bt := scratch[T](c, dt, n)
	defer c.Release(bt)
	var wk []T
	if dxv != nil {
		wk = buf[n-len(wv):]
		wideWeights(wv, d.oC, d.iC, d.kH, d.kW, true, wk)
	}
	first, tasks := convBwdTasks(dwt, dxv != nil, d.bS)
	kp := d.iC * d.kW
	stop := c.Stop()
	ok := eachPart(nw, tasks, stop, func(w, j int) {
		if j < first {
			s := buf[nw*dxN : nw*dxN+dwN]
			xe, xp, gwt := s[:fxe], s[fxe:fxe+fxp], s[fxe+fxp:]
			for i := 0; i < d.bS; i++ {
				wideLower(fg, xv[i*iSz:(i+1)*iSz], xe, xp)
				wideGradT(fg, d.oC, gv[i*oSz:(i+1)*oSz], gwt)
				for kh := 0; kh < d.kH; kh++ {
					if !kernels.GemmStop(stop, 1, kp, d.oC, fg.L, 1, xe[kh*fg.dH*fg.Wp:], fg.R, 1, gwt, d.oC, 1, 1, dwt[kh*kp*d.oC:], d.oC, 1) {
						return
					}
				}
			}
			return
		}
		i := j - first
		s := buf[w*dxN : (w+1)*dxN]
		wideForward(stop, bg, gv[i*oSz:(i+1)*oSz], wk, d.iC, nil, dxv[i*iSz:(i+1)*iSz], s[:bxe], s[bxe:bxe+bxp], s[bxe+bxp:])
	})
	if !ok {
		return c.Err()
	}
	return nil
}

// wFromHIWO permutes the wide weights gradient, [kH, iC, kW, oC], into
// each weights format.
var wFromHIWO = [3][]int{{0, 2, 1, 3}, {3, 1, 0, 2}, {3, 0, 2, 1}}
