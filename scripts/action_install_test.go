package scripts

import (
	"crypto/sha256"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// installRun runs scripts/action-install.sh as the action's first step
// does, for an action unpacked at ref, against the releases served from
// dir; it returns the log, the exit code and GITHUB_OUTPUT.
func installRun(t *testing.T, releases, ref string) (string, int, string, string) {
	t.Helper()
	requireTool(t, "curl")
	temp := t.TempDir()
	output := filepath.Join(temp, "output.txt")
	script, err := filepath.Abs("action-install.sh")
	require.NoError(t, err)
	cmd := exec.Command("bash", script)
	cmd.Env = append(os.Environ(), "GITHUB_ACTION_PATH=/home/runner/work/_actions/sglint/sglint/"+ref,
		"GITHUB_OUTPUT="+output, "RUNNER_TEMP="+temp, "RUNNER_OS=Linux", "RUNNER_ARCH=X64",
		"SGLINT_RELEASES="+releases)
	out, err := cmd.CombinedOutput()
	code := exitCode(t, err, string(out))
	got, _ := os.ReadFile(output)
	return string(out), code, string(got), temp
}

// The action installs the release binary of its own tag, checked against
// SHA256SUMS, and builds from source for a branch, a commit or a tag with
// no release (issue 32, item 4).
func TestActionInstallsTheReleaseBinary(t *testing.T) {
	bin := buildSglint(t)
	b, err := os.ReadFile(bin)
	require.NoError(t, err)
	files := map[string][]byte{
		"v1.2.3/sglint-v1.2.3-linux-amd64": b,
		"v1.2.3/SHA256SUMS": fmt.Appendf(nil, "%x  sglint-v1.2.3-linux-amd64\n%x  sglint-v1.2.3-darwin-arm64\n",
			sha256.Sum256(b), sha256.Sum256([]byte("other"))),
		"v6.6.6/sglint-v6.6.6-linux-amd64": append([]byte("tampered"), b...),
		"v6.6.6/SHA256SUMS":                fmt.Appendf(nil, "%x  sglint-v6.6.6-linux-amd64\n", sha256.Sum256(b)),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := files[strings.TrimPrefix(r.URL.Path, "/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(body)
	}))
	defer srv.Close()

	log, code, out, temp := installRun(t, srv.URL, "v1.2.3")
	require.Equal(t, 0, code, log)
	assert.Equal(t, "installed=true\n", out)
	version, err := exec.Command(filepath.Join(temp, "sglint"), "version").Output()
	require.NoError(t, err, "the installed binary runs")
	assert.True(t, strings.HasPrefix(string(version), "sglint "))

	for _, ref := range []string{"main", "0123456789abcdef0123456789abcdef01234567", "v9.9.9"} {
		log, code, out, temp = installRun(t, srv.URL, ref)
		assert.Equal(t, 0, code, log)
		assert.Equal(t, "installed=false\n", out, ref)
		assert.Contains(t, log, "building from source", ref)
		assert.NoFileExists(t, filepath.Join(temp, "sglint"))
	}

	log, code, out, temp = installRun(t, srv.URL, "v6.6.6")
	assert.Equal(t, 1, code, "a binary that is not the released one fails the step")
	assert.Contains(t, log, "::error title=sglint::the downloaded sglint-v6.6.6-linux-amd64 does not match the release's SHA256SUMS")
	assert.Empty(t, out)
	assert.NoFileExists(t, filepath.Join(temp, "sglint"))
}

// action.yml builds from source only when the install step installed
// nothing, and its cache key does not read github.action_ref.
func TestActionYAMLInstallsBeforeBuilding(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "action.yml"))
	require.NoError(t, err)
	var action struct {
		Runs struct {
			Steps []struct {
				ID   string            `yaml:"id"`
				Name string            `yaml:"name"`
				If   string            `yaml:"if"`
				Uses string            `yaml:"uses"`
				Run  string            `yaml:"run"`
				Env  map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	require.NoError(t, yaml.Unmarshal(b, &action))
	steps := action.Runs.Steps
	require.GreaterOrEqual(t, len(steps), 4)
	assert.Equal(t, "install", steps[0].ID)
	assert.Contains(t, steps[0].Run, "scripts/action-install.sh")
	for _, s := range steps[1:3] {
		assert.Equal(t, "steps.install.outputs.installed != 'true'", s.If, s.Name)
	}
	assert.Equal(t, "actions/setup-go@v5", steps[1].Uses)
	assert.Contains(t, steps[2].Run, "go build")
	assert.NotContains(t, string(b), "github.action_ref }}", "a composite action does not get it reliably")
}
