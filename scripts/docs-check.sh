#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# docs-check.sh TREE OUTDIR: build the documentation the series touches
# and check the kernel-doc of the headers it adds, in an applied tree.
#
#   TREE    a kernel tree with the series applied (either series), clean
#           enough for "make O=" (no in-tree .config)
#   OUTDIR  where the sphinx output and the logs go (created)
#
# Runs, echoing each command and logging to OUTDIR:
#   make -C TREE O=OUTDIR/sphinx-<dir> SPHINXDIRS=<dir> htmldocs
#           for <dir> in $DOCS_DIRS (default: trace staging)
#   TREE/scripts/kernel-doc -none -Wall <header>
#           for each header of $SERIES_HEADERS that exists in TREE
# and checks that Documentation/staging/static-keys.rst puts its
# "Static key batches" section after upstream's last section, so that
# no upstream text renders inside it.
#
# Exits 0 when no sphinx warning names a file of $SERIES_DOCS and
# kernel-doc prints nothing for the headers; 1 when it does (each warning
# is printed); 2 when a tool is missing or a build fails.  Warnings in
# other files (upstream's own) are counted and shown, not failed on.
#
# Environment: NICE (default 5) for the builds, DOCS_DIRS, SERIES_DOCS,
# SERIES_HEADERS to override the lists below.

set -u

NICE=${NICE:-5}
DOCS_DIRS=${DOCS_DIRS:-"trace staging"}
SERIES_DOCS=${SERIES_DOCS:-"Documentation/trace/markers.rst Documentation/staging/static-keys.rst Documentation/trace/index.rst"}
SERIES_HEADERS=${SERIES_HEADERS:-"include/linux/jump_label_batch.h include/linux/tracepoint_batch.h include/linux/marker.h include/linux/marker_format.h include/linux/marker_tp.h include/trace/marker_tp.h"}

usage() {
	echo "usage: $0 TREE OUTDIR" >&2
	exit 2
}

[ $# -eq 2 ] || usage
TREE=$(cd "$1" 2>/dev/null && pwd) || { echo "docs-check: no tree $1" >&2; exit 2; }
mkdir -p "$2" || exit 2
OUT=$(cd "$2" && pwd)
[ -x "$TREE/scripts/kernel-doc" ] || { echo "docs-check: $TREE has no scripts/kernel-doc" >&2; exit 2; }
if ! command -v sphinx-build >/dev/null; then
	echo "docs-check: sphinx-build not found (Debian: apt-get install python3-sphinx python3-sphinx-rtd-theme python3-yaml)" >&2
	exit 2
fi

fail=0
other=0

# The series' documents that this tree has, as path patterns for grep.
docs=()
for d in $SERIES_DOCS; do
	[ -e "$TREE/$d" ] && docs+=("$d")
done

for dir in $DOCS_DIRS; do
	log="$OUT/sphinx-$dir.log"
	rm -rf "$OUT/sphinx-$dir"
	echo "+ nice -n $NICE make -s -C $TREE O=$OUT/sphinx-$dir SPHINXDIRS=$dir htmldocs > $log 2>&1"
	if ! nice -n "$NICE" make -s -C "$TREE" O="$OUT/sphinx-$dir" \
		SPHINXDIRS="$dir" htmldocs > "$log" 2>&1; then
		echo "docs-check: make htmldocs failed for $dir, see $log" >&2
		tail -20 "$log" >&2
		exit 2
	fi
	all=$(grep -cE 'WARNING|ERROR|CRITICAL|SEVERE' "$log")
	mine=0
	for d in "${docs[@]}"; do
		n=$(grep -E 'WARNING|ERROR|CRITICAL|SEVERE' "$log" | grep -cF "$d")
		if [ "$n" -gt 0 ]; then
			grep -E 'WARNING|ERROR|CRITICAL|SEVERE' "$log" | grep -F "$d"
			mine=$((mine + n))
		fi
	done
	echo "sphinx $dir: $all warnings, $mine in the series' documents ($log)"
	other=$((other + all - mine))
	[ "$mine" -eq 0 ] || fail=1
done

# Upstream's static-keys.rst ends with plain-text "4)" and "5)" headings,
# which render inside whatever section precedes them: the series' section
# must come after the last of them.
sk="$TREE/Documentation/staging/static-keys.rst"
if [ -e "$sk" ] && grep -q '^Static key batches$' "$sk"; then
	batches=$(grep -n '^Static key batches$' "$sk" | head -1 | cut -d: -f1)
	last=$(grep -nE '^[0-9]\) ' "$sk" | tail -1 | cut -d: -f1)
	if [ -n "$last" ] && [ "$batches" -lt "$last" ]; then
		echo "static-keys.rst:$batches: \"Static key batches\" comes before upstream's line $last: upstream text renders inside it"
		fail=1
	else
		echo "static-keys.rst: \"Static key batches\" (line $batches) follows upstream's sections"
	fi
fi

kd=0
for h in $SERIES_HEADERS; do
	[ -e "$TREE/$h" ] || continue
	echo "+ scripts/kernel-doc -none -Wall $h"
	msgs=$(cd "$TREE" && nice -n "$NICE" scripts/kernel-doc -none -Wall "$h" 2>&1)
	n=0
	[ -n "$msgs" ] && n=$(printf '%s\n' "$msgs" | wc -l)
	echo "kernel-doc $h: $n warnings"
	if [ "$n" -gt 0 ]; then
		printf '%s\n' "$msgs" | sort | uniq -c | sed 's/^ */  /'
		kd=$((kd + n))
	fi
done
[ "$kd" -eq 0 ] || fail=1

echo "docs-check: $other warnings in other files (not checked); result: $([ $fail -eq 0 ] && echo clean || echo WARNINGS)"
exit $fail
