package cache

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"io"
	"os"
	"sync"
)

// EngineID identifies the running sglint build: its Go build ID, which
// changes whenever the executable does (a new version, a local change), or
// else a hash of the executable. Cached results are only ever read by the
// build that wrote them.
func EngineID() (string, error) {
	engineOnce.Do(func() { engineID, engineErr = computeEngineID() })
	return engineID, engineErr
}

var (
	engineOnce sync.Once
	engineID   string
	engineErr  error
)

func computeEngineID() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if id := elfBuildID(f); id != nil {
		sum := sha256.Sum256(id)
		return hex.EncodeToString(sum[:8]), nil
	}
	// Other formats carry `\xff Go build ID: "…"\n \xff` near the start of
	// the text.
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	const prefix, suffix = "\xff Go build ID: \"", "\"\n \xff"
	if i := bytes.Index(head, []byte(prefix)); i >= 0 {
		rest := head[i+len(prefix):]
		if j := bytes.Index(rest, []byte(suffix)); j > 0 {
			sum := sha256.Sum256(rest[:j])
			return hex.EncodeToString(sum[:8]), nil
		}
	}
	h := sha256.New()
	h.Write(head)
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)[:8]), nil
}

// elfBuildID reads the Go build ID note of an ELF executable, nil if f is
// not one or has none.
func elfBuildID(f *os.File) []byte {
	ef, err := elf.NewFile(f)
	if err != nil {
		return nil
	}
	sec := ef.Section(".note.go.buildid")
	if sec == nil {
		return nil
	}
	note, err := sec.Data()
	// namesz, descsz, type (4 bytes each), "Go\0\0", then the ID.
	if err != nil || len(note) < 16 || string(note[12:16]) != "Go\x00\x00" {
		return nil
	}
	descsz := int(ef.ByteOrder.Uint32(note[4:8]))
	if 16+descsz > len(note) || descsz == 0 {
		return nil
	}
	return note[16 : 16+descsz]
}
