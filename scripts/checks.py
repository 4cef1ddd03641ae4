# SPDX-License-Identifier: GPL-2.0
"""Host-side checks of the series and its export as git commits.

export_series(): a git repository of the base tree (committed once and
tagged "base"), the series replayed on top as one commit per entry, and
`git format-patch --cover-letter` into <B>/series-out/.
run_all(): checkpatch --strict on every exported patch, sparse (C=2),
W=1 and coccicheck on every C file the series touches.
"""

import os
import re
import shutil
import subprocess
import textwrap
import time

import bases
import series as series_mod


def read(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return f.read()

def identity(c):
    """Name and mail of whoever exports: git's identity in this checkout
    (user.name/user.email, or git's own fallback)."""
    r = subprocess.run(['git', '-C', c.ROOT, 'var', 'GIT_COMMITTER_IDENT'], text=True,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    m = re.match(r'^(.*?) <(.*)> \d+ [+-]\d{4}$', r.stdout.strip())
    if r.returncode or not m:
        raise c.HarnessError('no git identity to sign the series off with: set '
                             'git config user.name and user.email\n' + r.stderr)
    return m.group(1), m.group(2)


def _git(c, repo, *args, check=True, quiet=True):
    return c.run(['git', '-C', repo] + list(args), check=check, quiet=quiet,
                 logfile=os.path.join(c.LOGS, 'git.log'))


def _git_out(repo, *args):
    return subprocess.run(['git', '-C', repo] + list(args), check=True, text=True,
                          stdout=subprocess.PIPE).stdout.strip()


def base_repo(c):
    base = c.base_tree()
    repo = os.path.join(c.B, 'series-git')
    stamp = os.path.join(c.B, 'series-git.base')
    if (os.path.isdir(os.path.join(repo, '.git')) and os.path.exists(stamp) and
            read(stamp) == base):
        return repo
    shutil.rmtree(repo, ignore_errors=True)
    c.log(f'creating git repo of the base tree in {repo} (once)')
    c.link_tree(base, repo)
    name, mail = identity(c)
    env_id = ['-c', f'user.name={name}', '-c', f'user.email={mail}']
    _git(c, repo, 'init', '-q')
    _git(c, repo, 'add', '-A', '-f')
    _git(c, repo, *env_id, 'commit', '-q', '-m',
         f'Linux {c.kernel_version(base)} (base tree)')
    _git(c, repo, 'tag', '-f', 'base')
    with open(stamp, 'w', encoding='utf-8') as f:
        f.write(base)
    return repo


def export_series(c, strict=False):
    """Replay the series as git commits on the base and write each of its
    series with `git format-patch --cover-letter` to <B>/series-out/<n>/;
    returns <B>/series-out.  strict (make series): a cover letter figure
    that make bench has not measured is an error; otherwise it reads
    "(not measured)" and the checks say so."""
    commits = series_mod.parse(c.BASE.series, c.ROOT, c.BASE.patch_dirs)
    c.load_series()         # refuses an incomplete series file
    repo = base_repo(c)
    _git(c, repo, 'checkout', '-q', '-f', '-B', 'series', 'base')
    _git(c, repo, 'clean', '-q', '-fdx')
    name, mail = identity(c)
    ident = ['-c', f'user.name={name}', '-c', f'user.email={mail}']
    who = f'{name} <{mail}>'
    out = os.path.join(c.B, 'series-out')
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    start = 'base'
    for k, (cover, cms) in enumerate(series_mod.parts(commits), 1):
        for cm in cms:
            _commit(c, repo, cm, ident, who)
        if not cms:
            continue
        d = os.path.join(out, str(k))
        _git(c, repo, 'format-patch', '-q', '--cover-letter', '--subject-prefix=PATCH v3',
             '-o', d, f'{start}..series')
        if cover:
            _fill_cover(c, repo, d, cover, strict)
        start = _git_out(repo, 'rev-parse', 'series')
    return out


def _commit(c, repo, cm, ident, who):
    for f in cm.files:
        dst = os.path.join(repo, f)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        c.replace_file(None, dst, series_mod.fill_exporter(
            read(os.path.join(c.ROOT, 'linux', f)), who))
        # kselftest TEST_PROGS are executable: format-patch keeps the mode
        shutil.copymode(os.path.join(c.ROOT, 'linux', f), dst)
    for p in cm.patches:
        # patch(1), as the build applies them: a patch shared by two
        # bases applies to the older one with offsets or fuzz, and
        # format-patch writes it with that base's context.
        r = subprocess.run(['patch', '-p1', '--no-backup-if-mismatch', '-r', '-',
                            '-d', repo], text=True,
                           input=series_mod.fill_exporter(
                               read(bases.patch_path(c.BASE, p)), who),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           check=False)
        if r.returncode:
            raise c.HarnessError(f'"{cm.subject}": patches/{p} does not '
                                 f'apply:\n{r.stdout}')
        _git(c, repo, 'add', '-A', '-f', *c.patch_files(bases.patch_path(c.BASE, p)))
    if cm.files:
        _git(c, repo, 'add', '-f', *cm.files)
    _git(c, repo, *ident, 'commit', '-q', '-s', '-m', cm.subject + '\n\n' + cm.body)


def _fill_cover(c, repo, d, cover, strict):
    """The cover letter's subject and text from the series file, and a Cc:
    line for each address get_maintainer.pl gives for the series'
    patches (the MAINTAINERS of the tree the series ends with)."""
    path = os.path.join(d, sorted(f for f in os.listdir(d) if f.startswith('0000-'))[0])
    patches = sorted(os.path.join(d, f) for f in os.listdir(d)
                     if re.match(r'^\d{4}-', f) and not f.startswith('0000-'))
    r = subprocess.run([os.path.join(repo, 'scripts/get_maintainer.pl'), '--no-rolestats',
                        '--no-git', '--no-git-fallback'] + patches, cwd=repo, text=True,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if r.returncode:
        raise c.HarnessError(f'get_maintainer.pl failed: {r.stderr[:300]}')
    who = '%s <%s>' % identity(c)
    cc = [l.strip() for l in r.stdout.split('\n') if l.strip() and l.strip() != who]
    text = read(path)
    text = text.replace('*** SUBJECT HERE ***', cover.subject)
    text = text.replace('*** BLURB HERE ***', fill_figures(c, cover.body, strict).rstrip())
    head, sep, rest = text.partition('\n\n')
    head += ''.join(f'\nCc: {a}' for a in cc)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(head + sep + rest)


def bench_results(c):
    """The rows and meta of the latest make bench of this base, or None."""
    import json
    # This base's, else the default base's (a backport's cover letter
    # quotes mainline's figures, and says so).
    for name in dict.fromkeys((c.BASE.name, bases.DEFAULT)):
        bdir = os.environ.get('BENCH_B') or os.path.join(
            c.ROOT, 'build-bench' + ('' if name == bases.DEFAULT else '-' + name))
        try:
            with open(os.path.join(bdir, 'out', 'bench', 'results.json'),
                      encoding='utf-8') as f:
                return json.load(f)
        except (OSError, ValueError):
            continue
    return None


FIGURE = re.compile(r'@BENCH(DIFF)?\(([^)]*)\)@|@BENCH_DATE@')


UNMEASURED = '(not measured)'


def fill_figures(c, text, strict=True):
    """A cover letter's figures from the latest make bench: @BENCH(case,
    variant[,n])@ is a row's value, @BENCHDIFF(case,v1,v2[,n])@ the value
    of v1 less that of v2 (a loop subtracted; v2 may be another case's,
    as case:variant), @BENCH_DATE@ the run's
    date.  A figure make bench has not measured fails a strict export
    and reads UNMEASURED otherwise: a cover letter never carries a
    figure typed by hand."""
    res = bench_results(c)

    def row(case, variant, n):
        # The main guest's row first, then another kernel's (mitigations)
        # or a host-side one (object sizes).
        for r in sorted(res['rows'], key=lambda r: r['source'] != 'guest'):
            if (r['case'] == case and r['variant'] == variant and
                    (n is None or r['n'] == int(n))):
                return r['value']
        raise c.HarnessError(f'cover letter: make bench has no {case},{variant},{n} row')

    def sub(m):
        try:
            return sub1(m)
        except c.HarnessError:
            if strict:
                raise
            return UNMEASURED

    def sub1(m):
        if res is None:
            raise c.HarnessError('cover letter: no make bench results (run make bench)')
        if m.group(0) == '@BENCH_DATE@':
            return res['meta']['date'].split()[0]
        a = [x.strip() for x in m.group(2).split(',')]
        if m.group(1):
            # v2 may name another case as case:variant (a loop baseline).
            c2, v2 = a[2].split(':') if ':' in a[2] else (a[0], a[2])
            v = row(a[0], a[1], a[3] if len(a) > 3 else None) - \
                row(c2, v2, a[3] if len(a) > 3 else None)
        else:
            v = row(a[0], a[1], a[2] if len(a) > 2 else None)
        return f'{v:.0f}'
    def refill(chunk, first='', rest=''):
        return textwrap.fill(' '.join(FIGURE.sub(sub, chunk).split()), width=72,
                             initial_indent=first, subsequent_indent=rest,
                             break_long_words=False, break_on_hyphens=False,
                             fix_sentence_endings=True)

    # Refill the paragraphs whose figures changed their line lengths; in
    # a list (" - " items), each item on its own, the lines before the
    # first item as they are.
    paras = text.split('\n\n')
    for i, para in enumerate(paras):
        if not FIGURE.search(para):
            continue
        items = re.split(r'^ - ', para, flags=re.M)
        if len(items) > 1:
            head = items[0]
            paras[i] = head + '\n'.join(refill(it, ' - ', '   ') for it in items[1:])
        elif not para.startswith(' '):
            paras[i] = refill(para)
    return '\n\n'.join(paras)


def split_rows(res, out):
    """Rows: the first series (the batching) has no marker code, and
    every series' cover letter carries the Cc lines of get_maintainer.pl."""
    first = sorted(os.listdir(out), key=int)[0]
    bad = []
    for f in sorted(os.listdir(os.path.join(out, first))):
        if f.startswith('0000-'):
            continue
        for m in re.finditer(r'^(?:\+\+\+ b/(\S+)|\+(?!\+\+).*)$',
                             read(os.path.join(out, first, f)), re.M):
            line = m.group(0)
            if (m.group(1) and 'marker' in m.group(1)) or \
                    (not m.group(1) and re.search(r'\bMARK\(|\bmarkers?_|MARKERS?\b',
                                                  line)):
                bad.append(f'{f}: {line[:80]}')
    res.add(f'check: series {first} (the batching) adds no marker file or code',
            'fail' if bad else 'ok', '; '.join(bad[:5]))
    nocc = [k for k in sorted(os.listdir(out), key=int)
            for f in os.listdir(os.path.join(out, k))
            if f.startswith('0000-') and not re.search(r'^Cc: ', read(
                os.path.join(out, k, f)).partition('\n\n')[0], re.M)]
    res.add('check: each cover letter has get_maintainer.pl Cc lines',
            'fail' if nocc else 'ok', f'none in series {", ".join(nocc)}' if nocc else '')


def series_patches(out):
    """The exported patches, every series' in order, cover letters left out."""
    res = []
    for k in sorted(os.listdir(out), key=int):
        d = os.path.join(out, k)
        res += [os.path.join(k, f) for f in sorted(os.listdir(d))
                if re.match(r'^\d{4}-', f) and not f.startswith('0000-')]
    return res


def series_c_files(c):
    """Every C file of the kernel the series adds or changes: selftests and
    host programs (scripts/, tools/: modpost) left out, as W=1, sparse and
    coccicheck build kernel objects."""
    files = []
    for cm in c.load_series():
        files += [f for f in cm.files if f.endswith('.c')]
        for p in cm.patches:
            files += [f for f in c.patch_files(bases.patch_path(c.BASE, p))
                      if f.endswith('.c')]
    return [f for f in dict.fromkeys(files)
            if 'selftests' not in f and not f.startswith(('scripts/', 'tools/'))]


def touched_c_files(c):
    """series_c_files() that the current config builds."""
    return [f for f in series_c_files(c)
            if os.path.exists(os.path.join(c.OBJ, f[:-2] + '.o')) and
            os.path.exists(os.path.join(c.SRC, f))]


# The batch APIs: for the kernel's own callers, never for any module.
BATCH_API = re.compile(r'^(static_key_batch_\w+|tracepoint_\w*batch\w*|marker_\w*batch\w*)$')


def export_rows(res, c):
    """A row: no batch function is exported to every module (Module.symvers
    of the build: no namespace, or a namespace any module may import),
    only to named modules (7.3: "module:<names>") or in a namespace
    (6.12: EXPORT_SYMBOL_NS_GPL())."""
    name = 'check: batch functions are exported only to named modules'
    try:
        text = read(os.path.join(c.OBJ, 'Module.symvers'))
    except OSError:
        res.add(name, 'skip', 'no Module.symvers: the kernel is not built')
        return
    found, bad = 0, []
    for line in text.split('\n'):
        f = line.split('\t')
        if len(f) < 4 or not BATCH_API.match(f[1]):
            continue
        found += 1
        if len(f) < 5 or not f[4]:
            bad.append(f[1])
    res.add(name, 'fail' if bad else 'ok',
            f'exported to every module: {", ".join(bad)}' if bad else
            f'{found} namespaced, the rest not exported')


def p9_debug_row(res, c):
    """The 9P transport's debug messages come from its markers: a kernel
    configured with NET_9P_DEBUG but not MARKERS must still get them."""
    obj = os.path.join(c.B, 'kconfig-9p')
    shutil.rmtree(obj, ignore_errors=True)
    os.makedirs(obj)
    with open(os.path.join(obj, 'frag.config'), 'w', encoding='utf-8') as f:
        f.write('CONFIG_NET=y\nCONFIG_NET_9P=y\nCONFIG_NET_9P_DEBUG=y\n'
                '# CONFIG_MARKERS is not set\n')
    make = ['make', '-s', '-C', c.SRC, f'O={obj}']
    r = subprocess.run(make + ['allnoconfig', 'KCONFIG_ALLCONFIG=' + os.path.join(obj, 'frag.config')],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    got = read(os.path.join(obj, '.config')) if r.returncode == 0 else ''
    want = ('CONFIG_NET_9P_DEBUG=y', 'CONFIG_MARKERS=y')
    missing = [w for w in want if not re.search('^' + w + '$', got, re.M)]
    res.add('check: NET_9P_DEBUG without MARKERS asked still gets the markers its messages come from',
            'fail' if r.returncode or missing else 'ok',
            r.stdout[-300:] if r.returncode else
            f'allnoconfig asking NET_9P_DEBUG=y and MARKERS=n: {", ".join(missing)} not in .config'
            if missing else '')
    shutil.rmtree(obj, ignore_errors=True)


def run_all(res, c):
    try:
        out = export_series(c)
    except c.HarnessError as e:
        res.add('check: series exports as git commits', 'fail', str(e)[:300])
        return
    patches = series_patches(out)
    if not patches:
        for n in ('checkpatch', 'sparse', 'W=1', 'coccicheck'):
            res.add(f'check: {n}', 'skip', 'the series has no commits yet')
        return
    res.add(f'check: series exports as {len(patches)} git commits', 'ok')
    split_rows(res, out)
    unmeasured = [k for k in sorted(os.listdir(out), key=int)
                  for f in os.listdir(os.path.join(out, k))
                  if f.startswith('0000-') and UNMEASURED in read(os.path.join(out, k, f))]
    res.add('check: cover letter figures come from make bench',
            'skip' if unmeasured else 'ok',
            f'series {", ".join(unmeasured)}: make bench has not measured every figure '
            '(make series refuses to export them)' if unmeasured else '')
    who = '%s <%s>' % identity(c)
    left = [p for p in patches if series_mod.EXPORTER in read(os.path.join(out, p))]
    named = [p for p in patches if re.search(r'^\+(M:\t|MODULE_AUTHOR\(")' + re.escape(who),
                                             read(os.path.join(out, p)), re.M)]
    res.add('check: MAINTAINERS and MODULE_AUTHOR name the exporter, as Signed-off-by does',
            'fail' if left or not named else 'ok',
            f'{series_mod.EXPORTER} left in {", ".join(left)}' if left else
            '' if named else f'no M: or MODULE_AUTHOR line names {who}')
    src = c.SRC
    bad = []
    # Ignored, and why: FILE_PATH_CHANGES - each file's MAINTAINERS line
    # arrives with it, but checkpatch asks on every new file anyway; the
    # MARK() macros reuse their arguments inside __builtin_choose_expr()
    # and sizeof-like builtins, where they are evaluated once at most
    # (MACRO_ARG_REUSE).
    ignore = 'FILE_PATH_CHANGES,MACRO_ARG_REUSE'
    # 6.12's checkpatch.pl lacks the static_assert exemption mainline
    # has since (7.3: "static_assert|" in the macro exceptions), so it
    # calls <trace/marker_tp.h>'s DECLARE_TRACE() a multi-statement
    # macro; 7.3's script passes the same macro.
    # It also reports the argument of a macro whose body is empty as
    # unused (MACRO_ARG_UNUSED), such as <linux/marker.h>'s
    # __MARK_CALL_SITE(_name) where static calls are not inline; 7.3's
    # script exempts empty bodies and still checks the same macros.
    if c.BASE.name == '6.12':
        ignore += ',MULTISTATEMENT_MACRO_USE_DO_WHILE,MACRO_ARG_UNUSED'
    reused = 0
    base_version = c.kernel_version(c.base_tree())
    for p in patches:
        rc, text, cached = _checkpatch(c, src, ignore, os.path.join(out, p), base_version)
        reused += cached
        log = os.path.join(c.LOGS, f'checkpatch-{p.replace(os.sep, "-")}.log')
        with open(log, 'w', encoding='utf-8') as f:
            f.write(text)
        if rc or text.strip():
            bad.append(f'{p}: ' + ' / '.join(l for l in text.split('\n')
                                              if re.match(r'^(ERROR|WARNING|CHECK)', l))[:300])
    res.add('check: checkpatch --strict on every patch', 'fail' if bad else 'ok',
            '; '.join(bad + ([f'{reused} of {len(patches)} clean results reused'] if reused else [])))
    docs_rows(res, c)
    p9_debug_row(res, c)
    cfiles = touched_c_files(c)
    if not cfiles:
        for n in ('sparse', 'W=1', 'coccicheck'):
            res.add(f'check: {n}', 'skip', 'the series touches no built C file')
        return
    objs = [f[:-2] + '.o' for f in cfiles]
    _warn_check(res, c, 'sparse (C=2)', ['C=2'], objs, r'(warning|error):')
    _warn_check(res, c, 'W=1 build', ['W=1'], objs, r'(warning|error):')
    _cocci(res, c, cfiles)


def _checkpatch(c, src, ignore, patch, base_version):
    """(exit code, output, reused) of checkpatch --strict on one patch
    file, run in the exported tree (series-git), which checkpatch takes
    as its kernel tree.  A clean result is kept under <B>/cache/ and
    reused for the same command line, patch text, checkpatch.pl, base
    and MAINTAINERS (whose status lines it reads for each file).  A patch
    whose message names a commit id is checked every time: checkpatch
    looks the id up in the exported history, which the key leaves out."""
    import hashlib
    git = os.path.join(c.B, 'series-git')
    argv = [os.path.join(src, 'scripts/checkpatch.pl'), '--strict', '--quiet',
            '--ignore', ignore]
    with open(patch, 'rb') as f:
        text = f.read()
    # the message, without format-patch's "From <sha> <date>" line
    message = re.sub(rb'\AFrom [0-9a-f]{40} .*\n', b'', text.split(b'\ndiff --git ', 1)[0])
    h = hashlib.sha256('\0'.join(argv[1:] + [base_version]).encode() + b'\0' + text)
    for f in (argv[0], os.path.join(git, 'MAINTAINERS')):
        try:
            with open(f, 'rb') as fh:
                h.update(b'\0' + fh.read())
        except OSError:
            h.update(b'\0-')
    cache = os.path.join(c.B, 'cache', 'checkpatch-' + h.hexdigest()[:24])
    cacheable = not re.search(rb'(?im)\bcommit\s+[0-9a-f]{5,40}\b|^\s*fixes:', message)
    if cacheable and os.path.exists(cache):
        return 0, '', True
    r = subprocess.run(argv + [patch], cwd=git, text=True, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, check=False)
    if cacheable and r.returncode == 0 and not r.stdout.strip():
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        with open(cache, 'w', encoding='utf-8') as f:
            f.write('clean\n')
    return r.returncode, r.stdout, False


def docs_check(c):
    """scripts/docs-check.sh on the applied tree: (exit code, output)."""
    r = subprocess.run(['bash', os.path.join(c.ROOT, 'scripts', 'docs-check.sh'), c.SRC,
                        os.path.join(c.B, 'docs')], text=True, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, check=False)
    with open(os.path.join(c.LOGS, 'docs-check.log'), 'w', encoding='utf-8') as f:
        f.write(r.stdout)
    return r.returncode, r.stdout


def docs_rows(res, c):
    """The series' documents build with no sphinx warning of their own,
    the static keys section comes after upstream's, and kernel-doc -Wall
    says nothing of the new headers."""
    rc, text = docs_check(c)
    lines = [l for l in text.split('\n') if l and not l.startswith('+ ')]
    res.add('check: documentation builds (sphinx trace, staging) and kernel-doc -Wall '
            'with no warning in the series\' files', 'ok' if rc == 0 else 'fail',
            '' if rc == 0 else ' / '.join(lines[-6:])[:400])


def _compile_warnings(c, name, flags, objs, pattern):
    logf = os.path.join(c.LOGS, re.sub(r'\W+', '_', name) + '.log')
    # C=2 runs the checker on every named object, current or not; other
    # flags need a recompile of just these objects.
    for o in objs if 'C=2' not in flags else ():
        try:
            os.unlink(os.path.join(c.OBJ, o))
        except OSError:
            pass
    # -k: an object that fails to build (a base version calling what a
    # patch removed, e.g. 6.12's fault.c and trace_pagefault_enabled())
    # must not keep the others from being checked
    rc = c.run(['make', '-k', '-C', c.SRC, f'O={c.OBJ}', f'CC={c.CC}', f'-j{c.JOBS}'] + flags
               + objs, logfile=logf, check=False)
    hits = [l for l in read(logf).split('\n') if re.search(pattern, l)]
    return rc, hits


def _norm(line):
    """A compiler warning or coccinelle report without its path, position
    and line numbers, to compare across versions."""
    line = re.sub(r'^\S*?([^/\s]+\.[ch]):[\d:-]+:', r'\1:', line.strip())
    return re.sub(r'\bline \d+', 'line N', line)


def _base_hits(c, files, rerun):
    """What rerun(files) reports with files (paths under the tree) put
    back to their base version; the series' versions are restored."""
    saved = {}
    try:
        for f in files:
            saved[f] = read(os.path.join(c.SRC, f))
            c.replace_file(os.path.join(c.base_tree(), f), os.path.join(c.SRC, f))
        return {_norm(h) for h in rerun(files)}
    finally:
        for f, text in saved.items():
            c.replace_file(None, os.path.join(c.SRC, f), text)


def _sparse(c):
    """(program, None): the sparse this tree's kbuild accepts, the host's
    or else one built from the pinned source (bases.SPARSE); (None, why)
    when there is none."""
    valid = os.path.join(c.SRC, 'scripts', 'checker-valid.sh')

    def accepted(prog):
        if not os.path.exists(valid):
            return shutil.which(prog) is not None
        # kbuild's own question (with its CHECKFLAGS, which the test
        # program does not need) before it runs any checker
        return subprocess.run(['sh', valid, prog], text=True, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, check=False).stdout.strip() == '1'
    if accepted('sparse'):
        return 'sparse', None
    try:
        built = bases.fetch_sparse(c.run, c.log, jobs=c.JOBS)
    except (bases.BaseError, c.HarnessError, OSError) as e:
        return None, ('the host has no sparse this tree accepts (scripts/checker-valid.sh) '
                      f'and the pinned one could not be had: {str(e)[:200]}')
    if accepted(built):
        return built, None
    return None, f'neither the host sparse nor {built} passes scripts/checker-valid.sh'


def _warn_check(res, c, name, flags, objs, pattern):
    """Warnings in the series' objects that the base tree does not have:
    files the series changes are compiled again from the base version."""
    label = f'check: {name} on {len(objs)} files, no new warnings'
    tool = ''
    if 'C=2' in flags:
        prog, why = _sparse(c)
        if not prog:
            res.add(label, 'skip', why)
            return
        flags = flags + [f'CHECK={prog}']
        if prog != 'sparse':
            tool = f'{os.path.basename(os.path.dirname(prog))}, built from the pinned source; '
    rc, hits = _compile_warnings(c, name, flags, objs, pattern)
    logf = os.path.join(c.LOGS, re.sub(r'\W+', '_', name) + '.log')
    if 'sparse is not available or not up to date' in read(logf):
        # kbuild asked with its CHECKFLAGS and said no: nothing was checked
        res.add(label, 'skip', 'kbuild found the sparse not up to date and ran none')
        return
    base = c.base_tree()
    old = set()
    existing = [o[:-2] + '.c' for o in objs
                if os.path.exists(os.path.join(base, o[:-2] + '.c'))]
    if hits and existing:
        old = _base_hits(c, existing, lambda fs: _compile_warnings(
            c, name + ' base', flags, [f[:-2] + '.o' for f in fs], pattern)[1])
    new = [h for h in hits if _norm(h) not in old]
    if rc or new:
        res.add(label, 'fail', tool + (f'make exit {rc}; ' if rc else '') + ' | '.join(new[:5]))
    else:
        res.add(label, 'ok', (tool + (f'{len(hits) - len(new)} also in the base tree'
                                      if hits else '')).rstrip('; '))


def _linuxinclude(c):
    """kbuild's LINUXINCLUDE for this tree and config, which
    scripts/coccicheck passes to spatch: printed by a checker run on one
    built object (C=2 runs the checker whether or not the object is
    current)."""
    obj = next((f[:-2] + '.o' for f in series_c_files(c)
                if os.path.exists(os.path.join(c.OBJ, f[:-2] + '.o'))), None)
    if not obj:
        raise c.HarnessError('no built object to ask kbuild for LINUXINCLUDE')
    r = subprocess.run(['make', '-C', c.SRC, f'O={c.OBJ}', f'CC={c.CC}', 'C=2',
                        'CHECK=' + os.path.join(c.ROOT, 'scripts', 'linuxinclude.sh'), obj],
                       text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       check=False)
    found = re.findall(r'^LINUXINCLUDE=(.*)$', r.stdout, re.M)
    if r.returncode or not found:
        raise c.HarnessError('kbuild printed no LINUXINCLUDE: ' + r.stdout[-300:])
    return found[0]


def _cocci_scripts(c, spatch_version):
    """[(cocci file, its Options: words)]: what scripts/coccicheck runs in
    MODE=report, in its order: every script with "virtual report" whose
    "Requires:" version this spatch meets."""
    def ver(v):
        return tuple(int(x) for x in re.findall(r'\d+', v)[:3])
    found = []
    root = os.path.join(c.SRC, 'scripts', 'coccinelle')
    for f in sorted(os.path.join(d, n) for d, _, ns in os.walk(root)
                    for n in ns if n.endswith('.cocci')):
        text = read(f)
        if not re.search(r'virtual\s+report', text):
            continue
        req = re.search(r'Requires:(.*)', text)
        if req and ver(req.group(1).strip()) > ver(spatch_version):
            continue
        opt = re.search(r'Options:(.*)', text)
        found.append((f, opt.group(1).split() if opt else []))
    return found


def _cocci_run(c, cfiles, logname, inc, spatch):
    """What coccicheck C=2 MODE=report reports on each of <cfiles>: the
    same spatch command line per script and file as scripts/coccicheck
    (its flags, the script's Options:, LINUXINCLUDE, run from the object
    directory), but one spatch per script for all files, each file its
    own group (--file-groups), instead of one per script and file: the
    start-up of spatch and the parsing of the script, most of the time,
    happen once.  A script with an @initialize rule runs once per file.
    <inc>: _linuxinclude(); <spatch>: the first line of spatch --version.
    Returns (scripts run, spatch runs that failed, report lines on the
    files)."""
    logf = os.path.join(c.LOGS, logname)
    version = re.search(r'version (\S+)', spatch)
    if not version:
        return 0, 0, []
    inc = inc.replace('-I', '-I ').replace(' -include', ' --include')
    groups = os.path.join(c.LOGS, logname + '.groups')
    with open(groups, 'w', encoding='utf-8') as f:
        f.write(''.join(os.path.join(c.SRC, cf) + '\n\n' for cf in cfiles))
    failed, text = 0, ''
    scripts = _cocci_scripts(c, version.group(1))
    for cocci, opts in scripts:
        cmd = (['spatch', '-D', 'report', '--no-show-diff', '--very-quiet', '--cocci-file',
                cocci] + opts + inc.split())
        # state an @initialize rule sets up (badzero.cocci's table of
        # functions) would carry from one file to the next in one spatch:
        # such scripts run once per file, as coccicheck runs them
        runs = ([[os.path.join(c.SRC, cf)] for cf in cfiles]
                if re.search(r'^@\s*initialize', read(cocci), re.M)
                else [['--file-groups', groups]])
        for args in runs:
            r = subprocess.run(cmd + args, cwd=c.OBJ, text=True, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, check=False)
            text += ' '.join(cmd + args) + '\n' + r.stdout
            if r.returncode:
                failed += 1
                text += f'spatch exit {r.returncode}\n'
    with open(logf, 'w', encoding='utf-8') as f:
        f.write(text)
    hits = [l for l in text.split('\n')
            if re.match(r'^\S+\.[ch]:\d+:', l) and any(f in l for f in cfiles)]
    return len(scripts), failed, hits


def _inputs_key(c, what):
    """A digest of everything a check's result follows from: the series
    as it stands (linux/, patches/, the series files), the base version,
    the tool's version and <what>; the base tree itself is pinned."""
    import hashlib
    h = hashlib.sha256(what.encode())
    h.update(c.kernel_version(c.base_tree()).encode())
    for top in ('linux', 'patches', 'series'):
        path = os.path.join(c.ROOT, top)
        files = [path] if os.path.isfile(path) else sorted(
            os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs)
        for f in files:
            h.update(os.path.relpath(f, c.ROOT).encode() + b'\0')
            with open(f, 'rb') as fh:
                h.update(fh.read())
    return h.hexdigest()[:24]


def _cocci(res, c, cfiles):
    """coccicheck MODE=report on each file, as the kernel documents for
    single files: C=2 with CHECK=scripts/coccicheck (absolute: kbuild
    runs it from the object directory).  Reports the base version of a
    file the series changes also gets (mainline's own) do not count.
    spatch takes minutes per run: a result is kept under <B>/cache/ and
    reused, saying so, while the series, the base and spatch are the
    same."""
    if not shutil.which('spatch'):
        res.add('check: coccicheck', 'fail', 'spatch missing (apt-get install coccinelle)')
        return
    import json
    spatch = subprocess.run(['spatch', '--version'], text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, check=False).stdout.split('\n')[0]
    # "grouped": results of the per-file kbuild runner are not reused
    cache = os.path.join(c.B, 'cache', 'coccicheck-' + _inputs_key(
        c, 'grouped ' + spatch + ' '.join(cfiles)) + '.json')
    if os.path.exists(cache):
        with open(cache, encoding='utf-8') as f:
            label, status, detail, when = json.load(f)
        res.add(label, status, (detail + '; ' if detail else '') +
                f'result of {when} for the same series, base and spatch ({cache})')
        return
    rows = len(res.rows)
    _cocci_run_all(res, c, cfiles, spatch)
    label, status, detail = res.rows[rows]
    if status != 'fail':
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        with open(cache, 'w', encoding='utf-8') as f:
            json.dump([label, status, detail, time.strftime('%Y-%m-%d %H:%M')], f)


def _cocci_run_all(res, c, cfiles, spatch):
    """_cocci() without its cache."""
    label = f'check: coccicheck MODE=report on {len(cfiles)} files'
    # once: asked again with base versions swapped in, kbuild would
    # rebuild the object it checks
    try:
        inc = _linuxinclude(c)
    except c.HarnessError as e:
        res.add(label, 'fail', str(e)[:300])
        return
    scripts, failed, hits = _cocci_run(c, cfiles, 'coccicheck.log', inc, spatch)
    base = c.base_tree()
    # only the files with reports run again, from their base version
    existing = [f for f in cfiles if os.path.exists(os.path.join(base, f))
                and any(f in h for h in hits)]
    old, failed_base = set(), []
    if hits and existing:
        def base_run(fs):
            _, base_failed, reports = _cocci_run(c, fs, 'coccicheck-base.log', inc, spatch)
            failed_base.append(base_failed)
            return reports
        old = _base_hits(c, existing, base_run)
    new = [h for h in hits if _norm(h) not in old]
    if failed or not scripts or new:
        res.add(label, 'fail', (f'{failed} spatch runs failed ({scripts} scripts); '
                                if failed or not scripts else '') +
                ('spatch failed on the base versions; ' if any(failed_base) else '') +
                ' | '.join(new[:5]))
    else:
        res.add(label, 'ok', f'{scripts} scripts' +
                (f'; {len(hits)} reports also in the base tree' if hits else ''))


def series_check(c):
    """Build every prefix of the series (bisectability)."""
    commits = c.load_series()
    export_series(c)
    repo = os.path.join(c.B, 'series-git')
    obj = os.path.join(c.B, 'bisect-obj')
    shas = _git_out(repo, 'rev-list', '--reverse', 'base..series').split()
    failed = 0
    # SERIES_FROM=N starts at the N-th prefix (the earlier ones built
    # before); SERIES_ONLY=N,M,... builds only those prefixes (those a
    # change touched, when the others are known to build); the count
    # covers the prefixes built.
    first = int(os.environ.get('SERIES_FROM') or 1)
    only = {int(x) for x in os.environ.get('SERIES_ONLY', '').split(',') if x.strip()}
    built = 0
    for n, sha in enumerate(shas, 1):
        if n < first or (only and n not in only):
            continue
        built += 1
        _git(c, repo, 'checkout', '-q', '-f', sha)
        # Each prefix gets its own config from the fragments: options a
        # later commit adds must not linger, new ones must be turned on.
        c.step_config(src=repo, obj=obj, strict=False, salt=sha)
        try:
            c.run(['make', '-C', repo, f'O={obj}', f'CC={c.CC}', f'-j{c.JOBS}',
                   'bzImage', 'modules'], logfile=os.path.join(c.LOGS, f'bisect-{n:02d}.log'))
            # The series' kselftests must install at every prefix too.
            if os.path.isdir(os.path.join(repo, 'tools/testing/selftests/markers')):
                ksft = os.path.join(c.B, 'bisect-ksft')
                shutil.rmtree(ksft, ignore_errors=True)
                c.run(['make', '-C', os.path.join(repo, 'tools/testing/selftests'),
                       'TARGETS=markers', f'O={ksft}-obj', f'INSTALL_PATH={ksft}',
                       'install'], logfile=os.path.join(c.LOGS, f'bisect-{n:02d}-ksft.log'))
            c.log(f'[{n}/{len(shas)}] builds: {commits[n - 1].subject}')
        except c.HarnessError as e:
            failed += 1
            c.log(f'[{n}/{len(shas)}] BUILD FAILS: {commits[n - 1].subject}\n{e}')
    _git(c, repo, 'checkout', '-q', '-f', 'series')
    print(f'{built - failed} passed, {failed} failed')
    return 1 if failed else 0
