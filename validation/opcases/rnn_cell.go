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

// lstmBlockCell's values come from this numpy script (numpy 1.24,
// float64); lstmBlockCell_bp's are central differences of Σ_k out_k·G_k:
//
//	def cell(x,cl,yl,W,wci,wcf,wco,b,peep,fb,clip):
//	    n=cl.shape[1]; m=np.concatenate([x,yl],1)@W+b
//	    zi,zz,zf,zo=m[:,:n],m[:,n:2*n],m[:,2*n:3*n],m[:,3*n:]
//	    if peep: zi=zi+cl*wci; zf=zf+cl*wcf
//	    i=sig(zi); z=np.tanh(zz); f=sig(zf+fb); c=z*i+f*cl
//	    if clip>0: c=np.clip(c,-clip,clip)
//	    if peep: zo=zo+c*wco
//	    o=sig(zo); h=np.tanh(c); return i,c,f,o,z,h,o*h
//	x=np.array([[1.,-0.5,2],[0.25,1,-1]]); cl=np.array([[0.5,-1],[2,0.1]]); yl=np.array([[0.3,-0.2],[-0.6,0.9]])
//	W=np.sin(np.arange(40.)).reshape(5,8)*0.5; wci=np.array([0.5,-0.25]); wcf=np.array([-0.4,0.3]); wco=np.array([0.2,0.6])
//	b=np.cos(np.arange(8.))*0.1
//	cell(..., 1, 1.0, 0.)   # A: peephole, forgetBias 1
//	cell(..., 0, 0., 0.5)   # B: no peephole, cell clipped to ±0.5
//	G=[np.sin(np.arange(4.)+k).reshape(2,2) for k in range(7)]   # gradients of i, c, f, o, z, h, y for A

func init() {
	x := f64([]int{2, 3}, 1, -0.5, 2, 0.25, 1, -1)
	cl := f64([]int{2, 2}, 0.5, -1, 2, 0.1)
	yl := f64([]int{2, 2}, 0.3, -0.2, -0.6, 0.9)
	w := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.ScaleBy, ndarray.Must(ndarray.Unary(ndarray.Sin, counting(0, 40), 0)), 0.5)), 5, 8))
	wci, wcf, wco := f64([]int{2}, 0.5, -0.25), f64([]int{2}, -0.4, 0.3), f64([]int{2}, 0.2, 0.6)
	b := ndarray.Must(ndarray.Unary(ndarray.ScaleBy, ndarray.Must(ndarray.Unary(ndarray.Cos, counting(0, 8), 0)), 0.1))
	ins := arrays(x, cl, yl, w, wci, wcf, wco, b)
	s := []int{2, 2}
	argsA := ops.Args{I: []int64{1}, F: []float64{1, 0}}
	argsB := ops.Args{I: []int64{0}, F: []float64{0, 0.5}}
	wantA := arrays(f64(s, 0.40703835433213253, 0.38710317782291576, 0.905376609409239, 0.787619889140051), f64(s, 0.3551555881476455, -0.5241931258123107, 0.6240686923491815, -0.5748847052288042), f64(s, 0.823920235527382, 0.7201743674171069, 0.2292950560790296, 0.6546979377063401),
		f64(s, 0.39963063827175027, 0.2541860107162939, 0.7531360493286634, 0.7532006621342731), f64(s, -0.13955571756683782, 0.5062764989608272, 0.18277320009305026, -0.8130247951186176), f64(s, 0.3409398294974487, -0.48092978963017186, 0.5539545340441635, -0.5189375926142707),
		f64(s, 0.13625000167432713, -0.12224562466071982, 0.41720312927772185, -0.39086413836343437))
	wantB := arrays(f64(s, 0.34836761235019525, 0.3297081514622269, 0.7787585304797973, 0.7917716893788738), f64(s, 0.29022399209433886, -0.3941024194879369, 0.5, -0.5), f64(s, 0.6776813684258327, 0.5610259080890793, 0.1958721727706356, 0.4036581761602261),
		f64(s, 0.3827161275346556, 0.31823519423844876, 0.7292053848545496, 0.8116377103194669), f64(s, -0.13955571756683782, 0.5062764989608272, 0.18277320009305026, -0.8130247951186176), f64(s, 0.2823409619502486, -0.3748914895787746, 0.46211715726000974, -0.46211715726000974),
		f64(s, 0.1080564396020087, -0.11930366600444273, 0.3369783195076758, -0.3750717114178553))
	forward("lstmBlockCell peephole forget bias", "lstmBlockCell", argsA, ins, wantA, 1e-12)
	ins32, want32 := make([]*ndarray.Array, len(ins)), make([]*ndarray.Array, len(wantB))
	for i, a := range ins {
		ins32[i] = to32(a)
	}
	for i, a := range wantB {
		want32[i] = to32(a)
	}
	forward("lstmBlockCell clipped float32", "lstmBlockCell", argsB, ins32, want32, 2e-6)
	var gs []*ndarray.Array
	for k := 0; k < 7; k++ {
		gs = append(gs, ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.Sin, counting(float64(k), 4), 0)), 2, 2)))
	}
	forward("lstmBlockCell_bp peephole", "lstmBlockCell_bp", argsA, append(append([]*ndarray.Array(nil), ins...), gs...),
		arrays(f64([]int{2, 3}, -0.3340024815057241, 0.4110794644129889, 0.2143783298658164, 0.3211034575456573, -0.4503080693885053, -0.19006377849350997), f64(s, -0.13249561175987523, 0.399943294815408, 0.19754909508229446, 0.024987305113910452),
			f64(s, -0.4734635725700542, -0.07660039808010666, 0.5056166419992181, 0.04292930172455911),
			f64([]int{5, 8}, 0.027223301835022085, 0.28503918103606196, -0.6103246206201618, -0.44648754232712307, 0.18803999379812808, -0.16621641585334856, -0.008095136283525761, -0.226294157135154, 0.09336138612203726, -0.1370652373267056, 1.0820233053432382, 0.515223511021734, 0.19198228873307244, -0.15726444885233448, -0.08188990019419862, 0.009989753357864117, -0.08818411251221292, 0.5628058909468159, -2.2564639010624887, -1.2822814043356168, -0.005256393709185403, -0.01193595594584096, 0.09839301851055637, -0.31504521380565365, -0.056016832117311566, 0.08223914232940999, -0.6492139832392496, -0.3091341067573694, -0.11518937315102562, 0.09435866915596947, 0.04913394019423478, -0.005993852025820701, 0.08488812641704868, -0.052401937733481674, 0.7780808755630808, 0.3358581775469993, 0.20390504257283837, -0.16973807132059093, -0.0709503906182185, -0.04185179891535995),
			f64([]int{2}, 0.1919000460204323, -0.2833422712567035), f64([]int{2}, 0.5706904733226992, 0.09143381146659024), f64([]int{2}, -0.043764446677752034, 0.15931960006820844),
			f64([]int{8}, 0.09853865967635045, 0.28867541673749386, -0.09241729032050117, -0.25183438223663757, 0.37870818414553753, -0.32646485337295417, -0.06538678198886316, -0.2950657072009477)), 1e-7)
	var gin []input
	for _, a := range ins {
		gin = append(gin, in(a))
	}
	gradient("lstmBlockCell peephole", "lstmBlockCell", argsA, gin)
	gradient("lstmBlockCell clipped", "lstmBlockCell", argsB, gin)
}
