package inventory

import (
	"testing"
	"unicode/utf8"
)

// FuzzInventory reads arbitrary bytes as a CSV inventory: it never
// panics, and every diagnostic is placed inside the text, on a line that
// exists, with its end not before its start.
func FuzzInventory(f *testing.F) {
	for _, seed := range []string{
		"job,on,devices,hours,S,R,P,ceiling.P,owner.P\npretrain,p,768,720h,95%,0.90,0.38,0.45,model performance\n",
		"\ufeffjob,on,devices,hours\r\na,p,8,\"24h\"\r\nb,p,8\r\n",
		"pool,devices,rate,from,to\nr,512,2.10 USD/h,2027-01-01,2027-04-01\n",
		"job,on,hours_h,rate_usd_per_device_hour\nj,p,720h,2.1\n",
		"job,on,hours\nj,p,\"a\"\"b\"\n\"x\ny\",p,1h\n",
		"job,ownr.P,\n,,\n",
		"name\n",
		"",
		"job,on,hours\nj,p,24h * 30\n",
		"job,on,from,to,for\nj,p,2027-01-01,2027-02-01,1wk\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, diags := Parse("inv.csv", src)
		if file == nil {
			t.Fatal("no file")
		}
		for _, d := range diags {
			if d.Pos.Line == 0 {
				continue
			}
			if d.Pos.Offset < 0 || d.Pos.Offset > len(src) || d.Pos.Line < 1 || d.Pos.Column < 1 {
				t.Fatalf("%s: placed outside the text (%d bytes): %+v", d.Summary, len(src), d.Pos)
			}
			if d.End.Line != 0 && d.End.Offset < d.Pos.Offset {
				t.Fatalf("%s: ends before it starts: %+v .. %+v", d.Summary, d.Pos, d.End)
			}
			if !utf8.ValidString(d.Summary) && utf8.Valid(src) {
				t.Fatalf("summary not UTF-8: %q", d.Summary)
			}
		}
		for _, st := range file.Stmts {
			st.Span()
		}
	})
}
