// Package format is the printer behind gpl fmt: FormatFile, Print and
// FormatSource write a parsed .gpl file (lang.Parse) in its canonical
// layout, every comment kept, and ExprString writes one expression on one
// line as that layout does. docs/fmt.md describes the layout.
//
// The printer checks its own output before returning it: the output must
// hold the source's tokens and comments, in order, so that formatting
// changes only layout.
package format
