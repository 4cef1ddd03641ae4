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

Environment: as scripts/mk.py (VM_TIMEOUT overrides every guest's
timeout); DEBUG_TIMEOUT (default 9000 s) and DEBUG_KSFT_TIMEOUT (1800 s)
set the debug guests' timeout and each kselftest's, since a KASAN +
lockdep kernel under TCG is several times slower; DEBUG_ONLY=<guest>[,...]
boots only the guests named (debug-1, debug-2), to rerun one.
"""

import glob
import os
import re
import shlex
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bases  # noqa: E402

# mk reads B and JOBS at import time.  make kcsan builds a kernel of its
# own (KCSAN and KASAN exclude each other).
# make fault-sweep-full builds the lighter sweep kernel of
# configs/debug-sweep.config (no KASAN) in build-sweep/.
KIND = {'kcsan': 'kcsan', 'sweep-full': 'sweep'}.get(' '.join(sys.argv[1:]), 'debug')
os.environ['B'] = os.path.abspath(os.environ.get('B') or
                                  bases.default_build_dir(KIND))
os.environ.setdefault('JOBS', str(min(2, os.cpu_count() or 2)))

import mk  # noqa: E402

# On 2026-11-27 the host ran at about half its earlier speed: the 3600 s
# guests and 900 s kselftests of the days before timed out (dyndbg_batch,
# events_batch and stress.sh each past 900 s).  The defaults now leave
# room for that; DEBUG_TIMEOUT=<s> and DEBUG_KSFT_TIMEOUT=<s> set them.
# On 2026-11-27 15:36 debug-1 was killed at 7200 s in owners.sh, its
# last test (boot and KUnit about 850 s, its kselftests before owners.sh
# 5940 s): tests moved to debug-2 and 9000 s.
DEBUG_TIMEOUT = int(os.environ.get('DEBUG_TIMEOUT') or 9000)
KSFT_TIMEOUT = int(os.environ.get('DEBUG_KSFT_TIMEOUT') or 1800)
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
    # SLUB's own debugging (configs/debug-sweep.config): "BUG kmalloc-64
    # (Not tainted): Poison overwritten" and the like
    r'BUG \S+ \((?:Not t|T)ainted[^)]*\): [^\n]*',
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
# work (times per test measured 2026-11-25, doc/measurements.md).  The
# fault injection and kmemleak options of configs/debug.config (for
# make fault-sweep) slow every guest: on 2026-11-26 debug-2 took 1859 s
# and debug-1 more than 2400 s, so the timeout is 3600 s.  A debug
# kernel under TCG needs more than the kselftests' own timeouts (120 s
# for markers): test.sh passes KSFT_TIMEOUT to run_kselftest.sh as "-o".
# ftracetest is left out: its cases take hours on KASAN + lockdep under
# TCG; make test runs it on the normal kernel.
DEBUG_PARTS = [
    mk.Part('debug-1', 'static_keys:test_static_keys.sh static_keys:dyndbg_batch.sh '
            'static_keys:batch_unload.sh '
            'markers:markers_test.sh markers:trace_events.sh '
            'markers:lockdown.sh markers:decode.sh '
            'markers:tracers.sh markers:bpf.sh markers:bpf_raw.sh',
            timeout=DEBUG_TIMEOUT, kunit=True, modtests=True,
            env=f'KSFT_TIMEOUT={KSFT_TIMEOUT} '),
    # Every event on at once, in the top instance and in another one, on
    # KASAN + lockdep: static_keys:events_batch.sh took 891 s on
    # 2026-11-26 and was cut at 1800 s on 2026-11-27 16:18 (its test 5,
    # the instance's 442 events, still running), the host at half speed;
    # markers:stress.sh after it was cut at 1800 s in its first test.
    # The kselftests of this guest get twice the per-test time.
    # bad_input.sh (1353 s) and owners.sh (844 s alone in stop 41) came
    # from debug-1 on 2026-11-27.
    mk.Part('debug-2', 'markers:stress.sh markers:events_batch.sh static_keys:events_batch.sh '
            'markers:bad_input.sh markers:owners.sh',
            timeout=DEBUG_TIMEOUT, env=f'KSFT_TIMEOUT={2 * KSFT_TIMEOUT} '),
]

# make fault-sweep: the fault-injection sweeps on the same kernel
# (configs/debug.config has FAILSLAB, FAIL_PAGE_ALLOC and kmemleak), each
# operation once per fault point; hours under TCG, so not in test-debug.
# FAIL_NTH_MAX=<m> tries about m points of each operation, and
# FAIL_NTH_ONLY=<extended regex> sweeps only the operations whose test
# description matches (see
# tools/testing/selftests/static_keys/fail_nth_lib.sh), for a short run;
# FAIL_NTH_FROM=<a> FAIL_NTH_TO=<b> sweep only fault points a to b, to
# split a full sweep (events/enable: about 3700 points) over runs.
# The sweep fails allocations in mainline code as well; a mainline WARN
# on such a failure (mk.MAINLINE_WARNS, README's "Known gaps") is listed
# as a skipped row, not counted as a failed clean run.
# The two collections' sweeps run in two guests side by side, one per
# host core, as test-debug's do.
def sweep_part(collection, frm, to, suffix=''):
    """The guest that runs <collection>'s fail_nth.sh on fault points
    <frm> to <to> (0: the end)."""
    env = (f'KSFT_TIMEOUT={SWEEP_TIMEOUT - 300} '
           f'FAIL_NTH_MAX={int(os.environ.get("FAIL_NTH_MAX") or 0)} '
           f'FAIL_NTH_ONLY={shlex.quote(os.environ.get("FAIL_NTH_ONLY", ""))} '
           f'FAIL_NTH_FROM={frm} FAIL_NTH_TO={to} ')
    return mk.Part(f'sweep-{collection.replace("_", "-")}{suffix}',
                   f'{collection}:fail_nth.sh', timeout=SWEEP_TIMEOUT, env=env,
                   listed=('fprobe_module_callback',))


SWEEP_PARTS = [
    sweep_part(c, int(os.environ.get('FAIL_NTH_FROM') or 1),
               int(os.environ.get('FAIL_NTH_TO') or 0))
    for c in ('static_keys', 'markers')
]

# FAIL_NTH_LANES='<collection>:<from>-<to> ...' (to 0: the end) runs one
# guest per word instead, each its own range, so that one long operation
# (events/enable) is swept on both host cores at once, e.g.
# FAIL_NTH_ONLY=events/enable
# FAIL_NTH_LANES='static_keys:1-1900 static_keys:1901-0'.
LANE = re.compile(r'(static_keys|markers):([1-9][0-9]*)-(0|[1-9][0-9]*)')


def sweep_lanes(spec):
    """The sweep's guests for FAIL_NTH_LANES <spec>; SWEEP_PARTS without
    one.  A word that is not collection:from-to, or a range that ends
    before it starts, is an error."""
    if not (spec or '').split():
        return SWEEP_PARTS
    parts = []
    for word in spec.split():
        m = LANE.fullmatch(word)
        if not m or (m[3] != '0' and int(m[3]) < int(m[2])):
            raise SystemExit(f'FAIL_NTH_LANES: {word!r} is not <collection>:<from>-<to> '
                             '(collection static_keys or markers, to 0 for the end)')
        parts.append(sweep_part(m[1], m[2], m[3], f'-{m[2]}-{m[3]}'))
    names = [p.name for p in parts]
    if len(set(names)) != len(names):
        raise SystemExit(f'FAIL_NTH_LANES: a range given twice in {spec!r}')
    return parts


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


def prepare_debug(fragment='debug.config'):
    """The debug kernel (configs/<fragment>) and kselftests built; the
    base's version."""
    mk.step_deps()
    version = mk.step_tree()
    mk.step_config(extra=(fragment,))
    mk.step_build()
    return version


def only_parts(parts, only):
    """The parts DEBUG_ONLY (comma-separated names) picks, all without
    it; a name that is no part's is an error."""
    names = [n for n in (only or '').split(',') if n]
    unknown = [n for n in names if n not in [p.name for p in parts]]
    if unknown:
        raise SystemExit(f'DEBUG_ONLY: no guest {", ".join(unknown)} '
                         f'(guests: {", ".join(p.name for p in parts)})')
    return [p for p in parts if not names or p.name in names]


def job_test_debug():
    t0 = time.time()
    res = mk.Results()
    only = os.environ.get('DEBUG_ONLY', '')
    parts = only_parts(DEBUG_PARTS, only)
    version = prepare_debug()
    mk.log(f'debug kernel prepared in {time.time() - t0:.0f}s (base Linux {version})')
    missed = mk.part_coverage(DEBUG_PARTS + SWEEP_PARTS,
                              collections=('static_keys', 'markers'))
    what = ('harness: the guests run every static_keys and markers kselftest once '
            '(the fail_nth.sh sweeps in make fault-sweep)')
    if missed or not only:
        res.add(what, 'fail' if missed else 'ok', '; '.join(missed[:5]))
    else:
        res.add(what, 'skip', f'DEBUG_ONLY={only}: only the guests it names run')
    done = mk.run_lanes([(f'guest {p.name}', lambda p=p: debug_rows(p))
                         for p in parts])
    mk.log('results:')
    for p in parts:
        res.extend(done[f'guest {p.name}'][0])
    mk.log(f'make test-debug on base Linux {version} took {time.time() - t0:.0f}s')
    print(res.summary())
    return 1 if res.failed() else 0


def job_fault_sweep(fragment='debug.config'):
    t0 = time.time()
    res = mk.Results()
    parts = sweep_lanes(os.environ.get('FAIL_NTH_LANES', ''))
    version = prepare_debug(fragment)
    done = mk.run_lanes([(f'guest {p.name}', lambda p=p: debug_rows(p)) for p in parts])
    for p in parts:
        res.extend(done[f'guest {p.name}'][0])
    mk.log(f'make fault-sweep on base Linux {version} took {time.time() - t0:.0f}s')
    print(res.summary())
    return 1 if res.failed() else 0


# make kcsan: the KCSAN kernel (configs/debug-kcsan.config).  The first
# guest runs the built-in KUnit suites, kcsan_test among them: it passes
# only if KCSAN reports the races it makes, i.e. only if this guest setup
# (two vCPUs on one TCG thread) can show a data race at all.  The second
# runs the stress storms: sites firing on every CPU while markers, events
# and batches switch.
KCSAN_PARTS = [
    mk.Part('kcsan-kunit', 'static_keys:test_static_keys.sh', timeout=DEBUG_TIMEOUT,
            kunit=True, modtests=True, env=f'KSFT_TIMEOUT={KSFT_TIMEOUT} '),
    mk.Part('kcsan-storms', 'markers:stress.sh markers:events_batch.sh '
            'static_keys:events_batch.sh static_keys:dyndbg_batch.sh',
            timeout=DEBUG_TIMEOUT, env=f'KSFT_TIMEOUT={KSFT_TIMEOUT} '),
]

KCSAN_BLOCK = re.compile(r'^(?:\[[^\]]*\] )?=+\n(?:\[[^\]]*\] )?BUG: KCSAN: .*?\n'
                         r'(?:\[[^\]]*\] )?=+$',
                         re.M | re.S)
KCSAN_TITLE = re.compile(r'BUG: KCSAN: ([\w-]+) in (\S+)(?: / (\S+))?')


def series_functions():
    """Names of the functions the series defines or changes: those defined
    in its new files and in the added lines of its patches, and those its
    patches' hunks are in."""
    names = set()
    define = re.compile(r'^\+?(?:static |inline |noinline |__always_inline |notrace |'
                        r'__init |__ref |void |int |bool |long |unsigned |struct \w+ \*?|'
                        r'u\d+ |\w+_t |const )+\**(\w+)\(', re.M)
    for root, _dirs, files in os.walk(os.path.join(mk.ROOT, 'linux')):
        for f in files:
            if f.endswith(('.c', '.h')):
                names.update(define.findall(mk.read(os.path.join(root, f))))
    for f in glob.glob(os.path.join(mk.ROOT, 'patches', '*.patch')):
        text = mk.read(f)
        added = '\n'.join(l for l in text.split('\n') if l.startswith('+'))
        names.update(define.findall(added))
        names.update(hunk_functions(text))
    return names


def hunk_functions(patch):
    """The functions of the patched tree (mk.SRC) that a patch's hunks
    change: for each hunk, the last function definition that starts at
    or before its new lines."""
    names, path, lines = set(), None, []
    start = re.compile(r'^[A-Za-z_][^;(]*?\b(\w+)\([^;]*$')
    for line in patch.split('\n'):
        if line.startswith('+++ b/'):
            path = os.path.join(mk.SRC, line[6:].strip())
            try:
                lines = mk.read(path).split('\n') if path.endswith(('.c', '.h')) else []
            except OSError:
                lines = []
            continue
        m = re.match(r'^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@', line)
        if not m or not lines:
            continue
        first = int(m.group(1)) - 1
        last = min(len(lines), first + int(m.group(2) or 1))
        for i in range(last - 1, -1, -1):
            d = start.match(lines[i])
            if d:
                names.add(d.group(1))
                if i <= first:
                    break
    return names


def kcsan_reports(text):
    """[(kind, (functions...), block)] for the KCSAN reports in a console
    log, and the log without them."""
    reports = []
    for m in KCSAN_BLOCK.finditer(text):
        t = KCSAN_TITLE.search(m.group(0))
        funcs = tuple(f.split('+')[0] for f in t.groups()[1:] if f) if t else ()
        reports.append((t.group(1) if t else '?', funcs, m.group(0)))
    return reports, KCSAN_BLOCK.sub('', text)


def kcsan_rows(part, mine):
    """A KCSAN part's rows: its tests, a clean log once the KCSAN reports
    are taken out, and the reports in the series' functions (none may
    be) apart from those elsewhere (listed, not counted).  The reports
    kcsan_test makes on purpose are its own."""
    out, problems, text = part.boot()
    reports, rest = kcsan_reports(text)
    problems = [p for p in problems if not p.startswith('kernel log shows')]
    problems += [p for p in mk.log_problems(rest)] + debug_problems(rest)
    res = mk.Results(quiet=True)
    mk.guest_rows(res, out, problems, text, label=f'guest {part.name}',
                  kunit=part.kunit, modtests=part.modtests)
    if part.kunit:
        kt = [r for r in res.rows if r[0].startswith('kunit: kcsan')]
        passed = sum(1 for r in kt if r[1] == 'ok')
        res.add('kcsan: kcsan_test passes (the guest can show a data race)',
                'ok' if passed and all(r[1] != 'fail' for r in kt) else 'fail',
                f'{passed} of {len(kt)} cases passed, the others skipped'
                if kt else 'no kcsan_test results')
        return res
    ours = [r for r in reports if set(r[1]) & mine]
    listing = os.path.join(out, 'kcsan-reports.txt')
    with open(listing, 'w', encoding='utf-8') as f:
        for kind, funcs, block in reports:
            f.write(f'{"SERIES" if set(funcs) & mine else "mainline"}: {kind} in '
                    f'{" / ".join(funcs)}\n{block}\n\n')
    mk.log(f'{part.name}: {len(reports)} KCSAN reports, {len(ours)} in the series\' '
           f'functions (listed in {os.path.relpath(listing, mk.ROOT)})')
    for kind, funcs, _b in reports:
        mk.log(f'  {"SERIES" if set(funcs) & mine else "mainline"}: {kind} in '
               f'{" / ".join(funcs)}')
    res.add(f'kcsan: no data race reported in the series\' functions ({part.name})',
            'fail' if ours else 'ok',
            '; '.join(' / '.join(r[1]) for r in ours[:5]))
    return res


def job_kcsan():
    t0 = time.time()
    res = mk.Results()
    mk.step_deps()
    version = mk.step_tree()
    mk.step_config(extra=('debug-kcsan.config',))
    mk.step_build()
    mine = series_functions()
    mk.log(f'KCSAN kernel prepared in {time.time() - t0:.0f}s (base Linux {version}); '
           f'{len(mine)} functions of the series')
    done = mk.run_lanes([(f'guest {p.name}', lambda p=p: kcsan_rows(p, mine))
                         for p in KCSAN_PARTS])
    for p in KCSAN_PARTS:
        res.extend(done[f'guest {p.name}'][0])
    mk.log(f'make kcsan on base Linux {version} took {time.time() - t0:.0f}s')
    print(res.summary())
    return 1 if res.failed() else 0


def main():
    try:
        if sys.argv[1:] == ['kcsan']:
            return job_kcsan()
        if sys.argv[1:] == ['sweep']:
            return job_fault_sweep()
        if sys.argv[1:] == ['sweep-full']:
            return job_fault_sweep('debug-sweep.config')
        return job_test_debug()
    except mk.HarnessError as e:
        print(f'[debug] error: {e}', file=sys.stderr)
        print('0 passed, 1 failed, 0 skipped')
        return 1


if __name__ == '__main__':
    sys.exit(main())
