package stamp

// A Statter stats paths, a relative one under Dir when it is set (the
// working directory otherwise). Raw fstatat from an open directory with a
// reused buffer measured within noise of this (issue 33) and went.
type Statter struct {
	Dir *Dir
}
