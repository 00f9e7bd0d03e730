package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
)

// Config is what the command gives the server.
type Config struct {
	// Scenarios is where import "scenarios/NAME" reads a bundled scenario.
	Scenarios fs.FS
	// Debounce is how long after a change the document is checked again
	// and its diagnostics published; a change within it cancels the check.
	Debounce time.Duration
	// Log, when set, receives a line for each request that failed.
	Log io.Writer
}

// Server is one connection's state: its open documents and workspace.
type Server struct {
	cfg      Config
	out      *writer
	mu       sync.Mutex
	docs     map[string]*document
	roots    []string // workspace folders, as paths
	init     bool
	shutdown bool
	stdDir   string // where std/ files are written for go to definition
	wg       sync.WaitGroup
}

// document is an open document and its latest check.
type document struct {
	uri     string
	name    string // the file name eval reads it under
	mu      sync.Mutex
	version int
	text    string
	cancel  context.CancelFunc

	amu  sync.Mutex // held while a check runs
	last *analysis
}

// Serve answers the messages on in, writing to out, until exit; the
// error is nil after shutdown then exit, else what ended the connection.
func Serve(in io.Reader, out io.Writer, cfg Config) error {
	return newServer(out, cfg).serve(in)
}

func newServer(out io.Writer, cfg Config) *Server {
	return &Server{cfg: cfg, out: &writer{w: out}, docs: map[string]*document{}}
}

func (s *Server) serve(in io.Reader) error {
	defer func() {
		s.mu.Lock()
		for _, d := range s.docs {
			d.stop()
		}
		s.mu.Unlock()
		s.wg.Wait()
		if s.stdDir != "" {
			os.RemoveAll(s.stdDir) // the bundled files written for definitions
		}
	}()
	r := newReader(in)
	for {
		body, err := r.read()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return errors.New("the client closed the connection without exit")
			}
			return err
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			s.out.write(&message{ID: rawNull(), Error: &respError{codeParseError, "cannot read the message: " + err.Error()}})
			continue
		}
		if m.Method == "exit" {
			if s.shutdown {
				return nil
			}
			return errors.New("exit without shutdown")
		}
		s.handle(&m)
	}
}

func rawNull() *json.RawMessage {
	r := json.RawMessage("null")
	return &r
}

// handlers answer requests: the params in, a result or an error out.
var handlers = map[string]func(s *Server, params json.RawMessage) (any, error){
	"initialize":                        (*Server).initialize,
	"shutdown":                          func(s *Server, _ json.RawMessage) (any, error) { s.shutdown = true; return nil, nil },
	"textDocument/hover":                (*Server).hover,
	"textDocument/inlayHint":            (*Server).inlayHints,
	"textDocument/definition":           (*Server).definition,
	"textDocument/references":           (*Server).references,
	"textDocument/rename":               (*Server).rename,
	"textDocument/prepareRename":        (*Server).prepareRename,
	"textDocument/documentSymbol":       (*Server).documentSymbols,
	"textDocument/completion":           (*Server).completion,
	"textDocument/signatureHelp":        (*Server).signatureHelp,
	"textDocument/formatting":           (*Server).formatting,
	"textDocument/rangeFormatting":      (*Server).rangeFormatting,
	"textDocument/codeAction":           (*Server).codeActions,
	"textDocument/diagnostic":           nil, // not offered: diagnostics are pushed
	"workspace/executeCommand":          nil,
	"textDocument/semanticTokens/full":  nil,
	"textDocument/documentHighlight":    nil,
	"textDocument/foldingRange":         nil,
	"textDocument/selectionRange":       nil,
	"textDocument/documentLink":         nil,
	"textDocument/implementation":       nil,
	"textDocument/typeDefinition":       nil,
	"textDocument/declaration":          nil,
	"textDocument/onTypeFormatting":     nil,
	"workspace/symbol":                  nil,
	"textDocument/codeLens":             nil,
	"textDocument/prepareCallHierarchy": nil,
}

// notifications are the notifications acted on; others are ignored.
var notifications = map[string]func(s *Server, params json.RawMessage) error{
	"initialized":            func(*Server, json.RawMessage) error { return nil },
	"textDocument/didOpen":   (*Server).didOpen,
	"textDocument/didChange": (*Server).didChange,
	"textDocument/didClose":  (*Server).didClose,
	"textDocument/didSave":   (*Server).didSave,
}

// handle answers one message; a panic in a handler is answered as an
// internal error, and the server goes on.
func (s *Server) handle(m *message) {
	if m.ID == nil {
		if m.Method == "" {
			return // a response to a request of ours: none is sent
		}
		fn := notifications[m.Method]
		if fn == nil {
			return
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					s.logf("%s: internal error: %v\n%s", m.Method, r, debug.Stack())
				}
			}()
			if err := fn(s, m.Params); err != nil {
				s.logf("%s: %v", m.Method, err)
			}
		}()
		return
	}
	reply := &message{ID: m.ID}
	func() {
		defer func() {
			if r := recover(); r != nil {
				s.logf("%s: internal error: %v\n%s", m.Method, r, debug.Stack())
				reply.Result = nil
				reply.Error = &respError{codeInternalError, fmt.Sprintf("internal error in gpl lsp (a bug): %v", r)}
			}
		}()
		fn, known := handlers[m.Method]
		switch {
		case !known || fn == nil:
			reply.Error = &respError{codeMethodNotFound, "gpl lsp does not offer " + m.Method}
		case !s.init && m.Method != "initialize":
			reply.Error = &respError{codeNotInitialized, "the server is not initialized"}
		default:
			res, err := fn(s, m.Params)
			if err != nil {
				var re *respError
				if !errors.As(err, &re) {
					re = &respError{codeRequestFailed, err.Error()}
				}
				reply.Error = re
				return
			}
			reply.Result = raw(res)
		}
	}()
	if reply.Error == nil && reply.Result == nil {
		reply.Result = json.RawMessage("null")
	}
	s.out.write(reply)
}

func (s *Server) logf(format string, args ...any) {
	if s.cfg.Log != nil {
		fmt.Fprintf(s.cfg.Log, "gpl lsp: "+format+"\n", args...)
	}
}

func (s *Server) initialize(params json.RawMessage) (any, error) {
	var p InitializeParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &respError{codeInvalidParams, err.Error()}
	}
	for _, f := range p.WorkspaceFolders {
		s.roots = append(s.roots, uriPath(f.URI))
	}
	if len(s.roots) == 0 && p.RootURI != "" {
		s.roots = append(s.roots, uriPath(p.RootURI))
	}
	s.init = true
	return map[string]any{
		"capabilities": map[string]any{
			"positionEncoding":                "utf-16",
			"textDocumentSync":                map[string]any{"openClose": true, "change": 2}, // incremental
			"hoverProvider":                   true,
			"inlayHintProvider":               true,
			"definitionProvider":              true,
			"referencesProvider":              true,
			"renameProvider":                  map[string]any{"prepareProvider": true},
			"documentSymbolProvider":          true,
			"completionProvider":              map[string]any{"triggerCharacters": []string{"."}},
			"signatureHelpProvider":           map[string]any{"triggerCharacters": []string{"(", ","}},
			"documentFormattingProvider":      true,
			"documentRangeFormattingProvider": true,
			"codeActionProvider":              map[string]any{"codeActionKinds": []string{"quickfix"}},
		},
		"serverInfo": map[string]any{"name": "gpl lsp"},
	}, nil
}

func (s *Server) didOpen(params json.RawMessage) error {
	var p DidOpenTextDocumentParams
	if err := json.Unmarshal(params, &p); err != nil {
		return err
	}
	d := &document{uri: p.TextDocument.URI, name: uriPath(p.TextDocument.URI), version: p.TextDocument.Version, text: p.TextDocument.Text}
	s.mu.Lock()
	if old := s.docs[d.uri]; old != nil {
		old.stop()
	}
	s.docs[d.uri] = d
	s.mu.Unlock()
	s.schedule(d)
	return nil
}

func (s *Server) didChange(params json.RawMessage) error {
	var p DidChangeTextDocumentParams
	if err := json.Unmarshal(params, &p); err != nil {
		return err
	}
	d := s.doc(p.TextDocument.URI)
	if d == nil {
		return fmt.Errorf("change to %s, which is not open", p.TextDocument.URI)
	}
	d.mu.Lock()
	text := d.text
	for _, c := range p.ContentChanges {
		if c.Range == nil {
			text = c.Text
			continue
		}
		l := newLines(text)
		from, to := l.offset(c.Range.Start), l.offset(c.Range.End)
		if to < from {
			from, to = to, from
		}
		text = text[:from] + c.Text + text[to:]
	}
	d.text, d.version = text, p.TextDocument.Version
	d.mu.Unlock()
	s.schedule(d)
	return nil
}

func (s *Server) didClose(params json.RawMessage) error {
	var p DidCloseTextDocumentParams
	if err := json.Unmarshal(params, &p); err != nil {
		return err
	}
	s.mu.Lock()
	d := s.docs[p.TextDocument.URI]
	delete(s.docs, p.TextDocument.URI)
	s.mu.Unlock()
	if d != nil {
		d.stop()
		s.out.notify("textDocument/publishDiagnostics", PublishDiagnosticsParams{URI: d.uri, Diagnostics: []Diagnostic{}})
	}
	return nil
}

// didSave checks the other open documents again: one may import the file
// saved, which a check reads from the disk.
func (s *Server) didSave(params json.RawMessage) error {
	var p DidCloseTextDocumentParams // the same textDocument member
	if err := json.Unmarshal(params, &p); err != nil {
		return err
	}
	s.mu.Lock()
	var others []*document
	for uri, d := range s.docs {
		if uri != p.TextDocument.URI {
			others = append(others, d)
		}
	}
	s.mu.Unlock()
	for _, d := range others {
		d.amu.Lock()
		d.last = nil
		d.amu.Unlock()
		s.schedule(d)
	}
	return nil
}

func (s *Server) doc(uri string) *document {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs[uri]
}

// stop cancels the document's pending check.
func (d *document) stop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cancel != nil {
		d.cancel()
		d.cancel = nil
	}
}

// schedule checks the document again after the debounce and publishes
// its diagnostics, unless a newer change comes first: that cancels this
// check, and a check whose version is no longer the document's publishes
// nothing.
func (s *Server) schedule(d *document) {
	ctx, cancel := context.WithCancel(context.Background())
	d.mu.Lock()
	if d.cancel != nil {
		d.cancel()
	}
	d.cancel = cancel
	version := d.version
	d.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		defer func() {
			if r := recover(); r != nil {
				s.logf("checking %s: internal error: %v\n%s", d.uri, r, debug.Stack())
			}
		}()
		if s.cfg.Debounce > 0 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(s.cfg.Debounce):
			}
		}
		if ctx.Err() != nil {
			return
		}
		a := s.analyze(d)
		if a.version != version {
			return
		}
		diags := s.lspDiagnostics(a) // before d.mu: it takes s.mu, which is taken before d.mu
		d.mu.Lock()
		defer d.mu.Unlock()
		if ctx.Err() != nil || d.version != version {
			return
		}
		v := version
		s.out.notify("textDocument/publishDiagnostics", PublishDiagnosticsParams{URI: d.uri, Version: &v, Diagnostics: diags})
	}()
}

// analysis is one version of a document, checked and evaluated.
type analysis struct {
	version   int
	name      string
	text      string
	lines     *lines
	toksOnce  sync.Once
	namesOnce sync.Once
	names     []CompletionItem // the declared names, sorted (declaredNames)
	toks      []lang.Token     // the text's tokens, made when first asked for (tokens)
	scn       *eval.Scenario   // nil when loading failed outright
	diags     lang.Diagnostics // the load's, then the failed expects'
	tests     []eval.Outcome
	file      *lang.File // the document's own parsed file
}

// current is the document's text and version.
func (d *document) current() (string, int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.text, d.version
}

// analyze checks the document's current version, or returns the check
// already made of it.
func (s *Server) analyze(d *document) *analysis {
	text, version := d.current()
	d.amu.Lock()
	defer d.amu.Unlock()
	if d.last != nil && d.last.version == version && d.last.text == text {
		return d.last
	}
	a := s.check(d.name, text)
	a.version = version
	d.last = a
	return a
}

// check loads text as the file name, with its imports, and runs its
// expects.
func (s *Server) check(name, text string) (a *analysis) {
	a = &analysis{name: name, text: text, lines: newLines(text)}
	opts := eval.Options{Scenarios: s.cfg.Scenarios, AllowImports: s.allowed(name)}
	defer func() {
		if r := recover(); r != nil {
			s.logf("checking %s: internal error: %v\n%s", name, r, debug.Stack())
			a.scn = nil
			a.diags = lang.Diagnostics{{Severity: lang.Error, Summary: fmt.Sprintf("internal error in gpl (a bug): %v", r), Code: "internal_error"}}
		}
	}()
	scn, err := eval.LoadWith(opts, name, []byte(text))
	a.scn = scn
	var le *eval.Error
	switch {
	case errors.As(err, &le):
		a.diags = append(a.diags, le.Diagnostics...)
	case err != nil:
		a.diags = append(a.diags, &lang.Diagnostic{Severity: lang.Error, Summary: err.Error()})
	case scn != nil:
		a.diags = append(a.diags, scn.Diagnostics()...)
	}
	if scn == nil {
		return a
	}
	for _, f := range scn.Files() {
		if f.Name == name {
			a.file = f
		}
	}
	a.tests = scn.Test()
	for _, o := range a.tests {
		if !o.Pass && o.Diagnostic != nil {
			if o.Diagnostic.Code == "" {
				o.Diagnostic.Code = "expect_failure"
				if o.Err {
					o.Diagnostic.Code = "expect_error"
				}
			}
			a.diags = append(a.diags, o.Diagnostic)
		}
	}
	return a
}

// allowed are the directories a document's relative imports may read
// from besides its own: the workspace folder that holds it.
func (s *Server) allowed(name string) []string {
	var out []string
	for _, r := range s.roots {
		if rel, err := filepath.Rel(r, name); err == nil && !strings.HasPrefix(rel, "..") {
			out = append(out, r)
		}
	}
	return out
}

// source is the text of a file a diagnostic or a definition names: an
// open document's, the analysis's own, one the scenario read, or the
// file on disk.
func (s *Server) source(a *analysis, name string) (string, bool) {
	if name == a.name {
		return a.text, true
	}
	if d := s.doc(pathURI(name)); d != nil {
		t, _ := d.current()
		return t, true
	}
	if a.scn != nil {
		for _, f := range a.scn.Files() {
			if f.Name == name {
				return string(f.Src), true
			}
		}
	}
	b, err := os.ReadFile(name)
	return string(b), err == nil
}

// tokens are the text's significant tokens, scanned when first needed: a
// check alone, to publish diagnostics, does without them.
func (a *analysis) tokens() []lang.Token {
	a.toksOnce.Do(func() { a.toks = tokens(a.name, a.text) })
	return a.toks
}
