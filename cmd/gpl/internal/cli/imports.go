package cli

import (
	"flag"
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/gpl-lang/gpl/eval"
)

// ImportDirs collects repeated --allow-imports DIR flags: directories,
// besides each file's own, that its relative imports may read from
// (eval.Options.AllowImports).
type ImportDirs []string

func (d *ImportDirs) String() string { return strings.Join(*d, " ") }

// Set adds one directory, which must exist.
func (d *ImportDirs) Set(dir string) error {
	info, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("no such directory")
	}
	if !info.IsDir() {
		return fmt.Errorf("not a directory")
	}
	*d = append(*d, dir)
	return nil
}

// Register adds the --allow-imports flag to fs.
func (d *ImportDirs) Register(fs *flag.FlagSet) {
	fs.Var(d, "allow-imports", "let imports also read .gpl files under `DIR` (repeatable); otherwise an import stays inside its file's directory")
}

// MaxPointsFlag adds --max-points, the cap on one sweep's points, to fs.
func MaxPointsFlag(fs *flag.FlagSet) *int {
	return IntFlag(fs, "max-points", eval.DefaultMaxPoints, 1, math.MaxInt32, "the most points one sweep may have")
}

// Sampling is the flags of an uncertain file's sampling (language.md
// §23): --samples and --seed.
type Sampling struct {
	Samples, Seed *int
}

// SamplingFlags adds --samples N and --seed S to fs.
func SamplingFlags(fs *flag.FlagSet) Sampling {
	return Sampling{
		Samples: IntFlag(fs, "samples", eval.DefaultSamples, 1, 10_000_000, "how many samples an uncertain file is evaluated over"),
		Seed:    IntFlag(fs, "seed", 1, 1, math.MaxInt32, "the seed of an uncertain file's samples: the same seed and samples give the same figures"),
	}
}

// Apply sets the sampling of opts from the flags.
func (s Sampling) Apply(opts eval.Options) eval.Options {
	if s.Samples != nil {
		opts.Samples = *s.Samples
	}
	if s.Seed != nil {
		opts.Seed = uint64(*s.Seed)
	}
	return opts
}

// LoadFlags are the flags of every verb that loads files, registered in
// one place so that each verb spells and documents them alike:
// --allow-imports and --max-points for all, and for a verb that
// evaluates, --set, --samples and --seed.
type LoadFlags struct {
	Sets      Settings   // --set NAME=VALUE, in the order given
	Allow     ImportDirs // --allow-imports DIR
	MaxPoints *int       // --max-points N
	Sampling  Sampling   // --samples N, --seed S; nil pointers for a verb that does not evaluate
}

// AddLoadFlags registers the load flags on fs. evaluates adds --set,
// --samples and --seed, which only a verb that evaluates a file reads;
// setHelp is the usage text of --set (empty for the plain one).
func AddLoadFlags(fs *flag.FlagSet, evaluates bool, setHelp string) *LoadFlags {
	l := &LoadFlags{}
	if evaluates {
		if setHelp == "" {
			setHelp = "replace a param's value: `NAME=VALUE` (repeatable)"
		}
		fs.Var(&l.Sets, "set", setHelp)
	}
	l.Allow.Register(fs)
	l.MaxPoints = MaxPointsFlag(fs)
	if evaluates {
		l.Sampling = SamplingFlags(fs)
	}
	return l
}

// Options are the eval options the flags give, over base (which carries
// what the verb sets itself, such as the bundled scenarios).
func (l *LoadFlags) Options(base eval.Options) eval.Options {
	base.AllowImports = l.Allow
	if l.MaxPoints != nil {
		base.MaxPoints = *l.MaxPoints
	}
	return l.Sampling.Apply(base)
}
