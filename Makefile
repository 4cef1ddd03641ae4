# SPDX-License-Identifier: GPL-2.0
# Linux Kernel Markers on static keys: build, boot, test and measure the
# patch series.  Every job is a step list in scripts/mk.py; see README.md.
#
#   make run           build the series, boot it, show the demo
#   make test          build, boot, run KUnit + kselftests + host checks
#   make check         host only: checkpatch, sparse, W=1, coccicheck
#   make series        export git format-patch files + cover letter
#   make series-check  build every prefix of the series
#   make bench         the measurements (instructions per iteration)
#   make test-debug    make test on a lockdep/KASAN/KFENCE debug kernel
#
# Variables: B=<build dir> KERNEL_SRC=<tree> VM_ACCEL=kvm JOBS=<n>

PYTHON ?= python3
MK := $(PYTHON) scripts/mk.py
export B KERNEL_SRC VM_ACCEL JOBS VM_TIMEOUT

.PHONY: run test test-debug check series series-check bench clean distclean harness-test

run test test-debug check series series-check bench:
	@$(MK) $@

harness-test:
	@$(PYTHON) -m unittest discover -s scripts -p 'test_*.py'

clean:
	rm -rf $(or $(B),build)/obj $(or $(B),build)/out

distclean:
	rm -rf $(or $(B),build)
