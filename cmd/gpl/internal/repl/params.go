package repl

import (
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/lang"
)

// :set gives a param a value that stays set, as gpl run --set does for a
// file; :drop takes a declaration out.

func (r *repl) cmdSet(arg string, at lang.Position) {
	// NAME VALUE becomes the NAME=VALUE that eval reads, each character
	// where it was typed, so that a diagnostic points into the command.
	setting := arg
	if i := strings.IndexAny(arg, " \t"); i >= 0 && !strings.Contains(arg[:i], "=") {
		setting = arg[:i] + "=" + arg[i+1:]
	}
	if arg == "" || !strings.Contains(setting, "=") {
		r.errorf("usage: :set NAME VALUE, e.g. :set measured_runtime 0.85")
		return
	}
	scn := r.s.scn()
	name, v, err := scn.ParseSetting(setting)
	if err != nil {
		var le *eval.Error
		if !errors.As(err, &le) {
			r.errorf("%v", err)
			return
		}
		r.report(le.Diagnostics, typed(eval.SetSource, setting, at, nil), scn, le.Sources)
		r.failed = true
		return
	}
	params := maps.Clone(r.s.params)
	params[name] = v
	if _, err := scn.With(params); err != nil {
		var le *eval.Error
		if errors.As(err, &le) {
			r.report(le.Diagnostics, r.s.locate, scn, nil)
		} else {
			r.errorf("%v", err)
		}
		fmt.Fprintf(r.stderr, "note: nothing was set; %s is as it was\n", name)
		r.failed = true
		return
	}
	if err := r.s.se.SetParams(map[string]eval.Value{name: v}); err != nil {
		r.errorf("%v", err)
		return
	}
	r.s.params[name] = v
	line := name + " = " + v.String()
	if was, err := scn.Value(name); err == nil && was != v {
		line += " (was " + was.String() + ")"
	}
	fmt.Fprintln(r.stdout, line)
	r.reportChanges(scn, map[string]bool{name: true})
}

// keepParams gives a new session the params of an old one that it still
// declares, with the same type.
func (r *repl) keepParams(ns *session, params map[string]eval.Value) {
	keep := map[string]eval.Value{}
	for _, p := range ns.scn().Params() {
		if v, ok := params[p.Name]; ok && v.Type == p.Value.Type {
			keep[p.Name] = v
		}
	}
	if len(keep) > 0 && ns.se.SetParams(keep) == nil {
		maps.Copy(ns.params, keep)
	}
}

func (r *repl) cmdDrop(arg string, _ lang.Position) {
	if arg == "" {
		r.errorf("usage: :drop NAME")
		return
	}
	e, ok := r.s.entry(arg)
	if !ok || !e.isDecl() {
		if _, _, imported := r.importedText(arg); imported {
			r.errorf("%s was imported; it goes only with its import", arg)
		} else {
			r.errorf("%s", r.unknownName(arg))
		}
		return
	}
	ch := r.s.drop(arg)
	if err := ch.err(); err != nil {
		r.changeError(err, ch)
		ch.discard()
		fmt.Fprintf(r.stderr, "note: nothing was dropped; %s is still read where the errors show\n", arg)
		r.failed = true
		return
	}
	old := r.s.scn()
	ch.commit()
	fmt.Fprintf(r.stdout, "dropped %s %s\n", e.kind, arg)
	r.reportChanges(old, map[string]bool{arg: true})
}
