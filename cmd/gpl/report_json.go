package main

// gpl run --format json: one JSON document, whatever the number of files
// and whether they loaded, of the shape docs/report.schema.json fixes.
// The document is eval/report's: every number is a JSON number under a
// key that names its unit; a value that was not set, or that is not
// defined (the headroom of a job whose mpg is 0), is null rather than
// absent.

import (
	"io"

	model "github.com/gpl-lang/gpl/eval/report"
)

// jsonFactors is a figure per factor, as the JSON report writes it.
type jsonFactors = model.Factors

// toJSON is the entry of a file that loaded, with diags after its
// warnings. Its jobs are built as the document writes them, one at a
// time, not held: a file of 100,000 jobs would hold every job's report
// until the last file is read.
func toJSON(r *report, diags []model.Diagnostic) *model.File {
	f := new(model.File)
	*f = *r.f
	f.Diagnostics = append(append([]model.Diagnostic{}, f.Diagnostics...), diags...)
	return f
}

// writeJSON prints the one document of a run, as it is made: a sweep
// that fails at some point leaves the part before it on w
// (model.Document.WriteJSON).
func writeJSON(w io.Writer, files []*model.File, exit int) error {
	return model.NewDocument(files, exit).WriteJSON(w)
}
