//go:build !linux

package replay

import "io/fs"

// Runs are recorded on Linux only.
const statSupported = false

func stampOf(fs.FileInfo) (Stamp, bool) { return Stamp{}, false }

func statPath(string) (Stamp, bool, bool, bool) { return Stamp{}, false, false, false }
