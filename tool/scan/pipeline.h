/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pipeline.h - what the later stages (convert, series, verify) share:
 * the scan's facts of a tree (read from a scan directory, or a scan run
 * now).
 */
#ifndef POLLTAX_PIPELINE_H
#define POLLTAX_PIPELINE_H

#include <jansson.h>
#include "lib/tree.h"

/*
 * The scan of T: SCAN_DIR/polltax.json when SCAN_DIR is given (checked
 * against T's version), else a scan run now, whose outputs are written to
 * WRITE_DIR when that is not NULL (with the other architectures ARCHES,
 * or NULL: --arch of scan).  Dies on bad input, a scan of another
 * tree included (its version or its sources are not T's).
 */
json_t *pipeline_scan(const struct tree *t, const char *scan_dir, const char *write_dir, const char *arches,
		      bool quiet);


/*
 * Record what series refused (REFUSED: its refusals, each with file,
 * function and reason) in SCAN_DIR/refused.json, next to the scan SCAN it
 * used: the next scan into SCAN_DIR and 'polltax progress' count them as
 * "refused" instead of convertible.  A failure only warns.
 */
void pipeline_record_refused(const char *scan_dir, json_t *scan, json_t *refused);

/* Implementations of SCAN that the convert stage takes ("convertible": "yes"), in scan order. */
json_t *pipeline_convertible(json_t *scan);
/* Those left to review ("convertible": "review") that have a plan: 'polltax series --review' takes them. */
json_t *pipeline_reviewable(json_t *scan);

#endif
