package ops

// libnd4j identifies custom ops in graph files by a 64-bit hash of the op name.
// The table below is its 256-entry mixing table, produced by an xorshift
// generator from a fixed seed.
var hashTable = func() [256]uint64 {
	var t [256]uint64
	h := uint64(0x544B2FBACAAF1684)
	for i := range t {
		for j := 0; j < 31; j++ {
			h ^= h >> 7
			h ^= h << 11
			h ^= h >> 10
		}
		t[i] = h
	}
	return t
}()

// Hash returns libnd4j's hash of an op name, the opNum of custom ops in
// SameDiff graph files.
func Hash(name string) int64 {
	const mul = 7664345821815920749
	h := uint64(0xBB40E64DA205B064)
	for i := 0; i < len(name); i++ {
		h = (h * mul) ^ hashTable[name[i]]
		h = (h * mul) ^ hashTable[0]
	}
	return int64(h)
}
