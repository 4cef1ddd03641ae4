#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make distro-test: the series on Debian's own kernel configurations.

Each row builds the series on the base tree (mk.step_tree) with one of
Debian's configs from the pinned linux-config package of the base's
suite (bases.CONFIGS), in a build directory of its own
(build-distro-<row>/), boots it and runs KUnit and the static_keys and
markers kselftests with test.sh:

  cloud     config.amd64_none_cloud-amd64
  rt        config.amd64_none_rt-amd64 (PREEMPT_RT)
  rt-debug  config.amd64_none_rt-amd64 + configs/debug-rt.config

The config: Debian's, with the module signing key options pointed at
a key the build generates (set_options(), KEY_OPTIONS), olddefconfig
for this host's toolchain, mod2noconfig (every =m becomes =n: no
module the tests do not ask for is built), the test kernel's
fragments (distro_fragments()) merged, olddefconfig.  Every option a
fragment asks for must stick, and so must Debian's own options of
DEBIAN_KEEP; the built-in options Debian has that did not stay are
listed in logs/config-report.txt.

The guest boots with Debian's defaults (no lockdown unless the config
forces it) on -cpu Skylake-Client with spectre_v2=retpoline
retbleed=stuff (TCG's automatic choices follow the emulated CPU), and
records /sys/devices/system/cpu/vulnerabilities; markers:stress.sh,
which takes a CPU offline and back, runs in a second guest booted
without retbleed=stuff (HOTPLUG_TESTS: a base kernel bug).

Usage: distro.py cloud|rt|rt-debug|all, or distro.py bench (make
distro-bench: make bench's guest script on the cloud row's kernel).  Environment: as scripts/mk.py;
B applies to a single row (default build-distro-<row>/), JOBS defaults
to 2, NICE (of the builds) to 10, VM_TIMEOUT to 3600 s.
"""

import collections
import hashlib
import json
import lzma
import math
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bases  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

Row = collections.namedtuple('Row', 'flavour extra rt')
ROWS = {
    # bench.config: the two benchmark modules, for make distro-bench
    'cloud': Row('cloud-amd64', ('bench.config',), False),
    'rt': Row('rt-amd64', (), True),
    # debug-rt.config: lockdep and the context checks, no KASAN (its
    # comment says why)
    'rt-debug': Row('rt-amd64', ('debug-rt.config',), True),
}
ORDER = list(ROWS)


def row_dir(name):
    return os.path.join(ROOT, f'build-distro-{name}')


# mk reads B, JOBS and NICE at import time.
# make distro-bench measures on the cloud row's kernel (BENCH_ROW).
BENCH_ROW = 'cloud'
if __name__ == '__main__' and len(sys.argv) == 2 and sys.argv[1] in list(ROWS) + ['bench']:
    os.environ['B'] = os.path.abspath(
        os.environ.get('B') or row_dir(BENCH_ROW if sys.argv[1] == 'bench' else sys.argv[1]))
if __name__ == '__main__':
    # make exports these empty when the command line leaves them out
    for _k, _v in (('JOBS', '2'), ('NICE', '10')):
        os.environ[_k] = os.environ.get(_k) or _v

import mk  # noqa: E402

TIMEOUT = 3600
# run_kselftest.sh's per-test timeout (test.sh passes it as -o): the
# collections' own 300 s is too short for a debug kernel under TCG.
KSFT_TIMEOUT = 900
CPU = 'Skylake-Client'
APPEND = ('spectre_v2=retpoline', 'retbleed=stuff')

# Module signing without Debian's certificates (linux-config drops the
# references; these say so explicitly): modules_install signs every
# module with the key the build generates, whose certificate vmlinux
# carries.
KEY_OPTIONS = {
    'CONFIG_SYSTEM_TRUSTED_KEYS': '""',
    'CONFIG_SYSTEM_REVOCATION_KEYS': '""',
    'CONFIG_MODULE_SIG_KEY': '"certs/signing_key.pem"',
    'CONFIG_MODULE_SIG_ALL': 'y',
}

# Debian's options that must survive the reduction and the fragments.
DEBIAN_KEEP = ['CONFIG_FTRACE_SYSCALLS', 'CONFIG_DEBUG_INFO_BTF', 'CONFIG_DYNAMIC_DEBUG',
               'CONFIG_KPROBES', 'CONFIG_LIVEPATCH', 'CONFIG_SECURITY_LOCKDOWN_LSM',
               'CONFIG_MODULE_SIG', 'CONFIG_X86_KERNEL_IBT', 'CONFIG_MITIGATION_RETPOLINE',
               'CONFIG_MITIGATION_CALL_DEPTH_TRACKING', 'CONFIG_MITIGATION_ITS']
DEBIAN_KEEP_RT = ['CONFIG_PREEMPT_RT']

# Fragments of the test kernel (mk.fragments()) left out on Debian's
# config: base.config makes tinyconfig a guest, which Debian's config
# already is (what mod2noconfig takes away is configs/distro/guest.config),
# and would switch Debian's preemption model (PREEMPT over cloud's
# PREEMPT_LAZY), NR_CPUS and MODULE_FORCE_UNLOAD; lockdown.config leaves
# modules unsigned (Debian has its lockdown options already);
# tracers.config and 7.3/tracers.config turn on the latency tracers and
# the test trace remote for ftracetest, which the rows do not run;
# fault-injection.config adds what Debian does not build (the kselftest
# case that needs it then skips, saying so).
SKIP_FRAGMENTS = ('base.config', 'lockdown.config', 'tracers.config',
                  'fault-injection.config', os.path.join('7.3', 'tracers.config'))
GUEST_FRAGMENT = os.path.join(ROOT, 'configs', 'distro', 'guest.config')


# ---------------------------------------------------------------- config (pure)

def parse_config(text):
    """{CONFIG_X: value} of a .config; "# CONFIG_X is not set" is 'n'."""
    got = {}
    for line in text.split('\n'):
        line = line.strip()
        m = re.match(r'^(CONFIG_\w+)=(.*)$', line)
        if m:
            got[m.group(1)] = m.group(2)
            continue
        m = re.match(r'^# (CONFIG_\w+) is not set$', line)
        if m:
            got[m.group(1)] = 'n'
    return got


def set_options(text, opts):
    """text with each option of opts {CONFIG_X: value} set ('n': "is not
    set"), replacing its line where it has one, appended where not;
    and the [(name, old, new)] that changed (old None: absent)."""
    def line(name, value):
        return f'# {name} is not set' if value == 'n' else f'{name}={value}'
    have = parse_config(text)
    out = []
    for raw in text.split('\n'):
        m = re.match(r'^(?:# )?(CONFIG_\w+)(?:=| is not set$)', raw.strip())
        if m and m.group(1) in opts:
            out.append(line(m.group(1), opts[m.group(1)]))
        else:
            out.append(raw)
    if out and out[-1] == '':
        out.pop()
    changed = []
    for name, value in opts.items():
        if name not in have:
            out.append(line(name, value))
        if have.get(name) != value:
            changed.append((name, have.get(name), value))
    return '\n'.join(out) + '\n', changed


def distro_fragments(frags, extra=()):
    """The test kernel's fragments (paths) without SKIP_FRAGMENTS, then
    the guest fragment, then extra (paths) last."""
    cfg = os.path.join(ROOT, 'configs')
    keep = [f for f in frags if os.path.relpath(f, cfg) not in SKIP_FRAGMENTS
            and f not in extra]
    return keep + [GUEST_FRAGMENT] + [e for e in extra if e not in keep]


def builtins_lost(before, after):
    """Options built in (=y) in before that are not in after."""
    return sorted(k for k, v in before.items() if v == 'y' and after.get(k, 'n') != 'y')


def turned_on(before, after):
    """Options y or m in after that were neither in before."""
    return sorted(k for k, v in after.items() if v in ('y', 'm') and
                  before.get(k, 'n') not in ('y', 'm'))


def config_problems(got, want, rt):
    """What is wrong with the final config got: a fragment's option that
    did not stick, a Debian option of DEBIAN_KEEP lost, a key option not
    as KEY_OPTIONS says (SYSTEM_REVOCATION_KEYS may be absent: it
    depends on SYSTEM_REVOCATION_LIST, which Debian leaves off)."""
    bad = [f'{k}={v} (got {got.get(k, "n")}) asked for by a fragment'
           for k, v in want.items() if got.get(k, 'n') != v]
    for k in DEBIAN_KEEP + (DEBIAN_KEEP_RT if rt else []):
        if got.get(k) != 'y':
            bad.append(f"{k}=y (got {got.get(k, 'n')}): Debian's option did not stay")
    for k, v in KEY_OPTIONS.items():
        if got.get(k, 'n') != v and not (k == 'CONFIG_SYSTEM_REVOCATION_KEYS' and k not in got):
            bad.append(f'{k}={v} (got {got.get(k, "n")}): module signing key option')
    return bad


def expected_lockdown(config):
    """The lockdown state Debian's config boots into without a
    lockdown= parameter (no EFI secure boot under QEMU's BIOS)."""
    if config.get('CONFIG_LOCK_DOWN_KERNEL_FORCE_CONFIDENTIALITY') == 'y':
        return 'confidentiality'
    if config.get('CONFIG_LOCK_DOWN_KERNEL_FORCE_INTEGRITY') == 'y':
        return 'integrity'
    return 'none'


# What the boot parameters ask for, as the vulnerabilities files say it.
MITIGATIONS = {
    'spectre_v2': r'^Mitigation: Retpolines',
    'retbleed': r'^Mitigation: Stuffing',
}


def mitigation_rows(text, label):
    """Rows for "grep . vulnerabilities/*" output: the mitigations the
    command line asks for were taken."""
    got = {}
    for line in text.split('\n'):
        m = re.match(r'^\S*/vulnerabilities/(\w+):(.*)$', line)
        if m:
            got[m.group(1)] = m.group(2).strip()
    rows = []
    for name, pat in MITIGATIONS.items():
        v = got.get(name)
        rows.append((f'{label}: {name} as asked ({pat[1:]})',
                     'ok' if v and re.search(pat, v) else 'fail', v or 'no such file'))
    return rows


SIG_MAGIC = b'~Module signature appended~\n'


def module_signed(data):
    """Whether a module's bytes (decompressed) end in a signature."""
    return data.endswith(SIG_MAGIC)


def read_module(path):
    if path.endswith('.xz'):
        return lzma.open(path).read()
    if path.endswith('.zst'):
        return subprocess.run(['zstd', '-dc', path], stdout=subprocess.PIPE,
                              check=True).stdout
    if path.endswith('.gz'):
        import gzip
        return gzip.open(path).read()
    with open(path, 'rb') as f:
        return f.read()


# 7.3's DEBUG_INFO_BTF depends on PAHOLE_VERSION >= 122 (lib/Kconfig.debug);
# Debian 12's dwarves has pahole 1.24.
PAHOLE_MIN = 122


def pahole_version(text):
    """pahole --version ("v1.24") as kconfig's PAHOLE_VERSION (124), or 0."""
    m = re.search(r'v?(\d+)\.(\d+)', text)
    return int(m.group(1)) * 100 + int(m.group(2)) if m else 0


def taint_unsigned(tainted):
    """TAINT_UNSIGNED_MODULE ('E', bit 13) in /proc/sys/kernel/tainted."""
    return bool(int(tainted) & (1 << 13))


# ---------------------------------------------------------------- steps

def config_text(row):
    configs = bases.fetch_configs(mk.BASE, mk.run, mk.log)
    path = os.path.join(configs, f'config.amd64_none_{row.flavour}.xz')
    if not os.path.exists(path):
        have = sorted(f for f in os.listdir(configs) if f.startswith('config.'))
        raise mk.HarnessError(f'{path} not in Debian\'s package; it has: {", ".join(have)}')
    with lzma.open(path, 'rt', encoding='utf-8') as f:
        return path, f.read()


def kconfig(target):
    mk.run(['make', '-C', mk.SRC, f'O={mk.OBJ}', target],
           logfile=os.path.join(mk.LOGS, f'config-{target}.log'))
    return mk.read(os.path.join(mk.OBJ, '.config'))


def check_pahole():
    """DEBUG_INFO_BTF needs pahole (dwarves, which step_deps installs)
    of at least PAHOLE_MIN; without it olddefconfig would drop BTF."""
    v = pahole_version(mk.output(['pahole', '--version']))
    if v < PAHOLE_MIN:
        raise mk.HarnessError(f'pahole {v // 100}.{v % 100:02d} is older than '
                              f'{PAHOLE_MIN // 100}.{PAHOLE_MIN % 100}, which 7.3\'s '
                              'DEBUG_INFO_BTF needs: install a newer dwarves')
    return v


def step_distro_config(row):
    """Debian's config reduced and merged with the test fragments into
    mk.OBJ/.config (redone only when an input changes)."""
    check_pahole()
    path, debian = config_text(row)
    frags = distro_fragments(mk.fragments(), tuple(os.path.join(ROOT, 'configs', e)
                                                   for e in row.extra))
    h = hashlib.sha256(debian.encode())
    for fr in frags:
        h.update(fr.encode() + mk.read(fr).encode())
    h.update(mk.read(os.path.join(mk.SRC, 'Makefile')).encode())
    h.update(json.dumps([KEY_OPTIONS, DEBIAN_KEEP, DEBIAN_KEEP_RT, row]).encode())
    digest = h.hexdigest()
    stamp = os.path.join(mk.OBJ, '.config.distro')
    report = os.path.join(mk.LOGS, 'config-report.txt')
    if (os.path.exists(os.path.join(mk.OBJ, '.config')) and os.path.exists(stamp) and
            mk.read(stamp) == digest):
        mk.log(f'config up to date ({os.path.relpath(report, ROOT)})')
        return
    os.makedirs(mk.OBJ, exist_ok=True)
    os.makedirs(mk.LOGS, exist_ok=True)
    mk.log(f'config: Debian\'s {os.path.relpath(path, ROOT)}')
    start, changed = set_options(debian, KEY_OPTIONS)
    with open(os.path.join(mk.OBJ, '.config'), 'w', encoding='utf-8') as f:
        f.write(start)
    for name, old, new in changed:
        mk.log(f'  {name}: {old if old is not None else "(absent)"} -> {new}')
    olddef = parse_config(kconfig('olddefconfig'))
    nomod = parse_config(kconfig('mod2noconfig'))
    mk.run([os.path.join(mk.SRC, 'scripts/kconfig/merge_config.sh'), '-m', '-O', mk.OBJ,
            os.path.join(mk.OBJ, '.config')] + frags, cwd=mk.SRC,
           logfile=os.path.join(mk.LOGS, 'config-merge.log'))
    final = parse_config(kconfig('olddefconfig'))
    deb = parse_config(debian)
    sections = [
        ('Debian built-ins lost to this host\'s toolchain (olddefconfig)',
         builtins_lost(deb, olddef)),
        ('built-ins lost with the modules (mod2noconfig)', builtins_lost(olddef, nomod)),
        ('built-ins the fragments turned off', builtins_lost(nomod, final)),
        ('options the fragments turned on', turned_on(nomod, final)),
    ]
    with open(report, 'w', encoding='utf-8') as f:
        f.write(f'# {path}\n# fragments: ' +
                ' '.join(os.path.relpath(fr, ROOT) for fr in frags) + '\n')
        for title, names in sections:
            f.write(f'\n## {title}: {len(names)}\n' +
                    ''.join(f'{n}={final.get(n, "n")}\n' for n in names))
    mods = sum(1 for v in deb.values() if v == 'm')
    mk.log(f'config: Debian has {mods} modules, the reduced config '
           f'{sum(1 for v in final.values() if v == "m")}; ' +
           '; '.join(f'{t}: {len(n)}' + (f' ({" ".join(n[:8])}{" ..." if len(n) > 8 else ""})'
                                          if n and i != 1 else '')
                     for i, (t, n) in enumerate(sections)) +
           f'   (report: {os.path.relpath(report, ROOT)})')
    bad = config_problems(final, mk.wanted_options(frags), row.rt)
    if bad:
        raise mk.HarnessError('the distro config is not what it must be:\n  ' +
                              '\n  '.join(bad))
    with open(stamp, 'w', encoding='utf-8') as f:
        f.write(digest)


def share_base(name):
    """Give this row's build dir the base tree another row extracted
    (hard links, no second extraction), when it has none."""
    base = os.path.join(mk.B, 'base')
    if os.path.isfile(os.path.join(base, 'Makefile')):
        return
    for other in ORDER:
        o = os.path.join(row_dir(other), 'base')
        if other != name and os.path.exists(o + '.from') and \
                os.path.isfile(os.path.join(o, 'Makefile')):
            mk.log(f'base tree: hard links to {os.path.relpath(o, ROOT)}')
            os.makedirs(mk.B, exist_ok=True)
            shutil.rmtree(base, ignore_errors=True)
            mk.link_tree(o, base)
            shutil.copyfile(o + '.from', base + '.from')
            return


def signed_rows(res, label):
    mods = []
    for d, _, files in os.walk(os.path.join(mk.OBJ, '.virtme_mods', 'lib', 'modules')):
        mods += [os.path.join(d, f) for f in files if re.search(r'\.ko(\.\w+)?$', f)]
    unsigned = [os.path.basename(m) for m in mods if not module_signed(read_module(m))]
    res.add(f'{label}: the {len(mods)} installed modules are signed',
            'fail' if unsigned or not mods else 'ok',
            ('unsigned: ' + ' '.join(unsigned[:10])) if unsigned else
            ('' if mods else 'no module installed'))


# markers:stress.sh takes CPU 1 offline and back while batches apply.
# On 7.3.4 booted with retbleed=stuff, bringing a CPU back after
# free_initmem() triple-faults: the call to verify_cpu() in
# secondary_startup_64 goes through its call depth accounting thunk,
# which adds to __x86_call_depth at its link-time per-CPU address
# (GS base still 0), in the freed and unmapped init sections.  Pristine
# 7.3.4 does the same (doc/distro-test.md), so that test runs
# in a guest of its own booted without retbleed=stuff.
HOTPLUG_TESTS = ('markers:stress.sh',)
HOTPLUG_APPEND = ('spectre_v2=retpoline',)
COLLECTIONS = ('static_keys', 'markers')

# The rt-debug row (configs/debug-rt.config: lockdep, RCU, atomic-sleep
# and object checks) is several times slower under TCG than the rt row,
# as make test-debug's kernel is, so its guests follow make test-debug's
# (scripts/debug.py): its timeouts (DEBUG_TIMEOUT, DEBUG_KSFT_TIMEOUT),
# its split of the main guest (debug-2's kselftests, twice the
# per-test time, in '-2'; KUnit and the rest in '-1') and two guests
# side by side, one per host core.  Its fail_nth.sh sweeps (SWEEP_PARTS)
# take hours there: they are make fault-sweep's (issue 29), not this
# row's.  guest_rows() takes all of these from debug.py.
DebugSplit = collections.namedtuple('DebugSplit', 'timeout ksft_timeout heavy sweeps')

Guest = collections.namedtuple('Guest', 'suffix tests append kunit timeout ksft_timeout')


def is_debug_row(row):
    """A row with a debug fragment (configs/debug*.config) takes the
    DebugSplit."""
    return any(e.startswith('debug') for e in row.extra)


def debug_split(debug):
    """The DebugSplit of scripts/debug.py (the module): make test-debug's
    timeouts, debug-2's kselftests and the sweeps' (KSFT_TESTS words)."""
    heavy = next(p for p in debug.DEBUG_PARTS if p.name == 'debug-2').tests.split()
    sweeps = [w for p in debug.SWEEP_PARTS for w in p.tests.split()]
    return DebugSplit(debug.DEBUG_TIMEOUT, debug.KSFT_TIMEOUT, tuple(heavy), tuple(sweeps))


def guests(installed, split=None):
    """[Guest]: the main guest runs KUnit and every installed static_keys
    and markers kselftest but HOTPLUG_TESTS, with APPEND; the second
    guest those.  With a DebugSplit, a debug row's: the main guest split
    in two (split.heavy in '-2', longest first), split.sweeps left out,
    its timeouts (twice the kselftest's for '-2' and the hotplug guest,
    as debug-2's)."""
    main = [t for t in installed if t.split(':')[0] in COLLECTIONS and t not in HOTPLUG_TESTS]
    hot = [t for t in HOTPLUG_TESTS if t in installed]
    if not split:
        out = [Guest('', main, APPEND, True, TIMEOUT, KSFT_TIMEOUT)]
        if hot:
            out.append(Guest('-hotplug', hot, HOTPLUG_APPEND, False, TIMEOUT, KSFT_TIMEOUT))
        return out
    vm, ksft = split.timeout, split.ksft_timeout
    heavy = [t for t in main if t in split.heavy]
    light = [t for t in main if t not in split.heavy and t not in split.sweeps]
    out = [Guest('-2', heavy, APPEND, False, vm, 2 * ksft)] if heavy else []
    out.append(Guest('-1', light, APPEND, True, vm, ksft))
    if hot:
        out.append(Guest('-hotplug', hot, HOTPLUG_APPEND, False, vm, 2 * ksft))
    return out


def guest_part(name, row, config, guest):
    """Boot the row's kernel, run distro.sh (test.sh) with the guest's
    KSFT_TESTS, return its rows."""
    import debug
    suffix, tests, append, kunit = guest.suffix, guest.tests, guest.append, guest.kunit
    label = f'distro {name}{suffix}'
    env = (f'KSFT_TESTS="{" ".join(tests)}" KUNIT={int(kunit)} MODTESTS={int(kunit)} '
           f'KSFT_TIMEOUT={guest.ksft_timeout} ')
    out, problems, text = mk.step_boot(env + mk.guest('distro.sh', '/tmp/results', mk.KSFT),
                                       f'distro-{name}{suffix}', timeout=guest.timeout,
                                       qemu_opts=f'-cpu {CPU}',
                                       append=append + (() if kunit else ('kunit.enable=0',)))
    problems += [p for p in debug.debug_problems(text) if p not in problems]
    res = mk.Results(quiet=True)
    vf = os.path.join(out, 'vulnerabilities.txt')
    vulns = mk.read(vf) if os.path.exists(vf) else ''
    mk.log(f'{label}: /sys/devices/system/cpu/vulnerabilities (-cpu {CPU}, '
           f'{" ".join(append)}):\n' + ''.join(
               '    ' + l.replace('/sys/devices/system/cpu/vulnerabilities/', '') + '\n'
               for l in vulns.strip().split('\n') if l))
    if append == APPEND:
        for r in mitigation_rows(vulns, label):
            res.add(*r)
    want = expected_lockdown(config)
    try:
        state = mk.read(os.path.join(out, 'lockdown.txt')).strip()
    except OSError:
        state = 'no lockdown.txt from the guest'
    res.add(f'{label}: lockdown LSM present, [{want}] as Debian\'s config boots',
            'ok' if f'[{want}]' in state else 'fail', state)
    try:
        uname_v = mk.read(os.path.join(out, 'uname.txt')).split('\n')[1]
    except (OSError, IndexError):
        uname_v = ''
    if row.rt:
        res.add(f'{label}: booted kernel is PREEMPT_RT', 'ok' if 'PREEMPT_RT' in uname_v
                else 'fail', uname_v)
    try:
        tainted = mk.read(os.path.join(out, 'tainted.txt')).strip()
        res.add(f'{label}: no unsigned module loaded (taint E)',
                'fail' if taint_unsigned(tainted) else 'ok', f'tainted={tainted}')
    except (OSError, ValueError):
        res.add(f'{label}: no unsigned module loaded (taint E)', 'fail',
                'no tainted.txt from the guest')
    mk.guest_rows(res, out, problems, text, label=label, kunit=kunit, modtests=kunit)
    timing = os.path.join(out, 'timing.txt')
    if os.path.exists(timing):
        mk.log(f'{label}: kselftest times: ' +
               ', '.join(f'{l.split()[0]} {l.split()[1]}s' for l in mk.read(timing).split('\n')
                         if len(l.split()) == 2))
    return res


def guest_rows(name, row, config):
    """The row's guests, one after the other, and a row checking that
    they run every static_keys and markers kselftest once."""
    res = mk.Results(quiet=True)
    try:
        installed = mk.read(os.path.join(mk.KSFT, 'kselftest-list.txt')).split()
    except OSError:
        installed = []
    debug_row = is_debug_row(row)
    split = None
    if debug_row:
        import debug
        split = debug_split(debug)
    parts = guests(installed, split)
    covered = [mk.Part(g.suffix or 'main', ' '.join(g.tests), 0) for g in parts]
    what = f'distro {name}: the guests run every static_keys and markers kselftest once'
    if debug_row:
        covered.append(mk.Part('fault-sweep', ' '.join(split.sweeps), 0))
        what += ' (the fail_nth.sh sweeps in make fault-sweep)'
    missed = mk.part_coverage(covered, collections=COLLECTIONS)
    res.add(what, 'fail' if missed else 'ok', '; '.join(missed[:5]))
    done = mk.run_lanes([(f'distro-{name}{g.suffix}',
                          lambda g=g: guest_part(name, row, config, g)) for g in parts],
                        lanes=2 if debug_row else 1)
    for g in parts:
        res.extend(done[f'distro-{name}{g.suffix}'][0])
    return res


def job_row(name):
    row = ROWS[name]
    t0 = time.time()
    times = {}
    res = mk.Results()
    results = os.path.join(mk.B, 'results.json')
    if os.path.exists(results):
        os.unlink(results)
    mk.step_deps()
    share_base(name)
    version = mk.step_tree()
    t = time.time()
    step_distro_config(row)
    times['config'] = round(time.time() - t)
    t = time.time()
    mk.step_build()
    times['build'] = round(time.time() - t)
    mk.log(f'distro {name}: config {times["config"]}s, build {times["build"]}s '
           f'(JOBS={mk.JOBS}, NICE={mk.NICE or 0}) in {os.path.relpath(mk.B, ROOT)}')
    config = parse_config(mk.read(os.path.join(mk.OBJ, '.config')))
    res.add(f'distro {name}: Debian {row.flavour} config reduced, fragments and '
            'Debian\'s key options stuck', 'ok')
    signed_rows(res, f'distro {name}')
    t = time.time()
    res.extend(guest_rows(name, row, config))
    times['guest'] = round(time.time() - t)
    times['total'] = round(time.time() - t0)
    with open(os.path.join(mk.B, 'times.json'), 'w', encoding='utf-8') as f:
        json.dump(times, f)
    res.save(results)
    mk.log(f'distro {name} on base Linux {version}: config {times["config"]}s, build '
           f'{times["build"]}s, guest {times["guest"]}s, total {times["total"]}s')
    print(res.summary())
    return 1 if res.failed() else 0


def job_all():
    """Every row in turn, each in its own process and build dir."""
    t0 = time.time()
    res = mk.Results(quiet=True)
    env = {k: v for k, v in os.environ.items() if k != 'B'}
    for name in ORDER:
        mk.log(f'== distro row {name}')
        subprocess.run([sys.executable, os.path.abspath(__file__), name], env=env,
                       check=False)
        try:
            with open(os.path.join(row_dir(name), 'results.json'), encoding='utf-8') as f:
                rows = json.load(f)
        except (OSError, ValueError):
            rows = [(f'distro {name}: ran', 'fail',
                     f'no results (config, build or boot failed; logs in '
                     f'{os.path.relpath(row_dir(name), ROOT)}/logs)')]
        for r in rows:
            label = r[0] if r[0].startswith(f'distro {name}') else f'distro {name}: {r[0]}'
            res.rows.append((label,) + tuple(r[1:]))
    mk.log(f'make distro-test took {time.time() - t0:.0f}s; results:')
    for r in res.rows:
        mk.Results.show(*r)
    print(res.summary())
    return 1 if res.failed() else 0


# ---------------------------------------------------------------- bench

# make distro-bench: make bench's guest script (scripts/guest/bench.sh)
# on the cloud row's kernel, booted as that row's main guest is
# (Debian's defaults, -cpu Skylake-Client, spectre_v2=retpoline
# retbleed=stuff), under -icount shift=0 as make bench's guests: its
# figures on the config users boot, with FTRACE_SYSCALLS and the
# mitigations on.  The row's config carries configs/bench.config for
# the two benchmark modules; their guest instruction counts understate
# what a retpoline costs in cycles.
BENCH_APPEND = ('kunit.enable=0',) + APPEND


def less(a, b):
    """a - b, or None when either figure is missing."""
    return a - b if a is not None and b is not None else None


def batch_goal(rows, case, variant):
    """IPI rounds a case's two writes (on, then off: the same sites each
    way) may take: 3 x ceil(pokes per write / text_poke batch size)
    each; None without the figures."""
    import bench
    pokes = bench.val(rows, 'guest', case, variant + '_pokes')
    vmax = bench.val(rows, 'guest', 'flip', 'batch_max', 0)
    if pokes is None or not vmax:
        return None
    return 2 * 3 * math.ceil(pokes / 2 / vmax)


def bench_figures(rows):
    """[(what, MARK or the series, against)] of the distro bench, in
    guest instructions, the empty loop subtracted as in make bench's
    README figures (not in the enabled row)."""
    import bench

    def g(c, v, n=None):
        return bench.val(rows, 'guest', c, v, n)

    f = bench.fmt
    nothing, rec0 = g('off', 'nothing'), g('record', 'nothing')
    ev = next((r['n'] for r in rows if r['case'] == 'events' and
               r['variant'] == 'batched_ipi_rounds'), None)
    dd = next((r['n'] for r in rows if r['case'] == 'dyndbg' and r['variant'] == 'all'), None)
    return [
        ('disabled site', f(less(g('off', 'mark'), nothing)),
         f'tracepoint {f(less(g("off", "tracepoint"), nothing))}'),
        ('enabled, one empty probe (loop included)', f(g('on', 'mark_1probe_empty')),
         f'tracepoint {f(g("on", "tracepoint_1probe_empty"))}'),
        ('record `"%d %p"` in the ring buffer', f(less(g('record', 'mark'), rec0)),
         f'TRACE_EVENT {f(less(g("record", "tracepoint"), rec0))}, trace_printk '
         f'{f(less(g("record", "trace_printk"), rec0))}'),
        ('BPF tracepoint program on the event', f(less(g('bpf', 'mark'), rec0)),
         f'on the TRACE_EVENT {f(less(g("bpf", "tracepoint"), rec0))}'),
        ('BPF raw tracepoint program', f(less(g('bpf_raw', 'mark'), rec0)),
         f'on the tracepoint {f(less(g("bpf_raw", "tracepoint"), rec0))}'),
        (f'all {f(ev)} events ({f(g("events", "batched_syscall_events"))} syscall events) '
         f'on, then off: IPI rounds ({f(g("events", "batched_pokes"))} pokes)',
         f(g('events', 'batched_ipi_rounds')),
         f'one by one {f(g("events", "one_by_one_ipi_rounds"))}'),
        (f'{f(dd)} `pr_debug()` sites on, then off: IPI rounds', f(g('dyndbg', 'all_ipi_rounds')),
         f'one control write per site {f(g("dyndbg", "one_by_one_ipi_rounds"))}'),
        ('1000 static keys on, then off: IPI rounds', f(g('flip', 'batch_ipi_rounds', 1000)),
         f'one by one {f(g("flip", "one_by_one_ipi_rounds", 1000))}'),
    ]


def bench_claims(rows, vulns):
    """make bench's claims that a distro kernel can show, and the batch
    goal of issue 28 for events/enable with the syscall events in it;
    first, that the guest took the mitigations its command line asks for
    (vulns: its vulnerabilities lines), which the enabled-site claim is
    about."""
    import bench

    def g(c, v, n=None):
        return bench.val(rows, 'guest', c, v, n)

    rec0 = g('record', 'nothing')
    off = less(g('off', 'mark'), g('off', 'nothing'))
    taken = [f'  {"meets" if st == "ok" else "MISSES":5s} {what.split(": ", 1)[1]}: {v}'
             for what, st, v in mitigation_rows('\n'.join(
                 '/sys/devices/system/cpu/vulnerabilities/' + v for v in vulns), 'guest')]
    return taken + [
        bench.claim_line('off = one NOP (MARK off - nothing, guest insns; want 1)', off, 1,
                         lambda a, b: round(a) <= b),
        bench.claim_line('MARK on (1 empty probe) <= tracepoint with 1 empty probe, '
                         'retpolines and call depth tracking on',
                         g('on', 'mark_1probe_empty'), g('on', 'tracepoint_1probe_empty'),
                         bench.insn_le),
        bench.claim_line('MARK record <= TRACE_EVENT record', less(g('record', 'mark'), rec0),
                         less(g('record', 'tracepoint'), rec0), bench.insn_le),
        bench.claim_line('BPF program on a marker event <= on the TRACE_EVENT',
                         less(g('bpf', 'mark'), rec0), less(g('bpf', 'tracepoint'), rec0),
                         bench.insn_le),
        bench.claim_line('raw tracepoint BPF program on a marker <= on the tracepoint',
                         less(g('bpf_raw', 'mark'), rec0), less(g('bpf_raw', 'tracepoint'), rec0),
                         bench.insn_le),
        bench.claim_line('events/enable with the syscall events, on then off: the static key '
                         'batches\' own IPI rounds <= 3 x ceil(pokes per write / batch size) '
                         'per write', g('events', 'batched_own_ipi_rounds'),
                         batch_goal(rows, 'events', 'batched'), lambda a, b: a <= b),
        bench.claim_line('the same, every IPI round of the writes (no text patched outside '
                         'the batch)', g('events', 'batched_ipi_rounds'),
                         batch_goal(rows, 'events', 'batched'), lambda a, b: a <= b),
        bench.claim_line('the syscall events are among them (syscall events while on, > 0)',
                         g('events', 'batched_syscall_events'), 0, lambda a, b: a > b),
        bench.claim_line('dynamic debug "+p" then "-p": IPI rounds <= 3 x ceil(pokes per '
                         'write / batch size) per write', g('dyndbg', 'all_ipi_rounds'),
                         batch_goal(rows, 'dyndbg', 'all'), lambda a, b: a <= b),
    ]


def bench_table(rows, vulns, title):
    """make distro-bench's table.txt; vulns: the guest's vulnerabilities
    lines, without their directory."""
    lines = [title, '']
    w = max(len(w) for w, _, _ in bench_figures(rows))
    for what, ours, against in bench_figures(rows):
        lines.append(f'  {what:{w}s}  {ours:>8s}   {against}')
    lines += ['', 'claims:'] + bench_claims(rows, vulns)
    lines += ['', f'/sys/devices/system/cpu/vulnerabilities (-cpu {CPU}, '
              f'{" ".join(APPEND)}):']
    lines += ['  ' + v for v in vulns]
    return '\n'.join(lines)


def job_bench():
    import bench
    import results
    row = ROWS[BENCH_ROW]
    t0 = time.time()
    mk.step_deps()
    share_base(BENCH_ROW)
    version = mk.step_tree()
    step_distro_config(row)
    mk.step_build()
    bench.build_host_prog()
    opts = ' '.join(filter(None, [None if bench.kvm() else '-icount shift=0', f'-cpu {CPU}']))
    out, text = bench.boot_csv('bench.sh', 'distro-bench', 'bench.csv', opts,
                               append=BENCH_APPEND, timeout=TIMEOUT)
    rows = bench.parse_csv(text, 'guest')
    vf = os.path.join(out, 'vulnerabilities.txt')
    vulns = [v.replace('/sys/devices/system/cpu/vulnerabilities/', '')
             for v in (mk.read(vf) if os.path.exists(vf) else '').strip().splitlines()]
    meta = {'date': time.strftime('%Y-%m-%d %H:%M:%S %z'), 'base': version,
            'config': row.flavour, 'mode': 'kvm' if bench.kvm() else 'tcg -icount shift=0',
            'append': ' '.join(BENCH_APPEND), 'elapsed_s': round(time.time() - t0),
            'vulnerabilities': vulns}
    tab = bench_table(rows, vulns, f'make distro-bench, {meta["date"]}, Linux {version}, '
                      f'Debian {row.flavour} config, {meta["mode"]}: guest instructions '
                      'per iteration')
    with open(os.path.join(out, 'results.json'), 'w', encoding='utf-8') as f:
        json.dump({'meta': meta, 'rows': rows}, f, indent=1)
    with open(os.path.join(out, 'table.txt'), 'w', encoding='utf-8') as f:
        f.write(tab + '\n')
    print(tab)
    mk.log(f'make distro-bench took {meta["elapsed_s"]}s; '
           f'{os.path.relpath(out, ROOT)}/table.txt, results.json')
    # A benchmark: its claims are reported, not asserted (as make bench).
    results.record_distro_bench(out)
    return 0


def main(argv):
    if len(argv) != 2 or argv[1] not in list(ROWS) + ['all', 'bench']:
        print(f'usage: {argv[0]} {"|".join(ORDER)}|all|bench', file=sys.stderr)
        return 2
    try:
        if argv[1] == 'bench':
            return job_bench()
        return job_all() if argv[1] == 'all' else job_row(argv[1])
    except (mk.HarnessError, bases.BaseError) as e:
        print(f'[distro] error: {e}', file=sys.stderr)
        print('0 passed, 1 failed, 0 skipped')
        return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
