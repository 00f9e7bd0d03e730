// Package source reads the files a program is made of: the files that its
// relative imports name, each confined to its import tree and read at most
// once, however it is spelled. It knows paths and file systems, not the
// language: package eval turns its refusals into diagnostics.
//
// A relative import resolves against the importing file's directory and
// must stay inside the import tree: the directory of the file that was
// loaded (the one named on the command line, or given to Load), and what is
// below it, plus the directories of Reader.AllowImports. The rule holds for
// the path as written (no absolute paths, no .. above the tree) and for the
// file it leads to once symbolic links are followed. Only regular files
// whose names end in .gpl (or .csv, an inventory) are read — the name of the file a link leads to,
// not only the link's — and none larger than MaxSize, so that an import
// can neither quote a file that is not gpl source nor block on a pipe or
// read a device without end. Files are read through package srcfile, as
// every file gpl reads as source is.
package source

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gpl-lang/gpl/lang/srcfile"
)

// MaxSize is the largest file, in bytes, that an import reads: the
// language's limit on a source file (srcfile.MaxSize, 64 MiB). A larger
// file is refused from its size before any of it is read.
const MaxSize = srcfile.MaxSize

// maxLinkHops bounds how many symbolic links resolving one import inside
// an fs.FS follows before giving up (the operating system's own bound
// applies on the OS file system).
const maxLinkHops = 40

// Reader reads a program's imports. It remembers which tree each file
// was loaded in, and what each one is, so that a second spelling of a
// file already loaded is recognised. A Reader is for one program, built
// by one goroutine.
type Reader struct {
	// FS, when set, is where files are read; otherwise the operating
	// system's file system.
	FS fs.FS
	// AllowImports are directories, besides the loaded file's own, that
	// imports may read from and below (paths inside FS when it is set).
	AllowImports []string
	// Loaded reports whether the program already holds a file of that
	// name: its import adds nothing.
	Loaded func(name string) bool

	trees map[string]*importTree // by file name, as diagnostics show it
	allow []*importTree          // AllowImports, built on first use
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

// Refusal is why an import was not read: a summary to follow `cannot
// import "PATH": `, the label of the caret under the path and an
// optional note.
type Refusal struct {
	Summary, Label, Note string
}

func (r *Refusal) Error() string { return r.Summary }

// Import reads the file that import path0, written in the file named
// from, names: its name (as diagnostics show it) and its text. An empty
// name with no error means the file is already loaded, under this or
// another spelling. A *Refusal says why the import may not be read; any
// other error is the file system's, worded "cannot read NAME: …".
func (r *Reader) Import(from, path0 string) (name string, src []byte, err error) {
	tree := r.treeOf(from)
	if r.FS != nil {
		name, src, err = r.readFS(tree, from, path0)
	} else {
		name, src, err = r.readOS(tree, from, path0)
	}
	if err != nil || name == "" {
		return "", nil, err
	}
	r.trees[name] = tree
	return name, src, nil
}

// checkPathShape refuses, before any file is touched, an import path that
// is absolute or does not name .gpl source.
func checkPathShape(path0 string) error {
	if path.IsAbs(path0) || filepath.IsAbs(path0) || filepath.VolumeName(path0) != "" {
		return &Refusal{
			Summary: "an import path is relative to the importing file's directory, never absolute",
			Label:   "absolute path",
		}
	}
	if !strings.HasSuffix(path0, ".gpl") && !strings.HasSuffix(path0, ".csv") {
		return &Refusal{
			Summary: "only .gpl source files and .csv inventories can be imported",
			Label:   "not a .gpl or .csv file",
		}
	}
	return nil
}

func outsideTree(tree *importTree, viaLink bool) *Refusal {
	r := &Refusal{Summary: "the path leaves the import tree", Label: "outside the tree"}
	if viaLink {
		r.Summary = "it is a symbolic link to a file outside the import tree"
		r.Label = "leads outside the tree"
	}
	if tree.file != "" {
		r.Note = "imports stay inside the directory of " + tree.file + " and below it; --allow-imports DIR adds a tree"
	}
	return r
}

// notRegular refuses a file that is not a regular file or is too large,
// from what a stat says of it.
func notRegular(info fs.FileInfo) error {
	return refusal(srcfile.Check("", info, MaxSize))
}

// refusal words a refusal of package srcfile as an import's; any other
// error is returned as it is.
func refusal(err error) error {
	var se *srcfile.Error
	switch {
	case err == nil || !errors.As(err, &se):
		return err
	case errors.Is(err, srcfile.ErrNotRegular):
		return &Refusal{Summary: "it is " + se.Kind + ", not a regular file", Label: "not a regular file"}
	case errors.Is(err, srcfile.ErrTooLarge) && se.Size >= 0:
		return tooLarge(se.Size)
	case errors.Is(err, srcfile.ErrTooLarge):
		return &Refusal{Summary: fmt.Sprintf("the file holds more than the limit of %d MiB on an imported file", MaxSize>>20), Label: "too large"}
	}
	return err
}

func tooLarge(size int64) error {
	return &Refusal{
		Summary: fmt.Sprintf("the file is %d bytes, over the limit of %d MiB on an imported file", size, MaxSize>>20),
		Label:   "too large",
	}
}

// notSourceTarget refuses an import whose path names .gpl source but leads,
// through a symbolic link, to a file that does not: the rule is the
// file's, not its link's (env.gpl -> /proc/self/environ).
func notSourceTarget(path0, target string) error {
	if strings.HasSuffix(target, ".gpl") && strings.HasSuffix(path0, ".gpl") || strings.HasSuffix(target, ".csv") && strings.HasSuffix(path0, ".csv") {
		return nil
	}
	return &Refusal{
		Summary: "it is a symbolic link to " + strconv.Quote(path.Base(filepath.ToSlash(target))) + ", which is not a " + path.Ext(path0) + " file",
		Label:   "leads to a file that is not " + path.Ext(path0),
		Note:    "only .gpl source files and .csv inventories can be imported, whatever a link to one is named",
	}
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
func (r *Reader) treeOf(name string) *importTree {
	if r.trees == nil {
		r.trees = map[string]*importTree{}
	}
	if t, ok := r.trees[name]; ok {
		return t
	}
	var t *importTree
	if r.FS != nil {
		clean := path.Clean(filepath.ToSlash(name))
		t = &importTree{file: name, dir: path.Dir(clean)}
		if key, _, err := resolveFS(r.FS, clean); err == nil {
			r.files = append(r.files, seenFile{name: name, key: key})
		}
	} else {
		t = osTree(filepath.Dir(name))
		t.file = name
		if info, err := os.Stat(name); err == nil {
			r.files = append(r.files, seenFile{name: name, info: info})
		}
	}
	r.trees[name] = t
	return t
}

// allowed is the tree of the importing file and the trees of
// Reader.AllowImports.
func (r *Reader) allowed(tree *importTree) []*importTree {
	if r.allow == nil {
		r.allow = []*importTree{}
		for _, d := range r.AllowImports {
			if r.FS != nil {
				if d = path.Clean(filepath.ToSlash(d)); fs.ValidPath(d) {
					r.allow = append(r.allow, &importTree{dir: d})
				}
				continue
			}
			r.allow = append(r.allow, osTree(d))
		}
	}
	return append([]*importTree{tree}, r.allow...)
}

// loadedAs is the name under which a file already read was loaded, or "".
func (r *Reader) loadedAs(info fs.FileInfo, key string) string {
	for _, f := range r.files {
		same := key != "" && f.key == key || info != nil && f.info != nil && os.SameFile(info, f.info)
		if same && r.Loaded(f.name) {
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
func (r *Reader) readOS(tree *importTree, from, path0 string) (string, []byte, error) {
	if err := checkPathShape(path0); err != nil {
		return "", nil, err
	}
	name := filepath.Join(filepath.Dir(from), filepath.FromSlash(path0))
	if r.Loaded(name) {
		return "", nil, nil
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return "", nil, cannotRead(name, err)
	}
	trees := r.allowed(tree)
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
	if err := notSourceTarget(path0, real); err != nil {
		return "", nil, err
	}
	// Stat before opening: opening a named pipe would wait for a writer.
	info, err := os.Stat(real)
	if err != nil {
		return "", nil, cannotRead(name, err)
	}
	if err := notRegular(info); err != nil {
		return "", nil, err
	}
	if r.loadedAs(info, "") != "" {
		return "", nil, nil
	}
	src, now, err := srcfile.Read(real, MaxSize)
	switch {
	case errors.Is(err, srcfile.ErrNotRegular) || errors.Is(err, srcfile.ErrTooLarge):
		return "", nil, refusal(err)
	case errors.Is(err, srcfile.ErrChanged) || err == nil && !os.SameFile(info, now):
		return "", nil, fmt.Errorf("cannot read %s: it changed while being opened", name)
	case err != nil:
		return "", nil, cannotRead(name, errors.Unwrap(err))
	}
	r.files = append(r.files, seenFile{name: name, info: info})
	return name, src, nil
}

// readImportFS resolves and reads an import inside Reader.FS. An empty
// name with no error means the file is already loaded.
func (r *Reader) readFS(tree *importTree, from, path0 string) (string, []byte, error) {
	if err := checkPathShape(path0); err != nil {
		return "", nil, err
	}
	name := path.Join(path.Dir(filepath.ToSlash(from)), path0)
	if r.Loaded(name) {
		return "", nil, nil
	}
	trees := r.allowed(tree)
	written := false
	for _, t := range trees {
		written = written || inside(t.dir, name, "/")
	}
	if !written {
		return "", nil, outsideTree(tree, false)
	}
	key, info, err := resolveFS(r.FS, name)
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
	if err := notSourceTarget(path0, key); err != nil {
		return "", nil, err
	}
	if err := notRegular(info); err != nil {
		return "", nil, err
	}
	if r.loadedAs(nil, key) != "" {
		return "", nil, nil
	}
	src, err := srcfile.ReadFS(r.FS, key, MaxSize)
	switch {
	case errors.Is(err, srcfile.ErrNotRegular) || errors.Is(err, srcfile.ErrTooLarge):
		return "", nil, refusal(err)
	case err != nil:
		return "", nil, cannotRead(name, errors.Unwrap(err))
	}
	r.files = append(r.files, seenFile{name: name, key: key})
	return name, src, nil
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
