package cache

import (
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The build ID found by its note's shape in the first read is the one
// debug/elf reads from the section, on this test's own executable.
func TestELFBuildIDFromTheHead(t *testing.T) {
	exe, err := os.Executable()
	require.NoError(t, err)
	ef, err := elf.Open(exe)
	if err != nil {
		t.Skip("not an ELF executable here")
	}
	defer ef.Close()
	sec := ef.Section(".note.go.buildid")
	require.NotNil(t, sec, "go test builds with a build ID")
	note, err := sec.Data()
	require.NoError(t, err)
	want := note[16 : 16+ef.ByteOrder.Uint32(note[4:8])]

	data, err := os.ReadFile(exe)
	require.NoError(t, err)
	head := data[:min(len(data), 64<<10)]
	assert.Equal(t, string(want), string(elfBuildID(head)))

	assert.Nil(t, elfBuildID(head[:100]), "cut before the note")
	assert.Nil(t, elfBuildID([]byte("not an executable, and long enough to have a header: Go\x00\x00....")))
	assert.Equal(t, string(want), string(elfBuildID(data[:min(len(data), 4<<10)])),
		"in the first page, which EngineID reads first")
	id, err := EngineID()
	require.NoError(t, err)
	sum := sha256.Sum256(want)
	assert.Equal(t, hex.EncodeToString(sum[:8]), id)
}
