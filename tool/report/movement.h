/* SPDX-License-Identifier: GPL-2.0 */
/*
 * movement.h - what changed between two scans (two polltax.json results,
 * e.g. linux 6.1 and 6.12): implementations added, removed, moved to
 * another file, and reclassified, matched by file and function.  A
 * converted foo_poll_mask replacing foo_poll in the same file is the same
 * implementation, reclassified (from_function says the old name).
 */
#ifndef POLLTAX_MOVEMENT_H
#define POLLTAX_MOVEMENT_H

#include "lib/util.h"

#include <jansson.h>

/*
 * { "from", "to", "implementations_from", "implementations_to",
 *   "added": [impl], "removed": [impl], "unchanged": n,
 *   "moved": [{ "function", "from_file", "to_file", "from_class", "to_class", ... }],
 *   "reclassified": [{ "function", "from_function"?, "file", "line", "from_class",
 *                      "to_class", "from_convertible", "to_convertible", "reason" }],
 *   "transitions": [{ "from", "to", "n" }] }
 * Implementations of class not-poll are left out on both sides, so
 * added - removed is the change of "implementations".
 */
json_t *movement_compute(json_t *old, json_t *cur);

void movement_markdown(struct strbuf *sb, json_t *mv);
void movement_html(struct strbuf *sb, json_t *mv, const char *url_template);

#endif
