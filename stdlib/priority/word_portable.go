//go:build !(amd64 || arm64 || 386)

package priority

import "encoding/binary"

// word returns the little-endian word of b[i:i+8]; the caller has checked
// that 0 <= i and i+8 <= len(b).
func word(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i:]) }
