#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A kbuild CHECK (make C=2 CHECK=.../linuxinclude.sh <object>): prints the
# LINUXINCLUDE kbuild exports to its checker, the include options
# scripts/coccicheck gives spatch.  Checks nothing.
printf 'LINUXINCLUDE=%s\n' "$LINUXINCLUDE"
