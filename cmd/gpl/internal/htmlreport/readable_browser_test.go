package htmlreport

import (
	"bytes"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/scenarios"
)

// hugePlan has figures of every magnitude the page meets: millions of
// devices, hundreds of billions of device-hours, money in the hundreds of
// trillions, beside a job of one device-hour.
const hugePlan = `pool big { devices = 2000000  rate = 1000 USD/h }
job huge on big {
  hours    = 100000h
  factors  { scheduling = 0.95  runtime = 0.9  program = 0.33 }
  ceilings { scheduling = 0.99  runtime = 0.95  program = 0.5 }
}
job small on big {
  devices = 1
  hours   = 1h
  factors { S = 0.5  R = 0.5  P = 0.5 }
}
group all { huge, small }
compare options { huge, small }
sweep fleet over huge { vary devices from 1000000 to 3000000 step 1000000 }
sweep grid over huge {
  vary devices in [1000000, 2000000]
  vary hours in [50000h, 100000h]
}
solve need over huge { find devices in [1, 10000000] such that useful_hours >= 20000000000h }
`

// measure is run in the browser after the page has loaded (the page
// itself has no script: the test adds this one to its copy). It records
// every text whose contrast with what is behind it is below 4.5:1 (WCAG
// AA), computed from the rendered styles — for SVG text, the fill of the
// shape under the text's centre; every tick label whose box meets its
// chart's rotated axis title; and every table cell holding a number that
// takes more than one line.
const measure = `<script>
(function () {
  function parse(c) {
    var m = /rgba?\(([^)]+)\)/.exec(c || "");
    if (!m) return null;
    var p = m[1].split(",").map(parseFloat);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
  }
  function lum(c) {
    function f(v) { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  }
  function ratio(a, b) {
    var x = lum(a), y = lum(b);
    if (x < y) { var t = x; x = y; y = t; }
    return Math.round((x + 0.05) / (y + 0.05) * 100) / 100;
  }
  var white = {r: 255, g: 255, b: 255, a: 1};
  function background(el) {
    for (var e = el; e; e = e.parentElement) {
      var c = parse(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0) return c;
    }
    return white;
  }
  var out = {contrast: [], overlap: [], wrap: [], texts: 0};
  var walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), n;
  while ((n = walk.nextNode())) {
    var el = n.parentElement;
    if (!n.data.trim() || el.closest("svg") || el.closest("script")) continue;
    out.texts++;
    var r = ratio(parse(getComputedStyle(el).color), background(el));
    if (r < 4.5) out.contrast.push(el.tagName.toLowerCase() + " " + JSON.stringify(n.data.trim().slice(0, 40)) + " " + r);
  }
  document.querySelectorAll("svg text").forEach(function (t) {
    t.scrollIntoView({block: "center"});
    var b = t.getBoundingClientRect();
    if (!b.width) return;
    out.texts++;
    var st = getComputedStyle(t), halo = parse(st.stroke), bg = white;
    if (halo && halo.a > 0 && parseFloat(st.strokeWidth) >= 2 && st.paintOrder.indexOf("stroke") === 0) {
      bg = halo; // drawn on a halo of its own
    } else {
      var under = document.elementsFromPoint(b.left + b.width / 2, b.top + b.height / 2);
      for (var i = 0; i < under.length; i++) {
        var e = under[i], tag = e.tagName.toLowerCase();
        if (tag === "svg") break;
        if (tag === "text" || tag === "line" || tag === "tspan") continue;
        var f = parse(getComputedStyle(e).fill);
        if (f && f.a > 0) { bg = f; break; }
      }
    }
    var r = ratio(parse(getComputedStyle(t).fill), bg);
    if (r < 4.5) out.contrast.push("svg text." + t.getAttribute("class") + " " + JSON.stringify(t.textContent.slice(0, 40)) + " " + r);
  });
  document.querySelectorAll("svg.chart").forEach(function (svg) {
    var ticks = svg.querySelectorAll("text.tick");
    svg.querySelectorAll("text.axis-label[transform]").forEach(function (a) {
      var ab = a.getBoundingClientRect();
      ticks.forEach(function (k) {
        var kb = k.getBoundingClientRect();
        if (ab.left < kb.right && kb.left < ab.right && ab.top < kb.bottom && kb.top < ab.bottom)
          out.overlap.push(svg.parentElement.id + ": tick " + JSON.stringify(k.textContent) + " meets " + JSON.stringify(a.textContent));
      });
      if (ab.left < svg.getBoundingClientRect().left) out.overlap.push(svg.parentElement.id + ": the axis title leaves the chart");
    });
  });
  document.querySelectorAll("td").forEach(function (td) {
    var s = td.textContent.trim();
    if (!/^[−+\-$]?[0-9][0-9,.]*( ?[A-Za-z/%]+)?$/.test(s)) return;
    td.scrollIntoView({block: "center"});
    var rg = document.createRange(), tops = {};
    rg.selectNodeContents(td);
    [].forEach.call(rg.getClientRects(), function (r) { if (r.width > 0) tops[Math.round(r.top)] = true; });
    if (Object.keys(tops).length > 1) out.wrap.push(s);
  });
  var pre = document.createElement("pre");
  pre.id = "gpl-measure";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>`

var measured = regexp.MustCompile(`(?s)<pre id="gpl-measure">(.*?)</pre>`)

// TestBrowserReadable renders every bundled scenario, the planning test
// files and a plan of huge figures in one page, at two window widths,
// and measures in Chromium what a reader meets: every text at 4.5:1 or
// more against what is behind it, no tick label over its axis title at
// any magnitude, no number broken over two lines.
func TestBrowserReadable(t *testing.T) {
	bin := chromium(t)
	var files []File
	for _, name := range scenarios.Names() {
		src, _ := scenarios.Files.ReadFile(name + ".gpl")
		s, err := eval.LoadWith(eval.Options{FS: scenarios.Files}, name+".gpl", src)
		if err != nil {
			t.Fatal(err)
		}
		f, err := FromScenario(s, nil, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	for _, name := range planningFiles {
		f := load(t, name)
		f.Name = name
		files = append(files, f)
	}
	s, err := eval.LoadSource("huge.gpl", []byte(hugePlan))
	if err != nil {
		t.Fatal(err)
	}
	f, err := FromScenario(s, nil, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, f)
	var b bytes.Buffer
	if err := Write(&b, Report{Files: files}); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "readable.html")
	src := strings.Replace(b.String(), "</body>", measure+"</body>", 1)
	if err := os.WriteFile(page, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, width := range []string{"1024", "760"} {
		t.Run(width, func(t *testing.T) {
			dom, _, _ := browse(t, bin, page, "--window-size="+width+",1400")
			m := measured.FindStringSubmatch(dom)
			if m == nil {
				t.Fatal("the measuring script left no result")
			}
			var got struct {
				Contrast, Overlap, Wrap []string
				Texts                   int
			}
			if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &got); err != nil {
				t.Fatal(err)
			}
			if got.Texts < 1000 {
				t.Errorf("only %d texts measured", got.Texts)
			}
			for _, c := range []struct {
				what string
				got  []string
			}{{"texts below 4.5:1", got.Contrast}, {"tick labels over the axis title", got.Overlap}, {"numbers on two lines", got.Wrap}} {
				if diff := cmp.Diff([]string(nil), c.got, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("%s (-want +got):\n%s", c.what, diff)
				}
			}
		})
	}
}
