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
///   -D anchor_pdlvalue        after "F->private_data = LV;", the one
///                             store of site (LV: a plain lvalue such
///                             as hw->slot[i], which head is written
///                             with; polltax checks that one line was
///                             added)
///   -D anchor_pdaddr -D pdbase=R -D pdmember=M
///                             after "F->private_data = &R->M;"
///   -D anchor_local -D lvar=V -D filevar=F
///                             after "V = ...;" (the local the head is
///                             computed from)
///   -D anchor_first -D filevar=F
///                             before the first statement: the head
///                             depends on nothing open() computes
///   -D anchor_anon -D fops=FOPS
///                             on the file returned by
///                             anon_inode_getfile(..., &FOPS, priv, ...),
///                             after its IS_ERR() check (which must leave
///                             the function: poll_facts.cocci tells)
///   -D anchor_anonguard -D fops=FOPS
///                             the same, right after the call, guarded
///                             by !IS_ERR()
///   -D anchor_anonfd -D fops=FOPS
///                             anon_inode_getfd(N, &FOPS, priv, flags)
///                             becomes anon_inode_getfd_poll(N, &FOPS,
///                             priv, flags, head): the file is installed
///                             before anon_inode_getfd() returns, so the
///                             head goes in with the call (the head is
///                             written with priv); likewise
///                             anon_inode_create_getfd(N, &FOPS, priv,
///                             flags, context_inode) becomes
///                             anon_inode_create_getfd_poll(N, &FOPS,
///                             priv, flags, context_inode, head)
///   -D anchor_anonfw, -D anchor_anonfwguard
///                             the same two for the one
///                             anon_inode_getfile() of SITE that a
///                             framework makes with the fops a driver
///                             handed it (anon_inode_getfile(N,
///                             dev->driver->fops, priv, ...)): no &FOPS
///                             to name, polltax checks that SITE has one
///   -D anchor_anonret -D fops=FOPS
///                             "return anon_inode_getfile(...);": the
///                             file goes in a new local, file, which is
///                             set up when it is not an error
/// When the files come through a framework's open (misc_open(),
/// chrdev_open()) and the ops have no ->open(), or share one
/// (simple_open()), polltax writes a new ->open() that sets the head
/// (after calling the shared one), and these put it in the ops:
///   -D anchor_addopen -D fops=FOPS -D newopen=NEW -D mask_fn=F
///                             .open = NEW in FOPS (which has
///                             .poll_mask = F)
///   -D anchor_wrapopen -D fops=FOPS -D oldopen=OLD -D newopen=NEW
///                             .open = OLD becomes .open = NEW in FOPS
/// ->open() may set f_poll_head before it fails: do_dentry_open() clears
/// it again.
///
//# The head is pasted as polltax wrote it (SmPL has no expression-valued
//# -D: it is the name of a fresh identifier), so it must be a well-formed
//# C expression; polltax pretty-prints it.  The rules insert exactly
//# where they are told; whether the head is valid there (the same queue
//# the poll function registered, computed from values already set) is
//# decided by polltax from the facts of poll_facts.cocci, and polltax
//# checks that every creation site got exactly one line.
//
// Confidence: High
// Copyright: (C) 2025 The polltax authors.
// Comments: instantiated per creation site by polltax series/convert:
//   spatch --sp-file cocci/f_poll_head.cocci -D anchor_pd -D site=foo_open
//     -D pdvar=dev -D head='&dev->wait' --no-includes --in-place FILE
// Options: --no-includes
// Requires: 1.1.1
// Keywords: f_poll_head, poll_mask, anon_inode_getfile, anon_inode_getfd

virtual anchor_pd
virtual anchor_pdaddr
virtual anchor_pdlvalue
virtual anchor_local
virtual anchor_first
virtual anchor_anon
virtual anchor_anonguard
virtual anchor_anonfw
virtual anchor_anonfwguard
virtual anchor_anonfd
virtual anchor_anonret
virtual anchor_addopen
virtual anchor_wrapopen

@depends on anchor_pd@
identifier virtual.site, virtual.pdvar;
expression F;
fresh identifier e = "" ## virtual.head;
@@
  site(...) {
  <...
  F->private_data = pdvar;
+ F->f_poll_head = e;
  ...>
  }

@depends on anchor_pdlvalue@
identifier virtual.site;
expression F, LV;
fresh identifier e = "" ## virtual.head;
@@
  site(...) {
  <...
  F->private_data = LV;
+ F->f_poll_head = e;
  ...>
  }

@depends on anchor_pdaddr@
identifier virtual.site, virtual.pdbase, virtual.pdmember;
expression F;
fresh identifier e = "" ## virtual.head;
@@
  site(...) {
  <...
  F->private_data = &pdbase->pdmember;
+ F->f_poll_head = e;
  ...>
  }

@depends on anchor_local@
identifier virtual.site, virtual.lvar, virtual.filevar;
expression E;
fresh identifier e = "" ## virtual.head;
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
fresh identifier e = "" ## virtual.head;
@@
  site(...) {
  ... when != S1
+ filevar->f_poll_head = e;
  S
  ... when any
  }

@depends on anchor_anon@
identifier virtual.site, virtual.fops;
identifier ag =~ "^anon_inode_(create_)?getfile$";
statement S;
expression X, N, P;
fresh identifier e = "" ## virtual.head;
@@
  site(...) {
  <...
  X = ag(N, &fops, P, ...);
  if (IS_ERR(X)) S
+ X->f_poll_head = e;
  ...>
  }

@depends on anchor_anonguard@
identifier virtual.site, virtual.fops;
identifier ag =~ "^anon_inode_(create_)?getfile$";
expression X, N, P;
fresh identifier e = "" ## virtual.head;
@@
  site(...) {
  <...
  X = ag(N, &fops, P, ...);
+ if (!IS_ERR(X))
+ 	X->f_poll_head = e;
  ...>
  }

@depends on anchor_anonfw@
identifier virtual.site;
identifier ag =~ "^anon_inode_(create_)?getfile$";
statement S;
expression X, N, F, P;
fresh identifier e = "" ## virtual.head;
@@
  site(...) {
  <...
  X = ag(N, F, P, ...);
  if (IS_ERR(X)) S
+ X->f_poll_head = e;
  ...>
  }

@depends on anchor_anonfwguard@
identifier virtual.site;
identifier ag =~ "^anon_inode_(create_)?getfile$";
expression X, N, F, P;
fresh identifier e = "" ## virtual.head;
@@
  site(...) {
  <...
  X = ag(N, F, P, ...);
+ if (!IS_ERR(X))
+ 	X->f_poll_head = e;
  ...>
  }

@depends on anchor_anonfd@
identifier virtual.site, virtual.fops;
expression N, P, FL;
fresh identifier e = "" ## virtual.head;
@@
  site(...) {
  <...
- anon_inode_getfd
+ anon_inode_getfd_poll
  (N, &fops, P,
- FL
+ FL, e
  )
  ...>
  }

@depends on anchor_anonfd@
identifier virtual.site, virtual.fops;
expression N, P, FL, CI;
fresh identifier e = "" ## virtual.head;
@@
  site(...) {
  <...
- anon_inode_create_getfd
+ anon_inode_create_getfd_poll
  (N, &fops, P, FL,
- CI
+ CI, e
  )
  ...>
  }

@depends on anchor_anonret@
identifier virtual.site, virtual.fops;
identifier ag =~ "^anon_inode_(create_)?getfile$";
expression N, P;
expression list es;
fresh identifier e = "" ## virtual.head;
@@
  site(...) {
+ struct file *file;
+
  ...
- return ag(N, &fops, P, es);
+ file = ag(N, &fops, P, es);
+ if (!IS_ERR(file))
+ 	file->f_poll_head = e;
+ return file;
  }

// A new ->open() (written by polltax before the ->poll_mask function)
// is added to the ops that had none, or replaces a shared one it calls.

@addopen depends on anchor_addopen@
identifier virtual.fops, virtual.newopen, virtual.mask_fn;
@@
  struct file_operations fops = {
  .poll_mask = mask_fn,
+ .open = newopen,
  };

@depends on anchor_addopen && !addopen@
identifier virtual.fops, virtual.newopen, virtual.mask_fn;
@@
  struct file_operations fops = {
  .poll_mask = &mask_fn,
+ .open = newopen,
  };

@depends on anchor_wrapopen@
identifier virtual.fops, virtual.oldopen, virtual.newopen;
@@
  struct file_operations fops = {
  .open =
- oldopen
+ newopen
  ,
  };
