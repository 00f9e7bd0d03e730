package lsp

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpl-lang/gpl/scenarios"
)

// client drives a Server over a pair of pipes, as an editor does.
type client struct {
	t     *testing.T
	w     *writer
	inW   *io.PipeWriter
	next  int
	mu    sync.Mutex
	resps map[string]chan *message
	diags chan PublishDiagnosticsParams
	done  chan error
	root  string
	srv   *Server
}

// srvDoc is the server's state of an open document.
func (c *client) srvDoc(uri string) *document { return c.srv.doc(uri) }

// newClient starts a server and initializes it with root as its
// workspace folder ("" for none).
func newClient(t *testing.T, root string) *client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &client{t: t, w: &writer{w: inW}, inW: inW, resps: map[string]chan *message{},
		diags: make(chan PublishDiagnosticsParams, 1000), done: make(chan error, 1), root: root}
	c.srv = newServer(outW, Config{Scenarios: scenarios.Files})
	go func() {
		err := c.srv.serve(inR)
		outW.Close()
		c.done <- err
	}()
	go func() {
		r := newReader(outR)
		for {
			body, err := r.read()
			if err != nil {
				return
			}
			var m message
			if err := json.Unmarshal(body, &m); err != nil {
				t.Errorf("server sent bad JSON %q: %v", body, err)
				return
			}
			switch {
			case m.ID != nil:
				c.mu.Lock()
				ch := c.resps[string(*m.ID)]
				c.mu.Unlock()
				if ch == nil {
					t.Errorf("response to no request: %s", body)
					continue
				}
				ch <- &m
			case m.Method == "textDocument/publishDiagnostics":
				var p PublishDiagnosticsParams
				json.Unmarshal(m.Params, &p)
				c.diags <- p
			}
		}
	}()
	t.Cleanup(func() { inW.Close() })
	params := map[string]any{"capabilities": map[string]any{}}
	if root != "" {
		params["rootUri"] = pathURI(root)
		params["workspaceFolders"] = []map[string]string{{"uri": pathURI(root), "name": "ws"}}
	}
	c.call("initialize", params, nil)
	c.notify("initialized", map[string]any{})
	return c
}

// call sends a request and decodes its result into result; the error is
// the response's.
func (c *client) call(method string, params, result any) *respError {
	c.t.Helper()
	c.next++
	id := json.RawMessage(strings.TrimSpace(string(raw(c.next))))
	ch := make(chan *message, 1)
	c.mu.Lock()
	c.resps[string(id)] = ch
	c.mu.Unlock()
	if err := c.w.write(&message{ID: &id, Method: method, Params: raw(params)}); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return m.Error
		}
		if result != nil {
			if err := json.Unmarshal(m.Result, result); err != nil {
				c.t.Fatalf("%s: result %s: %v", method, m.Result, err)
			}
		}
		return nil
	case <-time.After(20 * time.Second):
		c.t.Fatalf("%s: no response", method)
	}
	return nil
}

// mustCall is call that fails the test on an error response.
func (c *client) mustCall(method string, params, result any) {
	c.t.Helper()
	if err := c.call(method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err.Message)
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.w.notify(method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// open opens a document and returns its URI.
func (c *client) open(path, text string) string {
	uri := pathURI(path)
	if strings.Contains(path, ":") {
		uri = path
	}
	c.notify("textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: uri, LanguageID: "gpl", Version: 1, Text: text}})
	return uri
}

// waitDiags waits for the diagnostics of a version of a document.
func (c *client) waitDiags(uri string, version int) []Diagnostic {
	c.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case p := <-c.diags:
			if p.URI == uri && p.Version != nil && *p.Version == version {
				return p.Diagnostics
			}
			if p.URI == uri && p.Version != nil && *p.Version > version {
				c.t.Fatalf("diagnostics of version %d before those of %d", *p.Version, version)
			}
		case <-deadline:
			c.t.Fatalf("no diagnostics for %s version %d", uri, version)
		}
	}
}

// shutdown ends the session as an editor does, and checks the server
// ended cleanly.
func (c *client) shutdown() {
	c.t.Helper()
	c.mustCall("shutdown", nil, nil)
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		if err != nil {
			c.t.Fatalf("server ended with %v", err)
		}
	case <-time.After(10 * time.Second):
		c.t.Fatal("server did not exit")
	}
}

func pos(uri string, line, char int) TextDocumentPositionParams {
	return TextDocumentPositionParams{DocumentParams: DocumentParams{TextDocumentIdentifier{URI: uri}}, Position: Position{line, char}}
}

// workspace is a temporary workspace holding the default scenario as
// llama.gpl, and its path.
func workspace(t *testing.T) (dir, path, text string) {
	t.Helper()
	b, err := scenarios.Files.ReadFile(scenarios.Default + ".gpl")
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	path = filepath.Join(dir, "llama.gpl")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, path, string(b)
}

// lineOf is the zero-based line of the first line of text holding s, and
// the UTF-16 character s starts at.
func lineOf(t *testing.T, text, s string) (int, int) {
	t.Helper()
	i := strings.Index(text, s)
	if i < 0 {
		t.Fatalf("%q not in the text", s)
	}
	p := newLines(text).position(i)
	return p.Line, p.Character
}
