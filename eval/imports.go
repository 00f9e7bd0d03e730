package eval

// Where import "PATH" may read from, what it may read, and when two
// spellings name one file.
//
// A relative import resolves against the importing file's directory and
// must stay inside the import tree: the directory of the file that was
// loaded (the one named on the command line, or given to Load), and what is
// below it, plus the directories of Options.AllowImports. The rule holds for
// the path as written (no absolute paths, no .. above the tree) and for the
// file it leads to once symbolic links are followed. Only regular files
// whose names end in .gpl are read, and none larger than MaxImportSize, so
// that an import can neither quote a file that is not gpl source nor block
// on a pipe or read a device without end.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/gpl-lang/gpl/lang"
)

// MaxImportSize is the largest file, in bytes, that an import reads: the
// language's limit on a source file (lang.DefaultMaxFileSize, 64 MiB). A
// larger file is refused from its size before any of it is read.
const MaxImportSize = lang.DefaultMaxFileSize

// maxLinkHops bounds how many symbolic links resolving one import inside
// an fs.FS follows before giving up (the operating system's own bound
// applies on the OS file system).
const maxLinkHops = 40

// importState is what a program knows of the files it read: which tree each
// was loaded in, and what each one is, so that a second spelling of a file
// already loaded is recognised.
type importState struct {
	trees map[string]*importTree // by file name, as diagnostics show it
	allow []*importTree          // Options.AllowImports, built on first use
	files []seenFile
}

// importTree is a directory imports may read from and below.
type importTree struct {
	file string // the file the tree is the directory of, as named; "" for an allowed tree
	// dir is the directory: an absolute, cleaned path on the OS file
	// system, a cleaned slash path inside an fs.FS ("." for its root).
	dir string
	// real is dir with symbolic links followed (OS only).
	real string
}

// seenFile is one file read: on the OS identified by its FileInfo (device
// and inode, through os.SameFile), inside an fs.FS by its cleaned path with
// links followed.
type seenFile struct {
	name string
	info fs.FileInfo
	key  string
}

// refusal is why an import was not read: a summary after `cannot import
// "PATH": `, the caret's label and an optional note.
type refusal struct {
	summary, label, note string
}

func (r *refusal) Error() string { return r.summary }

func (p *program) importState() *importState {
	if p.imports == nil {
		p.imports = &importState{trees: map[string]*importTree{}}
	}
	return p.imports
}

// readImport reads the file that import path0 in the file named from
// names. It returns the file's name and text; ok is false when nothing is
// to be added, because the import was refused (a diagnostic at the path is
// recorded) or the file is already loaded under this or another spelling.
func (p *program) readImport(from string, imp *lang.Import, path0 string) (name string, src []byte, ok bool) {
	st := p.importState()
	tree := p.treeOf(from)
	var err error
	if p.opts.FS != nil {
		name, src, err = p.readImportFS(st, tree, from, path0)
	} else {
		name, src, err = p.readImportOS(st, tree, from, path0)
	}
	if err != nil {
		pos, end := p.pathSpan(imp)
		d := p.errorAt(pos, end, fmt.Sprintf("cannot import %q: %v", path0, err))
		var r *refusal
		if errors.As(err, &r) {
			d.Label = r.label
			if r.note != "" {
				d.Notes = []string{r.note}
			}
		}
		return "", nil, false
	}
	if name == "" {
		return "", nil, false
	}
	st.trees[name] = tree
	return name, src, true
}

// checkPathShape refuses, before any file is touched, an import path that
// is absolute or does not name .gpl source.
func checkPathShape(path0 string) error {
	if path.IsAbs(path0) || filepath.IsAbs(path0) || filepath.VolumeName(path0) != "" {
		return &refusal{
			summary: "an import path is relative to the importing file's directory, never absolute",
			label:   "absolute path",
		}
	}
	if !strings.HasSuffix(path0, ".gpl") {
		return &refusal{
			summary: "only .gpl source files can be imported",
			label:   "not a .gpl file",
		}
	}
	return nil
}

func outsideTree(tree *importTree, viaLink bool) *refusal {
	r := &refusal{summary: "the path leaves the import tree", label: "outside the tree"}
	if viaLink {
		r.summary = "it is a symbolic link to a file outside the import tree"
		r.label = "leads outside the tree"
	}
	if tree.file != "" {
		r.note = "imports stay inside the directory of " + tree.file + " and below it; --allow-imports DIR adds a tree"
	}
	return r
}

// notRegular refuses a file that is not a regular file or is too large.
func notRegular(info fs.FileInfo) error {
	if !info.Mode().IsRegular() {
		return &refusal{summary: "it is " + kindOf(info.Mode()) + ", not a regular file", label: "not a regular file"}
	}
	if info.Size() > MaxImportSize {
		return tooLarge(info.Size())
	}
	return nil
}

func tooLarge(size int64) error {
	return &refusal{
		summary: fmt.Sprintf("the file is %d bytes, over the limit of %d MiB on an imported file", size, MaxImportSize>>20),
		label:   "too large",
	}
}

// kindOf names a file mode that is not a regular file's.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a special file"
}

// cannotRead words an error from the file system as the missing-file
// case has always been worded: "cannot read NAME: no such file".
func cannotRead(name string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cannot read %s: no such file", name)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("cannot read %s: %v", name, err)
}

// treeOf is the tree the file named name was loaded in; a file not
// imported (the one loaded, or a session's piece) starts a tree of its own
// at its directory, and is remembered as read so that an import leading
// back to it adds nothing.
func (p *program) treeOf(name string) *importTree {
	st := p.importState()
	if t, ok := st.trees[name]; ok {
		return t
	}
	var t *importTree
	if p.opts.FS != nil {
		clean := path.Clean(filepath.ToSlash(name))
		t = &importTree{file: name, dir: path.Dir(clean)}
		if key, _, err := resolveFS(p.opts.FS, clean); err == nil {
			st.files = append(st.files, seenFile{name: name, key: key})
		}
	} else {
		t = osTree(filepath.Dir(name))
		t.file = name
		if info, err := os.Stat(name); err == nil {
			st.files = append(st.files, seenFile{name: name, info: info})
		}
	}
	st.trees[name] = t
	return t
}

// allowed is the tree of the importing file and the trees of
// Options.AllowImports.
func (p *program) allowed(tree *importTree) []*importTree {
	st := p.importState()
	if st.allow == nil {
		st.allow = []*importTree{}
		for _, d := range p.opts.AllowImports {
			if p.opts.FS != nil {
				if d = path.Clean(filepath.ToSlash(d)); fs.ValidPath(d) {
					st.allow = append(st.allow, &importTree{dir: d})
				}
				continue
			}
			st.allow = append(st.allow, osTree(d))
		}
	}
	return append([]*importTree{tree}, st.allow...)
}

// loadedAs is the name under which a file already read was loaded, or "".
func (st *importState) loadedAs(p *program, info fs.FileInfo, key string) string {
	for _, f := range st.files {
		same := key != "" && f.key == key || info != nil && f.info != nil && os.SameFile(info, f.info)
		if same && p.loaded[f.name] {
			return f.name
		}
	}
	return ""
}

func osTree(dir string) *importTree {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = filepath.Clean(dir)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		real = abs
	}
	return &importTree{dir: abs, real: real}
}

// inside reports whether path p is dir or below it; both are cleaned and
// either absolute OS paths or slash paths of an fs.FS.
func inside(dir, p string, sep string) bool {
	if dir == "." && sep == "/" {
		return fs.ValidPath(p)
	}
	if p == dir {
		return true
	}
	if !strings.HasSuffix(dir, sep) {
		dir += sep
	}
	return strings.HasPrefix(p, dir)
}

// readImportOS resolves and reads an import on the operating system's file
// system. An empty name with no error means the file is already loaded.
func (p *program) readImportOS(st *importState, tree *importTree, from, path0 string) (string, []byte, error) {
	if err := checkPathShape(path0); err != nil {
		return "", nil, err
	}
	name := filepath.Join(filepath.Dir(from), filepath.FromSlash(path0))
	if p.loaded[name] {
		return "", nil, nil
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return "", nil, cannotRead(name, err)
	}
	trees := p.allowed(tree)
	written := false
	for _, t := range trees {
		written = written || inside(t.dir, abs, string(filepath.Separator)) || inside(t.real, abs, string(filepath.Separator))
	}
	if !written {
		return "", nil, outsideTree(tree, false)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", nil, cannotRead(name, err)
	}
	reached := false
	for _, t := range trees {
		reached = reached || inside(t.real, real, string(filepath.Separator))
	}
	if !reached {
		return "", nil, outsideTree(tree, true)
	}
	// Stat before opening: opening a named pipe would wait for a writer.
	info, err := os.Stat(real)
	if err != nil {
		return "", nil, cannotRead(name, err)
	}
	if err := notRegular(info); err != nil {
		return "", nil, err
	}
	if st.loadedAs(p, info, "") != "" {
		return "", nil, nil
	}
	f, err := os.Open(real)
	if err != nil {
		return "", nil, cannotRead(name, err)
	}
	defer f.Close()
	if now, err := f.Stat(); err != nil || !os.SameFile(info, now) {
		return "", nil, fmt.Errorf("cannot read %s: it changed while being opened", name)
	}
	src, err := readCapped(f)
	if err != nil {
		return "", nil, cannotRead(name, err)
	}
	st.files = append(st.files, seenFile{name: name, info: info})
	return name, src, nil
}

// readImportFS resolves and reads an import inside Options.FS. An empty
// name with no error means the file is already loaded.
func (p *program) readImportFS(st *importState, tree *importTree, from, path0 string) (string, []byte, error) {
	if err := checkPathShape(path0); err != nil {
		return "", nil, err
	}
	name := path.Join(path.Dir(filepath.ToSlash(from)), path0)
	if p.loaded[name] {
		return "", nil, nil
	}
	trees := p.allowed(tree)
	written := false
	for _, t := range trees {
		written = written || inside(t.dir, name, "/")
	}
	if !written {
		return "", nil, outsideTree(tree, false)
	}
	key, info, err := resolveFS(p.opts.FS, name)
	if err != nil {
		return "", nil, cannotRead(name, err)
	}
	reached := false
	for _, t := range trees {
		reached = reached || key != "" && inside(t.dir, key, "/")
	}
	if !reached {
		return "", nil, outsideTree(tree, true)
	}
	if err := notRegular(info); err != nil {
		return "", nil, err
	}
	if st.loadedAs(p, nil, key) != "" {
		return "", nil, nil
	}
	f, err := p.opts.FS.Open(key)
	if err != nil {
		return "", nil, cannotRead(name, err)
	}
	defer f.Close()
	src, err := readCapped(f)
	if err != nil {
		return "", nil, cannotRead(name, err)
	}
	st.files = append(st.files, seenFile{name: name, key: key})
	return name, src, nil
}

// readCapped reads a file that said it is no larger than MaxImportSize,
// refusing it if it turns out larger (a file that grew, or one whose
// size is not what it reads).
func readCapped(r io.Reader) ([]byte, error) {
	src, err := io.ReadAll(io.LimitReader(r, MaxImportSize+1))
	if err != nil {
		return nil, err
	}
	if len(src) > MaxImportSize {
		return nil, tooLarge(int64(len(src)))
	}
	return src, nil
}

// resolveFS follows the symbolic links of name, a valid path of fsys, when
// fsys can read them (fs.ReadLinkFS), and returns the path it leads to and
// that file's FileInfo. key is "" when a link leads out of fsys (an
// absolute target, or .. above its root).
func resolveFS(fsys fs.FS, name string) (key string, info fs.FileInfo, err error) {
	if !fs.ValidPath(name) {
		return "", nil, fs.ErrNotExist
	}
	rl, ok := fsys.(fs.ReadLinkFS)
	if !ok {
		info, err := fs.Stat(fsys, name)
		return name, info, err
	}
	done, rest := ".", strings.Split(name, "/")
	for hops := 0; len(rest) > 0; {
		next := path.Join(done, rest[0])
		rest = rest[1:]
		info, err = rl.Lstat(next)
		if err != nil {
			return "", nil, err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			done = next
			continue
		}
		if hops++; hops > maxLinkHops {
			return "", nil, fmt.Errorf("more than %d symbolic links", maxLinkHops)
		}
		target, err := rl.ReadLink(next)
		if err != nil {
			return "", nil, err
		}
		if path.IsAbs(target) {
			return "", info, nil
		}
		if target = path.Join(path.Dir(next), target); !fs.ValidPath(target) {
			return "", info, nil
		}
		done, rest = ".", append(strings.Split(target, "/"), rest...)
	}
	return done, info, nil
}

// pathSpan is where an import's path is written, quotes included: the
// caret of an import's diagnostic goes under it. It falls back to the whole
// statement when the text does not hold the path where the parser ended it.
func (p *program) pathSpan(imp *lang.Import) (lang.Position, lang.Position) {
	end := imp.End()
	start := end
	start.Offset -= len(imp.Path)
	start.Column -= utf8.RuneCountInString(imp.Path)
	src := p.sources[imp.Start().Filename]
	if start.Offset < imp.Start().Offset || start.Column < 1 || end.Offset > len(src) || string(src[start.Offset:end.Offset]) != imp.Path {
		return imp.Start(), imp.End()
	}
	return start, end
}
