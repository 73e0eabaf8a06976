package scripts

import (
	"archive/zip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// requireVenv skips (or fails under SGLINT_REQUIRE_E2E) without a Python
// that can make virtual environments.
func requireVenv(t *testing.T) string {
	t.Helper()
	requireTool(t, "python3")
	probe := filepath.Join(t.TempDir(), "probe")
	if out, err := exec.Command("python3", "-m", "venv", "--without-pip", probe).CombinedOutput(); err != nil {
		if os.Getenv("SGLINT_REQUIRE_E2E") != "" {
			t.Fatalf("python3 -m venv does not work (SGLINT_REQUIRE_E2E is set): %s", out)
		}
		t.Skipf("python3 -m venv does not work: %s", out)
	}
	return "python3"
}

// buildRelease builds sglint as the release builds it, the tag's version
// (v1.2.3) stamped in, with env added (a cross compiler).
func buildRelease(t *testing.T, name string, env ...string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), name)
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-X github.com/sglint/sglint/internal/cli.Version=v1.2.3", "-o", bin, "./cmd/sglint")
	build.Dir = repoRoot(t)
	build.Env = append(append(os.Environ(), "CGO_ENABLED=1"), env...)
	b, err := build.CombinedOutput()
	require.NoError(t, err, "go build: %s", b)
	return bin
}

// Issue 32: the wheel holds the binary as a script, and pip puts `sglint`
// on the PATH of a fresh virtual environment with no network and no Go;
// the installed command checks the example project.
func TestWheelInstallsSglint(t *testing.T) {
	py := requireVenv(t)
	bin := buildRelease(t, "sglint")
	out := t.TempDir()
	cmd := exec.Command(py, filepath.Join(repoRoot(t), "scripts", "wheel.py"), "--binary", bin, "--version", "v1.2.3",
		"--platform", "linux_x86_64", "--out", out)
	whl, err := cmd.Output()
	require.NoError(t, err)
	path := strings.TrimSpace(string(whl))
	assert.Equal(t, filepath.Join(out, "sglint-1.2.3-py3-none-linux_x86_64.whl"), path)

	z, err := zip.OpenReader(path)
	require.NoError(t, err)
	var names []string
	for _, f := range z.File {
		names = append(names, f.Name)
		if strings.HasSuffix(f.Name, "/scripts/sglint") {
			assert.Equal(t, os.FileMode(0o755), f.Mode().Perm(), "the script is executable")
		}
	}
	require.NoError(t, z.Close())
	assert.Equal(t, []string{"sglint-1.2.3.data/scripts/sglint", "sglint-1.2.3.dist-info/METADATA",
		"sglint-1.2.3.dist-info/WHEEL", "sglint-1.2.3.dist-info/RECORD"}, names)

	// The platform tag must be one this machine's pip accepts: the test
	// builds for it (linux_x86_64 is what pip accepts everywhere on Linux
	// x86_64; releases use a manylinux tag, see build-wheels.sh).
	if out, err := exec.Command("uname", "-m").Output(); err != nil || strings.TrimSpace(string(out)) != "x86_64" {
		t.Skip("the installed wheel is tagged for x86_64")
	}
	venv := filepath.Join(t.TempDir(), "venv")
	// PATH has the venv and the system's programs, not Go's directory.
	run := func(name string, args ...string) string {
		t.Helper()
		c := exec.Command(filepath.Join(venv, "bin", name), args...)
		c.Env = []string{"PATH=" + filepath.Join(venv, "bin") + ":/usr/bin:/bin", "HOME=" + t.TempDir(),
			"PIP_NO_INDEX=1", "PIP_DISABLE_PIP_VERSION_CHECK=1"}
		c.Dir = filepath.Join(repoRoot(t), "testdata", "example")
		b, err := c.CombinedOutput()
		if _, exit := err.(*exec.ExitError); err != nil && !exit {
			t.Fatalf("%s: %v", name, err)
		}
		return string(b)
	}
	require.NoError(t, exec.Command(py, "-m", "venv", venv).Run())
	out2 := run("pip", "install", "-q", "--no-index", "--no-deps", path)
	require.FileExists(t, filepath.Join(venv, "bin", "sglint"), out2)
	assert.Equal(t, "sglint v1.2.3\n", run("sglint", "--version"), "the tag's version, stamped")
	got := run("sglint", "--no-cache", ".")
	assert.Contains(t, got, "Found 7 problems in 2 files", "the example's findings, from the installed command")
}

// The release workflow builds the five platforms with cgo on their own
// runners, checks the stamped version, makes a wheel of each binary, and
// publishes checksums and the wheels alone.
func TestReleaseWorkflow(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot(t), ".github", "workflows", "release.yml"))
	require.NoError(t, err)
	var wf struct {
		On   map[string]map[string][]string `yaml:"on"`
		Jobs map[string]struct {
			Strategy struct {
				Matrix struct {
					Include []map[string]string `yaml:"include"`
				} `yaml:"matrix"`
			} `yaml:"strategy"`
			Steps []struct {
				Run  string            `yaml:"run"`
				Uses string            `yaml:"uses"`
				With map[string]string `yaml:"with"`
				Env  map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	require.NoError(t, yaml.Unmarshal(b, &wf))
	assert.Equal(t, []string{"v*"}, wf.On["push"]["tags"])
	var targets []string
	for _, m := range wf.Jobs["build"].Strategy.Matrix.Include {
		targets = append(targets, m["goos"]+"/"+m["goarch"]+" "+m["wheel"])
	}
	assert.ElementsMatch(t, []string{"linux/amd64 manylinux_2_35_x86_64", "linux/arm64 manylinux_2_35_aarch64",
		"darwin/amd64 macosx_10_15_x86_64", "darwin/arm64 macosx_11_0_arm64", "windows/amd64 win_amd64"}, targets)
	var build string
	for _, s := range wf.Jobs["build"].Steps {
		if s.Env["CGO_ENABLED"] == "1" {
			build = s.Run
		}
	}
	assert.Contains(t, build, "internal/cli.Version=$VERSION", "the tag's version is stamped")
	assert.Contains(t, build, `--version | grep -qx "sglint $VERSION"`, "and checked")
	assert.Contains(t, build, "scripts/wheel.py", "each binary becomes a wheel")
	var release []string
	for _, s := range wf.Jobs["release"].Steps {
		release = append(release, s.Run+s.Uses+s.With["packages-dir"])
	}
	assert.Contains(t, strings.Join(release, "\n"), "sha256sum * > SHA256SUMS")
	assert.Contains(t, strings.Join(release, "\n"), "pypa/gh-action-pypi-publish@release/v1pypi", "the wheels alone go to PyPI")
}

// Issue 32: the linux arm64 binary, built here with Debian's cross gcc,
// runs the example under qemu-user, with the tag's version stamped in.
func TestArm64BinaryUnderEmulation(t *testing.T) {
	cc := requireTool(t, "aarch64-linux-gnu-gcc")
	qemu := requireTool(t, "qemu-aarch64")
	bin := buildRelease(t, "sglint-arm64", "GOOS=linux", "GOARCH=arm64", "CC="+cc)
	run := func(args ...string) string {
		c := exec.Command(qemu, append([]string{"-L", "/usr/aarch64-linux-gnu", bin}, args...)...)
		c.Dir = filepath.Join(repoRoot(t), "testdata", "example")
		out, err := c.CombinedOutput()
		if _, exit := err.(*exec.ExitError); err != nil && !exit {
			t.Fatalf("qemu: %v", err)
		}
		return string(out)
	}
	assert.Equal(t, "sglint v1.2.3\n", run("--version"))
	assert.Contains(t, run("--no-cache", "."), "Found 7 problems in 2 files")
}
