package cli

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sglint/sglint/analyzer/config"
	"github.com/sglint/sglint/analyzer/records"
)

func TestPrintErrors(t *testing.T) {
	var b strings.Builder
	list := config.Errors{{File: "a.toml", Line: 2, Msg: "one"}, {File: "a.toml", Line: 5, Msg: "two"}}
	printErrors[config.Errors](&b, fmt.Errorf("wrapped: %w", list))
	assert.Equal(t, "sglint: "+list[0].Error()+"\nsglint: "+list[1].Error()+"\n", b.String(), "a line a problem, even wrapped")

	b.Reset()
	printErrors[records.Errors](&b, list)
	assert.Equal(t, "sglint: "+list.Error()+"\n", b.String(), "another list type is an error like any other")

	b.Reset()
	printErrors[config.Errors](&b, errors.New("plain"))
	assert.Equal(t, "sglint: plain\n", b.String())
}
