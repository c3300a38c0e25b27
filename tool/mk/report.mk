# SPDX-License-Identifier: GPL-2.0
# tool/mk/report.mk - report.html's style and script compiled into the
# program, and the committed reports/ of the two reference versions
# ('make reports', 'make reports-html').

# The Makefile includes this before its own 'all'; keep the default goal as
# it was, so that a plain 'make' still builds the program.
report_saved_goal := $(.DEFAULT_GOAL)

# the page's style and script, compiled in (below)
OBJS += $(BUILD)/obj/report_assets.o

# The page's style and script are edited as tool/report/report.css and
# tool/report/report.js and become C strings here, so the binary carries them and
# the page needs no file beside it.
REPORT_ASSETS := tool/report/report.css tool/report/report.js
$(BUILD)/gen/report_assets.c: $(REPORT_ASSETS) tool/mk/report.mk
	@mkdir -p $(dir $@)
	$(quiet) GEN $@
	$(Q){ echo '/* generated from tool/report/report.css and tool/report/report.js by tool/mk/report.mk */'; \
	  echo '#include "report/report.h"'; \
	  echo 'const char report_css[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' tool/report/report.css; \
	  echo ';'; \
	  echo 'const char report_js[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' tool/report/report.js; \
	  echo ';'; } >$@.tmp && mv $@.tmp $@

$(BUILD)/obj/report_assets.o: $(BUILD)/gen/report_assets.c
	@mkdir -p $(dir $@)
	$(quiet) CC $@
	$(Q)$(CC) $(ALL_CFLAGS) -Itool -c $< -o $@

# --- reports/: the committed picture of linux 6.1 and 6.12 -----------------
#
# 'make reports' unpacks Debian's linux-source-6.1 and -6.12 into the cache
# (as tests/check-linux.sh does), scans 6.1 and then 6.12 with one history
# (so the chart and the movement show 6.1 -> 6.12), and copies the facts
# into reports/.  It takes a while (two full scans).  'make reports-html'
# rebuilds the pages, the chart and progress.md from the committed facts
# alone, in seconds; tests/reports.t.sh runs it into build/ and compares.
#
# reports/sources.sha256 records the classifier sources the facts were made
# with; tests/reports.t.sh fails when they change without 'make reports'.
REPORTS       ?= reports
REPORTS_OUT   ?= $(REPORTS)
REPORT_BASE   ?= 6.1
REPORT_HEAD   ?= 6.12
REPORT_WORK   ?= $(CACHE)/reports
REPORT_URL    ?= https://elixir.bootlin.com/linux/v%v/source/%f\#L%l
REPORT_SOURCES = $(sort $(wildcard tool/scan/*.[ch] tool/classify/*.[ch]) tool/report/census_report.c tool/lib/tree.c tool/lib/tree.h \
		 tool/lib/arch.c tool/lib/arch.h \
		 tool/lib/kbuild.c tool/lib/kbuild.h tool/lib/json_util.c tool/lib/json_util.h \
		 tool/lib/maintainers.c tool/lib/maintainers.h) \
		 cocci/classify.cocci cocci/classify-macros.h

# 'make reports-postings': the progress as a maintainer will live it, in the
# committed chart: REPORT_BASE, REPORT_HEAD, then REPORT_HEAD with each
# posting of its series applied in turn (tool/mk/reports-postings.sh), one
# history, $(REPORTS)/postings/history.json; then 'make reports-html'.
# REPORT_SERIES is the series (a 'polltax series -o' directory); made when
# it has no series.json.  Byte-identical on a re-run.
REPORT_SERIES  ?= $(REPORT_WORK)/series-$(REPORT_HEAD)
REPORT_SIGNOFF ?= polltax reports <reports@polltax.invalid>
REPORT_HISTORY  = $(REPORTS)/postings/history.json

.PHONY: reports reports-html reports-postings report-sources report-versions
reports-postings: deps all $(CACHE)/src/linux-source-$(REPORT_BASE)/Makefile $(CACHE)/src/linux-source-$(REPORT_HEAD)/Makefile
	$(Q)POLLTAX=$(POLLTAX) CACHE=$(CACHE) REPORTS=$(REPORTS) REPORT_BASE=$(REPORT_BASE) REPORT_HEAD=$(REPORT_HEAD) \
	  REPORT_WORK=$(REPORT_WORK) REPORT_SERIES=$(REPORT_SERIES) REPORT_SIGNOFF='$(REPORT_SIGNOFF)' JOBS=$(JOBS) \
	  sh tool/mk/reports-postings.sh
	$(Q)$(MAKE) --no-print-directory reports-html

$(CACHE)/src/linux-source-%/Makefile:
	@tool/ensure-packages linux-source-$*
	@echo "polltax: unpacking /usr/src/linux-source-$*.tar.xz into $(CACHE)/src"
	$(Q)rm -rf $(CACHE)/src.tmp-$* && mkdir -p $(CACHE)/src.tmp-$* $(CACHE)/src && \
	  tar -xf /usr/src/linux-source-$*.tar.xz -C $(CACHE)/src.tmp-$* && \
	  mv $(CACHE)/src.tmp-$*/linux-source-$* $(CACHE)/src/linux-source-$* && rmdir $(CACHE)/src.tmp-$*

reports: deps all $(CACHE)/src/linux-source-$(REPORT_BASE)/Makefile $(CACHE)/src/linux-source-$(REPORT_HEAD)/Makefile
	@tool/ensure-packages $(CROSS_PKGS)
	$(Q)mkdir -p $(REPORT_WORK)/linux-$(REPORT_BASE) $(REPORT_WORK)/linux-$(REPORT_HEAD)
	$(Q)sha256sum $(REPORT_SOURCES) >$(REPORT_WORK)/sources.sha256
	$(Q)rm -f $(REPORT_WORK)/linux-$(REPORT_BASE)/history.json
	$(POLLTAX) scan -j $(JOBS) --arch all -o $(REPORT_WORK)/linux-$(REPORT_BASE) $(CACHE)/src/linux-source-$(REPORT_BASE)
	$(Q)cp $(REPORT_WORK)/linux-$(REPORT_BASE)/history.json $(REPORT_WORK)/linux-$(REPORT_HEAD)/history.json
	$(POLLTAX) scan -j $(JOBS) --arch all -o $(REPORT_WORK)/linux-$(REPORT_HEAD) $(CACHE)/src/linux-source-$(REPORT_HEAD)
	$(Q)rm -rf $(REPORTS)/linux-$(REPORT_BASE) $(REPORTS)/linux-$(REPORT_HEAD)
	$(Q)mkdir -p $(REPORTS)/linux-$(REPORT_BASE) $(REPORTS)/linux-$(REPORT_HEAD)
	$(Q)for f in polltax.json polltax.csv summary.md; do \
	  cp $(REPORT_WORK)/linux-$(REPORT_BASE)/$$f $(REPORTS)/linux-$(REPORT_BASE)/ && \
	  cp $(REPORT_WORK)/linux-$(REPORT_HEAD)/$$f $(REPORTS)/linux-$(REPORT_HEAD)/ || exit 1; done
	$(Q)cp $(REPORT_WORK)/linux-$(REPORT_HEAD)/history.json $(REPORTS)/linux-$(REPORT_HEAD)/
	$(Q)cp $(REPORT_WORK)/sources.sha256 $(REPORTS)/sources.sha256
	$(Q)$(MAKE) --no-print-directory reports-html
	@ls -l $(REPORTS) $(REPORTS)/linux-*

# From the committed facts only; REPORTS_OUT=DIR writes the pages elsewhere.
reports-html:
	$(Q)mkdir -p $(REPORTS_OUT)/linux-$(REPORT_BASE) $(REPORTS_OUT)/linux-$(REPORT_HEAD)
	$(POLLTAX) report --url '$(REPORT_URL)' --html $(REPORTS_OUT)/linux-$(REPORT_BASE)/report.html \
	  $(REPORTS)/linux-$(REPORT_BASE)
	$(POLLTAX) report --url '$(REPORT_URL)' --since $(REPORTS)/linux-$(REPORT_BASE) \
	  --html $(REPORTS_OUT)/linux-$(REPORT_HEAD)/report.html $(REPORTS)/linux-$(REPORT_HEAD)
	$(POLLTAX) progress --since $(REPORTS)/linux-$(REPORT_BASE) --svg $(REPORTS_OUT)/progress.svg \
	  $(if $(wildcard $(REPORT_HISTORY)),--history $(REPORT_HISTORY)) \
	  --markdown $(REPORTS_OUT)/progress.md $(REPORTS)/linux-$(REPORT_HEAD)

report-sources:
	@echo $(REPORT_SOURCES)

report-versions:
	@echo $(REPORT_BASE) $(REPORT_HEAD)

.DEFAULT_GOAL := $(report_saved_goal)
