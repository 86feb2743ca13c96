package ops

import "math"

// image_resize's separable resamplers (ops/image_resize.go): TensorFlow's
// scale_and_translate, which libnd4j ports for the Gaussian, Lanczos and
// Mitchell methods and for antialiased bilinear and bicubic resizing, and
// TensorFlow's area resize, written as the same kind of weights.
//
// Output pixel x samples the source at s = (x + 0.5)·in/out. The source
// pixels j within the kernel's radius·k of it (k = max(in/out, 1) with
// antialiasing, which widens the kernel into a low-pass filter when
// shrinking; 1 without), clamped to the image, get the weights
// kernel((j + 0.5 - s)/k), normalized to sum to 1. An image is resampled
// along its rows, then along its columns.

// resampleKernel is a sampling kernel: its function and its radius (the
// function is 0 beyond it).
type resampleKernel struct {
	radius float64
	at     func(x float64) float64
}

// resampleKernels are image_resize's kernels by method; the bicubic one
// (Keys' cubic) takes the coefficient.
func resampleKernelFor(method int, coef float64) resampleKernel {
	switch method {
	case resizeMethodBilinear:
		return resampleKernel{1, func(x float64) float64 { return max(1-math.Abs(x), 0) }}
	case resizeMethodBicubic:
		return cubicKernel(func(x float64) float64 { return ((coef+2)*x-(coef+3))*x*x + 1 },
			func(x float64) float64 { return ((coef*x-5*coef)*x+8*coef)*x - 4*coef })
	case resizeMethodGaussian:
		// sigma 0.5 over a support of 3 pixels (Turkowski's choice, as
		// TensorFlow and libnd4j make it): radius 1.5.
		const radius, sigma = 1.5, 0.5
		return resampleKernel{radius, func(x float64) float64 {
			if x = math.Abs(x); x >= radius {
				return 0
			}
			return math.Exp(-x * x / (2 * sigma * sigma))
		}}
	case resizeMethodLanczos3, resizeMethodLanczos5:
		r := 3.0
		if method == resizeMethodLanczos5 {
			r = 5
		}
		return resampleKernel{r, func(x float64) float64 {
			x = math.Abs(x)
			switch {
			case x > r:
				return 0
			case x <= 1e-3: // sin(x)/x's limit
				return 1
			}
			return r * math.Sin(math.Pi*x) * math.Sin(math.Pi*x/r) / (math.Pi * math.Pi * x * x)
		}}
	}
	// Mitchell and Netravali's cubic (B = C = 1/3).
	return cubicKernel(func(x float64) float64 { return (7.0/6*x-2)*x*x + 8.0/9 },
		func(x float64) float64 { return ((-7.0/18*x+2)*x-10.0/3)*x + 16.0/9 })
}

// cubicKernel is a piecewise cubic kernel of radius 2: near(|x|) below 1,
// far(|x|) from 1 to 2.
func cubicKernel(near, far func(float64) float64) resampleKernel {
	return resampleKernel{2, func(x float64) float64 {
		x = math.Abs(x)
		switch {
		case x >= 2:
			return 0
		case x >= 1:
			return far(x)
		}
		return near(x)
	}}
}

// span is the source pixels one output pixel reads: from start, one
// weight each.
type span struct {
	start int
	w     []float32
}

// kernelSpans are the spans of out pixels sampling in pixels with kernel k.
func kernelSpans(k resampleKernel, out, in int, antialias bool) []span {
	inv := float64(in) / float64(out)
	scale := 1.0
	if antialias {
		scale = max(inv, 1)
	}
	spans := make([]span, out)
	for x := range spans {
		s := (float64(x) + 0.5) * inv
		lo := min(max(int(math.Ceil(s-k.radius*scale-0.5)), 0), in-1)
		hi := min(max(int(math.Floor(s+k.radius*scale-0.5)), 0), in-1)
		w := make([]float64, hi-lo+1)
		sum := 0.0
		for j := range w {
			w[j] = k.at((float64(lo+j) + 0.5 - s) / scale)
			sum += w[j]
		}
		spans[x] = normalizedSpan(lo, w, sum)
	}
	return spans
}

// areaSpans are the spans of TensorFlow's area resize: output pixel y
// covers [y·in/out, (y+1)·in/out) of the source, each source pixel
// weighted by how much of it lies inside, over the footprint's length.
func areaSpans(out, in int) []span {
	scale := float64(in) / float64(out)
	spans := make([]span, out)
	for y := range spans {
		a, b := float64(y)*scale, float64(y+1)*scale
		lo, hi := int(math.Floor(a)), int(math.Ceil(b))
		clo, chi := min(max(lo, 0), in-1), min(max(hi-1, 0), in-1)
		w := make([]float64, chi-clo+1)
		for i := lo; i < hi; i++ {
			w[min(max(i, 0), in-1)-clo] += min(float64(i+1), b) - max(float64(i), a)
		}
		spans[y] = normalizedSpan(clo, w, scale)
	}
	return spans
}

// normalizedSpan divides the weights by sum (left as they are when sum is
// too close to 0 to divide by, as TensorFlow leaves them).
func normalizedSpan(start int, w []float64, sum float64) span {
	s := span{start: start, w: make([]float32, len(w))}
	for j, v := range w {
		if math.Abs(sum) >= 1000*math.SmallestNonzeroFloat32 {
			v /= sum
		}
		s.w[j] = float32(v)
	}
	return s
}

// resample resizes src [n, inH, inW, ch] into dst [n, len(rows),
// len(cols), ch]: along the rows into a [len(rows), inW, ch] image, then
// along the columns.
func resample(src, dst []float32, n, inH, inW, ch int, rows, cols []span) {
	outH, outW := len(rows), len(cols)
	tmp := make([]float32, outH*inW*ch)
	line := inW * ch
	for b := 0; b < n; b++ {
		img := src[b*inH*line : (b+1)*inH*line]
		clear(tmp)
		for y, sp := range rows {
			t := tmp[y*line : (y+1)*line]
			for j, w := range sp.w {
				r := img[(sp.start+j)*line : (sp.start+j+1)*line]
				for i, v := range r {
					t[i] += w * v
				}
			}
		}
		out := dst[b*outH*outW*ch : (b+1)*outH*outW*ch]
		clear(out)
		for y := 0; y < outH; y++ {
			t := tmp[y*line : (y+1)*line]
			for x, sp := range cols {
				o := out[(y*outW+x)*ch : (y*outW+x+1)*ch]
				for j, w := range sp.w {
					p := t[(sp.start+j)*ch : (sp.start+j+1)*ch]
					for k, v := range p {
						o[k] += w * v
					}
				}
			}
		}
	}
}
