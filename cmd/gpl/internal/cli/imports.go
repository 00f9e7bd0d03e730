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
