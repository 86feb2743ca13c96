package ops

import "testing"

// Test vectors from libnd4j (the name hashes its graph files store).
func TestHash(t *testing.T) {
	for name, want := range map[string]int64{
		"Conv2D":      -1637140380760460323,
		"switch":      -1988317239813741487,
		"identity_n":  8511174575221493383,
		"create_view": -6201726597031682680,
		"add":         -5176033361941572836,
		"matmul":      -273014250715117663,
		"mmul":        -2678280298258501591,
	} {
		if got := Hash(name); got != want {
			t.Errorf("Hash(%q) = %d, want %d", name, got, want)
		}
	}
}
