package pymodel

import (
	"strings"
	"sync"
)

// builtinNames are the public names of Python's builtins module (3.11):
// they resolve to themselves as external symbols.
var builtinNames = sync.OnceValue(func() map[string]bool { // built on first use, not at every start
	m := map[string]bool{}
	for _, n := range strings.Fields(builtinList) {
		m[n] = true
	}
	return m
})

const builtinList = "" +
	"ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup " +
	"BlockingIOError BrokenPipeError BufferError BytesWarning ChildProcessError " +
	"ConnectionAbortedError ConnectionError ConnectionRefusedError ConnectionResetError " +
	"DeprecationWarning EOFError Ellipsis EncodingWarning EnvironmentError Exception " +
	"ExceptionGroup False FileExistsError FileNotFoundError FloatingPointError FutureWarning " +
	"GeneratorExit IOError ImportError ImportWarning IndentationError IndexError " +
	"InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError " +
	"ModuleNotFoundError NameError None NotADirectoryError NotImplemented NotImplementedError " +
	"OSError OverflowError PendingDeprecationWarning PermissionError ProcessLookupError " +
	"RecursionError ReferenceError ResourceWarning RuntimeError RuntimeWarning " +
	"StopAsyncIteration StopIteration SyntaxError SyntaxWarning SystemError SystemExit TabError " +
	"TimeoutError True TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError " +
	"UnicodeError UnicodeTranslateError UnicodeWarning UserWarning ValueError Warning " +
	"ZeroDivisionError abs aiter all anext any ascii bin bool breakpoint bytearray bytes " +
	"callable chr classmethod compile complex copyright credits delattr dict dir divmod " +
	"enumerate eval exec exit filter float format frozenset getattr globals hasattr hash help " +
	"hex id input int isinstance issubclass iter len license list locals map max memoryview min " +
	"next object oct open ord pow print property quit range repr reversed round set setattr " +
	"slice sorted staticmethod str sum super tuple type vars zip "

// builtinExcParent maps each builtin exception to its first base.
var builtinExcParent = map[string]string{
	"ArithmeticError":           "Exception",
	"AssertionError":            "Exception",
	"AttributeError":            "Exception",
	"BaseExceptionGroup":        "BaseException",
	"BlockingIOError":           "OSError",
	"BrokenPipeError":           "ConnectionError",
	"BufferError":               "Exception",
	"BytesWarning":              "Warning",
	"ChildProcessError":         "OSError",
	"ConnectionAbortedError":    "ConnectionError",
	"ConnectionError":           "OSError",
	"ConnectionRefusedError":    "ConnectionError",
	"ConnectionResetError":      "ConnectionError",
	"DeprecationWarning":        "Warning",
	"EOFError":                  "Exception",
	"EncodingWarning":           "Warning",
	"EnvironmentError":          "Exception",
	"Exception":                 "BaseException",
	"ExceptionGroup":            "BaseExceptionGroup",
	"FileExistsError":           "OSError",
	"FileNotFoundError":         "OSError",
	"FloatingPointError":        "ArithmeticError",
	"FutureWarning":             "Warning",
	"GeneratorExit":             "BaseException",
	"IOError":                   "Exception",
	"ImportError":               "Exception",
	"ImportWarning":             "Warning",
	"IndentationError":          "SyntaxError",
	"IndexError":                "LookupError",
	"InterruptedError":          "OSError",
	"IsADirectoryError":         "OSError",
	"KeyError":                  "LookupError",
	"KeyboardInterrupt":         "BaseException",
	"LookupError":               "Exception",
	"MemoryError":               "Exception",
	"ModuleNotFoundError":       "ImportError",
	"NameError":                 "Exception",
	"NotADirectoryError":        "OSError",
	"NotImplementedError":       "RuntimeError",
	"OSError":                   "Exception",
	"OverflowError":             "ArithmeticError",
	"PendingDeprecationWarning": "Warning",
	"PermissionError":           "OSError",
	"ProcessLookupError":        "OSError",
	"RecursionError":            "RuntimeError",
	"ReferenceError":            "Exception",
	"ResourceWarning":           "Warning",
	"RuntimeError":              "Exception",
	"RuntimeWarning":            "Warning",
	"StopAsyncIteration":        "Exception",
	"StopIteration":             "Exception",
	"SyntaxError":               "Exception",
	"SyntaxWarning":             "Warning",
	"SystemError":               "Exception",
	"SystemExit":                "BaseException",
	"TabError":                  "IndentationError",
	"TimeoutError":              "OSError",
	"TypeError":                 "Exception",
	"UnboundLocalError":         "NameError",
	"UnicodeDecodeError":        "UnicodeError",
	"UnicodeEncodeError":        "UnicodeError",
	"UnicodeError":              "ValueError",
	"UnicodeTranslateError":     "UnicodeError",
	"UnicodeWarning":            "Warning",
	"UserWarning":               "Warning",
	"ValueError":                "Exception",
	"Warning":                   "Exception",
	"ZeroDivisionError":         "ArithmeticError",
}

// ExceptionAncestors returns the qualified names of the classes an
// exception class derives from, itself included: project classes along
// their MRO, builtin ones along Python's hierarchy. Unknown external
// classes yield only themselves.
func (ix *Index) ExceptionAncestors(name string) []string {
	out := []string{name}
	if c, ok := ix.classes[name]; ok {
		out = out[:0]
		for _, b := range ix.MRO(c) {
			out = append(out, b.Name)
			for p := builtinExcParent[b.Name]; p != ""; p = builtinExcParent[p] {
				out = append(out, p)
			}
		}
		return out
	}
	for p := builtinExcParent[name]; p != ""; p = builtinExcParent[p] {
		out = append(out, p)
	}
	return out
}

// Catches reports whether an except clause naming caught (qualified, as
// from ExceptionName; "" for a bare except) catches an exception of class
// raised. An unknown raised class is caught only by bare, BaseException and
// Exception clauses.
func (ix *Index) Catches(caught, raised string) bool {
	switch caught {
	case "", "BaseException":
		return true
	case "Exception":
		switch raised {
		case "SystemExit", "KeyboardInterrupt", "GeneratorExit", "BaseExceptionGroup":
			return false
		}
		return true
	}
	for _, a := range ix.ExceptionAncestors(raised) {
		if a == caught {
			return true
		}
	}
	return false
}

// ExceptionName qualifies an exception expression as written in function
// fn of file: a project class's qualified name, an external dotted name
// ("KeyError", "zmq.ZMQError"), or the text itself when unresolved.
func (ix *Index) ExceptionName(file, fn int32, text string) string {
	sym := ix.Resolve(file, fn, text)
	switch sym.Kind {
	case SymClass, SymExternal:
		return sym.Name
	}
	return text
}
