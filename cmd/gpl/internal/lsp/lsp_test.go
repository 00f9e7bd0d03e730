package lsp

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/lang/format"
	"github.com/gpl-lang/gpl/scenarios"
)

// change replaces the whole text of a document as version v.
func (c *client) change(uri string, v int, text string) {
	c.notify("textDocument/didChange", DidChangeTextDocumentParams{
		TextDocument:   VersionedTextDocumentIdentifier{URI: uri, Version: v},
		ContentChanges: []TextDocumentContentChangeEvent{{Text: text}}})
}

// edit applies one incremental change as version v.
func (c *client) edit(uri string, v int, r Range, text string) {
	c.notify("textDocument/didChange", DidChangeTextDocumentParams{
		TextDocument:   VersionedTextDocumentIdentifier{URI: uri, Version: v},
		ContentChanges: []TextDocumentContentChangeEvent{{Range: &r, Text: text}}})
}

// apply applies text edits to a text, as an editor does.
func apply(t *testing.T, text string, edits []TextEdit) string {
	t.Helper()
	l := newLines(text)
	sort.SliceStable(edits, func(i, j int) bool { return l.offset(edits[i].Range.Start) > l.offset(edits[j].Range.Start) })
	for _, e := range edits {
		from, to := l.offset(e.Range.Start), l.offset(e.Range.End)
		text = text[:from] + e.NewText + text[to:]
	}
	return text
}

func rng(l1, c1, l2, c2 int) Range { return Range{Position{l1, c1}, Position{l2, c2}} }

func TestDiagnosticsAndQuickFixes(t *testing.T) {
	dir, path, text := workspace(t)
	c := newClient(t, dir)
	uri := c.open(path, text)
	if ds := c.waitDiags(uri, 1); len(ds) != 0 {
		t.Fatalf("the bundled scenario has diagnostics: %v", ds)
	}
	cases := []struct {
		name, from, to string
		want           Diagnostic
		title          string
	}{{
		name: "a duration without its unit",
		from: "hours = 720h", to: "hours = 720",
		want: Diagnostic{Range: rng(20, 10, 20, 13), Severity: SeverityError, Code: "field_without_unit", Source: "gpl",
			Message: "hours is a duration; write its unit, e.g. 720h"},
		title: "write 720h for 720",
	}, {
		name: "= for == in an expect",
		from: `expect best_lever == "program"`, to: `expect best_lever = "program"`,
		want: Diagnostic{Range: rng(48, 20, 48, 21), Severity: SeverityError, Code: "assignment_in_comparison", Source: "gpl",
			Message: `syntax error: unexpected "="`,
			RelatedInformation: []DiagnosticRelatedInformation{{Location: Location{URI: uri, Range: rng(48, 20, 48, 21)},
				Message: "hint: an expectation compares: use == for equal, or ≈ for equal within a tolerance"}}},
		title: "an expectation compares: use == for equal, or ≈ for equal within a tolerance",
	}, {
		name: "a misspelt let",
		from: "program    = peak_mfu", to: "program    = peak_mfo",
		want: Diagnostic{Range: rng(30, 17, 30, 25), Severity: SeverityError, Code: "unknown_name", Source: "gpl",
			Message: "unknown name peak_mfo; did you mean peak_mfu?"},
		title: "write peak_mfu for peak_mfo",
	}, {
		name: "a misspelt result",
		from: "expect llama2_70b_tuned.cost_per_useful_hour <", to: "expect llama2_70b_tuned.cost_per_usefull_hour <",
		want: Diagnostic{Range: rng(60, 24, 60, 45), Severity: SeverityError, Code: "unknown_field", Source: "gpl",
			Message: "job llama2_70b_tuned has no cost_per_usefull_hour; did you mean llama2_70b_tuned.cost_per_useful_hour?"},
		title: "write cost_per_useful_hour for cost_per_usefull_hour",
	}, {
		name: "a unit written as a word",
		from: "hours = 720h", to: "hours = 720 hours",
		want: Diagnostic{Range: rng(20, 10, 20, 19), Severity: SeverityError, Code: "unit_as_word", Source: "gpl",
			Message: `syntax error: "hours" is not a unit`,
			RelatedInformation: []DiagnosticRelatedInformation{{Location: Location{URI: uri, Range: rng(20, 10, 20, 19)},
				Message: "hint: write 720h"}}},
		title: "write 720h",
	}}
	v := 1
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			bad := strings.Replace(text, tc.from, tc.to, 1)
			v++
			c.change(uri, v, bad)
			ds := c.waitDiags(uri, v)
			if len(ds) == 0 {
				t.Fatal("no diagnostics")
			}
			if diff := cmp.Diff(tc.want, ds[0]); diff != "" {
				t.Errorf("diagnostic (-want +got):\n%s", diff)
			}
			var acts []CodeAction
			c.mustCall("textDocument/codeAction", CodeActionParams{DocumentParams: DocumentParams{TextDocumentIdentifier{uri}}, Range: ds[0].Range}, &acts)
			if len(acts) != 1 {
				t.Fatalf("got %d code actions, want 1: %+v", len(acts), acts)
			}
			if acts[0].Title != tc.title || acts[0].Kind != "quickfix" {
				t.Errorf("code action %q (%s), want %q (quickfix)", acts[0].Title, acts[0].Kind, tc.title)
			}
			fixed := apply(t, bad, acts[0].Edit.Changes[uri])
			if fixed != text {
				t.Errorf("the quick fix does not restore the text:\n%s", fixed)
			}
			v++
			c.change(uri, v, fixed)
			if ds := c.waitDiags(uri, v); len(ds) != 0 {
				t.Errorf("diagnostics after the fix: %v", ds)
			}
		})
	}
	c.shutdown()
}

func TestHover(t *testing.T) {
	dir, path, text := workspace(t)
	c := newClient(t, dir)
	uri := c.open(path, text)
	c.waitDiags(uri, 1)
	hover := func(s string, at int) string {
		t.Helper()
		l, ch := lineOf(t, text, s)
		var h *Hover
		c.mustCall("textDocument/hover", pos(uri, l, ch+at), &h)
		if h == nil {
			return ""
		}
		return h.Contents.Value
	}
	cases := []struct {
		name, at string
		off      int
		want     string
	}{
		{"a result", "llama2_70b.cost_per_useful_hour\n", 13, "**result** `llama2_70b.cost_per_useful_hour` · price\n\n`llama2_70b.cost_per_useful_hour = $8.8605/h`\n\n```text\nmpg = S × R × P = 0.95 × 0.9 × 0.33 = 0.28215\ncost_per_useful_hour = rate / mpg = $2.50/h / 0.28215 = $8.8605/h\n```"},
		{"a let", "program    = peak_mfu", 14, "**let** `peak_mfu` · count\n\n`peak_mfu = 0.45`"},
		{"a param", "runtime    = measured_runtime", 14, "**param** `measured_runtime` · count\n\n`measured_runtime = 0.9`"},
		{"a pool's field", "rate    = 2.50", 1, "**pool** `shared_h100.rate` · price\n\n`shared_h100.rate = $2.50/h`"},
		{"a pool", "on shared_h100", 4, "**pool** `shared_h100`\n\n```text\nshared_h100.devices = 128\nshared_h100.rate = $2.50/h\n```"},
		{"a bare result in its job", "expect mpg ≈ 0.282 ", 8, "**result** `llama2_70b.mpg` · count\n\n`llama2_70b.mpg = 0.28215`\n\n```text\nmpg = S × R × P = 0.95 × 0.9 × 0.33 = 0.28215\n```"},
		{"nothing", "# Llama", 3, ""},
	}
	for _, tc := range cases {
		if got := hover(tc.at, tc.off); got != tc.want {
			t.Errorf("%s: hover (-want +got):\n%s", tc.name, cmp.Diff(tc.want, got))
		}
	}
	job := hover("job llama2_70b on", 5)
	for _, want := range []string{"**job** `llama2_70b`", "mpg                     0.28215", "best_lever              program (+0.1026 mpg)", "best lever owned by program", "mpg = S × R × P = 0.95 × 0.9 × 0.33 = 0.28215"} {
		if !strings.Contains(job, want) {
			t.Errorf("job hover lacks %q:\n%s", want, job)
		}
	}
	c.shutdown()
}

func TestInlayHints(t *testing.T) {
	dir, path, text := workspace(t)
	c := newClient(t, dir)
	uri := c.open(path, text)
	c.waitDiags(uri, 1)
	var hints []InlayHint
	c.mustCall("textDocument/inlayHint", RangeParams{DocumentParams: DocumentParams{TextDocumentIdentifier{uri}}, Range: rng(0, 0, 36, 0)}, &hints)
	want := []InlayHint{
		{Position: Position{6, 64}, Label: "= 0.45", PaddingLeft: true},
		{Position: Position{11, 75}, Label: "= 0.9", PaddingLeft: true},
		{Position: Position{19, 31}, Label: "mpg 0.28215 · cost_per_useful_hour $8.8605/h", PaddingLeft: true},
		{Position: Position{33, 65}, Label: "✓ 0.28215", PaddingLeft: true},
		{Position: Position{34, 33}, Label: "✓ 0.28215", PaddingLeft: true},
		{Position: Position{35, 25}, Label: "✓ 0.71785", PaddingLeft: true},
	}
	if diff := cmp.Diff(want, hints); diff != "" {
		t.Errorf("inlay hints (-want +got):\n%s", diff)
	}
	// A failing expect shows ✗ and what it got, and the hints follow a change.
	bad := strings.Replace(text, "program    = 0.33", "program    = 0.30", 1)
	c.change(uri, 2, bad)
	c.waitDiags(uri, 2)
	c.mustCall("textDocument/inlayHint", RangeParams{DocumentParams: DocumentParams{TextDocumentIdentifier{uri}}, Range: rng(19, 0, 33, 100)}, &hints)
	want = []InlayHint{
		{Position: Position{19, 31}, Label: "mpg 0.2565 · cost_per_useful_hour $9.7466/h", PaddingLeft: true},
		{Position: Position{33, 65}, Label: "✗ got 0.2565", PaddingLeft: true},
	}
	if diff := cmp.Diff(want, hints); diff != "" {
		t.Errorf("inlay hints after a change (-want +got):\n%s", diff)
	}
	c.shutdown()
}

// imports is a workspace of two files, one importing the other and the
// bundled library.
func imports(t *testing.T) (dir, a, b, textA, textB string) {
	dir = t.TempDir()
	a, b = filepath.Join(dir, "pools.gpl"), filepath.Join(dir, "jobs.gpl")
	textA = "pool fleet { devices = 8  rate = 2 USD/h }\n"
	textB = "import \"pools.gpl\"\nimport \"std/kapsl\"\n\njob train on fleet {\n  hours = 720h\n  factors { S = 0.9  R = 0.9  P = 0.4 }\n}\n\nexpect train.devices == fleet.devices\nrequest urgent { priority = 0 }\nexpect classify(kapsl, urgent) == latency_critical\n"
	for p, s := range map[string]string{a: textA, b: textB} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return
}

func TestDefinitionReferencesRename(t *testing.T) {
	dir, a, b, textA, textB := imports(t)
	c := newClient(t, dir)
	uri := c.open(b, textB)
	if ds := c.waitDiags(uri, 1); len(ds) != 0 {
		t.Fatalf("diagnostics: %v", ds)
	}
	var locs []Location
	c.mustCall("textDocument/definition", pos(uri, 3, 14), &locs)
	if diff := cmp.Diff([]Location{{URI: pathURI(a), Range: rng(0, 5, 0, 10)}}, locs); diff != "" {
		t.Errorf("definition across an import (-want +got):\n%s", diff)
	}
	c.mustCall("textDocument/definition", pos(uri, 8, 32), &locs)
	if diff := cmp.Diff([]Location{{URI: pathURI(a), Range: rng(0, 13, 0, 20)}}, locs); diff != "" {
		t.Errorf("definition of a pool's field (-want +got):\n%s", diff)
	}
	c.mustCall("textDocument/definition", pos(uri, 10, 17), &locs)
	if len(locs) != 1 || !strings.HasSuffix(locs[0].URI, "/std/kapsl.gpl") || locs[0].Range != rng(5, 6, 5, 11) {
		t.Errorf("definition into std/kapsl: %+v", locs)
	} else if b, err := os.ReadFile(uriPath(locs[0].URI)); err != nil || !strings.Contains(string(b), "rules kapsl {") {
		t.Errorf("the std file written for the definition: %v", err)
	}

	var refs []Location
	rp := ReferenceParams{TextDocumentPositionParams: pos(uri, 3, 14)}
	c.mustCall("textDocument/references", rp, &refs)
	if len(refs) != 2 {
		t.Errorf("references without the declaration: %+v", refs)
	}
	rp.Context.IncludeDeclaration = true
	c.mustCall("textDocument/references", rp, &refs)
	want := []Location{
		{URI: pathURI(b), Range: rng(3, 13, 3, 18)},
		{URI: pathURI(b), Range: rng(8, 24, 8, 29)},
		{URI: pathURI(a), Range: rng(0, 5, 0, 10)},
	}
	sortLocs(refs)
	sortLocs(want)
	if diff := cmp.Diff(want, refs); diff != "" {
		t.Errorf("references (-want +got):\n%s", diff)
	}

	var r Range
	c.mustCall("textDocument/prepareRename", pos(uri, 3, 6), &r)
	if r != rng(3, 4, 3, 9) {
		t.Errorf("prepareRename: %v", r)
	}
	if err := c.call("textDocument/rename", RenameParams{TextDocumentPositionParams: pos(uri, 3, 14), NewName: "train"}, nil); err == nil ||
		!strings.Contains(err.Message, "train is already declared") {
		t.Errorf("rename to a taken name: %v", err)
	}
	if err := c.call("textDocument/rename", RenameParams{TextDocumentPositionParams: pos(uri, 3, 14), NewName: "job"}, nil); err == nil {
		t.Error("rename to a keyword succeeded")
	}
	if err := c.call("textDocument/rename", RenameParams{TextDocumentPositionParams: pos(uri, 8, 33), NewName: "x"}, nil); err == nil {
		t.Error("rename of a field succeeded")
	}
	var we WorkspaceEdit
	c.mustCall("textDocument/rename", RenameParams{TextDocumentPositionParams: pos(uri, 3, 14), NewName: "h100s"}, &we)
	gotA, gotB := apply(t, textA, we.Changes[pathURI(a)]), apply(t, textB, we.Changes[uri])
	if want := strings.ReplaceAll(textA, "fleet", "h100s"); gotA != want {
		t.Errorf("renamed pools.gpl:\n%s", gotA)
	}
	if want := strings.ReplaceAll(textB, "fleet", "h100s"); gotB != want {
		t.Errorf("renamed jobs.gpl:\n%s", gotB)
	}
	if len(we.Changes) != 2 {
		t.Errorf("rename changes %d files, want 2", len(we.Changes))
	}
	// The renamed text checks: once jobs.gpl is renamed, it lacks the pool
	// until pools.gpl is saved renamed too, which checks it again.
	c.change(uri, 2, gotB)
	if ds := c.waitDiags(uri, 2); len(ds) == 0 {
		t.Error("no diagnostics with pools.gpl not yet saved")
	}
	os.WriteFile(a, []byte(gotA), 0o644)
	c.notify("textDocument/didSave", DidCloseTextDocumentParams{TextDocument: TextDocumentIdentifier{pathURI(a)}})
	if ds := c.waitDiags(uri, 2); len(ds) != 0 {
		t.Errorf("diagnostics after the rename: %v", ds)
	}
	c.shutdown()
}

func sortLocs(ls []Location) {
	sort.Slice(ls, func(i, j int) bool {
		if ls[i].URI != ls[j].URI {
			return ls[i].URI < ls[j].URI
		}
		return ls[i].Range.Start.Line < ls[j].Range.Start.Line
	})
}

func TestDocumentSymbols(t *testing.T) {
	dir, _, b, _, textB := imports(t)
	c := newClient(t, dir)
	uri := c.open(b, textB)
	c.waitDiags(uri, 1)
	var syms []DocumentSymbol
	c.mustCall("textDocument/documentSymbol", map[string]any{"textDocument": TextDocumentIdentifier{uri}}, &syms)
	type row struct {
		Name     string
		Kind     int
		Line     int
		Children []string
	}
	var got []row
	for _, s := range syms {
		r := row{s.Name, s.Kind, s.Range.Start.Line, nil}
		for _, ch := range s.Children {
			r.Children = append(r.Children, ch.Name)
		}
		got = append(got, r)
	}
	want := []row{
		{`import "pools.gpl"`, SymbolNamespace, 0, nil},
		{`import "std/kapsl"`, SymbolNamespace, 1, nil},
		{"train", SymbolClass, 3, []string{"hours", "S", "R", "P"}},
		{"expect train.devices == fleet.devices", SymbolEvent, 8, nil},
		{"urgent", SymbolObject, 9, []string{"priority"}},
		{"expect classify(kapsl, urgent) == latency_critical", SymbolEvent, 10, nil},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("symbols (-want +got):\n%s", diff)
	}
	c.shutdown()
}

func TestCompletion(t *testing.T) {
	dir, path, text := workspace(t)
	c := newClient(t, dir)
	uri := c.open(path, text)
	c.waitDiags(uri, 1)
	labels := func(line, char int) []string {
		t.Helper()
		var cl CompletionList
		c.mustCall("textDocument/completion", pos(uri, line, char), &cl)
		var out []string
		for _, it := range cl.Items {
			out = append(out, it.Label)
		}
		return out
	}
	edit := func(v int, s string) {
		t.Helper()
		c.change(uri, v, text+s)
		c.waitDiags(uri, v)
	}
	last := strings.Count(text, "\n")
	edit(2, "expect llama2_70b.use")
	if diff := cmp.Diff([]string{"useful_hours"}, labels(last, 21)); diff != "" {
		t.Errorf("results after JOB. (-want +got):\n%s", diff)
	}
	edit(3, "let t = 30m")
	if diff := cmp.Diff([]string{"min", "ms"}, labels(last, 11)); diff != "" {
		t.Errorf("units after a number (-want +got):\n%s", diff)
	}
	edit(4, "pool p {\n  ra")
	if diff := cmp.Diff([]string{"rate"}, labels(last+1, 4)); diff != "" {
		t.Errorf("fields in a pool (-want +got):\n%s", diff)
	}
	edit(5, "job j on shared_h100 {\n  factors {\n    ")
	if diff := cmp.Diff([]string{"program", "runtime", "scheduling"}, labels(last+2, 4)); diff != "" {
		t.Errorf("fields in factors (-want +got):\n%s", diff)
	}
	edit(6, "rules r {\n  when ba")
	if diff := cmp.Diff([]string{"batch_size"}, labels(last+1, 9)); diff != "" {
		t.Errorf("ruleset fields (-want +got):\n%s", diff)
	}
	edit(7, "let z = pe")
	if diff := cmp.Diff([]string{"peak_mfu"}, labels(last, 10)); diff != "" {
		t.Errorf("names in scope (-want +got):\n%s", diff)
	}
	edit(8, "gro")
	if diff := cmp.Diff([]string{"group"}, labels(last, 3)); diff != "" {
		t.Errorf("keywords (-want +got):\n%s", diff)
	}
	edit(9, "let y = young_")
	if diff := cmp.Diff([]string{"young_interval"}, labels(last, 14)); diff != "" {
		t.Errorf("functions (-want +got):\n%s", diff)
	}
	c.shutdown()
}

func TestSignatureHelp(t *testing.T) {
	dir := t.TempDir()
	c := newClient(t, dir)
	text := "let g = runtime_goodput(24h, 5min, 10min)\n"
	uri := c.open(filepath.Join(dir, "s.gpl"), text)
	c.waitDiags(uri, 1)
	var sh *SignatureHelp
	c.mustCall("textDocument/signatureHelp", pos(uri, 0, 30), &sh)
	want := &SignatureHelp{ActiveParameter: 1, Signatures: []SignatureInformation{{
		Label:         "runtime_goodput(mtbf, checkpoint_cost, restart) or runtime_goodput(mtbf, checkpoint_cost, restart, interval)",
		Documentation: sh.Signatures[0].Documentation,
		Parameters: []ParameterInformation{
			{Label: "mtbf", Documentation: "duration, e.g. 24h"},
			{Label: "checkpoint_cost", Documentation: "duration, e.g. 5min"},
			{Label: "restart", Documentation: "duration, e.g. 5min"},
			{Label: "interval", Documentation: "duration, e.g. 2h"},
		}}}}
	if diff := cmp.Diff(want, sh); diff != "" {
		t.Errorf("signature help (-want +got):\n%s", diff)
	}
	if sh.Signatures[0].Documentation == "" {
		t.Error("no documentation")
	}
	c.mustCall("textDocument/signatureHelp", pos(uri, 0, 5), &sh)
	if sh != nil {
		t.Errorf("signature help outside a call: %+v", sh)
	}
	c.shutdown()
}

func TestFormatting(t *testing.T) {
	dir := t.TempDir()
	c := newClient(t, dir)
	text := "let  a=1h\n\nlet b   =  2h # two\npool p {devices=8\n rate = 1 USD/h}\n"
	uri := c.open(filepath.Join(dir, "f.gpl"), text)
	c.waitDiags(uri, 1)
	want, err := format.FormatSource("f.gpl", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var edits []TextEdit
	c.mustCall("textDocument/formatting", map[string]any{"textDocument": TextDocumentIdentifier{uri}, "options": map[string]any{"tabSize": 2, "insertSpaces": true}}, &edits)
	if got := apply(t, text, edits); got != string(want) {
		t.Errorf("formatted:\n%s\nwant\n%s", got, want)
	}
	c.mustCall("textDocument/rangeFormatting", RangeParams{DocumentParams: DocumentParams{TextDocumentIdentifier{uri}}, Range: rng(2, 0, 2, 5)}, &edits)
	if diff := cmp.Diff([]TextEdit{{Range: rng(2, 0, 2, 19), NewText: "let b = 2h # two"}}, edits); diff != "" {
		t.Errorf("range formatting (-want +got):\n%s", diff)
	}
	c.change(uri, 2, string(want))
	c.waitDiags(uri, 2)
	c.mustCall("textDocument/formatting", map[string]any{"textDocument": TextDocumentIdentifier{uri}}, &edits)
	if len(edits) != 0 {
		t.Errorf("edits of a formatted file: %v", edits)
	}
	c.change(uri, 3, "let a = \n")
	c.waitDiags(uri, 3)
	if err := c.call("textDocument/formatting", map[string]any{"textDocument": TextDocumentIdentifier{uri}}, &edits); err == nil {
		t.Error("formatting a file with a syntax error succeeded")
	}
	c.shutdown()
}

// TestTypedCharByChar types a file one character at a time, each an
// incremental change: the server publishes for the last version, with its
// diagnostics, and nothing stale after it.
func TestTypedCharByChar(t *testing.T) {
	dir := t.TempDir()
	c := newClient(t, dir)
	uri := c.open(filepath.Join(dir, "typed.gpl"), "")
	c.waitDiags(uri, 1)
	typed := "let rate = 2.5 USD/h\nlet hrs = 720h\nlet cost = rate * hrs\nexpect cost ≈ $1800\n"
	line, char, v := 0, 0, 1
	for _, r := range typed {
		v++
		c.edit(uri, v, Range{Position{line, char}, Position{line, char}}, string(r))
		if r == '\n' {
			line, char = line+1, 0
		} else {
			char += utf16Len(string(r))
		}
	}
	if ds := c.waitDiags(uri, v); len(ds) != 0 {
		t.Errorf("diagnostics of the typed file: %v", ds)
	}
	var h *Hover
	c.mustCall("textDocument/hover", pos(uri, 2, 5), &h)
	if h == nil || h.Contents.Value != "**let** `cost` · money\n\n`cost = $1,800.00`" {
		t.Errorf("hover after typing: %+v", h)
	}
	// Typing a mistake, then deleting it.
	v++
	c.edit(uri, v, rng(3, 19, 3, 19), "x")
	if ds := c.waitDiags(uri, v); len(ds) != 1 || ds[0].Range.Start.Line != 3 {
		t.Errorf("diagnostics after a mistake: %+v", ds)
	}
	v++
	c.edit(uri, v, rng(3, 19, 3, 20), "")
	if ds := c.waitDiags(uri, v); len(ds) != 0 {
		t.Errorf("diagnostics after deleting the mistake: %v", ds)
	}
	c.shutdown()
}

// TestSyntaxErrorsEverywhere: every request on a file that does not
// parse answers, and the server goes on answering.
func TestSyntaxErrorsEverywhere(t *testing.T) {
	dir := t.TempDir()
	c := newClient(t, dir)
	junk := "job { on on \n pool = = {\nlet 3 = x\nexpect ≈ ± )(\n\"unterminated\n}}}} rules r { when -> }\nlet ok = 1h\n\x00\xff\n"
	uri := c.open(filepath.Join(dir, "junk.gpl"), junk)
	ds := c.waitDiags(uri, 1)
	if len(ds) < 3 {
		t.Errorf("only %d diagnostics: %v", len(ds), ds)
	}
	n := strings.Count(junk, "\n")
	for line := 0; line <= n; line++ {
		for char := 0; char < 14; char += 3 {
			p := pos(uri, line, char)
			for _, m := range []string{"textDocument/hover", "textDocument/completion", "textDocument/definition", "textDocument/signatureHelp", "textDocument/prepareRename"} {
				c.call(m, p, nil) // an error response is fine; no response is not
			}
			c.call("textDocument/references", ReferenceParams{TextDocumentPositionParams: p}, nil)
			c.call("textDocument/rename", RenameParams{TextDocumentPositionParams: p, NewName: "n"}, nil)
		}
	}
	all := RangeParams{DocumentParams: DocumentParams{TextDocumentIdentifier{uri}}, Range: rng(0, 0, n+1, 0)}
	c.call("textDocument/inlayHint", all, nil)
	c.call("textDocument/rangeFormatting", all, nil)
	c.call("textDocument/codeAction", CodeActionParams{DocumentParams: all.DocumentParams, Range: all.Range}, nil)
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": all.TextDocument}, nil)
	c.call("textDocument/formatting", map[string]any{"textDocument": all.TextDocument}, nil)
	if err := c.call("no/such/method", nil, nil); err == nil || err.Code != codeMethodNotFound {
		t.Errorf("unknown method: %v", err)
	}
	// Still answering.
	c.change(uri, 2, "let ok = 1h\n")
	c.waitDiags(uri, 2)
	var h *Hover
	c.mustCall("textDocument/hover", pos(uri, 0, 5), &h)
	if h == nil || h.Contents.Value != "**let** `ok` · duration\n\n`ok = 1 h`" {
		t.Errorf("hover after the junk: %+v", h)
	}
	c.shutdown()
}

// TestOutsideWorkspace: a document in no workspace folder, and an editor's
// unsaved buffer, are checked and answered.
func TestOutsideWorkspace(t *testing.T) {
	c := newClient(t, "")
	other := t.TempDir()
	path := filepath.Join(other, "loose.gpl")
	text := "let a = 2h\nlet b = a * 2\nexpect b == 4h\n"
	uri := c.open(path, text)
	if ds := c.waitDiags(uri, 1); len(ds) != 0 {
		t.Errorf("diagnostics: %v", ds)
	}
	var refs []Location
	c.mustCall("textDocument/references", ReferenceParams{TextDocumentPositionParams: pos(uri, 0, 4)}, &refs)
	if len(refs) != 1 || refs[0].Range != rng(1, 8, 1, 9) {
		t.Errorf("references: %+v", refs)
	}
	untitled := c.open("untitled:Untitled-1", "let x = 1h / 0h\n")
	ds := c.waitDiags(untitled, 1)
	if len(ds) != 1 || ds[0].Range.Start.Line != 0 {
		t.Errorf("untitled diagnostics: %+v", ds)
	}
	var hints []InlayHint
	c.mustCall("textDocument/inlayHint", RangeParams{DocumentParams: DocumentParams{TextDocumentIdentifier{uri}}, Range: rng(0, 0, 3, 0)}, &hints)
	if len(hints) != 3 {
		t.Errorf("hints: %+v", hints)
	}
	c.notify("textDocument/didClose", DidCloseTextDocumentParams{TextDocument: TextDocumentIdentifier{untitled}})
	if err := c.call("textDocument/hover", pos(untitled, 0, 4), nil); err == nil {
		t.Error("hover on a closed document succeeded")
	}
	c.shutdown()
}

func TestLifecycle(t *testing.T) {
	// A request before initialize is refused; exit without shutdown is
	// an error.
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- Serve(inR, outW, Config{}); outW.Close() }()
	w := &writer{w: inW}
	id := json.RawMessage("1")
	w.write(&message{ID: &id, Method: "textDocument/hover", Params: raw(pos("file:///x.gpl", 0, 0))})
	r := newReader(outR)
	body, err := r.read()
	if err != nil {
		t.Fatal(err)
	}
	var m message
	json.Unmarshal(body, &m)
	if m.Error == nil || m.Error.Code != codeNotInitialized {
		t.Errorf("hover before initialize: %s", body)
	}
	w.notify("exit", nil)
	if err := <-done; err == nil {
		t.Error("exit without shutdown returned nil")
	}
	// The input closing without exit is an error too.
	inR2, inW2 := io.Pipe()
	go func() { done <- Serve(inR2, io.Discard, Config{}) }()
	inW2.Close()
	if err := <-done; err == nil {
		t.Error("EOF without exit returned nil")
	}
}

// TestHoverPlanning: a group, a sweep, a solve and a compare show what
// they answer.
func TestHoverPlanning(t *testing.T) {
	for _, tc := range []struct {
		scenario, at string
		want         []string
	}{
		{"llama3_405b_pretraining", "sweep mfu_sweep", []string{"**sweep** `mfu_sweep`", "mfu_sweep.points = 5", "asks: mfu_sweep.points, mfu_sweep.min("}},
		{"llama3_405b_pretraining", "solve hours_needed", []string{"**solve** `hours_needed`", "hours_needed.hours = 1,894.230779 h: the least hours between 720 h and 4,320 h"}},
		{"fleet_reserved_and_spot", "group reserved_plan", []string{"**group** `reserved_plan`", "reserved_plan.mpg = 0.358416125", "reserved_plan.cost = $427,622.40"}},
		{"fleet_reserved_and_spot", "compare pretraining", []string{"pretraining.best = \"pretrain_8b_spot\", the job with the lowest cost_per_useful_hour"}},
	} {
		b, err := scenarios.Files.ReadFile(tc.scenario + ".gpl")
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		dir := t.TempDir()
		c := newClient(t, dir)
		uri := c.open(filepath.Join(dir, "x.gpl"), text)
		if ds := c.waitDiags(uri, 1); len(ds) != 0 {
			t.Fatalf("%s: diagnostics %v", tc.scenario, ds)
		}
		l, ch := lineOf(t, text, tc.at)
		var h *Hover
		c.mustCall("textDocument/hover", pos(uri, l, ch+len(tc.at)-2), &h)
		for _, w := range tc.want {
			if h == nil || !strings.Contains(h.Contents.Value, w) {
				t.Errorf("hover over %s lacks %q:\n%+v", tc.at, w, h)
			}
		}
		c.shutdown()
	}
}

// Go to definition on a job declared by a row of a CSV inventory lands
// on its name's cell in the CSV.
func TestDefinitionIntoInventory(t *testing.T) {
	dir := t.TempDir()
	csv := "job,on,devices,hours,S,R,P\npretrain,fleet,768,720h,95%,0.90,0.38\n\"evals\",fleet,128,360h,0.98,0.97,0.30\n"
	plan := "import \"inventory.csv\"\npool fleet { devices = 1024\n rate = 2 USD/h }\nexpect evals.mpg > 0.2\n"
	for name, text := range map[string]string{"inventory.csv": csv, "plan.gpl": plan} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := newClient(t, dir)
	uri := c.open(filepath.Join(dir, "plan.gpl"), plan)
	if ds := c.waitDiags(uri, 1); len(ds) != 0 {
		t.Fatalf("diagnostics: %v", ds)
	}
	var locs []Location
	c.mustCall("textDocument/definition", pos(uri, 3, 9), &locs)
	want := []Location{{URI: pathURI(filepath.Join(dir, "inventory.csv")), Range: rng(2, 1, 2, 6)}}
	if diff := cmp.Diff(want, locs); diff != "" {
		t.Errorf("definition of a job of the inventory (-want +got):\n%s", diff)
	}
}
