//go:build amd64 || arm64 || 386

package priority

import "unsafe"

// word returns the little-endian word of b[i:i+8]. The caller has checked
// that 0 <= i and i+8 <= len(b): the load is not checked again. On these
// processors, which are little-endian and load a word from any address,
// it is one instruction; binary.LittleEndian.Uint64 of the reslice spends
// ten more on two bounds checks, and the scanner loads up to five words
// for a key and its number.
func word(b []byte, i int) uint64 {
	return *(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))
}
