#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make build-matrix: build the series where the kernel's build bots do.

For the base in BASE (default: every base, one after the other), each
row of VARIANTS is configured from tinyconfig plus the fragments and
options it names, built (bzImage/Image and modules), and the C files
the series adds or changes are compiled again with W=1: a warning in a
file the series adds, or one in a file it changes that the base's
version of that file does not have, fails the row.  Rows with "boot"
boot the kernel under QEMU TCG with no root file system: the built-in
KUnit suites run at boot and their KTAP is read from the console.

Results: one table on stdout and in <B>/matrix/table.txt, build dirs
under <B>/matrix/<row>/.  Not part of make test (several kernel builds).
"""

import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bases  # noqa: E402

# Fragments every x86_64 row starts from: what make test builds.
FULL = None
# What a bare KUnit boot needs on any architecture.
KUNIT_BOOT = ['CONFIG_PRINTK=y', 'CONFIG_KALLSYMS=y', 'CONFIG_TTY=y', 'CONFIG_BUG=y', 'CONFIG_MODULES=y',
              'CONFIG_DEBUG_FS=y', 'CONFIG_KUNIT=y', 'CONFIG_KUNIT_DEBUGFS=y',
              'CONFIG_JUMP_LABEL=y', 'CONFIG_MARKERS=y', 'CONFIG_MARKERS_KUNIT_TEST=y',
              'CONFIG_STATIC_KEY_BATCH_KUNIT_TEST=y', 'CONFIG_TRACEPOINT_BATCH_KUNIT_TEST=y',
              'CONFIG_SMP=y', 'CONFIG_PREEMPT=y',
              'CONFIG_SAMPLES=y', 'CONFIG_SAMPLE_MARKERS=m', 'CONFIG_RUNTIME_TESTING_MENU=y',
              # tracepoints, so that probes connect to them by name, and
              # the trace events' suite
              'CONFIG_FTRACE=y', 'CONFIG_MARKERS_TRACE=y',
              # BPF on trace events, so that every row builds the raw
              # tracepoint programs on markers (bpf_markers.c)
              'CONFIG_BPF_SYSCALL=y', 'CONFIG_PERF_EVENTS=y', 'CONFIG_KPROBES=y',
              'CONFIG_KPROBE_EVENTS=y', 'CONFIG_BPF_EVENTS=y', 'CONFIG_MARKERS_BPF=y']

CFI_OPT = 'CONFIG_CFI_CLANG=y' if os.environ.get('BASE') == '6.12' else 'CONFIG_CFI=y'

# name: (ARCH, make variables, fragments (None = make test's), options, boot)
VARIANTS = {
    'x86_64': ('x86_64', [], FULL, [], False),
    'x86_64-markers-n': ('x86_64', [], FULL, ['CONFIG_MARKERS=n'], False),
    'x86_64-jump-label-n': ('x86_64', [], FULL, ['CONFIG_JUMP_LABEL=n'], False),
    'i386': ('i386', [], [], KUNIT_BOOT + ['CONFIG_64BIT=n', 'CONFIG_SERIAL_8250=y',
                                           'CONFIG_SERIAL_8250_CONSOLE=y'], True),
    'arm64': ('arm64', ['CROSS_COMPILE=aarch64-linux-gnu-'], [],
              KUNIT_BOOT + ['CONFIG_SERIAL_AMBA_PL011=y', 'CONFIG_SERIAL_AMBA_PL011_CONSOLE=y'],
              True),
    'x86_64-clang': ('x86_64', ['LLVM=-19'], FULL, [], False),
    # kCFI checks every indirect call, the markers' probe calls included;
    # booted, the KUnit suites of the series (the trace events' one too)
    # call each kind of probe.  CFI_CLANG became CFI after 6.12.
    'x86_64-kcfi': ('x86_64', ['LLVM=-19'], [],
                    KUNIT_BOOT + [CFI_OPT, 'CONFIG_CFI_PERMISSIVE=n',
                                  'CONFIG_SERIAL_8250=y', 'CONFIG_SERIAL_8250_CONSOLE=y'],
                    True),
    # ThinLTO (unique names across units), IBT (ENDBR on every indirect
    # target) and call depth tracking (padding objtool must find), with
    # kCFI; objtool warnings fail the row.  Booted with retbleed=stuff on
    # a CPU model that selects it (QEMU_ROW).
    'x86_64-lto-cdt': ('x86_64', ['LLVM=-19'], [],
                       KUNIT_BOOT + [CFI_OPT, 'CONFIG_CFI_PERMISSIVE=n', 'CONFIG_LTO_CLANG_THIN=y',
                                     'CONFIG_X86_KERNEL_IBT=y', 'CONFIG_CPU_MITIGATIONS=y',
                                     'CONFIG_MITIGATION_RETPOLINE=y',
                                     'CONFIG_MITIGATION_CALL_DEPTH_TRACKING=y',
                                     'CONFIG_SERIAL_8250=y', 'CONFIG_SERIAL_8250_CONSOLE=y'],
                       True),
}
# Rows booted on another CPU model or with more kernel parameters, and
# the console line that proves the boot took them.
QEMU_ROW = {
    'x86_64-lto-cdt': ('Skylake-Client', 'retbleed=stuff spectre_v2=retpoline',
                       r'RETBleed: Mitigation: Stuffing'),
}
if os.environ.get('BASE') == '6.12':
    # Pristine 6.12.117 built with this row's config (no series) oopses
    # in uprobes_init() under retbleed=stuff (measured 2026-11-23, QEMU
    # TCG Skylake-Client, clang-19): a base bug, so the 6.12 row boots
    # with the call depth tracking code built and checked by objtool but
    # not selected.
    QEMU_ROW['x86_64-lto-cdt'] = ('Skylake-Client', 'spectre_v2=retpoline',
                                  r'RETBleed: Vulnerable')
PACKAGES = {'arm64': ['gcc-aarch64-linux-gnu', 'qemu-system-arm'],
            'x86_64-clang': ['clang-19', 'lld-19', 'llvm-19'],
            'x86_64-kcfi': ['clang-19', 'lld-19', 'llvm-19'],
            'x86_64-lto-cdt': ['clang-19', 'lld-19', 'llvm-19'],
            'i386': ['qemu-system-x86']}
QEMU = {
    'x86_64': ['qemu-system-x86_64', '-M', 'pc', '-cpu', 'max', '-smp', '2', '-m', '1G',
               '-append', 'console=ttyS0 panic=-1 kunit.enable=1'],
    'i386': ['qemu-system-i386', '-M', 'pc', '-cpu', 'max', '-smp', '2', '-m', '1G',
             '-append', 'console=ttyS0 panic=-1 kunit.enable=1'],
    'arm64': ['qemu-system-aarch64', '-M', 'virt', '-cpu', 'max', '-smp', '2', '-m', '1G',
              '-append', 'console=ttyAMA0 panic=-1 kunit.enable=1'],
}
IMAGE = {'x86_64': 'arch/x86/boot/bzImage', 'i386': 'arch/x86/boot/bzImage',
         'arm64': 'arch/arm64/boot/Image'}


def main():
    if os.environ.get('BASE'):
        return run_base()
    rc = 0
    for name in bases.BASES:
        env = dict(os.environ, BASE=name)
        env.pop('B', None)
        rc |= subprocess.run([sys.executable, os.path.abspath(__file__)], env=env,
                             check=False).returncode
    return rc


def run_base():
    import mk
    mk.step_deps()
    need = sorted({p for v in VARIANTS for p in PACKAGES.get(v, [])
                   if not subprocess.run(['dpkg', '-s', p], stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL).returncode == 0})
    if need and os.geteuid() == 0:
        mk.run(['apt-get', 'install', '-y', '-qq'] + need,
               env=dict(os.environ, DEBIAN_FRONTEND='noninteractive'),
               logfile=os.path.join(mk.LOGS, 'matrix-apt.log'))
    version = mk.step_tree()
    only = os.environ.get('MATRIX_ONLY', '').split()
    rows = []
    for name, spec in VARIANTS.items():
        if only and name not in only:
            continue
        t = time.time()
        status, detail = one(mk, name, *spec)
        rows.append((name, status, detail, time.time() - t))
        mk.log(f'matrix {name}: {status} {detail}')
    lines = [f'build matrix, base Linux {version} (BASE={mk.BASE.name}), '
             f'{time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}',
             f'  {"row":24s} {"result":6s} {"min":>4s}  detail']
    for name, status, detail, secs in rows:
        lines.append(f'  {name:24s} {status:6s} {secs / 60:4.0f}  {detail}')
    table = '\n'.join(lines) + '\n'
    os.makedirs(os.path.join(mk.B, 'matrix'), exist_ok=True)
    with open(os.path.join(mk.B, 'matrix', 'table.txt'), 'w', encoding='utf-8') as f:
        f.write(table)
    print(table)
    failed = sum(1 for r in rows if r[1] == 'FAIL')
    print(f'{len(rows) - failed} passed, {failed} failed')
    return 1 if failed else 0


def configure(mk, obj, arch, mvars, frags, opts):
    os.makedirs(obj, exist_ok=True)
    frag = os.path.join(obj, 'matrix.config')
    with open(frag, 'w', encoding='utf-8') as f:
        f.write('\n'.join(o if not o.endswith('=n') else f'# {o[:-2]} is not set'
                          for o in opts) + '\n')
    paths = mk.fragments() if frags is FULL else []
    base = ['make', '-C', mk.SRC, f'O={obj}', f'ARCH={arch}'] + mvars
    logf = os.path.join(obj, 'config.log')
    mk.run(base + ['tinyconfig'], logfile=logf)
    mk.run([os.path.join(mk.SRC, 'scripts/kconfig/merge_config.sh'), '-m', '-O', obj,
            os.path.join(obj, '.config')] + paths + [frag], cwd=mk.SRC,
           env=dict(os.environ, ARCH=arch), logfile=logf + '.merge')
    mk.run(base + ['olddefconfig'], logfile=logf + '.olddef')
    got = dict(re.findall(r'^(CONFIG_\w+)=(.*)$', mk.read(os.path.join(obj, '.config')), re.M))
    want = mk.wanted_options(paths + [frag])
    return [f'{k}={v} (got {got.get(k, "n")})' for k, v in want.items()
            # a variant of make test's config checks the options it sets;
            # what they turn off (JUMP_LABEL=n: the batch KUnit) may go
            if got.get(k, 'n') != v and (frags is not FULL or
                                         k in [o.split('=')[0] for o in opts])]


def series_objs(mk, obj):
    import checks
    files = checks.series_c_files(mk.ctx())
    return [f[:-2] + '.o' for f in files if os.path.exists(os.path.join(obj, f[:-2] + '.o'))]


def one(mk, name, arch, mvars, frags, opts, boot):
    obj = os.path.join(mk.B, 'matrix', name)
    # Objects and generated host tools of another base would be reused.
    stamp = os.path.join(obj, '.matrix-base')
    base = mk.kernel_version(mk.base_tree())
    if os.path.exists(stamp) and mk.read(stamp).strip() != base:
        shutil.rmtree(obj)
    os.makedirs(obj, exist_ok=True)
    with open(stamp, 'w', encoding='utf-8') as f:
        f.write(base + '\n')
    cc = [] if any(v.startswith('LLVM') for v in mvars) else [f'CC=ccache {cross(mvars)}gcc']
    try:
        bad = configure(mk, obj, arch, mvars, frags, opts)
        if bad:
            return 'FAIL', 'config: ' + '; '.join(bad[:3])
        make = ['make', '-C', mk.SRC, f'O={obj}', f'ARCH={arch}', f'-j{mk.JOBS}'] + mvars + cc
        target = os.path.basename(IMAGE[arch])
        rc = mk.run(make + [target, 'modules'], logfile=os.path.join(obj, 'build.log'),
                    check=False)
        if rc:
            errs = [l for l in mk.read(os.path.join(obj, 'build.log')).split('\n')
                    if re.search(r'error|undefined', l)]
            return 'FAIL', f'build exit {rc}: ' + ' | '.join(errs[:3])
        objtool = [l for l in mk.read(os.path.join(obj, 'build.log')).split('\n')
                   if re.search(r'warning: objtool:', l)]
        if objtool:
            return 'FAIL', f'{len(objtool)} objtool warnings: ' + ' | '.join(objtool[:3])
        objs = series_objs(mk, obj)
        for o in objs:
            os.unlink(os.path.join(obj, o))
        logf = os.path.join(obj, 'w1.log')
        rc = mk.run(make + ['W=1'] + objs, logfile=logf, check=False)
        warns = sorted({l for l in mk.read(logf).split('\n') if re.search(r'warning:', l)})
        new = new_warnings(mk, warns, make, obj)
        if rc or new:
            return 'FAIL', f'W=1 on {len(objs)} series files: exit {rc}; ' + ' | '.join(new[:3])
        detail = f'W=1 clean on {len(objs)} series files'
        if boot:
            kunit = boot_kunit(mk, name, arch, obj)
            if kunit[0] != 'ok':
                return 'FAIL', detail + '; ' + kunit[1]
            detail += '; ' + kunit[1]
        return 'ok', detail
    except mk.HarnessError as e:
        return 'FAIL', str(e).split('\n')[0][:200]


def cross(mvars):
    for v in mvars:
        if v.startswith('CROSS_COMPILE='):
            return v.split('=', 1)[1]
    return ''


def new_warnings(mk, warns, make, obj):
    """Warnings in files the series adds, or in files it changes that the
    base's version of the file does not have too (the base versions are
    compiled again, W=1, into the same object dir, then put back)."""
    base = mk.base_tree()
    changed = {}
    for w in warns:
        m = re.match(r'^(\S+?\.c):\d+', w)
        path = os.path.relpath(m.group(1), mk.SRC) if m else ''
        if path.endswith('.c') and os.path.exists(os.path.join(base, path)):
            changed.setdefault(path, []).append(w)
    old = set()
    if changed:
        saved = {f: mk.read(os.path.join(mk.SRC, f)) for f in changed}
        try:
            for f in changed:
                mk.replace_file(os.path.join(base, f), os.path.join(mk.SRC, f))
                os.unlink(os.path.join(obj, f[:-2] + '.o'))
            logf = os.path.join(obj, 'w1-base.log')
            mk.run(make + ['W=1'] + [f[:-2] + '.o' for f in changed], logfile=logf,
                   check=False)
            old = {checks_norm(w) for w in mk.read(logf).split('\n') if 'warning:' in w}
        finally:
            for f, text in saved.items():
                mk.replace_file(None, os.path.join(mk.SRC, f), text)
                os.unlink(os.path.join(obj, f[:-2] + '.o'))
            mk.run(make + [f[:-2] + '.o' for f in changed],
                   logfile=os.path.join(obj, 'w1-restore.log'), check=False)
    return [w for w in warns if checks_norm(w) not in old]


def checks_norm(line):
    import checks
    return checks._norm(line)


def boot_kunit(mk, name, arch, obj):
    """Boot with no root fs: the built-in suites run before the mount
    fails; panic=-1 reboots and -no-reboot ends QEMU."""
    console = os.path.join(obj, 'console.log')
    cmd = list(QEMU[arch])
    cpu, params, proof = QEMU_ROW.get(name, (None, '', None))
    if cpu:
        cmd[cmd.index('-cpu') + 1] = cpu
    if params:
        cmd[cmd.index('-append') + 1] += ' ' + params
    cmd += ['-kernel', os.path.join(obj, IMAGE[arch]), '-nographic',
            '-no-reboot', '-accel', 'tcg']
    with open(console, 'w', encoding='utf-8') as f:
        subprocess.run(['timeout', '1200'] + cmd, stdout=f, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL, check=False)
    text = mk.read(console)
    text = re.sub(r'^\[\s*\d+\.\d+\] ', '', text, flags=re.M)
    cases = mk.parse_ktap_leaves(text)
    fails = [c[0] for c in cases if c[1] == 'fail']
    skips = [c for c in cases if c[1] == 'skip']
    ok = sum(1 for c in cases if c[1] == 'ok')
    if not cases:
        return 'fail', 'KUnit: no results on the console'
    if fails:
        return 'fail', f'KUnit {ok} ok, {len(fails)} failed: ' + ', '.join(fails[:4])
    for pat in (r'BUG: ', r'Oops', r'CFI failure', mk.WARN_RE, r'Kernel panic - not syncing: (?!VFS|No working init)'):
        m = re.search(pat, text)
        if m:
            return 'fail', f'KUnit {ok} ok; console shows "{m.group(0)}"'
    if proof and not re.search(proof, text):
        return 'fail', f'KUnit {ok} ok; console lacks "{proof}" ({cpu}, {params})'
    if proof:
        ok_proof = f'; "{re.search(proof, text).group(0)}"'
    else:
        ok_proof = ''
    why = sorted({s[2] for s in skips})
    return 'ok', (f'KUnit {ok} ok, {len(skips)} skipped' +
                  (f' ({"; ".join(why)[:120]})' if why else '') + ok_proof)


if __name__ == '__main__':
    sys.exit(main())
