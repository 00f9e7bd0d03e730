package lsp

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

// TestRandomEdits edits the default scenario at random, an incremental
// change at a time, and asks every request at random places after each:
// none may fail with an internal error (a panic recovered), and the last
// version's diagnostics arrive.
func TestRandomEdits(t *testing.T) {
	seed := uint64(1)
	if s, err := strconv.ParseUint(os.Getenv("GPL_LSP_SEED"), 10, 64); err == nil {
		seed = s // another sequence of edits, to look for more
	}
	dir, path, text := workspace(t)
	c := newClient(t, dir)
	uri := c.open(path, text)
	c.waitDiags(uri, 1)
	r := rand.New(rand.NewPCG(seed, 2))
	pieces := []string{"{", "}", "(", ")", "=", "==", "≈", "±", " ", "\n", "720h", "0.5", "$2/h", "let x = ", "job ", "expect ",
		"llama2_70b.", "mpg", "\"", "#", ".", ",", "->", "when ", "2027-01-04", "é", "😀", "\t", "%", "on ", "pool p { devices = 8 }\n"}
	steps := 150
	if testing.Short() {
		steps = 30
	}
	v := 1
	methods := []string{"textDocument/hover", "textDocument/completion", "textDocument/definition", "textDocument/signatureHelp",
		"textDocument/prepareRename", "textDocument/references", "textDocument/rename"}
	for i := 0; i < steps; i++ {
		l := newLines(text)
		from := r.IntN(len(text) + 1)
		to := min(len(text), from+r.IntN(8))
		ins := ""
		if r.IntN(3) > 0 {
			ins = pieces[r.IntN(len(pieces))]
		}
		// Keep to character boundaries, as an editor does.
		for from > 0 && from < len(text) && text[from]&0xC0 == 0x80 {
			from--
		}
		for to < len(text) && text[to]&0xC0 == 0x80 {
			to++
		}
		rg := l.rangeOf(from, to)
		text = text[:from] + ins + text[to:]
		v++
		c.edit(uri, v, rg, ins)
		nl := newLines(text)
		p := nl.position(r.IntN(len(text) + 1))
		m := methods[r.IntN(len(methods))]
		var params any = pos(uri, p.Line, p.Character)
		switch m {
		case "textDocument/references":
			params = ReferenceParams{TextDocumentPositionParams: pos(uri, p.Line, p.Character)}
		case "textDocument/rename":
			params = RenameParams{TextDocumentPositionParams: pos(uri, p.Line, p.Character), NewName: "renamed"}
		}
		for _, call := range []struct {
			m string
			p any
		}{
			{m, params},
			{"textDocument/inlayHint", RangeParams{DocumentParams: DocumentParams{TextDocumentIdentifier{uri}}, Range: rng(0, 0, len(nl.start), 0)}},
			{"textDocument/codeAction", CodeActionParams{DocumentParams: DocumentParams{TextDocumentIdentifier{uri}}, Range: rng(0, 0, len(nl.start), 0)}},
			{"textDocument/documentSymbol", map[string]any{"textDocument": TextDocumentIdentifier{uri}}},
			{"textDocument/rangeFormatting", RangeParams{DocumentParams: DocumentParams{TextDocumentIdentifier{uri}}, Range: rng(p.Line, 0, p.Line+2, 0)}},
		} {
			if err := c.call(call.m, call.p, nil); err != nil && err.Code == codeInternalError {
				t.Fatalf("step %d, %s at %v: %s\ntext:\n%s", i, call.m, p, err.Message, text)
			}
		}
	}
	c.waitDiags(uri, v)
	// The server's text is the client's.
	d := c.srvDoc(uri)
	if got, _ := d.current(); got != text {
		t.Errorf("the server's text differs from the client's:\n%s", firstDiff(got, text))
	}
	c.shutdown()
}

func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return "near " + a[max(0, i-20):min(len(a), i+20)] + " | " + b[max(0, i-20):min(len(b), i+20)]
}
