package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// neovimSetup is a Lua block of docs/editors.md and the Neovim version it
// needs.
type neovimSetup struct {
	name         string
	major, minor int
	lua          string
}

// neovimSetups reads the Neovim setups from docs/editors.md, so that the
// test runs what users copy.
func neovimSetups(t *testing.T) []neovimSetup {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "editors.md"))
	require.NoError(t, err)
	doc := string(b)
	section := func(heading string) string {
		i := strings.Index(doc, heading)
		require.GreaterOrEqual(t, i, 0, "docs/editors.md has %q", heading)
		rest := doc[i+len(heading):]
		if j := strings.Index(rest, "\n#"); j >= 0 {
			rest = rest[:j]
		}
		return rest
	}
	blocks := func(s string) []string {
		var out []string
		for _, m := range regexp.MustCompile("(?s)```lua\n(.*?)```").FindAllStringSubmatch(s, -1) {
			out = append(out, m[1])
		}
		return out
	}
	old := blocks(section("### Neovim 0.7 to 0.9"))
	recent := blocks(section("### Neovim 0.10 and later"))
	require.Len(t, old, 1)
	require.Len(t, recent, 2)
	return []neovimSetup{
		{"0.7-0.9 start_client", 0, 7, old[0]},
		{"0.10 vim.lsp.start", 0, 10, recent[0]},
		{"0.11 vim.lsp.config", 0, 11, recent[1]},
	}
}

// nvimVersion is the installed Neovim's major and minor version.
func nvimVersion(t *testing.T, nvim string) (int, int) {
	out, err := exec.Command(nvim, "--version").Output()
	require.NoError(t, err)
	m := regexp.MustCompile(`NVIM v(\d+)\.(\d+)`).FindSubmatch(out)
	require.NotNil(t, m, "%s", out)
	major, _ := strconv.Atoi(string(m[1]))
	minor, _ := strconv.Atoi(string(m[2]))
	return major, minor
}

// The driver, run after the setup: open the backend, wait for sglint's
// diagnostic, edit the guard in, wait for it to clear.
const neovimDriver = `
vim.cmd('filetype on')
local out = assert(io.open(os.getenv('SGLINT_NVIM_OUT'), 'w'))
local function log(s) out:write(s .. '\n') out:flush() end
vim.cmd('edit ' .. os.getenv('SGLINT_NVIM_FILE'))
local buf = vim.api.nvim_get_current_buf()
if not vim.wait(60000, function() return #vim.diagnostic.get(buf) > 0 end, 100) then
  log('timeout: no diagnostic')
end
for _, d in ipairs(vim.diagnostic.get(buf)) do
  log(string.format('diagnostic %d: %s', d.lnum + 1, d.message))
end
for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
  if l:find('self.peers[job.peer]', 1, true) then
    vim.api.nvim_buf_set_lines(buf, i - 1, i, false, {
      '            info = self.peers.get(job.peer)',
      '            if info is None:',
      '                continue',
    })
    break
  end
end
log(vim.wait(60000, function() return #vim.diagnostic.get(buf) == 0 end, 100) and 'cleared' or 'not cleared')
out:close()
vim.cmd('qa!')
`

const neovimBackend = `import threading

from disagg.base import BaseKVManager


class PeerManager(BaseKVManager):
    def __init__(self, jobs, agent):
        self.jobs = jobs
        self.agent = agent
        self.peers = {}
        threading.Thread(target=self.transfer_worker, daemon=True).start()

    def register(self, name, info):
        self.peers[name] = info

    def transfer_worker(self):
        while True:
            job = self.jobs.get()
            info = self.peers[job.peer]
            self.agent.post(info, job.pages)
`

// TestNeovimSetups runs each Neovim setup of docs/editors.md that the
// installed Neovim supports, headless, against sglint server (issue 31,
// item 5). Debian stable's Neovim is 0.7: the 0.10 and 0.11 setups run
// where a newer one is installed.
func TestNeovimSetups(t *testing.T) {
	nvim := requireTool(t, "nvim")
	major, minor := nvimVersion(t, nvim)
	bin := buildSglint(t)
	for _, s := range neovimSetups(t) {
		t.Run(s.name, func(t *testing.T) {
			if major < s.major || major == s.major && minor < s.minor {
				t.Skipf("needs Neovim %d.%d, this is %d.%d", s.major, s.minor, major, minor)
			}
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{
				"pyproject.toml":     "[project]\nname = \"demo\"\n",
				"disagg/base.py":     "class BaseKVManager:\n    pass\n",
				"disagg/conn.py":     neovimBackend,
				"init.lua":           s.lua,
				"driver.lua":         neovimDriver,
				"home/.keep":         "",
				"state/.keep":        "",
				"disagg/__init__.py": "",
			})
			outFile := filepath.Join(dir, "result.txt")
			cmd := exec.Command(nvim, "--headless", "-u", filepath.Join(dir, "init.lua"), "-i", "NONE",
				"-c", "luafile "+filepath.Join(dir, "driver.lua"))
			cmd.Dir = dir
			cmd.Env = append(os.Environ(),
				"PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
				"HOME="+filepath.Join(dir, "home"), "XDG_STATE_HOME="+filepath.Join(dir, "state"),
				"SGLINT_NVIM_OUT="+outFile, "SGLINT_NVIM_FILE="+filepath.Join(dir, "disagg", "conn.py"))
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
			b, err := os.ReadFile(outFile)
			require.NoError(t, err, "nvim wrote no result: %s", out)
			result := string(b)
			assert.Regexp(t, "diagnostic 19: `self.peers\\[job.peer\\]` raises KeyError", result)
			assert.True(t, strings.HasSuffix(result, "cleared\n") && !strings.HasSuffix(result, "not cleared\n"),
				"the guard clears the diagnostic: %s", result)
		})
	}
}
