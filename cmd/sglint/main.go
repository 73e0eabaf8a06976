// Command sglint checks sglang's Python sources for KV-transfer failure
// patterns. All logic lives in internal/cli so that tests can drive it.
package main

import (
	"os"

	"github.com/sglint/sglint/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
