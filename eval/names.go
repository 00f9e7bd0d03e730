package eval

import (
	"sort"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/gpl-lang/gpl/lang"
)

// This file resolves names for the check pass: a bare or dotted name
// becomes a ref to a declaration's value or result, an unknown one gets a
// "did you mean", and a call on declarations becomes one ref.

// name resolves a reference and records it as a ref.
func (cp *exprChecker) name(n *lang.Name) (Type, ast.Node) {
	path := n.Path()
	if cp.sc.point != nil {
		if def, ok := resultDefs[path]; ok {
			return cp.pointName(n, def) // query.go
		}
	}
	if j := cp.sc.job; j != nil {
		if def, ok := resultDefs[path]; ok {
			return def.typ, cp.addRef(&ref{kind: refJob, d: j, field: def.name, text: path, node: n, typ: def.typ})
		}
	}
	first := n.Parts[0]
	d, ok := cp.p.decls[first.Name]
	if !ok {
		if len(n.Parts) == 1 && cp.p.classes[first.Name] {
			return ClassType, &ast.StringNode{Value: first.Name}
		}
		return cp.unknownName(n)
	}
	rest := strings.Join(partNames(n.Parts[1:]), ".")
	switch d.kind {
	case declLet, declParam:
		if rest != "" {
			return cp.errorf(n, "%s is a value; it has no field %s", d.name.Name, rest)
		}
		if !cp.p.checkDecl(d, n, cp.diags) {
			cp.ok = false
			return Type{}, nil
		}
		return d.typ, cp.addRef(&ref{kind: refLet, d: d, text: path, node: n, typ: d.typ})
	case declJob:
		if rest == "" {
			return cp.errorf(n, "%s is a job; name one of its results, e.g. %s.mpg", d.name.Name, d.name.Name)
		}
		def, ok := resultDefs[rest]
		if !ok {
			return cp.unknownField(n, d, rest, resultNames)
		}
		if !cp.p.dependOn(d, n, cp.diags) {
			cp.ok = false
			return Type{}, nil
		}
		return def.typ, cp.addRef(&ref{kind: refJob, d: d, field: def.name, text: path, node: n, typ: def.typ})
	case declPool, declRequest:
		fields, kind, example := poolFields, refPool, "devices"
		if d.kind == declRequest {
			fields, kind, example = requestFields, refRequest, "batch_size"
		}
		if rest == "" {
			return cp.errorf(n, "%s is a %s; name one of its fields, e.g. %s.%s", d.name.Name, declKindNames[d.kind], d.name.Name, example)
		}
		f, ok := fields[rest]
		if !ok {
			return cp.unknownField(n, d, rest, sortedKeys(fields))
		}
		if !cp.p.dependOn(d, n, cp.diags) {
			cp.ok = false
			return Type{}, nil
		}
		return numType(f.dim), cp.addRef(&ref{kind: kind, d: d, field: rest, text: path, node: n, typ: numType(f.dim)})
	case declGroup, declCompare, declSweep, declSolve:
		return cp.planningName(n, d, rest) // planning.go
	}
	return cp.errorf(n, "%s is a ruleset; use it as classify(%s, REQUEST)", d.name.Name, d.name.Name)
}

func partNames(ids []*lang.Ident) []string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = id.Name
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func (cp *exprChecker) unknownName(n *lang.Name) (Type, ast.Node) {
	first := n.Parts[0]
	var cands []string
	for name := range cp.p.decls {
		cands = append(cands, name)
	}
	for c := range cp.p.classes {
		cands = append(cands, c)
	}
	if cp.sc.job != nil {
		cands = append(cands, resultNames...)
	}
	msg := "unknown name " + first.Name
	if cp.sc.job != nil && len(n.Parts) > 1 {
		msg = "unknown name " + n.Path()
	}
	target := first.Name
	if cp.sc.job != nil {
		target = n.Path()
	}
	if s := suggest(target, cands); s != "" {
		msg += "; did you mean " + s + "?"
	}
	end := first.EndPos
	if cp.sc.job != nil {
		end = n.EndPos
	}
	cp.errorAt(first.Pos, end, msg)
	return Type{}, nil
}

func (cp *exprChecker) unknownField(n *lang.Name, d *decl, field string, cands []string) (Type, ast.Node) {
	msg := declKindNames[d.kind] + " " + d.name.Name + " has no " + field
	if s := suggest(field, cands); s != "" {
		msg += "; did you mean " + d.name.Name + "." + s + "?"
	} else {
		msg += "; it has " + strings.Join(cands, ", ")
	}
	cp.errorAt(n.Parts[1].Pos, n.EndPos, msg)
	return Type{}, nil
}

// suggest returns the candidate closest to name by edit distance, when it
// is close enough to be a likely misspelling.
func suggest(name string, cands []string) string {
	best, bestD := "", len(name)/2+2
	sort.Strings(cands)
	for _, c := range cands {
		if c == name {
			continue
		}
		d := editDistance(strings.ToLower(name), strings.ToLower(c))
		if d < bestD {
			best, bestD = c, d
		}
	}
	if bestD > max(1, len(name)/3+1) {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance, with a transposition of two
// neighbours counted as one edit.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

var builtinFuncs = append([]string{"trade_ratio", "classify", "min", "max", "abs", "round", "has", "owner_loss_cost", "owner_saving"}, planningFuncs...)

// call checks a function call. Calls on declarations (trade_ratio,
// classify) become refs computed in Go; min, max, abs and round are
// expr's own.
func (cp *exprChecker) call(n *lang.Call) (Type, ast.Node) {
	fn := n.Func.Name
	switch fn {
	case "trade_ratio":
		a, b, ok := cp.declArgs(n, declJob, declJob)
		if !ok {
			return Type{}, nil
		}
		return CountType, cp.addRef(&ref{kind: refTrade, d: a, d2: b, text: "trade_ratio", node: n, typ: CountType})
	case "classify":
		a, b, ok := cp.declArgs(n, declRules, declRequest)
		if !ok {
			return Type{}, nil
		}
		return ClassType, cp.addRef(&ref{kind: refClassify, d: a, d2: b, text: "classify", node: n, typ: ClassType})
	case "has":
		return cp.errorf(n, "has(FIELD) tests a request field; it belongs in a rule's when condition")
	case "owner_loss_cost", "owner_saving":
		return cp.ownerCall(n) // groups.go
	case "min", "max", "abs", "round":
	default:
		if t, node, ok := cp.planningCall(n); ok {
			return t, node
		}
		msg := "unknown function " + fn
		if s := suggest(fn, builtinFuncs); s != "" {
			msg += "; did you mean " + s + "?"
		} else {
			msg += "; the functions are " + strings.Join(builtinFuncs, ", ")
		}
		cp.errorAt(n.Func.Pos, n.Func.EndPos, msg)
		return Type{}, nil
	}
	if (fn == "abs" || fn == "round") && len(n.Args) != 1 {
		return cp.errorf(n, "%s takes one argument", fn)
	}
	if len(n.Args) == 0 {
		return cp.errorf(n, "%s needs at least one argument", fn)
	}
	var t Type
	args := make([]ast.Node, len(n.Args))
	for i, a := range n.Args {
		at, node := cp.expr(a)
		args[i] = node
		if at.Kind == Invalid {
			t = at
			continue
		}
		if at.Kind != Number {
			cp.errorf(a, "%s needs numbers; this is a %s", fn, at)
			continue
		}
		if i > 0 && t.Kind == Number && at.Dim != t.Dim {
			cp.errorf(a, "the arguments of %s differ in dimension: %s and %s", fn, t.Dim, at.Dim)
			continue
		}
		if i == 0 {
			t = at
		}
	}
	if fn == "round" && t.Kind == Number && t.Dim != lang.Count {
		return cp.errorf(n.Args[0], "round needs a count; a %s depends on its unit, so divide by one first (e.g. x / 1h)", t.Dim)
	}
	if !cp.ok {
		return Type{}, nil
	}
	return t, &ast.BuiltinNode{Name: fn, Arguments: args}
}

// declArgs checks a call whose two arguments name declarations.
func (cp *exprChecker) declArgs(n *lang.Call, ka, kb declKind) (*decl, *decl, bool) {
	if len(n.Args) != 2 {
		cp.errorf(n, "%s takes two arguments: a %s and a %s", n.Func.Name, declKindNames[ka], declKindNames[kb])
		return nil, nil, false
	}
	var out [2]*decl
	for i, want := range []declKind{ka, kb} {
		a := n.Args[i]
		nm, ok := unparen(a).(*lang.Name)
		if !ok || len(nm.Parts) != 1 {
			cp.errorf(a, "%s's argument %d must name a %s", n.Func.Name, i+1, declKindNames[want])
			return nil, nil, false
		}
		d, ok := cp.p.decls[nm.Parts[0].Name]
		if !ok {
			cp.unknownName(nm)
			return nil, nil, false
		}
		if d.kind != want {
			cp.errorf(a, "%s is a %s, but %s's argument %d must be a %s", d.name.Name, declKindNames[d.kind], n.Func.Name, i+1, declKindNames[want])
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
