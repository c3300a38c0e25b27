/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Macros for spatch --macro-file, used with classify.cocci: statement
 * macros of the kernel that the Coccinelle 1.1.1 parser does not know,
 * declared as loops so that the function bodies around them parse.
 */
#define scoped_guard(_name, args...) for (;;)
#define scoped_cond_guard(_name, _fail, args...) for (;;)
