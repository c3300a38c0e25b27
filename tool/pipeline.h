/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pipeline.h - what the later stages (convert, series, verify) share:
 * the scan's facts of a tree (read from a scan directory, or a scan run
 * now).
 */
#ifndef POLLTAX_PIPELINE_H
#define POLLTAX_PIPELINE_H

#include <jansson.h>
#include "tree.h"

/*
 * The scan of T: SCAN_DIR/polltax.json when SCAN_DIR is given (checked
 * against T's version), else a scan run now, whose outputs are written to
 * WRITE_DIR when that is not NULL.  Dies on bad input.
 */
json_t *pipeline_scan(const struct tree *t, const char *scan_dir, const char *write_dir, bool quiet);

/* Implementations of SCAN that the convert stage takes ("convertible": "yes"), in scan order. */
json_t *pipeline_convertible(json_t *scan);

#endif
