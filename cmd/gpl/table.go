package main

import (
	"bytes"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/cli"
	model "github.com/gpl-lang/gpl/eval/report"
)

func init() {
	register("table", "print one table of scenario files (jobs, pools, owners, months, groups, uncertainty, or a group, compare, sweep or solve by name) as CSV, TSV, JSON or Markdown", cmdTable)
}

// cmdTable prints one table of the files given: the table the report
// model builds (model.File.Table), its headers the JSON report's keys.
// With more than one file, a first column names each row's file. Nothing
// is written unless every file loads and has the table, so that an
// earlier file at -o stays as it was.
func cmdTable(e *env) int {
	fs := flag.NewFlagSet("gpl table", flag.ContinueOnError)
	format := fs.String("format", "csv", "output `format`: csv, tsv, json or markdown")
	out := fs.String("o", "-", "write the table to `FILE` (- for standard output; missing directories are created)")
	load := cli.AddLoadFlags(fs, true, "")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: gpl table [--format csv|tsv|json|markdown] [-o FILE] [--set NAME=VALUE]... [--allow-imports DIR]... [--max-points N] [--samples N] [--seed S] FILE|SCENARIO... TABLE")
		fs.PrintDefaults()
	}
	args, code, ok := parseFlags(fs, e)
	if !ok {
		return code
	}
	if len(args) < 2 {
		fs.Usage()
		return exitUsage
	}
	if !oneOf(e, "--format", *format, "csv", "tsv", "json", "markdown") {
		return exitUsage
	}
	files, name := args[:len(args)-1], args[len(args)-1]
	if err := prepareOutput(*out); err != nil {
		fmt.Fprintf(e.stderr, "gpl table: %v\n", err)
		return exitRuntime
	}
	st := styleFor(e.stderr, e.getenv)
	worst := exitOK
	var tables []*model.Table
	for _, arg := range files {
		s, fail := loadView(e, arg, load, st)
		if fail != nil {
			worst = worse(worst, fail.code)
			continue
		}
		f := model.Outline(s).Judge() // its jobs built one at a time, as the table reads them
		t, found, err := f.Table(name)
		if err != nil {
			fmt.Fprintf(e.stderr, "gpl table: %s: %v\n", arg, err)
			worst = worse(worst, exitRuntime)
			continue
		}
		if !found {
			names := f.TableNames()
			msg := fmt.Sprintf("gpl table: %s has no table %q", arg, name)
			if sug := nearestName(name, names); sug != "" {
				msg += "; did you mean " + sug + "?"
			}
			fmt.Fprintf(e.stderr, "%s\n  its tables: %s\n", msg, strings.Join(names, ", "))
			worst = worse(worst, exitUsage)
			continue
		}
		tables = append(tables, t)
	}
	if len(tables) < len(files) {
		if *out != "-" {
			fmt.Fprintf(e.stderr, "gpl table: nothing written to %s\n", *out)
		}
		return worst
	}
	t := tables[0]
	if len(files) > 1 {
		t = joinTables(files, tables)
	}
	var b bytes.Buffer
	switch *format {
	case "csv":
		writeTableCSV(&b, t, ',')
	case "tsv":
		writeTableTSV(&b, t)
	case "json":
		writeTableJSON(&b, t)
	case "markdown":
		writeTableMarkdown(&b, t)
	}
	if err := writeOutput(e.stdout, *out, b.Bytes()); err != nil {
		fmt.Fprintf(e.stderr, "gpl table: %v\n", err)
		return exitRuntime
	}
	return worst
}

// joinTables is one table of the tables of several files: a first column
// names each row's file, and the headers are every table's, in the order
// they first appear.
func joinTables(files []string, tables []*model.Table) *model.Table {
	out := &model.Table{Name: tables[0].Name, Headers: []string{"file"}}
	col := map[string]int{"file": 0}
	for _, t := range tables {
		for _, h := range t.Headers {
			if _, ok := col[h]; !ok {
				col[h] = len(out.Headers)
				out.Headers = append(out.Headers, h)
			}
		}
	}
	for i, t := range tables {
		for _, r := range t.Rows {
			row := make([]model.Cell, len(out.Headers))
			row[0] = model.Cell{Kind: model.CellString, Text: files[i]}
			for j, c := range r {
				row[col[t.Headers[j]]] = c
			}
			out.Rows = append(out.Rows, row)
		}
	}
	return out
}

// writeTableCSV writes t as RFC 4180 CSV (encoding/csv: a cell with a
// comma, a quote or a line break is quoted), lines ending in "\n".
func writeTableCSV(w io.Writer, t *model.Table, sep rune) {
	cw := csv.NewWriter(w)
	cw.Comma = sep
	cw.Write(t.Headers)
	rec := make([]string, len(t.Headers))
	for _, r := range t.Rows {
		for i, c := range r {
			rec[i] = c.Text
		}
		cw.Write(rec)
	}
	cw.Flush()
}

// writeTableTSV writes t as tab-separated values: no cell is quoted, and
// a tab or line break in a cell (a text, never a number) becomes a space.
func writeTableTSV(w io.Writer, t *model.Table) {
	clean := strings.NewReplacer("\t", " ", "\r\n", " ", "\n", " ", "\r", " ")
	line := func(cells []string) {
		for i, c := range cells {
			cells[i] = clean.Replace(c)
		}
		io.WriteString(w, strings.Join(cells, "\t")+"\n")
	}
	line(append([]string(nil), t.Headers...))
	for _, r := range t.Rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = c.Text
		}
		line(cells)
	}
}

// writeTableJSON writes t as a JSON array of objects, one per row, its
// keys the headers in order: numbers as numbers, an empty cell null.
func writeTableJSON(w io.Writer, t *model.Table) {
	var b bytes.Buffer
	b.WriteString("[")
	for i, r := range t.Rows {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n  {")
		for j, c := range r {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(jsonString(t.Headers[j]) + ": ")
			switch c.Kind {
			case model.CellEmpty:
				b.WriteString("null")
			case model.CellNumber, model.CellBool:
				b.WriteString(c.Text)
			default:
				b.WriteString(jsonString(c.Text))
			}
		}
		b.WriteString("}")
	}
	if len(t.Rows) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("]\n")
	w.Write(b.Bytes())
}

func jsonString(s string) string {
	var b bytes.Buffer
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// writeTableMarkdown writes t as a Markdown (GitHub) table: a column of
// numbers is aligned right, a "|" in a cell escaped, a line break a
// space.
func writeTableMarkdown(w io.Writer, t *model.Table) {
	clean := strings.NewReplacer("|", `\|`, "\r\n", " ", "\n", " ", "\r", " ")
	numeric := make([]bool, len(t.Headers))
	for i := range t.Headers {
		numeric[i] = len(t.Rows) > 0
		for _, r := range t.Rows {
			if r[i].Kind != model.CellNumber && r[i].Kind != model.CellEmpty {
				numeric[i] = false
			}
		}
	}
	var b strings.Builder
	b.WriteString("|")
	for _, h := range t.Headers {
		b.WriteString(" " + clean.Replace(h) + " |")
	}
	b.WriteString("\n|")
	for i := range t.Headers {
		if numeric[i] {
			b.WriteString(" ---: |")
		} else {
			b.WriteString(" --- |")
		}
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		b.WriteString("|")
		for _, c := range r {
			b.WriteString(" " + clean.Replace(c.Text) + " |")
		}
		b.WriteString("\n")
	}
	io.WriteString(w, b.String())
}
