package lang

import (
	"fmt"
	"sort"

	"github.com/alecthomas/participle/v2/lexer"
)

// Recovery within a statement. A statement that fails to parse is read
// again with its mistake repaired: with the edit its hint gives where what
// was meant is clear (factor for factors, a comma between fields), else
// with the block item that holds the mistake left out (the rest of its
// line, up to where the block's next item starts). Each re-reading
// reports the next mistake, so a statement with two broken lines gets two
// diagnostics and keeps its other items, and the evaluator checks those.

// maxRepairs bounds the re-readings of one statement, so that a statement
// of many broken lines costs a bounded multiple of one reading.
const maxRepairs = 64

// parseRepairing parses the tokens of one statement read after a syntax
// error, src the source they are of. Every diagnostic is of a distinct
// mistake: a re-reading must fail within the statement and past the place
// the previous one failed at (or at that place, once an item before it is
// left out: the closing brace of a ruleset whose only rule was broken and
// that has no else either), or the statement is given up there; so is one
// whose mistake cannot be repaired (one outside any block, such as a let's
// broken value).
func parseRepairing(ps *parsers, chunk []lexer.Token, src string) (s Stmt, diags Diagnostics, dropped bool) {
	toks := chunk
	end := chunkEnd(chunk)
	last, removed := -1, false
	var applied []edit // the fixes made so far
	for n := 0; ; n++ {
		s, err := parseChunk(ps, toks)
		if err == nil {
			return s, diags, dropped
		}
		off, _ := errorOffset(err)
		if n > 0 && (off < last || off == last && !removed || off > end) {
			return nil, diags, false // a consequence of the last repair, not a mistake of its own
		}
		h := explainSyntax(err, toks, src)
		if !placedInSource(h.diag.Pos, applied, src) {
			return nil, diags, false // at a token a fix made: a consequence of the fix
		}
		for _, d := range diags {
			if d.Pos == h.diag.Pos && d.Summary == h.diag.Summary {
				return nil, diags, false // the same mistake again: the repair did not take it away
			}
		}
		diags = append(diags, h.diag)
		if h.diag.Fixes == nil {
			h.diag.Fixes = placedFixes(h.fixes, applied, src)
		}
		if n == maxRepairs {
			h.diag.Notes = append(h.diag.Notes, fmt.Sprintf("note: gpl stops reading this statement after %d syntax errors; fix these to see the rest", maxRepairs+1))
			return nil, diags, false
		}
		next, fixed, ok := repairStatement(toks, h)
		if !ok {
			return nil, diags, false
		}
		dropped = dropped || !fixed
		toks, last, removed = next, off, !fixed
		if fixed {
			applied = append(applied, h.fixes...)
		}
	}
}

// placedInSource reports whether pos, a position in a statement after the
// fixes applied were made, is a place in src. Every token a fix did not
// make keeps its place; positions within or just past a token a fix made
// are measured by its text, which may run past the end of its line.
func placedInSource(pos Position, applied []edit, src string) bool {
	for _, e := range applied {
		from := e.From.Offset
		if pos.Offset < from || pos.Offset > from+len(e.Text) {
			continue
		}
		if pos.Offset > len(src) {
			return false
		}
		rel := positionAt(pos.Filename, []byte(src[from:pos.Offset]), pos.Offset-from)
		want := e.From
		want.Offset = pos.Offset
		if rel.Line == 1 {
			want.Column += rel.Column - 1
		} else {
			want.Line += rel.Line - 1
			want.Column = rel.Column
		}
		if want != pos {
			return false
		}
	}
	return true
}

// chunkEnd is the offset just past a statement's last token.
func chunkEnd(chunk []lexer.Token) int {
	for i := len(chunk) - 1; i >= 0; i-- {
		if !isBlank(chunk[i].Type) {
			return tokenEnd(&chunk[i]).Offset
		}
	}
	return 0
}

// repairStatement returns the statement's tokens with the hint's fixes
// applied (fixed), or without the block item that holds its cause; ok is
// false when there is neither.
func repairStatement(toks []lexer.Token, h *syntaxHint) (out []lexer.Token, fixed, ok bool) {
	if len(h.fixes) > 0 {
		if out, ok := applyEdits(toks, h.fixes); ok {
			return out, true, true
		}
	}
	site := h.site
	if site == nil {
		site = newErrorSite(nil, toks, "")
	}
	out, ok = removeItem(site, h.cause, h.limit)
	return out, false, ok
}

// applyEdits returns toks with each edit made: the tokens in its range
// replaced by its text, scanned at its start. It refuses (ok false) an
// edit whose text is more than one token or an invalid one, or edits
// that overlap.
func applyEdits(toks []lexer.Token, edits []edit) ([]lexer.Token, bool) {
	edits = append([]edit(nil), edits...)
	sort.Slice(edits, func(i, j int) bool { return edits[i].From.Offset < edits[j].From.Offset })
	out := make([]lexer.Token, 0, len(toks)+1)
	i := 0
	for k, e := range edits {
		if k > 0 && e.From.Offset < edits[k-1].To.Offset {
			return nil, false
		}
		for i < len(toks) && toks[i].Pos.Offset < e.From.Offset {
			out = append(out, toks[i])
			i++
		}
		for i < len(toks) && toks[i].Pos.Offset < e.To.Offset {
			i++
		}
		if e.Text == "" {
			continue
		}
		sc := tokenScanner{src: e.Text, pos: e.From}
		t, _ := sc.next()
		if sc.i != len(e.Text) || t.Type == tokInvalid {
			return nil, false
		}
		out = append(out, t)
	}
	return append(out, toks[i:]...), true
}

// removeItem returns the site's tokens without the block item that holds cause: from
// where that item starts to where the block's next item starts, or to the
// block's closing brace. ok is false when cause is outside every block,
// or the item cannot be told apart. Past cause, what looks like the start
// of an item is taken for one, unless whole is set (for an expression
// over a limit, which is whole up to where an item truly starts).
func removeItem(s *errorSite, cause Position, whole bool) ([]lexer.Token, bool) {
	toks := s.toks
	c := s.indexAt(cause.Offset)
	d := s.depth[c]
	if d < 1 {
		return nil, false
	}
	start := c
	for start > 0 && s.depth[start-1] >= d && !s.startsItem(start, d, false) {
		start--
	}
	stop := c
	if c < len(s.sig) && !s.closes(c, d) {
		stop = c + 1
		for stop < len(s.sig) && !(s.closes(stop, d) || s.startsItem(stop, d, !whole)) {
			stop++
		}
	}
	if start >= stop || s.depth[stop] != d {
		return nil, false
	}
	from, to := s.sig[start], len(toks)
	if stop < len(s.sig) {
		to = s.sig[stop]
	}
	out := make([]lexer.Token, 0, len(toks)-(to-from))
	out = append(out, toks[:from]...)
	return append(out, toks[to:]...), true
}

// closes reports whether significant token i is the closing brace of a
// block at depth d.
func (s *errorSite) closes(i, d int) bool {
	return i < len(s.sig) && s.depth[i] == d && isOpTok(s.tok(i), "}")
}

// startsItem reports whether significant token i starts an item of a
// block at depth d: it follows the block's opening brace; or it follows
// the end of an item and starts a line or looks like the start of an
// item; or it starts a line and looks like the start of an item, which no
// expression continued from the line before does. Past the mistake
// (pastError), whatever looks like the start of an item is taken for one:
// what precedes it on the line is broken anyway.
func (s *errorSite) startsItem(i, d int, pastError bool) bool {
	if i >= len(s.sig) || i == 0 || s.depth[i] != d {
		return false
	}
	prev := s.tok(i - 1)
	if isOpTok(prev, "{") && s.depth[i-1] == d-1 {
		return true
	}
	t := s.tok(i)
	if isOpTok(t, "}") {
		return false
	}
	newLine := prev.Pos.Line < t.Pos.Line
	head := s.looksLikeItem(i)
	// Within parentheses on the same line (a rule's ((a == b))), a name
	// and "==" are an operand, not an item.
	inline := head && s.paren[i] == 0
	if endsStatement(prev) {
		return newLine || inline
	}
	return head && newLine || inline && pastError
}

// looksLikeItem reports whether significant token i reads as the start
// of a block item: a keyword that starts one, or a name followed by "=",
// "==", ":" or "{".
func (s *errorSite) looksLikeItem(i int) bool {
	t := s.tok(i)
	if t.Type != tokIdent {
		return false
	}
	switch t.Value {
	case "expect", "when", "else", "factors", "ceilings":
		return true
	}
	if IsKeyword(t.Value) {
		return false
	}
	next := s.tok(i + 1)
	return isOpTok(next, "=") || isOpTok(next, "==") || isOpTok(next, ":") || isOpTok(next, "{")
}

// placedFixes are a hint's edits as fixes of the source, when each of
// their ends is a place in src (not a token an earlier repair made).
func placedFixes(edits, applied []edit, src string) []Fix {
	var out []Fix
	for _, e := range edits {
		if !placedInSource(e.From, applied, src) || !placedInSource(e.To, applied, src) {
			return nil
		}
		out = append(out, Fix{Pos: e.From, End: e.To, Text: e.Text})
	}
	return out
}
