package opcases

import (
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of the whole-sequence recurrent ops (ops/rnn.go).
//
// gru 1 is libnd4j's DeclarableOpsTests15.gru_1 (float32, its expected
// values to 6 decimals). The others come from this numpy script (numpy
// 1.24, float64), gru_bp's by central differences of Σ h·G:
//
//	def gru(x,h,Wx,Wh,b):
//	    n=h.shape[1]; out=[]
//	    for t in range(x.shape[0]):
//	        zx=x[t]@Wx+b; ru=sig(zx[:,:2*n]+h@Wh[:,:2*n]); r,u=ru[:,:n],ru[:,n:]
//	        c=np.tanh(r*(h@Wh[:,2*n:])+zx[:,2*n:]); h=u*h+(1-u)*c; out.append(h)
//	    return np.array(out)
//	x=np.sin(np.arange(12.)).reshape(3,2,2); h=np.array([[0.5,-1],[0.2,0.3]])
//	Wx=np.cos(np.arange(12.)).reshape(2,6)*0.5; Wh=np.sin(np.arange(12.)+2).reshape(2,6)*0.5; b=np.linspace(-0.3,0.3,6)
//	G=np.cos(np.arange(12.)*0.7).reshape(3,2,2)

func init() {
	fill := func(v float32, s ...int) *ndarray.Array {
		return ndarray.Must(ndarray.Full(ndarray.Float32, float64(v), s...))
	}
	x1 := ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.Unary(ndarray.ScaleBy, counting(1, 3, 2, 5), 0.5)), ndarray.Float32))
	forward("gru 1 (libnd4j gru_1)", "gru", ops.Args{},
		arrays(x1, f32([]int{2, 4}, -3, -2, -1, 0, 1, 2, 3, 4), fill(0.003, 5, 12), fill(0.006, 4, 12), fill(0.5, 12)),
		arrays(f32([]int{3, 2, 4}, -1.681847, -1.062565, -0.443283, 0.175998, 0.837823, 1.488041, 2.13826, 2.788478, -0.888747, -0.491826, -0.094907, 0.302014,
			0.751355, 1.182715, 1.614075, 2.045434, -0.388876, -0.126716, 0.135444, 0.397604, 0.710558, 1.002922, 1.295287, 1.587651)), 2e-6)

	x := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.Sin, counting(0, 12), 0)), 3, 2, 2))
	h := f64([]int{2, 2}, 0.5, -1, 0.2, 0.3)
	wx := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.ScaleBy, ndarray.Must(ndarray.Unary(ndarray.Cos, counting(0, 12), 0)), 0.5)), 2, 6))
	wh := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.ScaleBy, ndarray.Must(ndarray.Unary(ndarray.Sin, counting(2, 12), 0)), 0.5)), 2, 6))
	b := f64([]int{6}, -0.3, -0.18, -0.06, 0.06, 0.18, 0.3)
	forward("gru", "gru", ops.Args{}, arrays(x, h, wx, wh, b), arrays(f64([]int{3, 2, 2}, 0.20355762893244797, -0.34380077150350263, -0.06412272669520719, 0.4082764035115456, 0.4236090321440376, -0.19540954077101008, -0.05965669688858287, 0.33939433717207385, -0.016055991036506845, 0.24511773203541964, 0.2790310600777454, 0.3031237614663346)), 1e-12)
	g := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.Cos, ndarray.Must(ndarray.Unary(ndarray.ScaleBy, counting(0, 12), 0.7)), 0)), 3, 2, 2))
	forward("gru_bp", "gru_bp", ops.Args{}, arrays(x, h, wx, wh, b, g),
		arrays(f64([]int{3, 2, 2}, -0.04967154869361945, -0.09073347863319814, -0.07041139703234389, -0.050935540493735054, -0.02422200179319489, 0.021380516662672377, 0.029547560079223878, 0.010835254388164017, -0.016017108625532295, -0.11497104138169512, -0.04020054322761979, -0.08482498690259854),
			f64([]int{2, 2}, 0.32905623174872556, 0.1474625120484463, 0.010604941293179682, -0.16840929946415617),
			f64([]int{2, 6}, 1.3106321583578051e-05, 0.006144710698596789, 0.17229603079677025, -0.1822739503776205, 0.49302692738117937, 0.40304498359622354, 0.01825556361634284, 0.0040402848705545225, 0.20367627170253533, -0.1935505415662231, 0.34387105940503204, 0.5164108454538963),
			f64([]int{2, 6}, 0.006963842988372271, 0.0032876177752383384, 0.12859643053197978, -0.09348216240684382, 0.18655688804880555, 0.12354773697154098, -0.01676210927004096, -0.001491301478140361, -0.1804802754190593, 0.10934702480980274, -0.15512125389055553, -0.10158610132260382),
			f64([]int{6}, 0.008250149299837695, 0.008644200216734177, 0.18120350247369243, -0.15018779063458165, 0.8888360473052748, 0.5387879991741729)), 1e-7)
	gradient("gru", "gru", ops.Args{}, []input{in(x), in(h), in(wx), in(wh), in(b)})
}
