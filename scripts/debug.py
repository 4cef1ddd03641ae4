#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make test-debug: the test job on a debug kernel.

Builds the series with configs/debug.config merged on top of the normal
fragments (lockdep, PROVE_RCU, DEBUG_ATOMIC_SLEEP, KASAN, KFENCE,
DEBUG_LIST, DEBUG_OBJECTS_RCU_HEAD) in its own build directory
(B, default build-debug/), boots it and runs the same guest test script
and result parsing as "make test".  step_boot() fails the run on any
lockdep, KASAN, RCU or WARN splat in the console.  The host-only checks
(checkpatch, sparse, ...) are not repeated here.

Environment: as scripts/mk.py; VM_TIMEOUT defaults to 2400 s since a
KASAN + lockdep kernel under TCG is several times slower.
"""

import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bases  # noqa: E402

# mk reads B and JOBS at import time.
os.environ['B'] = os.path.abspath(os.environ.get('B') or
                                  bases.default_build_dir('debug'))
os.environ.setdefault('JOBS', str(min(2, os.cpu_count() or 2)))

import mk  # noqa: E402

DEBUG_TIMEOUT = 2400
KSFT_TIMEOUT = 900
SWEEP_TIMEOUT = int(os.environ.get('SWEEP_TIMEOUT', 4 * 3600))

# Reports of the debug options that step_boot()'s patterns ("BUG: ",
# "WARNING: CPU", "KASAN", ...) do not all catch: lockdep titles other
# than recursive locking and inconsistent state, debugobjects, and the
# DEBUG_LOCKS_WARN_ON() text in case the splat header is lost.
DEBUG_PATTERNS = (
    r'WARNING: possible circular locking',
    r'WARNING: possible irq lock inversion',
    r'WARNING: .*-safe -> .*-unsafe lock order',
    r'WARNING: bad unlock balance',
    r'WARNING: held lock freed',
    r'WARNING: lock held when returning to user space',
    r'WARNING: Nested lock was not taken',
    r'WARNING: suspicious RCU usage',
    r'BUG: sleeping function called from invalid context',
    r'BUG: KASAN',
    r'BUG: KFENCE',
    r'DEBUG_LOCKS_WARN_ON',
    r'ODEBUG: ',
    r'list_(add|del) corruption',
)


def debug_problems(text):
    """Splats of the debug options."""
    found = []
    for pat in DEBUG_PATTERNS:
        m = re.search(pat, text)
        if m:
            found.append(f'kernel log shows "{m.group(0)}"')
    return found


# Two guests side by side, one per host core, with about the same
# work (times per test measured 2026-11-25, doc/measurements.md);
# each timeout at least twice its guest's time.  A debug kernel under
# TCG needs more than the kselftests' own timeouts (120 s for markers):
# test.sh passes KSFT_TIMEOUT to run_kselftest.sh as "-o".  ftracetest
# is left out: its cases take hours on KASAN + lockdep under TCG; make
# test runs it on the normal kernel.
DEBUG_PARTS = [
    mk.Part('debug-1', 'static_keys:test_static_keys.sh static_keys:dyndbg_batch.sh '
            'static_keys:batch_unload.sh '
            'markers:markers_test.sh markers:trace_events.sh '
            'markers:bad_input.sh markers:lockdown.sh markers:decode.sh '
            'markers:tracers.sh markers:bpf.sh markers:bpf_raw.sh',
            timeout=DEBUG_TIMEOUT, kunit=True, modtests=True,
            env=f'KSFT_TIMEOUT={KSFT_TIMEOUT} '),
    mk.Part('debug-2', 'markers:stress.sh markers:events_batch.sh static_keys:events_batch.sh',
            timeout=DEBUG_TIMEOUT, env=f'KSFT_TIMEOUT={KSFT_TIMEOUT} '),
]

# make fault-sweep: the fault-injection sweeps on the same kernel
# (configs/debug.config has FAILSLAB, FAIL_PAGE_ALLOC and kmemleak), each
# operation once per fault point; hours under TCG, so not in test-debug.
# FAIL_NTH_MAX=<m> tries about m points of each operation (see
# tools/testing/selftests/static_keys/fail_nth_lib.sh), for a short run.
SWEEP_PART = mk.Part('sweep', 'static_keys:fail_nth.sh markers:fail_nth.sh',
                     timeout=SWEEP_TIMEOUT,
                     env=f'KSFT_TIMEOUT={SWEEP_TIMEOUT - 300} '
                         f'FAIL_NTH_MAX={int(os.environ.get("FAIL_NTH_MAX") or 0)} ')


def debug_rows(part):
    """A part's rows, and one for the debug options' splats."""
    res = part.run()
    text = mk.read(os.path.join(mk.B, 'out', part.name, 'console.log'))
    problems = debug_problems(text)
    for p in problems:
        res.add(f'guest {part.name}: no debug splat', 'fail', p)
    if not problems:
        res.add(f'guest {part.name}: no lockdep, KASAN, KFENCE, RCU or debugobjects splat',
                'ok')
    else:
        print(mk.console_tail(text, 80))
    return res


def prepare_debug():
    """The debug kernel and kselftests built; the base's version."""
    mk.step_deps()
    version = mk.step_tree()
    mk.step_config(extra=('debug.config',))
    mk.step_build()
    return version


def job_test_debug():
    t0 = time.time()
    res = mk.Results()
    version = prepare_debug()
    mk.log(f'debug kernel prepared in {time.time() - t0:.0f}s (base Linux {version})')
    missed = mk.part_coverage(DEBUG_PARTS + [SWEEP_PART],
                              collections=('static_keys', 'markers'))
    res.add('harness: the guests run every static_keys and markers kselftest once '
            '(the fail_nth.sh sweeps in make fault-sweep)',
            'fail' if missed else 'ok', '; '.join(missed[:5]))
    done = mk.run_lanes([(f'guest {p.name}', lambda p=p: debug_rows(p))
                         for p in DEBUG_PARTS])
    mk.log('results:')
    for p in DEBUG_PARTS:
        res.extend(done[f'guest {p.name}'][0])
    mk.log(f'make test-debug on base Linux {version} took {time.time() - t0:.0f}s')
    print(res.summary())
    return 1 if res.failed() else 0


def job_fault_sweep():
    t0 = time.time()
    res = mk.Results()
    version = prepare_debug()
    res.extend(debug_rows(SWEEP_PART))
    mk.log(f'make fault-sweep on base Linux {version} took {time.time() - t0:.0f}s')
    print(res.summary())
    return 1 if res.failed() else 0


def main():
    try:
        if sys.argv[1:] == ['sweep']:
            return job_fault_sweep()
        return job_test_debug()
    except mk.HarnessError as e:
        print(f'[debug] error: {e}', file=sys.stderr)
        print('0 passed, 1 failed, 0 skipped')
        return 1


if __name__ == '__main__':
    sys.exit(main())
