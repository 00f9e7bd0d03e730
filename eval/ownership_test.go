package eval

import (
	"errors"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/gpl-lang/gpl/lang"
)

// ownedText is a small plan whose names are all read back after the
// caller has overwritten the buffer it was loaded from.
const ownedText = "let alpha = 1\nlet beta = alpha + 1\npool p { devices = 8 }\n" +
	"job j on p { hours = 10h  factors { S = 1  R = 1  P = 0.5 } }\nexpect beta == 2\n"

// scribble overwrites b, as a caller reusing its buffer would.
func scribble(b []byte) {
	for i := range b {
		b[i] = 'x'
	}
}

// namesResolve reads every name of ownedText through s and returns what
// it got, so that a test compares it whole.
func namesResolve(t *testing.T, s *Scenario) map[string]string {
	t.Helper()
	got := map[string]string{}
	for _, name := range []string{"alpha", "beta", "j.mpg", "j.devices"} {
		v, err := s.Value(name)
		if err != nil {
			got[name] = "error: " + err.Error()
			continue
		}
		got[name] = v.String()
	}
	for _, n := range s.Names() {
		got["name "+n[0]] = n[1]
	}
	for _, o := range s.Test() {
		got["expect "+o.Expectation.Source] = o.Status()
	}
	return got
}

var ownedWant = map[string]string{
	"alpha": "1", "beta": "2", "j.mpg": "0.5", "j.devices": "8",
	"name alpha": "value", "name beta": "value", "name p": "pool", "name j": "job",
	"expect expect beta == 2": "pass",
}

// TestCallerBuffersAreCopied loads the same text through every entry point
// that takes caller-owned bytes, overwrites the caller's buffer, and checks
// that every name still resolves to its value.
func TestCallerBuffersAreCopied(t *testing.T) {
	load := map[string]func(buf []byte) (*Scenario, error){
		"LoadSource": func(buf []byte) (*Scenario, error) { return LoadSource("plan.gpl", buf) },
		"LoadWith": func(buf []byte) (*Scenario, error) {
			return LoadWith(Options{FS: fstest.MapFS{}}, "plan.gpl", buf)
		},
		"Session.Try": func(buf []byte) (*Scenario, error) {
			se := NewSession(Options{})
			c := se.Try([]Source{{Name: "plan.gpl", Text: buf}}, nil)
			c.Commit()
			return se.Scenario(), c.Err()
		},
		"Session.Try then drop": func(buf []byte) (*Scenario, error) {
			se := NewSession(Options{})
			se.Try([]Source{{Name: "plan.gpl", Text: buf}}, nil).Commit()
			c := se.Try([]Source{{Name: "more.gpl", Text: []byte("let gamma = 3")}}, []string{"nothing"})
			c.Commit()
			return se.Scenario(), c.Err()
		},
	}
	for name, fn := range load {
		t.Run(name, func(t *testing.T) {
			buf := []byte(ownedText)
			s, err := fn(buf)
			if err != nil {
				t.Fatal(err)
			}
			scribble(buf)
			got := namesResolve(t, s)
			if name == "Session.Try then drop" {
				delete(got, "name gamma")
			}
			if diff := cmp.Diff(ownedWant, got); diff != "" {
				t.Errorf("after the caller reused its buffer (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHandedOutTextsAreCopies changes what the API hands out — a
// scenario's sources, a session's sources, an error's sources — and checks
// the scenario is untouched.
func TestHandedOutTextsAreCopies(t *testing.T) {
	se := NewSession(Options{})
	se.Try([]Source{{Name: "plan.gpl", Text: []byte(ownedText)}}, nil).Commit()
	s := se.Scenario()
	for _, text := range s.Sources() {
		scribble(text)
	}
	for _, src := range se.Sources() {
		scribble(src.Text)
	}
	_, err := s.Eval("<bad>", "alpha + unknown_name")
	var le *Error
	if !errors.As(err, &le) {
		t.Fatalf("Eval of an unknown name: %v, want an *Error", err)
	}
	for _, text := range le.Sources {
		scribble(text)
	}
	if diff := cmp.Diff(ownedWant, namesResolve(t, s)); diff != "" {
		t.Errorf("after changing what the API handed out (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(ownedText, string(s.Sources()["plan.gpl"])); diff != "" {
		t.Errorf("Sources()[plan.gpl] (-want +got):\n%s", diff)
	}
}

// TestParseCopies checks that lang.Parse and lang.ParseWith leave the
// caller's buffer the caller's: the tree's names survive its reuse.
func TestParseCopies(t *testing.T) {
	for name, parse := range map[string]func([]byte) (*lang.File, lang.Diagnostics){
		"Parse": func(b []byte) (*lang.File, lang.Diagnostics) { return lang.Parse("plan.gpl", b) },
		"ParseWith": func(b []byte) (*lang.File, lang.Diagnostics) {
			return lang.ParseWith(lang.DefaultLimits, "plan.gpl", b)
		},
	} {
		t.Run(name, func(t *testing.T) {
			buf := []byte(ownedText)
			f, diags := parse(buf)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			scribble(buf)
			var got []string
			for _, st := range f.Stmts {
				if l, ok := st.(*lang.Let); ok {
					got = append(got, l.Name.Name)
				}
			}
			if diff := cmp.Diff([]string{"alpha", "beta"}, got); diff != "" {
				t.Errorf("let names after reuse (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(ownedText, string(f.Src)); diff != "" {
				t.Errorf("File.Src after reuse (-want +got):\n%s", diff)
			}
		})
	}
}
