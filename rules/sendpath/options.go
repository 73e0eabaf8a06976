package sendpath

import (
	"fmt"
	"slices"

	"github.com/sglint/sglint/rules/namepattern"
)

// EntryOptions are the options of every rule that follows send paths
// (SGL001, SGL003, SGL004, SGL010). Each rule embeds them in its own
// Options, so the keys and their meaning are the same in every rule's
// table of the configuration.
type EntryOptions struct {
	// EntryPatterns are shell patterns (path.Match syntax) on function
	// names that start a send path; nil means DefaultPatterns, an empty
	// list none.
	EntryPatterns []string `toml:"entry-patterns"`
	// Entries are more entry functions, by qualified name or any dotted
	// tail of it.
	Entries []string `toml:"entries"`
}

// DefaultEntryOptions are the entry options when nothing is configured.
func DefaultEntryOptions() EntryOptions {
	return EntryOptions{EntryPatterns: slices.Clone(DefaultPatterns)}
}

// Validate rejects patterns path.Match cannot read.
func (o *EntryOptions) Validate() error {
	if _, err := namepattern.Compile(o.EntryPatterns); err != nil {
		return fmt.Errorf("entry-patterns: %v", err)
	}
	return nil
}

// Config is the send-path configuration the options describe.
func (o *EntryOptions) Config() Config {
	return Config{Patterns: o.EntryPatterns, Entries: o.Entries}
}
