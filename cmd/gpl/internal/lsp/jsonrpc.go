// Package lsp is gpl's language server (gpl lsp): the Language Server
// Protocol 3.17 over JSON-RPC 2.0 on a pair of streams. It computes
// nothing itself: every diagnostic, value, explanation, completion and
// layout comes from package eval (Load, Check, the report model, :explain's
// texts) and package lang (the scanner, the gpl fmt printer); the server
// maps them to the protocol's positions and messages.
//
// The framing and the few protocol types the server uses are written here
// over encoding/json rather than taken from a protocol library: see
// docs/editors/README.md for why.
package lsp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// message is one JSON-RPC 2.0 message: a request (ID and Method), a
// notification (Method alone) or a response (ID with Result or Error).
type message struct {
	JSONRPC string           `json:"jsonrpc"`
	ID      *json.RawMessage `json:"id,omitempty"`
	Method  string           `json:"method,omitempty"`
	Params  json.RawMessage  `json:"params,omitempty"`
	Result  json.RawMessage  `json:"result,omitempty"`
	Error   *respError       `json:"error,omitempty"`
}

// respError is a response's error.
type respError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *respError) Error() string { return e.Message }

// JSON-RPC and LSP error codes.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternalError  = -32603
	codeNotInitialized = -32002
	codeRequestFailed  = -32803
)

// maxMessage is the largest message read, in bytes: a document of 64 MiB
// and its JSON quoting.
const maxMessage = 256 << 20

// reader reads framed messages: a Content-Length header, a blank line,
// then that many bytes of JSON.
type reader struct{ r *bufio.Reader }

func newReader(r io.Reader) *reader { return &reader{bufio.NewReaderSize(r, 64<<10)} }

// read returns the next message's body; io.EOF at the end of the stream.
func (r *reader) read() ([]byte, error) {
	h, err := r.header()
	if err != nil {
		if errors.Is(err, io.EOF) && len(h) == 0 {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("reading a message header: %w", err)
	}
	cl := strings.TrimSpace(h["content-length"])
	n, err := strconv.Atoi(cl)
	if err != nil || n < 0 || n > maxMessage {
		return nil, fmt.Errorf("bad Content-Length %q", cl)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r.r, body); err != nil {
		return nil, fmt.Errorf("reading a message body: %w", err)
	}
	return body, nil
}

// maxHeader is the longest header block read, in bytes.
const maxHeader = 64 << 10

// header reads a message's header lines up to the blank line that ends
// them, "Name: value" each (a line starting with a space or tab continues
// the one before), and returns them by lower-case name; the first of a
// name repeated wins. At the end of the stream before any line it returns
// io.EOF and no header; in the middle of a header, io.ErrUnexpectedEOF.
func (r *reader) header() (map[string]string, error) {
	h := map[string]string{}
	last, size := "", 0
	for {
		line, err := r.r.ReadString('\n')
		if err != nil {
			if err == io.EOF && line == "" && size == 0 {
				return h, io.EOF
			}
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return h, err
		}
		if size += len(line); size > maxHeader {
			return h, errors.New("header too long")
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			return h, nil
		}
		if line[0] == ' ' || line[0] == '\t' {
			if last == "" {
				return h, fmt.Errorf("malformed header line %q", line)
			}
			h[last] += " " + strings.TrimSpace(line)
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok || name == "" || strings.TrimSpace(name) != name {
			return h, fmt.Errorf("malformed header line %q", line)
		}
		last = strings.ToLower(name)
		if _, dup := h[last]; !dup {
			h[last] = strings.TrimSpace(value)
		}
	}
}

// writer writes framed messages, one at a time.
type writer struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *writer) write(m *message) error {
	m.JSONRPC = "2.0"
	body, err := json.Marshal(m)
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := fmt.Fprintf(w.w, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
		return err
	}
	_, err = w.w.Write(body)
	return err
}

// notify sends a notification.
func (w *writer) notify(method string, params any) error {
	b, err := json.Marshal(params)
	if err != nil {
		return err
	}
	return w.write(&message{Method: method, Params: b})
}
