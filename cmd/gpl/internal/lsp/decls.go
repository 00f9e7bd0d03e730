package lsp

import (
	"github.com/gpl-lang/gpl/lang"
)

// declName is the name a statement declares, and the keyword it is
// declared with; nil for an import, an expect or an owners block.
func declName(st lang.Stmt) *lang.Ident {
	switch st := st.(type) {
	case *lang.Let:
		return st.Name
	case *lang.Pool:
		return st.Name
	case *lang.Job:
		return st.Name
	case *lang.Rules:
		return st.Name
	case *lang.Request:
		return st.Name
	case *lang.Group:
		return st.Name
	case *lang.Compare:
		return st.Name
	case *lang.Sweep:
		return st.Name
	case *lang.Solve:
		return st.Name
	}
	return nil
}

// decl is where a name is declared.
type decl struct {
	file  string
	ident *lang.Ident
	stmt  lang.Stmt
}

// declarations maps each name declared in the scenario's files to where.
func declarations(a *analysis) map[string]decl {
	out := map[string]decl{}
	if a.scn == nil {
		return out
	}
	for _, f := range a.scn.Files() {
		for _, st := range f.Stmts {
			if id := declName(st); id != nil {
				if _, seen := out[id.Name]; !seen || f.Name == a.name {
					out[id.Name] = decl{file: f.Name, ident: id, stmt: st}
				}
			}
		}
	}
	return out
}

// enclosing is the statement of the document's own file that holds byte
// offset off, or nil.
func enclosing(a *analysis, off int) lang.Stmt {
	if a.file == nil {
		return nil
	}
	for _, st := range a.file.Stmts {
		from, to := st.Span()
		if from.Offset <= off && off <= to.Offset {
			return st
		}
	}
	return nil
}

// fieldsOf are the fields a statement's block sets.
func fieldsOf(st lang.Stmt) []*lang.Field {
	switch st := st.(type) {
	case *lang.Pool:
		return st.Fields
	case *lang.Request:
		return st.Fields
	case *lang.Job:
		var out []*lang.Field
		for _, it := range st.Items {
			switch it := it.(type) {
			case *lang.Field:
				out = append(out, it)
			case *lang.FactorBlock:
				out = append(out, it.Fields...)
			}
		}
		return out
	}
	return nil
}
