package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
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
	// The ELF note sits in the first page: read that first, and the rest
	// of the head only for the other formats (every run pays this read).
	head := make([]byte, 4<<10, 64<<10)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	id := elfBuildID(head)
	if id == nil {
		if n == 4<<10 {
			m, _ := io.ReadFull(f, head[n:cap(head)])
			head = head[:n+m]
		}
		if id = elfBuildID(head); id == nil {
			id = goBuildID(head)
		}
	}
	if id != nil {
		sum := sha256.Sum256(id)
		return hex.EncodeToString(sum[:8]), nil
	}
	h := sha256.New()
	h.Write(head)
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)[:8]), nil
}

// goBuildID finds the build ID other formats than ELF carry near the start
// of the text, as `\xff Go build ID: "…"\n \xff`; nil without one.
func goBuildID(head []byte) []byte {
	const prefix, suffix = "\xff Go build ID: \"", "\"\n \xff"
	if i := bytes.Index(head, []byte(prefix)); i >= 0 {
		rest := head[i+len(prefix):]
		if j := bytes.Index(rest, []byte(suffix)); j > 0 {
			return rest[:j]
		}
	}
	return nil
}

// elfBuildID finds the Go build ID note in head, the start of an ELF
// executable, nil if head is not one or holds none. A note is namesz (4),
// descsz and type (4 for the build ID), each a word in the file's byte
// order, then "Go\0\0" and the ID; the Go linker writes it right after
// the program headers, in the first page. Found by its shape, from one
// read: debug/elf reads every section header first (a dozen reads, and
// its packages' init, in every run).
func elfBuildID(head []byte) []byte {
	if len(head) < 64 || string(head[:4]) != "\x7fELF" {
		return nil
	}
	var bo binary.ByteOrder = binary.LittleEndian
	if head[5] == 2 { // ELFDATA2MSB
		bo = binary.BigEndian
	}
	for i := 16; i < len(head); {
		j := bytes.Index(head[i:], []byte("Go\x00\x00"))
		if j < 0 {
			return nil
		}
		j += i
		if j >= 12 && bo.Uint32(head[j-12:]) == 4 && bo.Uint32(head[j-4:]) == 4 {
			if n := int(bo.Uint32(head[j-8:])); n > 0 && j+4+n <= len(head) {
				return head[j+4 : j+4+n]
			}
		}
		i = j + 1
	}
	return nil
}
