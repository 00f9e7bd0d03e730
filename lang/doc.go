// Package lang is the gpl language itself: how a .gpl file is read, and
// what it means to the reader before anything is evaluated.
//
// It owns:
//
//   - the scanner (scan.go, token.go): Lexer, Tokens and Scanner, the
//     token predicates, and the reserved words (Keywords);
//   - the grammar, whose structs are the syntax tree (ast.go,
//     ast_owners.go, ast_planning.go, expr.go, expr_planning.go), and the
//     parser (parse.go): Parse, ParseWith, ParseExpr, EachStatement, with
//     the recovery after a syntax error (recover.go) and the hints that
//     name a likely fix (hints.go), under the input limits of limits.go;
//   - the table of statement kinds, Statements (statements.go), which the
//     grammar, the statement splitter of the recovery and the REPL read:
//     a statement added to the language is a row there;
//   - positions: Position, and its compact forms Pos, StartMark and
//     EndMark (pos.go), with the slabs a large file's tree is kept in
//     (slab.go, compact.go);
//   - units and dimensions of values, and their formatting (units.go);
//   - Diagnostic, Diagnostics and their renderer, which prints a source
//     line with a caret under the cause (diag.go).
//
// The printer behind gpl fmt, which writes a parsed file in its canonical
// layout, is the package lang/format; it imports lang, and lang never
// imports it. Evaluation is the package eval.
package lang
