// SPDX-License-Identifier: GPL-2.0
/// Facts for writing a ->poll's wait queue head where its file is created.
///
/// polltax's convert stage rewrites the head of a ->poll (as written in
/// its poll_wait() call) in the terms of the function that creates the
/// file: ->open(), or the caller of anon_inode_getfile() or
/// anon_inode_getfd() (see f_poll_head.cocci).  For that it needs, for
/// each function of a file, its parameters, its locals and their
/// definitions, its assignments, its anon_inode_getfile() and
/// anon_inode_getfd() calls (and their create_ variants) and the calls
/// it hands its poll_table to.
/// -D facts prints them, one tab-separated line per item, each starting
/// with the kind and the file:
///   func FILE NAME LINE PARAMS         every function definition
///   decl FILE FUNC LINE VAR TYPE INIT  declarations with an initializer
///   var FILE FUNC LINE VAR TYPE        declarations without one
///   assign FILE FUNC LINE LHS RHS      assignment statements
///   anon FILE FUNC LINE CALLEE LHS FOPS PRIV
///                                      X = anon_inode_getfile(...)
///   anonret FILE FUNC LINE CALLEE FOPS PRIV
///                                      return anon_inode_getfile(...);
///   anonexit FILE FUNC LINE 0|1        that call is followed by an
///                                      IS_ERR() check that leaves the
///                                      function (1)
///   anonfd FILE FUNC LINE CALLEE FOPS PRIV
///                                      a call anon_inode_getfd(N, FOPS,
///                                      PRIV, FLAGS) or
///                                      anon_inode_create_getfd(N, FOPS,
///                                      PRIV, FLAGS, CONTEXT_INODE),
///                                      wherever it is (it returns an fd:
///                                      nothing to keep)
///   call FILE FUNC LINE CALLEE ARGS... calls that are given the
///                                      poll_table parameter of FUNC
///   fcall FILE FUNC LINE CALLEE ARGS...
///                                      calls with a variable among their
///                                      arguments (polltax keeps those
///                                      given FUNC's struct file *: an
///                                      ->open() handing its file to a
///                                      helper that sets private_data)
/// Run it on many files at once with one file group per file:
///   spatch --sp-file cocci/poll_facts.cocci -D facts --no-includes
///     --very-quiet --file-groups GROUPS --jobs N --chunksize 1
///
//# Expressions are printed by spatch, tokens separated by spaces.
//# Declarations in any block of a function count; polltax decides which
//# definitions it can use (exactly one, before the point it needs it).
//# A function spatch cannot parse has no facts: polltax then refuses to
//# convert what needs them, with the reason.
//
// Confidence: High
// Copyright: (C) 2025 The polltax authors.
// Comments: run by polltax (cfacts.c); it never transforms code.
// Options: --no-includes
// Requires: 1.1.1
// Keywords: f_poll_head, poll_mask, anon_inode_getfile, anon_inode_getfd

virtual facts

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

# The last statement of S at its top level: "return ...;", "goto l;", ...
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

def leaves(S):
    w = last_statement(str(S)).split("(")[0].split()
    return w[:1] in (["return"], ["goto"])

# Every call with a bare name among its arguments: polltax keeps those
# given a struct file * parameter of the function (it knows the types).
def print_fcall(f, g, es, p):
    args = split_args(str(es))
    if any(a.isidentifier() for a in args):
        print("fcall\t%s\t%s\t%s\t%s\t%s" % (p[0].file, f, p[0].line, g, "\t".join(args)))

def print_call(f, g, w, es, p):
    args = split_args(str(es))
    if str(w) in args and str(g) not in ("poll_wait", "poll_requested_events"):
        print("call\t%s\t%s\t%s\t%s\t%s" % (p[0].file, f, p[0].line, g, "\t".join(args)))

@fn depends on facts@
identifier f;
parameter list ps;
position p;
@@
  f@p(ps) { ... }

@script:python depends on fn@
f << fn.f; ps << fn.ps; p << fn.p;
@@
print("func\t%s\t%s\t%s\t%s" % (p[0].file, f, p[0].line, ps))

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
print("decl\t%s\t%s\t%s\t%s\t%s\t%s" % (p[0].file, p[0].current_element, p[0].line, x, T, E))

@vr depends on facts@
type T;
identifier x;
position p;
@@
  T x@p;

@script:python depends on vr@
T << vr.T; x << vr.x; p << vr.p;
@@
print("var\t%s\t%s\t%s\t%s\t%s" % (p[0].file, p[0].current_element, p[0].line, x, T))

@as depends on facts@
expression X, E;
position p;
@@
  X@p = E;

@script:python depends on as@
X << as.X; E << as.E; p << as.p;
@@
print("assign\t%s\t%s\t%s\t%s\t%s" % (p[0].file, p[0].current_element, p[0].line, X, E))

@an depends on facts@
expression X, N, F, P;
identifier ag =~ "^anon_inode_(create_)?getfile$";
position p;
@@
  X = ag@p(N, F, P, ...);

@script:python depends on an@
X << an.X; F << an.F; P << an.P; p << an.p; ag << an.ag;
@@
print("anon\t%s\t%s\t%s\t%s\t%s\t%s\t%s" % (p[0].file, p[0].current_element, p[0].line, ag, X, F, P))

@anfd depends on facts@
expression N, F, P, FL;
identifier ag =~ "^anon_inode_(create_)?getfd$";
position p;
@@
  ag@p(N, F, P, FL, ...)

@script:python depends on anfd@
F << anfd.F; P << anfd.P; p << anfd.p; ag << anfd.ag;
@@
print("anonfd\t%s\t%s\t%s\t%s\t%s\t%s" % (p[0].file, p[0].current_element, p[0].line, ag, F, P))

@anr depends on facts@
expression N, F, P;
identifier ag =~ "^anon_inode_(create_)?getfile$";
position p;
@@
  return ag@p(N, F, P, ...);

@script:python depends on anr@
F << anr.F; P << anr.P; p << anr.p; ag << anr.ag;
@@
print("anonret\t%s\t%s\t%s\t%s\t%s\t%s" % (p[0].file, p[0].current_element, p[0].line, ag, F, P))

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

@fc depends on facts@
identifier g;
expression list es;
position p;
@@
  g@p(es)

@script:python depends on fc@
g << fc.g; es << fc.es; p << fc.p;
@@
print_fcall(p[0].current_element, g, es, p)

@ane depends on facts@
identifier ag =~ "^anon_inode_(create_)?getfile$";
expression X, N, F, P;
statement S;
position p;
@@
  X = ag@p(N, F, P, ...);
  if (IS_ERR(X)) S

@script:python depends on ane@
S << ane.S; p << ane.p;
@@
print("anonexit\t%s\t%s\t%s\t%d" % (p[0].file, p[0].current_element, p[0].line, 1 if leaves(S) else 0))
