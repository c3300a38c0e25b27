// SPDX-License-Identifier: GPL-2.0
/// Classify every ->poll implementation by the wait queue heads that it
/// registers with poll_wait().
///
/// An implementation is a function named as the .poll or .proc_poll
/// member of an ops struct initializer or run-time assignment of the
/// same file, or a function returning __poll_t and taking a poll_table
/// that nothing in the file calls.  For each one the distinct head
/// expressions given to poll_wait() are counted, in its body and in the
/// same-file functions that it hands the poll_table to, followed to any
/// depth; sock_poll_wait(f, sock, p) counts as the head &sock->wq.wait.
/// The verdict is one of the classes of TAXONOMY.md: none,
/// single-static, single-private, single-cond, multi, busy-poll,
/// delegate, unknown.  This is the second opinion of the classify
/// stage: matching only, no dataflow, heads compared as written.
///
/// -D facts prints one line per implementation, fields separated by tabs:
///   polltax-cocci FILE LINE FUNCTION OPS_TYPE CLASS NHEADS HEADS REASON
/// OPS_TYPE is the struct type without "struct " (several are joined by
/// ",", "?" when the assigned object has no visible type, "-" when no
/// ops struct of the file names the function); HEADS are joined by
/// " ;; ", "-" for none.  -D report and -D org print the same verdicts
/// in the coccicheck formats, -D explain prints the rules that matched
/// for each function.  All output is printed by the finalizer, sorted,
/// so it is the same whatever --jobs is.
///
/// Scanning a tree: give each file its own group and run from the tree
/// root, so that FILE is relative and a parse failure or a timeout costs
/// one file only.  Files named on the command line form ONE group: the
/// timeout then covers them all, one timeout aborts the whole run with
/// no output, and --jobs has nothing to share out.
///   awk '{print; print ""}' files.txt > groups.txt
///   spatch --sp-file cocci/classify.cocci -D facts --very-quiet
///     --no-show-diff --no-includes --ifdef-to-if
///     --macro-file cocci/classify-macros.h --timeout 60 --jobs 2
///     --chunksize 1 --file-groups groups.txt
/// The 627 poll-related .c files of linux-source-6.12 take about 65 s
/// of CPU (35 s on two idle CPUs).  A file whose rules time out half way
/// has its implementations reported as unknown; a file that times out
/// before any match prints nothing here and "EXN: ...Timeout in FILE" on
/// stderr; spatch exits 0 in both cases.
///
//# Heads are compared as written: &dev->wait in the poll function and
//# &d->wait in its helper are two heads, and one head chosen by if/else
//# counts twice (multi, where TAXONOMY.md says single-dynamic).
//# single-private is any unconditional head other than &global: where
//# the base comes from (private_data set at open or not) is not checked.
//# A poll_table given to a function of another file makes the verdict
//# unknown, except sock_poll_wait (busy-poll), vfs_poll (delegate) and
//# poll_requested_events, poll_does_not_wait, loggers (ignored).
//# The same text in two scopes is one head: two locals both named
//# runtime give &runtime->sleep once (sound/core/oss/pcm_oss.c).
//# An implementation defined in another file is reported where its ops
//# struct is (LINE is that of the struct), as unknown with the reason
//# "not defined in this file".
//# Ops structs built by macros (DEFINE_DRM_GEM_FOPS, ...) are not seen.
//# .poll members that are not file polling (blk_mq_ops, rfkill_ops, ...)
//# are reported with their OPS_TYPE for the caller to exclude.
//
// Confidence: Moderate
// Copyright: (C) 2025 The polltax authors.
// Comments: single-dynamic and not-poll are decided by the libclang
// classifier, not here.  Heads and reasons are facts for polltax; the
// report and org modes are for reading.
// Options: --no-includes --ifdef-to-if
// Requires: 1.1.1
// Keywords: poll_wait, poll_table, f_poll_head, poll_mask

virtual report
virtual org
virtual explain
virtual facts

@initialize:python depends on facts || report || org || explain@
@@
import re
import sys

MODES = set()

# Calls that take the poll_table and register nothing, or whose
# registration is accounted for by a rule of their own.
BENIGN = frozenset(("poll_requested_events", "poll_does_not_wait",
                    "poll_wait", "sock_poll_wait"))
# Macros and loggers that see the poll_table as a plain pointer.
BENIGN_RE = re.compile(r"^(container_of\w*|printk|pr_\w+|"
                       r"dev_(dbg|info|warn|err)\w*|WARN\w*|BUG_ON)$")
# Calls that hand the poll_table to the ->poll of another file.
DELEGATORS = frozenset(("vfs_poll",))

def benign(g):
    return g in BENIGN or BENIGN_RE.match(g) is not None

# Everything a worker learns lives in one dict, so that the finalizer
# gets it back through merge.state whatever happened to the files.
# "group" maps each file of the group being matched to its facts; "out"
# holds the verdicts of the groups done; "lost" the facts of files whose
# group never reached the last rule (timeout half way).
coccinelle.state = {"group": {}, "out": [], "lost": []}

class Pos:
    """A position built in python, for spans and for the finalizer."""
    def __init__(self, file, line, column=0, line_end=None,
                 column_end=0):
        self.file, self.line, self.column = file, str(line), str(column)
        self.line_end = str(line if line_end is None else line_end)
        self.column_end = str(column_end)

def cur(pos):
    g = coccinelle.state["group"]
    c = g.get(pos.file)
    if c is None:
        c = {"file": pos.file, "ops": {}, "funcs": {}, "defs": {},
             "assign": [], "assign_type": {}, "addr": set(), "text": None}
        g[pos.file] = c
    return c

def group_files():
    g = coccinelle.state["group"]
    return [g[k] for k in sorted(g)]

def func(c, fn):
    f = c["funcs"].get(fn)
    if f is None:
        f = {"line": 0, "col": 0, "col_end": 0, "pt": None,
             "socket": False, "ret_poll": False, "called": False,
             "heads": [], "calls": [], "indirect": [], "busy": [],
             "nowait": False, "nowait_at": []}
        c["funcs"][fn] = f
    return f

def lines_of(c):
    if c["text"] is None:
        try:
            with open(c["file"], errors="replace") as fh:
                c["text"] = fh.read().split("\n")
        except OSError:
            c["text"] = []
    return c["text"]

def text_of(c, p):
    """The source text between two positions, blanks squeezed."""
    lines = lines_of(c)
    l0, c0 = int(p.line) - 1, int(p.column)
    l1, c1 = int(p.line_end) - 1, int(p.column_end)
    if l0 < 0 or l1 >= len(lines):
        return None
    if l0 == l1:
        s = lines[l0][c0:c1]
    else:
        s = "\n".join([lines[l0][c0:]] + lines[l0 + 1:l1] +
                      [lines[l1][:c1]])
    return " ".join(s.split())

def head_text(c, p, fallback):
    s = text_of(c, p)
    if not s:
        # No text as written (macro expansion?): squeeze the token
        # spacing of spatch instead.
        s = re.sub(r"\s*([^\w\s])\s*", r"\1", fallback)
    return s

def add_ops(pos, fn, otype, var, how, pf=None):
    c = cur(pos)
    if pf is not None:
        # .poll = &x: kept only if x is a function of this file (checked
        # in finish); otherwise x is most likely an object.
        lines = lines_of(c)
        l = int(pf.line) - 1
        before = lines[l][:int(pf.column)] if 0 <= l < len(lines) else ""
        if before.rstrip().endswith("&"):
            c["addr"].add(fn)
    otype = " ".join(w for w in otype.split() if w not in ("const", "volatile"))
    if otype.startswith("struct "):
        otype = otype[len("struct "):]
    otype = "".join(otype.split())
    item = (otype, var, int(pos.line), how)
    l = c["ops"].setdefault(fn, [])
    if item not in l:
        l.append(item)

def closure(c, fn):
    """fn and the same-file functions it hands the poll_table to, in a
    fixed order: breadth first, callees by call position."""
    seen, order, todo = set(), [], [fn]
    while todo:
        g = todo.pop(0)
        if g in seen or g not in c["funcs"]:
            continue
        seen.add(g)
        order.append(g)
        for (callee, l, col) in sorted(c["funcs"][g]["calls"],
                                       key=lambda x: (x[1], x[2])):
            if callee in c["funcs"] and callee not in seen:
                todo.append(callee)
    return order

def registers(c, g):
    """Does a call of g given the poll_table register anything?  Calls
    that cannot be seen into are assumed to."""
    if g in ("poll_wait", "sock_poll_wait"):
        return True
    if benign(g):
        return False
    if g not in c["funcs"]:
        return True
    for h in closure(c, g):
        f = c["funcs"][h]
        if f["heads"] or f["indirect"]:
            return True
        if any(not benign(x[0]) and x[0] not in c["funcs"]
               for x in f["calls"]):
            return True
    return False

# Constraints see an identifier, not a file: with several files in one
# group the facts of all of them are consulted (one file per group keeps
# them exact).
def registers_now(g):
    try:
        files = group_files()
        for c in files:
            if g in c["funcs"]:
                return registers(c, g)
        return registers(files[0], g) if files else True
    except Exception as e:
        sys.stderr.write("classify.cocci: registers(%s): %r\n" % (g, e))
        return True

def is_cand(fn):
    return any(fn in c["ops"] or fn in c["funcs"] or
               any(a[0] == fn for a in c["assign"])
               for c in group_files())

def defined_in_text(c, fn):
    """Line of a definition of fn found by a regex over the text, or 0:
    tells "not parsed" from "defined elsewhere"."""
    src = "\n".join(lines_of(c))
    pat = r"\b%s\s*\(([^;{}()]|\([^()]*\))*\)\s*\{" % re.escape(fn)
    m = re.search(pat, src)
    return src.count("\n", 0, m.start()) + 1 if m else 0

def verdict(line, cls, heads, reason, why, rule, col=0, col_end=0):
    return {"line": line, "col": col, "col_end": col_end, "class": cls,
            "heads": heads, "reason": reason, "why": why, "rule": rule}

# The explanations name the rules below that matched, with the line of
# the match: "pw@673: &pipe->rd_wait" is rule pw at line 673.
def classify(c, fn):
    ops = c["ops"].get(fn, [])
    if fn not in c["funcs"]:
        if fn in c["defs"]:
            l = c["defs"][fn]
            return verdict(l, "none", [], "takes no poll_table parameter",
                           ["def@%d: defined, pfun did not match" % l],
                           "def && !pfun")
        l = defined_in_text(c, fn)
        if l:
            return verdict(l, "unknown", [], "definition not parsed by spatch",
                           ["regex@%d: a definition spatch did not parse" % l],
                           "!def")
        l = min(o[2] for o in ops)
        return verdict(l, "unknown", [], "not defined in this file",
                       ["regex: no definition in this file"], "!def")
    f0 = c["funcs"][fn]
    why, heads, keys = [], [], set()
    busy, deleg, unknown, cond, via = [], [], [], [], []
    static = True
    for g in closure(c, fn):
        f = c["funcs"][g]
        where = "" if g == fn else " in %s()" % g
        if g != fn:
            via.append(g + "()")
        for (h, l, glob, sock) in sorted(f["heads"], key=lambda x: x[1]):
            why.append("%s@%d: %s%s%s" % ("spw" if sock else "pw", l, h,
                       " (pw_global)" if glob else "", where))
            k = "".join(h.split())
            if k not in keys:
                keys.add(k)
                heads.append(h)
            static = static and glob
            if sock:
                busy.append((0, "spw", "sock_poll_wait()%s registers the"
                             " socket queue" % where))
        for (b, l) in sorted(f["busy"], key=lambda x: (x[1], x[0])):
            why.append("busy@%d: %s%s" % (l, b, where))
            busy.append((0, "busy", "busy-polls with %s%s" % (b, where)))
        for (l, col, e, rule) in sorted(f["indirect"]):
            why.append("%s@%d: %s(..., %s, ...)%s" % (rule, l, e, f["pt"],
                                                       where))
            deleg.append((rule, "the indirect call %s()%s" % (e, where)))
        locals_ = set((x[0], x[1]) for x in f["indirect"])
        for (callee, l, col) in sorted(f["calls"], key=lambda x: (x[1], x[2])):
            if (l, col) in locals_ or benign(callee):
                continue
            if callee in DELEGATORS:
                why.append("call@%d: %s()%s delegates" % (l, callee, where))
                deleg.append(("call", "%s()%s" % (callee, where)))
            elif callee in c["funcs"]:
                why.append("call@%d: %s()%s followed" % (l, callee, where))
            else:
                why.append("call@%d: %s()%s not in this file" %
                           (l, callee, where))
                unknown.append(callee + "()" + where)
        if f["nowait"]:
            at = f["nowait_at"]
            if at:
                why.append("nowait_return@%d: reached without registering%s"
                           % (at[0], where))
                cond.append("the return at line %d%s" % (at[0], where))
            else:
                why.append("nowait@%d: the exit reached without registering%s"
                           % (f["line"], where))
                cond.append("the end of %s()" % g)
    if any(o[0] == "proto_ops" for o in ops):
        why.append("ops_init: a proto_ops, polled under sock_poll()")
        busy.append((1, "ops_init", "proto_ops poll runs under sock_poll()"))
    if f0["socket"]:
        why.append("pfun_socket@%d: struct socket parameter" % f0["line"])
        busy.append((2, "pfun_socket", "socket poll (struct socket"
                     " parameter)"))
    viatxt = " (via %s)" % ", ".join(via) if via else ""
    v = lambda cls, reason, rule: verdict(f0["line"], cls, heads, reason,
                                          why, rule, f0["col"], f0["col_end"])
    if busy:
        b = sorted(busy, key=lambda x: x[0])[0]
        return v("busy-poll", b[2], b[1])
    if deleg:
        return v("delegate", "hands the poll_table to %s" % deleg[0][1],
                 deleg[0][0])
    if len(heads) >= 2:
        return v("multi", "%d distinct heads%s" % (len(heads), viatxt),
                 "pw/spw")
    if unknown:
        return v("unknown", "hands the poll_table to %s, not defined in"
                 " this file" % unknown[0], "call")
    if not heads:
        return v("none", "no poll_wait reachable%s" % viatxt, "!pw")
    if cond:
        return v("single-cond", "%s can be reached without poll_wait" %
                 cond[0], "nowait")
    if static:
        return v("single-static", "one global head on every path%s" % viatxt,
                 "pw && pw_global && !nowait")
    return v("single-private", "one non-global head on every path%s" %
             viatxt, "pw && !pw_global && !nowait")

LOST = "start: the last rule did not run for this file"

def finish(c, lost):
    """Verdicts for one file; lost: its group did not reach the end."""
    handed = set(x[0] for f in c["funcs"].values() for x in f["calls"])
    impls = set(fn for fn in c["ops"] if fn not in c["addr"] or
                fn in c["funcs"] or fn in c["defs"])
    impls.update(fn for fn, f in c["funcs"].items()
                 if f["ret_poll"] and not f["called"] and fn not in handed)
    rows = []
    for fn in sorted(impls):
        ops = sorted(c["ops"].get(fn, []), key=lambda o: (o[2], o[1]))
        try:
            if lost:
                l = (c["funcs"][fn]["line"] if fn in c["funcs"]
                     else min(o[2] for o in ops))
                v = verdict(l, "unknown", [], "spatch stopped on this file"
                            " (timeout or error)", [LOST], "!done")
            else:
                v = classify(c, fn)
        except Exception as e:
            sys.stderr.write("classify.cocci: %s: %s(): %r\n" %
                             (c["file"], fn, e))
            v = verdict(0, "unknown", [], "internal error in classify.cocci",
                        [], "python")
        pre = ["%s@%d: .poll of %s %s" % (o[3], o[2], o[0], o[1])
               for o in ops]
        if not ops:
            pre = ["pfun_ret@%d: returns __poll_t, takes a poll_table,"
                   " pfun_called and call did not match" % v["line"]]
        v["why"] = pre + v["why"]
        v.update(file=c["file"], fn=fn,
                 ops=",".join(sorted(set(o[0] for o in ops))) or "-")
        rows.append(v)
    return rows

def emit(rows):
    import coccilib.report
    import coccilib.org
    # A file given twice yields its rows twice: keep one, a full verdict
    # before a lost one.
    best = {}
    for r in rows:
        k = (r["file"], r["fn"])
        if k not in best or (LOST in best[k]["why"] and LOST not in r["why"]):
            best[k] = r
    rows = sorted(best.values(), key=lambda r: (r["file"], r["line"], r["fn"]))
    for r in rows:
        hs = " ;; ".join(r["heads"]) if r["heads"] else "-"
        p = Pos(r["file"], r["line"], r["col"], r["line"], r["col_end"])
        if "facts" in MODES:
            print("polltax-cocci\t%s\t%d\t%s\t%s\t%s\t%d\t%s\t%s" %
                  (r["file"], r["line"], r["fn"], r["ops"], r["class"],
                   len(r["heads"]), hs, r["reason"]))
        if "report" in MODES:
            coccilib.report.print_report(p, "WARNING: %s(): %s: %s"
                                         " (heads: %s)" % (r["fn"],
                                         r["class"], r["reason"], hs))
        if "org" in MODES:
            coccilib.org.print_todo(p, "%s(): %s: %s" %
                                    (r["fn"], r["class"], r["reason"]))
        if "explain" in MODES:
            print("%s:%d: %s(): %s because %s [%s]" % (r["file"], r["line"],
                  r["fn"], r["class"], r["reason"], r["rule"]))
            for w in r["why"]:
                print("%s:%d: %s():   %s" % (r["file"], r["line"], r["fn"], w))

@initialize:python depends on facts@
@@
MODES.add("facts")

@initialize:python depends on report@
@@
MODES.add("report")

@initialize:python depends on org@
@@
MODES.add("org")

@initialize:python depends on explain@
@@
MODES.add("explain")

// First rule of each group: the facts that a previous group left behind
// are lost (that group stopped half way, on a timeout).
@script:python start depends on facts || report || org || explain@
@@
st = coccinelle.state
for c in group_files():
    c["text"] = None
    st["lost"].append(c)
st["group"] = {}

// ---- which functions are ->poll implementations ----

@ops_init depends on facts || report || org || explain@
identifier I, T, fn;
identifier fld = {poll, proc_poll};
position p, pf;
@@
  struct T I@p = { ..., .fld = \(fn@pf\|&fn@pf\), ... };

@script:python@
I << ops_init.I; T << ops_init.T; fn << ops_init.fn; p << ops_init.p;
pf << ops_init.pf;
@@
add_ops(p[0], fn, T, I, "ops_init", pf[0])

@ops_array depends on facts || report || org || explain@
identifier I, T, fn;
identifier fld = {poll, proc_poll};
expression N;
position p, pf;
@@
(
  struct T I@p[] = { ..., { ..., .fld = \(fn@pf\|&fn@pf\), ... }, ... };
|
  struct T I@p[] = { ..., [N] = { ..., .fld = \(fn@pf\|&fn@pf\), ... }, ... };
|
  struct T I@p[N] = { ..., { ..., .fld = \(fn@pf\|&fn@pf\), ... }, ... };
)

@script:python@
I << ops_array.I; T << ops_array.T; fn << ops_array.fn; p << ops_array.p;
pf << ops_array.pf;
@@
add_ops(p[0], fn, T, I + "[]", "ops_array", pf[0])

@ops_array_idx depends on facts || report || org || explain@
identifier I, T, fn;
identifier fld = {poll, proc_poll};
expression N, M;
position p, pf;
@@
  struct T I@p[M] = { ..., [N] = { ..., .fld = \(fn@pf\|&fn@pf\), ... }, ... };

@script:python@
I << ops_array_idx.I; T << ops_array_idx.T; fn << ops_array_idx.fn;
p << ops_array_idx.p; pf << ops_array_idx.pf;
@@
add_ops(p[0], fn, T, I + "[]", "ops_array", pf[0])

// Run-time assignments.  The type is known when the object is declared
// in this file, else "?".  Kept only if fn is defined here (checked in
// the last rule), which drops NULL and function pointer copies.
@ops_assign_typed depends on facts || report || org || explain@
type TT;
TT E;
identifier fld = {poll, proc_poll};
identifier fn;
position p;
@@
  E.fld@p = \(fn\|&fn\)

@script:python@
TT << ops_assign_typed.TT; p << ops_assign_typed.p;
@@
cur(p[0])["assign_type"][(int(p[0].line), int(p[0].column))] = TT

@ops_assign depends on facts || report || org || explain@
expression E;
identifier fld = {poll, proc_poll};
identifier fn;
position p;
@@
  \(E->fld@p = \(fn\|&fn\)\|E.fld@p = \(fn\|&fn\)\)

@script:python@
E << ops_assign.E; fn << ops_assign.fn; p << ops_assign.p;
@@
cur(p[0])["assign"].append((fn, E, int(p[0].line), int(p[0].column)))

// ---- facts about the functions that take a poll_table ----

@pfun depends on facts || report || org || explain@
identifier fn, pt;
typedef poll_table;
type PT = {poll_table, struct poll_table_struct};
position p;
@@
  fn@p(..., PT *pt, ...) { ... }

@script:python@
fn << pfun.fn; pt << pfun.pt; p << pfun.p;
@@
f = func(cur(p[0]), fn)
f["line"], f["pt"] = int(p[0].line), pt
f["col"], f["col_end"] = int(p[0].column), int(p[0].column_end)

@pfun_called depends on pfun@
identifier pfun.fn;
position pc;
@@
  fn@pc(...)

@script:python@
fn << pfun.fn; pc << pfun_called.pc;
@@
func(cur(pc[0]), fn)["called"] = True

@pfun_ret depends on pfun@
identifier pfun.fn;
typedef __poll_t;
position pr;
@@
  __poll_t fn@pr(...) { ... }

@script:python@
fn << pfun.fn; pr << pfun_ret.pr;
@@
func(cur(pr[0]), fn)["ret_poll"] = True

@pfun_socket depends on pfun@
identifier pfun.fn, S;
position ps;
@@
  fn@ps(..., struct socket *S, ...) { ... }

@script:python@
fn << pfun.fn; ps << pfun_socket.ps;
@@
func(cur(ps[0]), fn)["socket"] = True

@pw depends on pfun@
identifier pfun.fn;
expression F, H;
position p, ph;
@@
  fn(...) { <+... poll_wait@p(F, H@ph, ...) ...+> }

@script:python@
fn << pfun.fn; H << pw.H; p << pw.p; ph << pw.ph;
@@
c = cur(p[0])
func(c, fn)["heads"].append([head_text(c, ph[0], H), int(p[0].line),
                            False, False])

// &global, &global.member: the single-static head.
@pw_global depends on pw@
global idexpression G;
identifier fld1, fld2;
expression F;
position pw.p;
@@
(
  poll_wait@p(F, &G, ...)
|
  poll_wait@p(F, &G.fld1, ...)
|
  poll_wait@p(F, &G.fld1.fld2, ...)
)

@script:python@
fn << pfun.fn; p << pw.p; G << pw_global.G;
@@
for h in func(cur(p[0]), fn)["heads"]:
    if h[1] == int(p[0].line):
        h[2] = True

@spw depends on pfun@
identifier pfun.fn;
expression F, S;
position p, ps;
@@
  fn(...) { <+... sock_poll_wait@p(F, S@ps, ...) ...+> }

@script:python@
fn << pfun.fn; S << spw.S; p << spw.p; ps << spw.ps;
@@
c = cur(p[0])
s = head_text(c, ps[0], S)
if not re.match(r"^\w+$", s):
    s = "(" + s + ")"
func(c, fn)["heads"].append(["&%s->wq.wait" % s, int(p[0].line), False, True])

@busy depends on pfun@
identifier pfun.fn;
identifier BI =~ "^(sk_busy_loop[a-z_]*|sk_can_busy_loop|napi_busy_loop[a-z_]*|busy_loop_[a-z_]+|sk_mark_napi_id[a-z_]*|POLL_BUSY_LOOP)$";
position p;
@@
  fn(...) { <+... BI@p ...+> }

@script:python@
fn << pfun.fn; BI << busy.BI; p << busy.p;
@@
func(cur(p[0]), fn)["busy"].append((BI, int(p[0].line)))

// The poll_table handed on: to a named function (followed when defined
// here), to a function pointer held in a local or a parameter, or to a
// member function pointer.  The last two are indirect calls: delegate.
@call depends on pfun@
identifier pfun.fn, pfun.pt, g;
position p;
@@
  fn(...) { <+... g@p(..., pt, ...) ...+> }

@script:python@
fn << pfun.fn; g << call.g; p << call.p;
@@
func(cur(p[0]), fn)["calls"].append((g, int(p[0].line), int(p[0].column)))

// A parameter named poll_table (kernel/trace) is parsed as a type where
// it is an argument.
@call_type depends on pfun@
identifier pfun.fn, g;
typedef poll_table;
type PT = {poll_table};
position p;
@@
  fn(...) { <+... g@p(..., PT, ...) ...+> }

@script:python@
fn << pfun.fn; pt << pfun.pt; g << call_type.g; p << call_type.p;
@@
if pt == "poll_table":
    func(cur(p[0]), fn)["calls"].append((g, int(p[0].line), int(p[0].column)))

@call_local depends on pfun@
identifier pfun.fn, pfun.pt;
local idexpression LF;
position p;
@@
  fn(...) { <+... LF@p(..., pt, ...) ...+> }

@script:python@
fn << pfun.fn; LF << call_local.LF; p << call_local.p;
@@
func(cur(p[0]), fn)["indirect"].append((int(p[0].line), int(p[0].column),
                                        LF, "call_local"))

@call_indirect depends on pfun@
identifier pfun.fn, pfun.pt, fld;
expression E;
position p, pe;
@@
  fn(...) {
  <+...
  \(E@pe->fld@p(..., pt, ...)\|E@pe.fld@p(..., pt, ...)\|(*E@pe)@p(..., pt, ...)\)
  ...+>
  }

@script:python@
fn << pfun.fn; E << call_indirect.E; fld << call_indirect.fld;
p << call_indirect.p; pe << call_indirect.pe;
@@
c = cur(p[0])
span = Pos(c["file"], pe[0].line, pe[0].column, p[0].line_end,
           p[0].column_end)
s = text_of(c, span) or (E + "->" + fld)
func(c, fn)["indirect"].append((int(p[0].line), int(p[0].column), s,
                                "call_indirect"))

// A path from the entry to the exit that registers nothing: the
// poll_wait is under a condition, or an early return skips it.  A call
// of a function that registers (or may) counts as registration.
@nowait exists@
identifier pfun.fn, pfun.pt;
identifier g : script:python() { registers_now(g) };
typedef poll_table;
type PT = {poll_table};
position pn;
@@
  fn@pn(...) {
  ... when != poll_wait(...)
      when != g(..., pt, ...)
      when != g(..., PT, ...)
  }

@script:python@
fn << pfun.fn; pn << nowait.pn;
@@
func(cur(pn[0]), fn)["nowait"] = True

// Which return such a path reaches, for the reason: the returned
// expression is checked in python, a registering call can be in it.
@nowait_return exists@
identifier pfun.fn, pfun.pt;
identifier g : script:python() { registers_now(g) };
typedef poll_table;
type PT = {poll_table};
expression E;
position pr;
@@
  fn(...) {
  ... when != poll_wait(...)
      when != g(..., pt, ...)
      when != g(..., PT, ...)
  return@pr E;
  }

@script:python@
fn << pfun.fn; pr << nowait_return.pr; E << nowait_return.E;
@@
c = cur(pr[0])
f = func(c, fn)
l = int(pr[0].line)
if not re.search(r"\bpoll_wait\b|\b%s\b" % re.escape(f["pt"]), E):
    f["nowait_at"] = sorted(set(f["nowait_at"] + [l]))

// Definitions of the functions named by ops structs that take no
// poll_table (blk_mq_ops.poll and the like).
@def depends on facts || report || org || explain@
identifier fn : script:python() { is_cand(fn) };
position p;
@@
  fn@p(...) { ... }

@script:python@
fn << def.fn; p << def.p;
@@
cur(p[0])["defs"][fn] = int(p[0].line)

// Last rule of each group: decide.
@script:python done depends on facts || report || org || explain@
@@
st = coccinelle.state
for c in group_files():
    for (fn, E, line, col) in c["assign"]:
        if fn in c["funcs"] or fn in c["defs"]:
            t = c["assign_type"].get((line, col), "?")
            add_ops(Pos(c["file"], line), fn, t, E, "ops_assign")
    st["out"].extend(finish(c, False))
st["group"] = {}

@finalize:python depends on facts || report || org || explain@
states << merge.state;
@@
rows = []
for st in states:
    rows.extend(st["out"])
    for c in st["lost"] + [st["group"][k] for k in sorted(st["group"])]:
        rows.extend(finish(c, True))
emit(rows)
