package opcases

import (
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of the bidirectional SRU (ops/rnn_sru_bi.go). sru_bi 1 is
// libnd4j's DeclarableOpsTests1.sru_bi_1 (float64, its expected values to
// 6 figures: x 1.5, w 0.5, b 0.3, c0 1, mask 1, batch 2, K 3, time 4).
// libnd4j's sru_bi_bp test is not ported: its op leaves x's gradient
// through w out. The other values come from this numpy script (numpy 1.24,
// float64), the gradients by central differences of Σ h·Gh + Σ c·Gc; the
// gates of feature d are U's columns 3d, 3d+1, 3d+2, and features K..2K-1
// run backwards in time:
//
//	import numpy as np
//	def sig(v): return 1/(1+np.exp(-v))
//	def sru_bi(x,w,b,c0,mask=None):     # x [N,bS,2K], w [2K,6K], b [4K]
//	    N,bS,K2=x.shape; K=K2//2
//	    m=np.ones((bS,K2)) if mask is None else mask
//	    xm=x*m; U=xm@w; h=np.zeros_like(x); c=np.zeros_like(x)
//	    for d in range(K2):
//	        ts=range(N) if d<K else range(N-1,-1,-1)
//	        cur=c0[:,d].copy()
//	        for t in ts:
//	            z,uf,ur=U[t,:,3*d],U[t,:,3*d+1],U[t,:,3*d+2]
//	            f=sig(uf+b[d]); r=sig(ur+b[K2+d])
//	            cur=f*cur+(1-f)*z; c[t,:,d]=cur
//	            h[t,:,d]=r*m[:,d]*np.tanh(cur)+(1-r)*xm[t,:,d]
//	    return h,c
//	x=np.sin(np.arange(12.)).reshape(3,1,4); w=np.cos(np.arange(48.)).reshape(4,12)*0.5
//	b=np.array([0.1,-0.2,0.3,0.4,0.0,0.2,-0.1,0.5]); c0=np.array([[0.5,-1,0.25,2]]); mask=np.array([[1.,0.,0.5,2.]])
//	np.set_printoptions(precision=17)
//	for mk in (None, mask):
//	    h,c=sru_bi(x,w,b,c0,mk)
//	    print(", ".join(repr(v) for v in h.ravel())); print(", ".join(repr(v) for v in c.ravel()))
//	def num_grad(loss, ins):
//	    out=[]
//	    for j,a in enumerate(ins):
//	        g=np.zeros_like(a)
//	        for idx in np.ndindex(a.shape):
//	            e=1e-6; p=[q.copy() for q in ins]; p[j][idx]+=e; lp=loss(p); p[j][idx]-=2*e; lm=loss(p); g[idx]=(lp-lm)/(2*e)
//	        out.append(g)
//	    return out
//	Gh=np.sin(np.arange(12.)*0.7).reshape(3,1,4); Gc=np.cos(np.arange(12.)*0.3).reshape(3,1,4)
//	g=num_grad(lambda v: (sru_bi(*v)[0]*Gh).sum()+(sru_bi(*v)[1]*Gc).sum(), [x,w,b,c0,mask])
//	print("GRADS")
//	for a in g: print(", ".join("%.10g"%v for v in a.ravel()))

func init() {
	full := func(v float64, s ...int) *ndarray.Array { return ndarray.Must(ndarray.Full(ndarray.Float64, v, s...)) }
	steps := func(a, b float64) []float64 {
		var v []float64
		for range 2 {
			v = append(v, a, a, a, b, b, b)
		}
		return v
	}
	var wantC, wantH []float64
	for _, p := range [][2]float64{{1.02857, 1.11288}, {1.0569, 1.08501}, {1.08501, 1.0569}, {1.11288, 1.02857}} {
		wantC = append(wantC, steps(p[0], p[1])...)
	}
	for _, p := range [][2]float64{{0.779265, 0.810752}, {0.790317, 0.800804}, {0.800804, 0.790317}, {0.810752, 0.779265}} {
		wantH = append(wantH, steps(p[0], p[1])...)
	}
	forward("sru_bi 1 (libnd4j sru_bi_1)", "sru_bi", ops.Args{}, arrays(full(1.5, 4, 2, 6), full(0.5, 6, 18), full(0.3, 12), full(1, 2, 6), full(1, 2, 6)),
		arrays(f64([]int{4, 2, 6}, wantH...), f64([]int{4, 2, 6}, wantC...)), 1e-5)

	x := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.Sin, counting(0, 12), 0)), 3, 1, 4))
	w := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.ScaleBy, ndarray.Must(ndarray.Unary(ndarray.Cos, counting(0, 48), 0)), 0.5)), 4, 12))
	b := f64([]int{8}, 0.1, -0.2, 0.3, 0.4, 0, 0.2, -0.1, 0.5)
	c0 := f64([]int{1, 4}, 0.5, -1, 0.25, 2)
	mask := f64([]int{1, 4}, 1, 0, 0.5, 2)
	s := []int{3, 1, 4}
	plain := arrays(f64(s, 0.28375731432841145, 0.2705539475966997, 0.23684612436963312, 0.155682366785737, -0.5051697832497283, -0.4806335627417009, -0.29142778274931946, 0.645187311866063, 0.7388505238462791, -0.1476740841385935, -0.24394954203972297, 0.23602568444000763),
		f64(s, 0.5105556151549502, -0.5763950679080326, -0.1637808110325634, 0.17533404731222801, -0.3334081700547497, -0.004617647755844945, -0.3136895806154907, 0.7554809033631884, 0.1651613051533492, -0.37414221752441834, 0.46453825006912935, 0.7473386980040055))
	masked := arrays(f64(s, 0.18368372636710714, 0.0, 0.2082391970819601, 0.6049576745056164, -0.2523315709859205, 0.0, -0.034774618311718034, 1.3315072154771257, 0.8441573499546662, 0.0, -0.15861631960768247, 0.8640851227111306),
		f64(s, 0.3341598557679978, -0.39250687253071326, 0.025210999285927158, 0.47314126631291115, -0.01158211078733734, 0.16605546201941063, 0.051134350307610044, 0.820516752706377, 0.3517307925583439, -0.21509175864983965, 0.552982522278624, 0.8997405900095732))
	forward("sru_bi", "sru_bi", ops.Args{}, arrays(x, w, b, c0), plain, 1e-12)
	forward("sru_bi masked", "sru_bi", ops.Args{}, arrays(x, w, b, c0, mask), masked, 1e-12)
	forward("sru_bi masked float32", "sru_bi", ops.Args{}, arrays(to32(x), to32(w), to32(b), to32(c0), to32(mask)), arrays(to32(masked[0]), to32(masked[1])), 2e-6)
	gh := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.Sin, ndarray.Must(ndarray.Unary(ndarray.ScaleBy, counting(0, 12), 0.7)), 0)), 3, 1, 4))
	gc := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.Cos, ndarray.Must(ndarray.Unary(ndarray.ScaleBy, counting(0, 12), 0.3)), 0)), 3, 1, 4))
	grads := arrays(f64(s, -0.1148520885, 0, 0.2137547996, 0.9138663908, 0.3813063767, 0, -0.1158523377, -1.161175004, -0.4779856912, 0, 0.2873783007, 0.4439598138),
		f64([]int{4, 12}, -0.6230376703, 0.07346403796, 0.02915527464, -0.1917249421, -0.2723155867, 0, -0.4714990378, 0.07769296273, 0.08300145438, -0.05068932118, -0.2349934543, 0.4703932632, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.3388979148, 0.01383391113, -0.02700264456, 0.3608902959, -0.04083560579, 0, 0.278545812, -0.03356421163, -0.0600697454, 0.339707642, 0.1855316787, -0.06775407435, 1.363511337, -0.1273804837, -0.07072393116, 0.5788835451, 0.4786557544, 0, 1.045575453, -0.1646315837, -0.190910914, 0.3047026842, 0.5501052347, -0.9126720943),
		f64([]int{8}, 0.2865983351, -0.2669673016, 0.2010454789, -0.006346510428, 0.1258245848, 0, -0.08249187955, 0.588109581),
		f64([]int{1, 4}, 0.7020327251, 0.2881370715, -0.4082384411, -0.2254398086),
		f64([]int{1, 4}, -0.8116437715, 0.1104302967, 0.1979278037, -0.06026014598))
	forward("sru_bi_bp masked", "sru_bi_bp", ops.Args{}, arrays(x, w, b, c0, masked[1], gc, gh, mask), grads, 1e-7)
	gradient("sru_bi masked", "sru_bi", ops.Args{}, []input{in(x), in(w), in(b), in(c0), in(mask)})
	gradient("sru_bi", "sru_bi", ops.Args{}, []input{in(x), in(w), in(b), in(c0)})
}
