package opcases

import (
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of the SRU ops (ops/rnn_sru.go). The values come from this numpy
// script (numpy 1.24, float64); sruCell_bp's are central differences of
// Σ h·Gh + Σ c·Gc:
//
//	def cell(x,c0,w,b):
//	    K=x.shape[1]; z=x@w; f=sig(z[:,K:2*K]+b[:K]); r=sig(z[:,2*K:]+b[K:])
//	    c=f*c0+(1-f)*z[:,:K]; return r*np.tanh(c)+(1-r)*x, c
//	x=np.array([[1.,-0.5],[0.25,2]]); c0=np.array([[0.5,-1],[2,0.1]])
//	w=np.sin(np.arange(12.)).reshape(2,6); b=np.array([0.1,-0.2,0.3,0.4])
//	Gh=[[1.,-1],[0.5,2]]; Gc=[[0.2,0.3],[-1,1]]

func init() {
	x := f64([]int{2, 2}, 1, -0.5, 0.25, 2)
	c0 := f64([]int{2, 2}, 0.5, -1, 2, 0.1)
	w := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.Sin, counting(0, 12), 0)), 2, 6))
	b := f64([]int{4}, 0.1, -0.2, 0.3, 0.4)
	s := []int{2, 2}
	want := arrays(f64(s, 0.7048506186771554, -0.3267078000372072, 0.43960322996324813, 1.7980238056360862), f64(s, 0.3652105209051556, -0.1438814630816857, 1.7681087694024908, 0.585483940459113))
	forward("sruCell", "sruCell", ops.Args{}, arrays(x, c0, w, b), want, 1e-12)
	forward("sruCell float32", "sruCell", ops.Args{}, arrays(to32(x), to32(c0), to32(w), to32(b)), arrays(to32(want[0]), to32(want[1])), 2e-6)
	forward("sruCell_bp", "sruCell_bp", ops.Args{}, arrays(x, c0, w, b, f64(s, 1, -1, 0.5, 2), f64(s, 0.2, 0.3, -1, 1)),
		arrays(f64(s, 0.7251793159301911, -0.38878685493237697, 0.7460783435497831, 1.9666663180206712), f64(s, 0.3745261967225133, -0.07613381924898022, -0.8957007144871909, 0.7897494291864149),
			f64([]int{2, 6}, 0.20154978930264633, 0.002865915726957269, -0.001444094177571742, -0.030673092510369315, -0.14395154357416118, -0.17634245486064515, -0.2904546752002801, 0.8663750901138911, -0.44065137760895823, -0.7994111166365059, 0.21834393715280953, -0.652553636459885),
			f64([]int{4}, -0.15722295021447508, -0.3182310910343489, -0.09229219077866446, -0.4377747595540882)), 1e-7)
	gradient("sruCell", "sruCell", ops.Args{}, []input{in(x), in(c0), in(w), in(b)})
}

// sru 1 is libnd4j's DeclarableOpsTests1.sru_test1 (float64, its expected
// values to 6 decimals: x 1.5, w 0.5, b 0.3, c0 1, mask 1, batch 2, K 3,
// time 4). libnd4j's sru_bp test passes the outputs h where its op reads
// the states c, so its expected gradients are not sru's and are not
// ported. The other values come from this numpy script (numpy 1.24,
// float64), sru_bp's by central differences of Σ h·Gh + Σ c·Gc; sig is
// the logistic function:
//
//	def sig(v): return 1/(1+np.exp(-v))
//	def sru(x,w,b,c0,mask=None):     # x [bS,K,N], w [3K,K]
//	    K=x.shape[1]; xm=x if mask is None else x*mask[:,:,None]; c=c0; hs=[]; cs=[]
//	    for t in range(x.shape[2]):
//	        xt=xm[:,:,t]; z=xt@w.T; f=sig(z[:,K:2*K]+b[:K]); r=sig(z[:,2*K:]+b[K:])
//	        c=f*c+(1-f)*z[:,:K]; hs.append(r*np.tanh(c)+(1-r)*xt); cs.append(c)
//	    return np.stack(hs,2), np.stack(cs,2)
//	def num_grad(loss, ins):
//	    out=[]
//	    for j,a in enumerate(ins):
//	        g=np.zeros_like(a)
//	        for idx in np.ndindex(a.shape):
//	            e=1e-6; p=[q.copy() for q in ins]; p[j][idx]+=e; lp=loss(p); p[j][idx]-=2*e; lm=loss(p); g[idx]=(lp-lm)/(2*e)
//	        out.append(g)
//	    return out
//	x=np.sin(np.arange(12.)).reshape(2,2,3); w=np.cos(np.arange(12.)).reshape(6,2)*0.5; b=np.array([0.1,-0.2,0.3,0.4])
//	c0=np.array([[0.5,-1],[2,0.1]]); mask=np.array([[1.,0.],[0.5,2.]])
//	Gh=np.sin(np.arange(12.)*0.7).reshape(2,2,3); Gc=np.cos(np.arange(12.)*0.3).reshape(2,2,3)
//	h,c=sru(x,w,b,c0,mask)
//	g=num_grad(lambda v: (sru(*v)[0]*Gh).sum()+(sru(*v)[1]*Gc).sum(), [x,w,b,c0,mask])

func init() {
	full := func(v float64, s ...int) *ndarray.Array { return ndarray.Must(ndarray.Full(ndarray.Float64, v, s...)) }
	rep := func(s []int, v ...float64) *ndarray.Array {
		var all []float64
		for range 6 {
			all = append(all, v...)
		}
		return f64(s, all...)
	}
	s1 := []int{2, 3, 4}
	forward("sru 1 (libnd4j sru_test1)", "sru", ops.Args{}, arrays(full(1.5, 2, 3, 4), full(0.5, 9, 3), full(0.3, 6), full(1, 2, 3), full(1, 2, 3)),
		arrays(rep(s1, 0.847983, 0.874549, 0.896109, 0.913715), rep(s1, 1.090533, 1.174509, 1.252403, 1.324656)), 1e-6)

	x := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.Sin, counting(0, 12), 0)), 2, 2, 3))
	w := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.ScaleBy, ndarray.Must(ndarray.Unary(ndarray.Cos, counting(0, 12), 0)), 0.5)), 6, 2))
	b := f64([]int{4}, 0.1, -0.2, 0.3, 0.4)
	c0 := f64([]int{2, 2}, 0.5, -1, 2, 0.1)
	mask := f64([]int{2, 2}, 1, 0, 0.5, 2)
	gh := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.Sin, ndarray.Must(ndarray.Unary(ndarray.ScaleBy, counting(0, 12), 0.7)), 0)), 2, 2, 3))
	gc := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.Cos, ndarray.Must(ndarray.Unary(ndarray.ScaleBy, counting(0, 12), 0.3)), 0)), 2, 2, 3))
	want := arrays(f64([]int{2, 2, 3}, 0.14741496418960065, 0.5581783675475407, 0.6170552188460924, -0.25266741610839133, -0.1614377896209001, -0.1311483654474008, 0.3306328842421166, 0.40909581168448894, 0.13771541150574615, 0.23706872581185728, -0.34334863148940464, -0.5852143827742797), f64([]int{2, 2, 3}, 0.26248959373947, 0.3485186209861397, 0.4067984186434802, -0.45016600268752216, -0.3266058972334449, -0.2659910526837425, 1.1969656987018409, 0.48013235051032815, 0.02749987966874895, -0.13423987218731903, 0.23522047417564118, 0.6731316721804338))
	forward("sru masked", "sru", ops.Args{}, arrays(x, w, b, c0, mask), want, 1e-12)
	forward("sru masked float32", "sru", ops.Args{}, arrays(to32(x), to32(w), to32(b), to32(c0), to32(mask)), arrays(to32(want[0]), to32(want[1])), 2e-6)
	grads := arrays(f64([]int{2, 2, 3}, 0.09670132694594713, 0.7712518775848665, 0.8115393952401462, 0.0, 0.0, 0.0, -0.22626628226607437, -0.2417991760150784, -0.2842681904313693, 0.29929505163117653, 0.6031622824531624, 0.8890952221118908), f64([]int{6, 2}, 0.9329800504387364, 1.9553459609245039, -0.15934428887476315, 0.9209235148910366, -0.3053295167809722, 0.6130134670989662, 0.0817565877220261, -0.4350073352643591, -0.1357078631691877, -0.25355141375360546, 0.38238798771850213, -1.501892647137737), f64([]int{4}, -1.1003449456037373, -0.2843781079509, -0.3911714415716361, 0.7515523654522127), f64([]int{2, 2}, 0.9702317583792919, 0.586089523579858, -0.6037928771407408, -0.6249021881066241), f64([]int{2, 2}, 1.386916760770518, -0.3326150467275468, -0.7537591809603228, -0.5469372532651562))
	forward("sru_bp masked", "sru_bp", ops.Args{}, arrays(x, w, b, c0, want[1], gc, gh, mask), grads, 1e-7)
	gradient("sru masked", "sru", ops.Args{}, []input{in(x), in(w), in(b), in(c0), in(mask)})
	gradient("sru", "sru", ops.Args{}, []input{in(x), in(w), in(b), in(c0)})
}
