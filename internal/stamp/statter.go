package stamp

// A Statter stats many paths in a row. Path copies each path into a new
// NUL-terminated buffer for the system call; a Statter reuses one, where
// the system allows it (statter_raw.go), so that the replay check's
// thousands of stats allocate nothing. A relative path is taken from Dir
// when it is set (the working directory otherwise): a stat relative to an
// open directory walks fewer names than one from the root. A Statter is
// not safe for concurrent use (one per goroutine); a Dir is.
type Statter struct {
	Dir *Dir
	buf []byte
}
