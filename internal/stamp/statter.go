package stamp

// A Statter stats many paths in a row. Path copies each path into a new
// NUL-terminated buffer for the system call; a Statter reuses one, where
// the system allows it (statter_raw.go), so that the replay check's
// thousands of stats allocate nothing. It is not safe for concurrent use:
// one per goroutine.
type Statter struct{ buf []byte }
