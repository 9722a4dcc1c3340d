package lang

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

// The tree-sitter core library is compiled into the binary by the
// go-tree-sitter package. These declarations mirror its public C API
// (tree_sitter/api.h, ABI of go-tree-sitter v0.25.0); flatten_test.go checks
// that the flattened tree agrees node by node with the Go binding.
typedef struct { uint32_t row; uint32_t column; } lang_point;
typedef struct { uint32_t context[4]; const void *id; const void *tree; } lang_ts_node;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } lang_ts_cursor;

extern lang_ts_cursor ts_tree_cursor_new(lang_ts_node node);
extern void ts_tree_cursor_delete(lang_ts_cursor *self);
extern lang_ts_node ts_tree_cursor_current_node(const lang_ts_cursor *self);
extern uint16_t ts_tree_cursor_current_field_id(const lang_ts_cursor *self);
extern bool ts_tree_cursor_goto_first_child(lang_ts_cursor *self);
extern bool ts_tree_cursor_goto_next_sibling(lang_ts_cursor *self);
extern bool ts_tree_cursor_goto_parent(lang_ts_cursor *self);
extern uint16_t ts_node_symbol(lang_ts_node self);
extern uint32_t ts_node_start_byte(lang_ts_node self);
extern uint32_t ts_node_end_byte(lang_ts_node self);
extern lang_point ts_node_start_point(lang_ts_node self);
extern lang_point ts_node_end_point(lang_ts_node self);
extern bool ts_node_is_named(lang_ts_node self);
extern bool ts_node_is_missing(lang_ts_node self);
extern bool ts_node_is_extra(lang_ts_node self);
extern void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t), void *(*)(void *, size_t), void (*)(void *));

// lang_node is one node of a flattened tree; it must match the Go type node.
typedef struct {
	uint32_t start, end;   // byte range
	uint32_t srow, erow;   // 0-based rows
	int32_t parent, next;  // indices in the flat array, -1 for none
	uint16_t sym, field;   // grammar symbol and field id (0 = none)
	uint8_t flags;
	uint8_t pad[3];
} lang_node;

enum { LANG_NAMED = 1, LANG_MISSING = 2, LANG_EXTRA = 4 };

static void lang_emit(const lang_ts_cursor *c, lang_node *o, int32_t parent) {
	lang_ts_node n = ts_tree_cursor_current_node(c);
	o->start = ts_node_start_byte(n);
	o->end = ts_node_end_byte(n);
	o->srow = ts_node_start_point(n).row;
	o->erow = ts_node_end_point(n).row;
	o->parent = parent;
	o->next = -1;
	o->sym = ts_node_symbol(n);
	o->field = ts_tree_cursor_current_field_id(c);
	o->flags = (ts_node_is_named(n) ? LANG_NAMED : 0) |
		(ts_node_is_missing(n) ? LANG_MISSING : 0) |
		(ts_node_is_extra(n) ? LANG_EXTRA : 0);
}

// lang_flatten writes the subtree of *root in depth-first pre-order into
// out (capacity cap) and returns the number of nodes visited. A result larger
// than cap means the output was truncated and must be retried with more room.
static uint32_t lang_flatten(const lang_ts_node *root, lang_node *out, uint32_t cap) {
	lang_ts_cursor c = ts_tree_cursor_new(*root);
	uint32_t n = 0;
	int32_t cur = 0;
	if (cap == 0) {
		ts_tree_cursor_delete(&c);
		return 1;
	}
	lang_emit(&c, &out[n++], -1);
	for (;;) {
		if (ts_tree_cursor_goto_first_child(&c)) {
			if (n == cap) { n++; break; }
			lang_emit(&c, &out[n], cur);
			cur = (int32_t)n++;
			continue;
		}
		for (;;) {
			if (ts_tree_cursor_goto_next_sibling(&c)) {
				if (n == cap) { n++; goto done; }
				lang_emit(&c, &out[n], out[cur].parent);
				out[cur].next = (int32_t)n;
				cur = (int32_t)n++;
				break;
			}
			if (!ts_tree_cursor_goto_parent(&c)) goto done;
			cur = out[cur].parent;
		}
	}
done:
	ts_tree_cursor_delete(&c);
	return n;
}

// lang_use_libc_allocator makes tree-sitter call malloc/free directly instead
// of through go-tree-sitter's Go callbacks (which only forward to the same
// libc functions); this saves a cgo round trip per allocation.
static void lang_use_libc_allocator(void) { ts_set_allocator(malloc, calloc, realloc, free); }

// lang_trim hands the C heap's free pages back to the system. glibc keeps
// what parsers freed in per-thread arenas (tens of MB after a large tree)
// and only returns the top of each arena by itself; other C libraries
// have no such call.
#ifdef __GLIBC__
#include <malloc.h>
static int lang_trim(void) { return malloc_trim(0); }
#else
static int lang_trim(void) { return 0; }
#endif
*/
import "C"

import (
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Node flags (lang_node.flags).
const (
	flagNamed   = 1
	flagMissing = 2
	flagExtra   = 4
)

// node is one syntax node of a flattened tree (layout shared with C lang_node).
type node struct {
	start, end   uint32 // byte range in the source
	srow, erow   uint32 // 0-based start and end rows
	parent, next int32  // parent and next-sibling indices, -1 for none
	sym, field   uint16 // grammar symbol id and field id
	flags        uint8
	_            [3]uint8
}

func init() {
	C.lang_use_libc_allocator()
}

// ReleaseMemory returns the free pages of the C heap (where tree-sitter's
// trees live while files are parsed) to the system. A caller that has
// parsed many files and goes on to other work calls it once, after the
// last parse: the C library would otherwise keep them for parses that do
// not come. It reports whether anything was returned.
func ReleaseMemory() bool { return C.lang_trim() != 0 }

// flatten copies the tree below root into buf (reused when large enough) in
// depth-first pre-order with a single cgo call, so that the extractors can
// walk it without crossing into C for every node.
func flatten(root *sitter.Node, buf []node) []node {
	want := int(root.DescendantCount()) + 1
	for {
		if cap(buf) < want {
			buf = make([]node, want)
		}
		buf = buf[:cap(buf)]
		var p *C.lang_node
		if len(buf) > 0 {
			p = (*C.lang_node)(unsafe.Pointer(&buf[0]))
		}
		n := int(C.lang_flatten((*C.lang_ts_node)(unsafe.Pointer(root)), p, C.uint32_t(len(buf))))
		if n <= len(buf) {
			return buf[:n]
		}
		want = n * 2
	}
}

// cNodeSize reports sizeof(lang_node) for the layout test.
func cNodeSize() uintptr { return uintptr(C.sizeof_lang_node) }
