#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Build, boot and test the markers series: one command per job.

Steps (each a function returning normally or raising HarnessError):
  deps    - check (and as root, install) the host tools
  tree    - obtain the base tree, apply the series onto a build copy
  config  - tinyconfig + configs/*.config, validated
  build   - bzImage, modules and the kselftests, with ccache
  boot    - run a guest script under virtme-ng, results back via --rwdir
Jobs built from them: run (demo), test, check, series, series-check.

Environment: BASE=7.3|6.12 (scripts/bases.py), B=<build dir> (default
build/, build-<base>/ for a base other than the default),
KERNEL_SRC=<tree of that base>, VM_ACCEL=kvm|tcg (default tcg), JOBS=<n>,
VM_TIMEOUT=<seconds>, BACKPORT=none (make test leaves the backport out).
"""

import glob
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

import bases
import checks
import results
import series as series_mod

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
try:
    BASE = bases.current()
except bases.BaseError as _e:
    sys.exit(f'[mk] error: {_e}')
B = os.path.abspath(os.environ.get('B') or bases.default_build_dir())
SRC = os.path.join(B, 'src')
OBJ = os.path.join(B, 'obj')
LOGS = os.path.join(B, 'logs')
KSFT = os.path.join(B, 'kselftest')
JOBS = os.environ.get('JOBS') or str(os.cpu_count() or 2)
# NICE=<n> runs the kernel and kselftest builds under "nice -n <n>"
# (make distro-test sets 10), not the guests.
NICE = os.environ.get('NICE', '')
KSFT_TARGETS = ['static_keys', 'markers', 'ftrace']
# LLVM=-19 (or LLVM=1) in the environment builds with clang, as kbuild
# reads it on every make run; EXTRA_CONFIG names more fragments (e.g.
# configs/extra/kcfi.config): together they run the tests on a kCFI
# kernel (doc/build-matrix.md).
LLVM = os.environ.get('LLVM', '')
CC = ('ccache clang' + LLVM if LLVM.startswith('-') else 'ccache clang') if LLVM else 'ccache gcc'
# Paths under the parent of B are hashed relative to the object dir, so
# build dirs side by side (B=build, B=build-x) share one ccache.
os.environ.setdefault('CCACHE_BASEDIR', os.path.dirname(B))
os.environ.setdefault('CCACHE_NOHASHDIR', '1')


class HarnessError(Exception):
    """An error the user can act on; printed without a traceback."""


def log(msg):
    print(f'[mk {time.strftime("%H:%M:%S")}] {msg}', flush=True)


def run(cmd, cwd=None, logfile=None, check=True, env=None, quiet=False):
    """Echo and run a command; with logfile, tee its output there."""
    shown = cmd if isinstance(cmd, str) else ' '.join(shlex.quote(c) for c in cmd)
    if not quiet:
        log(f'$ {shown}' + (f'   (log: {os.path.relpath(logfile, ROOT)})' if logfile else ''))
    shell = isinstance(cmd, str)
    if logfile:
        os.makedirs(os.path.dirname(logfile), exist_ok=True)
        with open(logfile, 'w', encoding='utf-8') as lf:
            p = subprocess.run(cmd, cwd=cwd, shell=shell, env=env, stdout=lf,
                               stderr=subprocess.STDOUT, check=False)
        if check and p.returncode:
            with open(logfile, encoding='utf-8', errors='replace') as lf:
                tail = lf.readlines()[-40:]
            raise HarnessError(f'command failed ({p.returncode}): {shown}\n' +
                               ''.join(tail))
        return p.returncode
    p = subprocess.run(cmd, cwd=cwd, shell=shell, env=env, check=False)
    if check and p.returncode:
        raise HarnessError(f'command failed ({p.returncode}): {shown}')
    return p.returncode


def read(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return f.read()


def output(cmd, cwd=None):
    return subprocess.run(cmd, cwd=cwd, shell=isinstance(cmd, str), check=False,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True).stdout


# ---------------------------------------------------------------- deps

# (what to look for, apt package, pip package)
TOOLS = [
    ('gcc', 'gcc', None), ('make', 'make', None), ('flex', 'flex', None),
    ('bison', 'bison', None), ('bc', 'bc', None), ('perl', 'perl', None),
    ('cpio', 'cpio', None), ('ccache', 'ccache', None),
    ('pahole', 'dwarves', None), ('xz', 'xz-utils', None),
    ('rsync', 'rsync', None), ('git', 'git', None), ('depmod', 'kmod', None),
    ('gawk', 'gawk', None),
    ('qemu-system-x86_64', 'qemu-system-x86', None),
    ('busybox', 'busybox-static', None),
    ('sparse', 'sparse', None), ('spatch', 'coccinelle', None),
    ('trace-cmd', 'trace-cmd', None), ('perf', 'linux-perf', None),
    ('ping', 'iputils-ping', None), ('bpftrace', 'bpftrace', None),
    ('/usr/include/bpf/libbpf.h', 'libbpf-dev', None), ('clang-19', 'clang-19', None),
    ('/usr/include/gelf.h', 'libelf-dev', None),
    ('/usr/include/openssl/ssl.h', 'libssl-dev', None),
    ('dpkg-deb', 'dpkg', None), (bases.KEYRING, 'debian-archive-keyring', None),
    ('sphinx-build', 'python3-sphinx', None),
    ('/usr/lib/python3/dist-packages/sphinx_rtd_theme', 'python3-sphinx-rtd-theme', None),
    ('/usr/lib/python3/dist-packages/yaml', 'python3-yaml', None),
    ('vng', None, 'virtme-ng'),
    ('py:ply', None, 'ply'), ('py:git', None, 'GitPython'),
]
def _have(what):
    if what == 'vng':
        return vng_path()
    if what.startswith('py:'):
        import importlib.util
        return importlib.util.find_spec(what[3:]) is not None
    return os.path.exists(what) if what.startswith('/') else shutil.which(what)


def vng_path():
    """vng from PATH, or next to this python (pip without a pyenv rehash)."""
    near = os.path.join(os.path.dirname(sys.executable), 'vng')
    return shutil.which('vng') or (near if os.access(near, os.X_OK) else None)


def step_deps():
    os.makedirs(B, exist_ok=True)
    missing = [t for t in TOOLS if not _have(t[0])]
    apt = sorted({t[1] for t in missing if t[1]})
    pip = sorted({t[2] for t in missing if t[2]})
    if not missing:
        return
    log('missing: ' + ', '.join(t[0] for t in missing))
    if os.geteuid() != 0:
        raise HarnessError('install them first:\n' +
                           (f'  sudo apt-get install {" ".join(apt)}\n' if apt else '') +
                           (f'  pip install {" ".join(pip)}\n' if pip else ''))
    env = dict(os.environ, DEBIAN_FRONTEND='noninteractive')
    if apt:
        run('apt-get update -qq', logfile=os.path.join(LOGS, 'apt-update.log'))
        run(['apt-get', 'install', '-y', '-qq'] + apt, env=env,
            logfile=os.path.join(LOGS, 'apt-install.log'))
    if pip:
        run([sys.executable, '-m', 'pip', 'install', '-q'] + pip,
            logfile=os.path.join(LOGS, 'pip-install.log'))
    import importlib
    importlib.invalidate_caches()
    still = [t[0] for t in missing if not _have(t[0])]
    if still:
        raise HarnessError('still missing after install: ' + ', '.join(still))


# ---------------------------------------------------------------- tree

def kernel_version(tree):
    v = {}
    with open(os.path.join(tree, 'Makefile'), encoding='utf-8') as f:
        for line in f:
            m = re.match(r'^(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION)\s*=\s*(\S*)', line)
            if m:
                v[m.group(1)] = m.group(2)
            if len(v) == 4:
                break
    return '{VERSION}.{PATCHLEVEL}.{SUBLEVEL}{EXTRAVERSION}'.format(**v)


def base_tree():
    """The pristine base tree; never written to."""
    ks = os.environ.get('KERNEL_SRC')
    if ks:
        ks = os.path.abspath(ks)
        if not os.path.isfile(os.path.join(ks, 'Makefile')):
            raise HarnessError(f'KERNEL_SRC={ks} is not a kernel tree')
        return ks
    base = os.path.join(B, 'base')
    stamp = base + '.from'
    try:
        tarball = bases.fetch(BASE, run, log)
    except bases.BaseError as e:
        raise HarnessError(str(e)) from e
    if (not os.path.isfile(os.path.join(base, 'Makefile')) or
            not os.path.exists(stamp) or read(stamp) != tarball):
        tmp = base + '.tmp'
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(base, ignore_errors=True)
        os.makedirs(tmp)
        run(['tar', '-xf', tarball, '-C', tmp, '--strip-components=1'])
        os.rename(tmp, base)
        with open(stamp, 'w', encoding='utf-8') as f:
            f.write(tarball)
    return base


def load_series():
    try:
        commits = series_mod.parse(BASE.series, ROOT, BASE.patch_dirs)
    except series_mod.SeriesError as e:
        raise HarnessError(str(e)) from e
    errs = series_mod.check_complete(commits, ROOT, BASE.patch_dirs)
    if errs:
        raise HarnessError('series file incomplete:\n  ' + '\n  '.join(errs))
    return [c for c in commits if not c.cover]


def _patch_targets(patch):
    """(path, deleted) for each file a unified diff touches; a deleted
    file has old name a/<path> and new name /dev/null."""
    out = []
    old = None
    with open(patch, encoding='utf-8') as f:
        for line in f:
            m = re.match(r'^--- a/(\S+)', line)
            if m:
                old = m.group(1)
                continue
            m = re.match(r'^\+\+\+ (?:b/(\S+)|/dev/null)', line)
            if m and (m.group(1) or old):
                out.append((m.group(1) or old, m.group(1) is None))
            old = None
    return out


def patch_files(patch):
    """Paths (relative to the tree) a unified diff touches, including
    the files it deletes."""
    return [p for p, _ in _patch_targets(patch)]


def deleted_files(patch):
    """Paths a unified diff deletes."""
    return [p for p, gone in _patch_targets(patch) if gone]


_EXPORTER = []


def fill_exporter(text):
    """text with the "Name <mail>" the series is signed off by where it
    says EXPORTER (MAINTAINERS, MODULE_AUTHOR()).  A build without a git
    identity keeps the token: only the export needs one."""
    if series_mod.EXPORTER not in text:
        return text
    if not _EXPORTER:
        try:
            _EXPORTER.append('%s <%s>' % checks.identity(ctx()))
        except HarnessError:
            _EXPORTER.append(series_mod.EXPORTER)
    return series_mod.fill_exporter(text, _EXPORTER[0])


def stage_series(base, commits, stage):
    """Write every file the series adds or changes into stage/; return
    the files it deletes from the base tree."""
    shutil.rmtree(stage, ignore_errors=True)
    os.makedirs(stage)
    version = kernel_version(base)
    deleted = set()
    for c in commits:
        for f in c.files:
            dst = os.path.join(stage, f)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            src = os.path.join(ROOT, 'linux', f)
            text = read(src)
            if series_mod.EXPORTER in text:
                with open(dst, 'w', encoding='utf-8') as out:
                    out.write(fill_exporter(text))
                shutil.copymode(src, dst)
            else:
                shutil.copy2(src, dst)
        for p in c.patches:
            path = bases.patch_path(BASE, p)
            for f in patch_files(path):
                dst = os.path.join(stage, f)
                if not os.path.exists(dst) and os.path.exists(os.path.join(base, f)):
                    os.makedirs(os.path.dirname(dst), exist_ok=True)
                    shutil.copy2(os.path.join(base, f), dst)
            r = subprocess.run(['patch', '-p1', '--no-backup-if-mismatch', '-r', '-',
                                '-s'], cwd=stage, text=True,
                               input=fill_exporter(read(path)),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               check=False)
            if r.returncode:
                raise HarnessError(f'{os.path.relpath(path, ROOT)} (commit "{c.subject}") does not apply '
                                   f'to base {version} ({base}):\n{r.stdout}')
            deleted |= set(deleted_files(path))
            deleted -= set(f for f in patch_files(path) if os.path.exists(os.path.join(stage, f)))
    return deleted


def sync_stage(stage, src, base, deleted=()):
    """Copy changed files only (keeps mtimes, so kbuild stays incremental);
    remove the files the series deletes; restore files a previous run
    changed or deleted that the series no longer does."""
    listf = os.path.join(B, 'applied.list')
    old = set()
    if os.path.exists(listf):
        with open(listf, encoding='utf-8') as f:
            old = set(f.read().split())
    new = set()
    for dirpath, _, names in os.walk(stage):
        for n in names:
            new.add(os.path.relpath(os.path.join(dirpath, n), stage))
    changed = 0
    for rel in sorted(new):
        s, d = os.path.join(stage, rel), os.path.join(src, rel)
        if not os.path.exists(d) or not same_file(s, d):
            os.makedirs(os.path.dirname(d), exist_ok=True)
            replace_file(s, d)
            changed += 1
        if os.stat(s).st_mode & 0o111 != os.stat(d).st_mode & 0o111:
            shutil.copymode(s, d)
    for rel in sorted(deleted):
        new.add(rel)
        if os.path.lexists(os.path.join(src, rel)):
            os.unlink(os.path.join(src, rel))
            changed += 1
    for rel in sorted(old - new):
        d, orig = os.path.join(src, rel), os.path.join(base, rel)
        if os.path.exists(orig):
            replace_file(orig, d)
        elif os.path.exists(d):
            os.unlink(d)
        changed += 1
    with open(listf, 'w', encoding='utf-8') as f:
        f.write('\n'.join(sorted(new)) + '\n')
    return changed


def replace_file(s, d, text=None):
    """Write d as a new inode (temp file + rename): build copies of the
    base tree are hard links to it, and writing in place would change
    the base tree too.  The new file's mtime is now, not its source's:
    an object built since from other content must be rebuilt."""
    tmp = d + '.mk-tmp'
    if text is None:
        shutil.copy2(s, tmp)
        os.utime(tmp)
    else:
        with open(tmp, 'w', encoding='utf-8') as f:
            f.write(text)
    os.replace(tmp, d)


def link_tree(base, dst):
    """A build copy of the base tree that costs no disk: hard links
    (every writer goes through replace_file() or patch(1), which
    rename).  Falls back to a copy where links cannot be made."""
    os.makedirs(dst, exist_ok=True)
    r = subprocess.run(['cp', '-al', base + '/.', dst + '/'], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode:
        log(f'hard links failed ({r.stderr.strip()[:200]}), copying')
        run(['rsync', '-a', '--exclude', '.git', base + '/', dst + '/'])
    git = os.path.join(dst, '.git')
    if os.path.exists(git):
        shutil.rmtree(git)


def same_file(a, b):
    if os.path.getsize(a) != os.path.getsize(b):
        return False
    with open(a, 'rb') as fa, open(b, 'rb') as fb:
        return fa.read() == fb.read()


def check_disk(path, need_gib=3):
    st = os.statvfs(path)
    free = st.f_bavail * st.f_frsize / 2**30
    if free < need_gib:
        raise HarnessError(f'only {free:.1f} GiB free on the file system of {path}: a base '
                           f'tree with its build needs about {need_gib} GiB more; free some '
                           f'(make distclean removes the build dirs)')


def step_tree():
    os.makedirs(B, exist_ok=True)
    check_disk(B)
    base = base_tree()
    version = kernel_version(base)
    log(f'base tree: Linux {version} (BASE={BASE.name}, {base})')
    stamp = os.path.join(B, 'src.base')
    # The base path and its version: a build dir that changes base gets
    # a fresh copy even though the path stays the same.
    want = f'{base} {version}'
    if (not os.path.isfile(os.path.join(SRC, 'Makefile')) or
            not os.path.exists(stamp) or read(stamp) != want):
        log('creating build copy of the base tree')
        shutil.rmtree(SRC, ignore_errors=True)
        shutil.rmtree(OBJ, ignore_errors=True)
        for f in ('applied.list',):
            if os.path.exists(os.path.join(B, f)):
                os.unlink(os.path.join(B, f))
        link_tree(base, SRC)
        with open(stamp, 'w', encoding='utf-8') as f:
            f.write(want)
    commits = load_series()
    stage = os.path.join(B, 'stage')
    deleted = stage_series(base, commits, stage)
    n = sync_stage(stage, SRC, base, deleted)
    log(f'series: {len(commits)} commits applied, {n} files changed since last run')
    return version


# ---------------------------------------------------------------- config

def fragments(extra=()):
    names = ['base.config', 'test.config']
    for f in sorted(glob.glob(os.path.join(ROOT, 'configs', '*.config'))):
        n = os.path.basename(f)
        if n not in names and not n.startswith('bench') and not n.startswith('debug'):
            names.append(n)
    # options a base names differently: configs/<base>/*.config
    names += [os.path.join(BASE.name, os.path.basename(f)) for f in
              sorted(glob.glob(os.path.join(ROOT, 'configs', BASE.name, '*.config')))]
    names += [e for e in extra if e not in names]
    names += [os.path.relpath(os.path.abspath(e), os.path.join(ROOT, 'configs'))
              for e in os.environ.get('EXTRA_CONFIG', '').split() if e]
    return [os.path.join(ROOT, 'configs', n) for n in names]


def wanted_options(frags):
    want = {}
    for fr in frags:
        with open(fr, encoding='utf-8') as f:
            for line in f:
                m = re.match(r'^(CONFIG_\w+)=(.*)$', line.strip())
                if m:
                    want[m.group(1)] = m.group(2)
                m = re.match(r'^# (CONFIG_\w+) is not set', line.strip())
                if m:
                    want[m.group(1)] = 'n'
    return want


def step_config(extra=(), src=SRC, obj=OBJ, strict=True, salt=''):
    frags = fragments(extra)
    h = hashlib.sha256()
    for fr in frags:
        with open(fr, 'rb') as f:
            h.update(fr.encode() + f.read())
    with open(os.path.join(src, 'Makefile'), 'rb') as f:
        h.update(f.read())
    h.update(salt.encode())
    digest = h.hexdigest()
    stamp = os.path.join(obj, '.config.fragments')
    if (os.path.exists(os.path.join(obj, '.config')) and os.path.exists(stamp) and
            read(stamp) == digest):
        return
    os.makedirs(obj, exist_ok=True)
    cl = os.path.join(LOGS, 'config.log')
    run(['make', '-C', src, f'O={obj}', 'tinyconfig'], logfile=cl)
    run([os.path.join(src, 'scripts/kconfig/merge_config.sh'), '-m', '-O', obj,
         os.path.join(obj, '.config')] + frags, cwd=src, logfile=cl + '.merge')
    run(['make', '-C', src, f'O={obj}', 'olddefconfig'], logfile=cl + '.olddef')
    got = {}
    with open(os.path.join(obj, '.config'), encoding='utf-8') as f:
        for line in f:
            m = re.match(r'^(CONFIG_\w+)=(.*)$', line.strip())
            if m:
                got[m.group(1)] = m.group(2)
    bad = [f'{k}={v} (got {got.get(k, "n")})' for k, v in wanted_options(frags).items()
           if got.get(k, 'n') != v]
    if bad and strict:
        raise HarnessError('config options the fragments ask for did not stick '
                           '(missing dependency?):\n  ' + '\n  '.join(bad))
    with open(stamp, 'w', encoding='utf-8') as f:
        f.write(digest)


# ---------------------------------------------------------------- build

def niced(cmd):
    """cmd under nice -n NICE when NICE is set."""
    return ['nice', '-n', NICE] + cmd if NICE else cmd


def kmake(*targets, obj=OBJ, src=SRC, logname='build', extra=()):
    run(niced(['make', '-C', src, f'O={obj}', f'CC={CC}', f'-j{JOBS}'] + list(extra) +
              list(targets)), logfile=os.path.join(LOGS, logname + '.log'))


def step_build(src=SRC, obj=OBJ, kselftests=True, logname='build'):
    t = time.time()
    kmake('bzImage', 'modules', obj=obj, src=src, logname=logname)
    log(f'kernel built in {time.time() - t:.0f}s: {obj}/arch/x86/boot/bzImage')
    # vng installs modules into <obj>/.virtme_mods itself when modules.order
    # is newer; do it here so a failure shows up as a build error.
    run(niced(['make', '-C', src, f'O={obj}', 'INSTALL_MOD_PATH=' +
               os.path.join(obj, '.virtme_mods'), 'INSTALL_MOD_STRIP=1', 'modules_install']),
        logfile=os.path.join(LOGS, logname + '-modules_install.log'))
    mods = os.path.join(obj, '.virtme_mods', 'lib', 'modules')
    rel = read(os.path.join(obj, 'include/config/kernel.release')).strip()
    # vng mounts .virtme_mods/lib/modules/0.0.0 as the guest's module dir
    if os.path.isdir(os.path.join(mods, rel)):
        shutil.rmtree(os.path.join(mods, '0.0.0'), ignore_errors=True)
        os.rename(os.path.join(mods, rel), os.path.join(mods, '0.0.0'))
    if not kselftests:
        return
    targets = [t for t in KSFT_TARGETS
               if os.path.isdir(os.path.join(SRC, 'tools/testing/selftests', t))]
    shutil.rmtree(KSFT, ignore_errors=True)
    run(niced(['make', '-C', os.path.join(SRC, 'tools/testing/selftests'),
               'TARGETS=' + ' '.join(targets), f'O={os.path.join(B, "ksft-obj")}',
               f'INSTALL_PATH={KSFT}', 'install']),
        logfile=os.path.join(LOGS, 'kselftest.log'))


# ---------------------------------------------------------------- boot

def log_problems(text, listed=()):
    """['kernel log shows "..."'] for each kind of splat in a console log;
    a WARN whose first line a pattern of <listed> matches is left out (see
    listed_warnings())."""
    problems = []
    warns = [w for w in warn_lines(text) if not any(re.search(p, w) for p in listed)]
    if warns:
        problems.append(f'kernel log shows "{warns[0]}"')
    for pat in (r'Kernel panic', r'BUG: ', r'Oops',
                r'general protection fault', r'INFO: task .* blocked',
                r'watchdog: BUG', r'UBSAN', r'KASAN', r'possible recursive locking',
                r'inconsistent lock state', r'suspicious RCU usage',
                r'possible circular locking', r'possible irq lock inversion',
                r'bad unlock balance', r'held lock freed', r'ODEBUG:',
                r'sleeping function called from invalid context'):
        m = re.search(pat, text)
        if m:
            problems.append(f'kernel log shows "{m.group(0)}"')
    return problems


# The guest's root is the host's / over 9p, read-only (vng without
# --rw), and nothing on the host changes it while a guest runs: with
# cache=loose the guest keeps its lookups and file pages instead of
# asking QEMU for each exec's path and pages again.  Mainline's
# ftracetest test.d/remotes (fork and exec bound: a taskset or cut per
# event) took 1510 s instead of 1813 s, two guests side by side,
# 2026-11-28; 300 "echo | cut" pipelines 31.5 s instead of 34.6 s.  The
# results directory is its own mount, uncached.  vng's flags, plus cache.
ROOT_9P_LOOSE = 'rootflags=version=9p2000.L,trans=virtio,access=any,msize=524288,cache=loose'
# vng's "-cpu max" offers LA57, so the guest kernel walks five page table
# levels where most hardware has four, and TCG pays for each walk after
# every TLB flush: 300 "echo | cut" pipelines took 28.7 s with no5lvl
# against 31.0 s without (means of three runs side by side, 2026-11-28).
TCG_APPEND = (ROOT_9P_LOOSE, 'no5lvl')
# vng gives each of its seven virtio-serial devices one port, but QEMU
# makes 31 by default, two virtqueues each, and its main loop polls an
# eventfd per virtqueue: 389 eventfds of 450 descriptors, about 975 polls
# a second under TCG (strace -c, 5 s), 17% of a guest's host CPU time
# against 6% with two ports (the QEMU main thread's share in
# /proc/<pid>/task/<pid>/stat, two guests side by side, 2026-11-28).
TCG_QEMU = '-global virtio-serial-pci.max_ports=2'


def step_boot(guest_cmd, name, timeout=None, cpus=2, qemu_opts=None, append=(), obj=OBJ,
              listed=(), tuned=True):
    """Boot the kernel built in obj and run guest_cmd; returns the result
    dir, the problems found and the console text.  A WARN <listed> names
    (patterns of MAINLINE_WARNS) is not a problem.  tuned=False leaves out
    TCG_APPEND and TCG_QEMU: vng's uncached 9p root, five-level paging and
    QEMU's 31 ports per virtio-serial device (the bench, which counts 9p
    requests and instructions)."""
    out = os.path.join(B, 'out', name)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    timeout = int(os.environ.get('VM_TIMEOUT') or timeout or 1200)
    # 9p root (no virtiofsd here); a tiny kernel needs root= spelled out.
    # --verbose puts the guest console (kernel log) on stdout.
    cmd = [vng_path() or 'vng', '--run', obj, '--cpus', str(cpus), '--memory', '2G',
           '--force-9p', '--verbose', '--append', 'root=/dev/root',
           '--rwdir', f'/tmp/results={out}', '--cwd', ROOT,
           '--append', 'panic=-1', '--append', 'oops=panic',
           '--append', 'softlockup_panic=1', '--append', 'hung_task_panic=1',
           # The tp_printk iterator, off after boot, for trace_events.sh.
           '--append', 'tp_printk', '--append', 'tp_printk_stop_on_boot']
    for a in append:
        cmd += ['--append', a]
    if os.environ.get('VM_ACCEL', 'tcg') != 'kvm':
        cmd.append('--disable-kvm')
        for a in TCG_APPEND if tuned else ():
            cmd += ['--append', a]
        if tuned:
            qemu_opts = ' '.join(filter(None, [TCG_QEMU, qemu_opts]))
        # Multi-threaded TCG (QEMU 7.2) does not model x86 cross-modifying
        # code: a vCPU can run a stale translation holding text_poke_bp()'s
        # int3 after the batch has finished, an "Oops: int3" real CPUs
        # cannot produce.  One TCG thread runs both vCPUs, interleaved.
        if os.environ.get('VM_TCG_THREAD', 'single') == 'single':
            qemu_opts = ' '.join(filter(None, ['-accel tcg,thread=single', qemu_opts]))
    if qemu_opts:
        cmd.append(f'--qemu-opts={qemu_opts}')
    cmd += ['--exec', guest_cmd]
    console = os.path.join(out, 'console.log')
    log(f'booting ({cpus} vCPUs, timeout {timeout}s): console in '
        f'{os.path.relpath(console, ROOT)}')
    t = time.time()
    with open(console, 'w', encoding='utf-8') as cf:
        try:
            p = subprocess.run(['timeout', '-k', '10', str(timeout)] + cmd, stdin=subprocess.DEVNULL,
                               stdout=cf, stderr=subprocess.STDOUT, check=False)
            rc = p.returncode
        except OSError as e:
            raise HarnessError(f'cannot start vng: {e}') from e
    log(f'guest ran {time.time() - t:.0f}s, vng exit {rc}')
    with open(console, encoding='utf-8', errors='replace') as cf:
        text = cf.read()
    problems = []
    if rc == 124:
        problems.append(f'guest timed out after {timeout}s')
    problems += log_problems(text, listed)
    if os.path.exists(os.path.join(out, 'kunit-modules.err')):
        problems.append('KUnit test module failed to load: ' +
                        read(os.path.join(out, 'kunit-modules.err')).strip())
    if os.path.exists(os.path.join(out, 'errors.txt')):
        problems.append('guest script: ' + read(os.path.join(out, 'errors.txt')).strip())
    if not os.path.exists(os.path.join(out, 'done')):
        problems.append('guest script did not finish (no done marker)')
    return out, problems, text


# The first line of a WARN splat: "WARNING: CPU: 1 PID: 2 at file:line
# func" up to 6.12, "WARNING: file:line at func, CPU#1: comm/pid" in 7.3.
WARN_RE = r'WARNING: (?:CPU: \d+|\S+ at \S+, CPU#\d+)'


def warn_lines(text):
    """The first line of each WARN splat in a console log, from
    "WARNING:" on."""
    return [m.group(0) for m in re.finditer(WARN_RE + r'[^\n]*', text)]


# A mainline WARN that a guest's tests reach on purpose and that is not
# the series' to fix: the fault-injection sweep fails allocations in
# mainline code too, and some of it warns on a failed allocation.  Such
# a guest names each WARN it lists here (Part(listed=...)), a pattern
# for its first line; it is then reported as a skipped row with the
# line, not as a failed clean run.  Each entry is in README's "Known
# gaps" with the run that found it.
MAINLINE_WARNS = {
    # 7.3.4: WARN_ONCE() when kcalloc() fails on a module's GOING
    # (found by the markers sweep of an unload, 2026-11-27).
    'fprobe_module_callback': r'kernel/trace/fprobe\.c:\d+ (?:at )?fprobe_module_callback\+',
}


def listed_warnings(text, listed):
    """The WARN first lines of a console log that a pattern of <listed>
    matches."""
    return [w for w in warn_lines(text) if any(re.search(p, w) for p in listed)]


def console_tail(text, n=40):
    return '\n'.join('    | ' + line for line in text.rstrip().split('\n')[-n:])


# ---------------------------------------------------------------- results

class Results:
    def __init__(self, quiet=False):
        self.rows = []
        self.quiet = quiet

    def save(self, path):
        import json
        with open(path, 'w', encoding='utf-8') as f:
            json.dump(self.rows, f)

    def add(self, name, status, detail=''):
        assert status in ('ok', 'fail', 'skip')
        self.rows.append((name, status, detail))
        if not self.quiet:
            self.show(name, status, detail)

    @staticmethod
    def show(name, status, detail):
        mark = {'ok': 'PASS', 'fail': 'FAIL', 'skip': 'SKIP'}[status]
        print(f'  {mark:4s} {name}' + (f'  -- {detail}' if detail else ''), flush=True)

    def extend(self, other):
        """Add the rows another (quiet) Results collected, printing them."""
        for row in other.rows:
            self.add(*row)

    def summary(self):
        n = {s: sum(1 for r in self.rows if r[1] == s) for s in ('ok', 'fail', 'skip')}
        return f'{n["ok"]} passed, {n["fail"]} failed, {n["skip"]} skipped'

    def failed(self):
        return any(r[1] == 'fail' for r in self.rows)


def assemble_ktap(files):
    """One KTAP document from per-suite debugfs results (each has its own
    "KTAP version 1" / "1..1" header and numbers its suite 1)."""
    lines = ['KTAP version 1', f'1..{len(files)}']
    for n, path in enumerate(files, 1):
        body = read(path).rstrip('\n').split('\n')
        if body[:2] == ['KTAP version 1', '1..1']:
            body = body[2:]
        if body and re.match(r'^(not ok|ok) 1 ', body[-1]):
            body[-1] = re.sub(r'^(not ok|ok) 1 ', rf'\1 {n} ', body[-1])
        lines += body
    return '\n'.join(lines) + '\n'


def parse_kunit(out, res):
    files = sorted(glob.glob(os.path.join(out, 'kunit', '*.ktap')))
    if not files:
        res.add('kunit: suites of the series', 'skip', 'no KUnit suite built in')
        return
    ktap = os.path.join(out, 'kunit.ktap')
    with open(ktap, 'w', encoding='utf-8') as f:
        f.write(assemble_ktap(files))
    parser = os.path.join(SRC, 'tools/testing/kunit/kunit.py')
    text = output([sys.executable, parser, 'parse', ktap])
    with open(os.path.join(out, 'kunit.parsed'), 'w', encoding='utf-8') as f:
        f.write(text)
    print(text.rstrip())
    cases = parse_ktap_leaves(read(ktap))
    if not cases:
        res.add('kunit: results', 'fail', 'KTAP had no test results')
    for name, status, detail in cases:
        res.add(f'kunit: {name}', status, detail)
    tail = text.split('Testing complete.')[-1]
    if ('FAILED' in tail or 'ERROR' in text) and not any(c[1] == 'fail' for c in cases):
        res.add('kunit: kunit.py parse', 'fail', 'kunit.py reports failures or errors')


def parse_ktap_leaves(text):
    """[(suite.case, status, detail)] for every leaf test in KTAP text.

    A "# Subtest: name" line sits at the indentation of its children's
    results; a result is a leaf when no deeper result came since the last
    result (or subtest start) at its own depth."""
    results = []
    suite_at = {}       # depth -> suite whose children are at that depth
    seen = {}           # depth -> a result appeared at that depth
    for raw in text.split('\n'):
        depth = (len(raw) - len(raw.lstrip(' '))) // 4
        line = raw.strip()
        m = re.match(r'^# Subtest: (.+)$', line)
        if m:
            for d in [d for d in suite_at if d >= depth]:
                del suite_at[d]
            suite_at[depth] = m.group(1).strip()
            seen[depth] = False
            continue
        m = re.match(r'^(not ok|ok) \d+ (.*?)(?:\s+#\s*(SKIP|TODO)\s*(.*))?$', line)
        if not m:
            continue
        leaf = not seen.get(depth + 1, False)
        seen[depth + 1] = False
        seen[depth] = True
        if not leaf:
            continue
        name = m.group(2).strip().lstrip('- ')
        path = [suite_at[d] for d in sorted(suite_at) if 0 < d <= depth] if depth else []
        full = '.'.join(path + [name])
        if m.group(3) == 'SKIP':
            results.append((full, 'skip', m.group(4) or 'skipped'))
        else:
            results.append((full, 'ok' if m.group(1) == 'ok' else 'fail', ''))
    return results


# Nested kselftest cases that test the test scripts, not the kernel, and
# whose outcome depends on a host tool: counted as skips, with the reason.
KSFT_NOT_KERNEL = {
    'Meta-selftest: Checkbashisms':
        'lints the ftracetest scripts with checkbashisms; not installed (Debian 12\'s '
        'flags mainline kprobe_non_uniq_symbol.tc line 9, so it fails on any kernel)',
}


# ftracetest cases that time the guest against the wall clock: under TCG
# (no VM_ACCEL=kvm) a failure of theirs is a skip that says so, when the
# rerun alone (ftrace-alone.txt) fails too.
KSFT_TCG_TIMING = {
    'event trigger - test poll wait on histogram':
        'trigger-hist-poll.tc needs a poll(-t 4000) to outlast a "sleep 2" '
        'in wall-clock time; under TCG it fails in about half the runs, '
        'full or alone, and passes alone as often',
}


def parse_kselftest(out, res, prefix='kselftest'):
    """The runner's TAP: one document per collection.  A test printing
    its own TAP gets one row per nested result, else one row."""
    tap = os.path.join(out, 'kselftest.tap')
    if not os.path.exists(tap):
        res.add(f'{prefix}: runner', 'fail', 'no kselftest output (runner died?)')
        return
    text = read(tap)
    alone = ftrace_alone(out)
    planned = sum(int(n) for n in re.findall(r'^1\.\.(\d+)', text, re.M))
    tops = re.findall(r'^(not ok|ok) \d+ selftests: (\S+): (\S+)(.*)$', text, re.M)
    heads = list(re.finditer(r'^# selftests: (\S+): (\S+)$', text, re.M))
    for i, head in enumerate(heads):
        coll, test = head.group(1), head.group(2)
        name = f'{prefix}: {coll}:{test}'
        after = text[head.end() + 1:heads[i + 1].start() if i + 1 < len(heads) else len(text)]
        top = re.search(rf'^(not ok|ok) \d+ selftests: {re.escape(coll)}: {re.escape(test)}(.*)$',
                        after, re.M)
        body = after[:top.start()] if top else after
        status, rest = (top.group(1), top.group(2)) if top else (None, '')
        nested = re.findall(r'^# (not ok|ok) \d+ (.*?)(?:[ \t]+#[ \t]*(SKIP)[ \t]*(.*))?$', body, re.M)
        failed_alone = 0
        for st, desc, skip, why in nested:
            if desc.split(' # ')[0] in KSFT_NOT_KERNEL:
                res.add(f'{name}: {desc}', 'skip', KSFT_NOT_KERNEL[desc.split(' # ')[0]])
                continue
            if st == 'not ok' and not skip and coll == 'ftrace':
                tc = ftrace_case_file(body, desc)
                if alone.get(tc) == 'pass':
                    res.add(f'{name}: {desc}', 'ok',
                            'failed after the cases before it, passed when run alone '
                            '(ftrace-alone.txt)')
                    continue
                timing = KSFT_TCG_TIMING.get(desc.replace('(instance) ', '', 1))
                if timing and os.environ.get('VM_ACCEL', 'tcg') != 'kvm':
                    res.add(f'{name}: {desc}', 'skip', f'TCG timing: {timing}')
                    continue
                failed_alone += 1
            if skip and not why:
                paren = re.search(r'\(([^()]+)\)\s*$', desc)
                if coll == 'ftrace':
                    # ftracetest's UNSUPPORTED/UNTESTED: its "requires:"
                    # line names something this kernel config does not have.
                    why = 'requirement not met by this kernel config'
                elif paren:
                    # a kselftest that says why in its description's last
                    # parentheses, e.g. "... (not in FAIL_NTH_ONLY) # SKIP"
                    why = paren.group(1)
                else:
                    why = 'skipped by the test, which gives no reason'
            res.add(f'{name}: {desc}', 'skip' if skip else ('ok' if st == 'ok' else 'fail'),
                    why if skip else '')
        if status is None:
            # the guest was killed, or the runner died, inside this test:
            # its results so far are rows above, and it fails
            res.add(name, 'fail', 'did not finish (guest killed or runner died); last '
                    'line: ' + body_reason(body))
        elif 'SKIP' in rest:
            res.add(name, 'skip', body_reason(body) or 'skipped by the test')
        elif status == 'ok' and '[FAIL]' in body:
            # static_keys/test_static_keys.sh prints [FAIL] and exits 0
            res.add(name, 'fail', 'test printed [FAIL] but exited 0')
        elif (status != 'ok' and coll == 'ftrace' and not failed_alone and
              re.search(r'^# not ok ', body, re.M) and
              [str(len(nested))] == re.findall(r'^# 1\.\.(\d+)$', body, re.M)):
            # every case reported, and every failed one passed alone or
            # is a TCG timing skip: the total row says what its case
            # rows say
            res.add(name, 'ok', 'its failed cases passed when run alone or are TCG timing skips')
        elif status != 'ok':
            res.add(name, 'fail', body_reason(body))
        elif not nested:
            res.add(name, 'ok')
    if planned != len(tops) or not tops:
        res.add(f'{prefix}: runner', 'fail', f'planned {planned} tests, {len(tops)} reported')


def ftrace_alone(out):
    """The guest's reruns of failed ftracetest cases: {case file: pass|fail}."""
    path = os.path.join(out, 'ftrace-alone.txt')
    if not os.path.exists(path):
        return {}
    return {tc: st for st, tc in (l.split(' ', 1) for l in read(path).split('\n') if ' ' in l)}


def ftrace_case_file(body, desc):
    """The .tc file of the failed ftracetest case <desc>: the "execute"
    line of the log ftracetest prints after its "not ok" line."""
    m = re.search(rf'^# not ok \d+ {re.escape(desc)}\n(?:# # .*\n)*?# # execute[^:]*: (\S+\.tc)$',
                  body, re.M)
    return m.group(1) if m else None


def parse_module_tests(out, res):
    """Self-checking test modules loaded directly by the guest script:
    lines "<module> <insmod exit code>" in modtests.txt."""
    path = os.path.join(out, 'modtests.txt')
    if not os.path.exists(path):
        res.add('module tests', 'fail', 'no modtests.txt from the guest')
        return
    for line in read(path).strip().split('\n'):
        mod, rc = line.split()
        res.add(f'module: {mod} self-test on load', 'ok' if rc == '0' else 'fail',
                '' if rc == '0' else f'modprobe exit {rc}, see dmesg.txt')


def body_reason(body):
    lines = [l.lstrip('# ').strip() for l in body.split('\n') if l.strip()]
    return lines[-1][:160] if lines else ''


def smoke_check(out, res, label='harness'):
    """The booted kernel is the one just built."""
    try:
        guest = read(os.path.join(out, 'uname.txt')).split('\n')
    except OSError:
        res.add(f'{label}: booted kernel is the one built', 'fail', 'no uname.txt from guest')
        return
    rel = read(os.path.join(OBJ, 'include/config/kernel.release')).strip()
    comp = read(os.path.join(OBJ, 'include/generated/utsversion.h'))
    m = re.search(r'UTS_VERSION "(.*)"', comp)
    want_v = m.group(1) if m else '?'
    if guest[0].strip() == rel and guest[1].strip() == want_v:
        res.add(f'{label}: booted kernel is the one built', 'ok')
    else:
        res.add(f'{label}: booted kernel is the one built', 'fail',
                f'guest {guest[:2]} vs built {rel!r} {want_v!r}')


# ---------------------------------------------------------------- jobs

def guest(script, *args):
    return ' '.join(shlex.quote(a) for a in
                    [os.path.join(ROOT, 'scripts', 'guest', script)] + list(args))


def prepare():
    t0 = time.time()
    step_deps()
    version = step_tree()
    step_config()
    step_build()
    log(f'prepared in {time.time() - t0:.0f}s (base Linux {version})')
    return version


def job_run():
    t0 = time.time()
    version = prepare()
    out, problems, text = step_boot(guest('demo.sh', '/tmp/results', KSFT), 'demo')
    demo = os.path.join(out, 'demo.txt')
    if os.path.exists(demo):
        print(read(demo))
    if problems:
        raise HarnessError('demo failed: ' + '; '.join(problems) + '\n' + console_tail(text))
    log(f'demo done on base Linux {version}')
    results.record_run(time.time() - t0, version)


def lockdown_boot():
    """A second, short boot with lockdown=confidentiality for the
    markers lockdown kselftest, which skips on an open kernel."""
    res = Results(quiet=True)
    out, problems, text = step_boot(guest('lockdown.sh', '/tmp/results', KSFT), 'lockdown',
                                    timeout=900, append=('lockdown=confidentiality',
                                                         'kunit.enable=0'))
    try:
        state = read(os.path.join(out, 'lockdown.txt')).strip()
    except OSError:
        state = 'no lockdown.txt from the guest'
    res.add('lockdown boot: kernel locked down (confidentiality)',
            'ok' if '[confidentiality]' in state else 'fail', state)
    parse_kselftest(out, res, prefix='lockdown boot')
    for p in problems:
        res.add('lockdown boot: clean run', 'fail', p)
    if problems:
        print(console_tail(text))
    return res


def guest_rows(res, out, problems, text, label='guest', kunit=True, modtests=True):
    """The rows of a test.sh guest run: the booted kernel, KUnit, the
    kselftests, the self-checking modules and the kernel log."""
    smoke_check(out, res, label)
    if kunit:
        parse_kunit(out, res)
    parse_kselftest(out, res)
    if modtests:
        parse_module_tests(out, res)
    for p in problems:
        res.add(f'{label}: clean run', 'fail', p)
    if not problems:
        res.add(f'{label}: clean run (no panic, oops, WARN, timeout)', 'ok')
    else:
        print(console_tail(text))


# ---------------------------------------------------------------- parts

class Part:
    """One guest of a split test run: which kselftests test.sh runs in it
    (KSFT_TESTS words: "collection" or "collection:test"), whether it
    reports KUnit and the self-checking modules, and its timeout.  A part
    without KUnit boots with kunit.enable=0, so that its guest does not
    run the built-in suites again.  <listed>: the keys of MAINLINE_WARNS
    whose WARN this guest reports as a skipped row instead of failing its
    clean run."""

    def __init__(self, name, tests, timeout, kunit=False, modtests=False, env='',
                 ftrace_cases='', listed=()):
        self.name, self.tests, self.timeout = name, tests, timeout
        self.kunit, self.modtests, self.env = kunit, modtests, env
        self.ftrace_cases = ftrace_cases
        self.listed = tuple(MAINLINE_WARNS[k] for k in listed)

    def selects(self, test):
        """Whether this part runs kselftest <collection:test>."""
        return any(w in (test, test.split(':')[0]) for w in self.tests.split())

    def boot(self, obj=None):
        """Boot this part's guest: step_boot()'s (out, problems, text)."""
        env = (f'KSFT_TESTS="{self.tests}" KUNIT={int(self.kunit)} '
               f'MODTESTS={int(self.modtests)} {self.env}')
        if self.ftrace_cases:
            env += f'FTRACE_CASES="{self.ftrace_cases}" '
        return step_boot(
            env + guest('test.sh', '/tmp/results', KSFT), self.name,
            timeout=self.timeout, obj=obj or OBJ,
            append=() if self.kunit else ('kunit.enable=0',), listed=self.listed)

    def run(self, obj=None):
        out, problems, text = self.boot(obj)
        res = Results(quiet=True)
        guest_rows(res, out, problems, text, label=f'guest {self.name}',
                   kunit=self.kunit, modtests=self.modtests)
        for w in listed_warnings(text, self.listed):
            res.add(f'guest {self.name}: mainline WARN, listed (README "Known gaps"), '
                    'not counted', 'skip', w)
        left = os.path.join(out, 'leftovers.txt')
        if os.path.exists(left) and read(left).strip():
            log(f'{self.name}: tracefs state left by kselftests, undone before the next '
                '(test.sh):\n' + ''.join(f'    {l}\n' for l in read(left).strip().split('\n')))
        stamps = os.path.join(out, 'case-times.txt')
        if os.path.exists(stamps):
            slow = slowest_cases(read(stamps))
            if slow:
                log(f'{self.name}: slowest cases: ' +
                    ', '.join(f'{name} {secs}s' for secs, name in slow))
        timing = os.path.join(out, 'timing.txt')
        if os.path.exists(timing):
            log(f'{self.name}: kselftest times: ' +
                ', '.join(f'{l.split()[0]} {l.split()[1]}s' for l in read(timing).split('\n')
                          if len(l.split()) == 2))
        return res


def slowest_cases(text, n=8):
    """[(seconds, case)] of the <n> slowest test cases in test.sh's
    case-times.txt ("<epoch> start <test>" before each kselftest, then
    "<epoch> <TAP result line>" as each result came): a case took the
    time since the line before it.  ftracetest's cases are named by their
    description, others by their kselftest."""
    found, prev, start, test, inner = [], None, None, '', False
    for line in text.split('\n'):
        m = re.match(r'^(\d+) (.*)$', line)
        if not m:
            continue
        t, rest = int(m.group(1)), m.group(2)
        if rest.startswith('start '):
            prev, start, test, inner = t, t, rest[6:], False
            continue
        r = re.match(r'^(?:# )*(?:not )?ok \d+ (?:selftests: )?(.*?)(?: # .*)?$', rest)
        if prev is not None and r:
            nested = rest.startswith('#')
            # a kselftest's own line after its nested cases: the whole test
            found.append((t - (prev if nested or not inner else start),
                          r.group(1) if nested else test))
            inner = nested
        prev = t
    return sorted(found, key=lambda x: -x[0])[:n]


# make test on the default kernel: ftracetest split over two guests by
# test.d directory, with about the same time in each (2026-11-25, 7.3
# guest alone: remotes 544 s, ftrace 244 s, trigger 151 s, kprobe 91 s,
# dynevent 75 s, direct 72 s, event 51 s, the rest under 40 s each; all
# of ftracetest 1548 s), and the series' own kselftests with KUnit in a
# third.  run_lanes() starts them longest first on two lanes, then the
# backport, lockdown and host checks as lanes free up.  Each timeout was
# at least twice its guest's measured time; on 2026-11-27 the host ran at
# half that speed (ftrace-1 2228 s, ftrace-2 1839 s, selftests 743 s, with
# the cores free), so the ftracetest guests get 3600 s and the selftests
# guest 1800 s.  make test's own time stays bounded by CI's 90 minutes.
# 2026-11-28 (same slow host): ftrace-1 2354 s, of it remotes/trace_pipe.tc
# 1150 s; ftrace-2 1981 s, of it direct/ftrace-direct.tc 723 s.  With two
# virtio-serial ports (TCG_QEMU): ftrace-1 1772 s (remotes 1182 s, ftrace
# 414 s, the other four 67 s), ftrace-2 1646 s (direct 602 s, 00basic 272 s,
# trigger 221 s, kprobe 159 s, dynevent 125 s, the other two 43 s).
TEST_PARTS = [
    Part('ftrace-1', 'ftrace', timeout=3600,
         ftrace_cases='test.d/remotes test.d/ftrace test.d/event test.d/filter '
         'test.d/selftest test.d/tracer'),
    Part('ftrace-2', 'ftrace', timeout=3600,
         ftrace_cases='test.d/00basic test.d/trigger test.d/kprobe test.d/dynevent '
         'test.d/direct test.d/preemptirq test.d/instances'),
    Part('selftests', 'static_keys markers', timeout=1800, kunit=True, modtests=True),
]


def part_coverage(parts, ksft=None, collections=None):
    """[problem] unless every installed kselftest of <collections> (all
    by default) runs in exactly one part, and, where parts split
    ftracetest, every ftracetest case in exactly one of those: a split
    run drops nothing and runs nothing twice."""
    ksft = ksft or KSFT
    problems = []
    try:
        tests = [t for t in read(os.path.join(ksft, 'kselftest-list.txt')).split() if t]
    except OSError:
        return ['no kselftest-list.txt in ' + ksft]
    for t in tests:
        if collections and t.split(':')[0] not in collections:
            continue
        n = [p.name for p in parts if p.selects(t)]
        # parts that split ftracetest's cases among them count as one
        whole = [p for p in parts if p.selects(t) and not p.ftrace_cases]
        if t.startswith('ftrace:') and n and not whole:
            continue
        if len(n) != 1:
            problems.append(f'{t} runs in {len(n)} parts ({", ".join(n) or "none"})')
    split = [p for p in parts if p.ftrace_cases]
    if split:
        root = os.path.join(ksft, 'ftrace')
        cases = sorted(os.path.relpath(os.path.join(d, f), root)
                       for d, _, files in os.walk(os.path.join(root, 'test.d'))
                       for f in files if f.endswith('.tc'))
        for c in cases:
            n = [p.name for p in split
                 if any(c == w or c.startswith(w.rstrip('/') + '/')
                        for w in p.ftrace_cases.split())]
            if len(n) != 1:
                problems.append(f'ftracetest {c} runs in {len(n)} parts '
                                f'({", ".join(n) or "none"})')
    return problems


def run_lanes(tasks, lanes=2):
    """Run tasks [(name, fn)] on <lanes> threads, each taking the next
    task in list order when its last one ends (list scheduling: put the
    long ones first).  A guest under single-threaded TCG keeps one host
    core busy, so two lanes use both cores.  Returns
    {name: (Results, start offset, seconds)}; a task that raises gets a
    failed row instead of killing the run."""
    import threading
    t0 = time.time()
    todo = list(tasks)
    done = {}
    lock = threading.Lock()

    def lane(n):
        while True:
            with lock:
                if not todo:
                    return
                name, fn = todo.pop(0)
            start = time.time()
            log(f'lane {n}: {name} starts')
            try:
                res = fn()
            except Exception as e:  # pylint: disable=broad-except
                res = Results(quiet=True)
                res.add(f'{name}: ran', 'fail', str(e)[:300])
            end = time.time()
            log(f'lane {n}: {name} took {end - start:.0f}s')
            with lock:
                done[name] = (res, start - t0, end - start, n)

    threads = [threading.Thread(target=lane, args=(n,)) for n in range(1, lanes + 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    log('parts (lane, start, time):')
    for name, _ in tasks:
        if name in done:
            _, start, secs, n = done[name]
            log(f'  {name:24s} lane {n}  +{start:5.0f}s  {secs:5.0f}s')
    return done


def job_test():
    t0 = time.time()
    res = Results()
    version = prepare()
    backports = [n for n in bases.BASES if n != BASE.name] \
        if BASE.name == bases.DEFAULT and os.environ.get('BACKPORT') != 'none' else []
    # Builds first, on both cores; then only guests and host checks,
    # at most two at a time, so no guest shares its core with a build.
    for name in backports:
        backport_step(name, 'prepare')
    log(f'builds done after {time.time() - t0:.0f}s; guests and checks in two lanes')
    missed = part_coverage(TEST_PARTS)
    res.add('harness: the guests run every kselftest and ftracetest case once',
            'fail' if missed else 'ok', '; '.join(missed[:5]))
    # longest first: ftracetest's halves, the host checks (minutes of
    # coccicheck when its inputs changed), then the short guests
    tasks = [(f'guest {p.name}', p.run) for p in TEST_PARTS[:2]]
    tasks += [('host checks', host_checks)]
    tasks += [(f'guest {p.name}', p.run) for p in TEST_PARTS[2:]]
    tasks += [(f'backport {n}', lambda n=n: backport_rows(n)) for n in backports]
    tasks += [('guest lockdown', lockdown_boot)]
    done = run_lanes(tasks)
    log('results:')
    for name, _ in tasks:
        res.extend(done[name][0])
    log(f'make test on base Linux {version} took {time.time() - t0:.0f}s')
    results.record_test(res.summary(), time.time() - t0, version)
    print(res.summary())
    return 1 if res.failed() else 0


def host_checks():
    """The harness's own unit tests and the make check checks, with one
    compile job: the other core runs a guest."""
    res = Results(quiet=True)
    r = subprocess.run([sys.executable, '-m', 'unittest', 'discover', '-s',
                        os.path.join(ROOT, 'scripts'), '-p', 'test_*.py'],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       check=False)
    res.add('harness: own unit tests', 'ok' if r.returncode == 0 else 'fail',
            r.stdout.strip().split('\n')[-1])
    c = ctx()
    c.JOBS = '1'
    checks.export_rows(res, c)
    checks.run_all(res, c)
    return res


def backport_step(name, job):
    """Run mk.py <job> for base <name> in its own build dir (build/ ->
    build-6.12/, the directory make test BASE=<name> uses), output in
    build/logs/backport-<name>-<job>.log.  Returns the exit code."""
    env = {k: v for k, v in os.environ.items() if k not in ('B', 'KERNEL_SRC')}
    env['BASE'] = name
    env['B'] = f'{B}-{name}'
    logf = os.path.join(LOGS, f'backport-{name}-{job}.log')
    log(f'backport to {name}: {job} in {env["B"]}   (log: {os.path.relpath(logf, ROOT)})')
    with open(logf, 'w', encoding='utf-8') as lf:
        rc = subprocess.run([sys.executable, os.path.abspath(__file__), job], env=env,
                            stdout=lf, stderr=subprocess.STDOUT, check=False).returncode
    if rc:
        print(console_tail(read(logf), 20))
    return rc


def backport_rows(name):
    """Boot the backport to base <name> (built by backport_step(name,
    'prepare')) and return its KUnit, markers and static_keys kselftest
    rows; ftracetest and the lockdown boot run with make test
    BASE=<name>."""
    res = Results(quiet=True)
    out = os.path.join(f'{B}-{name}', 'results.json')
    if os.path.exists(out):
        os.unlink(out)
    backport_step(name, 'test-backport')
    try:
        import json
        with open(out, encoding='utf-8') as f:
            rows = json.load(f)
    except (OSError, ValueError):
        rows = [('run', 'fail', 'no results (build or boot failed, see its log)')]
    for row_name, status, detail in rows:
        res.add(f'backport {name}: {row_name}', status, detail)
    return res


def job_test_backport():
    """The part of make test a backport gets in make test of the default
    base: build, KUnit, the static_keys and markers kselftests."""
    res = Results()
    version = prepare()
    part = Part('test-backport', 'static_keys markers', timeout=1800, kunit=True,
                modtests=True)
    res.add(f'base tree is Linux {version}', 'ok')
    checks.export_rows(res, ctx())
    res.extend(part.run())
    res.save(os.path.join(B, 'results.json'))
    print(res.summary())
    return 1 if res.failed() else 0


def ctx():
    import types
    return types.SimpleNamespace(ROOT=ROOT, BASE=BASE, B=B, SRC=SRC, OBJ=OBJ, LOGS=LOGS, JOBS=JOBS,
                                 CC=CC, run=run, log=log, output=output,
                                 load_series=load_series, base_tree=base_tree,
                                 kernel_version=kernel_version, HarnessError=HarnessError,
                                 step_config=step_config, patch_files=patch_files,
                                 link_tree=link_tree, replace_file=replace_file)


def job_check():
    res = Results()
    step_deps()
    step_tree()
    step_config()
    checks.run_all(res, ctx())
    print(res.summary())
    return 1 if res.failed() else 0


def job_docs_check():
    """make docs-check: the documents and kernel-doc of the applied tree."""
    step_deps()
    step_tree()
    rc, text = checks.docs_check(ctx())
    print(text.rstrip())
    return 1 if rc else 0


def job_series():
    step_deps()
    d = checks.export_series(ctx(), strict=True)
    log(f'series exported to {d}')


def job_series_check():
    step_deps()
    return checks.series_check(ctx())


def job_test_debug():
    """make test-debug: the debug configuration (scripts/debug.py)."""
    return run([sys.executable, os.path.join(ROOT, 'scripts', 'debug.py')], check=False)


def job_bench():
    """make bench: scripts/bench.py, in its own build dir (build-bench)."""
    return run([sys.executable, os.path.join(ROOT, 'scripts', 'bench.py')], check=False)


JOBS_TABLE = {'bench': job_bench, 'test-debug': job_test_debug, 'run': job_run, 'test': job_test, 'check': job_check,
              'series': job_series, 'series-check': job_series_check,
              'docs-check': job_docs_check,
              'test-backport': job_test_backport,
              'prepare': prepare, 'tree': step_tree}


def main(argv):
    if len(argv) != 2 or argv[1] not in JOBS_TABLE:
        print(f'usage: {argv[0]} {"|".join(JOBS_TABLE)}', file=sys.stderr)
        return 2
    try:
        rc = JOBS_TABLE[argv[1]]()
        return rc if isinstance(rc, int) else 0
    except HarnessError as e:
        print(f'[mk] error: {e}', file=sys.stderr)
        if argv[1] == 'test':
            print('0 passed, 1 failed')
        return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
