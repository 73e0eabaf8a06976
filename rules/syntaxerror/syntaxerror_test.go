package syntaxerror_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sglint/sglint/analyzer"
	"github.com/sglint/sglint/analyzer/checker"
	"github.com/sglint/sglint/rules/syntaxerror"
)

func TestSyntaxError(t *testing.T) {
	const utf8Msg = "invalid UTF-8 (byte 0x%02x); Python reads source as UTF-8 unless a coding declaration names another encoding"
	for _, tc := range []struct {
		name, src string
		want      string // "line:col function: message", "" for no finding
	}{
		{"clean", "def f():\n    return 1\n", ""},
		{"empty", "", ""},
		{"bom", "\xef\xbb\xbfx = 1\n", ""},
		{"parse error", "def f(:\n    pass\n", "1:6 f: syntax error: `(` was never closed"},
		{"long error text", "x = 1 if \"" + strings.Repeat("y", 30) + "\"\n", "1:1 : syntax error: cannot parse `x = 1 if \"yyyyyyyyyy…`"},
		{"multi-line error text", "if x:\n if y:\n  z = 1 + \\\n  2 if\nwhile\n", "3:3 : syntax error: cannot parse `z = 1 + \\…`"},
		{"unclosed", "x = (1,\n", "1:5 : syntax error: `(` was never closed"},
		{"invalid byte", "x = 1\ny = '\xff'\n", "2:6 : " + sprintf(utf8Msg, 0xff)},
		{"column in code points", "x = 'é\xfe'\n", "1:7 : " + sprintf(utf8Msg, 0xfe)},
		{"truncated sequence", "s = 'ok'\n# \xe2\x82\n", "2:3 : " + sprintf(utf8Msg, 0xe2)},
		{"inside a function", "class C:\n    def m(self):\n        return '\xc0'\n", "3:17 C.m: " + sprintf(utf8Msg, 0xc0)},
		{"before a parse error", "def f(:\n    '\xff'\n", "2:6 f: " + sprintf(utf8Msg, 0xff)},
		{"utf-8 declared", "# -*- coding: utf-8 -*-\ns = '\xe9'\n", "2:6 : " + sprintf(utf8Msg, 0xe9)},
		{"latin-1 declared", "# -*- coding: latin-1 -*-\ns = '\xe9t\xe9'\n", ""},
		{"declared on line 2", "#!/usr/bin/env python\n# vim: set fileencoding=cp1252 :\ns = '\x93'\n", ""},
		{"cookie after code is void", "x = 1\n# coding: latin-1\ns = '\xe9'\n", "3:6 : " + sprintf(utf8Msg, 0xe9)},
		{"cookie on line 3 is void", "#\n#\n# coding: latin-1\ns = '\xe9'\n", "4:6 : " + sprintf(utf8Msg, 0xe9)},
		{"other encoding still parsed", "# coding: latin-1\ndef f(:\n    s = '\xe9'\n", "2:6 f: syntax error: `(` was never closed"},
		{"missing colon", "class C:\n    def m(self)\n        pass\n", "2:16 : syntax error: expected `:`"},
		{"python 2 print: not a syntax check", "print \"x\"\n", ""},
		{"missing block: not a syntax check", "def f():\nreturn 1\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := checker.Run([]checker.Input{{Path: "t.py", Src: []byte(tc.src), Report: true}},
				checker.Options{Rules: []*analyzer.Rule{syntaxerror.Rule}})
			require.Empty(t, res.Problems)
			if tc.want == "" {
				assert.Empty(t, res.Diagnostics)
				return
			}
			require.Len(t, res.Diagnostics, 1)
			d := res.Diagnostics[0]
			assert.Equal(t, tc.want, sprintf("%d:%d %s: %s", d.Start.Line, d.Start.Column, d.Function, d.Message))
		})
	}
}

var sprintf = fmt.Sprintf
