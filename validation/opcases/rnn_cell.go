package opcases

import (
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of the recurrent cells (ops/rnn_cell.go). The values come from
// this numpy script (numpy 1.24, float64); gruCell_bp's values are central
// differences of Σ_k out_k·G_k, independent of sdgo's analytic rule:
//
//	sig=lambda z: 1/(1+np.exp(-z))
//	def cell(x,h,W,Wc,b,bc):
//	    n=h.shape[1]; xh=np.concatenate([x,h],1); ru=sig(xh@W+b); r,u=ru[:,:n],ru[:,n:]
//	    c=np.tanh(np.concatenate([x,r*h],1)@Wc+bc); return r,u,c,u*h+(1-u)*c
//	x=np.array([[1.,-0.5,2],[0.25,1,-1]]); h=np.array([[0.5,-1],[2,0.1]])
//	W=np.sin(np.arange(20.)).reshape(5,4)*0.5; Wc=np.cos(np.arange(10.)).reshape(5,2)*0.5
//	b=np.array([0.1,-0.2,0.3,0.]); bc=np.array([-0.1,0.2])
//	G=[[[1.,-1],[0.5,2]], [[0.2,0.3],[-1,1]], [[-0.5,1],[1.5,-2]], [[2.,-0.25],[1,0.75]]]   # gradients of r, u, c, h

func init() {
	x := f64([]int{2, 3}, 1, -0.5, 2, 0.25, 1, -1)
	h := f64([]int{2, 2}, 0.5, -1, 2, 0.1)
	w := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.ScaleBy, ndarray.Must(ndarray.Unary(ndarray.Sin, counting(0, 20), 0)), 0.5)), 5, 4))
	wc := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.ScaleBy, ndarray.Must(ndarray.Unary(ndarray.Cos, counting(0, 10), 0)), 0.5)), 5, 2))
	b := f64([]int{4}, 0.1, -0.2, 0.3, 0)
	bc := f64([]int{2}, -0.1, 0.2)
	s := []int{2, 2}
	want := arrays(f64(s, 0.783870709436932, 0.8112764386431826, 0.21014552465502065, 0.39933412845992405), f64(s, 0.7116942691447888, 0.2677548582730886, 0.8174287116210772, 0.8181569303704341),
		f64(s, 0.09726730438777632, 0.9084605685349915, 0.3298132748458591, -0.22512919806294207), f64(s, 0.38388985585222857, 0.3974609794871267, 1.6950718577552346, 0.04087750859803552))
	forward("gruCell", "gruCell", ops.Args{}, arrays(x, h, w, wc, b, bc), want, 1e-12)
	want32 := make([]*ndarray.Array, len(want))
	for i, a := range want {
		want32[i] = to32(a)
	}
	forward("gruCell float32", "gruCell", ops.Args{}, arrays(to32(x), to32(h), to32(w), to32(wc), to32(b), to32(bc)), want32, 2e-6)
	g := arrays(f64(s, 1, -1, 0.5, 2), f64(s, 0.2, 0.3, -1, 1), f64(s, -0.5, 1, 1.5, -2), f64(s, 2, -0.25, 1, 0.75))
	forward("gruCell_bp", "gruCell_bp", ops.Args{}, append(arrays(x, h, w, wc, b, bc), g...),
		arrays(f64([]int{2, 3}, 0.12117323455740348, -0.06397684426673322, -0.07859329276271865, 0.5392357116384972, 0.33443649094522243, -0.7086799360678242), f64(s, 1.5684423249062718, -0.14729531150337039, 1.01558742748864, 0.6150933722359753),
			f64([]int{5, 4}, 0.2022091321052244, -0.018194927786652215, 0.2313114570995367, 0.19862659339509037, 0.012063425813835238, 0.5676020342626487, -0.0031354723262211337, 0.10887332502207414, 0.25352760868457835, -0.781062616361794, 0.3125959060490402, 0.11967102508947391, 0.28971788568199486, 0.9217434859820628, 0.3031894890703768, 0.4462909988234287, -0.16700131233449156, 0.19195190503751292, -0.1963051552422712, -0.13385742203553264),
			f64([]int{5, 2}, 0.45077328980625, -0.2995722185872296, 1.4616032513181665, -1.8405230211016033, -1.3477732814237697, 2.054601071055373, 0.6599886623881446, -0.6876271516631505, -0.0016830359328423583, -0.18643306143317773),
			f64([]int{4}, 0.27765446031224883, 0.35414145216350335, 0.3063249609525087, 0.337417674689533), f64([]int{2}, 1.5754332203243848, -1.6264449724801011)), 1e-7)
	gradient("gruCell", "gruCell", ops.Args{}, []input{in(x), in(h), in(w), in(wc), in(b), in(bc)})
}
