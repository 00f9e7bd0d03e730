package htmlreport

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/gpl-lang/gpl/eval"
	"github.com/gpl-lang/gpl/eval/report"
	"github.com/gpl-lang/gpl/scenarios"
)

// chromium finds a Chromium binary, or skips the test naming the package
// that brings one.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium binary: install Debian's chromium package (apt-get install -y chromium) to run the browser test")
	return ""
}

// offline are the flags every run of the browser gets: no name resolves,
// so nothing the page or the browser asks for can leave the machine, and
// the browser's own background services stay off.
var offline = []string{
	"--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars",
	`--host-resolver-rules=MAP * ~NOTFOUND`,
	"--disable-background-networking", "--disable-component-update", "--disable-sync",
	"--no-first-run", "--disable-default-apps", "--disable-extensions", "--no-pings",
	"--enable-logging=stderr", "--v=0",
}

// browse opens a file in headless Chromium and returns the DOM after load,
// the URLs the page itself requested (from Chromium's net log: requests
// whose network isolation key is the file:// page's) other than file:
// URLs, and the console messages logged.
func browse(t *testing.T, bin, page string, extra ...string) (dom string, requests, console []string) {
	t.Helper()
	netlog := filepath.Join(t.TempDir(), "netlog.json")
	args := append(append([]string{}, offline...), "--log-net-log="+netlog, "--user-data-dir="+t.TempDir())
	args = append(append(args, extra...), "--dump-dom", "file://"+page)
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(l, ":CONSOLE") {
			console = append(console, l)
		}
	}
	return stdout.String(), pageRequests(t, netlog), console
}

// pageRequests lists the non-file URLs that the page (not the browser's
// own services) asked for, from a net log.
func pageRequests(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Events []struct {
			Params map[string]any `json:"params"`
		} `json:"events"`
	}
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatalf("net log: %v", err)
	}
	seen := map[string]bool{}
	var out []string
	for _, e := range log.Events {
		url, _ := e.Params["url"].(string)
		key, _ := e.Params["network_isolation_key"].(string)
		if url == "" || !strings.HasPrefix(key, "file://") || strings.HasPrefix(url, "file:") || seen[url] {
			continue
		}
		seen[url] = true
		out = append(out, url)
	}
	return out
}

// TestBrowserSeesARequest checks the detector itself: a page that loads
// an image from the network is caught, and its console error is read.
func TestBrowserSeesARequest(t *testing.T) {
	bin := chromium(t)
	page := filepath.Join(t.TempDir(), "leak.html")
	src := `<!DOCTYPE html><p>x</p><img src="http://gpl-report-test.invalid/x.png"><script>console.error("boom")</script>`
	if err := os.WriteFile(page, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, reqs, console := browse(t, bin, page)
	if len(reqs) != 1 || reqs[0] != "http://gpl-report-test.invalid/x.png" {
		t.Errorf("requests = %q, want the image's URL", reqs)
	}
	if len(console) == 0 {
		t.Errorf("the console error was not seen")
	}
}

// TestBrowserBundledScenarios writes the report of every bundled scenario,
// opens it in Chromium with no network, and checks that it made no
// request, logged nothing, and that every chart's marks are in the DOM
// with the scenario's values; it saves a screenshot of each page.
func TestBrowserBundledScenarios(t *testing.T) {
	bin := chromium(t)
	shots := os.Getenv("GPL_REPORT_SCREENSHOTS") // a folder to keep the PNGs in, for docs
	for _, name := range scenarios.Names() {
		t.Run(name, func(t *testing.T) {
			src, _ := scenarios.Files.ReadFile(name + ".gpl")
			s, err := eval.LoadWith(eval.Options{FS: scenarios.Files}, name+".gpl", src)
			if err != nil {
				t.Fatal(err)
			}
			f, err := FromScenario(s, nil, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := Write(&b, Report{Files: []File{f}}); err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			page := filepath.Join(dir, name+".html")
			if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			dom, reqs, console := browse(t, bin, page)
			if len(reqs) > 0 {
				t.Errorf("the page made network requests: %q", reqs)
			}
			if len(console) > 0 {
				t.Errorf("console messages:\n%s", strings.Join(console, "\n"))
			}
			checkMarks(t, dom, f)
			png := filepath.Join(dir, name+".png")
			if shots != "" {
				png = filepath.Join(shots, name+".png")
			}
			browse(t, bin, page, "--screenshot="+png, "--window-size=1024,1400")
			if fi, err := os.Stat(png); err != nil || fi.Size() == 0 {
				t.Errorf("no screenshot at %s: %v", png, err)
			}
		})
	}
}

// checkMarks reads the marks of each job's waterfall from the DOM the
// browser built, and the summary line, against the scenario's values.
func checkMarks(t *testing.T, dom string, f File) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(dom))
	if err != nil {
		t.Fatal(err)
	}
	figures := map[string][][2]string{}  // figure id → (class, data-value) of each mark
	elems := map[string]map[string]int{} // figure id → "TAG.CLASS" → how many, for what is not a mark
	var text strings.Builder
	var walk func(n *html.Node, fig string)
	walk = func(n *html.Node, fig string) {
		if n.Type == html.ElementNode {
			if n.Data == "figure" {
				fig = attr(n, "id")
				elems[fig] = map[string]int{}
			}
			if cls := attr(n, "class"); strings.HasPrefix(cls, "mark ") {
				figures[fig] = append(figures[fig], [2]string{cls, attr(n, "data-value")})
			} else if fig != "" {
				elems[fig][n.Data+"."+cls]++
			}
		}
		if n.Type == html.TextNode {
			text.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, fig)
		}
	}
	walk(doc, "")
	for _, j := range f.Jobs {
		steps := j.View.Steps
		var want [][2]string
		for i, step := range steps {
			want = append(want, [2]string{"mark bar " + step.Name, report.Number(step.Hours).Clean().Plain()})
			if i > 0 {
				want = append(want, [2]string{"mark loss", report.Number(steps[i-1].Hours - step.Hours).Clean().Plain()})
			}
		}
		id := "file-" + strings.ReplaceAll(strings.ReplaceAll(f.Name, ".", "-"), "/", "-") + "-waterfall-" + j.Name
		got := figures[id]
		if len(got) != len(want) {
			t.Errorf("%s: %d marks, want %d (figures: %v)", id, len(got), len(want), keys(figures))
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s mark %d = %q, want %q", id, i, got[i], want[i])
			}
		}
		if n := len(figures[strings.Replace(id, "-waterfall-", "-levers-", 1)]); n != 6 {
			t.Errorf("levers of %s: %d marks, want 6", j.Name, n)
		}
	}
	checkPlanningMarks(t, figures, elems, f)
	pass := 0
	for _, e := range f.Expectations {
		if e.Status == "pass" {
			pass++
		}
	}
	if want := "expectations: " + report.Number(float64(pass)).String() + " passed"; !strings.Contains(text.String(), want) {
		t.Errorf("page text lacks %q", want)
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func keys(m map[string][][2]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// checkPlanningMarks counts the marks of each planning chart in the DOM
// against the file: two bars per owner of a group, a bar per job of a
// compare, a point per sweep point (and the base job's), a cell per grid
// point, the curve's points and the answer; every mark has a value.
//
// A heatmap has its colour scale (every swatch, labelled ticks) and its
// table is the grid, a row per value of the second input and a header
// cell per value of the first; a solve has its target line and label.
func checkPlanningMarks(t *testing.T, figures map[string][][2]string, elems map[string]map[string]int, f File) {
	t.Helper()
	fid := "file-" + notID().ReplaceAllString(f.Name, "-")
	count := func(id, class string) int {
		n := 0
		for _, m := range figures[fid+"-"+id] {
			if m[1] == "" {
				t.Errorf("%s: a mark %q without a value", id, m[0])
			}
			if strings.HasPrefix(m[0], "mark "+class) {
				n++
			}
		}
		return n
	}
	for _, g := range f.Groups {
		if got, want := count("levers-group-"+g.Name, "bar"), 2*len(g.Owners); got != want {
			t.Errorf("group %s: %d bars, want %d", g.Name, got, want)
		}
	}
	for _, c := range f.Compares {
		if got, want := count("compare-"+c.Name+"-useful", "bar useful"), len(c.Entries); got != want {
			t.Errorf("compare %s: %d useful-hours bars, want %d", c.Name, got, want)
		}
	}
	for _, sw := range f.Sweeps {
		id := "sweep-" + sw.Name
		if len(sw.Inputs) == 1 {
			if got, want := count(id, "point"), len(sw.Points)+1; got != want {
				t.Errorf("sweep %s: %d points, want %d and the base job's", sw.Name, got, want-1)
			}
			continue
		}
		if got, want := count(id, "cell"), len(sw.Points); got != want {
			t.Errorf("sweep %s: %d cells, want %d", sw.Name, got, want)
		}
		e := elems[fid+"-"+id]
		xs, ys := len(distinct(sw.Points, 0)), len(distinct(sw.Points, 1))
		if e["rect.swatch"] != scaleSteps || e["text.scale-label"] < 1 || e["table.data grid"] != 1 ||
			e["tr."] != ys+1 || e["th."] != xs+1+ys {
			t.Errorf("sweep %s: a %d × %d grid, but the page has %v", sw.Name, xs, ys, e)
		}
	}
	for _, sv := range f.Solves {
		if got, want := count("solve-"+sv.Name, "point"), len(sv.Curve)+1; got != want {
			t.Errorf("solve %s: %d points, want %d and the answer", sv.Name, got, want-1)
		}
		if got := count("solve-"+sv.Name, "point answer"); got != 1 {
			t.Errorf("solve %s: %d answers, want 1", sv.Name, got)
		}
		if e := elems[fid+"-solve-"+sv.Name]; e["line.target"] != 1 || e["text.target-label"] != 1 || e["line.answer-line"] != 1 || e["tr.best"] != 1 {
			t.Errorf("solve %s: the target and answer are not marked: %v", sv.Name, e)
		}
	}
}

// TestBrowserPlanningFiles opens the page of the language's planning test
// files in Chromium, as TestBrowserBundledScenarios does the scenarios':
// no request, no console message, every chart's marks counted.
func TestBrowserPlanningFiles(t *testing.T) {
	bin := chromium(t)
	shots := os.Getenv("GPL_REPORT_SCREENSHOTS")
	var files []File
	for _, name := range planningFiles {
		f := load(t, name)
		f.Name = name
		files = append(files, f)
	}
	var b bytes.Buffer
	if err := Write(&b, Report{Files: files}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "planning.html")
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, reqs, console := browse(t, bin, page)
	if len(reqs) > 0 {
		t.Errorf("the page made network requests: %q", reqs)
	}
	if len(console) > 0 {
		t.Errorf("console messages:\n%s", strings.Join(console, "\n"))
	}
	for _, f := range files {
		checkMarks(t, dom, f)
	}
	for _, want := range []string{"93,696 h offered → 89,057 h held", "compare options picks llama2_70b_spot", "devices = 148 gives useful_hours &gt;= 30000h (30,066 h there)"} {
		if !strings.Contains(dom, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	png := filepath.Join(dir, "planning.png")
	if shots != "" {
		png = filepath.Join(shots, "planning.png")
	}
	browse(t, bin, page, "--screenshot="+png, "--window-size=1024,1400")
	if fi, err := os.Stat(png); err != nil || fi.Size() == 0 {
		t.Errorf("no screenshot at %s: %v", png, err)
	}
}
