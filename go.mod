module github.com/gpl-lang/gpl

go 1.26.8

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/creack/pty v1.1.24
	github.com/expr-lang/expr v1.17.8
	github.com/google/go-cmp v0.7.0
	github.com/peterh/liner v1.2.2
	github.com/rogpeppe/go-internal v1.16.0
)

require (
	github.com/mattn/go-runewidth v0.0.3 // indirect
	golang.org/x/sys v0.26.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)
