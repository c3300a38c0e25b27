# SPDX-License-Identifier: GPL-2.0
# tool/mk/boot.mk - issue 8: 'polltax boot-test' proves a series in a running
# kernel (base, patched and two-call kernels booted under qemu), and its guest
# program tests/boot/polltest (static, C11).
#
#   make boot-test KERNEL=/path/to/linux SERIES=/path/to/series [BOOT_OUT=dir]
#
# Without SERIES, the fixture series is used: the infrastructure patch made
# for KERNEL ("polltax infra") followed by the hand-written conversions of
# tests/boot/series-<version>/ (eventfd, timerfd, /dev/kmsg).  KERNEL and
# SERIES are checked before anything is built or installed.

OBJS += \
	$(BUILD)/obj/cmd_boot_test.o \
	$(BUILD)/obj/boot_series.o \
	$(BUILD)/obj/boot_kernel.o \
	$(BUILD)/obj/boot_config.o \
	$(BUILD)/obj/boot_deps.o \
	$(BUILD)/obj/boot_kconfig.o \
	$(BUILD)/obj/boot_guest.o \
	$(BUILD)/obj/boot_report.o \
	$(BUILD)/obj/boot_run.o

POLLTEST        := $(BUILD)/boot/polltest
POLLTEST_SRCS   := tests/boot/polltest.c tests/boot/checks.c tests/boot/kinds.c tests/boot/devkinds.c tests/boot/swkinds.c tests/boot/rawio.c tests/boot/bench.c
POLLTEST_CFLAGS := -std=c11 -O2 -Wall -Wextra
BOOT_PKGS       := qemu-system-x86 busybox-static libc6-dev
BOOT_OUT        ?= $(BUILD)/boot-test
BOOT_VER        ?= $(LINUX_VER)
FIXTURE_SERIES  := $(BUILD)/boot/fixture-series-$(BOOT_VER)
SERIES          ?= $(FIXTURE_SERIES)

all: $(POLLTEST)

# The guest has no libc of its own: link statically.
$(POLLTEST): $(POLLTEST_SRCS) tests/boot/polltest.h
	@mkdir -p $(dir $@)
	$(quiet) CCSTATIC $@
	$(Q)$(CC) $(POLLTEST_CFLAGS) -static -o $@ $(POLLTEST_SRCS) -lpthread

# The stand-in series: the infrastructure patch made for KERNEL, then the
# fixture conversions; made again on every run (KERNEL may have changed, and
# it takes a second).
.PHONY: $(FIXTURE_SERIES)
$(FIXTURE_SERIES): $(POLLTAX)
	@rm -rf $@ $@.tmp && mkdir -p $@.tmp
	$(Q)$(POLLTAX) infra -q -o $@.tmp $(KERNEL) >/dev/null
	$(Q)cp tests/boot/series-$(BOOT_VER)/*.patch $@.tmp/
	$(Q)mv $@.tmp $@

.PHONY: boot-test boot-deps
boot-deps:
	@tool/ensure-packages $(BOOT_PKGS) git make gcc flex bison bc libelf-dev libssl-dev

# The arguments are checked when the makefiles are read, before any
# prerequisite runs: a missing KERNEL= must not cost an install of qemu.
ifneq ($(filter boot-test,$(MAKECMDGOALS)),)
boot_usage := (make boot-test KERNEL=/path/to/linux [SERIES=dir])
ifeq ($(origin KERNEL),file)
$(error make boot-test needs the kernel tree to build: no KERNEL= given $(boot_usage))
endif
ifeq ($(wildcard $(KERNEL)/Kconfig),)
$(error make boot-test: KERNEL=$(KERNEL) is not a kernel tree: no Kconfig $(boot_usage))
endif
ifneq ($(SERIES),$(FIXTURE_SERIES))
ifeq ($(wildcard $(SERIES)/.),)
$(error make boot-test: SERIES=$(SERIES) is not a directory $(boot_usage))
endif
endif
endif

boot-test: deps all boot-deps $(if $(filter $(FIXTURE_SERIES),$(SERIES)),$(FIXTURE_SERIES))
	$(POLLTAX) boot-test -j $(JOBS) -o $(BOOT_OUT) $(SERIES) $(KERNEL)
