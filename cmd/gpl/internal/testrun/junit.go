package testrun

import (
	"encoding/xml"
	"fmt"
	"strings"
	"time"
)

// The JUnit XML report of gpl test --junit, in the shape Jenkins, GitLab
// and GitHub test reporters read: <testsuites>, a <testsuite> per file
// (its file attribute the file), a <testcase> per expect (classname the
// file, name the expect's name, which starts FILE:LINE) with <failure>
// when it fails and <error> when it could not be evaluated. A file that
// does not load is a suite with one erroring case named by the file.
// Times are in seconds.
//
// The report validates against Jenkins' junit-10.xsd (a copy is
// testdata/junit/junit-10.xsd), which allows no file or line attribute on
// a <testcase> nor <properties> inside one: as pytest's xunit2 family
// does, the place is in the case's name, and a failure's message starts
// with FILE:LINE:COLUMN.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	File     string      `xml:"file,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Classname string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	// SystemOut says, for an expect on a statistic, what it got and over
	// which samples and seed.
	SystemOut string `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",cdata"`
}

// xmlText replaces the characters XML 1.0 cannot hold, which a source
// line quoted in a diagnostic might carry, with U+FFFD.
func xmlText(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r',
			r >= 0x20 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
			return r
		}
		return '\uFFFD'
	}, s)
}

// seconds writes a case's measured time with microseconds, so that a case
// that took 40 µs does not read as 0.
func seconds(d time.Duration) string { return fmt.Sprintf("%.6f", d.Seconds()) }

// suiteSeconds writes a suite's measured time with milliseconds: junit-10.xsd
// (SUREFIRE_TIME) allows at most three decimals on <testsuite> and
// <testsuites>, where a <testcase>'s time is any string.
func suiteSeconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

func junitReport(results []*fileResult, total time.Duration) junitSuites {
	all := junitSuites{Name: "gpl test", Time: suiteSeconds(total), Suites: []junitSuite{}}
	for _, r := range results {
		s := junitSuite{Name: r.path, Time: suiteSeconds(r.duration), File: r.path, Cases: []junitCase{}}
		if r.loadErr != nil {
			s.Tests, s.Errors = 1, 1
			msg := "does not load"
			if len(r.diags) > 0 && r.diags[0].Pos.Line > 0 {
				p := r.diags[0].Pos
				msg = fmt.Sprintf("%s:%d:%d: %s", p.Filename, p.Line, p.Column, msg)
			}
			s.Cases = append(s.Cases, junitCase{Classname: r.path, Name: r.path, Time: seconds(r.duration),
				Error: &junitProblem{Message: xmlText(msg), Type: "load", Text: xmlText(r.loadText())}})
		}
		for i := range r.cases {
			c := &r.cases[i]
			jc := junitCase{Classname: r.path, Name: c.name, Time: seconds(c.duration), SystemOut: xmlText(c.sampling())}
			s.Tests++
			switch c.status {
			case statusFail:
				s.Failures++
				jc.Failure = &junitProblem{Message: junitMessage(c), Type: "expectation", Text: xmlText(r.plain(c))}
				switch {
				case c.golden != "":
					jc.Failure.Type = "golden"
				case c.warning:
					jc.Failure.Type = "warning"
				}
			case statusError:
				s.Errors++
				jc.Error = &junitProblem{Message: junitMessage(c), Type: "runtime", Text: xmlText(r.plain(c))}
			}
			s.Cases = append(s.Cases, jc)
		}
		all.Tests += s.Tests
		all.Failures += s.Failures
		all.Errors += s.Errors
		all.Suites = append(all.Suites, s)
	}
	return all
}

// junitMessage is a failing case's message: its one-line summary, after
// the place of its diagnostic's caret (FILE:LINE:COLUMN: …), since a
// <testcase> has no attribute for it. A golden case's summary names its
// file and line itself.
func junitMessage(c *testCase) string {
	msg := caseMessage(c)
	if line, col := c.place(); line > 0 && c.golden == "" {
		msg = fmt.Sprintf("%s:%d:%d: %s", c.file, line, col, msg)
	}
	return xmlText(msg)
}

// writeJUnitFile writes the JUnit report of a run to path.
func writeJUnitFile(path string, results []*fileResult, total time.Duration, writeReport func(string, []byte) error) error {
	b, err := xml.MarshalIndent(junitReport(results, total), "", "  ")
	if err != nil {
		return err
	}
	b = append([]byte(xml.Header), append(b, '\n')...)
	if err := writeReport(path, b); err != nil {
		return fmt.Errorf("cannot write the JUnit report: %v", err)
	}
	return nil
}
