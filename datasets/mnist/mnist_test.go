package mnist

import (
	"math"
	"testing"

	"github.com/sdgo/sdgo/ndarray"
)

// Facts about MNIST to check the loading against: the set sizes, the
// first labels of each set (5 0 4 1 9 2 1 3 1 4 in training, 7 2 1 0 4 1
// 4 9 5 9 in test, as every MNIST reader shows them), the class counts of
// the test set (980 zeros ... 1009 nines, from LeCun's page), and the mean
// pixel Normalize assumes.
func TestLoad(t *testing.T) {
	if raceEnabled {
		t.Skip("runs in make sweeps, without the race detector")
	}
	train, test, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if train.Len() != 60000 || test.Len() != 10000 {
		t.Fatalf("%d training and %d test images", train.Len(), test.Len())
	}
	if !ndarray.SameShape(train.Images.Shape(), []int{60000, 784}) || !ndarray.SameShape(test.OneHot.Shape(), []int{10000, 10}) {
		t.Fatalf("shapes %v %v", train.Images.Shape(), test.OneHot.Shape())
	}
	for _, c := range []struct {
		s    *Set
		want []int64
	}{{train, []int64{5, 0, 4, 1, 9, 2, 1, 3, 1, 4}}, {test, []int64{7, 2, 1, 0, 4, 1, 4, 9, 5, 9}}} {
		got := ndarray.Values[int64](c.s.Labels)[:10]
		for i := range got {
			if got[i] != c.want[i] {
				t.Fatalf("first labels %v, want %v", got, c.want)
			}
		}
	}
	counts := make([]int, Classes)
	hot := ndarray.Values[float32](test.OneHot)
	for i, l := range ndarray.Values[int64](test.Labels) {
		counts[l]++
		if hot[i*Classes+int(l)] != 1 {
			t.Fatalf("test image %d: label %d, one-hot row %v", i, l, hot[i*Classes:(i+1)*Classes])
		}
	}
	want := []int{980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009}
	for d := range counts {
		if counts[d] != want[d] {
			t.Fatalf("test class counts %v, want %v", counts, want)
		}
	}
	var sum float64
	px := ndarray.Values[float32](train.Images)
	for _, p := range px {
		if p < 0 || p > 1 {
			t.Fatalf("pixel %v outside [0, 1]", p)
		}
		sum += float64(p)
	}
	if m := sum / float64(len(px)); m < Mean-1e-4 || m > Mean+1e-4 {
		t.Errorf("mean pixel %v, want %v", m, Mean)
	}
	h, err := test.Head(3)
	if err != nil || h.Len() != 3 || ndarray.Values[int64](h.Labels)[2] != 1 || h.Images.Shape()[1] != 784 {
		t.Errorf("Head(3): %v %v", h, err)
	}
	norm, err := h.Normalize()
	if err != nil || math.Abs(norm.Float(0, 0)-(0-Mean)/Std) > 1e-6 {
		t.Errorf("Normalize: %v %v", norm, err)
	}
}
