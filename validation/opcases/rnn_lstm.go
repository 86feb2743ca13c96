package opcases

import (
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ops"
)

// Cases of lstmLayer and lstmLayer_bp (ops/rnn_lstm.go).
//
// The "lstmLayer_N" cases are libnd4j's DeclarableOpsTests13.lstmLayer_N
// (float32; their expected values, given to about 6 digits, ported as
// facts): x = linspace(0.5, 0.5), constant weights (the backward
// direction's negated), hI = 1, cI = 2 (-1, -2 backward), peepholes -0.05
// (0.05 backward). Every unit of a row gets the same value there, so each
// expected number stands for nOut = 3 equal elements (rep3).

// lstmArgs is lstmLayer's argument layout: int args dataFormat,
// directionMode, gateAct, cellAct, outAct; bool args hasBiases, hasSeqLen,
// hasInitH, hasInitC, hasPH, retFullSeq, retLastH, retLastC; float args
// cellClip and the activations' α, β.
func lstmArgs(format, mode int64, acts [3]int64, bools [8]bool, floats ...float64) ops.Args {
	return ops.Args{I: []int64{format, mode, acts[0], acts[1], acts[2]}, B: bools[:], F: floats}
}

// rep3 is a float32 array of shape whose values come in runs of three.
func rep3(shape []int, v ...float32) *ndarray.Array {
	out := make([]float32, 0, 3*len(v))
	for _, x := range v {
		out = append(out, x, x, x)
	}
	return f32(shape, out...)
}

// full32 is a float32 array of shape filled with v.
func full32(v float64, shape ...int) *ndarray.Array {
	return ndarray.Must(ndarray.Full(ndarray.Float32, v, shape...))
}

// pair32 is a float32 [2, shape...] array, v0 in its first half and v1 in
// its second (a bidirectional parameter).
func pair32(v0, v1 float64, shape ...int) *ndarray.Array {
	n := ndarray.Packed(shape...).Size()
	out := make([]float32, 2*n)
	for i := range out {
		out[i] = float32(v0)
		if i >= n {
			out[i] = float32(v1)
		}
	}
	return f32(append([]int{2}, shape...), out...)
}

// lin32 is linspace(0.5, 0.5) over shape in float32.
func lin32(shape ...int) *ndarray.Array {
	return ndarray.Must(ndarray.Cast(ndarray.Must(ndarray.Unary(ndarray.ScaleBy, counting(1, shape...), 0.5)), ndarray.Float32))
}

func init() {
	sig, all := [3]int64{2, 0, 0}, [8]bool{true, false, true, true, false, true, true, true}
	withPH := [8]bool{true, false, true, true, true, true, true, true}
	withSeq := [8]bool{true, true, true, true, true, true, true, true}
	uni := func(x *ndarray.Array, nIn int, extra ...*ndarray.Array) []*ndarray.Array {
		return append(arrays(x, full32(0.003, nIn, 12), full32(0.006, 3, 12), full32(0.5, 12)), extra...)
	}
	init3 := func(bS int) []*ndarray.Array { return arrays(full32(1, bS, 3), full32(2, bS, 3)) }
	bi := func(x *ndarray.Array, bS int, extra ...*ndarray.Array) []*ndarray.Array {
		return append(arrays(x, pair32(0.003, -0.003, 4, 12), pair32(0.006, -0.006, 3, 12), pair32(0.5, -0.5, 12)), extra...)
	}
	biInit := func(bS int) []*ndarray.Array { return arrays(pair32(1, -1, bS, 3), pair32(2, -2, bS, 3)) }

	forward("lstmLayer_1 (TNS, forward)", "lstmLayer", lstmArgs(0, 0, sig, all, 0),
		append(uni(lin32(5, 3, 3), 3), init3(3)...),
		arrays(rep3([]int{5, 3, 3}, 0.57574, 0.58006, 0.58434, 0.55114, 0.55732, 0.56338, 0.53763, 0.54534, 0.55287,
			0.53626, 0.54487, 0.55327, 0.54484, 0.55379, 0.5625),
			rep3([]int{3, 3}, 0.54484, 0.55379, 0.5625),
			rep3([]int{3, 3}, 1.1589154, 1.1892855, 1.219861)), 1e-5)
	forward("lstmLayer_2 (NTS, forward)", "lstmLayer", lstmArgs(1, 0, sig, all, 0),
		append(uni(lin32(3, 5, 3), 3), init3(3)...),
		arrays(rep3([]int{3, 5, 3}, 0.575735, 0.541562, 0.514003, 0.495597, 0.485999, 0.596965, 0.571978, 0.552888, 0.540606, 0.534764,
			0.61725, 0.599828, 0.587627, 0.580408, 0.577735),
			rep3([]int{3, 3}, 0.485999, 0.534764, 0.577735),
			rep3([]int{3, 3}, 0.996965, 1.146756, 1.301922)), 1e-5)
	forward("lstmLayer_3 (TNS, backward)", "lstmLayer", lstmArgs(0, 1, sig, all, 0),
		append(uni(lin32(5, 2, 4), 4), init3(2)...),
		arrays(rep3([]int{5, 2, 3}, 0.493883, 0.510990, 0.534701, 0.549139, 0.571900, 0.583561, 0.605106, 0.614114, 0.635354, 0.642045),
			rep3([]int{2, 3}, 0.493883, 0.510990),
			rep3([]int{2, 3}, 1.061274, 1.115888)), 1e-5)
	forward("lstmLayer_4 (TNS, bidirectional concat)", "lstmLayer", lstmArgs(0, 3, sig, all, 0),
		append(bi(lin32(5, 2, 4), 2), biInit(2)...),
		arrays(rep3([]int{5, 2, 6}, 0.577661, -0.107642, 0.585289, -0.106937, 0.556517, -0.111647, 0.567274, -0.110214, 0.547395,
			-0.123305, 0.560640, -0.120862, 0.550714, -0.156223, 0.565308, -0.152313, 0.563741, -0.234128, 0.578676, -0.228917),
			rep3([]int{2, 2, 3}, 0.563741, 0.578676, -0.107642, -0.106937),
			rep3([]int{2, 2, 3}, 1.217757, 1.272398, -0.295768, -0.298453)), 1e-5)
	forward("lstmLayer_5 (NTS, bidirectional concat)", "lstmLayer", lstmArgs(1, 3, sig, all, 0),
		append(bi(lin32(2, 5, 4), 2), biInit(2)...),
		arrays(rep3([]int{2, 5, 6}, 0.577661, -0.107659, 0.548099, -0.113406, 0.526881, -0.12883, 0.515882, -0.16868, 0.51409, -0.255185,
			0.614599, -0.102739, 0.599572, -0.105802, 0.591089, -0.116681, 0.588694, -0.149201, 0.591492, -0.228917),
			rep3([]int{2, 2, 3}, 0.51409, 0.591492, -0.107659, -0.102739),
			rep3([]int{2, 2, 3}, 1.07293, 1.346609, -0.295811, -0.305394)), 1e-5)
	forward("lstmLayer_6 (TNS, bidirectional sum)", "lstmLayer", lstmArgs(0, 2, sig, all, 0),
		append(bi(lin32(5, 2, 4), 2), biInit(2)...),
		arrays(rep3([]int{5, 2, 3}, 0.470019, 0.478352, 0.444871, 0.457060, 0.424090, 0.439778, 0.394491, 0.412995, 0.329613, 0.349760),
			rep3([]int{2, 2, 3}, 0.563741, 0.578676, -0.107642, -0.106937),
			rep3([]int{2, 2, 3}, 1.217757, 1.272398, -0.295768, -0.298453)), 1e-5)
	forward("lstmLayer_7 (forward, peepholes)", "lstmLayer", lstmArgs(0, 0, sig, withPH, 0),
		append(append(uni(lin32(5, 2, 4), 4), init3(2)...), full32(-0.05, 9)),
		arrays(rep3([]int{5, 2, 3}, 0.55533, 0.562925, 0.531795, 0.542556, 0.521466, 0.534638, 0.524805, 0.539187, 0.538309, 0.552923),
			rep3([]int{2, 3}, 0.538309, 0.552923),
			rep3([]int{2, 3}, 1.147089, 1.197228)), 1e-5)
	forward("lstmLayer_8 (backward, peepholes, cell clip 1)", "lstmLayer", lstmArgs(0, 1, sig, withPH, 1),
		append(append(uni(lin32(5, 2, 4), 4), init3(2)...), full32(-0.05, 9)),
		arrays(rep3([]int{5, 2, 3}, 0.436221, 0.450573, 0.463602, 0.474674, 0.484039, 0.490679, 0.494871, 0.499028, 0.504649, 0.508719),
			rep3([]int{2, 3}, 0.436221, 0.450573),
			rep3([]int{2, 3}, 0.879804, 0.914666)), 1e-5)
	forward("lstmLayer_9 (bidirectional concat, peepholes)", "lstmLayer", lstmArgs(0, 3, sig, withPH, 0),
		append(append(bi(lin32(5, 2, 4), 2), biInit(2)...), pair32(-0.05, 0.05, 9)),
		arrays(rep3([]int{5, 2, 6}, 0.55533, -0.104502, 0.562925, -0.103843, 0.531795, -0.107456, 0.542556, -0.106139, 0.521466, -0.11681,
			0.534638, -0.11458, 0.524805, -0.145177, 0.539187, -0.14157, 0.538309, -0.218056, 0.552923, -0.213068),
			rep3([]int{2, 2, 3}, 0.538309, 0.552923, -0.104502, -0.103843),
			rep3([]int{2, 2, 3}, 1.147089, 1.197228, -0.289425, -0.292174)), 1e-5)
	seq := f32([]int{5}, 0, 1, 2, 3, 5)
	forward("lstmLayer_10 (forward, sequence lengths, peepholes)", "lstmLayer", lstmArgs(0, 0, sig, withSeq, 0),
		append(append(uni(lin32(6, 5, 4), 4, seq), init3(5)...), full32(-0.05, 9)),
		arrays(rep3([]int{6, 5, 3},
			0, 0.562925, 0.570404, 0.57777, 0.585023,
			0, 0, 0.576568, 0.586163, 0.595462,
			0, 0, 0, 0.611224, 0.621298,
			0, 0, 0, 0, 0.655858,
			0, 0, 0, 0, 0.692315,
			0, 0, 0, 0, 0),
			rep3([]int{5, 3}, 0, 0.562925, 0.576568, 0.611224, 0.692315),
			rep3([]int{5, 3}, 0, 1.534275, 1.40183, 1.449675, 1.767702)), 1e-5)
	forward("lstmLayer_11 (backward, sequence lengths, peepholes)", "lstmLayer", lstmArgs(0, 1, sig, withSeq, 0),
		append(append(uni(lin32(6, 5, 4), 4, seq), init3(5)...), full32(-0.05, 9)),
		arrays(rep3([]int{6, 5, 3},
			0, 0, 0, 0, 0,
			0, 0, 0, 0, 0.61209,
			0, 0, 0, 0, 0.652042,
			0, 0, 0, 0.677708, 0.684177,
			0, 0, 0.699627, 0.705371, 0.710989,
			0, 0.719014, 0.724087, 0.729084, 0.734004),
			rep3([]int{5, 3}, 0, 0.719014, 0.699627, 0.677708, 0.61209),
			rep3([]int{5, 3}, 0, 2.092814, 2.08832, 2.009851, 1.646034)), 1e-5)
	forward("lstmLayer_12 (bidirectional concat, sequence lengths, peepholes)", "lstmLayer", lstmArgs(0, 3, sig, withSeq, 0),
		append(append(bi(lin32(6, 5, 4), 5, seq), biInit(5)...), pair32(-0.05, 0.05, 9)),
		arrays(rep3([]int{6, 5, 6},
			0, 0, 0.562925, -0.25361, 0.570404, -0.157103, 0.57777, -0.116502, 0.585023, -0.100025,
			0, 0, 0, 0, 0.576568, -0.223072, 0.586163, -0.135714, 0.595462, -0.094438,
			0, 0, 0, 0, 0, 0, 0.611224, -0.193473, 0.621298, -0.090626,
			0, 0, 0, 0, 0, 0, 0, 0, 0.655858, -0.098015,
			0, 0, 0, 0, 0, 0, 0, 0, 0.692315, -0.143704,
			0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
			rep3([]int{2, 5, 3}, 0, 0.562925, 0.576568, 0.611224, 0.692315, 0, -0.25361, -0.157103, -0.116502, -0.100025),
			rep3([]int{2, 5, 3}, 0, 1.534275, 1.40183, 1.449675, 1.767702, 0, -0.86636, -0.470245, -0.341856, -0.294986)), 1e-5)
}

// Gradient cases of lstmLayer in several modes, float64, small sizes
// (time 3, batch 2, nIn 2, nOut 2): the checker's central differences go
// through whole sequences and through lstmLayer_bp.
func init() {
	r := seeded(24)
	w := func(shape ...int) input {
		return in(ndarray.Must(ndarray.Unary(ndarray.ScaleBy, randn(r, shape...), 0.5)))
	}
	seq := func(v ...int64) input { return fixed(ints(v...)) }
	// Forward, [time, batch, nIn], every optional input, sigmoid/tanh/tanh.
	gradient("lstmLayer forward TNS, peepholes, all outputs", "lstmLayer",
		lstmArgs(0, 0, [3]int64{2, 0, 0}, [8]bool{true, false, true, true, true, true, true, true}, 0),
		[]input{w(3, 2, 2), w(2, 8), w(2, 8), w(8), w(2, 2), w(2, 2), w(6)})
	// Backward, [batch, time, nIn], sequence lengths, no biases nor hI;
	// softsign gates, elu cell (α 0.7), scaled tanh output (α 1.5, β 0.8).
	gradient("lstmLayer backward NTS, sequence lengths, softsign/elu/scaled tanh", "lstmLayer",
		lstmArgs(1, 1, [3]int64{9, 8, 6}, [8]bool{false, true, false, true, false, true, false, true}, 0, 0.7, 1.5, 0.8),
		[]input{w(2, 3, 2), w(2, 8), w(2, 8), seq(2, 3), w(2, 2)})
	// Bidirectional concat, [batch, nIn, time], sequence lengths, peepholes.
	gradient("lstmLayer bidirectional concat NST, sequence lengths, peepholes", "lstmLayer",
		lstmArgs(2, 3, [3]int64{2, 0, 0}, [8]bool{true, true, true, true, true, true, true, false}, 0),
		[]input{w(2, 2, 3), w(2, 2, 8), w(2, 2, 8), w(2, 8), seq(3, 1), w(2, 2, 2), w(2, 2, 2), w(2, 6)})
	// Bidirectional sum, [time, batch, nIn], cell clipping at 0.3.
	gradient("lstmLayer bidirectional sum TNS, cell clip", "lstmLayer",
		lstmArgs(0, 2, [3]int64{2, 0, 0}, [8]bool{true, false, false, true, false, true, false, true}, 0.3),
		[]input{w(3, 2, 2), w(2, 2, 8), w(2, 2, 8), w(2, 8), w(2, 2, 2)})
	// Bidirectional on an extra axis ([time, 2, batch, nOut]); softplus
	// cell, affine output (α 0.5, β 0.1).
	gradient("lstmLayer bidirectional extra axis T2NS, softplus/affine", "lstmLayer",
		lstmArgs(3, 4, [3]int64{2, 10, 3}, [8]bool{true, false, true, false, false, true, true, true}, 0, 0.5, 0.1),
		[]input{w(3, 2, 2), w(2, 2, 8), w(2, 2, 8), w(2, 8), w(2, 2, 2)})
}

// Cases whose values come from this pure-Python reference (Python 3, no
// numpy; float64), written independently of sdgo from libnd4j's equations
// (gate columns i, f, g, o; peepholes on i, f from the previous cell state
// and on o from the new one; a row's steps past its seqLen are zeros, its
// last output and state zeros when seqLen is 0; backward alone reads the
// last seqLen steps, latest first). lstmLayer_bp's values are central
// differences (step 1e-6) of L = Σ h·Gh + Σ hL·GhL + Σ cL·GcL.
//
//	def arr(n, s, f): return [s*math.sin(f+i) for i in range(n)]
//	def act(k, a, b, z):  # libnd4j's activation codes
//	    if k==0: return math.tanh(z)
//	    if k==1: return max(z,0.0)
//	    if k==2: return 1/(1+math.exp(-z))
//	    if k==3: return a*z+b
//	    if k==4: return z if z>0 else a*z
//	    if k==5: return z if z>a else 0.0
//	    if k==6: return a*math.tanh(b*z)
//	    if k==7: return min(1.0,max(0.0,0.2*z+0.5))
//	    if k==8: return z if z>=0 else a*(math.exp(z)-1)
//	    if k==9: return z/(1+abs(z))
//	    if k==10: return math.log1p(math.exp(z))
//	def lstm(P, c):  # c: fmt (0 TNS, 1 NTS, 2 NST), mode (0, 1), sizes, acts, clip, seq
//	    sL,bS,nIn,nOut=c['sL'],c['bS'],c['nIn'],c['nOut']; f=c['fmt']
//	    def xat(t,e,j):
//	        if f==0: return P['x'][(t*bS+e)*nIn+j]
//	        if f==1: return P['x'][(e*sL+t)*nIn+j]
//	        return P['x'][(e*nIn+j)*sL+t]
//	    G=4*nOut; g,ce,o=c['acts']
//	    h=[[0.0]*nOut for _ in range(sL*bS)]; hL=[[0.0]*nOut for _ in range(bS)]; cL=[[0.0]*nOut for _ in range(bS)]
//	    for e in range(bS):
//	        lim=sL if c['seq'] is None else c['seq'][e]
//	        hp=[P['hI'][e*nOut+j] if 'hI' in P else 0.0 for j in range(nOut)]
//	        cp=[P['cI'][e*nOut+j] if 'cI' in P else 0.0 for j in range(nOut)]
//	        if lim==0: continue
//	        for s in range(lim):
//	            t=s if c['mode']==0 else sL-1-s
//	            z=[sum(xat(t,e,i)*P['Wx'][i*G+k] for i in range(nIn))+sum(hp[i]*P['Wr'][i*G+k] for i in range(nOut))+(P['b'][k] if 'b' in P else 0.0) for k in range(G)]
//	            hn=[0.0]*nOut; cn=[0.0]*nOut
//	            for j in range(nOut):
//	                zi,zf,zg,zo=z[j],z[nOut+j],z[2*nOut+j],z[3*nOut+j]
//	                if 'Wp' in P: zi+=cp[j]*P['Wp'][j]; zf+=cp[j]*P['Wp'][nOut+j]
//	                i_=act(*g,zi); f_=act(*g,zf); gg=act(*ce,zg)
//	                cc=f_*cp[j]+i_*gg
//	                if c['clip']>0: cc=max(-c['clip'],min(c['clip'],cc))
//	                if 'Wp' in P: zo+=cc*P['Wp'][2*nOut+j]
//	                cn[j]=cc; hn[j]=act(*g,zo)*act(*o,cc)
//	            hp,cp=hn,cn; h[t*bS+e]=hn
//	        hL[e]=hp; cL[e]=cp
//	    ... h laid out in c['fmt'], hL, cL flattened
//	A=dict(x=arr(12,0.5,0), Wx=arr(16,0.5,20), Wr=arr(16,0.5,40), b=arr(8,0.3,60), hI=arr(4,0.5,70), cI=arr(4,0.5,80), Wp=arr(6,0.4,90))
//	cA=dict(fmt=0,mode=0,sL=3,bS=2,nIn=2,nOut=2,acts=[(7,0,0),(4,0.2,0),(5,0.1,0)],clip=0.6,seq=[3,0])
//	B=dict(x=arr(12,0.5,0), Wx=arr(16,0.5,20), Wr=arr(16,0.5,40), cI=arr(4,0.5,80))
//	cB=dict(fmt=2,mode=1,sL=3,bS=2,nIn=2,nOut=2,acts=[(1,0,0),(3,0.8,0.1),(8,0.5,0)],clip=0,seq=[2,3])
//	cC=dict(fmt=0,mode=0,sL=3,bS=2,nIn=2,nOut=2,acts=[(2,0,0),(0,0,0),(0,0,0)],clip=0,seq=None)  # on A
//	Gh=[math.cos(0.7*i) for i in range(12)]; GhL=[math.cos(0.7*i+1) for i in range(4)]; GcL=[math.cos(0.7*i+2) for i in range(4)]
func init() {
	arr := func(s, from float64, shape ...int) *ndarray.Array {
		return ndarray.Must(ndarray.Unary(ndarray.ScaleBy, ndarray.Must(ndarray.Unary(ndarray.Sin, counting(from, shape...), 0)), s))
	}
	cosOf := func(shift float64, shape ...int) *ndarray.Array {
		a := ndarray.Must(ndarray.Unary(ndarray.ScaleBy, counting(0, shape...), 0.7))
		return ndarray.Must(ndarray.Unary(ndarray.Cos, ndarray.Must(ndarray.Unary(ndarray.AddScalar, a, shift)), 0))
	}
	x, wx, wr := arr(0.5, 0, 3, 2, 2), arr(0.5, 20, 2, 8), arr(0.5, 40, 2, 8)
	b, hI, cI, wp := arr(0.3, 60, 8), arr(0.5, 70, 2, 2), arr(0.5, 80, 2, 2), arr(0.4, 90, 6)
	every := [8]bool{true, true, true, true, true, true, true, true}
	forward("lstmLayer hard sigmoid/leaky relu/thresholded relu, clip 0.6, seqLen 3 and 0", "lstmLayer",
		lstmArgs(0, 0, [3]int64{7, 4, 5}, every, 0.6, 0.2, 0.1),
		arrays(x, wx, wr, b, ints(3, 0), hI, cI, wp),
		arrays(f64([]int{3, 2, 2}, 0.0, 0.0, 0.0, 0.0, 0.080032201474623, 0.0, 0.0, 0.0, 0.075014075893289, 0.097576955248453, 0.0, 0.0),
			f64([]int{2, 2}, 0.075014075893289, 0.097576955248453, 0.0, 0.0),
			f64([]int{2, 2}, 0.135998482523404, 0.195608984815522, 0.0, 0.0)), 1e-13)
	forward("lstmLayer NST backward, relu/affine/elu, seqLen 2 and 3", "lstmLayer",
		lstmArgs(2, 1, [3]int64{1, 3, 8}, [8]bool{false, true, false, true, false, true, true, true}, 0, 0.8, 0.1, 0.5),
		arrays(arr(0.5, 0, 2, 2, 3), wx, wr, ints(2, 3), cI),
		arrays(f64([]int{2, 2, 3}, 0.0, -0.001366928187632, -0.003058535292705, 0.0, -0.003251396481102, -0.006345557264103,
			0.0, -0.000233747237143, 0.000472682687696, 0, -0.000689844399362, -0.007894453466661),
			f64([]int{2, 2}, -0.001366928187632, -0.003251396481102, 0.0, 0),
			f64([]int{2, 2}, -0.046077778120974, -0.023065912557522, 0.0, -0.000109503120903)), 1e-13)
	forward("lstmLayer_bp forward, peepholes, gradients of h, hL, cL", "lstmLayer_bp",
		lstmArgs(0, 0, [3]int64{2, 0, 0}, [8]bool{true, false, true, true, true, true, true, true}, 0),
		arrays(x, wx, wr, b, hI, cI, wp, cosOf(0, 3, 2, 2), cosOf(1, 2, 2), cosOf(2, 2, 2)),
		arrays(f64([]int{3, 2, 2}, -0.021327673516147, 0.045354635491712, 0.087956424976721, -0.140428323913699, 0.037135540309485, -0.162405922266018,
			0.072710120813113, -0.144324906192761, -0.040231574405247, -0.037502784322463, 0.171415946992326, -0.259033692162625),
			f64([]int{2, 8}, 0.047688541948698, -0.019524553807049, 0.017644704308761, -0.004023434863054, 0.193209181098553, 0.007263412149516, 0.040412204860285, 0.01376141889331,
				0.038790074208261, -0.018208440755174, 0.0140778552149, 0.023851414732157, 0.221173495296156, 0.204434779549345, 0.020744038209397, 0.031670167544018),
			f64([]int{2, 8}, 0.008032134901637, -0.01422210649249, -0.020586170101922, -0.014208079934797, -0.02232120227541, -0.106537281885366, 0.006270139685238, -0.005427642335576,
				-0.004896324679038, -0.0056359411027, -0.020481947859974, 0.009369946318838, 0.011896223117702, 0.002451768787992, 0.000494594809552, 0.013103485685395),
			f64([]int{8}, -0.127628424384518, -0.159874819660732, -0.097079038974268, -0.17628024351346, -0.676930442922163, -1.275958242730191, -0.018285332636925, -0.054770246393776),
			f64([]int{2, 2}, 0.030284729723995, 0.032099425728571, -0.081879679147967, -0.119615161275899),
			f64([]int{2, 2}, 0.143005577879496, -0.046399560138521, -0.115314551241141, -0.184887817555879),
			f64([]int{6}, -0.038720697592698, -0.035200218795328, 0.00581314574255, -0.066400636600239, -0.007740798446676, -0.016438354510928)), 1e-8)
}
