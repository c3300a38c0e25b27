# SPDX-License-Identifier: GPL-2.0
# tool/mk/sanitizers.mk - sanitizer, valgrind and fuzzing builds.
#
#   make asan                 the program with AddressSanitizer+UBSan in build/asan/
#   make fuzz FUZZ_SECONDS=N  libFuzzer on the analyzer's input (extract + classify)
#
# Each has its own build directory, so no object is shared with the normal
# build.  tests/sanitizers.t.sh, tests/valgrind.t.sh and tests/fuzz.t.sh
# use them; "make test" installs what they need.

ASAN_BUILD     ?= build/asan
ASAN_CFLAGS    ?= -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer

FUZZ_CC        ?= clang
FUZZ_SECONDS   ?= 60
FUZZ_BUILD     ?= build/fuzz
FUZZ_CORPUS    ?= $(FUZZ_BUILD)/corpus
FUZZ_ARTIFACTS ?= $(FUZZ_BUILD)
FUZZ_FLAGS      = -std=gnu11 $(WARNINGS) -O1 -g -fno-omit-frame-pointer \
		  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		  -Itool -I$(LLVM_DIR)/include -DFIXTURE_DIR='"$(abspath tests/fixtures/tree)"'
FUZZ_SRCS      := tool/fuzz/fuzz_extract.c $(wildcard tool/scan/extract*.c tool/classify/*.c tool/lib/util*.c) tool/lib/json_util.c tool/lib/strutil.c
FUZZ_BIN       := $(FUZZ_BUILD)/fuzz_extract

.PHONY: asan fuzz fuzz-build reliability-deps

# valgrind for tests/valgrind.t.sh, libclang-rt for libFuzzer, jq and
# python3 to read the JSON, util-linux and procps for the interruption cases
test: reliability-deps
reliability-deps:
	@tool/ensure-packages valgrind libclang-rt-14-dev jq python3 util-linux procps

asan:
	$(Q)$(MAKE) --no-print-directory BUILD=$(ASAN_BUILD) CFLAGS='$(ASAN_CFLAGS)' MALLOC_LIBS= $(ASAN_BUILD)/polltax

fuzz-build: $(FUZZ_BIN)

$(FUZZ_BIN): $(FUZZ_SRCS) $(wildcard tool/lib/*.h tool/scan/*.h tool/classify/*.h)
	@mkdir -p $(dir $@)
	$(quiet) FUZZCC $@
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(FUZZ_SRCS) $(LDLIBS)

# Seeds: the fixture tree's C files and the inputs that once crashed
# (tests/fuzz/).  New inputs go to $(FUZZ_CORPUS); a crash is saved as
# $(FUZZ_ARTIFACTS)/crash-* and the target fails.
fuzz: $(FUZZ_BIN)
	@mkdir -p $(FUZZ_CORPUS) $(FUZZ_ARTIFACTS)
	@for f in $$(find tests/fixtures/tree tests/fuzz -name '*.c'); do \
		n=$$(echo "$$f" | tr / _); \
		[ -e $(FUZZ_CORPUS)/$$n ] || cp $$f $(FUZZ_CORPUS)/$$n; \
	done
	ASAN_OPTIONS=detect_leaks=1 $(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) \
		-max_len=65536 -timeout=60 -rss_limit_mb=4096 -print_final_stats=1 \
		-artifact_prefix=$(abspath $(FUZZ_ARTIFACTS))/ $(FUZZ_CORPUS)
