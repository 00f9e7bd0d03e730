// Package report is the one document every view of an evaluated scenario
// renders: gpl run's text report and its --format json, gpl report's
// HTML page, gpl table's tables (File.Table, and File.OpenTable, which
// keeps a large table's rows out of memory: the JSON report's rows,
// flattened) and the REPL's summaries.
//
// Build makes a File of a loaded scenario: its values and pools; per job
// the factors and ceilings, losses, levers and gains, the waterfall
// (offered → held → productive → useful device-hours and their cost),
// the owner table sorted by saving, the costs, the cost per useful hour
// and the best lever; the groups, compares, sweeps and solves; the
// rulesets and requests; and the expectations with their outcomes. A
// Document is the files of a run, which WriteJSON writes in the shape
// docs/report.schema.json fixes, as it is made (json_stream.go).
//
// Every figure carries its unit: the fields with a JSON key hold numbers
// in the unit the key names (hours, USD, USD per device-hour, or a
// fraction), rounded so that they show no float noise, and the views'
// fields (View, Figures) hold the engine's unrounded numbers, in the unit
// their documentation names, or eval.Values, which print themselves with
// their units. The model has its own vocabulary for the views, so that a
// view needs neither the engine nor the language: Factor names a factor,
// Dim a dimension, and an Amount is a number of a dimension that prints
// itself as the text report does (Hours(92160).String() is "92,160 h").
package report

import "io"

// Document is the JSON report of a run: every file given, loaded or not,
// and a summary.
type Document struct {
	Files   []*File `json:"files"`
	Summary Summary `json:"summary"`
}

// Summary counts the files and expectations of a run; Exit is the exit
// code the run returns.
type Summary struct {
	Files  int `json:"files"`
	Loaded int `json:"loaded"`
	Passed int `json:"passed"`
	Failed int `json:"failed"`
	Errors int `json:"errors"`
	Exit   int `json:"exit"`
}

// NewDocument is the document of a run of files that exits with exit.
func NewDocument(files []*File, exit int) *Document {
	s := Summary{Files: len(files), Exit: exit}
	for _, f := range files {
		if f.Loaded {
			s.Loaded++
		}
		for _, e := range f.Expectations {
			switch e.Status {
			case "pass":
				s.Passed++
			case "fail":
				s.Failed++
			default:
				s.Errors++
			}
		}
	}
	return &Document{Files: files, Summary: s}
}

// WriteJSON writes the document as indented JSON, two spaces a level,
// HTML characters as they are: the bytes json.Encoder writes with
// SetIndent("", "  ") and SetEscapeHTML(false), ending in a newline. It
// writes as it goes, through a buffer of 64 KiB: each part (a pool, a
// job, a sweep's row) is encoded and written before the next is made; a
// file from Outline has its jobs built one at a time as they are written,
// and a sweep's table is written a row at a time as its points are
// evaluated, so that a sweep of a million points is never held (memory
// does not grow with the points).
//
// A sweep that fails at some point (a show column that cannot be computed
// there) stops the writing with that error, once w has received the
// document up to that sweep's last row written: what w holds is then not
// a complete JSON document. A caller that must not leave part of a
// document where a whole one stood writes to a temporary file and puts it
// in place only when WriteJSON returns nil.
func (d *Document) WriteJSON(w io.Writer) error {
	return writeDocument(w, d, newJSONWriter)
}
