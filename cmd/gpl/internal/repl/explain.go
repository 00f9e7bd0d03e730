package repl

import (
	"fmt"
	"strings"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
)

// :explain NAME says how a value was computed: a job's result step by
// step (eval's Job.Explain), a let or a pool's or request's field by its
// expression and the values that expression reads, a param by where its
// value came from; and what a planning declaration answers (eval's
// ExplainPlanning): a result at a sweep's point, a solve's answer, a
// group's figure, a compare's best or ratio.

const explainUsage = "usage: :explain NAME, e.g. :explain llama2_70b.mpg, :explain peak_mfu or :explain shared_h100.rate"

func (r *repl) cmdExplain(arg string, at lang.Position) {
	name, field, dotted := strings.Cut(arg, ".")
	if arg == "" || dotted && field == "" {
		r.errorf("%s", explainUsage)
		return
	}
	if r.explainPlanning(arg, at) {
		return
	}
	scn := r.s.scn()
	if j, ok := scn.Job(name); ok {
		if !dotted {
			r.errorf("usage: :explain JOB.RESULT, e.g. :explain %s.mpg", name)
			return
		}
		r.explainResult(j, field)
		return
	}
	text, ok := r.declText(name)
	if !ok {
		r.errorf("%s", r.unknownName(name))
		return
	}
	f, diags := lang.Parse("<explain>", []byte(text))
	if diags.HasErrors() || len(f.Stmts) == 0 {
		r.errorf("cannot read the declaration of %s", name)
		return
	}
	st := f.Stmts[len(f.Stmts)-1]
	switch st := st.(type) {
	case *lang.Let:
		if dotted {
			r.errorf("%s is a %s, which has no fields; :explain %s", name, st.Keyword(), name)
			return
		}
		r.explainLet(st, text)
	case *lang.Pool:
		r.explainField("pool", name, field, st.Fields, text)
	case *lang.Request:
		r.explainField("request", name, field, st.Fields, text)
	default:
		r.errorf("%s is a ruleset; :show %s prints its rules, and :explain works on lets, params, pool and request fields, job results and the answers of groups, compares, sweeps and solves", name, name)
	}
}

// explainPlanning explains arg when it reads a group, a compare, a sweep
// or a solve, or calls a rollup by owner (owner_saving); false when it
// reads none of them.
func (r *repl) explainPlanning(arg string, at lang.Position) bool {
	name := arg
	if i := strings.IndexAny(arg, ".( "); i >= 0 {
		name = arg[:i]
	}
	kind := ""
	for _, n := range r.s.scn().Names() {
		if n[0] == name {
			kind = n[1]
		}
	}
	switch {
	case kind == "group", kind == "compare", kind == "sweep", kind == "solve":
	case kind == "" && rollup(name):
	default:
		return false
	}
	const src = "<explain>"
	text, ok, err := r.s.scn().ExplainPlanning(arg)
	switch {
	case err != nil:
		r.evalError(err, src, arg, at)
	case !ok:
		r.errorf("usage: :explain %s.FIELD names one answer of %s %s, e.g. %s", name, kind, name, planningExample(kind, name))
	default:
		fmt.Fprintln(r.stdout, text)
	}
	return true
}

// planningExample is an answer of a planning declaration, for usage lines.
func planningExample(kind, name string) string {
	switch kind {
	case "group":
		return name + ".cost"
	case "compare":
		return name + ".best"
	case "sweep":
		return name + ".argmax(mpg).mpg"
	}
	return name + ".mpg"
}

// declText is the text of a name's declaration, typed, loaded or imported.
func (r *repl) declText(name string) (string, bool) {
	if e, ok := r.s.entry(name); ok && e.isDecl() {
		return e.text, true
	}
	text, _, ok := r.importedText(name)
	return text, ok
}

func (r *repl) explainResult(j *eval.Job, result string) {
	text, err := j.Explain(result)
	if err != nil {
		msg := err.Error()
		if s := closest(result, eval.ResultNames()); s != "" && strings.Contains(msg, "has no result") {
			msg += "; did you mean " + j.Name + "." + s + "?"
		}
		r.errorf("%s", msg)
		return
	}
	fmt.Fprintln(r.stdout, text)
}

// explainLet prints a let's expression with its value, and the values it
// reads; a param says whether :set gave its value.
func (r *repl) explainLet(st *lang.Let, text string) {
	name := st.Name.Name
	v, err := r.s.scn().Value(name)
	if err != nil {
		r.errorf("%s has no value: %v", name, err)
		return
	}
	expr := exprText(st.Value, text)
	if st.IsParam() {
		if set, ok := r.s.params[name]; ok && set == v {
			fmt.Fprintf(r.stdout, "%s = %s, set by :set; the param's default is %s\n", name, v, expr)
			return
		}
		fmt.Fprintf(r.stdout, "%s, the param's default; :set %s VALUE replaces it\n", equation(name, expr, v), name)
		r.explainReads(expr)
		return
	}
	fmt.Fprintln(r.stdout, equation(name, expr, v))
	r.explainReads(expr)
}

// explainField prints a pool's or a request's field: its expression with
// its value, where it is set, and the values it reads.
func (r *repl) explainField(kind, name, field string, fields []*lang.Field, text string) {
	var set []string
	for _, f := range fields {
		set = append(set, f.Name.Name)
		if f.Name.Name != field {
			continue
		}
		v, err := r.s.scn().Value(name + "." + field)
		if err != nil {
			r.errorf("%s.%s has no value: %v", name, field, err)
			return
		}
		expr := exprText(f.Value, text)
		fmt.Fprintf(r.stdout, "%s, set in %s %s\n", equation(name+"."+field, expr, v), kind, name)
		r.explainReads(expr)
		return
	}
	if field == "" {
		r.errorf("usage: :explain %s.FIELD; %s %s sets %s", name, kind, name, strings.Join(set, ", "))
		return
	}
	msg := fmt.Sprintf("%s %s sets no %s", kind, name, field)
	if len(set) > 0 {
		msg += "; it sets " + strings.Join(set, ", ")
	}
	r.errorf("%s", msg)
}

// exprText is an expression's text in the declaration text it was parsed
// from.
func exprText(x lang.Expr, text string) string {
	pos, end := x.Span()
	return strings.TrimSpace(text[pos.Offset:end.Offset])
}

// equation is "name = expr = value", or "name = value" when the
// expression is written as the value prints.
func equation(name, expr string, v eval.Value) string {
	if expr == v.String() {
		return name + " = " + expr
	}
	return name + " = " + expr + " = " + v.String()
}

// explainReads prints the value of each name an expression reads, once,
// in the order it reads them.
func (r *repl) explainReads(expr string) {
	toks := lang.Tokens("<explain>", expr, false)
	seen := map[string]bool{}
	for i := 0; i < len(toks); i++ {
		t := toks[i].Value
		if !lang.IsIdent(t) || lang.IsKeyword(t) || i > 0 && toks[i-1].Value == "." {
			continue
		}
		ref := t
		for i+2 < len(toks) && toks[i+1].Value == "." && lang.IsIdent(toks[i+2].Value) {
			ref += "." + toks[i+2].Value
			i += 2
		}
		if i+1 < len(toks) && toks[i+1].Value == "(" || seen[ref] {
			continue // a function
		}
		seen[ref] = true
		if v, err := r.s.scn().Value(ref); err == nil {
			fmt.Fprintf(r.stdout, "  %s = %s\n", ref, v)
		}
	}
}

// rollup reports whether name is a built-in that rolls a group's figure up
// by owner: owner_loss_cost, owner_saving, owner_point_value.
func rollup(name string) bool {
	for _, b := range eval.Builtins() {
		if b.Name == name {
			return b.Rollup
		}
	}
	return false
}
