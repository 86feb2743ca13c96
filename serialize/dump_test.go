package serialize

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/serialize/internal/fb"
)

// TestDumpFixtures writes a listing of every fixture to the file named by
// SDGO_FIXTURE_DUMP (skipped when unset).
func TestDumpFixtures(t *testing.T) {
	out := os.Getenv("SDGO_FIXTURE_DUMP")
	if out == "" {
		t.Skip("set SDGO_FIXTURE_DUMP=path to write the fixture listing")
	}
	var b bytes.Buffer
	b.WriteString("# Every fixture, decoded by serialize.decode and listed by dumpGraph.\n" +
		"# Variables: index, id (node, output), name, VarType, dtype, stored array (shape-info decoded, values).\n" +
		"# Nodes: id, name, opName, opType, opNum, inputs as (node,output)\"variable\", every field present in the file,\n" +
		"# properties. Regenerate: SDGO_FIXTURE_DUMP=path go test -run TestDumpFixtures ./serialize/\n\n")
	for _, f := range fixtureFiles(t) {
		buf, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		g, err := decode(buf)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		b.WriteString("==================== " + filepath.Base(f) + "\n")
		dumpGraph(&b, g)
		b.WriteString("\n")
	}
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// dumpGraph writes a human-readable listing of a raw graph: every variable
// with its array, every node with all its fields. It is a debugging aid (and
// documents what real files contain); it never fails on odd contents.
func dumpGraph(w io.Writer, g *rawGraph) {
	fmt.Fprintf(w, "graph id=%d variables=%d nodes=%d outputs=%v\n", g.ID, len(g.Variables), len(g.Nodes), g.Outputs)
	if g.Config != nil {
		fmt.Fprintf(w, "configuration %+v\n", *g.Config)
	}
	fmt.Fprintf(w, "placeholders %q\n", g.Placeholders)
	fmt.Fprintf(w, "lossVariables %q\n", g.LossVariables)
	if g.TrainingConfig != "" {
		fmt.Fprintf(w, "trainingConfig %s\n", g.TrainingConfig)
	}
	for _, u := range g.UpdaterState {
		fmt.Fprintf(w, "updaterState %q keys=%q\n", u.ParamName, u.Keys)
		for i := range u.Values {
			fmt.Fprintf(w, "    %s\n", arrayString(&u.Values[i]))
		}
	}
	varName := map[rawIntPair]string{}
	fmt.Fprintln(w, "variables:")
	for i := range g.Variables {
		v := &g.Variables[i]
		id := "nil"
		if v.ID != nil {
			id = fmt.Sprintf("(%d,%d)", v.ID.First, v.ID.Second)
			varName[*v.ID] = v.Name
		}
		fmt.Fprintf(w, "  %-4d %s %q type=%s dtype=%s", i, id, v.Name, v.VarType, v.DType)
		if v.Shape != nil {
			fmt.Fprintf(w, " shape=%v", v.Shape)
		}
		if v.Device != 0 {
			fmt.Fprintf(w, " device=%d", v.Device)
		}
		if v.ControlDeps != nil || v.ControlDepForOp != nil || v.ControlDepsForVar != nil {
			fmt.Fprintf(w, " controlDeps=%q controlDepForOp=%q controlDepsForVar=%q",
				v.ControlDeps, v.ControlDepForOp, v.ControlDepsForVar)
		}
		fmt.Fprintln(w)
		if v.Array != nil {
			fmt.Fprintf(w, "         array %s\n", arrayString(v.Array))
		}
	}
	fmt.Fprintln(w, "nodes:")
	for i := range g.Nodes {
		n := &g.Nodes[i]
		fmt.Fprintf(w, "  node %d %q opName=%q opType=%s opNum=%d\n", n.ID, n.Name, n.OpName, n.OpType, n.OpNum)
		var ins []string
		for _, p := range n.InputPaired {
			ins = append(ins, fmt.Sprintf("(%d,%d)%q", p.First, p.Second, varName[p]))
		}
		fmt.Fprintf(w, "      inputPaired=[%s]\n", strings.Join(ins, " "))
		line := func(name string, v any, present bool) {
			if present {
				fmt.Fprintf(w, "      %s=%v\n", name, v)
			}
		}
		line("input", n.Input, n.Input != nil)
		line("output", n.Output, n.Output != nil)
		line("outputNames", fmt.Sprintf("%q", n.OutputNames), n.OutputNames != nil)
		line("outputTypes", n.OutputTypes, n.OutputTypes != nil)
		line("extraParams", n.ExtraParams, n.ExtraParams != nil)
		line("extraInteger", n.ExtraInteger, n.ExtraInteger != nil)
		line("extraBools", n.ExtraBools, n.ExtraBools != nil)
		line("dimensions", n.Dimensions, n.Dimensions != nil)
		line("extraTypes", n.ExtraTypes, n.ExtraTypes != nil)
		line("extraStrings", fmt.Sprintf("%q", n.ExtraStrings), n.ExtraStrings != nil)
		line("device", n.Device, n.Device != 0)
		line("scope", fmt.Sprintf("%d %q", n.ScopeID, n.ScopeName), n.ScopeID != 0 || n.ScopeName != "")
		line("controlDeps", fmt.Sprintf("%q", n.ControlDeps), n.ControlDeps != nil)
		line("varControlDeps", fmt.Sprintf("%q", n.VarControlDeps), n.VarControlDeps != nil)
		line("controlDepFor", fmt.Sprintf("%q", n.ControlDepFor), n.ControlDepFor != nil)
		if n.Scalar != nil {
			fmt.Fprintf(w, "      scalar=%s\n", arrayString(n.Scalar))
		}
		for j := range n.Properties {
			p := &n.Properties[j]
			fmt.Fprintf(w, "      property %q", p.Name)
			prop := func(name string, v any, present bool) {
				if present {
					fmt.Fprintf(w, " %s=%v", name, v)
				}
			}
			prop("i", p.I, len(p.I) > 0)
			prop("l", p.L, len(p.L) > 0)
			prop("d", p.D, len(p.D) > 0)
			prop("b", p.B, len(p.B) > 0)
			prop("s", fmt.Sprintf("%q", p.S), len(p.S) > 0)
			prop("shape", p.Shape, len(p.Shape) > 0)
			fmt.Fprintln(w)
			for k := range p.A {
				fmt.Fprintf(w, "          a[%d]=%s\n", k, arrayString(&p.A[k]))
			}
		}
	}
}

// arrayString describes an array: dtype, byte order, shape-info (decoded
// when valid) and up to 16 values.
func arrayString(a *rawArray) string {
	var b strings.Builder
	fmt.Fprintf(&b, "dtype=%s order=%s shapeInfo=%v", a.DType, a.ByteOrder, a.ShapeInfo)
	s, err := checkArray(a)
	if err != nil {
		fmt.Fprintf(&b, " [INVALID: %v] bytes=%d", err, len(a.Buffer))
		return b.String()
	}
	fmt.Fprintf(&b, " -> shape=%v strides=%v order=%c empty=%v", s.Shape, s.Strides, s.Order, s.Empty)
	if dt, ok := dtypeFromExtra(s.Extra); ok && dt != a.DType {
		fmt.Fprintf(&b, " (extra bits say %s)", dt)
	}
	if s.Empty {
		return b.String()
	}
	fmt.Fprintf(&b, " values=%s", valuesString(a, s.numElements(), 16))
	return b.String()
}

func valuesString(a *rawArray, n int64, max int) string {
	bo := byteOrderOf(a.ByteOrder)
	if a.DType == fb.DTypeUTF8 {
		offs, data, ok := stringOffsets(a.Buffer, int(n), bo)
		if !ok {
			return "<bad UTF8 offsets>"
		}
		var out []string
		for i := range offs[:len(offs)-1] {
			if i == max {
				out = append(out, "...")
				break
			}
			out = append(out, fmt.Sprintf("%q", data[offs[i]:offs[i+1]]))
		}
		return "[" + strings.Join(out, " ") + "]"
	}
	w := dtypeSize(a.DType)
	var out []string
	for i := 0; int64(i) < n && i < max; i++ {
		e := a.Buffer[i*w:]
		var s string
		switch a.DType {
		case fb.DTypeFLOAT:
			s = fmt.Sprint(math.Float32frombits(bo.Uint32(e)))
		case fb.DTypeDOUBLE:
			s = fmt.Sprint(math.Float64frombits(bo.Uint64(e)))
		case fb.DTypeBOOL:
			s = fmt.Sprint(e[0] != 0)
		case fb.DTypeINT8:
			s = fmt.Sprint(int8(e[0]))
		case fb.DTypeUINT8:
			s = fmt.Sprint(e[0])
		case fb.DTypeINT16:
			s = fmt.Sprint(int16(bo.Uint16(e)))
		case fb.DTypeUINT16:
			s = fmt.Sprint(bo.Uint16(e))
		case fb.DTypeINT32:
			s = fmt.Sprint(int32(bo.Uint32(e)))
		case fb.DTypeUINT32:
			s = fmt.Sprint(bo.Uint32(e))
		case fb.DTypeINT64:
			s = fmt.Sprint(int64(bo.Uint64(e)))
		case fb.DTypeUINT64:
			s = fmt.Sprint(bo.Uint64(e))
		default:
			s = fmt.Sprintf("%x", e[:w])
		}
		out = append(out, s)
	}
	if n > int64(max) {
		out = append(out, "...")
	}
	return "[" + strings.Join(out, " ") + "]"
}
