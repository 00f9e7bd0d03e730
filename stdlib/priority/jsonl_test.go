package priority

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAppendJSONL(t *testing.T) {
	tests := []struct {
		name  string
		line  string
		class Class
		rule  string
		want  string
	}{
		{"members", `{"priority":1}`, "throughput", "else", `{"priority":1,"class":"throughput","rule":"else"}`},
		{"empty object", `{}`, "lc", "rule 1", `{"class":"lc","rule":"rule 1"}`},
		{"empty object with space", `{ }`, "lc", "r", `{ "class":"lc","rule":"r"}`},
		{"space before brace", `{"batch_size":4 }`, "lc", "small", `{"batch_size":4 ,"class":"lc","rule":"small"}`},
		{"trailing space kept", `{"priority":0}  `, "lc", "override", `{"priority":0,"class":"lc","rule":"override"}  `},
		{"escaping", `{}`, `a"b\c`, "über <1>", `{"class":"a\"b\\c","rule":"über \u003c1\u003e"}`},
		{"not an object", `[1]`, "lc", "r", `[1]`},
		{"empty line", ``, "lc", "r", ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prefix := "previous\n"
			got := string(AppendJSONL([]byte(prefix), []byte(tt.line), tt.class, tt.rule))
			if diff := cmp.Diff(prefix+tt.want, got); diff != "" {
				t.Errorf("AppendJSONL mismatch (-want +got):\n%s", diff)
			}
			if tt.line != "" && tt.line[0] == '{' {
				var m map[string]any
				if err := json.Unmarshal([]byte(got[len(prefix):]), &m); err != nil {
					t.Fatalf("output is not JSON: %v", err)
				}
				if m["class"] != string(tt.class) || m["rule"] != tt.rule {
					t.Errorf("decoded class, rule = %v, %v", m["class"], m["rule"])
				}
			}
		})
	}
	buf := make([]byte, 0, 256)
	line := []byte(`{"priority":1,"batch_size":8}`)
	if n := testing.AllocsPerRun(100, func() { buf = AppendJSONL(buf[:0], line, "throughput", "rule 5") }); n != 0 {
		t.Errorf("AppendJSONL allocates %v times", n)
	}
}

// TestAppendWithMembersFastPath holds the usual line's shortcut to what
// the scanning path writes, on lines at its edges.
func TestAppendWithMembersFastPath(t *testing.T) {
	lines := []string{`{"a":1}`, `{}`, `{ }`, `{"a":1 }`, `{"a":1}` + "\t", `}`, `x}`, `{"a":"{"}`, `{"a":{}}`, `{"a":[1]}`, "{\"a\":1\n}"}
	for _, members := range []string{`"class":"lc"`, ``} {
		for _, line := range lines {
			got := string(AppendWithMembers([]byte("p"), []byte(line), []byte(members)))
			want := string(appendMembersScanned([]byte("p"), []byte(line), []byte(members)))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("AppendWithMembers(%q, %q) (-scanned +fast):\n%s", line, members, diff)
			}
		}
	}
	if got, want := string(AppendWithMembers(nil, []byte(`{"a":1}`), []byte(`"b":2`))), `{"a":1,"b":2}`; got != want {
		t.Errorf("AppendWithMembers = %q, want %q", got, want)
	}
}
