package testrun

import (
	"encoding/xml"
	"fmt"
	"strings"
	"time"
)

// The JUnit XML report of gpl test --junit, in the shape Jenkins, GitLab
// and GitHub test reporters read: <testsuites>, a <testsuite> per file, a
// <testcase> per expect (classname the file, name the expect's name) with
// <failure> when it fails and <error> when it could not be evaluated. A
// file that does not load is a suite with one erroring case named by the
// file. Times are in seconds.

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
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Classname string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
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

// seconds writes a measured time with microseconds, so that a case that
// took 40 µs does not read as 0.
func seconds(d time.Duration) string { return fmt.Sprintf("%.6f", d.Seconds()) }

func junitReport(results []*fileResult, total time.Duration) junitSuites {
	all := junitSuites{Name: "gpl test", Time: seconds(total), Suites: []junitSuite{}}
	for _, r := range results {
		s := junitSuite{Name: r.path, Time: seconds(r.duration), Cases: []junitCase{}}
		if r.loadErr != nil {
			s.Tests, s.Errors = 1, 1
			s.Cases = append(s.Cases, junitCase{Classname: r.path, Name: r.path, File: r.path, Time: seconds(r.duration),
				Error: &junitProblem{Message: "does not load", Type: "load", Text: xmlText(r.loadText())}})
		}
		for i := range r.cases {
			c := &r.cases[i]
			jc := junitCase{Classname: r.path, Name: c.name, File: c.file, Line: c.line, Time: seconds(c.duration)}
			if line, _ := c.place(); line > 0 && c.golden == "" {
				jc.Line = line
			}
			s.Tests++
			switch c.status {
			case statusFail:
				s.Failures++
				jc.Failure = &junitProblem{Message: caseMessage(c), Type: "expectation", Text: xmlText(r.plain(c))}
				switch {
				case c.golden != "":
					jc.Failure.Type = "golden"
				case c.warning:
					jc.Failure.Type = "warning"
				}
			case statusError:
				s.Errors++
				jc.Error = &junitProblem{Message: caseMessage(c), Type: "runtime", Text: xmlText(r.plain(c))}
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
