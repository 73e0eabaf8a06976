// Package stdlib finds the machine's Python standard library and its .py
// files: the large body of real Python that the benchmarks and the rules'
// stdlib test run on. It is one package, rather than a copy in each test,
// so that every benchmark measures the same files and honours the same
// override.
//
// SGLINT_BENCH_CORPUS=DIR, if set, replaces the standard library with DIR
// (another Python's Lib/, a large project), with the same folders skipped.
package stdlib

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Env names the variable that overrides the standard library's directory.
const Env = "SGLINT_BENCH_CORPUS"

// Dir returns $SGLINT_BENCH_CORPUS if set, else the standard library of the
// python3 on PATH, as sysconfig reports it. When there is no python3 the
// error wraps exec.ErrNotFound.
func Dir() (string, error) {
	if dir := os.Getenv(Env); dir != "" {
		return dir, nil
	}
	out, err := exec.Command("python3", "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output()
	if err != nil {
		return "", fmt.Errorf("locating the Python standard library: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// File is one .py file under a corpus directory.
type File struct {
	Abs string // the directory joined with Rel
	Rel string // relative to the directory, slash-separated
}

// Files lists the .py files under dir in filepath.WalkDir's lexical order.
// Installed third-party packages (site-packages) and bytecode caches are
// never part of the corpus; the test folders only when tests is true, since
// the speed targets of issue 8 are stated on the stdlib without them.
func Files(dir string, tests bool) ([]File, error) {
	var files []File
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "site-packages", "__pycache__":
				return filepath.SkipDir
			case "test", "tests", "idle_test":
				if !tests && p != dir {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if strings.HasSuffix(d.Name(), ".py") {
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			files = append(files, File{Abs: p, Rel: filepath.ToSlash(rel)})
		}
		return nil
	})
	return files, err
}

// Corpus is Dir and Files for a test or benchmark, which it skips when
// there is no corpus: no python3, or no .py files in the directory.
func Corpus(tb testing.TB, tests bool) (dir string, files []File) {
	tb.Helper()
	dir, err := Dir()
	if err != nil {
		tb.Skip(err)
	}
	files, err = Files(dir, tests)
	if err != nil || len(files) == 0 {
		tb.Skipf("no Python files at %s (%v)", dir, err)
	}
	return dir, files
}

// Sources reads the files, in the same order; a file that cannot be read
// fails tb, so that the sources stay aligned with the files.
func Sources(tb testing.TB, files []File) [][]byte {
	tb.Helper()
	srcs := make([][]byte, len(files))
	for i, f := range files {
		src, err := os.ReadFile(f.Abs)
		if err != nil {
			tb.Fatal(err)
		}
		srcs[i] = src
	}
	return srcs
}
