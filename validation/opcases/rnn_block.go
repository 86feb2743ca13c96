package opcases

import (
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of lstmBlock (ops/rnn_block.go). libnd4j's lstmBlock tests assert
// no values, so these come from this numpy script (numpy 1.24, float64),
// lstmBlock_bp's by central differences of Σ_k out_k·G_k; sig is the
// logistic function:
//
//	def sig(v): return 1/(1+np.exp(-v))
//	def cell(x,cl,yl,W,wci,wcf,wco,b,peep,fb,clip):
//	    n=cl.shape[1]; m=np.concatenate([x,yl],1)@W+b
//	    zi,zz,zf,zo=m[:,:n],m[:,n:2*n],m[:,2*n:3*n],m[:,3*n:]
//	    if peep: zi=zi+cl*wci; zf=zf+cl*wcf
//	    i=sig(zi); z=np.tanh(zz); f=sig(zf+fb); c=z*i+f*cl
//	    if clip>0: c=np.clip(c,-clip,clip)
//	    if peep: zo=zo+c*wco
//	    o=sig(zo); h=np.tanh(c); return i,c,f,o,z,h,o*h
//	def block(L,x,cl,yl,W,wci,wcf,wco,b,peep,fb,clip):   # x time-major
//	    outs=[np.zeros((x.shape[0],x.shape[1],cl.shape[1])) for _ in range(7)]
//	    for t in range(L):
//	        r=cell(x[t],cl,yl,W,wci,wcf,wco,b,peep,fb,clip)
//	        for k in range(7): outs[k][t]=r[k]
//	        cl,yl=r[1],r[6]
//	    return outs
//	x=np.sin(np.arange(12.)).reshape(3,2,2); cl=np.array([[0.5,-1],[2,0.1]]); yl=np.array([[0.3,-0.2],[-0.6,0.9]])
//	W=np.sin(np.arange(32.)).reshape(4,8)*0.5; wci=np.array([0.5,-0.25]); wcf=np.array([-0.4,0.3]); wco=np.array([0.2,0.6])
//	b=np.cos(np.arange(8.))*0.1
//	A=block(3,x,cl,yl,W,wci,wcf,wco,b,1,1.0,0.)        # A: TNS, peephole, forgetBias 1, maxTSLength 3
//	B=block(2,x,cl,yl,W,wci,wcf,wco,b,0,0.,0.5)        # B: NTS (x.transpose(1,0,2)), cell clipped to ±0.5, maxTSLength 2
//	G=[np.sin(np.arange(12.)+k).reshape(2,3,2).transpose(1,0,2) for k in range(7)]   # gradients of i, c, f, o, z, h, y for B (NTS), time-major
//	ins=[x,cl,yl,W,wci,wcf,wco,b]
//	def loss(v):
//	    o=block(2,*v,0,0.,0.5); return sum((o[k]*G[k]).sum() for k in range(7))
//	grads=[]
//	for j,a in enumerate(ins):
//	    g=np.zeros_like(a)
//	    for idx in np.ndindex(a.shape):
//	        e=1e-6; p=[q.copy() for q in ins]; p[j][idx]+=e; lp=loss(p); p[j][idx]-=2*e; lm=loss(p); g[idx]=(lp-lm)/(2*e)
//	    grads.append(g)

func init() {
	x := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.Sin, counting(0, 12), 0)), 3, 2, 2))
	xNTS := ndarray.Must(ndarray.Copy(ndarray.Must(ndarray.Permute(x, 1, 0, 2))))
	cl := f64([]int{2, 2}, 0.5, -1, 2, 0.1)
	yl := f64([]int{2, 2}, 0.3, -0.2, -0.6, 0.9)
	w := ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.ScaleBy, ndarray.Must(ndarray.Unary(ndarray.Sin, counting(0, 32), 0)), 0.5)), 4, 8))
	wci, wcf, wco := f64([]int{2}, 0.5, -0.25), f64([]int{2}, -0.4, 0.3), f64([]int{2}, 0.2, 0.6)
	b := ndarray.Must(ndarray.Unary(ndarray.ScaleBy, ndarray.Must(ndarray.Unary(ndarray.Cos, counting(0, 8), 0)), 0.1))
	argsA := ops.Args{I: []int64{1, 0}, F: []float64{1, 0}}
	argsB := ops.Args{I: []int64{0, 2}, F: []float64{0, 0.5}}
	insA := arrays(i64(nil, 3), x, cl, yl, w, wci, wcf, wco, b)
	insB := arrays(i64(nil, 2), xNTS, cl, yl, w, wci, wcf, wco, b)
	wantA := arrays(f64([]int{3, 2, 2}, 0.692882594935244, 0.5857561230731202, 0.7002880395685365, 0.6614010396547284, 0.4456641863098373, 0.45413640603718564, 0.721559780719812, 0.452880832176415, 0.5859482091830572, 0.6814617974974231, 0.45431775034318655, 0.36907370129294914), f64([]int{3, 2, 2}, 0.02730176193780598, -1.0613027361363447, 1.3052179697861237, 0.2330622324856464, -0.08864349263150334, -0.6939951702679453, 0.5272386660368502, 0.03953918870703599, 0.08555290283867212, -0.641696301417861, 0.36250960659712145, 0.1689796919738381), f64([]int{3, 2, 2}, 0.6499300103589918, 0.7496989134694035, 0.4014852917011222, 0.5255795436426386, 0.8072208499654229, 0.7281176305069142, 0.6330401328991818, 0.8158381409737763, 0.6087008522163688, 0.6165740377523796, 0.7920614991494426, 0.7702521767558496), f64([]int{3, 2, 2}, 0.6492482668067601, 0.4074971998880208, 0.4645503648003025, 0.652910903798802, 0.46685982359816813, 0.30065529631334603, 0.620175472627654, 0.5052765298555632, 0.5667026975280007, 0.5506526199062731, 0.4348802999102326, 0.38748068123466656), f64([]int{3, 2, 2}, -0.4296012707167355, -0.5319685281856517, 0.7172011486778004, 0.2729119963518825, -0.24835301446354877, 0.17342380432654836, -0.41440321233074456, -0.3325419383538547, 0.23809317984163159, -0.31373276959947594, -0.12127160251158947, 0.3753303075234034), f64([]int{3, 2, 2}, 0.02729498050747327, -0.7861619481431974, 0.8630604129312179, 0.2289321200089494, -0.08841204299774323, -0.6005424372943545, 0.48326748508168055, 0.03951859708715346, 0.08534478303656565, -0.5660534381603213, 0.34742264599411604, 0.16738949579325155), f64([]int{3, 2, 2}, 0.017721218787001322, -0.32035879252686433, 0.400935029671897, 0.14947227738361896, -0.04127603079788006, -0.1805562644334732, 0.299710640966109, 0.019967819600957067, 0.04836511876676371, -0.3116988087299345, 0.15108726448552776, 0.06486019586149647))
	wantB := arrays(f64([]int{2, 3, 2}, 0.637292143617765, 0.5240934896438767, 0.43738918083000994, 0.39406501337492644, 0.0, 0.0, 0.46223949818449517, 0.6669769927378726, 0.5842137225584717, 0.49358822605208513, 0.0, 0.0), f64([]int{2, 3, 2}, -0.0463782275748367, -0.5, -0.11994264578363578, -0.20505358504729282, 0.0, 0.0, 0.5, 0.210367364138474, 0.04006679556279741, -0.05286284835234982, 0.0, 0.0), f64([]int{2, 3, 2}, 0.4548065742822948, 0.5979683809190339, 0.6056795293958431, 0.5655898782098963, 0.0, 0.0, 0.3545083897883588, 0.2834134152960614, 0.49150871421145303, 0.583000682031915, 0.0, 0.0), f64([]int{2, 3, 2}, 0.6480037972196798, 0.5652409433985899, 0.46405288847681403, 0.3966299053109975, 0.0, 0.0, 0.40057245487132853, 0.620582608205543, 0.5977462172617946, 0.5232096684835434, 0.0, 0.0), f64([]int{2, 3, 2}, -0.4296012707167355, -0.5319685281856517, -0.2100013140644956, 0.19728052838755725, 0.0, 0.0, 0.7172011486778004, 0.2729119963518825, -0.3520758818230988, -0.35557405111972074, 0.0, 0.0), f64([]int{2, 3, 2}, -0.046345003897899986, -0.46211715726000974, -0.11937076196711202, -0.20222715189640833, 0.0, 0.0, 0.46211715726000974, 0.2073181010277678, 0.04004536893677061, -0.05281366192803547, 0.0, 0.0), f64([]int{2, 3, 2}, -0.030031738508000054, -0.2612075379303224, -0.055394346890516546, -0.08020933610798514, 0.0, 0.0, 0.18511140412180188, 0.1286580078640324, 0.023936967800807604, -0.02763261854876938, 0.0, 0.0))
	forward("lstmBlock TNS peephole forget bias", "lstmBlock", argsA, insA, wantA, 1e-12)
	forward("lstmBlock NTS clipped, two of three steps", "lstmBlock", argsB, insB, wantB, 1e-12)
	ins32, want32 := make([]*ndarray.Array, len(insA)), make([]*ndarray.Array, len(wantA))
	ins32[0] = insA[0]
	for i, a := range insA[1:] {
		ins32[i+1] = to32(a)
	}
	for i, a := range wantA {
		want32[i] = to32(a)
	}
	forward("lstmBlock float32", "lstmBlock", argsA, ins32, want32, 2e-6)
	gs := append([]*ndarray.Array(nil), insB...)
	for k := 0; k < 7; k++ {
		gs = append(gs, ndarray.Must(ndarray.Reshape(ndarray.Must(ndarray.Unary(ndarray.Sin, counting(float64(k), 12), 0)), 2, 3, 2)))
	}
	gradB := arrays(f64([]int{2, 3, 2}, -0.40021863356720644, 0.34776536295133553, 0.4055104736444548, -0.5282217958590962, 0.0, 0.0, -0.18875731300216358, 0.028459521628221296, 0.24813911370102915, -0.5715448124776756, 0.0, 0.0), f64([]int{2, 2}, 0.13323920045049675, 0.0, 0.0, 0.43518970738176677), f64([]int{2, 2}, 0.29901888931593845, -0.43477987987650124, 0.1804755899170729, -0.08097793036121459), f64([]int{4, 8}, -0.2171011700413672, 0.17005801111746877, -0.5029888215934974, -0.7544147255789113, 0.3413703923982325, 0.3719420318404332, 0.29482530317093136, 0.034094996714806314, -0.10939043204594157, 0.184215824816647, -0.5004440818412448, -0.8445994701400394, 0.46622788163475093, 0.17837889876304303, 0.14125270564324666, -0.29815909330377366, 0.05011453241277053, -0.07576365257389028, 0.05926335300276975, -0.11217182938061399, -0.04371721140650209, -0.08797737416355034, -0.04156031763180579, -0.07531196954957409, -0.08311916122050178, 0.1643382435689844, -0.177382268429227, 0.04886967996942104, 0.20758614716065438, 0.14322082775297673, 0.060003892410342985, -0.0005384888090986806), f64([]int{2}, 0.0, 0.0), f64([]int{2}, 0.0, 0.0), f64([]int{2}, 0.0, 0.0), f64([]int{8}, 0.17970794063959517, 0.5324311692644912, -0.21905355096496493, 0.8030657655533346, 0.3355185466125121, -0.33271419042080197, -0.4306271241816262, -0.6366526318357657))
	forward("lstmBlock_bp NTS clipped, two of three steps", "lstmBlock_bp", argsB, gs, gradB, 1e-7)
	gin := []input{fixed(insA[0])}
	for _, a := range insA[1:] {
		gin = append(gin, in(a))
	}
	gradient("lstmBlock TNS peephole", "lstmBlock", argsA, gin)
	ginB := []input{fixed(i64(nil, 2)), in(xNTS)}
	ginB = append(ginB, gin[2:]...)
	gradient("lstmBlock NTS two of three steps", "lstmBlock", ops.Args{I: []int64{1, 2}, F: []float64{0.5, 0}}, ginB)
	gradient("lstmBlock NST", "lstmBlock", ops.Args{I: []int64{1, 1}, F: []float64{0, 0}},
		append([]input{fixed(i64(nil, 3)), in(ndarray.Must(ndarray.Copy(ndarray.Must(ndarray.Permute(x, 1, 2, 0)))))}, gin[2:]...))
}
