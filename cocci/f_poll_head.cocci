// SPDX-License-Identifier: GPL-2.0
/// Set file->f_poll_head where a ->poll_mask file is created.
///
/// A file whose ->poll was converted to ->poll_mask (poll_mask.cocci)
/// needs its one wait queue head in file->f_poll_head before it can be
/// polled.  The head is set once, in the function that creates the file
/// (-D site=FUNCTION), as the expression -D head=EXPR written in that
/// function's terms.  Where, is chosen with one of:
///   -D anchor_pd -D pdvar=E   after "F->private_data = E;"
///                             (F is the file being set up: ->open's
///                             parameter, or the result of
///                             alloc_file_pseudo())
///   -D anchor_pdexpr -D pdexpr=EXPR
///                             the same, when private_data is set to an
///                             expression (&reader->node)
///   -D anchor_local -D lvar=V -D filevar=F
///                             after "V = ...;" (the local the head is
///                             computed from)
///   -D anchor_first -D filevar=F
///                             before the first statement: the head
///                             depends on nothing open() computes
///   -D anchor_anon -D fops=FOPS
///                             on the file returned by
///                             anon_inode_getfile(..., &FOPS, priv, ...):
///                             after its IS_ERR() check when that check
///                             leaves the function, else guarded by
///                             !IS_ERR()
/// ->open() may set f_poll_head before it fails: do_dentry_open() clears
/// it again.
///
/// -D facts prints what polltax needs to write the head in the site's
/// terms, one tab-separated line per item:
///   func NAME LINE PARAMS            every function definition
///   decl FUNC LINE VAR TYPE INIT     declarations with an initializer
///   assign FUNC LINE LHS RHS         assignment statements
///   var FUNC LINE VAR TYPE           declarations without one
///   anon FUNC LINE CALLEE LHS FOPS PRIV
///                                    X = anon_inode_getfile(...)
///   call FUNC LINE CALLEE ARGS...    calls that are given the
///                                    poll_table parameter of FUNC
///
//# The rules insert exactly where they are told; whether the head is
//# valid there (the same queue the poll function registered, computed
//# from values already set) is decided by polltax from the facts, and
//# polltax checks that every creation site got its line.
//
// Confidence: High
// Copyright: (C) 2025 The polltax authors.
// Comments: instantiated per creation site by polltax series/convert:
//   spatch --sp-file cocci/f_poll_head.cocci -D anchor_pd -D site=foo_open
//     -D pdvar=dev -D head='&dev->wait' --no-includes --in-place FILE
// Options: --no-includes
// Requires: 1.1.1
// Keywords: f_poll_head, poll_mask, anon_inode_getfile

virtual facts
virtual anchor_pd
virtual anchor_pdexpr
virtual anchor_local
virtual anchor_first
virtual anchor_anon

@initialize:python depends on facts@
@@
def split_args(es):
    args, depth, cur = [], 0, ""
    for ch in es:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        args.append(cur.strip())
    return args

def print_call(f, g, w, es, p):
    args = split_args(str(es))
    if str(w) in args and str(g) not in ("poll_wait", "poll_requested_events"):
        print("call\t%s\t%s\t%s\t%s" % (f, p[0].line, g, "\t".join(args)))

@script:python hd depends on anchor_pd || anchor_pdexpr || anchor_local || anchor_first || anchor_anon@
head << virtual.head;
e;
@@
coccinelle.e = cocci.make_expr(head)

@depends on anchor_pd@
identifier virtual.site, virtual.pdvar;
expression F;
expression hd.e;
@@
  site(...) {
  <...
  F->private_data = pdvar;
+ F->f_poll_head = e;
  ...>
  }

@script:python pe depends on anchor_pdexpr@
v << virtual.pdexpr;
pv;
@@
coccinelle.pv = cocci.make_expr(v)

@depends on anchor_pdexpr@
identifier virtual.site;
expression F;
expression pe.pv, hd.e;
@@
  site(...) {
  <...
  F->private_data = pv;
+ F->f_poll_head = e;
  ...>
  }

@depends on anchor_local@
identifier virtual.site, virtual.lvar, virtual.filevar;
expression E;
expression hd.e;
@@
  site(...) {
  <...
  lvar = E;
+ filevar->f_poll_head = e;
  ...>
  }

@depends on anchor_first@
identifier virtual.site, virtual.filevar;
statement S, S1;
expression hd.e;
@@
  site(...) {
  ... when != S1
+ filevar->f_poll_head = e;
  S
  ... when any
  }

@ae depends on anchor_anon@
identifier virtual.site, virtual.fops;
identifier ag =~ "^anon_inode_(create_)?getfile$";
statement S;
expression X, N, P;
position pc;
@@
  site(...) {
  <...
  X = ag@pc(N, &fops, P, ...);
  if (IS_ERR(X)) S
  ...>
  }

// Only when the error branch leaves: its last statement, at its top
// level, is a return or a goto.
@script:python ae_exits depends on ae@
S << ae.S;
@@
def last_statement(t):
    t = t.strip()
    if t.startswith("{") and t.endswith("}"):
        t = t[1:-1]
    depth, start, last = 0, 0, ""
    for i, ch in enumerate(t):
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
            if depth == 0 and ch == "}":
                last, start = t[start:i + 1], i + 1
        elif ch == ";" and depth == 0:
            last, start = t[start:i + 1], i + 1
    return last.strip()
if last_statement(S).split("(")[0].split()[0:1] not in (["return"], ["goto"]):
    cocci.include_match(False)

@anon_exit depends on ae_exits@
identifier ae.ag, virtual.fops;
statement ae.S;
expression ae.X, ae.N, ae.P;
position ae.pc;
expression hd.e;
@@
  X = ag@pc(N, &fops, P, ...);
  if (IS_ERR(X)) S
+ X->f_poll_head = e;

@depends on anchor_anon && !anon_exit@
identifier virtual.site, virtual.fops;
identifier ag =~ "^anon_inode_(create_)?getfile$";
expression X, N, P;
expression hd.e;
@@
  site(...) {
  <...
  X = ag(N, &fops, P, ...);
+ if (!IS_ERR(X))
+ 	X->f_poll_head = e;
  ...>
  }

@fn depends on facts@
identifier f;
parameter list ps;
position p;
@@
  f@p(ps) { ... }

@script:python depends on fn@
f << fn.f; ps << fn.ps; p << fn.p;
@@
print("func\t%s\t%s\t%s" % (f, p[0].line, ps))

@dc depends on facts@
type T;
identifier x;
expression E;
position p;
@@
  T x@p = E;

@script:python depends on dc@
T << dc.T; x << dc.x; E << dc.E; p << dc.p;
@@
print("decl\t%s\t%s\t%s\t%s\t%s" % (p[0].current_element, p[0].line, x, T, E))

@vr depends on facts@
type T;
identifier x;
position p;
@@
  T x@p;

@script:python depends on vr@
T << vr.T; x << vr.x; p << vr.p;
@@
print("var\t%s\t%s\t%s\t%s" % (p[0].current_element, p[0].line, x, T))

@as depends on facts@
expression X, E;
position p;
@@
  X@p = E;

@script:python depends on as@
X << as.X; E << as.E; p << as.p;
@@
print("assign\t%s\t%s\t%s\t%s" % (p[0].current_element, p[0].line, X, E))

@an depends on facts@
expression X, N, F, P;
identifier ag =~ "^anon_inode_(create_)?getfile$";
position p;
@@
  X = ag@p(N, F, P, ...);

@script:python depends on an@
X << an.X; F << an.F; P << an.P; p << an.p; ag << an.ag;
@@
print("anon\t%s\t%s\t%s\t%s\t%s\t%s" % (p[0].current_element, p[0].line, ag, X, F, P))

@cl1 depends on facts@
identifier f, g, w;
expression list es;
position p;
typedef poll_table;
@@
  f(..., poll_table *w) {
  <...
  g@p(es)
  ...>
  }

@cl2 depends on facts@
identifier f, g, w;
expression list es;
position p;
@@
  f(..., struct poll_table_struct *w) {
  <...
  g@p(es)
  ...>
  }

@script:python depends on cl1@
f << cl1.f; g << cl1.g; w << cl1.w; es << cl1.es; p << cl1.p;
@@
print_call(f, g, w, es, p)

@script:python depends on cl2@
f << cl2.f; g << cl2.g; w << cl2.w; es << cl2.es; p << cl2.p;
@@
print_call(f, g, w, es, p)
