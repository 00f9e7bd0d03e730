//go:build !unix

package main

import "os"

// mappedFile is never made on this system: every file is read.
type mappedFile struct{}

func mapFile(*os.File) (*mappedFile, bool) { return nil, false }
func (*mappedFile) data() []byte           { return nil }
func (*mappedFile) release(int)            {}
func (*mappedFile) unmap()                 {}
