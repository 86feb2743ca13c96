package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sdgo/sdgo/exec"
	"github.com/sdgo/sdgo/graph"
	"github.com/sdgo/sdgo/ndarray"
	"github.com/sdgo/sdgo/ndarray/npy"
	"github.com/sdgo/sdgo/serialize"
)

const runUsage = `usage: sdgo run [flags] FILE.fb [OUTPUT...]

Loads a SameDiff graph file, feeds its placeholders, runs the graph and
prints the outputs: the OUTPUT names given (or -out), else the file's loss
variables, else every op output that no op consumes. Outputs that lie in a
branch the graph did not take are listed as such (an error when named
explicitly).

Placeholders take the values of -feed (or -ph) flags, else those of -feeds,
else the values the file stores for them; a placeholder that gets none is an
error.
  -feed name=file.npy            a NumPy .npy file (C or Fortran order, either
                                 byte order; cast to the placeholder's dtype)
  -feed name=v1,v2,...           values in C order, in the placeholder's dtype
                                 (numbers, integers within the dtype's range,
                                 or true/false for bools); the shape is the
                                 placeholder's, a single unknown size taking
                                 what the values leave
  -feed name=v1,v2,...:2x3       the same with an explicit shape (":" alone is
                                 a scalar)
  -feeds values.json             a JSON object: "name": a number, a bool, a
                                 nested list (its nesting gives the shape), or
                                 {"shape": [2, 3], "values": [flat list]}

With -npy DIR, each output is also written to DIR/NAME.npy ("/" and other
characters a file name cannot hold become "_").

Flags go before FILE.fb: what follows it are output names.

Exit status: 0 when every output was computed (or, not named, lay in a
branch not taken), 1 when the run fails (the message names the op and its
inputs), stops at -timeout (which covers loading the file, and stops even
one long op: matmul and convolutions ask between panels of their products),
or a named output lay in a branch not taken, 2 on a usage error (flags,
output names, placeholder values in flags that are missing or of a shape
the placeholder cannot take), 3 when the graph file does not load or a .npy
or -feeds file cannot be read or makes no sense, 4 when sdgo caught a bug of
its own (see sdgo help).

flags:`

// runFeedSpec is one -feed flag: values as written and an optional shape.
type runFeedSpec struct {
	vals  []string
	shape []int  // nil: from the placeholder
	npy   string // a .npy file to read instead of vals
}

type runFeedFlags map[string]runFeedSpec

func (f *runFeedFlags) String() string { return "" }

func (f *runFeedFlags) Set(s string) error {
	name, rest, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("want name=v1,v2,...[:shape], got %q", s)
	}
	if *f == nil {
		*f = runFeedFlags{}
	}
	if _, dup := (*f)[name]; dup {
		// one of the two would be dropped without a word
		return fmt.Errorf("placeholder %q is given twice", name)
	}
	if strings.HasSuffix(strings.ToLower(rest), ".npy") {
		(*f)[name] = runFeedSpec{npy: rest}
		return nil
	}
	spec := runFeedSpec{}
	if list, sh, hasShape := strings.Cut(rest, ":"); hasShape {
		rest = list
		spec.shape = []int{}
		if sh = strings.TrimSpace(sh); sh != "" {
			for _, d := range strings.Split(sh, "x") {
				n, err := strconv.Atoi(strings.TrimSpace(d))
				if err != nil || n < 0 {
					return fmt.Errorf("-feed %s: bad shape %q (want sizes like 2x3)", name, sh)
				}
				spec.shape = append(spec.shape, n)
			}
		}
	}
	spec.vals = splitList(rest)
	(*f)[name] = spec
	return nil
}

// runGraphCmd is `sdgo run`.
func runGraphCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("run", runUsage, stderr)
	var (
		feeds     runFeedFlags
		feedsFile = fs.String("feeds", "", "a JSON `file` of placeholder values")
		outs      = fs.String("out", "", "comma-separated outputs to run (as well as those named after the file)")
		asJSON    = fs.Bool("json", false, "print the outputs as one JSON object")
		maxElems  = fs.Int("max", 1000, "print at most `N` elements of each output (0: all)")
		npyDir    = fs.String("npy", "", "also write each output to `DIR`/NAME.npy")
	)
	fs.Var(&feeds, "feed", "a placeholder's values, `name=v1,v2,...[:shape]` or name=file.npy (repeatable)")
	fs.Var(&feeds, "ph", "the same as -feed")
	g, ctx, cancel, exit := parseAndLoad(fs, args, true, stderr)
	if exit >= 0 {
		return exit
	}
	defer cancel()
	named := slices.Concat(fs.Args()[1:], splitList(*outs))
	for _, n := range named {
		if _, ok := g.Variable(n); !ok {
			hint := ""
			if strings.HasPrefix(n, "-") {
				hint = " (flags go before the file)"
			}
			fmt.Fprintf(stderr, "sdgo run: the graph has no variable %q%s\n", n, hint)
			return 2
		}
	}
	explicit := len(named) > 0
	if !explicit {
		named = defaultRunOutputs(g)
		if len(named) == 0 {
			fmt.Fprintln(stderr, "sdgo run: the graph has no outputs to run")
			return 2
		}
	}
	var fileVals map[string]any
	if *feedsFile != "" {
		var err error
		if fileVals, err = readJSONFile(*feedsFile); err != nil {
			fmt.Fprintf(stderr, "sdgo run: -feeds %s: %v\n", *feedsFile, err)
			return exitBadFile
		}
	}
	fed, err := runPlaceholderValues(g, feeds, fileVals, named)
	if err != nil {
		fmt.Fprintf(stderr, "sdgo run: %v\n", err)
		return exitFor(err, exitUsage)
	}
	results, dead, err := runOutputs(ctx, g, fed, named)
	if err != nil {
		fmt.Fprintf(stderr, "sdgo run: %v\n", err)
		if errors.Is(err, exec.ErrFeed) {
			return exitUsage // a feed the placeholder cannot take, like the others above
		}
		return exitFor(err, exitFailed)
	}
	if explicit && len(dead) > 0 {
		fmt.Fprintf(stderr, "sdgo run: %s lies in a branch that was not taken\n", strings.Join(quoteAll(dead), ", "))
		return 1
	}
	if *npyDir != "" {
		if err := writeOutputsNPY(*npyDir, named, results, stdout); err != nil {
			fmt.Fprintf(stderr, "sdgo run: %v\n", err)
			return 1
		}
	}
	if *asJSON {
		obj := map[string]any{}
		for _, n := range named {
			if a := results[n]; a != nil {
				obj[n] = arrayJSON(a)
			} else {
				obj[n] = map[string]any{"notTaken": true}
			}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(obj); err != nil {
			fmt.Fprintf(stderr, "sdgo run: %v\n", err)
			return 1
		}
		return 0
	}
	for _, n := range named {
		a := results[n]
		if a == nil {
			fmt.Fprintf(stdout, "%s: not computed (in a branch that was not taken)\n", n)
			continue
		}
		fmt.Fprintf(stdout, "%s: %v%v\n%s\n", n, a.DType(), a.Shape(), formatArray(a, *maxElems))
	}
	return 0
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = strconv.Quote(x)
	}
	return out
}

// defaultRunOutputs are the loss variables, else the op outputs no op
// consumes (in the graph's order), else every variable no op consumes.
func defaultRunOutputs(g *graph.Graph) []string {
	if l := g.Losses(); len(l) > 0 {
		return l
	}
	used := map[*graph.Variable]bool{}
	for _, o := range g.Ops() {
		for _, in := range o.Inputs() {
			used[in] = true
		}
	}
	var arrays, all []string
	for _, v := range g.Variables() {
		if used[v] {
			continue
		}
		all = append(all, v.Name())
		if v.Op() != nil {
			arrays = append(arrays, v.Name())
		}
	}
	if len(arrays) > 0 {
		return arrays
	}
	return all
}

// runOutputs runs the outputs together; when some lie in a branch not
// taken, it runs them one by one and reports those (nil results).
func runOutputs(ctx context.Context, g *graph.Graph, feeds map[string]*ndarray.Array, names []string) (map[string]*ndarray.Array, []string, error) {
	s := exec.New(g)
	res, err := s.Exec(exec.Request{Feeds: feeds, Outputs: names, Context: ctx})
	if err == nil {
		return res, nil, nil
	}
	if !isNotTaken(err) {
		return nil, nil, err
	}
	res = map[string]*ndarray.Array{}
	var dead []string
	for _, n := range names {
		r, err := s.Exec(exec.Request{Feeds: feeds, Outputs: []string{n}, Context: ctx})
		switch {
		case err == nil:
			res[n] = r[n]
		case isNotTaken(err):
			dead = append(dead, n)
		default:
			return nil, nil, err
		}
	}
	return res, dead, nil
}

// isNotTaken recognizes the executor's error for an output in a branch
// that was not taken.
func isNotTaken(err error) bool { return errors.Is(err, exec.ErrNotTaken) }

// neededPlaceholders returns the placeholders the outputs depend on.
func neededPlaceholders(g *graph.Graph, names []string) map[string]bool {
	need := map[string]bool{}
	seen := map[*graph.Op]bool{}
	var stack []*graph.Variable
	for _, n := range names {
		if v, ok := g.Variable(n); ok {
			stack = append(stack, v)
		}
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if v.Type() == graph.PLACEHOLDER {
			need[v.Name()] = true
		}
		o := v.Op()
		if o == nil || seen[o] {
			continue
		}
		seen[o] = true
		stack = append(stack, o.Inputs()...)
	}
	return need
}

// runPlaceholderValues gives every placeholder the outputs need a value:
// from -feed, from the -feeds file, or the file's stored one.
func runPlaceholderValues(g *graph.Graph, flags runFeedFlags, file map[string]any, outputs []string) (map[string]*ndarray.Array, error) {
	phs, stored, err := placeholders(g, flags)
	if err != nil {
		return nil, err
	}
	for name := range file {
		if v, ok := g.Variable(name); !ok || v.Type() != graph.PLACEHOLDER {
			return nil, fmt.Errorf("-feeds: the graph has no placeholder %q", name)
		}
	}
	need := neededPlaceholders(g, outputs)
	out := map[string]*ndarray.Array{}
	for _, p := range phs {
		var a *ndarray.Array
		var err error
		switch spec, ok := flags[p.Name()]; {
		case ok:
			a, err = feedFromStrings(p, spec)
		case file[p.Name()] != nil:
			a, err = feedFromJSON(p, file[p.Name()])
		case stored[p.Name()] != nil:
			a = stored[p.Name()]
		case need[p.Name()]:
			return nil, fmt.Errorf("placeholder %q (%v%v) needs a value: give it with -feed %s=... or -feeds", p.Name(), p.DType(), p.Shape(), p.Name())
		default:
			continue
		}
		if err != nil {
			return nil, err
		}
		out[p.Name()] = a
	}
	return out, nil
}

// placeholders checks that every -feed flag names a placeholder of g, and
// returns g's placeholders sorted by name (so that random values do not
// depend on the file's order) and the values the file stores for them.
func placeholders(g *graph.Graph, feeds runFeedFlags) ([]*graph.Variable, map[string]*ndarray.Array, error) {
	for name := range feeds {
		if v, ok := g.Variable(name); !ok || v.Type() != graph.PLACEHOLDER {
			return nil, nil, fmt.Errorf("-feed %s: the graph has no placeholder of that name", name)
		}
	}
	var stored map[string]*ndarray.Array
	if rep := serialize.ReportOf(g); rep != nil {
		stored = rep.PlaceholderValues
	}
	phs := g.VariablesOf(graph.PLACEHOLDER)
	slices.SortStableFunc(phs, func(a, b *graph.Variable) int { return strings.Compare(a.Name(), b.Name()) })
	return phs, stored, nil
}

// feedShape returns the shape of n values fed to p: the given one, else
// the placeholder's with a single unknown size filled.
func feedShape(p *graph.Variable, given []int, n int) ([]int, error) {
	if given != nil {
		return given, nil
	}
	shape := p.Shape() // a placeholder's rank is always known
	known, free := 1, -1
	for i, d := range shape {
		if d >= 0 {
			known *= d
			continue
		}
		if free >= 0 {
			return nil, fmt.Errorf("-feed %s: placeholder %q has shape %v: give the shape with -feed %s=...:shape", p.Name(), p.Name(), p.Shape(), p.Name())
		}
		free = i
	}
	if free >= 0 {
		if known == 0 || n%known != 0 {
			return nil, fmt.Errorf("-feed %s: placeholder %q has shape %v: %d values do not fit", p.Name(), p.Name(), p.Shape(), n)
		}
		shape[free] = n / known
	}
	return shape, nil
}

func feedFromStrings(p *graph.Variable, spec runFeedSpec) (*ndarray.Array, error) {
	if spec.npy != "" {
		return feedFromNPY(p, spec.npy)
	}
	shape, err := feedShape(p, spec.shape, len(spec.vals))
	if err != nil {
		return nil, err
	}
	vals := make([]any, len(spec.vals))
	for i, s := range spec.vals {
		switch strings.ToLower(s) {
		case "true":
			vals[i] = true
		case "false":
			vals[i] = false
		default:
			vals[i] = s
		}
	}
	a, err := arrayOf(p.DType(), vals, shape)
	if err != nil {
		return nil, fmt.Errorf("-feed %s (placeholder %v%v): %v", p.Name(), p.DType(), p.Shape(), err)
	}
	return a, nil
}

func feedFromJSON(p *graph.Variable, v any) (*ndarray.Array, error) {
	var flat []any
	var shape []int
	if m, ok := v.(map[string]any); ok {
		vals, _ := m["values"].([]any)
		if vals == nil {
			return nil, fmt.Errorf("-feeds: %q: an object needs \"values\" (a flat list) and optionally \"shape\"", p.Name())
		}
		flat = vals
		if sh, ok := m["shape"].([]any); ok {
			shape = []int{}
			for _, d := range sh {
				f, ok := d.(float64)
				if !ok || f < 0 || f != math.Trunc(f) {
					return nil, fmt.Errorf("-feeds: %q: bad shape %v", p.Name(), m["shape"])
				}
				shape = append(shape, int(f))
			}
		}
	} else {
		var err error
		shape, flat, err = nested(v)
		if err != nil {
			return nil, fmt.Errorf("-feeds: %q: %v", p.Name(), err)
		}
	}
	shape, err := feedShape(p, shape, len(flat))
	if err != nil {
		return nil, err
	}
	a, err := arrayOf(p.DType(), flat, shape)
	if err != nil {
		return nil, fmt.Errorf("-feeds: %q (placeholder %v%v): %v", p.Name(), p.DType(), p.Shape(), err)
	}
	return a, nil
}

// nested flattens a JSON value (a number, a bool, or rectangular nested
// lists) and returns its shape.
func nested(v any) ([]int, []any, error) {
	list, ok := v.([]any)
	if !ok {
		return []int{}, []any{v}, nil
	}
	if len(list) == 0 {
		return []int{0}, nil, nil
	}
	var inner []int
	var flat []any
	for i, x := range list {
		s, f, err := nested(x)
		if err != nil {
			return nil, nil, err
		}
		if i == 0 {
			inner = s
		} else if !slices.Equal(s, inner) {
			return nil, nil, fmt.Errorf("the nested lists are not rectangular")
		}
		flat = append(flat, f...)
	}
	return append([]int{len(list)}, inner...), flat, nil
}

// arrayOf builds an array of dtype dt and the given shape from values in C
// order: text as typed (-feed), or JSON numbers and bools (-feeds).
func arrayOf(dt ndarray.DType, vals []any, shape []int) (*ndarray.Array, error) {
	n := 1
	for _, d := range shape {
		n *= d
	}
	if n != len(vals) {
		return nil, fmt.Errorf("%d values for shape %v", len(vals), shape)
	}
	parse := feedParsers[dt]
	if parse == nil {
		return nil, fmt.Errorf("sdgo cannot feed %v placeholders", dt)
	}
	raw, err := parse(vals)
	if err != nil {
		return nil, err
	}
	buf, err := ndarray.BufferFromBytes(dt, n, raw)
	if err != nil {
		return nil, err
	}
	return ndarray.NewView(buf, ndarray.Packed(shape...))
}

// feedParsers turn placeholder values into the native-order element bytes
// of each dtype sdgo can feed.
var feedParsers = map[ndarray.DType]func(vals []any) ([]byte, error){
	ndarray.Bool:    parseAll(toBool),
	ndarray.Float32: parseAll(toNumber[float32]),
	ndarray.Float64: parseAll(toNumber[float64]),
	ndarray.Int8:    parseAll(toNumber[int8]),
	ndarray.Int16:   parseAll(toNumber[int16]),
	ndarray.Int32:   parseAll(toNumber[int32]),
	ndarray.Int64:   parseAll(toNumber[int64]),
	ndarray.Uint8:   parseAll(toNumber[uint8]),
	ndarray.Uint16:  parseAll(toNumber[uint16]),
	ndarray.Uint32:  parseAll(toNumber[uint32]),
	ndarray.Uint64:  parseAll(toNumber[uint64]),
}

// number is a Go type holding the elements of a numeric dtype sdgo feeds.
type number interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32 | float64
}

// parseAll converts every value with parse and returns the results' bytes.
func parseAll[T bool | number](parse func(any) (T, error)) func([]any) ([]byte, error) {
	return func(vals []any) ([]byte, error) {
		out := make([]T, len(vals))
		for i, v := range vals {
			x, err := parse(v)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return binary.Append(nil, binary.NativeEndian, out)
	}
}

// toBool converts a value to a bool: a number is true when it is not 0.
func toBool(v any) (bool, error) {
	switch x := v.(type) {
	case bool:
		return x, nil
	case float64:
		return x != 0, nil
	case string:
		f, err := strconv.ParseFloat(x, 64)
		if err != nil {
			return false, fmt.Errorf("value %q is not a bool", x)
		}
		return f != 0, nil
	}
	return false, fmt.Errorf("value %v is not a bool", v)
}

// toNumber converts a value (text, a JSON number or a bool, which is 1 or 0)
// to T. An integer type takes only whole values within its range: a value
// that does not fit is an error, not a wrapped-around number.
func toNumber[T number](v any) (T, error) {
	var zero T
	isFloat := false
	switch any(zero).(type) {
	case float32, float64:
		isFloat = true
	}
	var text, shown string
	switch x := v.(type) {
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case float64:
		if isFloat {
			return T(x), nil
		}
		if x != math.Trunc(x) {
			return 0, fmt.Errorf("value %v is not an integer", x)
		}
		text, shown = strconv.FormatFloat(x, 'f', -1, 64), fmt.Sprint(x)
	case string:
		text, shown = x, strconv.Quote(x)
	default:
		if isFloat {
			return 0, fmt.Errorf("value %v is not a number", v)
		}
		return 0, fmt.Errorf("value %v is not an integer", v)
	}
	if isFloat {
		// A number beyond float64's range parses as ±Inf with ErrRange:
		// it is a number, and becomes ±Inf as 1e39 does in float32.
		f, err := strconv.ParseFloat(text, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("value %s is not a number", shown)
		}
		return T(f), nil
	}
	// A conversion that round-trips with the sign kept is in T's range.
	k, err := strconv.ParseInt(text, 10, 64)
	t := T(k)
	fits := err == nil && int64(t) == k && (t < 0) == (k < 0)
	if errors.Is(err, strconv.ErrRange) && text[0] != '-' {
		u, uerr := strconv.ParseUint(text, 10, 64)
		t = T(u)
		fits = uerr == nil && uint64(t) == u && t >= 0
	}
	switch {
	case fits:
		return t, nil
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("value %s is not an integer", shown)
	}
	return 0, fmt.Errorf("value %s is out of range for %T", shown, zero)
}

// elementStrings returns an array's elements as text, in C order.
func elementStrings(a *ndarray.Array) []string {
	if ss, err := ndarray.Strings(a); err == nil {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = strconv.Quote(s)
		}
		return out
	}
	if !a.DType().Computable() {
		return nil
	}
	out := make([]string, 0, a.Size())
	switch a.DType() {
	case ndarray.Bool:
		for _, v := range ndarray.Values[bool](a) {
			out = append(out, strconv.FormatBool(v))
		}
	case ndarray.Int32, ndarray.Int64:
		for _, v := range a.Int64s() {
			out = append(out, strconv.FormatInt(v, 10))
		}
	case ndarray.Float32:
		for _, v := range ndarray.Values[float32](a) {
			out = append(out, strconv.FormatFloat(float64(v), 'g', -1, 32))
		}
	default:
		for _, v := range a.Float64s() {
			out = append(out, strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	return out
}

// formatArray prints an array's values with nested brackets, one row of
// the last axis per line, at most limit elements (0: all).
func formatArray(a *ndarray.Array, limit int) string {
	el := elementStrings(a)
	if el == nil {
		return fmt.Sprintf("(%v values are not shown)", a.DType())
	}
	shape := a.Shape()
	if len(shape) == 0 {
		return el[0]
	}
	var sb strings.Builder
	shown := 0
	// rec prints the sub-array at start; false when it stopped at the limit.
	var rec func(axis, start, span int) bool
	rec = func(axis, start, span int) bool {
		sb.WriteByte('[')
		n := shape[axis]
		sub := 1
		if n > 0 {
			sub = span / n
		}
		for i := 0; i < n; i++ {
			if i > 0 {
				if axis < len(shape)-1 {
					sb.WriteString("\n" + strings.Repeat(" ", axis+1))
				} else {
					sb.WriteByte(' ')
				}
			}
			if limit > 0 && shown >= limit {
				sb.WriteString("...]")
				return false
			}
			if axis == len(shape)-1 {
				sb.WriteString(el[start+i])
				shown++
			} else if !rec(axis+1, start+i*sub, sub) {
				sb.WriteByte(']')
				return false
			}
		}
		sb.WriteByte(']')
		return true
	}
	rec(0, 0, len(el))
	return sb.String()
}

// arrayJSON is an array as JSON: dtype, shape and the flat values.
func arrayJSON(a *ndarray.Array) map[string]any {
	shape := a.Shape()
	if shape == nil {
		shape = []int{} // a scalar's shape is [], not null
	}
	m := map[string]any{"dtype": a.DType().String(), "shape": shape}
	switch {
	case a.DType() == ndarray.Bool:
		m["values"] = ndarray.Values[bool](a)
	case a.DType().IsInt() && a.DType().Computable():
		m["values"] = a.Int64s()
	case a.DType().Computable():
		vals := a.Float64s()
		out := make([]any, len(vals))
		for i, v := range vals {
			switch {
			case math.IsNaN(v):
				out[i] = "NaN"
			case math.IsInf(v, 1):
				out[i] = "Infinity"
			case math.IsInf(v, -1):
				out[i] = "-Infinity"
			default:
				out[i] = v
			}
		}
		m["values"] = out
	default:
		if ss, err := ndarray.Strings(a); err == nil {
			m["values"] = ss
		}
	}
	return m
}

// feedFromNPY reads a placeholder's value from a .npy file, cast to the
// placeholder's dtype (NumPy's default is float64; graphs are mostly
// float32). The executor checks the shape when it takes the feed.
func feedFromNPY(p *graph.Variable, path string) (*ndarray.Array, error) {
	a, err := npy.ReadFile(path)
	if err != nil {
		return nil, badInput(fmt.Errorf("-feed %s: %w", p.Name(), err))
	}
	if a.DType() == p.DType() {
		return a, nil
	}
	if !a.DType().Computable() || !p.DType().Computable() {
		return nil, fmt.Errorf("-feed %s: %s holds %v, the placeholder is %v", p.Name(), path, a.DType(), p.DType())
	}
	c, err := ndarray.Cast(a, p.DType())
	if err != nil {
		return nil, fmt.Errorf("-feed %s: %s: %w", p.Name(), path, err)
	}
	return c, nil
}

// writeOutputsNPY writes each computed output to dir/NAME.npy.
func writeOutputsNPY(dir string, names []string, results map[string]*ndarray.Array, stdout io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// Clashes are found before any file is written, so that a refused
	// request leaves DIR as it was.
	used := map[string]string{}
	for _, n := range names {
		if results[n] == nil {
			continue
		}
		file := npyFileName(n)
		if prev, ok := used[file]; ok && prev != n {
			return fmt.Errorf("outputs %q and %q would both be written to %s", prev, n, file)
		}
		used[file] = n
	}
	for _, n := range names {
		a := results[n]
		if a == nil {
			continue
		}
		path := filepath.Join(dir, npyFileName(n))
		if err := writeFile(path, func(w io.Writer) error { return npy.Write(w, a) }); err != nil {
			return fmt.Errorf("output %q: %w", n, err)
		}
		fmt.Fprintf(stdout, "%s: wrote %s\n", n, path)
	}
	return nil
}

// npyFileName turns a variable name into a file name: SameDiff names hold
// "/" and ":".
func npyFileName(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c == '-' || c == '.' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			b[i] = '_'
		}
	}
	if s := string(b); s != "" && s != "." && s != ".." {
		return s + ".npy"
	}
	return "_.npy"
}
