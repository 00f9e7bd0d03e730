package testrun

// gpl test -update: rewrite the wanted value of failing expects with the
// value got, and golden files with the report. What the new literal is,
// eval decides (eval.Outcome.Rewrite); this file splices it into the file
// and keeps every other byte.

import (
	"errors"
	"fmt"
	"sort"

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
func updateExpects(ev *evaluation, o *options) (notes []string, changed bool, err error) {
	path := ev.result.path
	src := ev.s.Sources()[path]
	var edits []literalEdit
	var updated []int // the notes that say "updated", true once the write succeeds
	for _, out := range ev.outcomes {
		ex := out.Expectation
		if out.Pass || out.Err || ex.File() != path || o.run != nil && !o.run.MatchString(ex.Name()) {
			continue
		}
		ed, err := planEdit(src, out)
		if err != nil {
			notes = append(notes, fmt.Sprintf("cannot update %s: %v", ex.Name(), err))
			continue
		}
		edits = append(edits, ed)
		updated = append(updated, len(notes))
		notes = append(notes, fmt.Sprintf("updated %s:%d:%d: %s → %s", path, ed.pos.Line, ed.pos.Column, ed.old, ed.text))
	}
	if len(edits) == 0 {
		return notes, false, nil
	}
	if err := o.hooks.WriteFile(path, applyEdits(src, edits)); err != nil {
		for _, i := range updated {
			notes[i] = "not " + notes[i]
		}
		return notes, false, err
	}
	return notes, true, nil
}

// updateGolden writes X.golden when it differs from the report or, for a
// file named as an argument, is missing; the error is a failed write,
// which the note also tells.
func updateGolden(ev *evaluation, o *options) ([]string, error) {
	for i, c := range ev.result.cases {
		if c.golden == "" || c.status == statusPass {
			continue
		}
		if err := o.hooks.WriteFile(c.golden, goldenReport(ev, o)); err != nil {
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

// planEdit places the rewrite eval proposes for a failing expect in src.
func planEdit(src []byte, out eval.Outcome) (literalEdit, error) {
	rw, err := out.Rewrite()
	if err != nil {
		return literalEdit{}, err
	}
	if rw.Pos.Offset < 0 || rw.End.Offset > len(src) || rw.Pos.Offset >= rw.End.Offset {
		return literalEdit{}, errors.New("the wanted value's position is outside the file")
	}
	ed := literalEdit{start: rw.Pos.Offset, end: rw.End.Offset, old: string(src[rw.Pos.Offset:rw.End.Offset]), pos: rw.Pos, text: rw.Text}
	if ed.text == ed.old {
		return literalEdit{}, fmt.Errorf("%s is already the value got; the expect fails for another reason", ed.text)
	}
	return ed, nil
}
