package syntax

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

// The subset of tree-sitter's C API (v0.25, ABI 15) that flattening needs.
// The runtime itself is linked in by github.com/tree-sitter/go-tree-sitter;
// declaring the prototypes here avoids depending on its header path.
typedef struct TSTree TSTree;
typedef struct TSNode { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct TSTreeCursor { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;

typedef struct TSParser TSParser;
TSTree *ts_parser_parse_string(TSParser *self, const TSTree *old_tree, const char *string, uint32_t length);
void ts_parser_reset(TSParser *self);
void ts_tree_delete(TSTree *self);
TSNode ts_tree_root_node(const TSTree *self);
uint32_t ts_node_descendant_count(TSNode self);
uint16_t ts_node_symbol(TSNode self);
uint32_t ts_node_start_byte(TSNode self);
uint32_t ts_node_end_byte(TSNode self);
bool ts_node_is_missing(TSNode self);
bool ts_node_is_extra(TSNode self);
TSTreeCursor ts_tree_cursor_new(TSNode node);
void ts_tree_cursor_delete(TSTreeCursor *self);
TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
uint16_t ts_tree_cursor_current_field_id(const TSTreeCursor *self);
bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);
bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);
bool ts_tree_cursor_goto_parent(TSTreeCursor *self);
void ts_set_allocator(void *(*m)(size_t), void *(*c)(size_t, size_t), void *(*r)(void *, size_t), void (*f)(void *));

typedef struct {
	uint32_t start, end;
	int32_t parent, subtree_end;
	uint16_t kind;
	uint8_t field;
	uint8_t flags;
} sgl_node;

enum { SGL_NAMED = 1, SGL_MISSING = 2, SGL_EXTRA = 4, SGL_ERROR = 8 };

static uint32_t sgl_count(const TSTree *tree) {
	return ts_node_descendant_count(ts_tree_root_node(tree));
}

// sgl_flatten walks the whole tree once, in C, and writes it in preorder into
// out (capacity cap): one cgo call per file instead of several per node.
// Symbols are mapped to their canonical kind through canon (nsym entries)
// and get the flags that follow from the symbol (named, error) from flags.
// A node's first child and next sibling are not stored: in preorder the
// first child is the next node, and the next sibling is where the subtree
// ends, when those have the right parent.
static uint32_t sgl_flatten(const TSTree *tree, sgl_node *out, uint32_t cap,
                            const uint16_t *canon, const uint8_t *symflags, uint32_t nsym) {
	TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
	uint32_t n = 0;
	int32_t parent = -1;
	while (n < cap) {
		TSNode node = ts_tree_cursor_current_node(&c);
		sgl_node *o = &out[n];
		uint16_t sym = ts_node_symbol(node);
		o->start = ts_node_start_byte(node);
		o->end = ts_node_end_byte(node);
		o->parent = parent;
		o->subtree_end = (int32_t)cap;
		o->field = (uint8_t)ts_tree_cursor_current_field_id(&c);
		uint8_t fl = (ts_node_is_missing(node) ? SGL_MISSING : 0) |
		             (ts_node_is_extra(node) ? SGL_EXTRA : 0);
		if (sym < nsym) {
			o->kind = canon[sym];
			fl |= symflags[sym];
		} else { // ts_builtin_sym_error (0xFFFF)
			o->kind = sym;
			fl |= SGL_NAMED | SGL_ERROR;
		}
		o->flags = fl;
		int32_t self = (int32_t)n++;
		if (ts_tree_cursor_goto_first_child(&c)) {
			parent = self;
			continue;
		}
		out[self].subtree_end = (int32_t)n;
		for (;;) {
			if (ts_tree_cursor_goto_next_sibling(&c)) break;
			if (!ts_tree_cursor_goto_parent(&c)) goto done;
			out[parent].subtree_end = (int32_t)n; // the cursor is back on parent: its subtree is complete
			parent = out[parent].parent;
		}
	}
done:
	// Normally a no-op; if the count was short, close the open subtrees.
	for (int32_t p = parent; p >= 0; p = out[p].parent) out[p].subtree_end = (int32_t)n;
	ts_tree_cursor_delete(&c);
	return n;
}

// sgl_parse parses src and returns the tree (NULL if tree-sitter gave up).
// ts_parser_parse_string reads the buffer in place; the binding's Parse copies
// the whole remaining text on every read callback, quadratic on big files.
static TSTree *sgl_parse(TSParser *p, const char *src, uint32_t len) {
	ts_parser_reset(p);
	return ts_parser_parse_string(p, NULL, src, len);
}

static void sgl_use_libc_allocator(void) { ts_set_allocator(NULL, NULL, NULL, NULL); }

#ifdef __GLIBC__
#include <malloc.h>
static void sgl_release_memory(void) { malloc_trim(0); }
#else
static void sgl_release_memory(void) {}
#endif
*/
import "C"

import (
	"fmt"
	"math"
	"time"
	"unsafe"

	ts "github.com/tree-sitter/go-tree-sitter"
)

// v0.25.0 of the binding routes every C allocation through a Go callback,
// which makes parsing about 1.45x slower; tree-sitter's own default (libc) is
// restored once, before any parser exists.
func init() { C.sgl_use_libc_allocator() }

// ReleaseMemory gives the C heap's free memory back to the system. Parsing
// a file takes several times its tree's size in C memory, which the C
// allocator keeps for the next parse; call this when parsing is over (or
// rare), so that later Go allocations do not stack on top of it.
func ReleaseMemory() { C.sgl_release_memory() }

// parseFlat parses src with p and copies the tree into Go memory, into buf
// if it is large enough (else into a new slice). The C tree is created and
// deleted here, exactly once: no tree-sitter node escapes. The time spent
// parsing and flattening is added to tm.
func parseFlat(p *ts.Parser, src []byte, buf []Node, tm *Timing) ([]Node, error) {
	if len(src) > math.MaxUint32/2 {
		return nil, fmt.Errorf("file too large to parse (%d bytes)", len(src))
	}
	// ts.Parser is a struct holding only the *C.TSParser; read that pointer.
	inner := *(**C.TSParser)(unsafe.Pointer(p))
	var cs *C.char
	if len(src) > 0 {
		cs = (*C.char)(unsafe.Pointer(&src[0]))
	}
	t0 := time.Now()
	tree := C.sgl_parse(inner, cs, C.uint32_t(len(src)))
	t1 := time.Now()
	tm.Parse += t1.Sub(t0)
	if tree == nil {
		return nil, fmt.Errorf("tree-sitter could not parse the file")
	}
	defer func() {
		C.ts_tree_delete(tree)
		tm.Flatten += time.Since(t1)
	}()
	count := uint32(C.sgl_count(tree))
	nodes := buf[:0]
	if uint32(cap(nodes)) < count {
		// The C walk writes every field of every node: a reused buffer
		// needs no clearing, a new one is cleared by make.
		nodes = make([]Node, count, count+count/4)
	}
	nodes = nodes[:count]
	if count == 0 {
		return nodes, nil
	}
	got := uint32(C.sgl_flatten(tree, (*C.sgl_node)(unsafe.Pointer(&nodes[0])), C.uint32_t(count),
		(*C.uint16_t)(unsafe.Pointer(&canonical[0])), (*C.uint8_t)(unsafe.Pointer(&symbolFlags[0])), C.uint32_t(len(canonical))))
	nodes = nodes[:got]
	for i := range nodes {
		if nodes[i].subtreeEnd > NodeID(got) { // a short walk (never seen): keep ranges inside the tree
			nodes[i].subtreeEnd = NodeID(got)
		}
	}
	return nodes, nil
}

// Compile-time check that Node mirrors sgl_node's layout.
var _ [unsafe.Sizeof(C.sgl_node{}) - unsafe.Sizeof(Node{})]struct{}
var _ [unsafe.Sizeof(Node{}) - unsafe.Sizeof(C.sgl_node{})]struct{}
