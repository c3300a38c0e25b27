/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cocci.h - the second opinion: cocci/classify.cocci run with spatch over
 * the same files, its "facts" lines read back.
 */
#ifndef POLLTAX_COCCI_H
#define POLLTAX_COCCI_H

#include <jansson.h>
#include <stdbool.h>
#include "lib/util.h"

/* Directory holding classify.cocci (next to the binary's ../cocci, or $POLLTAX_COCCI_DIR unset). */
const char *cocci_dir(void);

/*
 * Run the classifier over FILES (relative to ROOT).  Returns an object
 * "file:function" -> {file, line, function, ops_type, class, nheads, heads,
 * reason}; NULL (with a warning) when spatch is missing or fails.  With
 * NO_CACHE (scan --no-cache) every file goes to spatch again: no cache
 * entry is read, and each is written anew.
 */
json_t *cocci_run(const char *root, const struct strvec *files, int jobs, bool no_cache, bool quiet);

#endif
