// Package check is the phase of gpl between the syntax and the
// evaluation: it resolves a file and its imports, checks it and compiles
// it.
//
// Input: Options and a file's name and text (NewProgram, then
// Program.AddFile for the file loaded, which reads its imports through
// eval/internal/source, then Program.Check).
//
// Output: a *Program, immutable once Check has run, which the evaluator
// (package eval) reads:
//
//   - Order: every declaration (Decl) in the order declared, each with
//     its kind (Kind, a row of DeclKinds), its slots in an evaluation
//     (Slot, ValueSlot), its checked type (Type) and what was compiled for
//     it: a let's or param's expression (Value, a *Compiled), a pool's,
//     job's, ruleset's or request's plan, a planning declaration's plan;
//   - Fields: every checked block field's compiled expression; a
//     Compiled is an expr program with the references it reads (Ref), or
//     a constant;
//   - Expects: the compiled expects (Expectation), in file order;
//   - Diags: the diagnostics of every pass.
//
// The passes, each in its own files: resolve (load.go, imports.go: read
// the file and its imports, declare names), check (check.go,
// checkdecl.go, names.go, cond.go, and the files named for each kind of
// declaration, jobs.go, planning.go and the others: the types and
// dimensions of every expression, rule condition and block field;
// cycles; did-you-mean), compile (compile.go: expressions into expr
// programs; rules.go: rules into the priority engine's rulesets;
// expect.go: expects). Result names resolve against the table of a job's
// results, eval/internal/results.
package check
