package eval

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/lang"
	"github.com/gpl-lang/gpl/stdlib/reliability"
)

// This file is the table of the functions an expression may call. Each
// row is one built-in: its name, its signature with dimensions, its doc
// line and what computes it. The checker (names.go, functions.go), the
// compiler's expr configuration (planningOptions), the "did you mean" of
// an unknown function and Builtins all read it, so a new function is its
// engine function, one row here and its entry in docs/language.md.

// callForm is how the checker treats a call of a built-in.
type callForm uint8

const (
	// formNumeric: numbers in, a number out, checked by the row's
	// parameters and result; a run-time fault names the argument.
	formNumeric callForm = iota
	// formAlike: expr's own min, max, abs and round, whose arguments
	// share one dimension, which the result keeps.
	formAlike
	// formDecl: the arguments name declarations (or a team) and the call
	// is computed in Go as one ref; its checking is its own.
	formDecl
	// formCondition: only a rule's when condition may call it (cond.go).
	formCondition
)

// dimRule is what a parameter accepts.
type dimRule uint8

const (
	// dimExact: a number of the parameter's dimension; another is
	// reported at the argument with the unit to write (wrongArgument).
	dimExact dimRule = iota
	// dimCount: a count; a dimensioned number depends on its unit.
	dimCount
	// dimEven: a number whose dimension has only even exponents.
	dimEven
	// dimAny: any number (for formAlike, of the first argument's
	// dimension).
	dimAny
	// dimDecl: a declaration's name or a string (a special form's).
	dimDecl
)

// param is one parameter of a built-in.
type param struct {
	dim     lang.Dim
	name    string // in messages: "the MTBF"
	example string // a value with its unit, for "write its unit"
	word    string // in the usage: "mtbf"
	noun    string // what one argument is, for the arity of a repeating group: "an MTBF"
	rule    dimRule
	arg     reliability.Arg // the engine's name for it, to place the engine's errors
}

// resultRule says how a call's result dimension is derived.
type resultRule uint8

const (
	// resultFixed: the row's dim.
	resultFixed resultRule = iota
	// resultHalf: the first argument's dimension with each exponent
	// halved.
	resultHalf
	// resultFirst: the first argument's type.
	resultFirst
	// resultSpecial: the special form decides.
	resultSpecial
)

// builtin is one row of the table.
type builtin struct {
	name   string
	doc    string // one line: what the call computes
	params []param
	// optional is how many of the last params may be left out.
	optional int
	// repeats: the params are a group written one or more times.
	repeats bool
	result  resultRule
	dim     lang.Dim // the result's, for resultFixed
	form    callForm
	// exprBuiltin: expr's own function of the same name computes it.
	exprBuiltin bool
	// run computes a formNumeric call that is not an exprBuiltin, on
	// numbers in base units. An *argFault or a *reliability.Error it
	// returns is placed at the argument it names.
	run func(a []float64) (float64, error)
}

// Parameters the reliability functions share, and the dimension of a
// throughput such as 1e6 / 1s.
var (
	mtbfParam    = param{dim: lang.Duration, name: "the MTBF", example: "24h", word: "mtbf", arg: reliability.ArgMTBF}
	deltaParam   = param{dim: lang.Duration, name: "the checkpoint cost", example: "5min", word: "checkpoint_cost", arg: reliability.ArgDelta}
	restartParam = param{dim: lang.Duration, name: "the restart time", example: "5min", word: "restart", arg: reliability.ArgRestart}
	tauParam     = param{dim: lang.Duration, name: "the checkpoint interval", example: "2h", word: "interval", arg: reliability.ArgTau}
	perSecond    = lang.Count.Div(lang.Duration)
)

// numberParam is the one parameter of a function of any number.
func numberParam(rule dimRule) []param { return []param{{word: "x", noun: "a number", rule: rule}} }

// declParams are the parameters of a special form, by their words.
func declParams(words ...string) []param {
	ps := make([]param, len(words))
	for i, w := range words {
		ps[i] = param{word: w, rule: dimDecl}
	}
	return ps
}

// builtinTable lists the built-ins in the order an unknown function's
// message lists them.
var builtinTable = []*builtin{
	{name: "trade_ratio", doc: "B.mpg / A.mpg: how many times more useful work job B gets from the same offered hours as job A",
		params: declParams("A", "B"), result: resultSpecial, form: formDecl},
	{name: "classify", doc: "the class the ruleset gives the request",
		params: declParams("RULES", "REQUEST"), result: resultSpecial, form: formDecl},
	{name: "min", doc: "the least of numbers of one dimension", params: numberParam(dimAny), repeats: true, result: resultFirst, form: formAlike, exprBuiltin: true},
	{name: "max", doc: "the greatest of numbers of one dimension", params: numberParam(dimAny), repeats: true, result: resultFirst, form: formAlike, exprBuiltin: true},
	{name: "abs", doc: "the magnitude, in the argument's dimension", params: numberParam(dimAny), result: resultFirst, form: formAlike, exprBuiltin: true},
	{name: "round", doc: "the nearest whole count", params: numberParam(dimCount), result: resultFirst, form: formAlike, exprBuiltin: true},
	{name: "has", doc: "in a rule's when condition: the request has the optional field",
		params: declParams("FIELD"), result: resultSpecial, form: formCondition},
	{name: "owner_loss_cost", doc: "the loss cost of every factor the team owns in the group's jobs, in USD",
		params: declParams("GROUP", `"team"`), result: resultSpecial, form: formDecl},
	{name: "owner_saving", doc: "the saving of every factor the team owns in the group's jobs, in USD",
		params: declParams("GROUP", `"team"`), result: resultSpecial, form: formDecl},
	{name: "sqrt", doc: "the square root, each exponent of the dimension halved", params: numberParam(dimEven), result: resultHalf,
		run: func(a []float64) (float64, error) {
			if a[0] < 0 {
				return 0, &argFault{0, "sqrt of a negative number, " + lang.FormatNumber(a[0])}
			}
			return math.Sqrt(a[0]), nil
		}},
	{name: "exp", doc: "e to the power of a count", params: numberParam(dimCount), dim: lang.Count,
		run: func(a []float64) (float64, error) { return math.Exp(a[0]), nil }},
	{name: "log", doc: "the natural logarithm of a count above 0", params: numberParam(dimCount), dim: lang.Count,
		run: func(a []float64) (float64, error) {
			if !(a[0] > 0) {
				return 0, &argFault{0, "log of " + lang.FormatNumber(a[0]) + ": log needs a number above 0"}
			}
			return math.Log(a[0]), nil
		}},
	{name: "ceil", doc: "the least whole count not below a count", params: numberParam(dimCount), dim: lang.Count, exprBuiltin: true},
	{name: "floor", doc: "the greatest whole count not above a count", params: numberParam(dimCount), dim: lang.Count, exprBuiltin: true},
	{name: "young_interval", doc: "√(2δM), the checkpoint interval for checkpoint cost δ and MTBF M (Young 1974)",
		params: []param{deltaParam, mtbfParam}, dim: lang.Duration,
		run: func(a []float64) (float64, error) { return reliability.YoungInterval(a[0], a[1]) }},
	{name: "daly_interval", doc: "Daly's (2006) checkpoint interval for checkpoint cost δ and MTBF M",
		params: []param{deltaParam, mtbfParam}, dim: lang.Duration,
		run: func(a []float64) (float64, error) { return reliability.DalyInterval(a[0], a[1]) }},
	{name: "runtime_goodput", doc: "the fraction of held time whose progress is kept, checkpointing every interval (Young's unless given)",
		params: []param{mtbfParam, deltaParam, restartParam, tauParam}, optional: 1, dim: lang.Count,
		run: func(a []float64) (float64, error) {
			if len(a) == 3 {
				return reliability.RuntimeGoodputYoung(a[0], a[1], a[2])
			}
			return reliability.RuntimeGoodput(a[0], a[1], a[2], a[3])
		}},
	{name: "fleet_mtbf", doc: "1 / Σ countᵢ/mtbfᵢ, the MTBF of a system that stops when any part fails",
		params: []param{
			{dim: lang.Count, name: "a part count", example: "1000", word: "count", noun: "a count", arg: reliability.ArgCount},
			{dim: lang.Duration, name: "a part's MTBF", example: "20000h", word: "mtbf", noun: "an MTBF", arg: reliability.ArgPartMTBF},
		}, repeats: true, dim: lang.Duration,
		run: func(a []float64) (float64, error) {
			parts := make([]reliability.Part, len(a)/2)
			for i := range parts {
				parts[i] = reliability.Part{Count: a[2*i], MTBF: a[2*i+1]}
			}
			return reliability.FleetMTBF(parts...)
		}},
	{name: "mfu", doc: "model FLOPs utilisation of dense transformer training, 6 FLOP × params × tokens_per_s / (devices × peak)",
		params: []param{
			{dim: perSecond, name: "the token throughput", example: "1e6 / 1s", word: "tokens_per_s", arg: reliability.ArgTokensPerSecond},
			{dim: lang.Count, name: "the parameter count", example: "70e9", word: "params", arg: reliability.ArgParams},
			{dim: lang.Count, name: "the device count", example: "1024", word: "devices", arg: reliability.ArgDevices},
			{dim: lang.ComputeRate, name: "the peak of one device", example: "989 TFLOP/s", word: "peak", arg: reliability.ArgPeak},
		}, dim: lang.Count,
		run: func(a []float64) (float64, error) { return reliability.MFU(a[0], a[1], a[2], a[3]) }},
}

// builtins finds a row by name; builtinNames are the names in table
// order, for "did you mean".
var builtins, builtinNames = func() (map[string]*builtin, []string) {
	m := make(map[string]*builtin, len(builtinTable))
	names := make([]string, len(builtinTable))
	for i, b := range builtinTable {
		m[b.name] = b
		names[i] = b.name
	}
	return m, names
}()

// Builtin describes a function an expression may call.
type Builtin struct {
	// Name is the function's name as a call writes it: "sqrt".
	Name string
	// Usage is how it is called, with its parameters: "sqrt(x)".
	Usage string
	// Doc is one line on what it computes.
	Doc string
}

// Builtins lists the functions an expression may call, sorted by name.
func Builtins() []Builtin {
	out := make([]Builtin, len(builtinTable))
	for i, b := range builtinTable {
		out[i] = Builtin{Name: b.name, Usage: b.usage(), Doc: b.doc}
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

// param is the parameter argument i (0-based) stands for.
func (b *builtin) param(i int) param { return b.params[i%len(b.params)] }

// fits reports whether a call may pass k arguments.
func (b *builtin) fits(k int) bool {
	n := len(b.params)
	if b.repeats {
		return k >= n && k%n == 0
	}
	return k >= n-b.optional && k <= n
}

// arityWords says how many arguments the function takes, to follow
// "takes": "one argument", "three or four arguments", "pairs of a count
// and an MTBF".
func (b *builtin) arityWords() string {
	n := len(b.params)
	switch {
	case b.repeats && n == 1:
		return "at least one argument"
	case b.repeats:
		nouns := make([]string, n)
		for i, p := range b.params {
			nouns[i] = p.noun
		}
		return groupWord(n) + " of " + andList(nouns)
	case b.optional == 1:
		return numberWord(n-1) + " or " + numberWord(n) + " arguments"
	case b.optional > 1:
		return numberWord(n-b.optional) + " to " + numberWord(n) + " arguments"
	case n == 1:
		return "one argument"
	case n == 0:
		return "no arguments"
	}
	return numberWord(n) + " arguments"
}

// usage is how the function is called: "young_interval(checkpoint_cost,
// mtbf)", each accepted form of an optional parameter joined by "or".
func (b *builtin) usage() string {
	words := make([]string, len(b.params))
	for i, p := range b.params {
		words[i] = p.word
	}
	if b.repeats {
		if len(words) == 1 {
			return b.name + "(" + words[0] + ", …)"
		}
		var parts []string
		for k := 1; k <= 2; k++ {
			for _, w := range words {
				parts = append(parts, w+subscript(k))
			}
		}
		return b.name + "(" + strings.Join(parts, ", ") + ", …)"
	}
	var forms []string
	for k := len(words) - b.optional; k <= len(words); k++ {
		forms = append(forms, b.name+"("+strings.Join(words[:k], ", ")+")")
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
