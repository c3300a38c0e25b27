/* SPDX-License-Identifier: GPL-2.0 */
/* commands.h - one cmd_<name>() per file; the table is in polltax.c. */
#ifndef POLLTAX_COMMANDS_H
#define POLLTAX_COMMANDS_H

#include "lib/util.h"

int cmd_scan(int argc, char **argv);
int cmd_facts(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_parse_floor(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_series(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_progress(int argc, char **argv);
int cmd_boot_test(int argc, char **argv);
int cmd_infra(int argc, char **argv);
int cmd_cache(int argc, char **argv);
int cmd_gate(int argc, char **argv);
int cmd_run(int argc, char **argv);

#endif
