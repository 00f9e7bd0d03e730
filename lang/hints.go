package lang

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/gpl-lang/gpl/lang/units"
)

// Hints for syntax errors. Each rule below recognises a common mistake from
// the tokens around the place where participle or the expression parser
// stopped, says what to write instead, and where what was meant is clear,
// gives the edit that makes it so: parseRepairing (recover.go) reads the
// statement again with the edit applied, so that the rest of it is still
// read and checked.

// syntaxHint is a syntax error explained.
type syntaxHint struct {
	diag *Diagnostic
	// cause is where the mistake is. Without fixes, the block item that
	// holds it is what a re-reading of the statement leaves out.
	cause Position
	// fixes are edits of the source that give the reading the hint
	// suggests; none when it is not clear what was meant.
	fixes []edit
	site  *errorSite // the tokens explained, when they were placed
	// limit is set for an expression over one of the Limits: the whole
	// block item that holds it is left out, however much of its line
	// looks like the start of another (a rule of a million ors).
	limit bool
}

// edit replaces the source text from From up to To with Text, which is
// one token (a space, to take a token out).
type edit struct {
	From, To Position
	Text     string
}

// fixableError is an error of the expression parser whose repair is
// clear: a hint, and the edit it suggests.
type fixableError struct {
	hintError
	fix edit
}

// errorSite is a syntax error placed among the tokens of its statement.
type errorSite struct {
	toks  []lexer.Token // the statement's tokens, blanks merged into space tokens
	sig   []int         // indices into toks of the significant tokens
	depth []int         // brace depth before each significant token, and at the end
	paren []int         // depth of ( and [ before each significant token, within its braces
	at    int           // index into sig of the token the error is at; len(sig) at the end
	src   string        // the source the tokens are of, or ""
	ut    *participle.UnexpectedTokenError
	se    *SyntaxError
}

func newErrorSite(err error, toks []lexer.Token, src string) *errorSite {
	s := &errorSite{toks: toks, src: src}
	d, p := 0, 0
	for i := range toks {
		t := &toks[i]
		if isBlank(t.Type) {
			continue
		}
		s.sig = append(s.sig, i)
		s.depth = append(s.depth, d)
		s.paren = append(s.paren, p)
		switch {
		case isOpTok(t, "{"):
			d++
			p = 0
		case isOpTok(t, "}"):
			d--
			p = 0
		case isOpTok(t, "("), isOpTok(t, "["):
			p++
		case isOpTok(t, ")"), isOpTok(t, "]"):
			p = max(0, p-1)
		}
	}
	s.depth = append(s.depth, d)
	errors.As(err, &s.ut)
	errors.As(err, &s.se)
	off, ok := errorOffset(err)
	s.at = len(s.sig)
	if ok {
		s.at = s.indexAt(off)
	}
	return s
}

// indexAt is the index into sig of the first significant token at or
// after byte offset off, or len(sig).
func (s *errorSite) indexAt(off int) int {
	for i, k := range s.sig {
		if s.toks[k].Pos.Offset >= off {
			return i
		}
	}
	return len(s.sig)
}

// tok is the i'th significant token, or nil.
func (s *errorSite) tok(i int) *lexer.Token {
	if i < 0 || i >= len(s.sig) {
		return nil
	}
	return &s.toks[s.sig[i]]
}

// kind is the keyword the statement starts with.
func (s *errorSite) kind() string {
	if t := s.tok(0); t != nil && t.Type == tokIdent {
		return t.Value
	}
	return ""
}

// errorOffset is the byte offset a syntax error is at.
func errorOffset(err error) (int, bool) {
	var (
		fe *fixableError
		he *hintError
		se *SyntaxError
		ut *participle.UnexpectedTokenError
		pe participle.Error
	)
	switch {
	case errors.As(err, &fe):
		return fe.Pos.Offset, true
	case errors.As(err, &he):
		return he.Pos.Offset, true
	case errors.As(err, &se):
		return se.Pos.Offset, true
	case errors.As(err, &ut):
		return ut.Unexpected.Pos.Offset, true
	case errors.As(err, &pe):
		return pe.Position().Offset, true
	}
	return 0, false
}

func isOpTok(t *lexer.Token, v string) bool {
	return t != nil && t.Type == tokOp && t.Value == v
}

func isIdentTok(t *lexer.Token) bool {
	return t != nil && t.Type == tokIdent && !IsKeyword(t.Value)
}

func isKeywordTok(t *lexer.Token, v string) bool {
	return t != nil && t.Type == tokIdent && t.Value == v
}

// explainSyntax explains a syntax error of a statement's tokens: with the
// hint of the first rule that fits it, else as participle or the
// expression parser put it.
func explainSyntax(err error, toks []lexer.Token, src string) *syntaxHint {
	var fe *fixableError
	if errors.As(err, &fe) {
		return &syntaxHint{diag: fe.diagnostic(), cause: fe.Pos, fixes: []edit{fe.fix}}
	}
	var he *hintError
	if errors.As(err, &he) {
		return &syntaxHint{diag: he.diagnostic(), cause: he.Pos, limit: he.limit}
	}
	if strings.Contains(err.Error(), "too many iterations") {
		// participle's bound on one repetition, in gpl's words.
		d := plainSyntaxDiagnostic(err, toks)
		d.Summary = fmt.Sprintf("more than %s items in one list or block (the limit on repetitions)", units.FormatNumber(float64(participle.MaxIterations)))
		d.Notes = []string{"hint: split it into several statements, or into files that import one another"}
		return &syntaxHint{diag: d, cause: d.Pos}
	}
	site := newErrorSite(err, toks, src)
	for _, r := range hintRules {
		if h := r.rule(site); h != nil {
			h.site = site
			h.diag.Code = r.code
			return h
		}
	}
	d := plainSyntaxDiagnostic(err, toks)
	h := &syntaxHint{diag: d, cause: d.Pos, site: site}
	if site.at == len(site.sig) && site.ut != nil && expectedToken(site.ut) == `"}"` && site.depth[len(site.sig)] == 1 {
		// The statement's block is not closed where the next statement
		// starts: close it there.
		h.fixes = []edit{{From: d.Pos, To: d.Pos, Text: "}"}}
		if name := site.tok(1); isIdentTok(name) {
			d.Notes = append(d.Notes, fmt.Sprintf(`hint: close the block of %s %s with "}"`, site.kind(), name.Value))
		}
	}
	return h
}

// hintRules are tried in order on each syntax error; the first that
// recognises the mistake explains it.
var hintRules = []struct {
	code string // the Diagnostic.Code of what it recognises
	rule func(*errorSite) *syntaxHint
}{
	{"unterminated_string", unterminatedString},
	{"job_without_pool", jobWithoutPool},
	{"misspelt_block", misspeltBlock},
	{"field_compared_not_set", fieldComparedNotSet},
	{"comma_between_fields", commaBetweenFields},
	{"assignment_in_comparison", assignmentInComparison},
	{"unit_as_word", unitAsWord},
	{"counted_thing", countedThing},
	{"sign_after_amount", signAfterAmount},
	{"rule_without_class", ruleWithoutClass},
	{"rules_without_else", rulesWithoutElse},
	{"expression_cut_at_line_end", expressionCutAtLineEnd},
}

func hinted(from, to Position, summary, hint string, fixes ...edit) *syntaxHint {
	return &syntaxHint{
		diag:  &Diagnostic{Severity: Error, Summary: "syntax error: " + summary, Pos: from, End: to, Notes: []string{"hint: " + hint}},
		cause: from,
		fixes: fixes,
	}
}

// unterminatedString: a string with no closing quote on its line. The
// scanner makes its opening quote an Invalid token; the string is taken
// to end with its line.
func unterminatedString(s *errorSite) *syntaxHint {
	q := s.tok(s.at)
	if q == nil || q.Type != tokInvalid || q.Value != `"` {
		return nil
	}
	h := hinted(q.Pos, tokenEnd(q), "unterminated string", `end it with " on the same line`)
	last := q
	for i := s.at + 1; i < len(s.sig) && s.tok(i).Pos.Line == q.Pos.Line; i++ {
		last = s.tok(i)
	}
	if end := tokenEnd(last); s.src != "" && end.Offset <= len(s.src) {
		h.fixes = []edit{{From: q.Pos, To: end, Text: s.src[q.Pos.Offset:end.Offset] + `"`}}
	}
	return h
}

// jobWithoutPool: job NAME { with neither on POOL nor extends JOB.
func jobWithoutPool(s *errorSite) *syntaxHint {
	t := s.tok(s.at)
	if s.kind() != "job" || s.at != 2 || !isIdentTok(s.tok(1)) || t == nil {
		return nil
	}
	name := s.tok(1).Value
	return hinted(t.Pos, tokenEnd(t), "unexpected "+describeToken(*t)+"; a job needs on POOL or extends JOB",
		fmt.Sprintf("write job %s on POOL { … } to run it on a pool, or job %s extends JOB { … } to vary another job", name, name))
}

// jobBlocks are the blocks a job holds.
var jobBlocks = []string{"factors", "ceilings"}

// misspeltBlock: NAME { in a job, NAME close to factors or ceilings.
func misspeltBlock(s *errorSite) *syntaxHint {
	t := s.tok(s.at)
	if s.kind() != "job" || s.depth[s.at] != 1 || !isIdentTok(t) || !isOpTok(s.tok(s.at+1), "{") {
		return nil
	}
	best, bestDist := "", 3
	for _, b := range jobBlocks {
		if d := EditDistance(strings.ToLower(t.Value), b); d < bestDist {
			best, bestDist = b, d
		}
	}
	if best == "" {
		return nil
	}
	return hinted(t.Pos, tokenEnd(t), fmt.Sprintf("unexpected %q; did you mean %s?", t.Value, best),
		"a job's blocks are factors { … } and ceilings { … }",
		edit{From: t.Pos, To: tokenEnd(t), Text: best})
}

// fieldComparedNotSet: NAME == VALUE (or NAME : VALUE) as a field of a
// job, pool or request.
func fieldComparedNotSet(s *errorSite) *syntaxHint {
	switch s.kind() {
	case "job", "pool", "request":
	default:
		return nil
	}
	k := s.at
	if isIdentTok(s.tok(k)) {
		k++
	}
	op := s.tok(k)
	if !isOpTok(op, "==") && !isOpTok(op, ":") || !isIdentTok(s.tok(k-1)) || s.depth[k] < 1 {
		return nil
	}
	if prev := s.tok(k - 2); !isOpTok(prev, "{") && !endsStatement(prev) {
		return nil
	}
	name := s.tok(k - 1).Value
	return hinted(op.Pos, tokenEnd(op), "unexpected "+describeToken(*op),
		fmt.Sprintf("use = to set a field: %s = …", name),
		edit{From: op.Pos, To: tokenEnd(op), Text: "="})
}

// commaBetweenFields: fields of a block separated by commas. Every comma
// between the items of that block is taken out at once: it is one
// mistake, reported once.
func commaBetweenFields(s *errorSite) *syntaxHint {
	c := s.tok(s.at)
	d := s.depth[min(s.at, len(s.sig))]
	if !isOpTok(c, ",") || d < 1 || s.ut == nil {
		return nil
	}
	open := s.at - 1
	for open >= 0 && s.depth[open] >= d {
		open--
	}
	var fixes []edit
	parens := 0
	for i := open + 1; i < len(s.sig) && s.depth[i] >= d; i++ {
		t := s.tok(i)
		switch {
		case s.depth[i] > d:
		case isOpTok(t, "("):
			parens++
		case isOpTok(t, ")"):
			parens--
		case isOpTok(t, "}"):
			i = len(s.sig)
		case isOpTok(t, ",") && parens == 0:
			// A space where the comma was keeps the end of the field
			// before it where it was.
			fixes = append(fixes, edit{From: t.Pos, To: tokenEnd(t), Text: " "})
		}
	}
	hint := "separate fields with spaces or newlines"
	if s.kind() == "rules" {
		hint = "write each rule on a line of its own"
	}
	return hinted(c.Pos, tokenEnd(c), `unexpected ","`, hint, fixes...)
}

// assignmentInComparison: = where an expectation or a rule's condition
// compares.
func assignmentInComparison(s *errorSite) *syntaxHint {
	eq := s.tok(s.at)
	if !isOpTok(eq, "=") {
		return nil
	}
	d := s.depth[s.at]
	for i := s.at - 1; i >= 0 && s.depth[i] == d; i-- {
		t := s.tok(i)
		switch {
		case isKeywordTok(t, "expect"):
			h := hinted(eq.Pos, tokenEnd(eq), `unexpected "="`,
				"an expectation compares: use == for equal, or ≈ for equal within a tolerance")
			h.diag.Fixes = []Fix{{Pos: eq.Pos, End: tokenEnd(eq), Text: "=="}}
			return h
		case isKeywordTok(t, "when"):
			h := hinted(eq.Pos, tokenEnd(eq), `unexpected "="`, "a condition compares: use == for equal")
			h.diag.Fixes = []Fix{{Pos: eq.Pos, End: tokenEnd(eq), Text: "=="}}
			return h
		case isOpTok(t, "=") || isOpTok(t, "{") || t.Type == tokIdent && IsKeyword(t.Value) && t.Value != "true" && t.Value != "false" && t.Value != "and" && t.Value != "or" && t.Value != "not":
			return nil
		}
	}
	return nil
}

// unitWords are unit names written as words, and the symbols gpl writes
// them with.
var unitWords = map[string]string{
	"sec": "s", "secs": "s", "second": "s", "seconds": "s",
	"msec": "ms", "msecs": "ms", "millisecond": "ms", "milliseconds": "ms",
	"mins": "min", "minute": "min", "minutes": "min",
	"hr": "h", "hrs": "h", "hour": "h", "hours": "h",
	"day": "d", "days": "d",
	"byte": "B", "bytes": "B",
	"flop": "FLOP", "flops": "FLOP",
	"usd": "USD", "dollar": "USD", "dollars": "USD",
}

// unitSymbol is the symbol of the unit word w: a spelt-out unit, or a
// symbol in the wrong case (gb for GB).
func unitSymbol(w string) (string, bool) {
	if u, ok := unitWords[strings.ToLower(w)]; ok {
		return u, true
	}
	for _, u := range unitSymbols() {
		if strings.EqualFold(u, w) && !strings.Contains(u, "/") {
			return u, true
		}
	}
	// A unit word misspelt by one letter (hourz, minuts); only words of
	// four letters or more, where one letter cannot make another word.
	if lw := strings.ToLower(w); len(lw) >= 4 {
		found := ""
		for word, u := range unitWords {
			if len(word) >= 4 && EditDistance(lw, word) == 1 {
				if found != "" && found != u {
					return "", false // two units alike: no guess
				}
				found = u
			}
		}
		return found, found != ""
	}
	return "", false
}

// unitAsWord: a bare number followed by a unit written as a word, 3 hours.
func unitAsWord(s *errorSite) *syntaxHint {
	w, n := s.tok(s.at), s.tok(s.at-1)
	if w == nil || w.Type != tokIdent || n == nil || n.Type != tokNumber || n.Pos.Line != w.Pos.Line ||
		numeralLen(n.Value, 0, true) != len(n.Value) {
		return nil
	}
	sym, ok := unitSymbol(w.Value)
	if !ok {
		return nil
	}
	lit := n.Value + sym
	if sym == "USD" {
		lit = n.Value + " USD"
	}
	return hinted(n.Pos, tokenEnd(w), fmt.Sprintf("%q is not a unit", w.Value), "write "+lit,
		edit{From: n.Pos, To: tokenEnd(w), Text: lit})
}

// countedWords are the things a plan counts, written after a number as if
// they were units (3 GPU, 8 nodes), in lower case and the singular.
var countedWords = map[string]bool{
	"gpu": true, "tpu": true, "npu": true, "xpu": true, "device": true, "accelerator": true, "chip": true,
	"card": true, "node": true, "host": true, "machine": true, "server": true, "instance": true,
	"core": true, "worker": true, "replica": true, "rank": true, "job": true, "request": true,
}

// isCountedWord reports whether w names a thing counted, as countedWords
// do, or an accelerator's model (H100, A100s, MI300X).
func isCountedWord(w string) bool {
	lw := strings.ToLower(w)
	if countedWords[lw] || countedWords[strings.TrimSuffix(lw, "s")] {
		return true
	}
	lw = strings.TrimSuffix(lw, "s")
	letters, digits := 0, 0
	for letters < len(lw) && lw[letters] >= 'a' && lw[letters] <= 'z' {
		letters++
	}
	for letters+digits < len(lw) && lw[letters+digits] >= '0' && lw[letters+digits] <= '9' {
		digits++
	}
	rest := len(lw) - letters - digits
	return letters >= 1 && letters <= 2 && digits == 3 && rest <= 1 && (rest == 0 || lw[len(lw)-1] >= 'a' && lw[len(lw)-1] <= 'z')
}

// countedThing: a number followed by the thing it counts, 3 GPU: a unit
// measures, and a count of things is a bare number.
func countedThing(s *errorSite) *syntaxHint {
	w, n := s.tok(s.at), s.tok(s.at-1)
	if w == nil || w.Type != tokIdent || IsKeyword(w.Value) || n == nil || n.Type != tokNumber || n.Pos.Line != w.Pos.Line ||
		numeralLen(n.Value, 0, true) != len(n.Value) || !isCountedWord(w.Value) {
		return nil
	}
	return hinted(n.Pos, tokenEnd(w), fmt.Sprintf("%q is not a unit: units measure quantities, and %s are counted", w.Value, plural(w.Value)),
		"write a count, a bare number: "+n.Value,
		edit{From: n.Pos, To: tokenEnd(w), Text: n.Value})
}

// currencySignCodes are the currency signs by the code they stand for.
var currencySignCodes = map[string]string{"$": "USD", "€": "EUR", "£": "GBP"}

// signAfterAmount: a currency's sign after a number, 3 €: the sign goes
// before the amount (€3), or the code after it (3 EUR).
func signAfterAmount(s *errorSite) *syntaxHint {
	sign, n := s.tok(s.at), s.tok(s.at-1)
	code, ok := "", false
	if sign != nil {
		code, ok = currencySignCodes[sign.Value]
	}
	if !ok || sign.Type != tokInvalid || n == nil || n.Type != tokNumber || n.Pos.Line != sign.Pos.Line ||
		numeralLen(n.Value, 0, true) != len(n.Value) {
		return nil
	}
	return hinted(n.Pos, tokenEnd(sign), fmt.Sprintf("a currency's sign goes before the amount: %s%s, not %s %s", sign.Value, n.Value, n.Value, sign.Value),
		fmt.Sprintf("write %s%s, or %s %s", sign.Value, n.Value, n.Value, code),
		edit{From: n.Pos, To: tokenEnd(sign), Text: sign.Value + n.Value})
}

// plural is a counted word in the plural, for a message: GPUs, nodes.
func plural(w string) string {
	if strings.HasSuffix(w, "s") {
		return w
	}
	return w + "s"
}

// ruleWithoutClass: a rule that ends at "->". The grammar takes the next
// line's when or else for the class and stops after it; the mistake is on
// the line of the arrow.
func ruleWithoutClass(s *errorSite) *syntaxHint {
	if s.kind() != "rules" {
		return nil
	}
	arrow := s.tok(s.at - 1)
	if t := s.tok(s.at - 1); t != nil && t.Type == tokIdent && IsKeyword(t.Value) && t.Value != "true" && t.Value != "false" {
		arrow = s.tok(s.at - 2)
	}
	if !isOpTok(arrow, "->") {
		return nil
	}
	return hinted(arrow.Pos, tokenEnd(arrow), `a rule needs a class after "->"`,
		"write the class the rule gives: when CONDITION -> CLASS")
}

// rulesWithoutElse: a ruleset that ends without else CLASS.
func rulesWithoutElse(s *errorSite) *syntaxHint {
	if s.kind() != "rules" || s.ut == nil || expectedToken(s.ut) != `"else"` {
		return nil
	}
	t := s.ut.Unexpected
	if !t.EOF() && !isOpTok(&t, "}") {
		return nil
	}
	return hinted(t.Pos, tokenEnd(&t), "unexpected "+describeToken(t)+"; a ruleset ends with else CLASS",
		"add a last line else CLASS: the class when no rule holds")
}

// perTimeUnit reports a money literal divided by a time unit other than
// the hour, 10 USD/min or $10/min: a price is per device-hour, and the
// hint converts it. l is the left operand, op the "/" and r the right.
func perTimeUnit(l Expr, op *lexer.Token, r Expr) error {
	n, ok := rightmostOperand(l).(*NumberLit)
	if !ok || n.UnitOf() == nil || n.UnitOf().Dim != units.Money {
		return nil
	}
	name, ok := r.(*Name)
	if !ok || len(name.Parts) != 1 || n.End().Offset != op.Pos.Offset || tokenEnd(op).Offset != name.Start().Offset {
		return nil
	}
	word := name.Parts[0].Name
	sym, ok := unitSymbol(word)
	if !ok {
		return nil
	}
	u, ok := units.Lookup(sym)
	if !ok || u.Dim != units.Duration {
		return nil
	}
	perHour := n.Amount() * 3600 / u.Factor
	if math.IsInf(perHour, 0) || perHour == 0 && n.Amount() != 0 {
		return nil
	}
	rounded, _ := strconv.ParseFloat(strconv.FormatFloat(perHour, 'g', 6, 64), 64)
	num := strconv.FormatFloat(rounded, 'f', -1, 64)
	approx := ""
	if math.Abs(rounded-perHour) > 1e-9*math.Abs(perHour) {
		approx = "about "
	}
	lit := num + " USD/h"
	if strings.HasPrefix(n.Text, "$") {
		lit = "$" + num + "/h"
	}
	written := n.Text + "/" + word
	return &fixableError{
		hintError: hintError{
			Pos: n.Start(), EndPos: name.End(),
			Summary: fmt.Sprintf("syntax error: %s is not a price", written),
			Hint:    fmt.Sprintf("prices are per device-hour: %s is %s%s", written, approx, lit),
		},
		fix: edit{From: n.Start(), To: name.End(), Text: lit},
	}
}

// rightmostOperand is the operand an expression ends with.
func rightmostOperand(x Expr) Expr {
	for {
		switch e := x.(type) {
		case *Binary:
			x = e.R
		case *Unary:
			x = e.X
		default:
			return x
		}
	}
}

// expressionCutAtLineEnd: an expression that stops at the end of its line
// where it needs more (expect mpg >). The expression parser reads on to the
// next line's first token; when that is a keyword or the block's closing
// brace, which start or end an item rather than continue the expression,
// the mistake is at the end of this line.
func expressionCutAtLineEnd(s *errorSite) *syntaxHint {
	t, prev := s.tok(s.at), s.tok(s.at-1)
	if s.se == nil || t == nil || prev == nil || t.Pos.Line <= prev.Pos.Line || !isOpTok(t, "}") && t.Type != tokIdent {
		return nil
	}
	msg, _, ok := strings.Cut(s.se.Msg, ", found ")
	if !ok {
		return nil
	}
	end := tokenEnd(prev)
	d := &Diagnostic{Severity: Error, Summary: "syntax error: " + msg + ", found end of line", Pos: end, End: end}
	return &syntaxHint{diag: d, cause: prev.Pos}
}
