package eval

import (
	"github.com/gpl-lang/gpl/eval/internal/source"
)

// MaxImportSize is the largest file, in bytes, that an import reads: the
// language's limit on a source file (lang.DefaultMaxFileSize, 64 MiB). A
// larger file is refused from its size before any of it is read. Where an
// import may read from is package source's rule (eval/internal/source):
// inside the directory tree of the file loaded or of Options.AllowImports,
// a regular .gpl file, each file once however it is spelled.
const MaxImportSize = source.MaxSize
