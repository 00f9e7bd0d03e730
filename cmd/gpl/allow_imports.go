package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

// importDirs collects repeated --allow-imports DIR flags: directories,
// besides each file's own, that its relative imports may read from
// (eval.Options.AllowImports).
type importDirs []string

func (d *importDirs) String() string { return strings.Join(*d, " ") }

// Set adds one directory, which must exist.
func (d *importDirs) Set(dir string) error {
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

// register adds the --allow-imports flag to fs.
func (d *importDirs) register(fs *flag.FlagSet) {
	fs.Var(d, "allow-imports", "let imports also read .gpl files under `DIR` (repeatable); otherwise an import stays inside its file's directory")
}
