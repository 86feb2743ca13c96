package serialize

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sdgo/sdgo/serialize/internal/fb"
)

func TestParseShapeInfo(t *testing.T) {
	cases := []struct {
		si      []int64
		shape   []int64
		strides []int64
		order   byte
		empty   bool
	}{
		{[]int64{1, 2, 1, 8192, 1, 99}, []int64{2}, []int64{1}, 'c', false},
		{[]int64{2, 2, 3, 3, 1, 8192, 1, 99}, []int64{2, 3}, []int64{3, 1}, 'c', false},
		{[]int64{2, 2, 3, 1, 2, 16384, 1, 102}, []int64{2, 3}, []int64{1, 2}, 'f', false},
		{[]int64{0, 8192, 1, 99}, []int64{}, []int64{}, 'c', false},                    // 4-long rank 0 (ND4J Java, older libnd4j, the fixtures)
		{[]int64{0, 0, 0, 8192, 1, 99}, []int64{}, []int64{}, 'c', false},              // 6-long rank 0 (the newest libnd4j)
		{[]int64{0, 131080, 1, 99}, []int64{}, []int64{}, 'c', true},                   // empty scalar (fixture)
		{[]int64{1, 0, 1, 8192 | 8, 0, 99}, []int64{0}, []int64{1}, 'c', true},         // empty vector
		{[]int64{2, 3, 0, 0, 0, 8192, 1, 99}, []int64{3, 0}, []int64{0, 0}, 'c', true}, // zero dim
	}
	for _, c := range cases {
		s, err := parseShapeInfo(c.si)
		if err != nil {
			t.Errorf("%v: %v", c.si, err)
			continue
		}
		if !reflect.DeepEqual(s.Shape, c.shape) || !reflect.DeepEqual(s.Strides, c.strides) || s.Order != c.order ||
			s.Empty != c.empty {
			t.Errorf("%v: got %+v", c.si, s)
		}
	}
	bad := []struct {
		si   []int64
		want string
	}{
		{nil, "empty"},
		{[]int64{-1, 0, 0, 0}, "rank -1"},
		{[]int64{33}, "rank 33"},
		{[]int64{1 << 40}, "rank"},
		{[]int64{2, 2, 3, 3, 1, 8192, 1}, "7 entries"},
		{[]int64{0, 0, 8192, 1, 99}, "5 entries"},
		{[]int64{1, -2, 1, 8192, 1, 99}, "negative"},
		{[]int64{1, 2, 1, 8192, 1, 100}, "order 100"},
		{[]int64{2, 1 << 40, 1 << 40, 1, 1, 8192, 1, 99}, "2^56"},
	}
	for _, c := range bad {
		_, err := parseShapeInfo(c.si)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.si, err, c.want)
		}
	}
}

func TestCShapeInfo(t *testing.T) {
	cases := []struct {
		shape []int64
		dt    fb.DType
		empty bool
		old   bool // SaveOptions.LegacyArrayLayouts
		want  []int64
	}{
		{[]int64{2}, fb.DTypeFLOAT, false, false, []int64{1, 2, 1, 8192, 1, 99}},
		{[]int64{2, 3}, fb.DTypeFLOAT, false, false, []int64{2, 2, 3, 3, 1, 8192, 1, 99}},
		{[]int64{2, 3, 4}, fb.DTypeDOUBLE, false, false, []int64{3, 2, 3, 4, 12, 4, 1, 16384, 1, 99}},
		// libnd4j's createScalarShapeInfo: [0, 0, 1, extra, 1, 'c'].
		{[]int64{}, fb.DTypeINT32, false, false, []int64{0, 0, 1, 131072, 1, 99}},
		{[]int64{}, fb.DTypeINT32, false, true, []int64{0, 131072, 1, 99}},
		{[]int64{}, fb.DTypeINT32, true, false, []int64{0, 0, 1, 131080, 0, 99}},
		{[]int64{}, fb.DTypeINT32, true, true, []int64{0, 131080, 0, 99}},
		{[]int64{2, 0}, fb.DTypeINT64, false, false, []int64{2, 2, 0, 0, 0, 262144 | 8, 0, 99}},
		{[]int64{5}, fb.DTypeUINT8, false, false, []int64{1, 5, 1, arrayUnsigned | arrayChar, 1, 99}},
		{[]int64{1}, fb.DTypeBOOL, false, false, []int64{1, 1, 1, 524288, 1, 99}},
		{[]int64{1}, fb.DTypeUTF8, false, false, []int64{1, 1, 1, 1048576, 1, 99}},
	}
	for _, c := range cases {
		got, err := cShapeInfo(c.shape, c.dt, c.empty, c.old)
		if err != nil {
			t.Errorf("%v %v: %v", c.shape, c.dt, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v %v: got %v want %v", c.shape, c.dt, got, c.want)
		}
		s, err := parseShapeInfo(got)
		if err != nil {
			t.Errorf("%v: does not parse back: %v", got, err)
			continue
		}
		if !reflect.DeepEqual(s.Shape, append([]int64{}, c.shape...)) {
			t.Errorf("%v: parses back to %v", got, s.Shape)
		}
		if dt, ok := dtypeFromExtra(s.Extra); !ok || dt != c.dt {
			t.Errorf("%v: extra says %v", got, dt)
		}
	}
	if _, err := cShapeInfo([]int64{2}, fb.DTypeINHERIT, false, false); err == nil {
		t.Error("INHERIT accepted")
	}
	if _, err := cShapeInfo([]int64{-1}, fb.DTypeFLOAT, false, false); err == nil {
		t.Error("negative dim accepted")
	}
	if _, err := cShapeInfo(make([]int64, 33), fb.DTypeFLOAT, false, false); err == nil {
		t.Error("rank 33 accepted")
	}
}

func TestDTypeFlagsRoundTrip(t *testing.T) {
	for dt := range fb.EnumNamesDType {
		flag, ok := dtypeFlag(dt)
		if !ok {
			continue
		}
		back, ok := dtypeFromExtra(flag | arrayEmpty)
		if !ok || back != dt {
			t.Errorf("%v: flag %d reads back as %v", dt, flag, back)
		}
	}
}

func TestCheckArray(t *testing.T) {
	ok := rawArray{ShapeInfo: []int64{1, 2, 1, 8192, 1, 99}, Buffer: make([]byte, 8), DType: fb.DTypeFLOAT}
	if _, err := checkArray(&ok); err != nil {
		t.Fatal(err)
	}
	short := ok
	short.Buffer = make([]byte, 7)
	if _, err := checkArray(&short); err == nil {
		t.Error("short buffer accepted")
	}
	empty := rawArray{ShapeInfo: []int64{1, 0, 1, 8192 | 8, 0, 99}, DType: fb.DTypeFLOAT}
	if _, err := checkArray(&empty); err != nil {
		t.Error(err)
	}
	badOrder := ok
	badOrder.ByteOrder = 7
	if _, err := checkArray(&badOrder); err == nil {
		t.Error("byte order 7 accepted")
	}
	str := rawArray{ShapeInfo: []int64{1, 2, 1, arrayUTF8, 1, 99}, Buffer: make([]byte, 16), DType: fb.DTypeUTF8}
	if _, err := checkArray(&str); err == nil {
		t.Error("UTF8 buffer without room for 3 offsets accepted")
	}
	unknown := ok
	unknown.DType = 42
	if _, err := checkArray(&unknown); err == nil {
		t.Error("unknown dtype accepted")
	}
}
