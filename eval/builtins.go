package eval

import "github.com/gpl-lang/gpl/eval/internal/funcs"

// The functions an expression may call are package funcs's table
// (eval/internal/funcs); these are its names in the embedding API.

// Builtin describes a function an expression may call.
type Builtin = funcs.Builtin

// Builtins lists the functions an expression may call, sorted by name.
func Builtins() []Builtin { return funcs.Builtins() }

// BuiltinNames lists the names of Builtins, sorted, for completion.
func BuiltinNames() []string { return funcs.BuiltinNames() }
