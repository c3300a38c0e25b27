#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Suite: the Coccinelle triples of tests/cocci (classify.cocci's own cases).
out=$(sh "$TOP/tests/cocci/run.sh" 2>&1)
printf '%s\n' "$out" | grep -v ' passed, .* failed$'
line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
p=${line%% passed*}
f=${line#*, }
f=${f%% failed*}
echo "RESULT ${p:-0} ${f:-1}"
