package check

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/gpl-lang/gpl/eval/internal/source"
	"github.com/gpl-lang/gpl/lang"
)

// importReader is the program's reader of its relative imports.
func (p *Program) importReader() *source.Reader {
	if p.imports == nil {
		p.imports = &source.Reader{FS: p.Options.FS, AllowImports: p.Options.AllowImports, Loaded: func(name string) bool { return p.Loaded[name] }}
	}
	return p.imports
}

// readImport reads the file that import path0 in the file named from
// names. It returns the file's name and text; ok is false when nothing is
// to be added, because the import was refused (a diagnostic at the path is
// recorded) or the file is already loaded under this or another spelling.
func (p *Program) readImport(from string, imp *lang.Import, path0 string) (name string, src []byte, ok bool) {
	name, src, err := p.importReader().Import(from, path0)
	if err != nil {
		pos, end := p.pathSpan(imp)
		d := p.errorAt(pos, end, fmt.Sprintf("cannot import %q: %v", path0, err))
		var r *source.Refusal
		if errors.As(err, &r) {
			d.Label = r.Label
			if r.Note != "" {
				d.Notes = []string{r.Note}
			}
		}
		return "", nil, false
	}
	return name, src, name != ""
}

// pathSpan is where an import's path is written, quotes included: the
// caret of an import's diagnostic goes under it. It falls back to the whole
// statement when the text does not hold the path where the parser ended it.
func (p *Program) pathSpan(imp *lang.Import) (lang.Position, lang.Position) {
	end := imp.End()
	start := end
	start.Offset -= len(imp.Path)
	start.Column -= utf8.RuneCountInString(imp.Path)
	src := p.Sources[imp.Start().Filename]
	if start.Offset < imp.Start().Offset || start.Column < 1 || end.Offset > len(src) || string(src[start.Offset:end.Offset]) != imp.Path {
		return imp.Start(), imp.End()
	}
	return start, end
}
