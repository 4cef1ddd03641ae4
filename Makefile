# SPDX-License-Identifier: GPL-2.0
# Linux Kernel Markers on static keys: build, boot, test and measure the
# patch series.  Every job is a step list in scripts/mk.py; see README.md.
#
#   make run           build the series, boot it, show the demo
#   make test          build, boot, run KUnit + kselftests + host checks
#   make check         host only: checkpatch, sparse, W=1, coccicheck, docs-check
#   make docs-check    sphinx (trace, staging) and kernel-doc -Wall on the series
#   make series        export git format-patch files + cover letter
#   make series-check  build every prefix of the series
#   make bench         the measurements (instructions per iteration)
#   make test-debug    make test on a lockdep/KASAN/KFENCE debug kernel
#   make fault-sweep   each allocation of the series' operations failed in turn (fail-nth),
#                      on the test-debug kernel (hours; outside CI)
#   make fault-sweep-full  the same on a lighter debug kernel without KASAN
#                      (configs/debug-sweep.config, build-sweep/), for full sweeps
#   make kcsan         the storms on a KCSAN kernel, after kcsan_test (outside CI)
#   make build-matrix  i386, arm64 (KUnit boot), clang, config variants
#   make distro-test   the tests on Debian's own configs, every row in turn:
#   make distro-test-cloud     cloud-amd64 (build-distro-cloud/)
#   make distro-test-rt        rt-amd64, PREEMPT_RT (build-distro-rt/)
#   make distro-test-rt-debug  rt-amd64 + configs/debug-rt.config (build-distro-rt-debug/)
#   make distro-bench  make bench's guest on the cloud-amd64 row's kernel (build-distro-cloud/)
#   make results       rewrite README.md's generated blocks from doc/results.json
#
# Variables: BASE=7.3|6.12 (scripts/bases.py) B=<build dir> KERNEL_SRC=<tree>
#            VM_ACCEL=kvm JOBS=<n> BACKPORT=none NICE=<n> VM_TIMEOUT=<s>

PYTHON ?= python3
MK := $(PYTHON) scripts/mk.py
export BASE B KERNEL_SRC VM_ACCEL JOBS VM_TIMEOUT BACKPORT SERIES_FROM SERIES_ONLY NICE

.PHONY: run test test-debug check series series-check bench docs-check clean distclean harness-test results \
	fault-sweep fault-sweep-full kcsan build-matrix distro-test distro-test-cloud distro-test-rt distro-test-rt-debug \
	distro-bench

run test test-debug check series series-check bench docs-check:
	@$(MK) $@

distro-test:
	@$(PYTHON) scripts/distro.py all

distro-test-cloud distro-test-rt distro-test-rt-debug:
	@$(PYTHON) scripts/distro.py $(@:distro-test-%=%)

distro-bench:
	@$(PYTHON) scripts/distro.py bench

fault-sweep:
	@$(PYTHON) scripts/debug.py sweep

fault-sweep-full:
	@$(PYTHON) scripts/debug.py sweep-full

kcsan:
	@$(PYTHON) scripts/debug.py kcsan

build-matrix:
	@$(PYTHON) scripts/matrix.py

results:
	@$(PYTHON) scripts/results.py readme

harness-test:
	@$(PYTHON) -m unittest discover -s scripts -p 'test_*.py'

clean:
	rm -rf $(if $(B),$(B)/obj $(B)/out,build*/obj build*/out)

distclean:
	rm -rf $(or $(B),build build-*)
