# SPDX-License-Identifier: GPL-2.0
# polltax - see README.md.  `make run` and `make test` are all a new user needs.

CC          ?= gcc
LLVM_DIR    ?= $(lastword $(sort $(wildcard /usr/lib/llvm-*)))
KERNEL      ?= tests/fixtures/tree
OUT         ?= $(BUILD)/out
BUILD       ?= build
JOBS        ?= $(shell nproc)
LINUX_VER   ?= 6.12
CACHE       ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/polltax
V           ?= 0

CFLAGS      ?= -O2 -g
WARNINGS    := -Wall -Wextra -Wno-unused-parameter
ALL_CFLAGS   = -std=gnu11 $(WARNINGS) $(CFLAGS) -Itool -I$(LLVM_DIR)/include -MMD -MP
LDLIBS       = -L$(LLVM_DIR)/lib -Wl,-rpath,$(LLVM_DIR)/lib -lclang -ljansson -lxxhash
# libclang allocates a great deal and frees it all at the end of each parse:
# gperftools' tcmalloc does that faster than glibc's malloc (CONTRIBUTING.md)
MALLOC_LIBS ?= -l:libtcmalloc_minimal.so.4

ifeq ($(V),1)
Q :=
quiet = @:
else
Q := @
quiet = @printf '  %-8s %s\n'
endif

# Every .c of a stage folder of tool/ is part of the program (CONTRIBUTING.md,
# "Map of tool/"); tool/boot/guest/ is the guest program (tool/mk/boot-test.mk)
# and tool/fuzz/ the fuzz target (tool/mk/sanitizers.mk).
STAGES := cmd lib scan classify convert series verify boot report
OBJS := $(patsubst tool/%.c,$(BUILD)/obj/%.o,$(sort $(foreach s,$(STAGES),$(wildcard tool/$(s)/*.c))))

# fragments may define targets: the default stays 'all'
.DEFAULT_GOAL := all
-include $(sort $(wildcard tool/mk/*.mk))

POLLTAX := $(BUILD)/polltax

.PHONY: all deps deps-build run test check-linux check-linux-base bench clean selfcheck
all: deps-build $(POLLTAX)

$(BUILD)/obj/%.o: tool/%.c
	@mkdir -p $(dir $@)
	$(quiet) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(POLLTAX): $(OBJS)
	$(quiet) LD $@
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $(OBJS) $(LDLIBS) $(MALLOC_LIBS)

-include $(OBJS:.o=.d)

# Debian packages: install what is missing (as root), or say exactly what to install.
BUILD_PKGS := gcc make libclang-dev libjansson-dev libxxhash-dev libtcmalloc-minimal4 coccinelle
RUN_PKGS   := coccinelle flex bison bc libelf-dev libssl-dev git
TEST_PKGS  := sparse clang strace
# ARCHES: the other architectures for the files x86 does not build ('polltax
# scan --arch'): 'make run KERNEL=... ARCHES=all'; the reports and
# check-linux use all of them.  Each needs Debian's cross compiler.
ARCHES     ?=
CROSS_PKGS := gcc-powerpc64le-linux-gnu gcc-s390x-linux-gnu gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf
deps-build:
	@tool/ensure-packages $(BUILD_PKGS)
deps: deps-build
	@tool/ensure-packages $(RUN_PKGS)

run: deps all
	$(if $(ARCHES),@tool/ensure-packages $(CROSS_PKGS))
	$(POLLTAX) scan -j $(JOBS) $(if $(ARCHES),--arch $(ARCHES)) -o $(OUT) $(KERNEL)
	@echo
	@cat $(OUT)/summary.md

test: deps all
	@tool/ensure-packages $(TEST_PKGS)
	@sh tests/run.sh $(POLLTAX)

# check-linux: the full run on LINUX_VER, then the base version's scan and
# series (REPORT_BASE, tool/mk/report.mk) as far as CI's time allows;
# check-linux-base: the full run (verify and boot test too) on the base.
check-linux: deps all
	@tool/ensure-packages linux-source-$(LINUX_VER) linux-source-$(REPORT_BASE) $(CROSS_PKGS)
	@sh tests/check-linux.sh $(POLLTAX) $(LINUX_VER) $(CACHE) $(REPORT_BASE)

check-linux-base: deps all
	@tool/ensure-packages linux-source-$(REPORT_BASE) $(CROSS_PKGS)
	@sh tests/check-linux.sh $(POLLTAX) $(REPORT_BASE) $(CACHE)

bench: deps all $(if $(filter tests/fixtures/tree,$(KERNEL)),$(CACHE)/src/linux-source-$(LINUX_VER)/Makefile)
	@tool/ensure-packages sparse jq
	@sh tests/bench.sh $(POLLTAX) $(if $(filter tests/fixtures/tree,$(KERNEL)),$(CACHE)/src/linux-source-$(LINUX_VER),$(KERNEL)) $(JOBS) $(BUILD)/bench

selfcheck: all
	@tool/ensure-packages sparse
	$(Q)for f in $(foreach s,$(STAGES),tool/$(s)/*.c); do sparse -Wno-decl $(ALL_CFLAGS) -D__x86_64__ $$f || exit 1; done

clean:
	rm -rf $(BUILD)
