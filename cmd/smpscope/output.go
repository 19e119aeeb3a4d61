package main

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// Output files (trace --out and --save, record --out and --tape) follow
// one rule, the UI's e's: an existing file is never overwritten unless
// --force says so, and every path is checked before anything is computed
// or written. A command's files are then written all or none (issue 22,
// item 2): each regular file goes to a temporary file beside it, renamed
// into place only once every output was written, so a command that fails
// or is killed leaves no half of its output behind, and removes only what
// it created — never a file that was there before, a device or a symbolic
// link. Devices and pipes (/dev/stdout, /dev/null) are written in place.

// target is where an output path leads.
type target struct {
	path     string // as given, for messages
	resolved string // the file written: path with its symbolic links followed
	kind     targetKind
	perm     fs.FileMode // of the file replaced
}

type targetKind uint8

const (
	newFile     targetKind = iota // nothing there yet
	regularFile                   // an existing regular file, replaced (--force)
	inPlace                       // a device, a pipe or a socket, written to
)

// resolveTarget says what writing path would write, or why it may not:
// a missing directory, a directory, a dangling symbolic link, or an
// existing file without force.
func resolveTarget(who, path string, force bool) (target, error) {
	t := target{path: path, resolved: path}
	if li, err := os.Lstat(path); err == nil && li.Mode()&fs.ModeSymlink != 0 {
		r, err := filepath.EvalSymlinks(path)
		if err != nil {
			dest, _ := os.Readlink(path)
			return t, usageErr("%s: %s is a symbolic link to %s, which does not exist", who, path, dest)
		}
		t.resolved = r
	}
	dir := filepath.Dir(t.resolved)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return t, usageErr("%s: %s: the directory %s does not exist", who, path, filepath.Dir(path))
	}
	fi, err := os.Stat(t.resolved)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		t.kind = newFile
	case err != nil:
		return t, usageErr("%s: %v", who, err)
	case fi.IsDir():
		return t, usageErr("%s: %s is a directory", who, path)
	case fi.Mode().IsRegular() && !force:
		return t, usageErr("%s: %s exists (--force overwrites it)", who, path)
	case fi.Mode().IsRegular():
		t.kind, t.perm = regularFile, fi.Mode().Perm()
	default:
		t.kind = inPlace
	}
	return t, nil
}

// checkOutputs checks that each path can be written (resolveTarget). Two
// outputs may not be the same file.
func checkOutputs(who string, force bool, paths ...string) error {
	_, err := resolveTargets(who, force, paths...)
	return err
}

func resolveTargets(who string, force bool, paths ...string) ([]target, error) {
	seen := map[string]string{}
	var ts []target
	for _, p := range paths {
		if p == "" {
			continue
		}
		t, err := resolveTarget(who, p, force)
		if err != nil {
			return nil, err
		}
		abs, err := filepath.Abs(t.resolved)
		if err != nil {
			return nil, usageErr("%s: %v", who, err)
		}
		if prev, dup := seen[abs]; dup {
			return nil, usageErr("%s: %s and %s are the same file", who, prev, p)
		}
		seen[abs] = p
		ts = append(ts, t)
	}
	return ts, nil
}

// outputs is the files one command writes, all or none: stage writes
// them (regular files to temporary files beside them, devices in place),
// commit renames the temporary files into place, abort removes them.
type outputs struct {
	who   string
	force bool
	files []pendingFile
}

type pendingFile struct {
	path string
	data []byte
	t    target
	tmp  string // the staged temporary file, "" when none
}

func (o *outputs) add(path string, data []byte) {
	if path != "" {
		o.files = append(o.files, pendingFile{path: path, data: data})
	}
}

// stage checks the paths again (time passed since checkOutputs) and
// writes every file: regular ones to temporary files first, then the
// devices. On failure it removes what it staged.
func (o *outputs) stage() error {
	var paths []string
	for _, f := range o.files {
		paths = append(paths, f.path)
	}
	ts, err := resolveTargets(o.who, o.force, paths...)
	if err != nil {
		return err
	}
	for i := range o.files {
		f := &o.files[i]
		f.t = ts[i]
		if f.t.kind == inPlace {
			continue
		}
		if f.tmp, err = writeTemp(f.t, f.data); err != nil {
			o.abort()
			return usageErr("%s: cannot write %s: %v", o.who, f.path, err)
		}
	}
	for _, f := range o.files {
		if f.t.kind == inPlace {
			if err := writeInPlace(f.t.resolved, f.data); err != nil {
				o.abort()
				return usageErr("%s: cannot write %s: %v", o.who, f.path, err)
			}
		}
	}
	return nil
}

// writeTemp writes data to a new temporary file in t's directory, with
// the mode of the file it replaces (or the usual 0644 less the umask).
func writeTemp(t target, data []byte) (string, error) {
	dir, base := filepath.Split(t.resolved)
	var f *os.File
	var err error
	for range 100 {
		name := filepath.Join(dir, fmt.Sprintf(".%s.%08x.tmp", base, rand.Uint32()))
		f, err = os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return "", unwrapPath(err)
	}
	_, werr := f.Write(data)
	if werr == nil && t.kind == regularFile {
		werr = f.Chmod(t.perm)
	}
	if werr == nil {
		werr = f.Sync() // the rename must not publish a file the disk lost
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(f.Name())
		return "", unwrapPath(werr)
	}
	return f.Name(), nil
}

// writeInPlace writes data to a device, a pipe or a socket.
func writeInPlace(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return unwrapPath(err)
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return unwrapPath(werr)
}

// unwrapPath drops the temporary file's name from an error: the message
// names the output.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// commit puts the staged files in place. A new file is linked into place,
// so that one created meanwhile is not overwritten; a replaced file is
// renamed over. If one fails, the new files already in place are removed
// again (a replaced one cannot be brought back) and the rest aborted.
func (o *outputs) commit() error {
	for i := range o.files {
		f := &o.files[i]
		if f.tmp == "" {
			continue
		}
		var err error
		if f.t.kind == newFile {
			err = linkNew(f.tmp, f.t.resolved)
		} else {
			err = os.Rename(f.tmp, f.t.resolved)
		}
		if err != nil {
			for _, done := range o.files[:i] {
				if done.tmp != "" && done.t.kind == newFile {
					os.Remove(done.t.resolved)
				}
			}
			o.abort()
			if errors.Is(err, fs.ErrExist) {
				return usageErr("%s: %s exists (--force overwrites it)", o.who, f.path)
			}
			return usageErr("%s: cannot write %s: %v", o.who, f.path, unwrapPath(err))
		}
		f.tmp = ""
	}
	return nil
}

// linkNew moves tmp to path, which must not exist: a hard link where the
// file system has them (it fails if path appeared meanwhile), else a
// rename after a last look.
func linkNew(tmp, path string) error {
	err := os.Link(tmp, path)
	switch {
	case err == nil:
		return os.Remove(tmp)
	case errors.Is(err, fs.ErrExist):
		return err
	}
	if _, err := os.Lstat(path); err == nil {
		return fs.ErrExist
	}
	return os.Rename(tmp, path)
}

// abort removes the temporary files staged and not committed.
func (o *outputs) abort() {
	for i := range o.files {
		if o.files[i].tmp != "" {
			os.Remove(o.files[i].tmp)
			o.files[i].tmp = ""
		}
	}
}

// write stages and commits.
func (o *outputs) write() error {
	if err := o.stage(); err != nil {
		return err
	}
	return o.commit()
}

// forceFlag is the help of --force.
func forceHelp(what string) string {
	return fmt.Sprintf("overwrite %s when it exists (without it, smpscope never overwrites a file)", what)
}
