package main

// gpl test -update: rewrite the wanted value of failing expects with the
// value got, and golden files with the report.
//
// The rule for numbers: the new literal keeps the unit it was written in
// ("$" stays a prefix, "USD/h" a suffix, an exponent stays an exponent) and,
// for ≈, the number of decimals it was written with (≈ 0.29 becomes
// ≈ 0.28, not ≈ 0.28215). When the value rounded to that precision would
// still not pass, because an explicit "± T" or "within P%" is tighter than
// the written precision, decimals are added one at a time until it passes.
// For == the value is written as reports print it (ten significant
// digits), with more digits only when those are needed for == to hold.
// Every other byte of the file is kept: the rewrite replaces exactly the
// bytes of the wanted value.

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
)

// literalEdit replaces the bytes [start, end) of a file, the wanted value
// of one expect, with text.
type literalEdit struct {
	start, end int
	old, text  string
	pos        lang.Position
}

// updateExpects rewrites the failing expects of the evaluated file that -run
// selects. It returns a note per expect rewritten or left alone, and
// whether the file changed.
func updateExpects(ev *evaluation, o *testOptions) (notes []string, changed bool, err error) {
	path := ev.result.path
	src := ev.s.Sources[path]
	var edits []literalEdit
	var updated []int // the notes that say "updated", true once the write succeeds
	for _, out := range ev.outcomes {
		ex := out.Expectation
		if out.Pass || out.Err || ex.File != path || o.run != nil && !o.run.MatchString(ex.Name) {
			continue
		}
		ed, err := planEdit(src, out)
		if err != nil {
			notes = append(notes, fmt.Sprintf("cannot update %s: %v", ex.Name, err))
			continue
		}
		edits = append(edits, ed)
		updated = append(updated, len(notes))
		notes = append(notes, fmt.Sprintf("updated %s:%d:%d: %s → %s", path, ed.pos.Line, ed.pos.Column, ed.old, ed.text))
	}
	if len(edits) == 0 {
		return notes, false, nil
	}
	if err := writeFileAtomic(path, applyEdits(src, edits)); err != nil {
		for _, i := range updated {
			notes[i] = "not " + notes[i]
		}
		return notes, false, err
	}
	return notes, true, nil
}

// updateGolden rewrites X.golden when it differs from the report; the
// error is a failed write, which the note also tells.
func updateGolden(ev *evaluation) ([]string, error) {
	for i, c := range ev.result.cases {
		if c.golden == "" || c.status == statusPass {
			continue
		}
		if err := writeFileAtomic(c.golden, goldenReport(ev)); err != nil {
			return []string{fmt.Sprintf("cannot update %s: %v", c.golden, err)}, err
		}
		ev.result.cases[i].status, ev.result.cases[i].diff, ev.result.cases[i].diag = statusPass, "", nil
		return []string{"updated " + c.golden}, nil
	}
	return nil, nil
}

// applyEdits splices non-overlapping edits into src.
func applyEdits(src []byte, edits []literalEdit) []byte {
	sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	out := make([]byte, 0, len(src)+16*len(edits))
	at := 0
	for _, ed := range edits {
		out = append(out, src[at:ed.start]...)
		out = append(out, ed.text...)
		at = ed.end
	}
	return append(out, src[at:]...)
}

// planEdit works out the new text of a failing expect's wanted value.
func planEdit(src []byte, out eval.Outcome) (literalEdit, error) {
	n := out.Expectation.Node()
	want, op := wantedExpr(n)
	if want != nil {
		want = unparenExpr(want)
	}
	switch op {
	case "":
		return literalEdit{}, errors.New("a condition has no wanted value to rewrite")
	case "!=":
		return literalEdit{}, errors.New("!= fails only when the value got is the one written; edit it by hand")
	case "≈", "==":
	default:
		return literalEdit{}, fmt.Errorf("only the wanted value of ≈ and == is rewritten, not a bound of %s", op)
	}
	pos, end := want.Span()
	if pos.Offset < 0 || end.Offset > len(src) || pos.Offset >= end.Offset {
		return literalEdit{}, errors.New("the wanted value's position is outside the file")
	}
	ed := literalEdit{start: pos.Offset, end: end.Offset, old: string(src[pos.Offset:end.Offset]), pos: pos}
	text, err := newWantText(n, want, op, out)
	if err != nil {
		return literalEdit{}, err
	}
	if text == ed.old {
		return literalEdit{}, fmt.Errorf("%s is already the value got; the expect fails for another reason", text)
	}
	ed.text = text
	return ed, nil
}

func newWantText(n *lang.Expect, want lang.Expr, op string, out eval.Outcome) (string, error) {
	got := out.Got
	switch w := want.(type) {
	case *lang.StringLit:
		if got.Type.Kind == eval.String {
			return strconv.Quote(got.Str), nil
		}
	case *lang.BoolLit:
		if got.Type.Kind == eval.Bool {
			return strconv.FormatBool(got.Bool), nil
		}
	case *lang.Name:
		if got.Type.Kind == eval.Class && len(w.Parts) == 1 {
			return got.Str, nil
		}
	}
	lit, _ := numberLiteral(want)
	if lit == nil || got.Type.Kind != eval.Number {
		return "", errors.New("the wanted value is an expression, not a literal")
	}
	form := formOf(lit)
	if op == "==" {
		text, ok := form.exact(got.Num)
		if !ok {
			return "", fmt.Errorf("no literal in %s reproduces %s", form.unitName(), got.Precise(lit.Unit))
		}
		return text, nil
	}
	holds, err := approxHolds(n, out, form)
	if err != nil {
		return "", err
	}
	text, ok := form.approx(got.Num, holds)
	if !ok {
		return "", fmt.Errorf("no literal in %s comes within the tolerance of %s", form.unitName(), got.Precise(lit.Unit))
	}
	return text, nil
}

// approxHolds returns the ≈ check, as eval makes it, of a candidate wanted
// value: base is its value in base units, decimals its written precision.
func approxHolds(n *lang.Expect, out eval.Outcome, f numberForm) (func(base float64, decimals int) bool, error) {
	got := out.Got.Num
	within := func(want, tol float64) bool {
		return lang.Clean(math.Abs(got-want)) <= lang.Clean(tol)
	}
	switch {
	case n.Approx.Abs != nil:
		tol := out.Tolerance
		return func(base float64, _ int) bool { return within(base, tol) }, nil
	case n.Approx.Within != nil:
		var pct float64
		if lit, _ := numberLiteral(n.Approx.Within); lit != nil && lit.Unit == nil {
			pct = math.Abs(lit.Value)
		} else if out.Want.Num != 0 {
			pct = out.Tolerance / math.Abs(out.Want.Num) * 100
		} else {
			return nil, errors.New("the percentage after within is an expression")
		}
		return func(base float64, _ int) bool { return within(base, math.Abs(base)*pct/100) }, nil
	}
	return func(base float64, decimals int) bool {
		half := 0.5 * math.Pow(10, -float64(decimals))
		if f.unit != nil {
			half = lang.FromUnit(half, *f.unit)
		}
		return within(base, half)
	}, nil
}

// numberForm is how a number literal was written: the text around its
// numeral ("$", " USD/h"), its exponent ("e3") and its decimals.
type numberForm struct {
	prefix, suffix string
	exp            string // "e3" as written, or ""
	expValue       int
	frac           int // digits after the point in the mantissa
	unit           *lang.Unit
}

func formOf(lit *lang.NumberLit) numberForm {
	f := numberForm{unit: lit.Unit}
	if i := strings.Index(lit.Text, lit.Digits); i >= 0 {
		f.prefix, f.suffix = lit.Text[:i], lit.Text[i+len(lit.Digits):]
	}
	mant := strings.ReplaceAll(lit.Digits, "_", "")
	if j := strings.IndexAny(mant, "eE"); j >= 0 {
		f.exp = mant[j:]
		f.expValue, _ = strconv.Atoi(strings.TrimPrefix(mant[j+1:], "+"))
		mant = mant[:j]
	}
	if k := strings.IndexByte(mant, '.'); k >= 0 {
		f.frac = len(mant) - k - 1
	}
	return f
}

func (f numberForm) unitName() string {
	if f.unit == nil {
		return "a bare number"
	}
	return f.unit.Symbol
}

// inUnit converts a value in base units to the written unit.
func (f numberForm) inUnit(base float64) float64 {
	if f.unit == nil {
		return base
	}
	return lang.ToUnit(base, *f.unit)
}

// literal assembles a candidate from a mantissa numeral (without sign) and
// the sign of the value; it returns the text, its value in base units and
// its written decimals.
func (f numberForm) literal(numeral string, negative bool, exp string) (string, float64, int, bool) {
	digits := numeral + exp
	v, err := strconv.ParseFloat(digits, 64)
	if err != nil {
		return "", 0, 0, false
	}
	sign := ""
	if negative && v != 0 {
		sign, v = "-", -v
	}
	base := v
	if f.unit != nil {
		base = lang.FromUnit(v, *f.unit)
	}
	lit := lang.NumberLit{Digits: digits}
	return sign + f.prefix + digits + f.suffix, base, lit.Decimals(), true
}

// approx writes got at the written precision, adding decimals until holds.
func (f numberForm) approx(got float64, holds func(base float64, decimals int) bool) (string, bool) {
	v := f.inUnit(got)
	m := v / math.Pow10(f.expValue)
	for d := f.frac; d <= f.frac+20; d++ {
		text, base, decimals, ok := f.literal(strconv.FormatFloat(math.Abs(m), 'f', d, 64), m < 0, f.exp)
		if ok && holds(base, decimals) {
			return text, true
		}
	}
	return f.exact(got)
}

// exact writes got so that == holds: ten significant digits, more if
// needed. An exponent as written is kept when the mantissa prints plainly.
func (f numberForm) exact(got float64) (string, bool) {
	v := f.inUnit(got)
	forms := []struct {
		m   float64
		exp string
	}{{v / math.Pow10(f.expValue), f.exp}}
	if f.exp != "" {
		forms = append(forms, struct {
			m   float64
			exp string
		}{v, ""})
	}
	for _, fm := range forms {
		for _, numeral := range significant(math.Abs(fm.m)) {
			if fm.exp != "" && strings.ContainsAny(numeral, "eE") {
				continue
			}
			text, base, _, ok := f.literal(numeral, fm.m < 0, fm.exp)
			if ok && lang.Clean(base) == lang.Clean(got) {
				return text, true
			}
		}
	}
	return "", false
}

// significant lists numerals for a: as lang.FormatNumber prints it, then
// with 11 to 17 significant digits.
func significant(a float64) []string {
	out := []string{lang.FormatNumber(a)}
	for k := 11; k <= 17; k++ {
		r, _ := strconv.ParseFloat(strconv.FormatFloat(a, 'g', k, 64), 64)
		out = append(out, strconv.FormatFloat(r, 'f', -1, 64))
	}
	return out
}
