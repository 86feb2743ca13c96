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
