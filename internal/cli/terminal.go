package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/config"
)

// colorOn decides whether the text formats are coloured: --color always
// or never wins; auto (the default) honours NO_COLOR (https://no-color.org)
// and then FORCE_COLOR, and otherwise colours a terminal that is not dumb.
func colorOn(mode string, stdout io.Writer) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "", "auto":
	default:
		return false, fmt.Errorf("--color: want auto, always or never, got %q", mode)
	}
	if os.Getenv("NO_COLOR") != "" {
		return false, nil
	}
	if f := os.Getenv("FORCE_COLOR"); f != "" && f != "0" && f != "false" {
		return true, nil
	}
	return isTerminal(stdout) && os.Getenv("TERM") != "dumb", nil
}

// colorEnv is what colorOn reads from the environment, for the replay
// record's key: a run replayed under another NO_COLOR must not print the
// recorded colours.
func colorEnv() []string {
	return []string{"NO_COLOR=" + os.Getenv("NO_COLOR"), "FORCE_COLOR=" + os.Getenv("FORCE_COLOR"), "TERM=" + os.Getenv("TERM")}
}

// outputFile opens --output-file for the report, creating its directory.
// The file is written whole at the end of the run, as stdout would be.
func outputFile(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("--output-file: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("--output-file: %w", err)
	}
	return f, nil
}

// showFiles prints the files a run reads and reports on, one a line,
// sorted (--show-files). By default the rules analyse the KV code among
// them and what it calls; SGL000 and SGL100 read each of them.
func showFiles(w io.Writer, set *inputSet) {
	files := make([]string, 0, len(set.reported))
	for p := range set.reported {
		files = append(files, p)
	}
	slices.Sort(files)
	for _, p := range files {
		fmt.Fprintln(w, p)
	}
}

// showSettings prints, for each path, the configuration a run would use
// there: the file it comes from, the rules that run after the command
// line's selection, and every setting with its value (defaults included),
// as TOML a user can copy into [tool.sglint] (--show-settings).
func showSettings(w io.Writer, paths []string, res *config.Resolver, all []*analyzer.Rule, cli analyzer.Selection) error {
	for i, p := range paths {
		var cfg *config.Config
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			cfg = res.ForDir(p)
		} else if err == nil {
			cfg = res.ForFile(p)
		} else {
			return err
		}
		if err := res.Err(cfg); err != nil {
			return err
		}
		rules, err := analyzer.SelectLayers(all, cfg.Selection, cli)
		if err != nil {
			return err
		}
		if i > 0 {
			fmt.Fprintln(w)
		}
		src := cfg.File
		if src == "" {
			src = "none found (defaults)"
		}
		var ids []string
		for _, r := range rules {
			ids = append(ids, r.ID)
		}
		fmt.Fprintf(w, "# Settings for %s\n# Configuration file: %s\n# Rules that run: %s\n", p, src, strings.Join(ids, ", "))
		if err := writeSettingsTOML(w, cfg, all); err != nil {
			return err
		}
	}
	return nil
}

// writeSettingsTOML writes cfg as a [tool.sglint] table: the file's own
// keys, then every rule's and section's options (defaults where the file
// sets none).
func writeSettingsTOML(w io.Writer, cfg *config.Config, all []*analyzer.Rule) error {
	top := map[string]any{
		"select":            orEmpty(cfg.Selection.Select),
		"extend-select":     orEmpty(cfg.Selection.ExtendSelect),
		"ignore":            orEmpty(cfg.Selection.Ignore),
		"respect-gitignore": cfg.RespectGitignore,
		"records":           orEmpty(cfg.Records),
	}
	if cfg.Exclude != nil {
		top["exclude"] = cfg.Exclude
	}
	top["extend-exclude"] = orEmpty(cfg.ExtendExclude)
	pfi := map[string][]string{}
	for _, p := range cfg.PerFileIgnores {
		pfi[p.Pattern] = p.Rules
	}
	top["per-file-ignores"] = pfi
	ruleOpts := map[string]any{}
	sections := map[string]any{}
	for _, r := range all {
		if r.Options != nil {
			ruleOpts[r.ID] = r.OptionsIn(cfg.RuleOptions)
		}
		for _, s := range r.Sections {
			if _, done := sections[s.Key]; !done {
				if v := s.OptionsIn(cfg.SectionOptions); v != nil {
					sections[s.Key] = v
				}
			}
		}
	}
	if len(ruleOpts) > 0 {
		top["rules"] = ruleOpts
	}
	for k, v := range sections {
		top[k] = v
	}
	b, err := toml.Marshal(map[string]any{"tool": map[string]any{"sglint": top}})
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
