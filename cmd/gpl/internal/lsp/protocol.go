package lsp

import "encoding/json"

// The protocol's types the server reads and writes, named and shaped as
// the LSP 3.17 specification has them, trimmed to the members used.

// Position is a place in a document: a zero-based line and a character
// offset in UTF-16 code units, the protocol's default encoding.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is a span of a document; End is exclusive.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range in a document named by URI.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// Diagnostic severities.
const (
	SeverityError   = 1
	SeverityWarning = 2
)

// Diagnostic is a problem shown in the editor.
type Diagnostic struct {
	Range              Range                          `json:"range"`
	Severity           int                            `json:"severity"`
	Code               string                         `json:"code,omitempty"`
	Source             string                         `json:"source"`
	Message            string                         `json:"message"`
	RelatedInformation []DiagnosticRelatedInformation `json:"relatedInformation,omitempty"`
}

// DiagnosticRelatedInformation is a hint or a second place a diagnostic
// points at.
type DiagnosticRelatedInformation struct {
	Location Location `json:"location"`
	Message  string   `json:"message"`
}

// PublishDiagnosticsParams are the diagnostics of one document version.
type PublishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// TextEdit replaces a range with new text.
type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// WorkspaceEdit is edits of several documents.
type WorkspaceEdit struct {
	Changes map[string][]TextEdit `json:"changes"`
}

// TextDocumentItem is an opened document.
type TextDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int    `json:"version"`
	Text       string `json:"text"`
}

// TextDocumentIdentifier names a document.
type TextDocumentIdentifier struct {
	URI string `json:"uri"`
}

// VersionedTextDocumentIdentifier names a document version.
type VersionedTextDocumentIdentifier struct {
	URI     string `json:"uri"`
	Version int    `json:"version"`
}

// TextDocumentContentChangeEvent is one change: the whole text when Range
// is nil, else the range replaced.
type TextDocumentContentChangeEvent struct {
	Range *Range `json:"range,omitempty"`
	Text  string `json:"text"`
}

// DidOpenTextDocumentParams, DidChangeTextDocumentParams and
// DidCloseTextDocumentParams are the document notifications' params.
type DidOpenTextDocumentParams struct {
	TextDocument TextDocumentItem `json:"textDocument"`
}

// DidChangeTextDocumentParams is a document's changes, applied in order.
type DidChangeTextDocumentParams struct {
	TextDocument   VersionedTextDocumentIdentifier  `json:"textDocument"`
	ContentChanges []TextDocumentContentChangeEvent `json:"contentChanges"`
}

// DidCloseTextDocumentParams names the document closed.
type DidCloseTextDocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

// TextDocumentPositionParams is a place in a document, what hover,
// definition, completion and signature help take.
type TextDocumentPositionParams struct {
	DocumentParams
	Position Position `json:"position"`
}

// DocumentParams are the member of a request's params that names the
// document it is about, which every request on one document has.
type DocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

func (p *DocumentParams) document() string { return p.TextDocument.URI }

// ReferenceParams asks for the uses of a name.
type ReferenceParams struct {
	TextDocumentPositionParams
	Context struct {
		IncludeDeclaration bool `json:"includeDeclaration"`
	} `json:"context"`
}

// RenameParams asks to rename the name at a place.
type RenameParams struct {
	TextDocumentPositionParams
	NewName string `json:"newName"`
}

// RangeParams is a document and a range: inlay hints, range formatting.
type RangeParams struct {
	DocumentParams
	Range Range `json:"range"`
}

// CodeActionParams asks for the actions at a range.
type CodeActionParams struct {
	DocumentParams
	Range   Range `json:"range"`
	Context struct {
		Diagnostics []Diagnostic `json:"diagnostics"`
	} `json:"context"`
}

// MarkupContent is hover text in Markdown.
type MarkupContent struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

// Hover is what hovering over a name shows.
type Hover struct {
	Contents MarkupContent `json:"contents"`
	Range    *Range        `json:"range,omitempty"`
}

// InlayHint is a label shown in the text.
type InlayHint struct {
	Position    Position `json:"position"`
	Label       string   `json:"label"`
	Kind        int      `json:"kind,omitempty"`
	PaddingLeft bool     `json:"paddingLeft,omitempty"`
}

// DocumentSymbol is one entry of the outline.
type DocumentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail,omitempty"`
	Kind           int              `json:"kind"`
	Range          Range            `json:"range"`
	SelectionRange Range            `json:"selectionRange"`
	Children       []DocumentSymbol `json:"children,omitempty"`
}

// Symbol kinds used.
const (
	SymbolNamespace = 3
	SymbolClass     = 5
	SymbolField     = 8
	SymbolEnum      = 10
	SymbolFunction  = 12
	SymbolVariable  = 13
	SymbolConstant  = 14
	SymbolStruct    = 23
	SymbolObject    = 19
	SymbolEvent     = 24
)

// CompletionItem is one completion.
type CompletionItem struct {
	Label  string `json:"label"`
	Kind   int    `json:"kind,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// Completion item kinds used.
const (
	CompletionFunction = 3
	CompletionField    = 5
	CompletionVariable = 6
	CompletionClass    = 7
	CompletionUnit     = 11
	CompletionValue    = 12
	CompletionKeyword  = 14
)

// CompletionList is the completions at a place.
type CompletionList struct {
	IsIncomplete bool             `json:"isIncomplete"`
	Items        []CompletionItem `json:"items"`
}

// SignatureHelp is the signature of the call around the cursor.
type SignatureHelp struct {
	Signatures      []SignatureInformation `json:"signatures"`
	ActiveSignature int                    `json:"activeSignature"`
	ActiveParameter int                    `json:"activeParameter"`
}

// SignatureInformation is one signature.
type SignatureInformation struct {
	Label         string                 `json:"label"`
	Documentation string                 `json:"documentation,omitempty"`
	Parameters    []ParameterInformation `json:"parameters"`
}

// ParameterInformation is one parameter of a signature.
type ParameterInformation struct {
	Label         string `json:"label"`
	Documentation string `json:"documentation,omitempty"`
}

// CodeAction is a quick fix.
type CodeAction struct {
	Title       string         `json:"title"`
	Kind        string         `json:"kind"`
	Diagnostics []Diagnostic   `json:"diagnostics,omitempty"`
	IsPreferred bool           `json:"isPreferred,omitempty"`
	Edit        *WorkspaceEdit `json:"edit"`
}

// InitializeParams are what the server reads of initialize's params.
type InitializeParams struct {
	RootURI          string `json:"rootUri"`
	WorkspaceFolders []struct {
		URI string `json:"uri"`
	} `json:"workspaceFolders"`
}

// raw is a value already encoded, or nil for JSON null.
func raw(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("null")
	}
	return b
}
