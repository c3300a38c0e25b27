# SPDX-License-Identifier: GPL-2.0
# make series and make verify-series: the README's way to a series.
# make series KERNEL=/path/to/linux [SIGNOFF="Name <mail>"] [SCAN=dir]: the
# patch series in $(SERIES_OUT); make verify-series checks it.
SERIES_OUT ?= $(BUILD)/series
.PHONY: series verify-series
series: deps all
	$(POLLTAX) series $(if $(SCAN),--scan $(SCAN)) $(if $(SIGNOFF),--signoff "$(SIGNOFF)") -o $(SERIES_OUT) $(KERNEL)
verify-series: deps all
	@tool/ensure-packages $(TEST_PKGS)
	$(POLLTAX) verify -o $(SERIES_OUT) $(SERIES_OUT) $(KERNEL)
