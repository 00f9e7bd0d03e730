module github.com/gpl-lang/gpl

go 1.26.8

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/google/go-cmp v0.7.0
)

require github.com/expr-lang/expr v1.17.8 // indirect
