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

// toJSON is the entry of a file that loaded, its jobs built, with diags
// after its warnings.
func toJSON(r *report, diags []model.Diagnostic) *model.File {
	f := r.f.WithJobs()
	f.Diagnostics = append(append([]model.Diagnostic{}, f.Diagnostics...), diags...)
	return f
}

// writeJSON prints the one document of a run, as it is made: a sweep
// that fails at some point leaves the part before it on w
// (model.Document.WriteJSON).
func writeJSON(w io.Writer, files []*model.File, exit int) error {
	return model.NewDocument(files, exit).WriteJSON(w)
}
