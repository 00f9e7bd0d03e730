// Package fuzzcorpus reads the files of a Go fuzz corpus ("go test fuzz
// v1", as testdata/fuzz/FuzzX/* holds them), so that tests other than the
// fuzz target can feed its inputs through other entry points.
package fuzzcorpus

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Entry is one corpus file's values: its []byte and string values as
// bytes, its uint64 values as numbers, each in the order written.
type Entry struct {
	File  string
	Texts [][]byte
	Seeds []uint64
}

// ReadDir reads every file of the corpus directory dir, in name order.
// A directory that does not exist is an empty corpus.
func ReadDir(dir string) ([]Entry, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, f := range files {
		e, err := ReadFile(f)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// ReadFile reads one corpus file. Values of other types are skipped.
func ReadFile(file string) (Entry, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return Entry{}, err
	}
	e := Entry{File: file}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, len(b)+1)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "[]byte(") || strings.HasPrefix(line, "string("):
			_, lit, _ := strings.Cut(strings.TrimSuffix(line, ")"), "(")
			v, err := strconv.Unquote(lit)
			if err != nil {
				return Entry{}, fmt.Errorf("%s:%d: %v", file, n, err)
			}
			e.Texts = append(e.Texts, []byte(v))
		case strings.HasPrefix(line, "uint64("):
			v, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimPrefix(line, "uint64("), ")"), 10, 64)
			if err != nil {
				return Entry{}, fmt.Errorf("%s:%d: %v", file, n, err)
			}
			e.Seeds = append(e.Seeds, v)
		}
	}
	return e, sc.Err()
}
