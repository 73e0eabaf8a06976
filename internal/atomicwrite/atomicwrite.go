// Package atomicwrite replaces files so that a reader (or a crash) sees the
// old contents or the new, never a mix: write a temporary file in the same
// directory, sync it, rename it over the target.
package atomicwrite

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile atomically replaces path with data. An existing file keeps its
// permission bits; a new one gets perm. A symlink is resolved first, so the
// link stays a link and its target is what changes.
func WriteFile(path string, data []byte, perm fs.FileMode) (err error) {
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		path = resolved
	}
	if fi, err := os.Stat(path); err == nil {
		if !fi.Mode().IsRegular() {
			return &fs.PathError{Op: "write", Path: path, Err: errors.New("not a regular file")}
		}
		perm = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(perm); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
