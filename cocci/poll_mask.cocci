// SPDX-License-Identifier: GPL-2.0
/// Convert one ->poll implementation to ->poll_mask.
///
/// A ->poll that registers exactly one wait queue head, known when the
/// file is created, lets the VFS do the registration: the head is kept
/// in file->f_poll_head (set where the file is created, see
/// f_poll_head.cocci) and vfs_poll() calls poll_wait() on it before
/// calling ->poll_mask(file, events) with the events the caller asked
/// for.  This semantic patch rewrites the poll side of one
/// implementation, named with -D fn=NAME:
///   - __poll_t fn(struct file *f, poll_table *w) becomes
///     __poll_t mask_fn(struct file *f, __poll_t ev) (-D mask_fn=,
///     -D ev=; the file parameter keeps its name),
///   - its poll_wait(f, HEAD, w) calls go,
///   - poll_requested_events(w) becomes ev,
///   - a call that still hands w on (a helper that does the poll_wait()
///     for it) gets NULL instead: poll_wait() with a NULL poll_table
///     registers nothing, and the helper keeps its other callers,
///   - .poll = fn becomes .poll_mask = mask_fn in every struct
///     file_operations initializer, and x.poll = fn / x->poll = fn
///     assignments become x.poll_mask = / x->poll_mask =,
///   - prototypes and EXPORT_SYMBOL*(fn) follow the new name,
///   - with -D nohead (an implementation that registers no queue at
///     all), a direct call fn(f, w) from another function becomes
///     mask_fn(f, poll_requested_events(w)): the two are the same
///     function then, and the caller keeps its ->poll (the hung-up tty
///     shape).  Never without nohead: a caller would lose the
///     registration fn did for it.
/// Run it on every file that defines, declares or references fn.
///
//# Only for implementations that polltax classified as convertible:
//# one head, registered unconditionally, derived from state fixed when
//# the file is created, nothing but poll_wait() and
//# poll_requested_events() using the poll_table (a helper that is given
//# the poll_table may only poll_wait() with it).  The rule does not
//# check any of this; polltax does, and checks afterwards that no
//# reference to fn and no use of w is left.  Ops built by macros
//# (#define bodies) are not rewritten here.
//
// Confidence: High
// Copyright: (C) 2025 The polltax authors.
// Comments: instantiated per implementation by polltax series/convert:
//   spatch --sp-file cocci/poll_mask.cocci -D patch -D fn=foo_poll
//     -D mask_fn=foo_poll_mask -D ev=events --no-includes --in-place FILES
// Options: --no-includes
// Requires: 1.1.1
// Keywords: poll_wait, poll_mask, f_poll_head

virtual patch
virtual nohead

@def depends on patch@
identifier virtual.fn, virtual.mask_fn, virtual.ev;
identifier f, w;
type T;
typedef __poll_t;
@@
- fn(struct file *f, T *w)
+ mask_fn(struct file *f, __poll_t ev)
  { ... }

@depends on def@
identifier virtual.mask_fn;
identifier def.f, def.w;
expression H;
@@
  mask_fn(...) {
  <...
- poll_wait(f, H, w);
  ...>
  }

@depends on def@
identifier virtual.mask_fn, virtual.ev;
identifier def.w;
@@
  mask_fn(...) {
  <...
- poll_requested_events(w)
+ ev
  ...>
  }

@depends on def@
identifier virtual.mask_fn;
identifier def.w, g;
expression list es1, es2;
@@
  mask_fn(...) {
  <...
  g(es1,
- w
+ NULL
  , es2)
  ...>
  }

@depends on patch@
identifier virtual.fn, virtual.mask_fn;
identifier ops;
@@
  struct file_operations ops = {
  .
- poll
+ poll_mask
  =
(
- fn
+ mask_fn
|
  &
- fn
+ mask_fn
)
  ,
  };

@depends on patch@
identifier virtual.fn, virtual.mask_fn;
expression E;
@@
(
  E.
- poll
+ poll_mask
  =
- fn
+ mask_fn
|
  E->
- poll
+ poll_mask
  =
- fn
+ mask_fn
)

@depends on patch@
identifier virtual.fn, virtual.mask_fn, virtual.ev;
type R, T, P;
identifier f, w;
@@
(
  R
- fn
+ mask_fn
  (P f,
- T *w
+ __poll_t ev
  );
|
  R
- fn
+ mask_fn
  (P,
- T *
+ __poll_t
  );
)

@depends on patch@
identifier virtual.fn, virtual.mask_fn;
declarer name EXPORT_SYMBOL, EXPORT_SYMBOL_GPL;
@@
(
  EXPORT_SYMBOL(
- fn
+ mask_fn
  );
|
  EXPORT_SYMBOL_GPL(
- fn
+ mask_fn
  );
)

@depends on patch && nohead@
identifier virtual.fn, virtual.mask_fn;
expression E1, E2;
@@
- fn(E1, E2)
+ mask_fn(E1, poll_requested_events(E2))
