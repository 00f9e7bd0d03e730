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
// model builds (model.File.OpenTable), its headers the JSON report's
// keys. With more than one file, a first column names each row's file
// (model.JoinTables). Nothing is written unless every file loads and has
// the table, so that an earlier file at -o stays as it was: every row of
// every file is made first (kept in a temporary file past 1 MiB, not in
// memory), and then written a row at a time, to -o
// through a temporary copy that replaces the file only once the table is
// complete (writeOutputFrom).
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
	if err := prepareOutput(*out, files...); err != nil {
		fmt.Fprintf(e.stderr, "gpl table: %v\n", err)
		return outputExit(err)
	}
	st := styleFor(e.stderr, e.getenv)
	worst := exitOK
	var tables []*model.Table
	defer func() {
		for _, t := range tables {
			t.Close()
		}
	}()
	for _, arg := range files {
		s, fail := loadView(e, arg, load, st)
		if fail != nil {
			worst = worse(worst, fail.code)
			continue
		}
		if err := refuseRead(*out, s); err != nil {
			fmt.Fprintf(e.stderr, "gpl table: %v\n", err)
			return exitUsage
		}
		f := model.Outline(s).Judge() // its jobs built one at a time, as the table reads them
		t, found, err := f.OpenTable(name)
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
		t = model.JoinTables(files, tables)
	}
	write := func(w io.Writer) error {
		switch *format {
		case "csv":
			return writeTableCSV(w, t, ',')
		case "tsv":
			return writeTableTSV(w, t)
		case "json":
			return writeTableJSON(w, t)
		}
		return writeTableMarkdown(w, t)
	}
	if err := writeOutputFrom(e.stdout, *out, write); err != nil {
		fmt.Fprintf(e.stderr, "gpl table: %v\n", err)
		return exitRuntime
	}
	return worst
}

// The writers write a row at a time as the table yields them (t.Each);
// w is buffered by the caller (writeOutputFrom). Each returns the first
// error of reading the rows or of writing them.

// writeTableCSV writes t as RFC 4180 CSV (encoding/csv: a cell with a
// comma, a quote or a line break is quoted), lines ending in "\n".
func writeTableCSV(w io.Writer, t *model.Table, sep rune) error {
	cw := csv.NewWriter(w)
	cw.Comma = sep
	cw.Write(t.Headers)
	rec := make([]string, len(t.Headers))
	err := t.Each(func(r []model.Cell) bool {
		for i, c := range r {
			rec[i] = c.Text
		}
		return cw.Write(rec) == nil
	})
	cw.Flush()
	if err != nil {
		return err
	}
	return cw.Error()
}

// writeTableTSV writes t as tab-separated values: no cell is quoted, and
// a tab or line break in a cell (a text, never a number) becomes a space.
func writeTableTSV(w io.Writer, t *model.Table) error {
	clean := strings.NewReplacer("\t", " ", "\r\n", " ", "\n", " ", "\r", " ")
	var werr error
	line := func(cells []string) bool {
		for i, c := range cells {
			cells[i] = clean.Replace(c)
		}
		_, werr = io.WriteString(w, strings.Join(cells, "\t")+"\n")
		return werr == nil
	}
	line(append([]string(nil), t.Headers...))
	cells := make([]string, len(t.Headers))
	err := t.Each(func(r []model.Cell) bool {
		cells = cells[:len(r)]
		for i, c := range r {
			cells[i] = c.Text
		}
		return werr == nil && line(cells)
	})
	if err != nil {
		return err
	}
	return werr
}

// writeTableJSON writes t as a JSON array of objects, one per row, its
// keys the headers in order: numbers as numbers, an empty cell null.
func writeTableJSON(w io.Writer, t *model.Table) error {
	var b bytes.Buffer
	var werr error
	b.WriteString("[")
	rows := 0
	err := t.Each(func(r []model.Cell) bool {
		if rows > 0 {
			b.WriteString(",")
		}
		rows++
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
		_, werr = w.Write(b.Bytes())
		b.Reset()
		return werr == nil
	})
	if err != nil {
		return err
	}
	if werr != nil {
		return werr
	}
	if rows > 0 {
		b.WriteString("\n")
	}
	b.WriteString("]\n")
	_, err = w.Write(b.Bytes())
	return err
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
// numbers is aligned right (t.Numeric), a "|" in a cell escaped, a line
// break a space. No column is padded, so it too is written a row at a
// time.
func writeTableMarkdown(w io.Writer, t *model.Table) error {
	clean := strings.NewReplacer("|", `\|`, "\r\n", " ", "\n", " ", "\r", " ")
	var b strings.Builder
	b.WriteString("|")
	for _, h := range t.Headers {
		b.WriteString(" " + clean.Replace(h) + " |")
	}
	b.WriteString("\n|")
	for i := range t.Headers {
		if t.Numeric(i) {
			b.WriteString(" ---: |")
		} else {
			b.WriteString(" --- |")
		}
	}
	b.WriteString("\n")
	_, werr := io.WriteString(w, b.String())
	err := t.Each(func(r []model.Cell) bool {
		b.Reset()
		b.WriteString("|")
		for _, c := range r {
			b.WriteString(" " + clean.Replace(c.Text) + " |")
		}
		b.WriteString("\n")
		if werr == nil {
			_, werr = io.WriteString(w, b.String())
		}
		return werr == nil
	})
	if err != nil {
		return err
	}
	return werr
}
