//go:build ignore

// gen writes elem_amd64.s, elem_amd64.go, gemm_amd64.s and gemm_amd64.go:
// the AVX-512 and AVX2+FMA kernels of package amd64. Run it with
//
//	go run gen.go
//
// from this directory after changing it. The generated Go declarations carry
// the doc comments (the plain Go loop each routine computes).
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"math"
	"math/big"
	"os"
	"sort"
	"strings"
)

type isa struct {
	name string // AVX512 or AVX2
	v    string // Z or Y
	w    int    // vector bytes
	k    bool   // has mask registers
}

var (
	avx512 = isa{"AVX512", "Z", 64, true}
	avx2   = isa{"AVX2", "Y", 32, false}
)

type typ struct {
	name string // F32 or F64
	goT  string // float32 or float64
	sz   int    // bytes per element
	p    string // PS or PD
	s    string // SS or SD
}

var (
	f32 = typ{"F32", "float32", 4, "PS", "SS"}
	f64 = typ{"F64", "float64", 8, "PD", "SD"}
)

// g is one generator state: the text of the .s file and the .go file.
type g struct {
	s, gofile bytes.Buffer
	consts    map[string]string // name -> DATA lines
	i         isa
	t         typ
	label     string
}

func (e *g) p(format string, args ...any) { fmt.Fprintf(&e.s, "\t"+format+"\n", args...) }
func (e *g) l(name string)                { fmt.Fprintf(&e.s, "%s_%s:\n", e.label, name) }
func (e *g) L(name string) string         { return e.label + "_" + name }

func (e *g) lanes() int { return e.i.w / e.t.sz }
func (e *g) r(n int) string {
	return fmt.Sprintf("%s%d", e.i.v, n)
}
func (e *g) x(n int) string { return fmt.Sprintf("X%d", n) }
func (e *g) op(name string) string {
	return name + e.t.p
}

// c returns a memory operand for a vector-wide constant holding v in every
// lane; the constant is 64 bytes so both ISAs can use it.
func (e *g) c(v float64) string {
	var bits uint64
	var name string
	if e.t.sz == 4 {
		b := math.Float32bits(float32(v))
		bits = uint64(b)
		name = fmt.Sprintf("c32_%08x", b)
	} else {
		bits = math.Float64bits(v)
		name = fmt.Sprintf("c64_%016x", bits)
	}
	return e.cbits(name, bits)
}

func (e *g) cbits(name string, bits uint64) string {
	if _, ok := e.consts[name]; !ok {
		var b strings.Builder
		for off := 0; off < 64; off += e.t.sz {
			fmt.Fprintf(&b, "DATA %s<>+%d(SB)/%d, $0x%x\n", name, off, e.t.sz, bits)
		}
		fmt.Fprintf(&b, "GLOBL %s<>(SB), RODATA|NOPTR, $64\n", name)
		e.consts[name] = b.String()
	}
	return name + "<>(SB)"
}

// ci is an integer constant in every lane of the element width.
func (e *g) ci(v uint64) string {
	return e.cbits(fmt.Sprintf("i%d_%x", e.t.sz*8, v), v)
}

// mov is the unaligned vector load/store.
func (e *g) mov() string { return "VMOVU" + e.t.p }

// logic ops: AVX-512 needs the integer forms (VPANDD...) without DQ.
func (e *g) and() string {
	if e.i.k {
		return map[int]string{4: "VPANDD", 8: "VPANDQ"}[e.t.sz]
	}
	return "VAND" + e.t.p
}
func (e *g) or() string {
	if e.i.k {
		return map[int]string{4: "VPORD", 8: "VPORQ"}[e.t.sz]
	}
	return "VOR" + e.t.p
}
func (e *g) xor() string {
	if e.i.k {
		return map[int]string{4: "VPXORD", 8: "VPXORQ"}[e.t.sz]
	}
	return "VXOR" + e.t.p
}
func (e *g) andn() string {
	if e.i.k {
		return map[int]string{4: "VPANDND", 8: "VPANDNQ"}[e.t.sz]
	}
	return "VANDN" + e.t.p
}

// Comparison predicates.
const (
	EQ    = 0
	LT    = 1
	LE    = 2
	UNORD = 3
	NEQ   = 4
	ORD   = 7
	GE    = 13
	GT    = 14
)

// cmp sets mask m (a K register with AVX-512, a vector otherwise) to a pred b.
func (e *g) cmp(pred int, a, b, m string) {
	e.p("VCMP%s $%d, %s, %s, %s", e.t.p, pred, b, a, m)
}

// blend sets dst = m ? src : dst, lane by lane.
func (e *g) blend(m, src, dst string) {
	if e.i.k {
		e.p("VMOVAP%s %s, %s, %s", e.t.p[1:], src, m, dst)
	} else {
		e.p("VBLENDV%s %s, %s, %s, %s", e.t.p, m, src, dst, dst)
	}
}

// load broadcasts or loads a constant into a register.
func (e *g) ld(mem, reg string) { e.p("%s %s, %s", e.mov(), mem, reg) }

// ---------------------------------------------------------------------------
// Elementwise kernels.

type arg struct {
	name string
	kind string // "slice" or "scalar"
}

type kernel struct {
	name string
	doc  string // Go loop
	args []arg  // Go arguments in order; the first slice is dst
	ret  bool   // reduction returning T
	// in lists the slice arguments that are loaded per element (by name), in
	// the order body receives them; dst may be among them (Axpy).
	in     []string
	unroll int
	setup  func(e *g)                                               // broadcast constants once
	body   func(e *g, out string, in []string, tmp []string) string // one vector; returns the result register
	cost   int                                                      // number of temps needed
	regs   int                                                      // register limit (default 12 AVX2, 16 AVX-512)
}

// frame computes argument offsets for the Go signature.
func (e *g) frame(k kernel) (offs map[string]int, size int) {
	offs = map[string]int{}
	off := 0
	for _, a := range k.args {
		if a.kind == "slice" {
			off = (off + 7) &^ 7
			offs[a.name] = off
			off += 24
		} else {
			off = (off + e.t.sz - 1) &^ (e.t.sz - 1)
			offs[a.name] = off
			off += e.t.sz
		}
	}
	if k.ret {
		off = (off + e.t.sz - 1) &^ (e.t.sz - 1)
		offs["ret"] = off
		off += e.t.sz
	}
	return offs, off
}

var ptrRegs = []string{"SI", "DX", "R8"}

func (e *g) scalarMov() string { return "MOV" + e.t.s }

// broadcastArg loads scalar argument name into vector reg.
func (e *g) broadcastArg(offs map[string]int, name, reg string) {
	e.p("VBROADCAST%s %s+%d(FP), %s", e.t.s, name, offs[name], reg)
}

// tailMask prepares the tail mask for CX remaining elements (0 < CX < lanes):
// K1 with AVX-512, the vector register Y15 otherwise.
func (e *g) tailMask() {
	if e.i.k {
		e.p("MOVL $1, R9")
		e.p("SHLL CX, R9")
		e.p("DECL R9")
		e.p("KMOVW R9, K1")
	} else {
		e.p("MOVQ CX, R9")
		e.p("SHLQ $%d, R9", map[int]int{4: 2, 8: 3}[e.t.sz])
		e.p("NEGQ R9")
		e.p("LEAQ tailmask<>+32(SB), R10")
		e.p("VMOVDQU (R10)(R9*1), Y15")
	}
}

// mload loads under the tail mask, zeroing the other lanes.
func (e *g) mload(mem, reg string) {
	if e.i.k {
		e.p("%s.Z %s, K1, %s", e.mov(), mem, reg)
	} else {
		e.p("VMASKMOV%s %s, Y15, %s", e.t.p, mem, reg)
	}
}

func (e *g) mstore(reg, mem string) {
	if e.i.k {
		e.p("%s %s, K1, %s", e.mov(), reg, mem)
	} else {
		e.p("VMASKMOV%s %s, Y15, %s", e.t.p, reg, mem)
	}
}

func (e *g) mem(ptr string, vec int) string {
	if vec == 0 {
		return fmt.Sprintf("(%s)(AX*%d)", ptr, e.t.sz)
	}
	return fmt.Sprintf("%d(%s)(AX*%d)", vec*e.i.w, ptr, e.t.sz)
}

func (e *g) header(k kernel) map[string]int {
	offs, size := e.frame(k)
	fn := k.name + e.t.name + e.i.name
	e.label = strings.ToLower(fn)
	fmt.Fprintf(&e.s, "\n// func %s(%s)%s\n", fn, e.goArgs(k), e.goRet(k))
	fmt.Fprintf(&e.s, "TEXT ·%s(SB), NOSPLIT, $0-%d\n", fn, size)
	return offs
}

func (e *g) goArgs(k kernel) string {
	var parts []string
	for _, a := range k.args {
		if a.kind == "slice" {
			parts = append(parts, a.name+" []"+e.t.goT)
		} else {
			parts = append(parts, a.name+" "+e.t.goT)
		}
	}
	return strings.Join(parts, ", ")
}

func (e *g) goRet(k kernel) string {
	if k.ret {
		return " " + e.t.goT
	}
	return ""
}

func (e *g) godecl(k kernel) {
	fn := k.name + e.t.name + e.i.name
	doc := strings.ReplaceAll(k.doc, "T", e.t.goT)
	fmt.Fprintf(&e.gofile, "\n// %s computes, with %s,\n//\n", fn, map[string]string{"AVX512": "AVX-512F", "AVX2": "AVX2 and FMA"}[e.i.name])
	for _, line := range strings.Split(strings.TrimSpace(doc), "\n") {
		fmt.Fprintf(&e.gofile, "//\t%s\n", line)
	}
	fmt.Fprintf(&e.gofile, "//\n//go:noescape\nfunc %s(%s)%s\n", fn, e.goArgs(k), e.goRet(k))
}

// elementwise emits an elementwise kernel: dst[i] = body(in...[i]).
func (e *g) elementwise(k kernel) {
	e.godecl(k)
	offs := e.header(k)
	L := e.lanes()
	e.p("MOVQ dst_base+0(FP), DI")
	e.p("MOVQ dst_len+8(FP), R11")
	ptr := map[string]string{"dst": "DI"}
	pi := 0
	for _, a := range k.args[1:] {
		if a.kind == "slice" {
			ptr[a.name] = ptrRegs[pi]
			e.p("MOVQ %s_base+%d(FP), %s", a.name, offs[a.name], ptrRegs[pi])
			pi++
		}
	}
	if k.setup != nil {
		k.setup(e)
	}
	for _, a := range k.args {
		if a.kind == "scalar" {
			e.broadcastArg(offs, a.name, e.r(12))
		}
	}
	U := k.unroll
	e.p("XORQ AX, AX")
	nin := len(k.in)
	// register plan: inputs j*U+u (u<U), outputs 8+u ... generic: allocate
	reg := 0
	inRegs := make([][]string, U)
	outRegs := make([]string, U)
	tmpRegs := make([][]string, U)
	for u := 0; u < U; u++ {
		for j := 0; j < nin; j++ {
			inRegs[u] = append(inRegs[u], e.r(reg))
			reg++
		}
		outRegs[u] = e.r(reg)
		reg++
		for j := 0; j < k.cost; j++ {
			tmpRegs[u] = append(tmpRegs[u], e.r(reg))
			reg++
		}
	}
	limit := 12 // Y12..Y14 constants, Y15 mask
	if e.i.k {
		limit = 16 // Z16.. constants
	}
	if k.regs != 0 {
		limit = k.regs
	}
	if reg > limit {
		panic(fmt.Sprintf("%s: too many registers %d", k.name, reg))
	}
	vec := func(u int, mem func(ptr string) string, store func(reg, mem string), load func(mem, reg string)) {
		for j, name := range k.in {
			load(mem(ptr[name]), inRegs[u][j])
		}
		res := k.body(e, outRegs[u], inRegs[u], tmpRegs[u])
		store(res, mem("DI"))
	}
	plainLoad := func(mem, reg string) { e.p("%s %s, %s", e.mov(), mem, reg) }
	plainStore := func(reg, mem string) { e.p("%s %s, %s", e.mov(), reg, mem) }
	if U > 1 {
		e.p("MOVQ R11, R12")
		e.p("SUBQ $%d, R12", U*L)
		e.p("JL %s", e.L("one"))
		e.l("loop")
		for u := 0; u < U; u++ {
			for j, name := range k.in {
				plainLoad(e.mem(ptr[name], u), inRegs[u][j])
			}
		}
		res := make([]string, U)
		for u := 0; u < U; u++ {
			res[u] = k.body(e, outRegs[u], inRegs[u], tmpRegs[u])
		}
		for u := 0; u < U; u++ {
			plainStore(res[u], e.mem("DI", u))
		}
		e.p("ADDQ $%d, AX", U*L)
		e.p("CMPQ AX, R12")
		e.p("JLE %s", e.L("loop"))
	}
	e.l("one")
	e.p("MOVQ R11, R12")
	e.p("SUBQ $%d, R12", L)
	e.l("loop1")
	e.p("CMPQ AX, R12")
	e.p("JG %s", e.L("tail"))
	vec(0, func(p string) string { return e.mem(p, 0) }, plainStore, plainLoad)
	e.p("ADDQ $%d, AX", L)
	e.p("JMP %s", e.L("loop1"))
	e.l("tail")
	e.p("MOVQ R11, CX")
	e.p("SUBQ AX, CX")
	e.p("JZ %s", e.L("done"))
	e.tailMask()
	vec(0, func(p string) string { return e.mem(p, 0) }, e.mstore, e.mload)
	e.l("done")
	e.p("VZEROUPPER")
	e.p("RET")
}

// ---------------------------------------------------------------------------
// Bodies.

func binop(name string) func(e *g, out string, in, tmp []string) string {
	return func(e *g, out string, in, tmp []string) string {
		e.p("%s %s, %s, %s", e.op(name), in[1], in[0], out)
		return out
	}
}

// maxmin computes max2/min2 of in[0] and in[1]: VMAXPS returns its second
// source when either is NaN, so a NaN in x is patched in afterwards.
func maxmin(name string) func(e *g, out string, in, tmp []string) string {
	return func(e *g, out string, in, tmp []string) string {
		e.p("%s %s, %s, %s", e.op(name), in[1], in[0], out)
		if e.i.k {
			e.cmp(UNORD, in[0], in[0], "K2")
			e.blend("K2", in[0], out)
		} else {
			e.cmp(UNORD, in[0], in[0], in[1])
			e.blend(in[1], in[0], out)
		}
		return out
	}
}

func maxminScalar(name string) func(e *g, out string, in, tmp []string) string {
	return func(e *g, out string, in, tmp []string) string {
		e.p("%s %s, %s, %s", e.op(name), e.r(12), in[0], out)
		if e.i.k {
			e.cmp(UNORD, in[0], in[0], "K2")
			e.blend("K2", in[0], out)
		} else {
			e.cmp(UNORD, in[0], in[0], tmp[0])
			e.blend(tmp[0], in[0], out)
		}
		return out
	}
}

func scalarop(name string, sFirst bool) func(e *g, out string, in, tmp []string) string {
	return func(e *g, out string, in, tmp []string) string {
		if sFirst {
			e.p("%s %s, %s, %s", e.op(name), in[0], e.r(12), out)
		} else {
			e.p("%s %s, %s, %s", e.op(name), e.r(12), in[0], out)
		}
		return out
	}
}

func elementKernels() []kernel {
	bin := []arg{{"dst", "slice"}, {"x", "slice"}, {"y", "slice"}}
	sc := []arg{{"dst", "slice"}, {"x", "slice"}, {"s", "scalar"}}
	sc2 := []arg{{"dst", "slice"}, {"s", "scalar"}, {"x", "slice"}}
	un := []arg{{"dst", "slice"}, {"x", "slice"}}
	xy := []string{"x", "y"}
	xs := []string{"x"}
	loop := func(expr string) string {
		return "for i := range dst {\n\tdst[i] = " + expr + "\n}"
	}
	ks := []kernel{
		{name: "Add", doc: loop("x[i] + y[i]"), args: bin, in: xy, unroll: 4, body: binop("VADD")},
		{name: "Sub", doc: loop("x[i] - y[i]"), args: bin, in: xy, unroll: 4, body: binop("VSUB")},
		{name: "Mul", doc: loop("x[i] * y[i]"), args: bin, in: xy, unroll: 4, body: binop("VMUL")},
		{name: "Div", doc: loop("x[i] / y[i]"), args: bin, in: xy, unroll: 4, body: binop("VDIV")},
		{name: "Max", doc: loop("x[i] if x[i] > y[i] or x[i] is NaN, else y[i]"), args: bin, in: xy, unroll: 4, body: maxmin("VMAX")},
		{name: "Min", doc: loop("x[i] if x[i] < y[i] or x[i] is NaN, else y[i]"), args: bin, in: xy, unroll: 4, body: maxmin("VMIN")},
		{name: "AddScalar", doc: loop("x[i] + s"), args: sc, in: xs, unroll: 4, body: scalarop("VADD", false)},
		{name: "SubScalar", doc: loop("x[i] - s"), args: sc, in: xs, unroll: 4, body: scalarop("VSUB", false)},
		{name: "DivScalar", doc: loop("x[i] / s"), args: sc, in: xs, unroll: 4, body: scalarop("VDIV", false)},
		{name: "Scale", doc: loop("x[i] * s"), args: sc, in: xs, unroll: 4, body: scalarop("VMUL", false)},
		{name: "MaxScalar", doc: loop("x[i] if x[i] > s or x[i] is NaN, else s"), args: sc, in: xs, unroll: 4, cost: 1, body: maxminScalar("VMAX")},
		{name: "MinScalar", doc: loop("x[i] if x[i] < s or x[i] is NaN, else s"), args: sc, in: xs, unroll: 4, cost: 1, body: maxminScalar("VMIN")},
		{name: "ScalarSub", doc: loop("s - x[i]"), args: sc2, in: xs, unroll: 4, body: scalarop("VSUB", true)},
		{name: "ScalarDiv", doc: loop("s / x[i]"), args: sc2, in: xs, unroll: 4, body: scalarop("VDIV", true)},
		{name: "Axpy", doc: "for i := range dst {\n\tdst[i] += a * x[i] // fused multiply-add\n}",
			args: []arg{{"dst", "slice"}, {"a", "scalar"}, {"x", "slice"}}, in: []string{"dst", "x"}, unroll: 4,
			body: func(e *g, out string, in, tmp []string) string {
				e.p("VFMADD231%s %s, %s, %s", e.t.p, in[1], e.r(12), in[0])
				return in[0]
			}},
		{name: "FMA", doc: "for i := range dst {\n\tdst[i] = x[i]*y[i] + z[i] // fused, one rounding\n}",
			args: []arg{{"dst", "slice"}, {"x", "slice"}, {"y", "slice"}, {"z", "slice"}}, in: []string{"x", "y", "z"}, unroll: 3,
			body: func(e *g, out string, in, tmp []string) string {
				e.p("VFMADD213%s %s, %s, %s", e.t.p, in[2], in[1], in[0])
				return in[0]
			}},
		{name: "Neg", doc: loop("-x[i]"), args: un, in: xs, unroll: 4,
			setup: func(e *g) { e.ld(e.c(math.Copysign(0, -1)), e.r(13)) },
			body: func(e *g, out string, in, tmp []string) string {
				e.p("%s %s, %s, %s", e.xor(), e.r(13), in[0], out)
				return out
			}},
		{name: "Abs", doc: loop("|x[i]| // clears the sign bit"), args: un, in: xs, unroll: 4,
			setup: func(e *g) { e.ld(e.c(math.Copysign(0, -1)), e.r(13)) },
			body: func(e *g, out string, in, tmp []string) string {
				e.p("%s %s, %s, %s", e.andn(), in[0], e.r(13), out)
				return out
			}},
		{name: "Sqrt", doc: loop("sqrt(x[i]) // correctly rounded"), args: un, in: xs, unroll: 4,
			body: func(e *g, out string, in, tmp []string) string {
				e.p("VSQRT%s %s, %s", e.t.p, in[0], out)
				return out
			}},
		{name: "Relu", doc: loop("x[i] if x[i] >= 0 or x[i] is NaN, else 0"), args: un, in: xs, unroll: 4,
			setup: func(e *g) { e.p("%s %s, %s, %s", e.xor(), e.r(13), e.r(13), e.r(13)) },
			body: func(e *g, out string, in, tmp []string) string {
				e.p("VMAX%s %s, %s, %s", e.t.p, in[0], e.r(13), out)
				return out
			}},
	}
	return ks
}

// ---------------------------------------------------------------------------
// Reductions.

func (e *g) hreduce(op string, z int) {
	// reduce vector register z into lane 0 of X(z), using X(z+1) as temp.
	a, b := z, z+1
	if e.i.k {
		e.p("VEXTRACTF64X4 $1, Z%d, Y%d", a, b)
		e.p("%s Y%d, Y%d, Y%d", e.op(op), b, a, a)
	}
	e.p("VEXTRACTF128 $1, Y%d, X%d", a, b)
	e.p("%s X%d, X%d, X%d", e.op(op), b, a, a)
	if e.t.sz == 4 {
		e.p("VMOVHLPS X%d, X%d, X%d", a, a, b)
		e.p("%s X%d, X%d, X%d", e.op(op), b, a, a)
		e.p("VMOVSHDUP X%d, X%d", a, b)
		e.p("%s X%d, X%d, X%d", op+e.t.s, b, a, a)
	} else {
		e.p("VUNPCKHPD X%d, X%d, X%d", a, a, b)
		e.p("%s X%d, X%d, X%d", op+e.t.s, b, a, a)
	}
}

func (e *g) reduction(name, doc string, dot bool, kind string) {
	args := []arg{{"x", "slice"}}
	if dot {
		args = append(args, arg{"y", "slice"})
	}
	k := kernel{name: name, doc: doc, args: args, ret: true}
	e.godecl(k)
	offs := e.header(k)
	L := e.lanes()
	e.p("MOVQ x_base+0(FP), SI")
	e.p("MOVQ x_len+8(FP), R11")
	if dot {
		e.p("MOVQ y_base+24(FP), DX")
	}
	// accumulators R0..R3, loads R4..R7, NaN flags R8 (AVX2) or K3.
	switch kind {
	case "sum":
		for u := 0; u < 4; u++ {
			e.p("%s %s, %s, %s", e.xor(), e.r(u), e.r(u), e.r(u))
		}
	case "max", "min":
		inf := math.Inf(-1)
		if kind == "min" {
			inf = math.Inf(1)
		}
		e.ld(e.c(inf), e.r(0))
		for u := 1; u < 4; u++ {
			e.p("%s %s, %s", e.mov(), e.r(0), e.r(u))
		}
		// one NaN flag per accumulator, so the flags are no serial chain
		if e.i.k {
			for u := 0; u < 4; u++ {
				e.p("KXNORW K%d, K%d, K%d", 3+u, 3+u, 3+u)
			}
		} else {
			for u := 0; u < 4; u++ {
				e.p("VXOR%s Y%d, Y%d, Y%d", e.t.p, 10+u, 10+u, 10+u)
			}
			e.p("%s %s, Y9", e.mov(), e.r(0)) // identity for masked lanes
		}
	}
	mm := map[string]string{"max": "VMAX", "min": "VMIN"}[kind]
	step := func(u int, load func(mem, reg string), masked bool) {
		lr := e.r(4 + u)
		mv := u
		if masked {
			mv = 0
		}
		switch {
		case dot:
			load(e.mem("SI", mv), lr)
			if masked {
				load(e.mem("DX", mv), e.r(8))
				e.p("VFMADD231%s %s, %s, %s", e.t.p, e.r(8), lr, e.r(u))
			} else {
				e.p("VFMADD231%s %s, %s, %s", e.t.p, e.mem("DX", mv), lr, e.r(u))
			}
		case kind == "sum":
			load(e.mem("SI", mv), lr)
			e.p("%s %s, %s, %s", e.op("VADD"), lr, e.r(u), e.r(u))
		default:
			load(e.mem("SI", mv), lr)
			if e.i.k {
				e.p("VCMP%s $%d, %s, %s, K%d, K%d", e.t.p, ORD, lr, lr, 3+u, 3+u)
				if masked {
					e.p("%s %s, %s, K1, %s", e.op(mm), e.r(u), lr, e.r(u))
				} else {
					e.p("%s %s, %s, %s", e.op(mm), e.r(u), lr, e.r(u))
				}
			} else {
				e.p("VCMP%s $%d, Y%d, %s, Y%d", e.t.p, UNORD, 10+u, lr, 10+u)
				if masked {
					e.p("VBLENDV%s Y15, %s, Y9, %s", e.t.p, lr, lr)
				}
				e.p("%s %s, %s, %s", e.op(mm), e.r(u), lr, e.r(u))
			}
		}
	}
	plainLoad := func(mem, reg string) { e.p("%s %s, %s", e.mov(), mem, reg) }
	e.p("XORQ AX, AX")
	e.p("MOVQ R11, R12")
	e.p("SUBQ $%d, R12", 4*L)
	e.p("JL %s", e.L("one"))
	e.l("loop")
	for u := 0; u < 4; u++ {
		step(u, plainLoad, false)
	}
	e.p("ADDQ $%d, AX", 4*L)
	e.p("CMPQ AX, R12")
	e.p("JLE %s", e.L("loop"))
	e.l("one")
	e.p("MOVQ R11, R12")
	e.p("SUBQ $%d, R12", L)
	e.l("loop1")
	e.p("CMPQ AX, R12")
	e.p("JG %s", e.L("tail"))
	step(0, plainLoad, false)
	e.p("ADDQ $%d, AX", L)
	e.p("JMP %s", e.L("loop1"))
	e.l("tail")
	e.p("MOVQ R11, CX")
	e.p("SUBQ AX, CX")
	e.p("JZ %s", e.L("combine"))
	e.tailMask()
	step(1, e.mload, true)
	e.l("combine")
	red := map[string]string{"sum": "VADD", "max": "VMAX", "min": "VMIN"}[kind]
	if dot {
		red = "VADD"
	}
	e.p("%s %s, %s, %s", e.op(red), e.r(1), e.r(0), e.r(0))
	e.p("%s %s, %s, %s", e.op(red), e.r(3), e.r(2), e.r(2))
	e.p("%s %s, %s, %s", e.op(red), e.r(2), e.r(0), e.r(0))
	e.hreduce(red, 0)
	if kind != "max" && kind != "min" {
		e.p("VZEROUPPER")
	}
	if kind == "max" || kind == "min" {
		if e.i.k {
			e.p("VZEROUPPER")
			e.p("KANDW K4, K3, K3")
			e.p("KANDW K6, K5, K5")
			e.p("KANDW K5, K3, K3")
			e.p("KMOVW K3, R9")
			e.p("NOTL R9")
			e.p("ANDL $%d, R9", (1<<L)-1)
		} else {
			e.p("VORPS Y11, Y10, Y10")
			e.p("VORPS Y13, Y12, Y12")
			e.p("VORPS Y12, Y10, Y10")
			e.p("VMOVMSK%s Y10, R9", e.t.p)
			e.p("VZEROUPPER")
		}
		e.p("TESTL R9, R9")
		e.p("JNZ %s", e.L("nan"))
		e.p("%s X0, ret+%d(FP)", e.scalarMov(), offs["ret"])
		e.p("RET")
		e.l("nan")
		if e.t.sz == 4 {
			e.p("MOVL $0x7fc00000, R9")
			e.p("MOVL R9, ret+%d(FP)", offs["ret"])
		} else {
			e.p("MOVQ $0x7ff8000000000001, R9")
			e.p("MOVQ R9, ret+%d(FP)", offs["ret"])
		}
		e.p("RET")
		return
	}
	e.p("%s X0, ret+%d(FP)", e.scalarMov(), offs["ret"])
	e.p("RET")
}

// ---------------------------------------------------------------------------
// main

func main() {
	var elemS, elemGo bytes.Buffer
	consts := map[string]string{}
	elemS.WriteString("// Code generated by gen.go; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\n#include \"textflag.h\"\n")
	elemGo.WriteString("// Code generated by gen.go; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\npackage amd64\n")
	var mathS, mathGo bytes.Buffer
	mathS.WriteString("// Code generated by gen.go; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\n#include \"textflag.h\"\n")
	mathGo.WriteString("// Code generated by gen.go; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\npackage amd64\n")
	var gemmS, gemmGo bytes.Buffer
	gemmS.WriteString("// Code generated by gen.go; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\n#include \"textflag.h\"\n")
	gemmGo.WriteString("// Code generated by gen.go; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\npackage amd64\n")
	for _, is := range []isa{avx512, avx2} {
		for _, t := range []typ{f32, f64} {
			e := &g{consts: consts, i: is, t: t}
			for _, k := range elementKernels() {
				e.elementwise(k)
			}
			e.reduction("Sum", "var s T\nfor i := range x {\n\ts += x[i] // in 4 vector accumulators, then across lanes\n}\nreturn s", false, "sum")
			e.reduction("Dot", "var s T\nfor i := range x {\n\ts += x[i] * y[i] // fused, in 4 vector accumulators\n}\nreturn s", true, "sum")
			e.reduction("MaxReduce", "m := T(math.Inf(-1))\nfor i := range x {\n\tif x[i] > m || x[i] != x[i] {\n\t\tm = x[i] // NaN wins\n\t}\n}\nreturn m", false, "max")
			e.reduction("MinReduce", "m := T(math.Inf(1))\nfor i := range x {\n\tif x[i] < m || x[i] != x[i] {\n\t\tm = x[i] // NaN wins\n\t}\n}\nreturn m", false, "min")
			elemS.Write(e.s.Bytes())
			elemGo.Write(e.gofile.Bytes())

			m := &g{consts: consts, i: is, t: t}
			m.mathKernels()
			mathS.Write(m.s.Bytes())
			mathGo.Write(m.gofile.Bytes())

			gm := &g{consts: consts, i: is, t: t}
			gm.gemmKernel()
			gemmS.Write(gm.s.Bytes())
			gemmGo.Write(gm.gofile.Bytes())
		}
	}
	// constants go into elem_amd64.s
	var names []string
	for n := range consts {
		names = append(names, n)
	}
	sort.Strings(names)
	elemS.WriteString("\n// tail masks: 32 bytes of ones then 32 of zeros\n")
	for off := 0; off < 64; off += 8 {
		v := "0xffffffffffffffff"
		if off >= 32 {
			v = "0"
		}
		fmt.Fprintf(&elemS, "DATA tailmask<>+%d(SB)/8, $%s\n", off, v)
	}
	elemS.WriteString("GLOBL tailmask<>(SB), RODATA|NOPTR, $64\n\n")
	// Constants are file-local (<>), so each .s file gets its own copy of
	// what it uses; simplest is to put all in each.
	var cs bytes.Buffer
	for _, n := range names {
		cs.WriteString(consts[n])
	}
	elemS.Write(cs.Bytes())
	mathS.WriteString("\n// tail masks: 32 bytes of ones then 32 of zeros\n")
	for off := 0; off < 64; off += 8 {
		v := "0xffffffffffffffff"
		if off >= 32 {
			v = "0"
		}
		fmt.Fprintf(&mathS, "DATA tailmask<>+%d(SB)/8, $%s\n", off, v)
	}
	mathS.WriteString("GLOBL tailmask<>(SB), RODATA|NOPTR, $64\n\n")
	mathS.Write(cs.Bytes())
	write("elem_amd64.s", elemS.Bytes())
	write("elem_amd64.go", elemGo.Bytes())
	write("math_amd64.s", mathS.Bytes())
	write("math_amd64.go", mathGo.Bytes())
	write("gemm_amd64.s", gemmS.Bytes())
	write("gemm_amd64.go", gemmGo.Bytes())
}

func write(name string, b []byte) {
	if strings.HasSuffix(name, ".go") {
		var err error
		if b, err = format.Source(b); err != nil {
			panic(err)
		}
	}
	if err := os.WriteFile(name, b, 0o644); err != nil {
		panic(err)
	}
}

var _ = big.NewFloat

// ---------------------------------------------------------------------------
// Transcendentals.

func (e *g) round(mode int, src, dst string) {
	if e.i.k {
		e.p("VRNDSCALE%s $%d, %s, %s", e.t.p, mode, src, dst)
	} else {
		e.p("VROUND%s $%d, %s, %s", e.t.p, mode, src, dst)
	}
}

func bigLn2() *big.Float {
	f, _, _ := big.ParseFloat("0.69314718055994530941723212145817656807550013436025525412068", 10, 200, big.ToNearestEven)
	return f
}

// split returns hi, lo with hi+lo ≈ ln2; hi is ln2 rounded to the type (or
// given), lo the rest.
func (e *g) ln2split(hi float64) (float64, float64) {
	l := bigLn2()
	if hi == 0 {
		if e.t.sz == 4 {
			f, _ := l.Float32()
			hi = float64(f)
		} else {
			hi, _ = l.Float64()
		}
	}
	r := new(big.Float).SetPrec(200).Sub(l, big.NewFloat(hi))
	lo, _ := r.Float64()
	return hi, lo
}

// expCore sets out = e^x; x is clobbered; t needs 3 temps.
func (e *g) expCore(x, out string, t []string) {
	P := e.t.p
	lo, hi := -746.0, 710.0
	deg := 13
	if e.t.sz == 4 {
		lo, hi = -104, 89
		deg = 7
	}
	// clamp, keeping NaN: VMAX returns its second source (x) on NaN.
	e.ld(e.c(lo), t[0])
	e.p("VMAX%s %s, %s, %s", P, x, t[0], x)
	e.ld(e.c(hi), t[0])
	e.p("VMIN%s %s, %s, %s", P, x, t[0], x)
	k := t[0]
	e.p("VMUL%s %s, %s, %s", P, e.c(1/math.Ln2), x, k)
	e.round(0, k, k)
	ln2hi, ln2lo := e.ln2split(0)
	r := t[1]
	e.p("%s %s, %s", e.mov(), x, r)
	e.p("VFNMADD231%s %s, %s, %s", P, e.c(ln2hi), k, r)
	e.p("VFNMADD231%s %s, %s, %s", P, e.c(ln2lo), k, r)
	// Taylor polynomial of e^r, |r| <= ln2/2.
	fact := func(n int) float64 {
		f := 1.0
		for i := 2; i <= n; i++ {
			f *= float64(i)
		}
		return f
	}
	e.ld(e.c(1/fact(deg)), out)
	for i := deg - 1; i >= 0; i-- {
		e.p("VFMADD213%s %s, %s, %s", P, e.c(1/fact(i)), r, out)
	}
	if e.i.k {
		e.p("VSCALEF%s %s, %s, %s", P, k, out, out)
		return
	}
	// 2^k as two factors 2^k1 * 2^(k-k1), each a normal number.
	k1 := t[2]
	e.p("VMUL%s %s, %s, %s", P, e.c(0.5), k, k1)
	e.round(1, k1, k1)
	e.p("VSUB%s %s, %s, %s", P, k1, k, k)
	magic, shift, sh := 1.5*(1<<52)+1023, 52, "VPSLLQ"
	if e.t.sz == 4 {
		magic, shift, sh = 1.5*(1<<23)+127, 23, "VPSLLD"
	}
	e.p("VADD%s %s, %s, %s", P, e.c(magic), k1, k1)
	e.p("%s $%d, %s, %s", sh, shift, k1, k1)
	e.p("VADD%s %s, %s, %s", P, e.c(magic), k, k)
	e.p("%s $%d, %s, %s", sh, shift, k, k)
	e.p("VMUL%s %s, %s, %s", P, k1, out, out)
	e.p("VMUL%s %s, %s, %s", P, k, out, out)
}

// logCore sets out = ln x; x is kept; t needs 10 temps; m two masks.
func (e *g) logCore(x, out string, t, m []string) {
	P := e.t.p
	E, M, T := t[0], t[1], t[2]
	f64 := e.t.sz == 8
	if e.i.k {
		e.p("VGETEXP%s %s, %s", P, x, E)
		e.p("VGETMANT%s $0, %s, %s", P, x, M)
		e.cmp(GE, M, e.c(math.Sqrt2), m[0])
		e.p("VMUL%s %s, %s, %s, %s", P, e.c(0.5), M, m[0], M)
		e.p("VADD%s %s, %s, %s, %s", P, e.c(1), E, m[0], E)
	} else {
		XS, EA, MK := t[3], t[4], m[0]
		minNorm, scale, adj := 0x1p-1022, 0x1p54, -54.0
		shr, sh := "VPSRLQ", 52
		twoP := uint64(0x4330000000000000) // bits of 2^52
		bias := 0x1p52 + 1023
		mant := uint64(0x000fffffffffffff)
		if !f64 {
			minNorm, scale, adj = 0x1p-126, 0x1p24, -24
			shr, sh = "VPSRLD", 23
			twoP = 0x4b000000 // 2^23
			bias = 0x1p23 + 127
			mant = 0x007fffff
		}
		e.cmp(LT, x, e.c(minNorm), MK)
		e.p("VMUL%s %s, %s, %s", P, e.c(scale), x, T)
		e.p("%s %s, %s", e.mov(), x, XS)
		e.blend(MK, T, XS)
		e.p("VAND%s %s, %s, %s", P, e.c(adj), MK, EA)
		e.p("%s $%d, %s, %s", shr, sh, XS, E)
		e.p("VPOR %s, %s, %s", e.ci(twoP), E, E)
		e.p("VSUB%s %s, %s, %s", P, e.c(bias), E, E)
		e.p("VADD%s %s, %s, %s", P, EA, E, E)
		e.p("VAND%s %s, %s, %s", P, e.ci(mant), XS, M)
		e.p("VOR%s %s, %s, %s", P, e.c(1), M, M)
		e.cmp(GE, M, e.c(math.Sqrt2), MK)
		e.p("VMUL%s %s, %s, %s", P, e.c(0.5), M, T)
		e.blend(MK, T, M)
		e.p("VAND%s %s, %s, %s", P, e.c(1), MK, T)
		e.p("VADD%s %s, %s, %s", P, T, E, E)
	}
	F, S, Z, W, T1, T2, H := M, t[3], t[4], t[5], t[6], t[7], t[8]
	e.p("VSUB%s %s, %s, %s", P, e.c(1), M, F)
	e.p("VADD%s %s, %s, %s", P, e.c(2), F, T)
	e.p("VDIV%s %s, %s, %s", P, T, F, S)
	e.p("VMUL%s %s, %s, %s", P, S, S, Z)
	var hi, lo float64
	if f64 {
		const (
			L1 = 6.666666666666735130e-01
			L2 = 3.999999999940941908e-01
			L3 = 2.857142874366239149e-01
			L4 = 2.222219843214978396e-01
			L5 = 1.818357216161805012e-01
			L6 = 1.531383769920937332e-01
			L7 = 1.479819860511658591e-01
		)
		e.p("VMUL%s %s, %s, %s", P, Z, Z, W)
		e.ld(e.c(L6), T1)
		e.p("VFMADD213%s %s, %s, %s", P, e.c(L4), W, T1)
		e.p("VFMADD213%s %s, %s, %s", P, e.c(L2), W, T1)
		e.p("VMUL%s %s, %s, %s", P, W, T1, T1)
		e.ld(e.c(L7), T2)
		e.p("VFMADD213%s %s, %s, %s", P, e.c(L5), W, T2)
		e.p("VFMADD213%s %s, %s, %s", P, e.c(L3), W, T2)
		e.p("VFMADD213%s %s, %s, %s", P, e.c(L1), W, T2)
		e.p("VMUL%s %s, %s, %s", P, Z, T2, T2)
		e.p("VADD%s %s, %s, %s", P, T2, T1, T1)
		hi, lo = 6.93147180369123816490e-01, 1.90821492927058770002e-10
	} else {
		e.ld(e.c(2.0/11), T1)
		e.p("VFMADD213%s %s, %s, %s", P, e.c(2.0/9), Z, T1)
		e.p("VFMADD213%s %s, %s, %s", P, e.c(2.0/7), Z, T1)
		e.p("VFMADD213%s %s, %s, %s", P, e.c(2.0/5), Z, T1)
		e.p("VFMADD213%s %s, %s, %s", P, e.c(2.0/3), Z, T1)
		e.p("VMUL%s %s, %s, %s", P, Z, T1, T1)
		hi, lo = e.ln2split(0.693359375)
	}
	// T1 = R. ln x = E*ln2hi - ((hfsq - (s*(hfsq+R) + E*ln2lo)) - f)
	e.p("VMUL%s %s, %s, %s", P, F, F, H)
	e.p("VMUL%s %s, %s, %s", P, e.c(0.5), H, H)
	e.p("VADD%s %s, %s, %s", P, T1, H, T1)
	e.p("VMUL%s %s, %s, %s", P, e.c(lo), E, W)
	e.p("VFMADD213%s %s, %s, %s", P, W, S, T1)
	e.p("VSUB%s %s, %s, %s", P, T1, H, T1)
	e.p("VSUB%s %s, %s, %s", P, F, T1, T1)
	e.p("VMUL%s %s, %s, %s", P, e.c(hi), E, out)
	e.p("VSUB%s %s, %s, %s", P, T1, out, out)
	// special cases
	e.cmp(LT, x, e.c(0), m[1])
	e.blendc(m[1], math.NaN(), out)
	e.cmp(EQ, x, e.c(0), m[1])
	e.blendc(m[1], math.Inf(-1), out)
	e.cmp(EQ, x, e.c(math.Inf(1)), m[1])
	e.blendc(m[1], math.Inf(1), out)
	e.cmp(UNORD, x, x, m[1])
	e.blend(m[1], x, out)
}

// blendc sets dst = m ? v : dst.
func (e *g) blendc(m string, v float64, dst string) {
	if e.i.k {
		e.p("%s %s, %s, %s", e.mov(), e.c(v), m, dst)
	} else {
		e.p("VBLENDV%s %s, %s, %s, %s", e.t.p, m, e.c(v), dst, dst)
	}
}

func (e *g) tanhCore(x, out string, t, m []string) {
	P := e.t.p
	A, SG, L, EX := t[0], t[1], t[2], t[3]
	e.ld(e.c(math.Copysign(0, -1)), SG)
	e.p("%s %s, %s, %s", e.andn(), x, SG, A)
	// large: 1 - 2/(e^{2a}+1)
	e.p("VADD%s %s, %s, %s", P, A, A, L)
	e.expCore(L, EX, t[4:7])
	e.p("VADD%s %s, %s, %s", P, e.c(1), EX, EX)
	e.ld(e.c(2), L)
	e.p("VDIV%s %s, %s, %s", P, EX, L, L)
	e.ld(e.c(1), EX)
	e.p("VSUB%s %s, %s, %s", P, L, EX, L)
	// small
	S, PP := t[3], t[4]
	e.p("VMUL%s %s, %s, %s", P, A, A, S)
	if e.t.sz == 8 {
		Q := t[5]
		e.ld(e.c(-9.64399179425052238628e-1), PP)
		e.p("VFMADD213%s %s, %s, %s", P, e.c(-9.92877231001918586564e1), S, PP)
		e.p("VFMADD213%s %s, %s, %s", P, e.c(-1.61468768441708447952e3), S, PP)
		e.p("VADD%s %s, %s, %s", P, e.c(1.12811678491632931402e2), S, Q)
		e.p("VFMADD213%s %s, %s, %s", P, e.c(2.23548839060100448583e3), S, Q)
		e.p("VFMADD213%s %s, %s, %s", P, e.c(4.84406305325125486048e3), S, Q)
		e.p("VDIV%s %s, %s, %s", P, Q, PP, PP)
	} else {
		e.ld(e.c(-5.70498872745e-3), PP)
		e.p("VFMADD213%s %s, %s, %s", P, e.c(2.06390887954e-2), S, PP)
		e.p("VFMADD213%s %s, %s, %s", P, e.c(-5.37397155531e-2), S, PP)
		e.p("VFMADD213%s %s, %s, %s", P, e.c(1.33314422036e-1), S, PP)
		e.p("VFMADD213%s %s, %s, %s", P, e.c(-3.33332819422e-1), S, PP)
	}
	e.p("VMUL%s %s, %s, %s", P, S, PP, PP)
	e.p("VFMADD213%s %s, %s, %s", P, A, A, PP)
	e.cmp(LT, A, e.c(0.625), m[0])
	e.blend(m[0], PP, L)
	e.p("%s %s, %s, %s", e.and(), x, SG, SG)
	e.p("%s %s, %s, %s", e.or(), SG, L, out)
}

func (e *g) sigmoidCore(x, out string, t, m []string) {
	P := e.t.p
	A, EX, N := t[0], t[1], t[2]
	e.ld(e.c(math.Copysign(0, -1)), A)
	e.p("%s %s, %s, %s", e.or(), x, A, A)
	e.expCore(A, EX, t[3:6])
	e.ld(e.c(1), N)
	e.cmp(LT, x, e.c(0), m[0])
	e.blend(m[0], EX, N)
	e.p("VADD%s %s, %s, %s", P, e.c(1), EX, EX)
	e.p("VDIV%s %s, %s, %s", P, EX, N, out)
}

func (e *g) masks(tmp []string, n int) ([]string, []string) {
	if e.i.k {
		return tmp, []string{"K2", "K4", "K5"}[:n]
	}
	return tmp[:len(tmp)-n], tmp[len(tmp)-n:]
}

func (e *g) mathKernels() {
	un := []arg{{"dst", "slice"}, {"x", "slice"}}
	loop := func(expr string) string {
		return "for i := range dst {\n\tdst[i] = " + expr + "\n}"
	}
	regs := 15
	if e.i.k {
		regs = 32
	}
	ks := []kernel{
		{name: "Exp", args: un, in: []string{"x"}, unroll: 1, cost: 3, regs: regs,
			body: func(e *g, out string, in, tmp []string) string { e.expCore(in[0], out, tmp); return out }},
		{name: "Log", args: un, in: []string{"x"}, unroll: 1, cost: 12, regs: regs,
			body: func(e *g, out string, in, tmp []string) string {
				t, m := e.masks(tmp, 2)
				e.logCore(in[0], out, t, m)
				return out
			}},
		{name: "Tanh", args: un, in: []string{"x"}, unroll: 1, cost: 8, regs: regs,
			body: func(e *g, out string, in, tmp []string) string {
				t, m := e.masks(tmp, 1)
				e.tanhCore(in[0], out, t, m)
				return out
			}},
		{name: "Sigmoid", args: un, in: []string{"x"}, unroll: 1, cost: 7, regs: regs,
			body: func(e *g, out string, in, tmp []string) string {
				t, m := e.masks(tmp, 1)
				e.sigmoidCore(in[0], out, t, m)
				return out
			}},
	}
	docs := map[string]string{
		"Exp": loop("math.Exp(x[i])") + "\n\nwith x = k*ln2 + r, |r| <= ln2/2 (Cody-Waite, FMA), a Taylor polynomial of degree 13\n" +
			"(float64) or 7 (float32) for e^r, and 2^k applied with VSCALEF (AVX-512) or as two\n" +
			"exponent-field multiplies (AVX2), so overflow, gradual underflow, ±Inf and NaN\n" +
			"come out as in math.Exp. Measured error: at most 1 ulp from the correctly\n" +
			"rounded float32 result, at most 1 ulp from fdlibm's exp (itself < 1 ulp) in float64.",
		"Log": loop("math.Log(x[i])") + "\n\nwith x = 2^k * m, m in [sqrt(1/2), sqrt(2)) (denormals included), and the\n" +
			"fdlibm series in s = (m-1)/(m+1). x < 0 gives NaN, ±0 gives -Inf, +Inf gives +Inf.\n" +
			"Measured error: at most 1 ulp (float32 and float64, as Exp).",
		"Tanh": loop("math.Tanh(x[i])") + "\n\nwith 1 - 2/(e^(2|x|)+1) for |x| >= 0.625 and below it fdlibm's rational\n" +
			"function (float64) or Cephes' odd polynomial (float32); the sign of x (and -0)\n" +
			"is kept. Measured error: at most 1 ulp (float32), 2 ulp (float64).",
		"Sigmoid": loop("1 / (1 + math.Exp(-x[i]))") + "\n\ncomputed as e/(1+e) (x < 0) or 1/(1+e) with e = e^-|x|, so it neither\n" +
			"overflows nor loses relative precision for large |x|. Measured error: at most\n" +
			"2 ulp (float32 and float64).",
	}
	for _, k := range ks {
		k.doc = docs[k.name]
		e.elementwise(k)
	}
}

// ---------------------------------------------------------------------------
// GEMM micro-kernels.

// MR rows of A (broadcast) times NR = 2 vectors of B.
func (e *g) gemmShape() (mr, nv int) {
	if e.i.k {
		return 12, 2
	}
	return 6, 2
}

func (e *g) gemmKernel() {
	mr, nv := e.gemmShape()
	L := e.lanes()
	nr := nv * L
	sz := e.t.sz
	fn := fmt.Sprintf("Gemm%s%s", e.t.name, e.i.name)
	e.label = strings.ToLower(fn)
	T := e.t.goT
	fmt.Fprintf(&e.gofile, `
// %[1]s is the %[2]dx%[3]d GEMM micro-kernel: with a the packed %[2]d-row panel
// of A (a[p*%[2]d+i] = A(i,p)) and b the packed %[3]d-column panel of B
// (b[p*%[3]d+j] = B(p,j)), both k deep, it computes
//
//	for i := 0; i < %[2]d; i++ {
//		for j := 0; j < %[3]d; j++ {
//			var s %[4]s
//			for p := 0; p < k; p++ {
//				s += a[p*%[2]d+i] * b[p*%[3]d+j] // fused multiply-add
//			}
//			if accumulate != 0 {
//				c[i*ldc+j] += s
//			} else {
//				c[i*ldc+j] = s
//			}
//		}
//	}
//
//go:noescape
func %[1]s(k int, a, b, c *%[4]s, ldc int, accumulate int)

// %[1]sMR and %[1]sNR are the tile shape of %[1]s.
const (
	%[1]sMR = %[2]d
	%[1]sNR = %[3]d
)
`, fn, mr, nr, T)
	fmt.Fprintf(&e.s, "\n// func %s(k int, a, b, c *%s, ldc int, accumulate int)\n", fn, T)
	fmt.Fprintf(&e.s, "TEXT ·%s(SB), NOSPLIT, $0-48\n", fn)
	e.p("MOVQ k+0(FP), CX")
	e.p("MOVQ a+8(FP), AX")
	e.p("MOVQ b+16(FP), BX")
	e.p("MOVQ c+24(FP), DX")
	e.p("MOVQ ldc+32(FP), R8")
	e.p("SHLQ $%d, R8", map[int]int{4: 2, 8: 3}[sz])
	nacc := mr * nv
	for i := 0; i < nacc; i++ {
		e.p("%s %s, %s, %s", e.xor(), e.r(i), e.r(i), e.r(i))
	}
	bv := nacc
	bc := nacc + nv
	step := func(p int) {
		for v := 0; v < nv; v++ {
			e.p("%s %d(BX), %s", e.mov(), (p*nr+v*L)*sz, e.r(bv+v))
		}
		for i := 0; i < mr; i++ {
			br := e.r(bc + i%2)
			e.p("VBROADCAST%s %d(AX), %s", e.t.s, (p*mr+i)*sz, br)
			for v := 0; v < nv; v++ {
				e.p("VFMADD231%s %s, %s, %s", e.t.p, e.r(bv+v), br, e.r(i*nv+v))
			}
		}
	}
	const U = 4
	e.p("CMPQ CX, $%d", U)
	e.p("JL %s", e.L("one"))
	e.l("loop")
	if e.i.k {
		e.p("PREFETCHT0 %d(AX)", 8*mr*sz)
		e.p("PREFETCHT0 %d(BX)", 8*nr*sz)
	}
	for p := 0; p < U; p++ {
		step(p)
	}
	e.p("ADDQ $%d, AX", U*mr*sz)
	e.p("ADDQ $%d, BX", U*nr*sz)
	e.p("SUBQ $%d, CX", U)
	e.p("CMPQ CX, $%d", U)
	e.p("JGE %s", e.L("loop"))
	e.l("one")
	e.p("TESTQ CX, CX")
	e.p("JZ %s", e.L("store"))
	step(0)
	e.p("ADDQ $%d, AX", mr*sz)
	e.p("ADDQ $%d, BX", nr*sz)
	e.p("DECQ CX")
	e.p("JMP %s", e.L("one"))
	e.l("store")
	e.p("MOVQ accumulate+40(FP), R9")
	e.p("TESTQ R9, R9")
	e.p("JZ %s", e.L("write"))
	for i := 0; i < mr; i++ {
		for v := 0; v < nv; v++ {
			e.p("VADD%s %d(DX), %s, %s", e.t.p, v*e.i.w, e.r(i*nv+v), e.r(i*nv+v))
			e.p("%s %s, %d(DX)", e.mov(), e.r(i*nv+v), v*e.i.w)
		}
		e.p("ADDQ R8, DX")
	}
	e.p("VZEROUPPER")
	e.p("RET")
	e.l("write")
	for i := 0; i < mr; i++ {
		for v := 0; v < nv; v++ {
			e.p("%s %s, %d(DX)", e.mov(), e.r(i*nv+v), v*e.i.w)
		}
		e.p("ADDQ R8, DX")
	}
	e.p("VZEROUPPER")
	e.p("RET")
}
