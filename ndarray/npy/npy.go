package npy

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/sdgo/sdgo/ndarray"
)

// NumPy's .npy format (numpy/lib/format.py): the magic "\x93NUMPY", a major
// and a minor version byte, the header length (uint16 little-endian in
// version 1, uint32 in versions 2 and 3), the header (a Python dict literal
// with 'descr', 'fortran_order' and 'shape', padded with spaces and a final
// newline so that the data starts on a 64-byte boundary), then the elements.

const npyMagic = "\x93NUMPY"

// npyMaxHeader bounds the header we accept: real headers are under 200
// bytes, and a hostile length must not make us allocate gigabytes.
const npyMaxHeader = 1 << 20

// hostLittleEndian is the byte order of this machine's arrays.
var hostLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// npyKinds maps NumPy's kind and size ("f4") to sdgo's dtypes and back.
var npyKinds = map[string]ndarray.DType{
	"b1": ndarray.Bool,
	"f2": ndarray.Half, "f4": ndarray.Float32, "f8": ndarray.Float64,
	"i1": ndarray.Int8, "i2": ndarray.Int16, "i4": ndarray.Int32, "i8": ndarray.Int64,
	"u1": ndarray.Uint8, "u2": ndarray.Uint16, "u4": ndarray.Uint32, "u8": ndarray.Uint64,
}

// ErrFormat is wrapped by every error about a malformed .npy or .npz file;
// test for it with errors.Is.
var ErrFormat = errors.New("not a valid .npy file")

// Decode decodes a .npy file held in b. The array it returns owns a copy of
// the data: b may be reused.
func Decode(b []byte) (*ndarray.Array, error) { return Read(bytes.NewReader(b)) }

// ReadFile reads the .npy file at path.
func ReadFile(path string) (*ndarray.Array, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	a, err := Read(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

// Read decodes a .npy file from r, which must end where the file's data
// ends. It reads the header first and then only the data bytes the header's
// shape needs, refusing a shape whose data would pass the memory budget
// (ndarray.AllocLimit) before it reads any: an endless or hostile stream
// costs no more than its header and the data it really holds.
func Read(r io.Reader) (*ndarray.Array, error) {
	pre := make([]byte, 12)
	if n, _ := io.ReadFull(r, pre[:10]); n < 10 || string(pre[:len(npyMagic)]) != npyMagic {
		return nil, fmt.Errorf("%w: no \\x93NUMPY magic at offset 0", ErrFormat)
	}
	major := pre[6]
	var hlen, start int
	switch major {
	case 1:
		hlen, start = int(binary.LittleEndian.Uint16(pre[8:10])), 10
	case 2, 3:
		if n, _ := io.ReadFull(r, pre[10:12]); n < 2 {
			return nil, fmt.Errorf("%w: truncated at offset %d (header length)", ErrFormat, 10+n)
		}
		n := binary.LittleEndian.Uint32(pre[8:12])
		if n > npyMaxHeader {
			return nil, fmt.Errorf("%w: header length %d at offset 8 is implausible", ErrFormat, n)
		}
		hlen, start = int(n), 12
	default:
		return nil, fmt.Errorf("%w: format version %d.%d (want 1.0, 2.0 or 3.0)", ErrFormat, major, pre[7])
	}
	hb := make([]byte, hlen)
	if n, _ := io.ReadFull(r, hb); n < hlen {
		return nil, fmt.Errorf("%w: the header ends at offset %d, past the end of the file (%d bytes)", ErrFormat, start+hlen, start+n)
	}
	hdr, err := parseNPYHeader(string(hb))
	if err != nil {
		return nil, fmt.Errorf("%w: header at offset %d: %v", ErrFormat, start, err)
	}
	if err := ndarray.CheckShape(hdr.shape); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	n := ndarray.Layout{Shape: hdr.shape}.Size()
	size := hdr.dtype.Size()
	need := int64(n) * int64(size)
	if limit := int64(ndarray.AllocLimit()); need > limit {
		return nil, fmt.Errorf("%w: shape %v of %v needs %d data bytes, over the memory budget of %d", ndarray.ErrTooLarge, hdr.shape, hdr.dtype, need, limit)
	}
	// The data is read into memory of its own, which the budget counts
	// from here (with what is already in use).
	if err := ndarray.Reserve(int(need)); err != nil {
		return nil, fmt.Errorf("shape %v of %v: %w", hdr.shape, hdr.dtype, err)
	}
	// The buffer grows with the data that arrives, so a short file with a
	// large shape fails without taking the memory its header claims.
	var data bytes.Buffer
	got, err := io.CopyN(&data, r, need)
	if err != nil && err != io.EOF {
		return nil, err
	}
	if got < need {
		return nil, fmt.Errorf("%w: shape %v of %v needs %d data bytes after offset %d, the file has %d", ErrFormat, hdr.shape, hdr.dtype, need, start+hlen, got)
	}
	if m, _ := r.Read(make([]byte, 1)); m > 0 {
		return nil, fmt.Errorf("%w: shape %v of %v needs %d data bytes after offset %d, the file has more", ErrFormat, hdr.shape, hdr.dtype, need, start+hlen)
	}
	raw := data.Bytes()
	if size > 1 && hdr.littleEndian != hostLittleEndian {
		swapBytes(raw, size)
	}
	buf, err := ndarray.BufferFromBytes(hdr.dtype, n, raw)
	if err != nil {
		return nil, err
	}
	if !hdr.fortran {
		return ndarray.NewView(buf, ndarray.Packed(hdr.shape...))
	}
	// Fortran order is C order of the reversed shape, transposed back
	// (Permute returns a packed copy).
	rev := make([]int, len(hdr.shape))
	perm := make([]int, len(hdr.shape))
	for i := range rev {
		rev[i] = hdr.shape[len(rev)-1-i]
		perm[i] = len(rev) - 1 - i
	}
	a, err := ndarray.NewView(buf, ndarray.Packed(rev...))
	if err != nil {
		return nil, err
	}
	return ndarray.Permute(a, perm...)
}

func swapBytes(b []byte, size int) {
	for i := 0; i+size <= len(b); i += size {
		for j, k := i, i+size-1; j < k; j, k = j+1, k-1 {
			b[j], b[k] = b[k], b[j]
		}
	}
}

type npyHeader struct {
	dtype        ndarray.DType
	littleEndian bool
	fortran      bool
	shape        []int
}

// parseNPYHeader reads the header dict. It accepts what numpy writes and
// what a person would type: either quote style, trailing commas, any order.
func parseNPYHeader(s string) (npyHeader, error) {
	p := &pyLit{s: s}
	v, err := p.value()
	if err != nil {
		return npyHeader{}, err
	}
	p.space()
	if p.i != len(p.s) {
		return npyHeader{}, fmt.Errorf("unexpected %q after the dict", p.rest())
	}
	d, ok := v.(map[string]any)
	if !ok {
		return npyHeader{}, fmt.Errorf("the header is not a dict")
	}
	var h npyHeader
	descr, ok := d["descr"].(string)
	if !ok {
		return h, fmt.Errorf("no 'descr' string (structured dtypes are not supported)")
	}
	if len(descr) < 3 {
		return h, fmt.Errorf("unsupported descr %q", descr)
	}
	switch descr[0] {
	case '<':
		h.littleEndian = true
	case '>':
	case '|', '=':
		h.littleEndian = hostLittleEndian
	default:
		return h, fmt.Errorf("unsupported descr %q (no byte order)", descr)
	}
	if h.dtype, ok = npyKinds[descr[1:]]; !ok {
		return h, fmt.Errorf("unsupported descr %q (sdgo reads bool, float16/32/64 and 8 to 64-bit integers)", descr)
	}
	if h.fortran, ok = d["fortran_order"].(bool); !ok {
		return h, fmt.Errorf("no 'fortran_order' bool")
	}
	sh, ok := d["shape"].([]int)
	if !ok {
		return h, fmt.Errorf("no 'shape' tuple of integers")
	}
	if len(sh) > ndarray.MaxRank {
		return h, fmt.Errorf("rank %d is above %d", len(sh), ndarray.MaxRank)
	}
	h.shape = sh
	return h, nil
}

// pyLit parses the subset of Python literals a .npy header holds: dicts
// with string keys, strings, True/False, and tuples of integers.
type pyLit struct {
	s     string
	i     int
	depth int
}

func (p *pyLit) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *pyLit) rest() string {
	r := p.s[p.i:]
	if len(r) > 20 {
		r = r[:20] + "..."
	}
	return r
}

func (p *pyLit) value() (any, error) {
	p.space()
	if p.i >= len(p.s) {
		return nil, fmt.Errorf("unexpected end")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.dict()
	case c == '(' || c == '[':
		return p.tuple()
	case c == '\'' || c == '"':
		return p.str()
	case strings.HasPrefix(p.s[p.i:], "True"):
		p.i += 4
		return true, nil
	case strings.HasPrefix(p.s[p.i:], "False"):
		p.i += 5
		return false, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.int()
	}
	return nil, fmt.Errorf("unexpected %q", p.rest())
}

func (p *pyLit) dict() (any, error) {
	p.i++ // {
	d := map[string]any{}
	for {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return d, nil
		}
		k, err := p.str()
		if err != nil {
			return nil, fmt.Errorf("dict key: %v", err)
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, fmt.Errorf("want ':' after %q", k)
		}
		p.i++
		if d[k], err = p.value(); err != nil {
			return nil, fmt.Errorf("%s: %v", k, err)
		}
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
		} else if p.i >= len(p.s) || p.s[p.i] != '}' {
			return nil, fmt.Errorf("want ',' or '}' at %q", p.rest())
		}
	}
}

func (p *pyLit) tuple() (any, error) {
	closer := byte(')')
	if p.s[p.i] == '[' {
		closer = ']'
	}
	p.i++
	out := []int{}
	for {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == closer {
			p.i++
			return out, nil
		}
		n, err := p.int()
		if err != nil {
			return nil, err
		}
		out = append(out, n)
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
		} else if p.i >= len(p.s) || p.s[p.i] != closer {
			return nil, fmt.Errorf("want ',' or %q at %q", closer, p.rest())
		}
	}
}

func (p *pyLit) str() (string, error) {
	if p.i >= len(p.s) || (p.s[p.i] != '\'' && p.s[p.i] != '"') {
		return "", fmt.Errorf("want a quoted string at %q", p.rest())
	}
	q := p.s[p.i]
	end := strings.IndexByte(p.s[p.i+1:], q)
	if end < 0 {
		return "", fmt.Errorf("unterminated string")
	}
	v := p.s[p.i+1 : p.i+1+end]
	p.i += end + 2
	return v, nil
}

func (p *pyLit) int() (int, error) {
	j := p.i
	if j < len(p.s) && p.s[j] == '-' {
		j++
	}
	for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
		j++
	}
	n, err := strconv.Atoi(p.s[p.i:j])
	if err != nil {
		return 0, fmt.Errorf("want an integer at %q", p.rest())
	}
	p.i = j
	if p.i < len(p.s) && p.s[p.i] == 'L' { // Python 2's long suffix
		p.i++
	}
	return n, nil
}

// Write writes a as a version 1.0 .npy file (2.0 when the header needs
// it), in C order and this machine's byte order: what numpy.save writes
// for the same array. String and other dtypes NumPy has no fixed-size
// code for are an error.
func Write(w io.Writer, a *ndarray.Array) error {
	dt := a.DType()
	kind := ""
	for k, d := range npyKinds {
		if d == dt {
			kind = k
		}
	}
	if kind == "" {
		return fmt.Errorf(".npy has no dtype for %v", dt)
	}
	order := "<"
	if !hostLittleEndian {
		order = ">"
	}
	if dt.Size() == 1 {
		order = "|"
	}
	shape := make([]string, len(a.Shape()))
	for i, d := range a.Shape() {
		shape[i] = strconv.Itoa(d)
	}
	tuple := strings.Join(shape, ", ")
	if len(shape) == 1 {
		tuple += ","
	}
	hdr := fmt.Sprintf("{'descr': '%s%s', 'fortran_order': False, 'shape': (%s), }", order, kind, tuple)
	var pre bytes.Buffer
	pre.WriteString(npyMagic)
	prefix := 10
	if len(hdr)+1+prefix > math.MaxUint16 {
		prefix = 12
	}
	pad := (64 - (prefix+len(hdr)+1)%64) % 64
	hdr += strings.Repeat(" ", pad) + "\n"
	if prefix == 10 {
		pre.Write([]byte{1, 0})
		pre.Write(binary.LittleEndian.AppendUint16(nil, uint16(len(hdr))))
	} else {
		pre.Write([]byte{2, 0})
		pre.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(hdr))))
	}
	pre.WriteString(hdr)
	if _, err := w.Write(pre.Bytes()); err != nil {
		return err
	}
	b, err := packedBytes(a)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// packedBytes returns a's elements in C order as bytes.
func packedBytes(a *ndarray.Array) ([]byte, error) {
	size, n := a.DType().Size(), a.Size()
	if n == 0 {
		return nil, nil
	}
	c, err := ndarray.Contiguous(a)
	if err != nil {
		return nil, err
	}
	return c.Buffer().Bytes()[c.Offset()*size : (c.Offset()+n)*size], nil
}
