package exec

import "testing"

func TestStepSet(t *testing.T) {
	var s stepSet
	in := map[int]bool{}
	for _, k := range []int{200, 130, 5, 64, 63, 1000, 0, 199} {
		s.add(k)
		in[k] = true
		for j := 0; j < 1100; j++ {
			if s.has(j) != in[j] {
				t.Fatalf("after adding %d: has(%d) = %v", k, j, s.has(j))
			}
		}
	}
}
