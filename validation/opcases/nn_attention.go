package opcases

import (
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of the attention ops (ops/nn_attention.go). The values come from
// this numpy script (numpy 1.24, float64); the _bp values are central
// differences of Σ out·G, independent of sdgo's analytic rule:
//
//	def sm(x, ax): e=np.exp(x-x.max(ax,keepdims=True)); return e/e.sum(ax,keepdims=True)
//	def dpa(q,k,v,mask=None,scaled=True):
//	    s=np.swapaxes(k,-1,-2)@q
//	    if scaled: s=s/np.sqrt(k.shape[-2])
//	    if mask is not None:
//	        m=mask.reshape(mask.shape[0],mask.shape[1],1) if s.ndim==3 else mask.reshape(mask.shape[0],1,mask.shape[1],1)
//	        s=s+(m-1)*1e9
//	    w=sm(s,-2); return v@w, w
//	q=np.arange(8.).reshape(2,2,2)*0.25-0.5; k=np.sin(np.arange(12.)).reshape(2,2,3)
//	v=np.cos(np.arange(12.)).reshape(2,2,3); mask=np.array([[1.,1,0],[1,0,1]])
//	dpa(q,k,v,None,True); dpa(q,k,v,mask,False)
//	x=np.array([[[1.,-1],[0.5,2]]]); kv=np.array([[[0.5,-1,2],[1,0,-0.5]]])
//	Wq=np.sin(np.arange(8.)).reshape(2,2,2); Wk=np.cos(np.arange(8.)).reshape(2,2,2)
//	Wv=(np.arange(8.).reshape(2,2,2)-3.5)*0.2; Wo=np.sin(np.arange(12.)+1).reshape(4,3)
//	proj=lambda x,W: np.einsum('hpi,bit->bhpt',W,x)
//	a,w=dpa(proj(x,Wq),proj(kv,Wk),proj(kv,Wv),None,True); out=np.einsum('bct,co->bot',a.reshape(1,4,2),Wo)
//	G=np.array([1.,-2,0.5,1.5,-1,0.25,2,-0.5]).reshape(2,2,2)    # dot_product_attention_bp's gradO (with mask, scaled)
//	Go=np.array([1.,-1,0.5,2,-0.5,1]).reshape(1,3,2)              # multi_head_dot_product_attention_bp's gradO

func init() {
	q := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.AddScalar, ndarray.Must(ndarray.Unary(ndarray.ScaleBy, counting(0, 8), 0.25)), -0.5)), 2, 2, 2))
	k := f64([]int{2, 2, 3}, 0, 0.8414709848078965, 0.9092974268256817, 0.1411200080598672, -0.7568024953079282, -0.9589242746631385,
		-0.27941549819892586, 0.6569865987187891, 0.9893582466233818, 0.4121184852417566, -0.5440211108893698, -0.9999902065507035)
	v := f64([]int{2, 2, 3}, 1, 0.5403023058681398, -0.4161468365471424, -0.9899924966004454, -0.6536436208636119, 0.28366218546322625,
		0.960170286650366, 0.7539022543433046, -0.14550003380861354, -0.9111302618846769, -0.8390715290764524, 0.004425697988050785)
	mask := f64([]int{2, 3}, 1, 1, 0, 1, 0, 1)
	s3, w3 := []int{2, 2, 2}, []int{2, 3, 2}
	forward("dot_product_attention scaled with weights", "dot_product_attention", ops.Args{I: []int64{1, 1}}, arrays(q, k, v),
		arrays(f64(s3, 0.44556130111289094, 0.4537778155951874, -0.5145427888087638, -0.5219983858685832, 0.6170747670828212, 0.6217792813618328, -0.6576295340751838, -0.661645787161815), f64(w3, 0.40522902690849216, 0.4104543835272822, 0.30095100759839016, 0.3018048347393754, 0.2938199654931176, 0.2877407817333424, 0.437600044957168, 0.44086097384111805, 0.3099096173343268, 0.31113154217194183, 0.25249033770850526, 0.24800748398694022)), 1e-12)
	forward("dot_product_attention float32", "dot_product_attention", ops.Args{I: []int64{1, 0}}, arrays(to32(q), to32(k), to32(v)),
		arrays(to32(f64(s3, 0.44556130111289094, 0.4537778155951874, -0.5145427888087638, -0.5219983858685832, 0.6170747670828212, 0.6217792813618328, -0.6576295340751838, -0.661645787161815))), 2e-6)
	forward("dot_product_attention masked unscaled", "dot_product_attention", ops.Args{I: []int64{0, 1}}, arrays(q, k, v, mask),
		arrays(f64(s3, 0.8178030634736104, 0.8193529734723681, -0.8566837253239721, -0.8578177542569646, 0.6120930037736297, 0.6205820613183153, -0.6229030887958569, -0.6299324962828129), f64(w3, 0.603659233334923, 0.6070308186583708, 0.396340766665077, 0.3929691813416291, 0.0, 0.0, 0.6851889062806312, 0.6928666537860193, 0.0, 0.0, 0.3148110937193689, 0.3071333462139807)), 1e-12)
	G := f64(s3, 1, -2, 0.5, 1.5, -1, 0.25, 2, -0.5)
	forward("dot_product_attention_bp masked scaled", "dot_product_attention_bp", ops.Args{I: []int64{1}}, arrays(q, k, v, G, mask),
		arrays(f64(s3, -0.0424192352355135, 0.2068827473777901, 0.045265001968886054, -0.2207618301497405, 0.6112953632175788, -0.1517661027961026, -0.6803541601207996, 0.16891130805163357), f64([]int{2, 2, 3}, 0.03625920541594496, -0.03625920541594496, 0.0, -0.06146461073441856, 0.06146461073441856, 0.0, -0.1511877947280027, 0.0, 0.1511877947280027, -0.332279680437253, 0.0, 0.332279680437253),
			f64([]int{2, 2, 3}, -0.578709683729528, -0.42129031596616073, 0.0, 1.1513228388437824, 0.8486771609916843, 0.0, -0.47412528592083447, 0.0, -0.2758747139619544, 0.9482505722857582, 0.0, 0.5517494277018642)), 1e-7)
	gradient("dot_product_attention scaled", "dot_product_attention", ops.Args{I: []int64{1, 0}}, []input{in(q), in(k), in(v)})
	gradient("dot_product_attention masked with weights", "dot_product_attention", ops.Args{I: []int64{0, 1}},
		[]input{in(q), in(k), in(v), fixed(mask)})
	// Four dimensions: [batch 1, heads 2, features 2, timesteps].
	gradient("dot_product_attention rank 4", "dot_product_attention", ops.Args{I: []int64{1, 1}},
		[]input{in(ndarray.Must(ndarray.Reshape(q, 1, 2, 2, 2))), in(ndarray.Must(ndarray.Reshape(k, 1, 2, 2, 3))),
			in(ndarray.Must(ndarray.Reshape(v, 1, 2, 2, 3))), fixed(f64([]int{1, 3}, 1, 0, 1))})

	x := f64([]int{1, 2, 2}, 1, -1, 0.5, 2)
	kv := f64([]int{1, 2, 3}, 0.5, -1, 2, 1, 0, -0.5)
	wq := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.Sin, counting(0, 8), 0)), 2, 2, 2))
	wk := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.Cos, counting(0, 8), 0)), 2, 2, 2))
	wv := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.ScaleBy, counting(-3.5, 8), 0.2)), 2, 2, 2))
	wo := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.Sin, counting(1, 12), 0)), 4, 3))
	mha := arrays(x, kv, kv, wq, wk, wv, wo)
	forward("multi_head_dot_product_attention with weights", "multi_head_dot_product_attention", ops.Args{I: []int64{1, 1}}, mha,
		arrays(f64([]int{1, 3, 2}, -0.49553301992633536, -0.8365944932905516, -0.7253867609255248, -1.1021019648561223, -0.2883232592222287, -0.35434197253658917), f64([]int{1, 2, 3, 2}, 0.2042215858027099, 0.3854841397721436, 0.3405749678421432, 0.016622609627265424, 0.4552034463551468, 0.597893250600591, 0.20166057641677762, 0.18043349406648268, 0.1016277179079661, 0.00859473392520701, 0.6967117056752563, 0.8109717720083103)), 1e-12)
	mha32 := make([]*ndarray.Array, len(mha))
	for i, a := range mha {
		mha32[i] = to32(a)
	}
	forward("multi_head_dot_product_attention float32", "multi_head_dot_product_attention", ops.Args{I: []int64{1, 0}}, mha32,
		arrays(to32(f64([]int{1, 3, 2}, -0.49553301992633536, -0.8365944932905516, -0.7253867609255248, -1.1021019648561223, -0.2883232592222287, -0.35434197253658917))), 2e-6)
	forward("multi_head_dot_product_attention_bp", "multi_head_dot_product_attention_bp", ops.Args{I: []int64{1}},
		append(append([]*ndarray.Array(nil), mha...), f64([]int{1, 3, 2}, 1, -1, 0.5, 2, -0.5, 1)),
		arrays(f64([]int{1, 2, 2}, 0.15430019728590594, 0.021773206348996155, -0.5841549475249508, -0.037369560335065444), f64([]int{1, 2, 3}, -0.06771426752649745, 0.09154661784194218, -0.023832350537489333, 0.00741433781037415, -0.14468531217559644, 0.1372709750313561),
			f64([]int{1, 2, 3}, -0.4508042590334327, -0.2228472282261862, -1.322090984023916, -0.4728607461146339, -0.21212324874397837, -1.3671628722455864), f64([]int{2, 2, 2}, -0.5173865678109735, -0.29378027566195897, 0.18610712593236656, 0.155338045315645, 0.08179079258319177, 0.06933061191816137, -0.0901873269398834, -0.11422990331411143),
			f64([]int{2, 2, 2}, -0.2275501489457099, -0.036382278745250574, -0.5273700431907002, 0.028601568891062357, 0.19240803617037727, -0.009222227204119804, -0.040842123905093786, -0.014103134660103933), f64([]int{2, 2, 2}, 2.3576313530337956, 0.0681162919402567, -2.7130012034692896, -0.09901631181641335, 4.270600532541025, -0.5289227289484444, -4.474710673552096, 0.5622200327515259),
			f64([]int{4, 3}, 0.5449330964246712, -2.2365407774671553, -0.7742680134814606, 0.22098073815257635, -0.9400734803932664, -0.3206031389257902, -0.007586822947658334, 0.2533086838063525, 0.05521383039663874, -0.10061980670883486, 1.6853053570464738, 0.39743295543459567)), 1e-7)
	var gin []input
	for _, a := range mha {
		gin = append(gin, in(a))
	}
	gradient("multi_head_dot_product_attention scaled", "multi_head_dot_product_attention", ops.Args{I: []int64{1, 0}}, gin)
	gradient("multi_head_dot_product_attention masked with weights", "multi_head_dot_product_attention", ops.Args{I: []int64{0, 1}},
		append(gin, fixed(f64([]int{1, 3}, 1, 1, 0))))
}
