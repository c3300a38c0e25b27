# SPDX-License-Identifier: GPL-2.0
# The convert, series and verify stages (issue 3).
OBJS += \
	$(BUILD)/obj/cmd_convert.o \
	$(BUILD)/obj/cmd_series.o \
	$(BUILD)/obj/cmd_verify.o \
	$(BUILD)/obj/convert.o \
	$(BUILD)/obj/convert_apply.o \
	$(BUILD)/obj/convert_tidy.o \
	$(BUILD)/obj/convert_frame.o \
	$(BUILD)/obj/convert_head.o \
	$(BUILD)/obj/convert_site.o \
	$(BUILD)/obj/convert_express.o \
	$(BUILD)/obj/convert_helper.o \
	$(BUILD)/obj/convert_open.o \
	$(BUILD)/obj/convert_tree.o \
	$(BUILD)/obj/cfacts.o \
	$(BUILD)/obj/headexpr.o \
	$(BUILD)/obj/maintainers.o \
	$(BUILD)/obj/pipeline.o \
	$(BUILD)/obj/scratch.o \
	$(BUILD)/obj/series.o \
	$(BUILD)/obj/series_build.o \
	$(BUILD)/obj/series_post.o \
	$(BUILD)/obj/verify.o

# make series KERNEL=/path/to/linux [SIGNOFF="Name <mail>"] [SCAN=dir]: the
# patch series in $(SERIES_OUT); make verify-series checks it.
SERIES_OUT ?= $(BUILD)/series
.PHONY: series verify-series
series: deps all
	$(POLLTAX) series $(if $(SCAN),--scan $(SCAN)) $(if $(SIGNOFF),--signoff "$(SIGNOFF)") -o $(SERIES_OUT) $(KERNEL)
verify-series: deps all
	@tool/ensure-packages $(TEST_PKGS)
	$(POLLTAX) verify -o $(SERIES_OUT) $(SERIES_OUT) $(KERNEL)
