package main

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gpl-lang/gpl/cmd/gpl/internal/cli"
	"github.com/gpl-lang/gpl/scenarios"
)

// The shell's conventions: --color for every verb, help on standard
// output when asked for, and gpl completion.

// colorFlag takes --color=MODE (or --color MODE) out of args, wherever it
// is before a "--", and returns a getenv that gives the mode under
// cli.ColorKey; false after telling of a bad mode.
func colorFlag(args []string, stderr io.Writer, getenv func(string) string) ([]string, func(string) string, bool) {
	mode, out := "", make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			out = append(out, args[i:]...)
			break
		}
		switch {
		case a == "--color" || a == "-color":
			if i+1 >= len(args) {
				fmt.Fprintln(stderr, "gpl: --color needs a value: auto, always or never")
				return nil, nil, false
			}
			mode = args[i+1]
			i++
		case strings.HasPrefix(a, "--color=") || strings.HasPrefix(a, "-color="):
			_, mode, _ = strings.Cut(a, "=")
		default:
			out = append(out, a)
		}
	}
	if mode == "" {
		return out, getenv, true
	}
	if !cli.OneOf(stderr, "color", mode, cli.ColorModes...) {
		return nil, nil, false
	}
	return out, func(k string) string {
		if k == cli.ColorKey {
			return mode
		}
		return getenv(k)
	}, true
}

// wantsHelp reports whether a verb's arguments ask for its help.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

func init() {
	register("completion", "print the shell's completion script: gpl completion bash|zsh|fish", cmdCompletion)
}

// verbFlags are each verb's flags, for completion, read from its flag set
// by running it with -h into a buffer.
func verbFlags(name string) []string {
	var b strings.Builder
	verbs[name].run(&env{args: []string{"-h"}, stdin: strings.NewReader(""), stdout: &b, stderr: &b, getenv: func(string) string { return "" }})
	seen := map[string]bool{}
	var out []string
	for _, line := range strings.Split(b.String(), "\n") {
		// flag.PrintDefaults: "  -name type" then the usage indented.
		rest, ok := strings.CutPrefix(line, "  -")
		if !ok {
			continue
		}
		name := strings.TrimLeft(rest, "-")
		if i := strings.IndexAny(name, " \t="); i >= 0 {
			name = name[:i]
		}
		if name != "" && name != "h" && !seen[name] && isFlagName(name) {
			seen[name] = true
			if len(name) == 1 {
				out = append(out, "-"+name)
			} else {
				out = append(out, "--"+name)
			}
		}
	}
	out = append(out, "--color=", "--help")
	sort.Strings(out)
	return out
}

func cmdCompletion(e *env) int {
	fset := flag.NewFlagSet("gpl completion", flag.ContinueOnError)
	fset.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: gpl completion bash|zsh|fish")
		fmt.Fprintln(e.stderr, "Prints the script that completes gpl's commands, flags, bundled scenario names and .gpl files, e.g.")
		fmt.Fprintln(e.stderr, "  source <(gpl completion bash)            # bash, in ~/.bashrc")
		fmt.Fprintln(e.stderr, "  source <(gpl completion zsh)             # zsh, in ~/.zshrc")
		fmt.Fprintln(e.stderr, "  gpl completion fish | source             # fish, in config.fish")
	}
	args, code, ok := parseFlags(fset, e)
	if !ok {
		return code
	}
	if len(args) != 1 || !oneOf(e, "shell", args[0], "bash", "zsh", "fish") {
		fset.Usage()
		return exitUsage
	}
	var names []string
	for n := range verbs {
		names = append(names, n)
	}
	sort.Strings(names)
	scn := strings.Join(scenarios.Names(), " ")
	switch args[0] {
	case "bash", "zsh":
		var cases strings.Builder
		for _, n := range names {
			fmt.Fprintf(&cases, "    %s) flags=%q ;;\n", n, strings.Join(verbFlags(n), " "))
		}
		script := bashScript
		if args[0] == "zsh" {
			script = "autoload -U +X bashcompinit && bashcompinit\n" + script
		}
		fmt.Fprintf(e.stdout, script, strings.Join(names, " "), scn, cases.String())
	case "fish":
		fmt.Fprintln(e.stdout, "# gpl completion fish: gpl's commands, flags, bundled scenarios and .gpl files")
		fmt.Fprintln(e.stdout, "complete -c gpl -f")
		for _, n := range names {
			fmt.Fprintf(e.stdout, "complete -c gpl -n __fish_use_subcommand -a %s -d %q\n", n, verbs[n].summary)
		}
		fmt.Fprintf(e.stdout, "complete -c gpl -n '__fish_seen_subcommand_from run report test check' -a '%s' -d 'bundled scenario'\n", scn)
		fmt.Fprintln(e.stdout, "complete -c gpl -n '__fish_seen_subcommand_from run report test check fmt repl' -a '(__fish_complete_suffix .gpl)'")
		fmt.Fprintln(e.stdout, "complete -c gpl -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'")
		fmt.Fprintln(e.stdout, "complete -c gpl -l color -x -a 'auto always never' -d 'colour diagnostics'")
		for _, n := range names {
			for _, f := range verbFlags(n) {
				if f = strings.TrimSuffix(strings.TrimPrefix(f, "--"), "="); f != "color" && f != "help" {
					fmt.Fprintf(e.stdout, "complete -c gpl -n '__fish_seen_subcommand_from %s' -l %s\n", n, f)
				}
			}
		}
	}
	return exitOK
}

// bashScript is the bash (and, through bashcompinit, zsh) completion:
// %[1]s the verbs, %[2]s the bundled scenarios, %[3]s a case arm per verb
// setting its flags.
const bashScript = `# gpl completion bash: gpl's commands, flags, bundled scenarios and .gpl files.
_gpl_complete() {
  local cur verb flags i
  cur="${COMP_WORDS[COMP_CWORD]}"
  COMPREPLY=()
  verb=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "${COMP_WORDS[i]}" in
      -*) ;;
      *) verb="${COMP_WORDS[i]}"; break ;;
    esac
  done
  if [[ -z "$verb" ]]; then
    COMPREPLY=($(compgen -W "%[1]s help --help --version --color=" -- "$cur"))
    return 0
  fi
  case "$verb" in
%[3]s  esac
  case "$cur" in
    --color=*) COMPREPLY=($(compgen -W "auto always never" -- "${cur#--color=}")); return 0 ;;
    -*) COMPREPLY=($(compgen -W "$flags" -- "$cur")); return 0 ;;
  esac
  case "$verb" in
    help) COMPREPLY=($(compgen -W "%[1]s" -- "$cur")); return 0 ;;
    completion) COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")); return 0 ;;
    run|report|test|check) COMPREPLY=($(compgen -W "%[2]s" -- "$cur")) ;;
  esac
  local f
  while IFS= read -r f; do
    [[ -d "$f" || "$f" == *.gpl ]] && COMPREPLY+=("$f")
  done < <(compgen -f -- "$cur")
  return 0
}
complete -o filenames -F _gpl_complete gpl
`

func isFlagName(s string) bool {
	for _, c := range s {
		if !(c == '-' || c == '_' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}
