// Package funcs is the table of the functions a gpl expression may call
// (language §11 and §17): for each built-in, its name, its parameters and
// their dimensions, the dimension of its result, its doc line and the Go
// function that computes it. Its input is nothing but the table; its
// output is what the other phases read of it: the checker a call's form
// and signature (Func, ByName), the compiler the functions registered in
// the expr configuration (PlanningOptions), the evaluator the errors those
// functions return (ArgErrorAt), and the embedding API the list of
// functions (Builtins, BuiltinNames).
package funcs

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gpl-lang/gpl/lang/units"
	"github.com/gpl-lang/gpl/stdlib/reliability"
)

// This file is the table of the functions an expression may call. Each
// row is one built-in: its name, its signature with dimensions, its doc
// line and what computes it. The checker (package eval's names.go and
// functions.go), the compiler's expr configuration (PlanningOptions), the "did you mean" of
// an unknown function and Builtins all read it, so a new function is its
// engine function, one row here and its entry in docs/language.md.

// callForm is how the checker treats a call of a built-in.
type callForm uint8

const (
	// FormNumeric: numbers in, a number out, checked by the row's
	// parameters and result; a run-time fault names the argument.
	FormNumeric callForm = iota
	// formAlike: expr's own min, max, abs and round, whose arguments
	// share one dimension, which the result keeps.
	formAlike
	// FormDecl: the arguments name declarations (or a team) and the call
	// is computed in Go as one ref; its checking is its own.
	FormDecl
	// FormCondition: only a rule's when condition may call it (cond.go).
	FormCondition
	// FormDist: a distribution's constructor, or probability(…), which
	// the checker's uncertain.go treats (language.md §23).
	FormDist
)

// dimRule is what a parameter accepts.
type dimRule uint8

const (
	// DimExact: a number of the parameter's dimension; another is
	// reported at the argument with the unit to write (wrongArgument).
	DimExact dimRule = iota
	// DimCount: a count; a dimensioned number depends on its unit.
	DimCount
	// DimEven: a number whose dimension has only even exponents.
	DimEven
	// dimAny: any number (for formAlike, of the first argument's
	// dimension).
	dimAny
	// dimDecl: a declaration's name or a string (a special form's).
	dimDecl
)

// Param is one parameter of a built-in.
type Param struct {
	Dim     units.Dim
	Name    string // in messages: "the MTBF"
	Example string // a value with its unit, for "write its unit"
	Word    string // in the usage: "mtbf"
	Noun    string // what one argument is, for the arity of a repeating group: "an MTBF"
	Rule    dimRule
	arg     reliability.Arg // the engine's name for it, to place the engine's errors
}

// resultRule says how a call's result dimension is derived.
type resultRule uint8

const (
	// ResultFixed: the row's dim.
	ResultFixed resultRule = iota
	// ResultHalf: the first argument's dimension with each exponent
	// halved.
	ResultHalf
	// ResultFirst: the first argument's type.
	ResultFirst
	// resultSpecial: the special form decides.
	resultSpecial
)

// Func is one row of the table.
type Func struct {
	Name   string
	Doc    string // one line: what the call computes
	Params []Param
	// Optional is how many of the last params may be left out.
	Optional int
	// Repeats: the params are a group written one or more times.
	Repeats bool
	Result  resultRule
	Dim     units.Dim // the result's, for resultFixed
	// Rolls, for a function of a group and a team (owner_saving), is
	// the per-factor job result it adds up over the factors the team
	// owns in the group's jobs: "saving" for saving.F.
	Rolls string
	Form  callForm
	// ExprBuiltin: expr's own function of the same name computes it.
	ExprBuiltin bool
	// Run computes a formNumeric call that is not an exprBuiltin, on
	// numbers in base units. An *argFault or a *reliability.Error it
	// returns is placed at the argument it names.
	Run func(a []float64) (float64, error)
}

// Parameters the reliability functions share, and the dimension of a
// throughput such as 1e6 / 1s.
var (
	mtbfParam    = Param{Dim: units.Duration, Name: "the MTBF", Example: "24h", Word: "mtbf", arg: reliability.ArgMTBF}
	deltaParam   = Param{Dim: units.Duration, Name: "the checkpoint cost", Example: "5min", Word: "checkpoint_cost", arg: reliability.ArgDelta}
	restartParam = Param{Dim: units.Duration, Name: "the restart time", Example: "5min", Word: "restart", arg: reliability.ArgRestart}
	tauParam     = Param{Dim: units.Duration, Name: "the checkpoint interval", Example: "2h", Word: "interval", arg: reliability.ArgTau}
	PerSecond    = units.Count.Div(units.Duration)
)

// numberParam is the one parameter of a function of any number.
func numberParam(rule dimRule) []Param { return []Param{{Word: "x", Noun: "a number", Rule: rule}} }

// declParams are the parameters of a special form, by their words.
func declParams(words ...string) []Param {
	ps := make([]Param, len(words))
	for i, w := range words {
		ps[i] = Param{Word: w, Rule: dimDecl}
	}
	return ps
}

// distParams are the parameters of a distribution's constructor, by
// their words; the checker's uncertain.go checks their dimensions.
func distParams(words ...string) []Param {
	ps := make([]Param, len(words))
	for i, w := range words {
		ps[i] = Param{Word: w, Rule: dimAny}
	}
	return ps
}

// Table lists the built-ins, built on first use, in the order an unknown function's
// message lists them.
var Table = sync.OnceValue(func() []*Func {
	return []*Func{
		{Name: "trade_ratio", Doc: "B.mpg / A.mpg: how many times more useful work job B gets from the same offered hours as job A",
			Params: declParams("A", "B"), Result: resultSpecial, Form: FormDecl},
		{Name: "classify", Doc: "the class the ruleset gives the request",
			Params: declParams("RULES", "REQUEST"), Result: resultSpecial, Form: FormDecl},
		{Name: "min", Doc: "the least of numbers of one dimension", Params: numberParam(dimAny), Repeats: true, Result: ResultFirst, Form: formAlike, ExprBuiltin: true},
		{Name: "max", Doc: "the greatest of numbers of one dimension", Params: numberParam(dimAny), Repeats: true, Result: ResultFirst, Form: formAlike, ExprBuiltin: true},
		{Name: "abs", Doc: "the magnitude, in the argument's dimension", Params: numberParam(dimAny), Result: ResultFirst, Form: formAlike, ExprBuiltin: true},
		{Name: "round", Doc: "the nearest whole count", Params: numberParam(DimCount), Result: ResultFirst, Form: formAlike, ExprBuiltin: true},
		{Name: "has", Doc: "in a rule's when condition: the request has the optional field",
			Params: declParams("FIELD"), Result: resultSpecial, Form: FormCondition},
		{Name: "owner_loss_cost", Doc: "the loss cost of every factor the team owns in the group's jobs, in USD",
			Params: declParams("GROUP", `"team"`), Result: resultSpecial, Form: FormDecl, Rolls: "loss_cost"},
		{Name: "owner_saving", Doc: "the saving of every factor the team owns in the group's jobs, in USD",
			Params: declParams("GROUP", `"team"`), Result: resultSpecial, Form: FormDecl, Rolls: "saving"},
		{Name: "owner_point_value", Doc: "the point value (one more point of the factor) of every factor the team owns in the group's jobs, in USD",
			Params: declParams("GROUP", `"team"`), Result: resultSpecial, Form: FormDecl, Rolls: "point_value"},
		{Name: "sqrt", Doc: "the square root, each exponent of the dimension halved", Params: numberParam(DimEven), Result: ResultHalf,
			Run: func(a []float64) (float64, error) {
				if a[0] < 0 {
					return 0, &argFault{0, "sqrt of a negative number, " + units.FormatNumber(a[0])}
				}
				return math.Sqrt(a[0]), nil
			}},
		{Name: "exp", Doc: "e to the power of a count", Params: numberParam(DimCount), Dim: units.Count,
			Run: func(a []float64) (float64, error) { return math.Exp(a[0]), nil }},
		{Name: "log", Doc: "the natural logarithm of a count above 0", Params: numberParam(DimCount), Dim: units.Count,
			Run: func(a []float64) (float64, error) {
				if !(a[0] > 0) {
					return 0, &argFault{0, "log of " + units.FormatNumber(a[0]) + ": log needs a number above 0"}
				}
				return math.Log(a[0]), nil
			}},
		{Name: "ceil", Doc: "the least whole count not below a count", Params: numberParam(DimCount), Dim: units.Count, ExprBuiltin: true},
		{Name: "floor", Doc: "the greatest whole count not above a count", Params: numberParam(DimCount), Dim: units.Count, ExprBuiltin: true},
		{Name: "young_interval", Doc: "√(2δM), the checkpoint interval for checkpoint cost δ and MTBF M (Young 1974)",
			Params: []Param{deltaParam, mtbfParam}, Dim: units.Duration,
			Run: func(a []float64) (float64, error) { return reliability.YoungInterval(a[0], a[1]) }},
		{Name: "daly_interval", Doc: "Daly's (2006) checkpoint interval for checkpoint cost δ and MTBF M",
			Params: []Param{deltaParam, mtbfParam}, Dim: units.Duration,
			Run: func(a []float64) (float64, error) { return reliability.DalyInterval(a[0], a[1]) }},
		{Name: "runtime_goodput", Doc: "the fraction of held time whose progress is kept, checkpointing every interval (Young's unless given)",
			Params: []Param{mtbfParam, deltaParam, restartParam, tauParam}, Optional: 1, Dim: units.Count,
			Run: func(a []float64) (float64, error) {
				if len(a) == 3 {
					return reliability.RuntimeGoodputYoung(a[0], a[1], a[2])
				}
				return reliability.RuntimeGoodput(a[0], a[1], a[2], a[3])
			}},
		{Name: "fleet_mtbf", Doc: "1 / Σ countᵢ/mtbfᵢ, the MTBF of a system that stops when any part fails",
			Params: []Param{
				{Dim: units.Count, Name: "a part count", Example: "1000", Word: "count", Noun: "a count", arg: reliability.ArgCount},
				{Dim: units.Duration, Name: "a part's MTBF", Example: "20000h", Word: "mtbf", Noun: "an MTBF", arg: reliability.ArgPartMTBF},
			}, Repeats: true, Dim: units.Duration,
			Run: func(a []float64) (float64, error) {
				parts := make([]reliability.Part, len(a)/2)
				for i := range parts {
					parts[i] = reliability.Part{Count: a[2*i], MTBF: a[2*i+1]}
				}
				return reliability.FleetMTBF(parts...)
			}},
		{Name: "normal", Doc: "the normal distribution of a mean and a standard deviation, in the mean's unit", Params: distParams("mean", "sd"), Result: ResultFirst, Form: FormDist},
		{Name: "lognormal", Doc: "the lognormal distribution of a median (above 0) and sigma, the standard deviation of its logarithm (a count)", Params: distParams("median", "sigma"), Result: ResultFirst, Form: FormDist},
		{Name: "uniform", Doc: "the uniform distribution between a low and a high end of one dimension", Params: distParams("low", "high"), Result: ResultFirst, Form: FormDist},
		{Name: "triangular", Doc: "the triangular distribution between a low and a high end, peaking at the mode", Params: distParams("low", "mode", "high"), Result: ResultFirst, Form: FormDist},
		{Name: "beta", Doc: "the beta distribution of shapes α and β (counts above 0): a fraction", Params: distParams("alpha", "beta"), Dim: units.Count, Form: FormDist},
		{Name: "probability", Doc: "the fraction of the samples in which a condition on uncertain values holds", Params: distParams("CONDITION"), Dim: units.Count, Form: FormDist},
		{Name: "mfu", Doc: "model FLOPs utilisation of dense transformer training, 6 FLOP × params × tokens_per_s / (devices × peak)",
			Params: []Param{
				{Dim: PerSecond, Name: "the token throughput", Example: "1e6 / 1s", Word: "tokens_per_s", arg: reliability.ArgTokensPerSecond},
				{Dim: units.Count, Name: "the parameter count", Example: "70e9", Word: "params", arg: reliability.ArgParams},
				{Dim: units.Count, Name: "the device count", Example: "1024", Word: "devices", arg: reliability.ArgDevices},
				{Dim: units.ComputeRate, Name: "the peak of one device", Example: "989 TFLOP/s", Word: "peak", arg: reliability.ArgPeak},
			}, Dim: units.Count,
			Run: func(a []float64) (float64, error) { return reliability.MFU(a[0], a[1], a[2], a[3]) }},
	}
})

// ByName finds a row by name. The map is shared: callers must not
// change it.
func ByName() map[string]*Func { return index().byName }

// Names are the names in table order, for "did you mean".
func Names() []string { return index().names }

var index = sync.OnceValue(func() (ix struct {
	byName map[string]*Func
	names  []string
}) {
	t := Table()
	ix.byName = make(map[string]*Func, len(t))
	ix.names = make([]string, len(t))
	for i, b := range t {
		ix.byName[b.Name] = b
		ix.names[i] = b.Name
	}
	return ix
})

// Builtin describes a function an expression may call.
type Builtin struct {
	// Name is the function's name as a call writes it: "sqrt".
	Name string
	// Usage is how it is called, with its parameters: "sqrt(x)".
	Usage string
	// Doc is one line on what it computes.
	Doc string
	// Rollup is true for a function that rolls a group's figure up by
	// owner (owner_saving), which :explain spells factor by factor.
	Rollup bool
}

// Builtins lists the functions an expression may call, sorted by name.
func Builtins() []Builtin {
	out := make([]Builtin, len(Table()))
	for i, b := range Table() {
		out[i] = Builtin{Name: b.Name, Usage: b.Usage(), Doc: b.Doc, Rollup: b.Rolls != ""}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// BuiltinNames lists the names of Builtins, sorted, for completion.
func BuiltinNames() []string {
	var out []string
	for _, b := range Builtins() {
		out = append(out, b.Name)
	}
	return out
}

// Param is the parameter argument i (0-based) stands for.
func (b *Func) Param(i int) Param { return b.Params[i%len(b.Params)] }

// Fits reports whether a call may pass k arguments.
func (b *Func) Fits(k int) bool {
	n := len(b.Params)
	if b.Repeats {
		return k >= n && k%n == 0
	}
	return k >= n-b.Optional && k <= n
}

// ArityWords says how many arguments the function takes, to follow
// "takes": "one argument", "three or four arguments", "pairs of a count
// and an MTBF".
func (b *Func) ArityWords() string {
	n := len(b.Params)
	switch {
	case b.Repeats && n == 1:
		return "at least one argument"
	case b.Repeats:
		nouns := make([]string, n)
		for i, p := range b.Params {
			nouns[i] = p.Noun
		}
		return groupWord(n) + " of " + andList(nouns)
	case b.Optional == 1:
		return numberWord(n-1) + " or " + numberWord(n) + " arguments"
	case b.Optional > 1:
		return numberWord(n-b.Optional) + " to " + numberWord(n) + " arguments"
	case n == 1:
		return "one argument"
	case n == 0:
		return "no arguments"
	}
	return numberWord(n) + " arguments"
}

// Usage is how the function is called: "young_interval(checkpoint_cost,
// mtbf)", each accepted form of an optional parameter joined by "or".
func (b *Func) Usage() string {
	words := make([]string, len(b.Params))
	for i, p := range b.Params {
		words[i] = p.Word
	}
	if b.Repeats {
		if len(words) == 1 {
			return b.Name + "(" + words[0] + ", …)"
		}
		var parts []string
		for k := 1; k <= 2; k++ {
			for _, w := range words {
				parts = append(parts, w+subscript(k))
			}
		}
		return b.Name + "(" + strings.Join(parts, ", ") + ", …)"
	}
	var forms []string
	for k := len(words) - b.Optional; k <= len(words); k++ {
		forms = append(forms, b.Name+"("+strings.Join(words[:k], ", ")+")")
	}
	return strings.Join(forms, " or ")
}

// groupWord names a group of n arguments written again and again.
func groupWord(n int) string {
	switch n {
	case 2:
		return "pairs"
	case 3:
		return "triples"
	}
	return "groups of " + numberWord(n)
}

// andList joins words as English does: "a, b and c".
func andList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// numberWord spells a small count in words, a larger one in digits.
func numberWord(n int) string {
	words := []string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}
	if n >= 0 && n < len(words) {
		return words[n]
	}
	return strconv.Itoa(n)
}

// subscript writes a positive count in subscript digits: ₁, ₁₂.
func subscript(k int) string {
	var sb strings.Builder
	for _, c := range strconv.Itoa(k) {
		sb.WriteRune('₀' + c - '0')
	}
	return sb.String()
}

// argFault is a built-in's error about its argument i (0-based; -1 for
// the call as a whole).
type argFault struct {
	i   int
	msg string
}

func (e *argFault) Error() string { return e.msg }
