# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the harness's own parsers (run by "make test")."""

import os
import re
import subprocess
import tempfile
import unittest

import bases
import checks
import distro
import mk
import results
import series


KTAP = """KTAP version 1
1..2
    KTAP version 1
    # Subtest: alpha
    # module: x
    1..2
    ok 1 first
    not ok 2 second
# alpha: pass:1 fail:1 skip:0 total:2
not ok 1 alpha
    KTAP version 1
    # Subtest: beta
    1..2
        KTAP version 1
        # Subtest: param_case
        ok 1 row one
        ok 2 row two # SKIP not on this arch
    ok 1 param_case
    ok 2 plain
ok 2 beta
"""

KSFT = """TAP version 13
1..2
# timeout set to 45
# selftests: static_keys: test_static_keys.sh
# static_keys: [FAIL]
ok 1 selftests: static_keys: test_static_keys.sh
# timeout set to 45
# selftests: markers: markers_test.sh
# missing feature
ok 2 selftests: markers: markers_test.sh # SKIP
"""


TCG_TIMING_TAP = """TAP version 13
1..1
# selftests: ftrace: ftracetest-ktap
# TAP version 13
# 1..2
# ok 1 event trigger - test poll wait on histogram
# not ok 2 (instance) event trigger - test poll wait on histogram
# # execute (instance) : /tmp/ksft/ftrace/test.d/trigger/trigger-hist-poll.tc
# # Totals: pass:1 fail:1 xfail:0 xpass:0 skip:0 error:0
not ok 1 selftests: ftrace: ftracetest-ktap # exit=1
"""


def parsed(tap):
    """The rows parse_kselftest() makes of <tap>, without a rerun file."""
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, 'kselftest.tap'), 'w') as f:
            f.write(tap)
        res = mk.Results(quiet=True)
        mk.parse_kselftest(d, res)
        return res.rows


class KtapTest(unittest.TestCase):
    def test_leaves(self):
        got = mk.parse_ktap_leaves(KTAP)
        self.assertEqual(got, [
            ('alpha.first', 'ok', ''),
            ('alpha.second', 'fail', ''),
            ('beta.param_case.row one', 'ok', ''),
            ('beta.param_case.row two', 'skip', 'not on this arch'),
            ('beta.plain', 'ok', ''),
        ])

    def test_kselftest_exit0_fail_is_failure(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, 'kselftest.tap'), 'w') as f:
                f.write(KSFT)
            res = mk.Results()
            mk.parse_kselftest(d, res)
            self.assertEqual([r[1] for r in res.rows], ['fail', 'skip'])
            self.assertEqual(res.summary(), '0 passed, 1 failed, 1 skipped')

    def test_kselftest_nested_consecutive_skips(self):
        tap = """TAP version 13
1..1
# timeout set to 0
# selftests: ftrace: ftracetest-ktap
# TAP version 13
# 1..5
# ok 1 plain case
# ok 2 first skipped # SKIP
# ok 3 second skipped # SKIP
# not ok 4 unresolved case # UNRESOLVED
# not ok 5 Meta-selftest: Checkbashisms # UNRESOLVED
# # Totals: pass:1 fail:0 xfail:0 xpass:0 skip:2 error:2
ok 1 selftests: ftrace: ftracetest-ktap
"""
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, 'kselftest.tap'), 'w') as f:
                f.write(tap)
            res = mk.Results()
            mk.parse_kselftest(d, res)
            got = [(r[0].split(': ', 2)[-1], r[1]) for r in res.rows]
            self.assertEqual(got, [
                ('plain case', 'ok'),
                ('first skipped', 'skip'),
                ('second skipped', 'skip'),
                ('unresolved case # UNRESOLVED', 'fail'),
                ('Meta-selftest: Checkbashisms # UNRESOLVED', 'skip'),
            ])
            self.assertTrue(all(r[2] for r in res.rows if r[1] == 'skip'))

    def test_kselftest_skip_reason_in_description(self):
        """A static_keys or markers test's skip without text after SKIP
        says why in its description's last parentheses; not as
        ftracetest's kernel config requirement."""
        tap = """TAP version 13
1..1
# selftests: static_keys: fail_nth.sh
# TAP version 13
# 1..2
# ok 1 set_event glob irq_vectors:*: each allocation failed in turn (not in FAIL_NTH_ONLY) # SKIP
# ok 2 nothing said # SKIP
ok 1 selftests: static_keys: fail_nth.sh
"""
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, 'kselftest.tap'), 'w') as f:
                f.write(tap)
            res = mk.Results()
            mk.parse_kselftest(d, res)
            self.assertEqual([(r[1], r[2]) for r in res.rows[:2]], [
                ('skip', 'not in FAIL_NTH_ONLY'),
                ('skip', 'skipped by the test, which gives no reason')])

    def test_ftracetest_rerun_alone(self):
        tap = """TAP version 13
1..1
# selftests: ftrace: ftracetest-ktap
# TAP version 13
# 1..3
# ok 1 plain case
# not ok 2 order dependent
# # execute: /tmp/ksft/ftrace/test.d/trigger/a.tc
# # + echo
# not ok 3 (instance) really broken
# # execute (instance) : /tmp/ksft/ftrace/test.d/trigger/b.tc
# # Totals: pass:1 fail:2 xfail:0 xpass:0 skip:0 error:0
not ok 1 selftests: ftrace: ftracetest-ktap # exit=1
"""
        for alone, want, top in (
                ('pass /tmp/ksft/ftrace/test.d/trigger/a.tc\n'
                 'fail /tmp/ksft/ftrace/test.d/trigger/b.tc\n', ['ok', 'ok', 'fail'], 'fail'),
                ('pass /tmp/ksft/ftrace/test.d/trigger/a.tc\n'
                 'pass /tmp/ksft/ftrace/test.d/trigger/b.tc\n', ['ok', 'ok', 'ok'], 'ok'),
                (None, ['ok', 'fail', 'fail'], 'fail')):
            with tempfile.TemporaryDirectory() as d:
                with open(os.path.join(d, 'kselftest.tap'), 'w') as f:
                    f.write(tap)
                if alone is not None:
                    with open(os.path.join(d, 'ftrace-alone.txt'), 'w') as f:
                        f.write(alone)
                res = mk.Results()
                mk.parse_kselftest(d, res)
                self.assertEqual([r[1] for r in res.rows], want + [top])

    def test_ftracetest_tcg_timing(self):
        tap = TCG_TIMING_TAP
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, 'kselftest.tap'), 'w') as f:
                f.write(tap)
            with open(os.path.join(d, 'ftrace-alone.txt'), 'w') as f:
                f.write('fail /tmp/ksft/ftrace/test.d/trigger/trigger-hist-poll.tc\n')
            res = mk.Results()
            mk.parse_kselftest(d, res)
            self.assertEqual([r[1] for r in res.rows], ['ok', 'skip', 'ok'])
            self.assertIn('TCG timing', res.rows[1][2])

    def test_ftracetest_tcg_timing_no_rerun(self):
        # The guest was killed before the alone rerun: the case row is a
        # TCG timing skip and the total row must not say otherwise.
        self.assertEqual([r[1] for r in parsed(TCG_TIMING_TAP)], ['ok', 'skip', 'ok'])

    def test_ftracetest_cut_short_fails(self):
        # A total row whose cases did not all report is not excused.
        rows = parsed(TCG_TIMING_TAP.replace('# 1..2', '# 1..3'))
        self.assertEqual([r[1] for r in rows], ['ok', 'skip', 'fail'])

    def test_kselftest_one_runner_call_per_test(self):
        # test.sh runs the runner once per test: one TAP document each.
        docs = ''.join(f'TAP version 13\n1..1\n# timeout set to 45\n'
                       f'# selftests: markers: {t}\n# fine\n'
                       f'{st} 1 selftests: markers: {t}\nrunner exit 0\n'
                       for t, st in (('a.sh', 'ok'), ('b.sh', 'not ok')))
        rows = parsed(docs + 'TAP version 13\n1..1\n# selftests: markers: c.sh\n')
        self.assertEqual(rows[:2], [('kselftest: markers:a.sh', 'ok', ''),
                                    ('kselftest: markers:b.sh', 'fail', 'fine')])
        self.assertIn('planned 3 tests, 2 reported', rows[-1][2])

    def test_kselftest_killed_inside_ftracetest(self):
        # The guest was killed at its timeout inside ftracetest: the
        # cases it finished are still rows.
        rows = parsed(TCG_TIMING_TAP.split('# # execute')[0])
        self.assertEqual([r[1] for r in rows], ['ok', 'skip', 'fail', 'fail'])
        self.assertIn('did not finish', rows[2][2])

    def test_kselftest_runner_died(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, 'kselftest.tap'), 'w') as f:
                f.write(KSFT.split('# timeout set to 45\n# selftests: markers')[0])
            res = mk.Results()
            mk.parse_kselftest(d, res)
            self.assertTrue(res.failed())
            self.assertIn('planned 2 tests, 1 reported', res.rows[-1][2])



class PartsTest(unittest.TestCase):
    def test_coverage(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, 'kselftest-list.txt'), 'w') as f:
                f.write('static_keys:a.sh\nmarkers:b.sh\nmarkers:c.sh\nftrace:ftracetest-ktap\n')
            for sub in ('test.d/kprobe', 'test.d/event'):
                os.makedirs(os.path.join(d, 'ftrace', sub))
            for tc in ('test.d/kprobe/k1.tc', 'test.d/kprobe/k2.tc', 'test.d/event/e.tc'):
                open(os.path.join(d, 'ftrace', tc), 'w').close()
            ok = [mk.Part('one', 'static_keys markers:b.sh', 1),
                  mk.Part('two', 'markers:c.sh ftrace', 1, ftrace_cases='test.d/kprobe'),
                  mk.Part('three', 'ftrace', 1, ftrace_cases='test.d/event/e.tc')]
            self.assertEqual(mk.part_coverage(ok, d), [])
            self.assertEqual(mk.part_coverage(ok[:1], d, ('static_keys', 'markers')),
                             ['markers:c.sh runs in 0 parts (none)'])
            bad = [mk.Part('one', 'static_keys markers', 1),
                   mk.Part('two', 'markers:c.sh ftrace', 1, ftrace_cases='test.d/kprobe/k1.tc')]
            self.assertEqual(mk.part_coverage(bad, d), [
                'markers:c.sh runs in 2 parts (one, two)',
                'ftracetest test.d/event/e.tc runs in 0 parts (none)',
                'ftracetest test.d/kprobe/k2.tc runs in 0 parts (none)'])

class WarnTest(unittest.TestCase):
    SPLAT = ('{first}\nModules linked in:\nCall Trace:\n <TASK>\n {fn}+0x1/0x2\n'
             ' </TASK>\n---[ end trace 0000000000000000 ]---\n')
    FIRSTS = ('WARNING: CPU: 1 PID: 199 at kernel/jump_label_batch.c:132 f+0x3/0x40',
              'WARNING: ../src/kernel/jump_label_batch.c:132 at f+0x33/0x40, '
              'CPU#1: kunit_try_catch/199')

    def test_both_formats(self):
        for first in self.FIRSTS:
            self.assertRegex(self.SPLAT.format(first=first, fn='any_fn'), mk.WARN_RE)
        self.assertNotRegex('WARNING: suspicious RCU usage', mk.WARN_RE)

    # The first line of the WARN the markers sweep reached (stop 41).
    FPROBE = ('WARNING: ../src/kernel/trace/fprobe.c:755 at '
              'fprobe_module_callback+0x2ad/0x5e0, CPU#1: fail_nth/478')

    def test_listed(self):
        listed = (mk.MAINLINE_WARNS['fprobe_module_callback'],)
        fprobe = self.SPLAT.format(first=self.FPROBE, fn='fprobe_module_callback')
        other = self.SPLAT.format(first=self.FIRSTS[1], fn='any_fn')
        # Counted unless listed; a listed one is returned to be reported.
        self.assertEqual(mk.log_problems(fprobe), [f'kernel log shows "{self.FPROBE}"'])
        self.assertEqual(mk.log_problems(fprobe, listed), [])
        self.assertEqual(mk.listed_warnings(fprobe, listed), [self.FPROBE])
        # Another WARN in the same log still fails, listed one or not.
        self.assertEqual(mk.log_problems(fprobe + other, listed),
                         [f'kernel log shows "{self.FIRSTS[1]}"'])
        self.assertEqual(mk.listed_warnings(other, listed), [])
        # The pattern is the site's, not any WARN in fprobe.c.
        near = self.FPROBE.replace('fprobe_module_callback', 'fprobe_init')
        self.assertEqual(len(mk.log_problems(near, listed)), 1)
        # Up to 6.12's form too.
        old = 'WARNING: CPU: 1 PID: 9 at kernel/trace/fprobe.c:755 fprobe_module_callback+0x1/0x2'
        self.assertEqual(mk.log_problems(old, listed), [])

    def test_part_run_lists(self):
        """A listed WARN is a skipped row with its line; the clean run
        still passes."""
        p = mk.Part('p', 't', 1, listed=('fprobe_module_callback',))
        text = self.SPLAT.format(first=self.FPROBE, fn='fprobe_module_callback')
        with tempfile.TemporaryDirectory() as d:
            p.boot = lambda obj=None: (d, mk.log_problems(text, p.listed), text)
            res = p.run()
        self.assertEqual([r for r in res.rows if 'mainline WARN' in r[0]], [
            ('guest p: mainline WARN, listed (README "Known gaps"), not counted', 'skip',
             self.FPROBE)])
        self.assertEqual([r[1] for r in res.rows if 'clean run' in r[0]], ['ok'])

    def test_debug_only(self):
        """DEBUG_ONLY picks guests by name; an unknown name is an error."""
        debug = import_debug()
        parts = debug.DEBUG_PARTS
        self.assertEqual(debug.only_parts(parts, ''), parts)
        self.assertEqual([p.name for p in debug.only_parts(parts, 'debug-2')], ['debug-2'])
        self.assertEqual(debug.only_parts(parts, 'debug-1,debug-2'), parts)
        with self.assertRaises(SystemExit) as e:
            debug.only_parts(parts, 'debug-2,debug-3')
        self.assertIn('no guest debug-3', str(e.exception))

    def test_sweep_parts_list_fprobe(self):
        """Only make fault-sweep's guests list it."""
        debug = import_debug()
        fprobe = mk.MAINLINE_WARNS['fprobe_module_callback']
        self.assertEqual([p.listed for p in debug.SWEEP_PARTS], [(fprobe,), (fprobe,)])
        self.assertEqual([p.listed for p in debug.DEBUG_PARTS], [(), ()])

    def test_sweep_lanes(self):
        """FAIL_NTH_LANES: one guest per collection:from-to, its own
        range in its environment; none given, the two usual guests; a
        malformed word or a range given twice is an error."""
        debug = import_debug()
        self.assertIs(debug.sweep_lanes(''), debug.SWEEP_PARTS)
        self.assertIs(debug.sweep_lanes('  '), debug.SWEEP_PARTS)
        parts = debug.sweep_lanes('static_keys:1-1900 static_keys:1901-0 markers:5-9')
        self.assertEqual([p.name for p in parts], ['sweep-static-keys-1-1900',
                                                   'sweep-static-keys-1901-0',
                                                   'sweep-markers-5-9'])
        self.assertEqual([p.tests for p in parts], ['static_keys:fail_nth.sh'] * 2 +
                         ['markers:fail_nth.sh'])
        self.assertIn('FAIL_NTH_FROM=1901 FAIL_NTH_TO=0 ', parts[1].env)
        self.assertIn('FAIL_NTH_FROM=5 FAIL_NTH_TO=9 ', parts[2].env)
        self.assertEqual(parts[1].env.count('FAIL_NTH_FROM'), 1)
        self.assertIn('FAIL_NTH_ONLY=', parts[0].env)
        self.assertEqual(parts[0].listed, debug.SWEEP_PARTS[0].listed)
        for bad in ('static_keys:0-5', 'static_keys:5-4', 'ftrace:1-2', 'markers:1',
                    'markers:1-2x', 'markers:1-2 markers:1-2'):
            with self.assertRaises(SystemExit, msg=bad) as e:
                debug.sweep_lanes(bad)
            self.assertIn('FAIL_NTH_LANES', str(e.exception))

    def test_part_listed(self):
        self.assertEqual(mk.Part('p', 't', 1).listed, ())
        self.assertEqual(mk.Part('p', 't', 1, listed=('fprobe_module_callback',)).listed,
                         (mk.MAINLINE_WARNS['fprobe_module_callback'],))
        with self.assertRaises(KeyError):
            mk.Part('p', 't', 1, listed=('unknown',))


class CaseTimesTest(unittest.TestCase):
    def test_slowest_cases(self):
        text = ('100 start ftrace:ftracetest-ktap\n'
                '130 # ok 1 Basic trace file check\n'
                '530 # ok 2 Test trace remote consuming read\n'
                '531 # not ok 3 Kprobe dynamic event # SKIP\n'
                '540 ok 1 selftests: ftrace: ftracetest-ktap\n'
                '600 start markers:stress.sh\n'
                '700 ok 1 selftests: markers: stress.sh\n')
        # ftracetest's own line counts from its start, not its last case
        self.assertEqual(mk.slowest_cases(text, 4),
                         [(440, 'ftrace:ftracetest-ktap'),
                          (400, 'Test trace remote consuming read'),
                          (100, 'markers:stress.sh'),
                          (30, 'Basic trace file check')])


class CocciTest(unittest.TestCase):
    def test_base_report_matches_across_lines(self):
        ours = ('/w/build/src/kernel/bpf/syscall.c:2507:5-26: WARNING: '
                'atomic_dec_and_test variation before object free at line 2510.')
        base = ('/w/build/src/kernel/bpf/syscall.c:2501:5-26: WARNING: '
                'atomic_dec_and_test variation before object free at line 2504.')
        other = ('/w/build/src/kernel/marker.c:2501:5-26: WARNING: '
                 'atomic_dec_and_test variation before object free at line 2504.')
        self.assertEqual(checks._norm(ours), checks._norm(base))
        self.assertNotEqual(checks._norm(ours), checks._norm(other))

    def test_compiler_warning(self):
        self.assertEqual(checks._norm('/a/src/kernel/marker.c:12:5: warning: x'),
                         checks._norm('/b/base/kernel/marker.c:40:9: warning: x'))

    def test_scripts_as_coccicheck_picks_them(self):
        """report-mode scripts only, a "Requires:" newer than spatch left
        out, each script's "Options:" kept."""
        class C:
            pass
        with tempfile.TemporaryDirectory() as d:
            c = C()
            c.SRC = d
            cdir = os.path.join(d, 'scripts', 'coccinelle', 'api')
            os.makedirs(cdir)
            for name, text in (
                    ('a.cocci', '// Options: --no-includes --include-headers\n'
                                'virtual patch\nvirtual report\n'),
                    ('b.cocci', 'virtual patch\nvirtual context\n'),
                    ('c.cocci', '// Requires: 1.2\nvirtual report\n'),
                    ('d.cocci', '// Requires: 1.0.8\nvirtual  report\n')):
                with open(os.path.join(cdir, name), 'w', encoding='utf-8') as f:
                    f.write(text)
            got = checks._cocci_scripts(c, '1.1.1')
        self.assertEqual([(os.path.basename(f), o) for f, o in got],
                         [('a.cocci', ['--no-includes', '--include-headers']),
                          ('d.cocci', [])])


    def test_sparse_falls_back_to_the_pinned_build(self):
        """The host sparse when the tree's checker-valid.sh accepts it,
        else the pinned build, else a skip that says why."""
        class C:
            HarnessError = RuntimeError
            run = log = None
            JOBS = '1'
        with tempfile.TemporaryDirectory() as d:
            c = C()
            c.SRC = d
            os.makedirs(os.path.join(d, 'scripts'))
            built = os.path.join(d, 'sparse-x', 'sparse')
            with open(os.path.join(d, 'scripts', 'checker-valid.sh'), 'w',
                      encoding='utf-8') as f:
                f.write(f'[ "$1" = {built} ] && echo 1 || echo 0\n')
            orig = bases.fetch_sparse
            try:
                bases.fetch_sparse = lambda run, log, jobs: built
                self.assertEqual(checks._sparse(c), (built, None))
                def fail(run, log, jobs):
                    raise bases.BaseError('gone from the archive')
                bases.fetch_sparse = fail
                prog, why = checks._sparse(c)
                self.assertIsNone(prog)
                self.assertIn('gone from the archive', why)
            finally:
                bases.fetch_sparse = orig


    def test_checkpatch_reuses_clean_results_only(self):
        """A clean checkpatch result is reused for the same patch text;
        a patch with findings, or changed, runs checkpatch again."""
        class C:
            pass
        with tempfile.TemporaryDirectory() as d:
            c = C()
            c.B = d
            os.makedirs(os.path.join(d, 'scripts'))
            os.makedirs(os.path.join(d, 'series-git'))
            calls = os.path.join(d, 'calls')
            script = os.path.join(d, 'scripts', 'checkpatch.pl')
            with open(script, 'w', encoding='utf-8') as f:
                f.write(f'#!/bin/sh\necho x >> {calls}\n'
                        'last=""; for a; do last=$a; done\n'
                        'grep -q BAD "$last" && { echo "WARNING: bad"; exit 1; }\nexit 0\n')
            os.chmod(script, 0o755)
            patch = os.path.join(d, 'p.patch')

            def run(text):
                with open(patch, 'w', encoding='utf-8') as f:
                    f.write(text)
                return checks._checkpatch(c, d, 'X', patch, '7.3.4')

            def ncalls():
                with open(calls, encoding='utf-8') as f:
                    return len(f.read().split())
            good = ('From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n'
                    'Subject: x\n\nLink: https://lore.kernel.org/r/20260308095443.GY6@x\n')
            self.assertEqual(run(good), (0, '', False))
            self.assertEqual(run(good), (0, '', True))
            self.assertEqual(ncalls(), 1)
            self.assertEqual(run('BAD')[0], 1)
            self.assertEqual(run('BAD')[0:3:2], (1, False))
            self.assertEqual(ncalls(), 3)
            # a commit id in the message: looked up in git, never reused
            for ref in ('Fixes: 0123456789ab ("x")\n\ndiff --git a/f b/f\n',
                        'as commit 0123456789ab ("x") did\n'):
                self.assertEqual(run(ref), (0, '', False))
                self.assertEqual(run(ref), (0, '', False))
            self.assertEqual(ncalls(), 7)


class SeriesTest(unittest.TestCase):
    def make(self, text, files=()):
        d = tempfile.mkdtemp()
        os.makedirs(os.path.join(d, 'linux', 'kernel'))
        os.makedirs(os.path.join(d, 'patches'))
        for f in files:
            open(os.path.join(d, f), 'w').close()
        with open(os.path.join(d, 'series'), 'w') as f:
            f.write(text)
        return d

    def test_parse(self):
        d = self.make('# c\nCover: yes\nSubject: cover\n\nblurb\n%%\n'
                      'Subject: a: b\nFiles: kernel/x.c\n\nwhy\n%%\n',
                      ['linux/kernel/x.c'])
        cs = series.parse(os.path.join(d, 'series'), d)
        self.assertEqual([c.cover for c in cs], [True, False])
        self.assertEqual(cs[1].files, ['kernel/x.c'])
        self.assertEqual(series.check_complete(cs, d), [])

    def test_exporter_filled(self):
        text = f'M:\t{series.EXPORTER}\nMODULE_AUTHOR("{series.EXPORTER}");\n'
        out = series.fill_exporter(text, 'A B <a@b.example>')
        self.assertEqual(out, 'M:\tA B <a@b.example>\nMODULE_AUTHOR("A B <a@b.example>");\n')

    def test_no_identity_baked_in(self):
        """Every MODULE_AUTHOR() and new MAINTAINERS M: line of the
        series says EXPORTER, which the build and the export fill."""
        bad = []
        for d, _, files in os.walk(os.path.join(mk.ROOT, 'linux')):
            for f in files:
                p = os.path.join(d, f)
                for m in re.finditer(r'MODULE_AUTHOR\("([^"]*)"\)', mk.read(p)):
                    if m.group(1) != series.EXPORTER:
                        bad.append(f'{p}: {m.group(0)}')
        for d in ('patches', os.path.join('patches', '6.12')):
            for f in os.listdir(os.path.join(mk.ROOT, d)):
                p = os.path.join(mk.ROOT, d, f)
                if os.path.isfile(p):
                    bad += [f'{p}: {l}' for l in mk.read(p).split('\n')
                            if re.match(r'^\+M:\t', l) and series.EXPORTER not in l]
        self.assertEqual(bad, [])

    def test_signoff_refused(self):
        d = self.make('Subject: a: b\n\nwhy\n\nSigned-off-by: A <a@b>\n')
        with self.assertRaisesRegex(series.SeriesError, 'Signed-off-by'):
            series.parse(os.path.join(d, 'series'), d)

    def test_unlisted_file(self):
        d = self.make('Subject: a: b\n\nwhy\n',
                      ['linux/kernel/y.c'])
        cs = series.parse(os.path.join(d, 'series'), d)
        self.assertEqual(series.check_complete(cs, d),
                         ['linux/kernel/y.c is in no commit of the series'])

    def test_backport_override(self):
        d = self.make('Subject: a: b\nPatches: 01-a.patch 02-b.patch\n\nwhy\n',
                      ['patches/01-a.patch', 'patches/02-b.patch'])
        os.makedirs(os.path.join(d, 'patches', '6.12'))
        open(os.path.join(d, 'patches', '6.12', '02-b.patch'), 'w').close()
        dirs = [os.path.join(d, 'patches', '6.12'), os.path.join(d, 'patches')]
        cs = series.parse(os.path.join(d, 'series'), d, dirs)
        self.assertEqual(series.find_patch(dirs, '02-b.patch'),
                         os.path.join(d, 'patches', '6.12', '02-b.patch'))
        self.assertEqual(series.find_patch(dirs, '01-a.patch'),
                         os.path.join(d, 'patches', '01-a.patch'))
        self.assertEqual(series.check_complete(cs, d, dirs), [])
        open(os.path.join(d, 'patches', '6.12', '03-c.patch'), 'w').close()
        self.assertEqual(series.check_complete(cs, d, dirs),
                         ['patches/6.12/03-c.patch is in no commit of the series'])


class LinkTreeTest(unittest.TestCase):
    """Build copies are hard links to the base tree: writing a file of the
    copy, or restoring one, must leave the base tree's file as it was."""

    def test_base_untouched(self):
        with tempfile.TemporaryDirectory() as d:
            base, src = os.path.join(d, 'base'), os.path.join(d, 'src')
            os.makedirs(os.path.join(base, 'kernel'))
            f = os.path.join('kernel', 'a.c')
            with open(os.path.join(base, f), 'w', encoding='utf-8') as fp:
                fp.write('base\n')
            mk.link_tree(base, src)
            self.assertEqual(os.stat(os.path.join(src, f)).st_ino,
                             os.stat(os.path.join(base, f)).st_ino)
            mk.replace_file(None, os.path.join(src, f), 'series\n')
            self.assertEqual(mk.read(os.path.join(base, f)), 'base\n')
            self.assertEqual(mk.read(os.path.join(src, f)), 'series\n')
            mk.replace_file(os.path.join(base, f), os.path.join(src, f))
            self.assertEqual(mk.read(os.path.join(src, f)), 'base\n')

    def test_replaced_file_is_newer_than_objects(self):
        """A file replaced by content written before an object was built
        from other content must still be newer than that object."""
        with tempfile.TemporaryDirectory() as d:
            s, dst, obj = (os.path.join(d, n) for n in ('s.c', 'd.c', 'd.o'))
            for p, text in ((s, 'new\n'), (dst, 'old\n'), (obj, 'o\n')):
                with open(p, 'w', encoding='utf-8') as fp:
                    fp.write(text)
            os.utime(s, (1000, 1000))
            os.utime(obj, (2000, 2000))
            mk.replace_file(s, dst)
            self.assertGreater(os.stat(dst).st_mtime, os.stat(obj).st_mtime)


class DeleteTest(unittest.TestCase):
    """A patch may delete a base file: the build copy loses it, the base
    tree keeps it, and it comes back once no patch deletes it."""

    PATCH = ('--- a/kernel/a.c\n+++ /dev/null\n@@ -1 +0,0 @@\n-base\n'
             '--- a/kernel/b.c\n+++ b/kernel/b.c\n@@ -1 +1 @@\n-base\n+series\n')

    def test_parse(self):
        with tempfile.NamedTemporaryFile('w', suffix='.patch', delete=False) as f:
            f.write(self.PATCH)
        try:
            self.assertEqual(mk.patch_files(f.name), ['kernel/a.c', 'kernel/b.c'])
            self.assertEqual(mk.deleted_files(f.name), ['kernel/a.c'])
        finally:
            os.unlink(f.name)

    def test_sync(self):
        with tempfile.TemporaryDirectory() as d:
            base, src, stage = (os.path.join(d, n) for n in ('base', 'src', 'stage'))
            os.makedirs(os.path.join(base, 'kernel'))
            os.makedirs(stage)
            f = os.path.join('kernel', 'a.c')
            with open(os.path.join(base, f), 'w', encoding='utf-8') as fp:
                fp.write('base\n')
            mk.link_tree(base, src)
            saved, mk.B = mk.B, d
            try:
                self.assertEqual(mk.sync_stage(stage, src, base, {f}), 1)
                self.assertFalse(os.path.exists(os.path.join(src, f)))
                self.assertEqual(mk.read(os.path.join(base, f)), 'base\n')
                self.assertEqual(mk.sync_stage(stage, src, base, ()), 1)
                self.assertEqual(mk.read(os.path.join(src, f)), 'base\n')
            finally:
                mk.B = saved


class ContextTest(unittest.TestCase):
    """checks.py reaches mk through ctx(): every name it uses must be there."""

    def test_ctx_has_what_checks_uses(self):
        import re
        with open(os.path.join(os.path.dirname(__file__), 'checks.py'), encoding='utf-8') as f:
            used = set(re.findall(r'\bc\.([A-Za-z_]\w*)', f.read()))
        c = mk.ctx()
        self.assertEqual(sorted(n for n in used if not hasattr(c, n)), [])


class BasesTest(unittest.TestCase):
    B = bases.Base('7.3', 'linux-source-7.3', '7.3.4-1~bpo13+1', 'aa', 'debian',
                   'trixie-backports', '')

    def test_pinned(self):
        warned = []
        got = bases.choose(self.B, {'7.3.4-1~bpo13+1': 'aa', '7.3.5-1~bpo13+1': 'bb'},
                           warned.append)
        self.assertEqual(got, ('7.3.4-1~bpo13+1', 'aa'))
        self.assertEqual(warned, [])

    def test_newer_with_warning(self):
        warned = []
        got = bases.choose(self.B, {'7.3.10-1~bpo13+1': 'cc', '7.3.9-1~bpo13+1': 'bb',
                                    '7.2.13-1': 'dd'}, warned.append)
        self.assertEqual(got, ('7.3.10-1~bpo13+1', 'cc'))
        self.assertEqual(len(warned), 1)
        self.assertIn('7.3.4-1~bpo13+1', warned[0])
        self.assertIn('7.3.10-1~bpo13+1', warned[0])

    def test_none_left(self):
        with self.assertRaisesRegex(bases.BaseError, r'7\.2\.13-1.*7\.3\.2-1'):
            bases.choose(self.B, {'7.2.13-1': 'dd', '7.3.2-1': 'ee'}, print)

    def test_table(self):
        self.assertIn(bases.DEFAULT, bases.BASES)
        for b in bases.BASES.values():
            self.assertRegex(b.sha256, r'^[0-9a-f]{64}$')
            self.assertTrue(os.path.isfile(b.series), b.series)

    def test_configs_match_source(self):
        """Debian's configs are pinned at the version of the base's
        source package, from the same suite."""
        for name, deb in bases.CONFIGS.items():
            self.assertIn(name, bases.BASES)
            self.assertEqual(deb.version, bases.BASES[name].version)
            self.assertEqual(deb.package, 'linux-config-' + bases.BASES[name].upstream)
            self.assertRegex(deb.sha256, r'^[0-9a-f]{64}$')

    def test_fetch_configs_unknown_base(self):
        b = bases.Base('6.1', 'linux-source-6.1', '6.1.1-1', 'aa', 'debian', 'x', '')
        with self.assertRaisesRegex(bases.BaseError, 'no Debian kernel config'):
            bases.fetch_configs(b, print, print)


DEBIAN = """#
# Automatically generated file; DO NOT EDIT.
CONFIG_MODULES=y
CONFIG_MODULE_SIG=y
# CONFIG_MODULE_SIG_ALL is not set
CONFIG_SYSTEM_TRUSTED_KEYS="debian/certs/debian-uefi-certs.pem"
CONFIG_NET_9P=m
CONFIG_9P_FSCACHE=y
"""


class DistroConfigTest(unittest.TestCase):
    def test_parse(self):
        got = distro.parse_config(DEBIAN)
        self.assertEqual(got['CONFIG_MODULE_SIG_ALL'], 'n')
        self.assertEqual(got['CONFIG_SYSTEM_TRUSTED_KEYS'],
                         '"debian/certs/debian-uefi-certs.pem"')
        self.assertEqual(got['CONFIG_NET_9P'], 'm')
        self.assertNotIn('CONFIG_MODULE_SIG_KEY', got)

    def test_set_options(self):
        text, changed = distro.set_options(DEBIAN, distro.KEY_OPTIONS)
        got = distro.parse_config(text)
        for k, v in distro.KEY_OPTIONS.items():
            self.assertEqual(got[k], v)
        # replaced in place, not defined twice
        self.assertEqual(text.count('CONFIG_SYSTEM_TRUSTED_KEYS'), 1)
        self.assertEqual(text.count('CONFIG_MODULE_SIG_ALL'), 1)
        self.assertIn('CONFIG_NET_9P=m\n', text)
        self.assertEqual(dict((n, (o, v)) for n, o, v in changed), {
            'CONFIG_SYSTEM_TRUSTED_KEYS': ('"debian/certs/debian-uefi-certs.pem"', '""'),
            'CONFIG_SYSTEM_REVOCATION_KEYS': (None, '""'),
            'CONFIG_MODULE_SIG_KEY': (None, '"certs/signing_key.pem"'),
            'CONFIG_MODULE_SIG_ALL': ('n', 'y'),
        })
        again, changed = distro.set_options(text, distro.KEY_OPTIONS)
        self.assertEqual((again, changed), (text, []))

    def test_set_option_off(self):
        text, _ = distro.set_options('CONFIG_A=y\n', {'CONFIG_A': 'n'})
        self.assertEqual(text, '# CONFIG_A is not set\n')

    def test_fragments(self):
        cfg = os.path.join(distro.ROOT, 'configs')
        frags = [os.path.join(cfg, n) for n in
                 ('base.config', 'test.config', 'lockdown.config', 'markers.config',
                  'tracers.config', '7.3/tracers.config', '7.3/other.config')]
        debug = os.path.join(cfg, 'debug.config')
        got = [os.path.relpath(f, cfg) for f in distro.distro_fragments(frags + [debug],
                                                                        (debug,))]
        self.assertEqual(got, ['test.config', 'markers.config', '7.3/other.config',
                               'distro/guest.config', 'debug.config'])

    def test_fragments_exist(self):
        for f in distro.distro_fragments(mk.fragments()):
            self.assertTrue(os.path.isfile(f), f)
        for row in distro.ROWS.values():
            for e in row.extra:
                self.assertTrue(os.path.isfile(os.path.join(distro.ROOT, 'configs', e)))

    def test_lost_and_on(self):
        before = {'CONFIG_A': 'y', 'CONFIG_B': 'y', 'CONFIG_C': 'm', 'CONFIG_D': 'n'}
        after = {'CONFIG_A': 'y', 'CONFIG_B': 'n', 'CONFIG_D': 'm', 'CONFIG_E': 'y'}
        self.assertEqual(distro.builtins_lost(before, after), ['CONFIG_B'])
        self.assertEqual(distro.turned_on(before, after), ['CONFIG_D', 'CONFIG_E'])

    def good(self, rt=False):
        got = {k: 'y' for k in distro.DEBIAN_KEEP + (distro.DEBIAN_KEEP_RT if rt else [])}
        got.update(distro.KEY_OPTIONS)
        got['CONFIG_MARKERS'] = 'y'
        return got

    def test_problems(self):
        want = {'CONFIG_MARKERS': 'y', 'CONFIG_KUNIT_ALL_TESTS': 'n'}
        self.assertEqual(distro.config_problems(self.good(), want, rt=False), [])
        got = self.good()
        del got['CONFIG_SYSTEM_REVOCATION_KEYS']    # off with SYSTEM_REVOCATION_LIST
        self.assertEqual(distro.config_problems(got, want, rt=False), [])
        got['CONFIG_MARKERS'] = 'n'
        got['CONFIG_SYSTEM_TRUSTED_KEYS'] = '"x.pem"'
        del got['CONFIG_MITIGATION_ITS']
        bad = distro.config_problems(got, want, rt=True)
        self.assertEqual(len(bad), 4, bad)
        for name in ('CONFIG_MARKERS', 'CONFIG_SYSTEM_TRUSTED_KEYS', 'CONFIG_MITIGATION_ITS',
                     'CONFIG_PREEMPT_RT'):
            self.assertTrue(any(b.startswith(name + '=') for b in bad), (name, bad))

    def test_lockdown(self):
        self.assertEqual(distro.expected_lockdown({'CONFIG_LOCK_DOWN_KERNEL_FORCE_NONE': 'y'}),
                         'none')
        self.assertEqual(distro.expected_lockdown(
            {'CONFIG_LOCK_DOWN_KERNEL_FORCE_INTEGRITY': 'y'}), 'integrity')

    def test_mitigations(self):
        v = '/sys/devices/system/cpu/vulnerabilities/'
        text = (f'{v}retbleed:Mitigation: Stuffing\n'
                f'{v}spectre_v2:Mitigation: Retpolines; IBPB: conditional; STIBP: disabled\n')
        self.assertEqual([r[1] for r in distro.mitigation_rows(text, 'x')], ['ok', 'ok'])
        text = f'{v}retbleed:Vulnerable\n'
        self.assertEqual([r[1] for r in distro.mitigation_rows(text, 'x')], ['fail', 'fail'])

    def test_guests(self):
        installed = ['static_keys:test_static_keys.sh', 'markers:markers_test.sh',
                     'markers:stress.sh', 'ftrace:ftracetest-ktap']
        got = distro.guests(installed)
        self.assertEqual([g[:4] for g in got], [
            ('', ['static_keys:test_static_keys.sh', 'markers:markers_test.sh'],
             distro.APPEND, True),
            ('-hotplug', ['markers:stress.sh'], distro.HOTPLUG_APPEND, False)])
        self.assertEqual({(g.timeout, g.ksft_timeout) for g in got},
                         {(distro.TIMEOUT, distro.KSFT_TIMEOUT)})
        self.assertNotIn('retbleed=stuff', distro.HOTPLUG_APPEND)
        self.assertEqual(len(distro.guests(installed[:2])), 1)

    def test_rt_debug_row(self):
        """The rt-debug row: PREEMPT_RT with lockdep and the atomic-sleep
        check, without KASAN, split as a debug row; the others are not."""
        row = distro.ROWS['rt-debug']
        self.assertTrue(row.rt)
        text = ''.join(mk.read(os.path.join(distro.ROOT, 'configs', e)) for e in row.extra)
        opts = distro.parse_config(text)
        for o in ('PROVE_LOCKING', 'PROVE_RAW_LOCK_NESTING', 'DEBUG_ATOMIC_SLEEP'):
            self.assertEqual(opts.get('CONFIG_' + o), 'y', o)
        self.assertEqual(opts.get('CONFIG_KASAN', 'n'), 'n')
        self.assertEqual([n for n, r in distro.ROWS.items() if distro.is_debug_row(r)],
                         ['rt-debug'])

    def test_debug_guests(self):
        """The rt-debug row: test-debug's split and timeouts, the heavy
        guest first, the sweeps in no guest."""
        installed = ['static_keys:test_static_keys.sh', 'static_keys:events_batch.sh',
                     'static_keys:fail_nth.sh', 'markers:markers_test.sh',
                     'markers:owners.sh', 'markers:fail_nth.sh', 'markers:stress.sh']
        split = distro.debug_split(import_debug())
        self.assertIn('markers:owners.sh', split.heavy)
        self.assertEqual(split.sweeps, ('static_keys:fail_nth.sh', 'markers:fail_nth.sh'))
        got = distro.guests(installed, split._replace(
            timeout=9000, ksft_timeout=1800,
            heavy=('static_keys:events_batch.sh', 'markers:owners.sh')))
        self.assertEqual([(g.suffix, g.tests, g.kunit, g.timeout, g.ksft_timeout)
                          for g in got], [
            ('-2', ['static_keys:events_batch.sh', 'markers:owners.sh'], False, 9000, 3600),
            ('-1', ['static_keys:test_static_keys.sh', 'markers:markers_test.sh'],
             True, 9000, 1800),
            ('-hotplug', ['markers:stress.sh'], False, 9000, 3600)])
        self.assertEqual(got[0].append, distro.APPEND)
        self.assertEqual(got[2].append, distro.HOTPLUG_APPEND)
        ran = [t for g in got for t in g.tests]
        self.assertEqual(sorted(ran + list(split.sweeps)), sorted(installed))

    def test_pahole(self):
        self.assertEqual(distro.pahole_version('v1.24\n'), 124)
        self.assertEqual(distro.pahole_version('v1.30'), 130)
        self.assertEqual(distro.pahole_version('pahole: not found'), 0)
        self.assertGreaterEqual(distro.pahole_version('v1.22'), distro.PAHOLE_MIN)

    def test_signed(self):
        self.assertTrue(distro.module_signed(b'\x7fELF...' + distro.SIG_MAGIC))
        self.assertFalse(distro.module_signed(b'\x7fELF...'))
        self.assertTrue(distro.taint_unsigned('8192'))
        self.assertFalse(distro.taint_unsigned(str(1 << 18 | 1 << 12)))



class FiguresTest(unittest.TestCase):
    """A cover letter's figures: a list keeps its items when one of them
    carries a figure (each item is refilled on its own)."""

    def test_list_items_kept(self):
        orig = checks.bench_results
        checks.bench_results = lambda c: {
            'meta': {'date': '2026-11-26 13:53'},
            'rows': [{'source': 'guest', 'case': 'on', 'variant': 'mark',
                      'n': 0, 'value': 21.0}]}
        try:
            out = checks.fill_figures(mk, 'Changes:\n - first item costs '
                                      '@BENCH(on,mark)@ instructions;\n'
                                      ' - second item.\n\nRun of @BENCH_DATE@.')
        finally:
            checks.bench_results = orig
        self.assertEqual(out, 'Changes:\n - first item costs 21 instructions;\n'
                         ' - second item.\n\nRun of 2026-11-26.')


class ResultsTest(unittest.TestCase):
    """README quotes figures only through blocks rendered from the
    committed doc/results.json: a figure in README never contradicts it."""

    def test_readme_blocks_match_results(self):
        with open(results.README, encoding='utf-8') as f:
            text = f.read()
        self.assertEqual(results.refresh(text, results.load()), text,
                         'README.md blocks differ from doc/results.json: '
                         'run "make results" and commit both')

    def test_readme_has_the_blocks(self):
        with open(results.README, encoding='utf-8') as f:
            names = results.blocks(f.read())
        self.assertEqual(sorted(set(names)), sorted(results.RENDER))

    def test_readme_first_screen(self):
        """The first screen: pitch, a MARK() site, the two commands."""
        with open(results.README, encoding='utf-8') as f:
            head = ''.join(f.readlines()[:60])
        for s in ('MARK(', 'bpftrace', 'make run', 'make test',
                  '<!-- results:headline -->', '<!-- results:times -->'):
            self.assertIn(s, head)

    def test_setup_section_commands(self):
        """CI runs make test; README's "Set up and run" names both."""
        with open(results.README, encoding='utf-8') as f:
            text = f.read()
        sec = text.split('## Set up and run', 1)[1].split('\n## ', 1)[0]
        self.assertRegex(sec, r'(?m)^make run\b')
        self.assertRegex(sec, r'(?m)^make test\b')

    def test_unknown_block_refused(self):
        with self.assertRaises(KeyError):
            results.refresh('<!-- results:nope -->\nx\n<!-- /results -->\n',
                            results.load())

    def test_refresh_replaces_content(self):
        data = results.load()
        text = 'a\n<!-- results:status -->\nstale 1 passed\n<!-- /results -->\nb\n'
        out = results.refresh(text, data)
        self.assertIn(data['test']['summary'], out)
        self.assertNotIn('stale', out)
        self.assertEqual(results.refresh(out, data), out)

    def test_claims_lines(self):
        table = 'x\nclaims (issue 5 "done when"), from the figures above:\n' \
                '  meets a: 1 vs 1\n  MISSES b: 2 vs 1\n\nsize\n'
        self.assertEqual(results.claims_lines(table), ['meets a: 1 vs 1', 'MISSES b: 2 vs 1'])

    def test_dump_round_trip(self):
        data = results.load()
        import json
        self.assertEqual(json.loads(results.dump(data)), data)

    def test_plain_run(self):
        self.assertIsNone(results.plain_run({}))
        self.assertIsNone(results.plain_run({'BASE': bases.DEFAULT, 'B': ''}))
        self.assertTrue(results.plain_run({'BASE': '6.12'}))
        self.assertTrue(results.plain_run({'BACKPORT': 'none'}))
        self.assertTrue(results.plain_run({'EXTRA_CONFIG': 'configs/extra/kcfi.config'}))
        self.assertTrue(results.plain_run({'RESULTS': 'none'}))


# A made-up bench.csv of make distro-bench's guest: 2 x 100 pokes in
# batches of at most 256 take 6 rounds; dynamic debug 2 x 300 pokes take
# 12 where 6 x ceil(300 / 256) = 12 is the goal.
DISTRO_CSV = """off,nothing,0,3,tsc
off,mark,0,4,tsc
off,tracepoint,0,4,tsc
on,mark_1probe_empty,0,25,tsc
on,tracepoint_1probe_empty,0,25,tsc
record,nothing,0,10,tsc
record,mark,0,600,tsc
record,tracepoint,0,610,tsc
record,trace_printk,0,950,tsc
bpf,mark,0,500,tsc
bpf,tracepoint,0,499,tsc
bpf_raw,mark,0,350,tsc
bpf_raw,tracepoint,0,351,tsc
flip,batch_max,0,256,entries
flip,batch_ipi_rounds,1000,6,rounds
flip,one_by_one_ipi_rounds,1000,6000,rounds
events,batched_ipi_rounds,900,6,rounds
events,batched_own_ipi_rounds,900,6,rounds
events,batched_pokes,900,200,pokes
events,batched_syscall_events,900,700,events
events,one_by_one_ipi_rounds,900,5000,rounds
dyndbg,all,1300,2,writes
dyndbg,all_pokes,1300,600,pokes
dyndbg,all_ipi_rounds,1300,12,rounds
dyndbg,one_by_one_ipi_rounds,1300,7000,rounds
"""


class DistroBenchTest(unittest.TestCase):
    """make distro-bench's figures, claims and README block, on a
    made-up guest output (the bench runs outside CI)."""

    def rows(self):
        import bench
        return bench.parse_csv(DISTRO_CSV, 'guest')

    VULNS = ['spectre_v2:Mitigation: Retpolines; IBPB: conditional; STIBP: disabled; RSB '
             'filling; PBRSB-eIBRS: Not affected; BHI: Not affected',
             'retbleed:Mitigation: Stuffing']

    def test_claims(self):
        got = [c.strip() for c in distro.bench_claims(self.rows(), self.VULNS)]
        self.assertEqual(got, [
            'meets spectre_v2 as asked (Mitigation: Retpolines): ' + self.VULNS[0][11:],
            'meets retbleed as asked (Mitigation: Stuffing): Mitigation: Stuffing',
            'meets off = one NOP (MARK off - nothing, guest insns; want 1): 1 vs 1',
            'meets MARK on (1 empty probe) <= tracepoint with 1 empty probe, retpolines and '
            'call depth tracking on: 25 vs 25',
            'meets MARK record <= TRACE_EVENT record: 590 vs 600',
            'MISSES BPF program on a marker event <= on the TRACE_EVENT: 490 vs 489',
            'meets raw tracepoint BPF program on a marker <= on the tracepoint: 340 vs 341',
            'meets events/enable with the syscall events, on then off: the static key '
            'batches\' own IPI rounds <= 3 x ceil(pokes per write / batch size) per write: '
            '6 vs 6',
            'meets the same, every IPI round of the writes (no text patched outside the '
            'batch): 6 vs 6',
            'meets the syscall events are among them (syscall events while on, > 0): 700 vs 0',
            'meets dynamic debug "+p" then "-p": IPI rounds <= 3 x ceil(pokes per write / '
            'batch size) per write: 12 vs 12'])
        # Mitigations not taken: said, since the enabled-site claim is about them.
        got = distro.bench_claims(self.rows(), ['retbleed:Vulnerable'])
        self.assertEqual([c.strip() for c in got[:2]], [
            'MISSES spectre_v2 as asked (Mitigation: Retpolines): no such file',
            'MISSES retbleed as asked (Mitigation: Stuffing): Vulnerable'])

    def test_whole_instructions(self):
        """Per-iteration figures are compared in whole instructions: the
        raw BPF figures of the first distro-bench (168.005 and 168.002,
        the loop's 3 subtracted) differ by 30 instructions over 10000
        iterations, the run's own, and met; 342.31 vs 340 misses."""
        rows = [r for r in self.rows() if r['case'] not in ('bpf', 'bpf_raw')]
        import bench
        rows += bench.parse_csv('bpf,mark,0,345.307,tsc\nbpf,tracepoint,0,343,tsc\n'
                                'bpf_raw,mark,0,168.005,tsc\nbpf_raw,tracepoint,0,168.002,tsc\n'
                                'record,nothing,0,3,tsc\n', 'guest')
        rows = [r for r in rows if not (r['case'] == 'record' and r['variant'] == 'nothing'
                                        and r['value'] == 10)]
        got = [c.strip() for c in distro.bench_claims(rows, self.VULNS)]
        self.assertIn('meets raw tracepoint BPF program on a marker <= on the tracepoint: '
                      '165.00 vs 165.00', got)
        self.assertIn('MISSES BPF program on a marker event <= on the TRACE_EVENT: '
                      '342.31 vs 340', got)

    def test_goal(self):
        rows = self.rows()
        self.assertEqual(distro.batch_goal(rows, 'dyndbg', 'all'), 12)
        for r in rows:
            if r['variant'] == 'batch_max':
                r['value'] = 128
        self.assertEqual(distro.batch_goal(rows, 'dyndbg', 'all'), 18)
        self.assertIsNone(distro.batch_goal(rows, 'events', 'one_by_one'))

    def test_outside_the_batch(self):
        """Text patched outside the batch (a regfunc's own static call
        update) fails the second events claim only."""
        rows = self.rows()
        for r in rows:
            if r['variant'] == 'batched_ipi_rounds':
                r['value'] = 306
        got = [c.strip() for c in distro.bench_claims(rows, self.VULNS)]
        self.assertIn('meets events/enable with the syscall events, on then off: the static '
                      'key batches\' own IPI rounds <= 3 x ceil(pokes per write / batch size) '
                      'per write: 6 vs 6', got)
        self.assertIn('MISSES the same, every IPI round of the writes (no text patched outside '
                      'the batch): 306 vs 6', got)

    def test_missing_figure(self):
        rows = [r for r in self.rows() if r['variant'] != 'batched_syscall_events']
        self.assertIn('n/a   the syscall events are among them',
                      '\n'.join(distro.bench_claims(rows, self.VULNS)))

    def test_render(self):
        data = results.load()
        data.pop('distro_bench', None)
        self.assertIn('Not measured yet', results.render_distro_figures(data))
        data['distro_bench'] = {
            'meta': {'date': '2026-11-27 17:00:00 +0000', 'base': '7.3.4', 'commit': 'abc1234',
                     'config': 'cloud-amd64', 'mode': 'tcg -icount shift=0',
                     'append': 'kunit.enable=0 spectre_v2=retpoline retbleed=stuff',
                     'vulnerabilities': self.VULNS},
            'claims': [c.strip() for c in distro.bench_claims(self.rows(), self.VULNS)],
            'rows': self.rows()}
        out = results.render_distro_figures(data)
        self.assertIn('| all 900 events (700 syscall events) on, then off: IPI rounds '
                      '(200 pokes) | 6 | one by one 5000 |', out)
        self.assertIn('| enabled, one empty probe (loop included) | 25 | tracepoint 25 |', out)
        self.assertIn(self.VULNS[1], out)
        import json
        self.assertEqual(json.loads(results.dump(data)), data)


FN_LIB = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'linux', 'tools',
                      'testing', 'selftests', 'static_keys', 'fail_nth_lib.sh')

# A made-up static_keys/keys: a vmlinux tracepoint key with two sites, a
# module's tracepoint key, a key counted once per event (as
# i2c_trace_msg_key), and an unrelated key.
def import_debug():
    """scripts/debug.py, the environment it sets at import (B, JOBS)
    put back."""
    saved = {k: os.environ.get(k) for k in ('B', 'JOBS')}
    try:
        import debug
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return debug


FN_KEYS = """# key enabled count default owner sites mismatch
__tracepoint_sys_enter {sw} false vmlinux 2 {sw_m}
__tracepoint_foo [mymod] {foo} false mymod 1 {foo_m}
shared_key {sh} false vmlinux 1 {sh_m}
sched_smt_present 1 1 false vmlinux 1 0
"""

# A made-up operation for fail_nth_sweep: switches the three keys on,
# with a fault point before each; $FN_BUG leaves a site of sys_enter
# unpatched (a mismatch count of 1).
FN_OP = r"""#!/bin/bash
. "$FN_T/lib.sh"
n=$1 done=0
for k in sw foo sh; do
	if [ "$n" -ne 0 ] && [ $((done + 1)) -eq "$n" ]; then
		echo "err ENOMEM injected=1 points=$n"; exit 0
	fi
	done=$((done + 1)); on $k
done
echo "ok 0 injected=0 points=3"
"""


class FailNthLibTest(unittest.TestCase):
    """fail_nth_lib.sh's half-switched check (fn_half), its key filter
    and fail_nth_sweep, on made-up static_keys listings and a made-up
    operation: the kselftest sweeps run only on the debug kernel,
    outside CI."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name
        os.makedirs(os.path.join(self.d, 'static_keys'))
        os.makedirs(os.path.join(self.d, 'fn'))

    def tearDown(self):
        self.tmp.cleanup()

    def listing(self, on=(), events='', mismatch=None, sh='0 0'):
        """Keys in on switched on (sw, foo: count 1; sh: count sh), no
        site mismatched unless mismatch gives a count (sw, foo, sh)."""
        val = {k: ('1 1' if k in on else '0 0') for k in ('sw', 'foo')}
        val['sh'] = sh if 'sh' in on else '0 0'
        for k in ('sw', 'foo', 'sh'):
            val[k + '_m'] = (mismatch or {}).get(k, 0)
        with open(os.path.join(self.d, 'static_keys', 'keys'), 'w') as f:
            f.write(FN_KEYS.format(**val))
        with open(os.path.join(self.d, 'set_event'), 'w') as f:
            f.write(events)

    def sh(self, script, env=None):
        return subprocess.run(['bash', '-c', f'. "{FN_LIB}"; FN_DEBUGFS="{self.d}"; '
                               f'FN_SET_EVENT="{self.d}/set_event"; FN_TMP="{self.d}/fn"; '
                               + script], capture_output=True, text=True, check=False,
                              timeout=120, env=dict(os.environ, **(env or {})))

    def reference(self, done=('sw', 'foo', 'sh'), sh='1 4'):
        """before = prepared: every key off; done: those in done on."""
        self.listing()
        self.assertEqual(self.sh('fn_snap $FN_TMP/before && fn_snap $FN_TMP/prepared && '
                                 'fn_events $FN_TMP/prepared.events').returncode, 0)
        self.listing(done, 'raw_syscalls:sys_enter\nmymod:foo\n', sh=sh)
        r = self.sh('fn_snap $FN_TMP/done && fn_events $FN_TMP/done.events && fn_touched $FN_TMP/before $FN_TMP/prepared '
                    '$FN_TMP/done && sort $FN_TMP/touched')
        names = {'sw': '__tracepoint_sys_enter', 'foo': '__tracepoint_foo [mymod]',
                 'sh': 'shared_key'}
        self.assertEqual(r.stdout.splitlines(), sorted(names[k] for k in done))

    def half(self, res):
        return self.sh(f'fn_half {res}')

    def test_as_after(self):
        self.reference()
        self.assertEqual(self.half('ok').returncode, 0)

    def test_failure_leaves_some_keys_switched(self):
        """After a failure each key as before or as after, a count in
        between (a key counted per event) included; not after a success."""
        self.reference()
        self.listing(('foo', 'sh'), 'mymod:foo\n', sh='1 2')
        self.assertEqual(self.half('err').returncode, 0)
        r = self.half('ok')
        self.assertNotEqual(r.returncode, 0)
        self.assertIn('key __tracepoint_sys_enter not as after the operation succeeded',
                      r.stdout)

    def test_site_not_patched(self):
        """Named with its sites; the other keys' sites are not listed."""
        self.reference()
        self.listing(('sw',), 'raw_syscalls:sys_enter\n', mismatch={'sw': 1})
        with open(os.path.join(self.d, 'static_keys', 'sites'), 'w') as f:
            f.write('# address size insn key\n'
                    'syscall_enter+0x10/0x200 5 jmp __tracepoint_sys_enter\n'
                    'syscall_enter+0x30/0x200 0 ? __tracepoint_sys_enter\n'
                    'x+0x1/0x2 5 jmp sched_smt_present\n')
        r = self.half('err')
        self.assertNotEqual(r.returncode, 0)
        self.assertEqual(r.stdout.splitlines(), [
            'key __tracepoint_sys_enter: enabled 1, 1 of 2 sites not patched to match',
            '  syscall_enter+0x10/0x200 5 jmp __tracepoint_sys_enter',
            '  syscall_enter+0x30/0x200 0 ? __tracepoint_sys_enter'])

    def test_module_site_not_patched(self):
        """A module's key is named with its module, and so are its sites."""
        self.reference()
        self.listing(('foo',), '', mismatch={'foo': 1})
        with open(os.path.join(self.d, 'static_keys', 'sites'), 'w') as f:
            f.write('# address size insn key\n'
                    'foo_fn+0x10/0x80 [mymod] 0 ? __tracepoint_foo [mymod]\n'
                    'syscall_enter+0x10/0x200 5 jmp __tracepoint_sys_enter\n')
        r = self.half('err')
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout.splitlines(), [
            'key __tracepoint_foo [mymod]: enabled 1, 1 of 1 sites not patched to match',
            '  foo_fn+0x10/0x80 [mymod] 0 ? __tracepoint_foo [mymod]'])

    def test_site_patched_key_unchanged(self):
        """A key no operation touched is checked too."""
        self.reference(done=('sw',))
        self.listing((), '', mismatch={'sh': 1})
        r = self.half('err')
        self.assertNotEqual(r.returncode, 0)
        self.assertIn('key shared_key: enabled 0, 1 of 1 sites', r.stdout)

    def test_event_listed_key_off(self):
        """syscall events map to sys_enter; module keys lose " [mod]"."""
        self.reference()
        self.listing((), 'syscalls:sys_enter_read\nmymod:foo\n')
        r = self.half('err')
        self.assertIn('event syscalls:sys_enter_read listed, its tracepoint key off', r.stdout)
        self.assertIn('event mymod:foo listed, its tracepoint key off', r.stdout)

    def test_event_set(self):
        """A success lists exactly the events of the unfaulted run; a
        failure only events listed before or after it."""
        self.reference()
        self.listing(('sw', 'foo', 'sh'), 'raw_syscalls:sys_enter\n', sh='1 4')
        self.assertEqual(self.half('err').returncode, 0)
        r = self.half('ok')
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout.splitlines(), [
            'the operation succeeded, 1 of the 2 events listed after its unfaulted run '
            'not listed:', '  mymod:foo'])
        self.listing(('sw', 'foo', 'sh'), 'raw_syscalls:sys_enter\nmymod:foo\nmymod:bar\n',
                     sh='1 4')
        for res in ('ok', 'err'):
            r = self.half(res)
            self.assertEqual(r.returncode, 1)
            self.assertIn('event mymod:bar listed, neither before nor after the operation',
                          r.stdout)

    def test_extra_check(self):
        self.reference()
        r = self.sh('extra() { echo "extra $1"; return 1; }; FN_HALF_EXTRA=extra; fn_half ok')
        self.assertNotEqual(r.returncode, 0)
        self.assertEqual(r.stdout, 'extra ok\n')
        r = self.sh('extra() { return 0; }; FN_HALF_EXTRA=extra; fn_half ok')
        self.assertEqual(r.returncode, 0)

    def test_no_listing(self):
        self.reference()
        os.remove(os.path.join(self.d, 'static_keys', 'keys'))
        self.assertNotEqual(self.half('ok').returncode, 0)

    def test_shared_symbol(self):
        """Keys that share a symbol (an array of keys) are compared each
        on its own: the one the operation switches is touched, the other
        stays among the untouched keys, which another user may switch
        between attempts; a mismatch names the symbol's sites."""
        keys = os.path.join(self.d, 'static_keys', 'keys')

        def write(first, second, mismatch=0):
            with open(keys, 'w') as f:
                f.write('# key enabled count default owner sites mismatch\n'
                        f'arr {first} false vmlinux 1 0\n'
                        f'arr {second} false vmlinux 1 {mismatch}\n'
                        'mkey [mymod] 0 0 false mymod 1 0\n'
                        'mkey [mymod] 0 0 false mymod 1 0\n')
        write('0 0', '0 0')
        self.assertEqual(self.sh('fn_snap $FN_TMP/before && fn_snap $FN_TMP/prepared')
                         .returncode, 0)
        write('1 1', '0 0')
        r = self.sh('fn_snap $FN_TMP/done && fn_touched $FN_TMP/before $FN_TMP/prepared '
                    '$FN_TMP/done && cat $FN_TMP/touched && '
                    'fn_keys "" untouched | cut -f1')
        self.assertEqual(r.stdout.splitlines(), ['arr', 'arr#2', 'mkey [mymod]',
                                                 'mkey#2 [mymod]'])
        write('1 1', '1 1')
        self.assertEqual(self.half('ok').returncode, 0)
        with open(os.path.join(self.d, 'static_keys', 'sites'), 'w') as f:
            f.write('# address size insn key\nf+0x1/0x9 5 jmp arr\ng+0x1/0x9 0 ? arr\n')
        write('1 1', '1 1', mismatch=1)
        r = self.half('ok')
        self.assertEqual(r.stdout.splitlines(), [
            'key arr#2: enabled 1, 1 of 1 sites not patched to match',
            '  f+0x1/0x9 5 jmp arr', '  g+0x1/0x9 0 ? arr'])

    def test_filter(self):
        self.reference(done=('sw',))
        self.listing()
        r = self.sh('{ echo other; fail_nth_keys; } | fn_filter')
        self.assertEqual(r.stdout.splitlines(),
                         ['other', 'key: __tracepoint_sys_enter\t0 0 false vmlinux 2 0'])
        r = self.sh('fn_keys "" untouched')
        self.assertEqual(len(r.stdout.splitlines()), 3)
        self.assertNotIn('sys_enter', r.stdout)
        r = self.sh('fn_keys "K " touched')
        self.assertEqual(r.stdout, 'K __tracepoint_sys_enter\t0 0 false vmlinux 2 0\n')
        # within a sweep, once the touched keys are known, fail_nth_keys
        # lists only those
        r = self.sh('FN_NARROW=touched fail_nth_keys')
        self.assertEqual(r.stdout, 'key: __tracepoint_sys_enter\t0 0 false vmlinux 2 0\n')

    def sweep(self, bug='', env=None, undo_bug='', state='fail_nth_keys'):
        """fail_nth_sweep of FN_OP: 3 fault points, the keys undone;
        undo_bug 'other' or 'touched': the third undo (fault point 2)
        also switches an untouched key off, or leaves foo on."""
        lib = os.path.join(self.d, 'lib.sh')
        with open(lib, 'w') as f:
            f.write(f'D="{self.d}/static_keys"\n'
                    'on() { case $1 in\n'
                    '  sw) if [ -n "$FN_BUG" ]; then m=1; else m=0; fi\n'
                    '      sed -i "s/^__tracepoint_sys_enter 0 0 \\(.*\\) 0$/'
                    '__tracepoint_sys_enter 1 1 \\1 $m/" $D/keys ;;\n'
                    '  foo) sed -i "s/^\\(__tracepoint_foo .*\\) 0 0/\\1 1 1/" $D/keys ;;\n'
                    '  sh) sed -i "s/^shared_key 0 0/shared_key 1 1/" $D/keys ;;\n'
                    '  esac; }\n')
        helper = os.path.join(self.d, 'op')
        with open(helper, 'w') as f:
            f.write(FN_OP)
        os.chmod(helper, 0o755)
        self.listing()
        with open(os.path.join(self.d, 'static_keys', 'keys'), 'a') as f:
            f.write('zz_key 0 0 false vmlinux 1 0\n')
        return self.sh(f'state() {{ {state}; }}; ' 'undo() { . "$FN_T/lib.sh"; '
                       f'cp "$FN_T/keys0" "{self.d}/static_keys/keys"; '
                       'undos=$((undos + 1)); [ $undos -eq 3 ] || return 0; '
                       'case $FN_UNDO_BUG in '
                       'other) sed -i "s/^sched_smt_present 1 1/sched_smt_present 0 0/" '
                       f'"{self.d}/static_keys/keys" ;; '
                       'touched) on foo ;; '
                       'reorder) sed -i "/^sched_smt/{h;d}; /^zz_key/G" '
                       f'"{self.d}/static_keys/keys" ;; '
                       f'gone) rm "{self.d}/static_keys/keys" ;; esac; }}; undos=0; '
                       f'cp "{self.d}/static_keys/keys" "$FN_T/keys0"; '
                       'fail_nth_sweep op state undo : -- x',
                       env=dict({'FN_T': self.d, 'FN_HELPER': helper, 'FN_BUG': bug,
                                 'FN_UNDO_BUG': undo_bug}, **(env or {})))

    def test_sweep(self):
        r = self.sweep()
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn('# op: 3 static keys touched', r.stdout)
        self.assertIn('# op: 3 fault points swept of 3, 3 ENOMEM', r.stdout)

    def test_range(self):
        """FAIL_NTH_FROM and FAIL_NTH_TO: only those points; a range
        ending before the unfaulted run says so, one past the last point
        or not a range fails."""
        r = self.sweep(env={'FAIL_NTH_FROM': '2', 'FAIL_NTH_TO': '2'})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn('# op: 1 fault points swept at n = 2 to 2 of about 3, 1 ENOMEM, '
                      '0 succeeded with the allocation failed, 0 other; '
                      'not run to the unfaulted end', r.stdout)
        r = self.sweep(env={'FAIL_NTH_FROM': '02'})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn('# op: 2 fault points swept at n = 2 to the end of 3, 2 ENOMEM', r.stdout)
        self.assertIn('unfaulted at n = 4', r.stdout)
        # Past the last point: another range's points, a skip (KSFT_SKIP).
        r = self.sweep(env={'FAIL_NTH_FROM': '5'})
        self.assertEqual(r.returncode, 4)
        self.assertIn('# op: no fault point at n >= 5 (about 3 in all)', r.stdout)
        # Sampled within a range: n = 2, then 4 (unfaulted).
        r = self.sweep(env={'FAIL_NTH_FROM': '2', 'FAIL_NTH_MAX': '2'})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn('# op: 1 fault points swept at n = 2 to the end (every 2th) of 3',
                      r.stdout)
        for bad, why in ((('3', '2'), 'not a range of points'), (('x', ''), 'not a number'),
                         (('0', ''), 'not a range of points'), (('1:2', ''), 'not a number'),
                         (('1', '2:3'), 'FAIL_NTH_TO=2:3: not a number')):
            r = self.sweep(env={'FAIL_NTH_FROM': bad[0], 'FAIL_NTH_TO': bad[1]})
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn(why, r.stdout)

    def test_sweep_undo_leaves_a_change(self):
        """After an attempt's undo the touched keys must be as before the
        sweep and the others as before the attempt."""
        r = self.sweep(undo_bug='touched')
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn('# op: fault point 2 (err ENOMEM injected=1 points=2): state differs '
                      'afterwards', r.stdout)
        self.assertIn('# > key: __tracepoint_foo [mymod]\t1 1 false mymod 1 0', r.stdout)
        r = self.sweep(state=':')
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        # An untouched key changed, with and without fail_nth_keys in
        # STATE (the sweep reads the keys then); the same keys in
        # another order; a listing that cannot be read.
        for bug, state, diff in (('other', 'fail_nth_keys', '> sched_smt_present\t0 0 false '
                                  'vmlinux 1 0'),
                                 ('other', ':', '< sched_smt_present\t1 1 false vmlinux 1 0'),
                                 ('reorder', 'fail_nth_keys', '< sched_smt_present\t1 1'),
                                 ('gone', ':', 'static_keys/keys not read')):
            r = self.sweep(undo_bug=bug, state=state)
            self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
            self.assertIn('# op: fault point 2 (err ENOMEM injected=1 points=2): a key it '
                          'does not touch changed', r.stdout)
            self.assertIn('# ' + diff, r.stdout)

    def test_sweep_half_switched(self):
        r = self.sweep(bug='1')
        self.assertNotEqual(r.returncode, 0)
        self.assertIn('# op: half switched without a fault', r.stdout)

    def test_only(self):
        """FAIL_NTH_ONLY: a test whose description does not match skips
        without sweeping; unset, every test sweeps."""
        script = ('ktap_test_skip() { echo "skip $*"; }; ktap_test_pass() { echo "pass $*"; }; '
                  'ktap_test_fail() { echo "fail $*"; }; '
                  'fail_nth_sweep() { echo "swept $*"; [ "$1" = a ]; }; '
                  'fail_nth_test "raw_tp link" a b; fail_nth_test "module load" c d')
        r = self.sh(script, env={'FAIL_NTH_ONLY': 'raw_tp|nothing'})
        self.assertEqual(r.stdout.splitlines(),
                         ['swept a b', 'pass raw_tp link',
                          'skip module load (not in FAIL_NTH_ONLY)'])
        r = self.sh(script, env={'FAIL_NTH_ONLY': ''})
        self.assertEqual(r.stdout.splitlines(),
                         ['swept a b', 'pass raw_tp link', 'swept c d', 'fail module load'])
        skip = script.replace('[ "$1" = a ]', 'return 4')
        r = self.sh(skip, env={'FAIL_NTH_ONLY': 'raw_tp'})
        self.assertEqual(r.stdout.splitlines()[1],
                         'skip raw_tp link (no fault point from FAIL_NTH_FROM on)')
        r = self.sh(script, env={'FAIL_NTH_ONLY': '('})
        self.assertEqual(r.stdout.splitlines(),
                         ['fail raw_tp link (FAIL_NTH_ONLY: not an extended regex)',
                          'fail module load (FAIL_NTH_ONLY: not an extended regex)'])


BATCH_LIB = os.path.join(os.path.dirname(FN_LIB), 'batch_lib.sh')


class BatchLibTest(unittest.TestCase):
    """batch_lib.sh's reading of static_keys/keys: module keys' names
    are two fields, the mismatch count is the last one."""

    def run_lib(self, keys, script):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'keys')
            with open(path, 'w') as f:
                f.write(keys)
            return subprocess.run(['bash', '-c', f'. "{BATCH_LIB}"; KEYS="{path}"; {script}; '
                                   'rm -rf "$BATCH_TMP"'],
                                  capture_output=True, text=True, check=False, timeout=60)

    def test_keys(self):
        keys = FN_KEYS.format(sw='1 1', foo='1 2', sh='0 0', sw_m=0, foo_m=2, sh_m=0)
        r = self.run_lib(keys, 'keys_enabled; echo "on $(tp_keys_on)"; mismatched')
        self.assertEqual(r.stdout.splitlines(), [
            '__tracepoint_sys_enter 1', '__tracepoint_foo [mymod] 1', 'shared_key 0',
            'sched_smt_present 1', 'on 2',
            '__tracepoint_foo [mymod] 1 2 false mymod 1 2'])

    def test_no_mismatch_count(self):
        r = self.run_lib('# key enabled count default owner sites\nk 0 0 false vmlinux 1\n',
                         'mismatched')
        self.assertIn('no mismatch count in', r.stdout)


if __name__ == '__main__':
    unittest.main()
