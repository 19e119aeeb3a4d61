package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Output files (trace --out and --save, record --out and --tape) follow
// one rule, the UI's e's: an existing file is never overwritten unless
// --force says so, and every path is checked before anything is written,
// so that a command that fails leaves no half of its output behind.

// checkOutputs checks that each path can be written: its directory
// exists, it is not a directory, and it does not exist unless force. Two
// outputs may not be the same file.
func checkOutputs(who string, force bool, paths ...string) error {
	seen := map[string]string{}
	for _, p := range paths {
		if p == "" {
			continue
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return usageErr("%s: %v", who, err)
		}
		if prev, dup := seen[abs]; dup {
			return usageErr("%s: %s and %s are the same file", who, prev, p)
		}
		seen[abs] = p
		dir := filepath.Dir(p)
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return usageErr("%s: %s: the directory %s does not exist", who, p, dir)
		}
		fi, err := os.Stat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return usageErr("%s: %v", who, err)
		case fi.IsDir():
			return usageErr("%s: %s is a directory", who, p)
		case !force && fi.Mode().IsRegular():
			return usageErr("%s: %s exists (--force overwrites it)", who, p)
		}
	}
	return nil
}

// writeOutput writes data to path: a new file, or with force over an
// existing one. A file it created is removed again when writing fails.
func writeOutput(who, path string, data []byte, force bool) error {
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	fi, statErr := os.Stat(path)
	switch {
	case statErr == nil && !fi.Mode().IsRegular():
		flags = os.O_WRONLY // a device or a pipe: written, not replaced
	case force:
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return usageErr("%s: %s exists (--force overwrites it)", who, path)
	}
	if err != nil {
		return usageErr("%s: %v", who, err)
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		if errors.Is(statErr, fs.ErrNotExist) {
			os.Remove(path)
		}
		return usageErr("%s: cannot write %s: %v", who, path, werr)
	}
	return nil
}

// removeOutputs removes files a failed command wrote.
func removeOutputs(paths ...string) {
	for _, p := range paths {
		if p != "" {
			os.Remove(p)
		}
	}
}

// forceFlag is the help of --force.
func forceHelp(what string) string {
	return fmt.Sprintf("overwrite %s when it exists (without it, smpscope never overwrites a file)", what)
}
