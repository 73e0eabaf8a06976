package syntax

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>

// The subset of tree-sitter's C API (v0.25, ABI 15) that flattening needs.
// The runtime itself is linked in by github.com/tree-sitter/go-tree-sitter;
// declaring the prototypes here avoids depending on its header path.
typedef struct TSTree TSTree;
typedef struct TSNode { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct TSTreeCursor { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;

typedef struct TSParser TSParser;
typedef struct TSLanguage TSLanguage;
TSParser *ts_parser_new(void);
void ts_parser_delete(TSParser *self);
bool ts_parser_set_language(TSParser *self, const TSLanguage *language);
TSTree *ts_parser_parse_string(TSParser *self, const TSTree *old_tree, const char *string, uint32_t length);
void ts_tree_delete(TSTree *self);
TSNode ts_tree_root_node(const TSTree *self);
uint32_t ts_node_descendant_count(TSNode self);
uint16_t ts_node_symbol(TSNode self);
uint32_t ts_node_start_byte(TSNode self);
uint32_t ts_node_end_byte(TSNode self);
bool ts_node_is_missing(TSNode self);
bool ts_node_is_extra(TSNode self);
bool ts_node_has_error(TSNode self);
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

// Memory. Parsing a file allocates and frees many small blocks (subtrees,
// stack nodes) and deleting the tree walks it to free them again. Instead,
// sgl_parse_flat gives tree-sitter a bump allocator for the duration of one
// call, in which it creates a parser, parses, copies the tree out and
// forgets everything at once: no free, no tree walk to delete. The arena's
// chunks (the first of 256 KiB, the others of 2 MiB) are kept by the Go
// Parser for its next file. The allocator is selected per thread
// (sgl_cur), and the whole life of every object it allocates is inside one
// C call, on one thread: outside those calls, on any thread, tree-sitter
// gets libc's allocator.
typedef struct sgl_chunk {
	struct sgl_chunk *next;
	size_t cap, used;
	size_t pad; // the header is 32 bytes: data stays 16-byte aligned
	char data[];
} sgl_chunk;

typedef struct {
	sgl_chunk *first, *cur;
} sgl_arena;

static __thread sgl_arena *sgl_cur;

// SGL_ARENA_MAX is bigdata.go's bigSource: keep them equal.
enum { SGL_CHUNK = 2 << 20, SGL_FIRST = 256 << 10, SGL_MAGIC = 0x5a6c, SGL_ARENA_MAX = 2 << 20 };

typedef struct {
	size_t size;
	size_t magic;
} sgl_hdr;

static void *sgl_arena_alloc(sgl_arena *a, size_t n) {
	size_t need = ((n + 15) & ~(size_t)15) + sizeof(sgl_hdr);
	sgl_chunk *c = a->cur;
	while (c && c->used + need > c->cap) {
		c = c->next; // a chunk kept from an earlier file
		if (c) c->used = 0;
	}
	if (!c) {
		size_t size = sizeof(sgl_chunk) + need;
		void *m = NULL;
		if (!a->first && size <= SGL_FIRST) {
			// A parser's first chunk is small and in small pages: a small
			// parse (the piece of an edited file, see reparse.go) touches
			// a few pages instead of a huge page the kernel zeroes whole
			// (0.2 ms).
			size = SGL_FIRST;
			m = malloc(size);
			if (!m) return NULL;
		} else {
			size = (size + SGL_CHUNK - 1) & ~(size_t)(SGL_CHUNK - 1); // whole huge pages
			if (posix_memalign(&m, SGL_CHUNK, size) != 0) return NULL;
#ifdef MADV_HUGEPAGE
			// One fault per 2 MiB instead of per 4 KiB where the kernel
			// allows (transparent huge pages on madvise): chunks are reused
			// from file to file, but each page is faulted in once per parser.
			madvise(m, size, MADV_HUGEPAGE);
#endif
		}
		c = m;
		c->cap = size - sizeof(sgl_chunk);
		c->used = 0;
		c->next = NULL;
		if (a->cur) {
			c->next = a->cur->next;
			a->cur->next = c;
		} else {
			c->next = a->first;
			a->first = c;
		}
	}
	a->cur = c;
	sgl_hdr *h = (sgl_hdr *)(c->data + c->used);
	c->used += need;
	h->size = n;
	h->magic = SGL_MAGIC;
	return h + 1;
}

static void sgl_arena_reset(sgl_arena *a) {
	a->cur = a->first;
	if (a->first) a->first->used = 0;
}

static void sgl_arena_free_all(sgl_arena *a) {
	for (sgl_chunk *c = a->first; c;) {
		sgl_chunk *next = c->next;
		free(c);
		c = next;
	}
	a->first = a->cur = NULL;
}

static void *sgl_malloc(size_t n) {
	return sgl_cur ? sgl_arena_alloc(sgl_cur, n) : malloc(n);
}

static void *sgl_calloc(size_t k, size_t n) {
	if (!sgl_cur) return calloc(k, n);
	if (n && k > (size_t)-1 / n) return NULL;
	void *p = sgl_arena_alloc(sgl_cur, k * n);
	if (p) memset(p, 0, k * n);
	return p;
}

static void *sgl_realloc(void *p, size_t n) {
	if (!sgl_cur) return realloc(p, n);
	if (!p) return sgl_arena_alloc(sgl_cur, n);
	sgl_hdr *h = (sgl_hdr *)p - 1;
	if (h->magic != SGL_MAGIC) abort(); // not an arena block: never happens (see above)
	if (n <= h->size) return p;
	void *q = sgl_arena_alloc(sgl_cur, n);
	if (q) memcpy(q, p, h->size);
	return q;
}

static void sgl_free(void *p) {
	if (!sgl_cur) free(p); // in arena mode, blocks go with the arena
}

static void sgl_use_allocator(void) { ts_set_allocator(sgl_malloc, sgl_calloc, sgl_realloc, sgl_free); }

static inline int64_t sgl_now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

// sgl_parse_flat parses src with a parser of its own and flattens the tree
// into out if it has room for cap nodes, else into *big (libc memory the
// caller frees). It returns the number of nodes, or -1 if tree-sitter gave
// up; the time spent parsing and flattening goes to times[0] and times[1].
// *has_error is set when the tree has an error, hidden ones included (a
// missing newline token is not a node the walk sees).
static int64_t sgl_parse_flat(sgl_arena *a, const TSLanguage *lang, const char *src, uint32_t len,
                              sgl_node *out, uint32_t cap, sgl_node **big,
                              const uint16_t *canon, const uint8_t *symflags, uint32_t nsym, int64_t *times,
                              int32_t *has_error) {
	int64_t t0 = sgl_now();
	// A big source (a generated data file, see bigdata.go) would keep
	// every block its parse ever allocated in the arena, which never frees:
	// it gets libc's allocator, which reuses freed blocks, and its tree and
	// parser are deleted here.
	bool own = len > SGL_ARENA_MAX;
	if (!own) {
		sgl_arena_reset(a);
		sgl_cur = a;
	}
	int64_t n = -1;
	TSParser *p = ts_parser_new();
	if (p && ts_parser_set_language(p, lang)) {
		TSTree *tree = ts_parser_parse_string(p, NULL, src, len);
		int64_t t1 = sgl_now();
		times[0] += t1 - t0;
		t0 = t1;
		if (tree) {
			*has_error = ts_node_has_error(ts_tree_root_node(tree));
			uint32_t count = ts_node_descendant_count(ts_tree_root_node(tree));
			sgl_node *dst = out;
			if (count > cap) {
				dst = malloc((size_t)count * sizeof(sgl_node));
				*big = dst;
			}
			n = dst ? sgl_flatten(tree, dst, count, canon, symflags, nsym) : -1;
			if (own) ts_tree_delete(tree);
		}
	}
	if (own && p) ts_parser_delete(p);
	// Otherwise no ts_tree_delete, no ts_parser_delete: the arena holds them.
	sgl_cur = NULL;
	times[1] += sgl_now() - t0;
	return n;
}

static sgl_arena *sgl_arena_new(void) { return calloc(1, sizeof(sgl_arena)); }
static void sgl_arena_delete(sgl_arena *a) { sgl_arena_free_all(a); free(a); }

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

	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

// v0.25.0 of the binding routes every C allocation through a Go callback,
// which makes parsing about 1.45x slower. sglint installs its own
// allocator once, before any parser exists: libc's, except inside
// sgl_parse_flat (see the comment there).
func init() { C.sgl_use_allocator() }

// ReleaseMemory gives the C heap's free memory back to the system. Parsing
// a file takes several times its tree's size in C memory, which the C
// allocator keeps for the next parse; call this when parsing is over (or
// rare), so that later Go allocations do not stack on top of it.
func ReleaseMemory() { C.sgl_release_memory() }

// arena is a parser's C memory, reused from file to file.
type arena struct{ a *C.sgl_arena }

func newArena() arena { return arena{C.sgl_arena_new()} }

func (a *arena) free() {
	if a.a != nil {
		C.sgl_arena_delete(a.a)
		a.a = nil
	}
}

// parseFlat parses src and copies the tree into Go memory, into buf if it
// is large enough (else into a new slice), in one C call: no tree-sitter
// object outlives it. The time spent parsing and flattening is added to tm.
// clean reports a tree without any error, hidden ones included.
func parseFlat(a arena, src []byte, buf []Node, tm *Timing) (nodes []Node, clean bool, err error) {
	canonical, symbolFlags := symbols()
	if len(src) > math.MaxUint32/2 {
		return nil, false, fmt.Errorf("file too large to parse (%d bytes)", len(src))
	}
	var cs *C.char
	if len(src) > 0 {
		cs = (*C.char)(unsafe.Pointer(&src[0]))
	}
	// The C walk writes every field of every node: a reused buffer needs
	// no clearing. A file has rarely more nodes than a third of its bytes;
	// when it has, the nodes come back in C memory and are copied.
	nodes = buf[:0]
	// Not above a million nodes (20 MB): a data file's blanked source (see
	// bigdata.go) is megabytes of spaces around a few nodes.
	if want := min(len(src)/3+64, 1<<20); cap(nodes) < want {
		nodes = make([]Node, 0, want)
	}
	nodes = nodes[:cap(nodes)]
	var big *C.sgl_node
	var times [2]C.int64_t
	var hasError C.int32_t
	n := int64(C.sgl_parse_flat(a.a, (*C.TSLanguage)(tspython.Language()), cs, C.uint32_t(len(src)),
		(*C.sgl_node)(unsafe.Pointer(&nodes[0])), C.uint32_t(len(nodes)), &big,
		(*C.uint16_t)(unsafe.Pointer(&canonical[0])), (*C.uint8_t)(unsafe.Pointer(&symbolFlags[0])), C.uint32_t(len(canonical)),
		&times[0], &hasError))
	tm.Parse += time.Duration(times[0])
	tm.Flatten += time.Duration(times[1])
	if big != nil {
		defer C.free(unsafe.Pointer(big))
		if n > 0 {
			nodes = make([]Node, n)
			copy(nodes, unsafe.Slice((*Node)(unsafe.Pointer(big)), n))
		}
	}
	if n < 0 {
		return nil, false, fmt.Errorf("tree-sitter could not parse the file")
	}
	nodes = nodes[:n]
	for i := range nodes {
		if nodes[i].subtreeEnd > NodeID(n) { // a short walk (never seen): keep ranges inside the tree
			nodes[i].subtreeEnd = NodeID(n)
		}
	}
	return nodes, hasError == 0, nil
}

// Compile-time check that Node mirrors sgl_node's layout.
var _ [unsafe.Sizeof(C.sgl_node{}) - unsafe.Sizeof(Node{})]struct{}
var _ [unsafe.Sizeof(Node{}) - unsafe.Sizeof(C.sgl_node{})]struct{}
