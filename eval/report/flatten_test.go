package report

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFlatten reads a document as gpl table does: nested keys joined by
// dots, typed values under their unit, arrays of scalars joined, arrays of
// objects left out, escapes decoded, numbers plain.
func TestFlatten(t *testing.T) {
	doc := `{"name":"a \"b\"","n":1e+21,"f":{"x":0.5,"y":null},"v":{"type":"money","usd":3},` +
		`"p":{"param":true,"type":"count","count":2},"s":{"type":"string","string":"hi"},` +
		`"jobs":["a","b"],"owners":[{"owner":"x"}],"ok":true}`
	var got []string
	for _, c := range flatten("", []byte(doc)) {
		got = append(got, c.key+"="+c.cell.Text)
	}
	want := []string{`name=a "b"`, "n=1000000000000000000000", "f.x=0.5", "f.y=", "v_usd=3", "p=2", "s=hi", "jobs=a;b", "ok=true"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// FuzzFlatten reads any bytes without a panic or an endless loop, and
// reads what encoding/json writes of them as the same scalar.
func FuzzFlatten(f *testing.F) {
	for _, s := range []string{`{"a":{"b":[1,2]}}`, `{"type":"money","usd":1}`, `"\u00e9"`, `[{"x":1},"y"]`, `{"a":"`, `"`, `{`, `[`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		flatten("", data)
		var v any
		if json.Unmarshal(data, &v) == nil {
			if s, ok := v.(string); ok {
				b, _ := json.Marshal(s)
				if r := flatten("", b); len(r) != 1 || r[0].cell.Text != s {
					t.Fatalf("%q read as %+v", s, r)
				}
			}
		}
	})
}
