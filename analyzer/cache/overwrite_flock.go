//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package cache

import (
	"os"

	"golang.org/x/sys/unix"
)

// overwrite writes parts over the entry file at path, which must exist,
// and cuts it to their length. A writer holds an exclusive flock on the
// file while it writes (released by the close); one that finds it held
// does not wait (a stopped process would hold it for ever) but fails, and
// Put writes the entry aside and renames it into place, so the other
// writer's bytes go to a file no longer there. Either way the last writer
// leaves a whole entry; readers take no lock (Put). A symbolic link there
// is not followed (the open fails, and Put replaces it): a writable cache
// directory must not let a link steer a write to another file.
func overwrite(path string, parts ...[]byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|unix.O_NOFOLLOW, 0)
	if err != nil {
		return err
	}
	err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	var off int64
	for _, b := range parts {
		if err == nil {
			_, err = f.WriteAt(b, off)
			off += int64(len(b))
		}
	}
	if err == nil {
		err = f.Truncate(off)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
