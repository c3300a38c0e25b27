# SPDX-License-Identifier: GPL-2.0
# args.mk - the command line in one voice (tool/args.c) and 'polltax
# cache' (tool/cmd_cache.c), issue 21.
OBJS += $(BUILD)/obj/args.o $(BUILD)/obj/cmd_cache.o
