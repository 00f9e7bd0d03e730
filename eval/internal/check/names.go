package check

import (
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/expr-lang/expr/ast"
	"github.com/gpl-lang/gpl/eval/internal/funcs"
	"github.com/gpl-lang/gpl/eval/internal/results"
	"github.com/gpl-lang/gpl/eval/internal/suggest"
	"github.com/gpl-lang/gpl/eval/internal/value"
	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib"
)

// This file resolves names for the check pass: a bare or dotted name
// becomes a ref to a declaration's value or result, an unknown one gets a
// "did you mean", and a call on declarations becomes one ref.

// Name resolves a reference and records it as a ref.
func (cp *exprChecker) name(n *lang.Name) (value.Type, ast.Node) {
	if len(n.Parts) >= 2 {
		if stat := n.Parts[len(n.Parts)-1].Name; Stats[stat] != 0 || stat == "min" {
			return cp.statName(n, stat) // uncertain.go
		}
	}
	path := n.Path()
	if cp.sc.point != nil {
		if def, ok := results.ByName()[path]; ok {
			return cp.pointName(n, def) // query.go
		}
	}
	if j := cp.sc.job; j != nil {
		if def, ok := results.ByName()[path]; ok {
			t := InCurrency(def.Type, cp.p.JobCurrency(j))
			return t, cp.addRef(&Ref{Kind: RefJob, Decl: j, Field: def.Name, Text: path, Node: n, Type: t})
		}
	}
	first := n.Parts[0]
	d, ok := cp.p.Decls[first.Name]
	if !ok {
		if len(n.Parts) == 1 && cp.p.Classes[first.Name] {
			return value.ClassType, &ast.StringNode{Value: first.Name}
		}
		return cp.unknownName(n)
	}
	rest := strings.Join(partNames(n.Parts[1:]), ".")
	return DeclKinds[d.Kind].name(cp, n, d, rest)
}

// letName resolves a let or param named in an expression: its value.
func (cp *exprChecker) letName(n *lang.Name, d *Decl, rest string) (value.Type, ast.Node) {
	if rest != "" {
		return cp.errorf(n, "%s is a value; it has no field %s", d.Name.Name, rest)
	}
	if !cp.p.CheckDecl(d, n, cp.diags) {
		cp.ok = false
		return value.Type{}, nil
	}
	return d.Type, cp.addRef(&Ref{Kind: RefLet, Decl: d, Text: n.Path(), Node: n, Type: d.Type})
}

// jobName resolves JOB.RESULT.
func (cp *exprChecker) jobName(n *lang.Name, d *Decl, rest string) (value.Type, ast.Node) {
	if rest == "" {
		return cp.errorf(n, "%s is a job; name one of its results, e.g. %s.mpg", d.Name.Name, d.Name.Name)
	}
	def, ok := results.ByName()[rest]
	if !ok {
		return cp.unknownField(n, d, rest, results.Names())
	}
	if !cp.p.dependOn(d, n, cp.diags) {
		cp.ok = false
		return value.Type{}, nil
	}
	t := InCurrency(def.Type, cp.p.JobCurrency(d))
	return t, cp.addRef(&Ref{Kind: RefJob, Decl: d, Field: def.Name, Text: n.Path(), Node: n, Type: t})
}

// poolName resolves POOL.FIELD.
func (cp *exprChecker) poolName(n *lang.Name, d *Decl, rest string) (value.Type, ast.Node) {
	if def, ok := results.PoolByName()[rest]; ok {
		return cp.poolResult(n, d, def)
	}
	return cp.fieldName(n, d, rest, poolFieldDefs(), RefPool, "devices")
}

// requestName resolves REQUEST.FIELD.
func (cp *exprChecker) requestName(n *lang.Name, d *Decl, rest string) (value.Type, ast.Node) {
	return cp.fieldName(n, d, rest, RequestFields, RefRequest, "batch_size")
}

// fieldName resolves a field of a pool or request: one of fields.
func (cp *exprChecker) fieldName(n *lang.Name, d *Decl, rest string, fields map[string]fieldDef, kind refKind, example string) (value.Type, ast.Node) {
	if rest == "" {
		return cp.errorf(n, "%s is a %s; name one of its fields, e.g. %s.%s", d.Name.Name, DeclKinds[d.Kind].Noun, d.Name.Name, example)
	}
	f, ok := fields[rest]
	if !ok {
		return cp.unknownField(n, d, rest, SortedKeys(fields))
	}
	if !cp.p.dependOn(d, n, cp.diags) {
		cp.ok = false
		return value.Type{}, nil
	}
	return value.NumType(f.Dim), cp.addRef(&Ref{Kind: kind, Decl: d, Field: rest, Text: n.Path(), Node: n, Type: value.NumType(f.Dim)})
}

// rulesName refuses a ruleset named as a value.
func (cp *exprChecker) rulesName(n *lang.Name, d *Decl, _ string) (value.Type, ast.Node) {
	return cp.errorf(n, "%s is a ruleset; use it as classify(%s, REQUEST)", d.Name.Name, d.Name.Name)
}

func partNames(ids []*lang.Ident) []string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = id.Name
	}
	return s
}

// SortedKeys are the keys of m, sorted.
func SortedKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func (cp *exprChecker) unknownName(n *lang.Name) (value.Type, ast.Node) {
	first := n.Parts[0]
	if cp.p.lost[first.Name] {
		// Declared by a statement with a syntax error, told already.
		cp.ok = false
		return value.Type{}, nil
	}
	end := first.End()
	if cp.sc.job != nil {
		end = n.End()
	}
	// A job's result named outside any job: say where it belongs.
	if def, ok := results.ByName()[n.Path()]; ok && cp.sc.job == nil {
		example := "JOB"
		for _, d := range cp.p.Order {
			if d.Kind == DeclJob {
				example = d.Name.Name
				break
			}
		}
		cp.errorAt(first.Start(), n.End(), fmt.Sprintf("%s is a job result; write %s.%s, or put the expect inside the job", n.Path(), example, def.Name))
		return value.Type{}, nil
	}
	// A bundled library's declaration without its import.
	if lib := cp.p.libraryDeclaring(first.Name); lib != "" {
		cp.errorAt(first.Start(), first.End(), fmt.Sprintf("unknown name %s; it is declared in the bundled library: add import %q", first.Name, lib))
		return value.Type{}, nil
	}
	msg := "unknown name " + first.Name
	if cp.sc.job != nil && len(n.Parts) > 1 {
		msg = "unknown name " + n.Path()
	}
	target := first.Name
	if cp.sc.job != nil {
		target = n.Path()
	}
	sug := ""
	if cp.sc.point != nil {
		// In NAME.first(…) a bare name reads the point's results: a
		// misspelt one is most likely one of them.
		sug = suggest.Closest(n.Path(), results.Names())
	}
	if sug == "" {
		sug = cp.p.suggestName(target, cp.sc.job != nil)
	}
	if sug != "" {
		msg += "; did you mean " + sug + "?"
	}
	cp.errorAt(first.Start(), end, msg)
	d := (*cp.diags)[len(*cp.diags)-1]
	d.Code = "unknown_name"
	if sug != "" && !strings.Contains(sug, " ") {
		d.Fixes = []lang.Fix{{Pos: first.Start(), End: end, Text: sug}}
	}
	return value.Type{}, nil
}

func (cp *exprChecker) unknownField(n *lang.Name, d *Decl, field string, cands []string) (value.Type, ast.Node) {
	msg := DeclKinds[d.Kind].Noun + " " + d.Name.Name + " has no " + field
	if s := suggest.Closest(field, cands); s != "" {
		msg += "; did you mean " + d.Name.Name + "." + s + "?"
	} else {
		msg += "; it has " + strings.Join(cands, ", ")
	}
	cp.errorAt(n.Parts[1].Start(), n.End(), msg)
	diag := (*cp.diags)[len(*cp.diags)-1]
	diag.Code = "unknown_field"
	if s := suggest.Closest(field, cands); s != "" && len(n.Parts) == 2 {
		diag.Fixes = []lang.Fix{{Pos: n.Parts[1].Start(), End: n.End(), Text: s}}
	}
	return value.Type{}, nil
}

// listedMax is how many names a message lists before it counts the rest.
const listedMax = 10

// Listed joins names for a message: a file's own names can number
// thousands, so past listedMax the rest are counted, not listed.
func Listed(names []string) string {
	if len(names) <= listedMax {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:listedMax], ", ") + fmt.Sprintf(" and %s more", units.FormatNumber(float64(len(names)-listedMax)))
}

// From where the misspelling is would be a cycle (let speed = spede + 1).
func (p *Program) suggestName(name string, inJob bool) string {
	p.namesMu.Lock()
	defer p.namesMu.Unlock()
	if p.names == nil || len(p.Order) != p.namesFor {
		var cands []string
		for name := range p.Decls {
			cands = append(cands, name)
		}
		for c := range p.Classes {
			cands = append(cands, c)
		}
		p.names = suggest.New(cands)
		p.namesFor = len(p.Order)
	}
	visiting := func(name string) bool {
		d := p.Decls[name]
		return d != nil && d.checked == Visiting
	}
	s := p.names.Suggest(name, visiting)
	if !inJob {
		return s
	}
	// In a job a bare name may be one of its results: the closer of the
	// two wins, the result when they are as close (mgp is mpg, not p).
	r := suggest.Closest(name, results.Names())
	if s == "" || r != "" && lang.EditDistance(name, r) <= lang.EditDistance(name, s) {
		return r
	}
	return s
}

// suggestOfKind suggests a declaration of kind for a misspelt name; the
// candidates of each kind are gathered once per program, not once per
// misspelling.
func (p *Program) suggestOfKind(name string, kind declKind) string {
	p.namesMu.Lock()
	defer p.namesMu.Unlock()
	if p.kindNames == nil || len(p.Order) != p.kindNamesFor {
		byKind := map[declKind][]string{}
		for n, d := range p.Decls {
			byKind[d.Kind] = append(byKind[d.Kind], n)
		}
		p.kindNames = map[declKind]*suggest.Suggester{}
		for k, cands := range byKind {
			p.kindNames[k] = suggest.New(cands)
		}
		p.kindNamesFor = len(p.Order)
	}
	sg := p.kindNames[kind]
	if sg == nil {
		return ""
	}
	return sg.Suggest(name, nil)
}

// libraryDeclaring names the bundled library that declares name (a
// declaration or a class), as an import path ("std/kapsl"), or "". The
// libraries are read once per program, and the embedded ones once per
// process: a file with an unknown name does not pay for parsing them.
func (p *Program) libraryDeclaring(name string) string {
	p.namesMu.Lock()
	defer p.namesMu.Unlock()
	if p.libNames == nil {
		if p.Options.Std == fs.FS(stdlib.Files) {
			p.libNames = embeddedLibNames()
		} else {
			p.libNames = libraryNames(p.Options.Std)
		}
	}
	return p.libNames[name]
}

// embeddedLibNames is libraryNames of the embedded library, read once; no
// one writes to the map it returns.
var embeddedLibNames = sync.OnceValue(func() map[string]string { return libraryNames(stdlib.Files) })

// libraryNames maps every name the bundled libraries declare to the
// library's import path.
func libraryNames(std fs.FS) map[string]string {
	out := map[string]string{}
	for _, lib := range stdlib.Names(std) {
		path, _ := strconv.Unquote(lib)
		src, err := fs.ReadFile(std, strings.TrimPrefix(path, "std/")+".gpl")
		if err != nil {
			continue
		}
		f, _ := lang.ParseOwned(lang.DefaultLimits, path+".gpl", src)
		for _, st := range f.Stmts {
			if id := lang.DeclaredName(st); id != nil {
				out[id.Name] = path
			}
			if rs, ok := st.(*lang.Rules); ok {
				for _, r := range rs.Rules {
					out[r.Class.Name] = path
				}
				out[rs.Else.Name] = path
			}
		}
	}
	return out
}

// lacking says how gpl writes what a call of a function it lacks means:
// pow(2, 3) is 2 ^ 3, and first(…) a query of a sweep; "" for any other.
func (cp *exprChecker) lacking(n *lang.Call) string {
	switch fn := n.Func.Name; {
	case fn == "pow" || fn == "power":
		if len(n.Args) != 2 {
			return "a power is written with ^, e.g. 2 ^ 3"
		}
		var side [2]string
		for i, a := range n.Args {
			pos, end := a.Span()
			side[i] = cp.p.sourceAt(pos, end)
			switch Unparen(a).(type) {
			case *lang.Binary, *lang.Unary:
				side[i] = "(" + side[i] + ")"
			}
		}
		return "a power is written with ^: " + side[0] + " ^ " + side[1]
	case Contains(SweepMethods, fn): // min and max are functions too, and known
		sweep := "SWEEP"
		for _, d := range cp.p.Order {
			if d.Kind == DeclSweep {
				sweep = d.Name.Name
				break
			}
		}
		return fmt.Sprintf("%s is a query of a sweep, not a function: %s.%s(…)", fn, sweep, fn)
	}
	return ""
}

// call checks a function call against its row of builtinTable. Calls on
// declarations (trade_ratio, classify, owner_loss_cost, owner_saving)
// become refs computed in Go; min, max, abs and round are expr's own.
func (cp *exprChecker) call(n *lang.Call) (value.Type, ast.Node) {
	fn := n.Func.Name
	b, known := funcs.ByName()[fn]
	if !known {
		msg := "unknown function " + fn
		if lacks := cp.lacking(n); lacks != "" {
			pos, end := n.Span()
			cp.errorAt(pos, end, msg+"; "+lacks)
			return value.Type{}, nil
		}
		if s := suggest.Closest(fn, funcs.Names()); s != "" {
			msg += "; did you mean " + s + "?"
		} else {
			msg += "; the functions are " + strings.Join(funcs.Names(), ", ")
		}
		cp.errorAt(n.Func.Start(), n.Func.End(), msg)
		return value.Type{}, nil
	}
	switch b.Form {
	case funcs.FormDist:
		if fn == "probability" {
			return cp.probability(n) // uncertain.go
		}
		return cp.dist(n, fn, n.Args)
	case funcs.FormNumeric:
		return cp.numericCall(n, b) // functions.go
	case funcs.FormCondition:
		return cp.errorf(n, "%s(%s) tests a request field; it belongs in a rule's when condition", fn, b.Params[0].Word)
	case funcs.FormDecl:
		switch fn {
		case "trade_ratio":
			d1, d2, ok := cp.declArgs(n, b, DeclJob, DeclJob)
			if !ok {
				return value.Type{}, nil
			}
			return value.CountType, cp.addRef(&Ref{Kind: RefTrade, Decl: d1, Second: d2, Text: "trade_ratio", Node: n, Type: value.CountType})
		case "classify":
			d1, d2, ok := cp.declArgs(n, b, DeclRules, DeclRequest)
			if !ok {
				return value.Type{}, nil
			}
			return value.ClassType, cp.addRef(&Ref{Kind: RefClassify, Decl: d1, Second: d2, Text: "classify", Node: n, Type: value.ClassType})
		}
		return cp.ownerCall(n, b) // groups.go
	}
	return cp.alikeCall(n, b)
}

// alikeCall checks min, max, abs or round: numbers of one dimension,
// which the result keeps.
func (cp *exprChecker) alikeCall(n *lang.Call, b *funcs.Func) (value.Type, ast.Node) {
	fn := b.Name
	if !b.Fits(len(n.Args)) {
		if b.Repeats {
			return cp.errorf(n, "%s needs %s", fn, b.ArityWords())
		}
		return cp.errorf(n, "%s takes %s", fn, b.ArityWords())
	}
	var t value.Type
	args := make([]ast.Node, len(n.Args))
	for i, a := range n.Args {
		at, node := cp.expr(a)
		args[i] = node
		if at.Kind == value.Invalid {
			t = at
			continue
		}
		if at.Kind != value.Number {
			cp.errorf(a, "%s needs numbers; this is a %s", fn, at)
			continue
		}
		if i > 0 && t.Kind == value.Number && at.Dim != t.Dim {
			cp.errorf(a, "the arguments of %s differ in dimension: %s and %s", fn, t.Dim, at.Dim)
			continue
		}
		if i == 0 {
			t = at
		}
	}
	if b.Params[0].Rule == funcs.DimCount && t.Kind == value.Number && t.Dim != units.Count {
		return cp.errorf(n.Args[0], "%s needs a count; a %s depends on its unit, so divide by one first (e.g. x / 1h)", fn, t.Dim)
	}
	if !cp.ok {
		return value.Type{}, nil
	}
	return t, &ast.BuiltinNode{Name: fn, Arguments: args}
}

// declArgs checks a call whose two arguments name declarations.
func (cp *exprChecker) declArgs(n *lang.Call, b *funcs.Func, ka, kb declKind) (*Decl, *Decl, bool) {
	if !b.Fits(len(n.Args)) {
		cp.errorf(n, "%s takes %s: a %s and a %s", n.Func.Name, b.ArityWords(), DeclKinds[ka].Noun, DeclKinds[kb].Noun)
		return nil, nil, false
	}
	var out [2]*Decl
	for i, want := range []declKind{ka, kb} {
		a := n.Args[i]
		nm, ok := Unparen(a).(*lang.Name)
		if !ok || len(nm.Parts) != 1 {
			cp.errorf(a, "%s's argument %d must name a %s", n.Func.Name, i+1, DeclKinds[want].Noun)
			return nil, nil, false
		}
		d, ok := cp.p.Decls[nm.Parts[0].Name]
		if !ok {
			cp.unknownName(nm)
			return nil, nil, false
		}
		if d.Kind != want {
			cp.errorf(a, "%s is a %s, but %s's argument %d must be a %s", d.Name.Name, DeclKinds[d.Kind].Noun, n.Func.Name, i+1, DeclKinds[want].Noun)
			return nil, nil, false
		}
		if !cp.p.dependOn(d, a, cp.diags) {
			cp.ok = false
			return nil, nil, false
		}
		out[i] = d
	}
	return out[0], out[1], true
}
