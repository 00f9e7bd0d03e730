package lang

import (
	"fmt"
	"testing"
	"unsafe"
)

func TestZZSizes(t *testing.T) {
	fmt.Println("Ident", unsafe.Sizeof(Ident{}), "Field", unsafe.Sizeof(Field{}), "Job", unsafe.Sizeof(Job{}), "FactorBlock", unsafe.Sizeof(FactorBlock{}),
		"Expect", unsafe.Sizeof(Expect{}), "Approx", unsafe.Sizeof(Approx{}), "NumberLit", unsafe.Sizeof(NumberLit{}), "Name", unsafe.Sizeof(Name{}), "Binary", unsafe.Sizeof(Binary{}), "Let", unsafe.Sizeof(Let{}), "Pool", unsafe.Sizeof(Pool{}))
}
