// Package eval runs gpl scenarios. Loading a file goes through one phase
// after another, each a package whose input and output are named types,
// and each reporting every diagnostic it finds:
//
//	syntax    package lang: source text ([]byte) → *lang.File, with the
//	          file's syntax diagnostics
//	resolve,  package eval/internal/check: Options, the file's name and
//	check,    text, its imports read through eval/internal/source →
//	compile   *check.Program: the declarations (check.Decl) in the order
//	          they were declared, each with its checked type and compiled
//	          form (check.Compiled: an expr program and the references it
//	          reads; a ruleset for the priority engine; a job's inputs),
//	          the compiled expects (Expectation) and the diagnostics of the
//	          passes. A Program is immutable once Check has run.
//	evaluate  package eval (evaluate.go, jobs.go and the files named for
//	          the other kinds of declaration):
//	          a *check.Program and the values of its params → *Scenario,
//	          the values of every let, param, pool, job, ruleset, request
//	          and planning declaration, with the evaluation's diagnostics
//	judge     package eval (expect.go): a Scenario and its
//	          Expectations → Outcomes
//	explain   package eval/internal/explain: a Job or a planning
//	          declaration and a result's name → the lines that show how
//	          it is computed, read through interfaces (explain.Job,
//	          explain.Scenario, explain.Point) that eval implements in
//	          explain.go
//
// Each evaluation of a program (with the file's params, or others given
// by the caller) is a Scenario with buffers of its own, so one program
// serves many goroutines evaluating different params at once. What the
// check pass leaves is data the evaluator reads: the evaluate step of each
// kind of declaration is the evaluator's table (evalKinds), apart from the
// check pass's (check.DeclKinds); what a planning reference reads
// (check.Ref.Plan) is computed by the evaluator switching on its type
// (Scenario.planValue); the run-time columns of the table of a job's
// results are the evaluator's (resultRuns, by results.Def.Index); a
// ruleset that reads values is compiled again for each evaluation by the
// check package's RuleConds, given a function that reads the evaluation's
// values (check.ReadRef).
//
// Below it are packages that know less than it does, each importing none
// of eval:
//
//	internal/check    the check phase above; imports source, value,
//	                  funcs, suggest and results
//	internal/explain  the explain phase above; imports check, results
//	                  and value
//	internal/results  the table of a job's results (name, type, doc,
//	                  formula, the engine's figure, the group rule) that
//	                  check and eval both read
//	internal/source   where an import may read from: paths, file systems,
//	                  the size cap (input: an import path; output: text)
//	internal/value    the values and types every phase shares (Value,
//	                  Type, Kind), which eval names in its API
//	internal/funcs    the table of built-in functions: signatures for the
//	                  checker, the functions the compiled expressions call,
//	                  the errors they word for the argument at fault
//	internal/suggest  the "did you mean" of every pass (input: candidate
//	                  names; output: the likely one)
//	internal/rewrite  how gpl test -update writes a new wanted literal
//	                  (input: the literal as written and the value got;
//	                  output: the new literal's text)
//
// It is also the embedding API: a Go program loads a file with LoadFile (or
// Load from an fs.FS), reads any job's results or classifies requests by
// name, and evaluates the file again with new params with Scenario.With.
//
// A service bounds and narrows each evaluation with Scenario.Evaluate: a
// context whose deadline or cancellation stops it within a step of work
// (a declaration, a sweep's point, a solve's try, an engine run), a budget
// of engine runs, points and samples (MaxEngineRuns, MaxPoints,
// MaxSamples), and Only, which computes the declarations named and what
// they read; a stop is a *StopError, errors.Is ErrCanceled or ErrBudget.
// Scenario.Query compiles a query once for reading against every
// evaluation of the file (Query.Read, 0 allocations), and Quantity, Count
// and BoolValue make typed settings. docs/embedding.md has a what-if
// service built on them.
package eval
