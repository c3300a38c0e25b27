# SPDX-License-Identifier: GPL-2.0
# The infrastructure patch made for the tree at hand (issue 19): tool/infra*.c
# writes it from the tree's own sources and kernel-patches/infra/templates.txt;
# "polltax infra" is its command, series and boot-test use it.
OBJS += \
	$(BUILD)/obj/cmd_infra.o \
	$(BUILD)/obj/infra.o \
	$(BUILD)/obj/infra_text.o \
	$(BUILD)/obj/infra_cread.o \
	$(BUILD)/obj/infra_fs.o \
	$(BUILD)/obj/infra_poll.o \
	$(BUILD)/obj/infra_debugfs.o \
	$(BUILD)/obj/infra_anon.o \
	$(BUILD)/obj/infra_docs.o \
	$(BUILD)/obj/infra_msg.o
