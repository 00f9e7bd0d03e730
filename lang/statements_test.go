package lang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// rowsByType is "TYPE KEYWORD" for each row of Statements, sorted.
func rowsByType() []string {
	var rows []string
	for _, st := range Statements {
		rows = append(rows, reflect.TypeOf(st.node()).Elem().Name()+" "+st.Keyword)
	}
	sort.Strings(rows)
	return rows
}

// TestStatementsMatchGrammar checks the table against the grammar the
// struct tags give: every statement of the grammar's union, with each
// keyword it can start with, is exactly one row, and every row is one.
func TestStatementsMatchGrammar(t *testing.T) {
	g := Grammar()
	union := regexp.MustCompile(`(?m)^Stmt = (.*) \.$`).FindStringSubmatch(g)
	if union == nil {
		t.Fatalf("no Stmt production in the grammar:\n%s", g)
	}
	var fromGrammar []string
	for _, typ := range strings.Split(union[1], " | ") {
		prod := regexp.MustCompile(`(?m)^` + typ + ` = (.*)$`).FindStringSubmatch(g)
		if prod == nil {
			t.Fatalf("no production for %s:\n%s", typ, g)
		}
		// The production starts with its keyword, "job", or with a choice
		// of keywords, ("let" | "param").
		head := regexp.MustCompile(`^(\("[a-z]+"( \| "[a-z]+")*\)|"[a-z]+")`).FindString(prod[1])
		if head == "" {
			t.Fatalf("%s does not start with a keyword: %s", typ, prod[1])
		}
		for _, kw := range regexp.MustCompile(`"([a-z]+)"`).FindAllStringSubmatch(head, -1) {
			fromGrammar = append(fromGrammar, typ+" "+kw[1])
		}
	}
	sort.Strings(fromGrammar)
	if diff := cmp.Diff(fromGrammar, rowsByType()); diff != "" {
		t.Errorf("the grammar's statements and Statements differ (-grammar +table):\n%s", diff)
	}
}

// TestStatementsCoverNodeTypes checks that every type of the package with
// a Keyword method, which every statement has (Stmt), is the node of a
// row: a statement type left out of the table is left out of the grammar.
func TestStatementsCoverNodeTypes(t *testing.T) {
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	seen := map[string]bool{}
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Name.Name != "Keyword" {
				continue
			}
			if star, ok := fn.Recv.List[0].Type.(*ast.StarExpr); ok {
				seen[star.X.(*ast.Ident).Name] = true
			}
		}
	}
	var withKeyword, inTable []string
	for n := range seen {
		withKeyword = append(withKeyword, n)
	}
	inRows := map[string]bool{}
	for _, st := range Statements {
		if n := reflect.TypeOf(st.node()).Elem().Name(); !inRows[n] {
			inRows[n] = true
			inTable = append(inTable, n)
		}
	}
	sort.Strings(withKeyword)
	sort.Strings(inTable)
	if diff := cmp.Diff(withKeyword, inTable); diff != "" {
		t.Errorf("types with a Keyword method and the node types of Statements differ (-methods +table):\n%s", diff)
	}
}

// TestStatementRows checks each row against its example: it parses to one
// statement of the row, which names what it declares exactly when the row
// says it does.
func TestStatementRows(t *testing.T) {
	keywords := map[string]bool{}
	for i := range Statements {
		st := &Statements[i]
		t.Run(st.Keyword, func(t *testing.T) {
			if keywords[st.Keyword] {
				t.Fatalf("two rows for %q", st.Keyword)
			}
			keywords[st.Keyword] = true
			if st.Doc == "" || !strings.HasPrefix(st.Doc, st.Keyword) {
				t.Errorf("Doc %q does not start with the keyword", st.Doc)
			}
			if got := st.node().Keyword(); got != st.Keyword {
				t.Errorf("the row's node has keyword %q", got)
			}
			f, ds := Parse("example.gpl", []byte(st.Example))
			if ds.HasErrors() || len(f.Stmts) != 1 {
				t.Fatalf("the example %q: %d statements, %v", st.Example, len(f.Stmts), ds)
			}
			s := f.Stmts[0]
			if got := StatementOf(s); got != st {
				t.Errorf("StatementOf(the example) is the row of %q", got.Keyword)
			}
			if LookupStatement(st.Keyword) != st {
				t.Errorf("LookupStatement(%q) is not the row", st.Keyword)
			}
			if (st.Name != nil) != (st.Noun != "") || (st.Name != nil) != declaringKeywords[st.Keyword] {
				t.Errorf("Name set %v, Noun %q, declaring %v: want all or none", st.Name != nil, st.Noun, declaringKeywords[st.Keyword])
			}
			if st.Name != nil {
				toks := Tokens("example.gpl", st.Example, false)
				if id := st.Name(s); id == nil || id.Name != toks[1].Value {
					t.Errorf("Name(the example) = %v, want %q, the name after the keyword", id, toks[1].Value)
				}
			}
			if st.InBlock != (st.Keyword == "expect" || st.Keyword == "owners") {
				t.Errorf("InBlock = %v", st.InBlock)
			}
		})
	}
	if LookupStatement("on") != nil || LookupStatement("vary") != nil {
		t.Error("LookupStatement finds a word that starts no statement")
	}
}

// TestUnreservedStatements pins which statement keywords are reserved:
// all but the planning statements', which may name a declaration.
func TestUnreservedStatements(t *testing.T) {
	var unreserved []string
	for _, st := range Statements {
		if !IsKeyword(st.Keyword) {
			unreserved = append(unreserved, st.Keyword)
		}
	}
	sort.Strings(unreserved)
	if diff := cmp.Diff([]string{"compare", "group", "solve", "sweep"}, unreserved); diff != "" {
		t.Errorf("unreserved statement keywords (-want +got):\n%s", diff)
	}
}
