/* splice_internal.h — what splice.c (the algorithm) and splice_lang.c (per-language tree facts)
 * share. Not included from outside splice/splice*.c. */
#ifndef CIMPORT_SPLICE_INTERNAL_H
#define CIMPORT_SPLICE_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tree_sitter/api.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/hashmap.h"
#include "base/vec.h"
#include "emitters/emit.h"
#include "emitters/names.h"
#include "splice/splice.h"

/* Grows an arena array `arr` of `n` elements (capacity `cap`) to hold one more. */
#define SP_PUSH(a, arr, n, cap)                                                                                        \
    do {                                                                                                               \
        if ((n) == (cap)) {                                                                                            \
            size_t nc_ = (cap) ? (cap)*2 : 16;                                                                         \
            (arr) = arena_grow((a), (arr), (cap) * sizeof *(arr), nc_ * sizeof *(arr));                                \
            (cap) = nc_;                                                                                               \
        }                                                                                                              \
        (n)++;                                                                                                         \
    } while (0)

/* An import statement: `path` is what identifies the package (`@pulumi/aws`, `pulumi_aws`, a Go
 * import path, `Pulumi.Aws`, `com.pulumi.aws.s3.Bucket`); `local` the name code uses for it (the
 * alias, a Go package name, a Java simple class name); NULL when the import binds no usable name
 * (C# `using X;`, Java wildcard). */
typedef struct sp_import {
    const char *path;
    const char *local;
    bool alias;    /* written with an explicit alias (C# `using A = X;`, Go `a "x"`, `import x as a`) */
    bool wildcard; /* Java `import a.b.*;` */
    bool is_static;
    uint32_t start, end; /* the whole statement (Go: the import_spec) */
} sp_import_t;

/* A name a body statement declares, and where (for renaming at the declaration). */
typedef struct sp_decl {
    const char *name;
    uint32_t start, end;
} sp_decl_t;

/* A statement directly in the program body (or a pair of a YAML section). */
typedef struct sp_stmt {
    uint32_t start, end; /* bytes; Go: includes the `if err != nil {...}` that follows */
    sp_decl_t decls[8];
    size_t ndecls;
    bool is_return;
    /* Go: the `:=`/`=` token of a short_var_declaration or assignment_statement (op_end == 0: none) */
    uint32_t op_start, op_end;
    /* A resource definition: logical name and canonical type ("" when not a resource) */
    const char *res_name;
    const char *res_type;
    const char *section;           /* YAML: resources / variables / configuration / outputs */
    TSNode node;                   /* body statements: the statement's node */
    uint32_t res_start, res_end;   /* resources: the constructor expression (call) itself */
    uint32_t node_end;             /* the file's resources: the end of the statement's node (no Go err check) */
    const char *comp_state;        /* Go: a component registration's state variable (its 3rd argument), or NULL */
    const char *comp_token;        /* a ComponentResource's type token (its first argument), or NULL */
    uint32_t name_start, name_end; /* unread resources: the name's expression */
} sp_stmt_t;

/* An identifier in a reference or declaration position (renamable), or a YAML `${name` site. */
typedef struct sp_site {
    uint32_t start, end;
    const char *text;
} sp_site_t;

/* A string literal spanning lines: the lines it covers after the first are copied verbatim. */
typedef struct sp_span {
    uint32_t start, end;
} sp_span_t;

/* A class a file declares (sp_classes): its name and its heading — what follows the name up to its
 * body: type parameters, bases (Python: to the `:` closing its bases) —, both in the file's text. */
typedef struct sp_class {
    const char *name, *head;
    uint32_t nl, hl;
} sp_class_t;

/* Everything the splicer needs to know about one program (the user's file or the generated one). */
typedef struct sp_program {
    arena_t *a;
    lang_t lang;
    const char *text;
    uint32_t len;
    TSTree *tree;
    TSNode root;
    /* A big file parsed in two halves (splice.c, sp_parse_halves), as one parse would have read it
     * (confirmed). NULL: one tree. TypeScript and Python: `tree` holds [0, split) and tree2
     * [split, len), each statement of the top level in one of them; `hold` is root, hold2 root2,
     * split_end UINT32_MAX. Go, C#, Java: the block of the program's body (its `{` ends at `head`,
     * its `}` is at split_end) is `hold` in tree and hold2 in tree2; tree holds [0, split) and
     * [split_end, len) — its statements before the cut —, tree2 [0, head) and [split, len) — those
     * from the cut on —, so the text around the block is in both trees: what is before `head` or
     * from split_end on is read in tree, the rest of the block in tree2 (sp_root_at). */
    TSTree *tree2;
    TSNode root2;
    uint32_t split;
    bool split_find; /* its resources were read on two threads (splice_lang.c, sp_find_split) */
    /* sp_top_children's answer for `top_of` (p->tree when it was read): the top level is read by the
     * imports, the body and the insertion point, and a cursor over a 100,000-line file's top level
     * costs tens of millions of instructions a time. */
    TSNode *top;
    uint32_t ntop;
    const TSTree *top_of;
    TSNode hold, hold2;
    uint32_t head, split_end;
    size_t comments1; /* comment introducers in [0, split) (ts_check_comments_ok) */
    bool blanked;     /* comments were hidden from the parser (ts_check_parse_safe): no incremental reparse */
    bool timed_out;   /* the parse ran out of its time budget (ts_check_parse_safe) */
    bool refused;     /* refused for a limit of the runtime or grammar (runs of extras, YAML rows) */
    bool other;       /* another file of the program, read for its resources (splicer_read_file) */

    sp_import_t *imports;
    size_t nimports, cimports;
    uint32_t imports_end;  /* byte after the last import statement (0: none) */
    uint32_t import_at;    /* where a first import goes when there is none */
    bool go_import_block;  /* Go: there is an `import ( ... )` */
    uint32_t go_block_end; /* Go: offset of that block's `)` */

    /* Body statements in source order (YAML: pairs of every top-level section). */
    sp_stmt_t *stmts;
    size_t nstmts, cstmts;
    bool has_body;
    TSNode body;       /* the node holding the body statements (the root for a file's top level) */
    TSNode *body_kids; /* its named children (sp_kids) */
    uint32_t nbody_kids;
    uint32_t insert_at;       /* offset of the insertion point */
    bool insert_at_line;      /* insert_at is the start of a line */
    const char *base_indent;  /* indentation of statements in the body */
    const char *close_indent; /* indentation of the line that follows the insertion point */
    uint32_t insert_del;      /* bytes before insert_at the insertion replaces (blanks after a `{`) */
    /* The body's last statement may leave it and nothing can go before it with certainty (Go's
     * terminating statements, C# with a goto): its offset, else UINT32_MAX; new statements are
     * refused there. */
    uint32_t stuck_at;
    /* Go, Java: the name of the body's Context parameter (`ctx`, `pctx`, `context`), or NULL. */
    const char *ctx_name;
    /* Go, Java: the Context parameter has no name, or `_` (`func(*pulumi.Context)`, `_ -> {...}`): 1 +
     * its offset, else 0, and its end; new code that passes the Context is refused. */
    uint32_t ctx_unnamed, ctx_unnamed_end;
    /* Go: the name of the body's function's named result (`func(ctx *pulumi.Context) (err error)`),
     * which a bare `return` returns, or NULL */
    const char *go_result;

    /* Resources found anywhere in the file (user's file) — statements not in stmts. */
    sp_stmt_t *res;
    size_t nres, cres;
    /* The file's constructor calls of resource classes whose logical name cannot be read (a variable,
     * an expression): only their type, call and name expression are set. */
    sp_stmt_t *unread;
    size_t nunread, cunread;

    names_table_t *names; /* every identifier-like token of the file */
    sp_site_t *sites;     /* renamable identifier sites (generated program) */
    size_t nsites, csites;
    sp_span_t *verbatim; /* multi-line strings */
    size_t nverbatim, cverbatim;
    /* Nodes of the type a resource query's pattern starts at (`new_expression`, `call`, ...), in
     * source order, when cand_type is set: the query runs on these only, not the whole tree. */
    const char *cand_type;
    TSNode *cands;
    size_t ncands, ccands;
    /* Python: the first form only Python 2 reads (tree-sitter-python reads them without an error), and
     * what it is; UINT32_MAX and NULL when there is none. */
    uint32_t py2_at;
    const char *py2_what;
    /* Python: the bindings (`x = v`, `(x := v)`, `def f(x=v)`) whose value may be a class, in source
     * order; and the names (`mk`, `self.mk`) bound to a class somewhere in the file, sorted
     * (sp_py_class_names): a call of one constructs a class whatever its name's case. */
    TSNode *binds;
    size_t nbinds;
    const char **class_names;
    size_t nclass_names;
    /* The classes the file declares (sp_classes; not Go, YAML), in source order. */
    sp_class_t *classes;
    size_t nclasses;

    /* Style */
    bool bom, crlf, final_newline;
    const char *unit; /* indentation unit */
} sp_program_t;

/* Compiled queries per language, owned by the splicer; each compiled when first needed (the shapes
 * are checked in C first, see splice_lang.c). */
typedef struct sp_queries {
    TSQuery *imports;   /* TypeScript's require pattern only */
    TSQuery *resources; /* compiled when first needed: most candidates are answered without it */
    bool tried, resources_tried;
} sp_queries_t;

struct splicer {
    TSParser *parser;
    TSParser *gparser; /* the generated program's, parsed on a thread beside a big file's parse */
    TSQueryCursor *cursor;
    sp_queries_t q[LANG_YAML + 1];
};

/* One walk over a program's tree: every identifier, the renamable ones, the multi-line strings and
 * the resource candidates. It reads only the text and the tree, and keeps what it finds apart from
 * the program until sp_walk_finish, so a big file's walk runs on a thread of its own while the rest
 * of the analysis (which neither edits nor frees the tree meanwhile) goes on. */
typedef struct sp_walk_found {
    hashmap_t names; /* each identifier's text (borrowed from p->text), in order of first occurrence */
    vec_t verbatim;  /* sp_span_t: multi-line strings */
    vec_t cands;     /* TSNode: nodes of p->cand_type */
    vec_t binds;     /* TSNode: Python's bindings whose value may be a class (sp_py_may_be_class) */
    uint32_t py2_at; /* Python: the first Python 2 form (sp_py2_form) found, UINT32_MAX when none */
    const char *py2_what;
} sp_walk_found_t;

typedef struct sp_walk_mark {
    size_t names, verbatim, cands; /* how many of each the first part had found at the split */
} sp_walk_mark_t;

/* A big file's walk is also split: the thread walks all but the subtrees from `split` on among its
 * siblings (about the second half of the file), which the calling thread walks in sp_walk_finish;
 * what the two find is put together in the order one walk would have found it. */
typedef struct sp_walk {
    const sp_program_t *p; /* NULL once finished */
    bool want_sites, threaded;
    pthread_t thread;
    unsigned char *flags; /* SP_SYM_* by grammar symbol */
    uint32_t nsym;
    TSNode split; /* the null node when not split */
    TSNode split_parent;
    bool halves;           /* a file parsed in two halves: the thread walks the first tree and the second's
                            * `hold2` children before `split`, the caller those from `split` on */
    sp_walk_found_t found; /* the thread's part (then all of it) */
    sp_walk_found_t mid;   /* halves: the thread's part of the second tree */
    sp_walk_found_t rest;  /* the calling thread's part */
    sp_walk_mark_t mark;
    vec_t sites; /* sp_span_t: renamable identifiers (want_sites) */
} sp_walk_t;

/* splice_lang.c: fills imports, stmts, res, names, sites, verbatim, insertion point of p (its tree
 * is parsed). `is_target` asks for resources anywhere in the file. Returns false with a diagnostic
 * when the body cannot be found. sp_analyze does it all; in parts, for a big file whose walk runs
 * meanwhile: sp_analyze_start (the walk begins: on its own thread for a big file), sp_analyze_body
 * (imports, the body and its statements: no walk needed), then sp_walk_finish — which must come
 * before p's tree is edited or freed, whatever failed — and, when the body was found,
 * sp_analyze_finish (style, insertion point, resources). */
bool sp_analyze(splicer_t *s, sp_program_t *p, bool is_target, const char *filename, diag_list_t *diags);
void sp_analyze_start(sp_program_t *p, bool is_target, sp_walk_t *w);
bool sp_analyze_body(splicer_t *s, sp_program_t *p, const char *filename, diag_list_t *diags);
bool sp_analyze_finish(splicer_t *s, sp_program_t *p, bool is_target, sp_walk_t *w, diag_list_t *diags);
/* Another file of the program (splicer_read_file): its imports, and its resources anywhere in it (no
 * body is looked for). False when the resources query does not compile (a diagnostic). */
bool sp_analyze_other(splicer_t *s, sp_program_t *p, diag_list_t *diags);
/* The local modules p (parsed, TypeScript or Python) imports, as splice_file_t.modules: arena array
 * of p->a, the count returned; the first *n_run those it runs, then those it names for types alone
 * (splice_file_t.n_run_modules). */
size_t sp_module_refs(sp_program_t *p, const char ***out, size_t *n_run);
/* Style of the text (BOM, CRLF, final newline, indentation unit); needs p->verbatim. */
void sp_detect_style(sp_program_t *p);
/* Collects p->names (and renamable sites, multi-line strings) with one walk over the tree. */
void sp_walk_names(sp_program_t *p, bool want_sites);
/* The walk begun (on a thread when `thread` and the file is big) and ended: its findings go into p
 * (p->names must exist). sp_walk_finish may be called again; it then does nothing. */
void sp_walk_start(sp_walk_t *w, const sp_program_t *p, bool want_sites, bool thread);
void sp_walk_finish(sp_walk_t *w, sp_program_t *p);
/* The statement of p that starts at `start` (a resource's statement in its block, sp_stmt_t.start of
 * p->res): the type of the node holding it (`statement_block`, `block`, `class_body`...) and the
 * statements before it in that node, each with the names it declares (arena arrays). False when no
 * statement starts there. */
bool sp_block_before(sp_program_t *p, uint32_t start, const char **container, sp_stmt_t **out, size_t *n_out);
/* The block (its bytes) holding the statement of p that starts at `start`; false when none does. */
bool sp_block_range(sp_program_t *p, uint32_t start, uint32_t *bs, uint32_t *be);
/* The file's instances of component classes it defines (`class Server extends ComponentResource` and
 * `new Server("server")`): each with its name ("" when it cannot be read), res_type the class's
 * name, comp_token the type its base constructor is given (NULL when that cannot be read), its call
 * and name expression. Arena array; the count returned. */
size_t sp_class_components(sp_program_t *p, sp_stmt_t **out);
/* The value of the first string literal of p within [start, end) (an option's value), or NULL when
 * there is none or it is not a plain literal. */
const char *sp_first_string(sp_program_t *p, uint32_t start, uint32_t end);
/* Why `text`, written in place of [start, end) of p, would not be read by the language's versions
 * before the newest where that range lies inside a string's interpolation: a Python f-string's
 * replacement field (no backslash, `#`, nor its string's quote, and no line break unless the string is
 * triple-quoted, before Python 3.12), a C# interpolated string's hole (no line break unless verbatim or
 * raw, before C# 11); NULL when it would be, or the range is in no interpolation. For nested strings
 * each one's rule holds. */
const char *sp_interpolation_fault(sp_program_t *p, uint32_t start, uint32_t end, const char *text);
/* The classes p's text declares, into p->classes (a scan for the word `class`: a declaration in a
 * comment or string counts too). */
void sp_classes(sp_program_t *p);
/* Whether the class `name` (nl bytes) declared in one of the tables is a component: its heading names
 * ComponentResource, or a class of the tables that is one (a base of its own, a few levels up). 1: a
 * component; 0: declared, and no component (a subclass of a resource class, say); -1: declared in none. */
int sp_class_component(const sp_class_t *const *tabs, const size_t *ns, size_t ntabs, const char *name, size_t nl);
/* Canonical type of a resource's type expression text in program p (aliases resolved). */
const char *sp_canonical_type(sp_program_t *p, const char *type_text);
/* True if a Java type written as `t` in the user's file (maybe "*.Name", unresolved) names `g`. */
bool sp_types_match(const sp_program_t *target, const char *t, const char *g);

/* The named children of n, in order, with one cursor pass (ts_node_named_child(n, i) costs O(i)
 * in runtime 0.20.7, so indexing in a loop is quadratic). Arena array; *count set. */
TSNode *sp_named_children(arena_t *a, TSNode n, uint32_t *count);

/* Navigation that answers "nothing" for a null node. A field or child that an ERROR-laden tree lacks
 * is a null node, and tree-sitter 0.20.7 dereferences a null node in most of its node functions
 * (fuzz_splice_csharp and _java crashed on that): the splicer walks only through these. */
/* n's child in field `name` (ts_node_child_by_field_name, with the field's ID remembered). */
TSNode sp_field(TSNode n, const char *name, uint32_t len);
static inline TSNode sp_nchild(TSNode n, uint32_t i) {
    return ts_node_is_null(n) ? n : ts_node_named_child(n, i);
}
static inline uint32_t sp_nchild_count(TSNode n) {
    return ts_node_is_null(n) ? 0 : ts_node_named_child_count(n);
}
static inline TSNode sp_child(TSNode n, uint32_t i) {
    return ts_node_is_null(n) ? n : ts_node_child(n, i);
}
static inline uint32_t sp_child_count(TSNode n) {
    return ts_node_is_null(n) ? 0 : ts_node_child_count(n);
}
static inline const char *sp_type(TSNode n) {
    return ts_node_is_null(n) ? "" : ts_node_type(n);
}
static inline uint32_t sp_end_byte(TSNode n) {
    return ts_node_is_null(n) ? ts_node_start_byte(n) : ts_node_end_byte(n);
}

/* The root of the tree in which byte `off` is read (a file parsed in two halves has two). */
static inline TSNode sp_root_at(const sp_program_t *p, uint32_t off) {
    return p->tree2 && off >= p->split && off < p->split_end ? p->root2 : p->root;
}
/* Whether n is the file's root (either half's). */
static inline bool sp_is_root(const sp_program_t *p, TSNode n) {
    return ts_node_eq(n, p->root) || (p->tree2 && ts_node_eq(n, p->root2));
}
/* Whether n is the node whose children a file parsed in two halves has in both trees (hold, hold2). */
static inline bool sp_is_hold(const sp_program_t *p, TSNode n) {
    return p->tree2 && (ts_node_eq(n, p->hold) || ts_node_eq(n, p->hold2));
}
/* The named children of n, in order; of both halves' `hold` when n is one (sp_is_hold). Arena
 * array; *count set. */
TSNode *sp_kids(sp_program_t *p, TSNode n, uint32_t *count);
/* The named children of the root (of both halves' roots, in order, when the top level is split).
 * Arena array; *count set. */
TSNode *sp_top_children(sp_program_t *p, uint32_t *count);
/* Go, C#, Java parsed in two halves: whether the program's body, found as sp_analyze_body finds it,
 * is the block split (p->hold), found before anything of the block is read (so one parse finds it
 * too). */
bool sp_split_body_ok(splicer_t *s, sp_program_t *p);

/* Small text helpers shared by both files. */
const char *sp_node_text(sp_program_t *p, TSNode n);
uint32_t sp_line_start(const char *text, uint32_t off);
uint32_t sp_line_end(const char *text, uint32_t len, uint32_t off); /* offset after the '\n' */
const char *sp_line_indent(sp_program_t *p, uint32_t off);

#endif
