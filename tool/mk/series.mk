# SPDX-License-Identifier: GPL-2.0
# The convert, series and verify stages (issue 3).
OBJS += \
	$(BUILD)/obj/cmd_convert.o \
	$(BUILD)/obj/convert.o \
	$(BUILD)/obj/cfacts.o \
	$(BUILD)/obj/headexpr.o \
	$(BUILD)/obj/pipeline.o
OBJS += $(BUILD)/obj/cmd_series.o $(BUILD)/obj/cmd_verify.o
