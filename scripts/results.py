#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The committed results file (doc/results.json) and README's generated
blocks.

make bench, make test and make run record their last result here (one
call at the end of each job); README.md quotes the file only through
blocks

    <!-- results:NAME -->
    ...
    <!-- /results -->

whose content render(NAME) writes, so README never carries a figure
typed by hand that the results file could contradict.  Recording
rewrites the blocks too; the harness's unit tests fail when README's
blocks differ from what the committed file renders.

    python3 scripts/results.py readme   rewrite README's blocks (make results)
    python3 scripts/results.py check    exit 1 if they are out of date
    python3 scripts/results.py show     print every block

Only a plain run of the default base is recorded (no KERNEL_SRC,
EXTRA_CONFIG, LLVM or B=, BACKPORT not none): the figures README
quotes are those of the command it tells a user to run.  RESULTS=none
records nothing.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, 'doc', 'results.json')
README = os.path.join(ROOT, 'README.md')
# The latest make bench's own table and plot, committed beside the file.
BENCH_TABLE = os.path.join(ROOT, 'doc', 'bench-table.txt')
BENCH_PLOT = os.path.join(ROOT, 'doc', 'bench-flip.svg')

BLOCK = re.compile(r'(<!-- results:([\w-]+) -->\n)(.*?)(<!-- /results -->)', re.S)


# ---------------------------------------------------------------- the file

def load(path=RESULTS):
    with open(path, encoding='utf-8') as f:
        return json.load(f)


def dump(data):
    """One bench row per line: the file stays diffable."""
    data, bodies = dict(data), {}
    for key in ('bench', 'distro_bench'):
        rows = data.get(key, {}).get('rows')
        if rows is not None:
            data[key] = dict(data[key], rows=f'@ROWS-{key}@')
            bodies[key] = ',\n'.join('   ' + json.dumps(r, sort_keys=True) for r in rows)
    text = json.dumps(data, indent=1, sort_keys=True)
    for key, body in bodies.items():
        text = text.replace(f'"@ROWS-{key}@"', '[\n' + body + '\n  ]')
    return text + '\n'


def save(data, path=RESULTS):
    tmp = path + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        f.write(dump(data))
    os.replace(tmp, path)


def commit():
    """The short commit of the tree, '-dirty' when a tracked file other
    than the results themselves differs from it."""
    try:
        sha = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.strip()
        st = subprocess.run(['git', 'status', '--porcelain', '--untracked-files=no'],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    ours = {os.path.relpath(p, ROOT) for p in (RESULTS, README, BENCH_TABLE, BENCH_PLOT)}
    dirty = [line[3:] for line in st.splitlines() if line[3:] not in ours]
    return sha + ('-dirty' if dirty else '')


def plain_run(env=None):
    """Why this run is not the plain one README quotes, or None."""
    import bases
    env = os.environ if env is None else env
    if env.get('RESULTS') == 'none':
        return 'RESULTS=none'
    if env.get('BASE', bases.DEFAULT) not in ('', bases.DEFAULT):
        return f'BASE={env["BASE"]}'
    for k in ('KERNEL_SRC', 'EXTRA_CONFIG', 'LLVM'):
        if env.get(k):
            return f'{k} is set'
    if env.get('BACKPORT') == 'none':
        return 'BACKPORT=none'
    return None


def _record(update, env=None):
    """Apply update(data) to the results file and refresh README's
    blocks; a failure here never fails the job that measured."""
    why = plain_run(env)
    if why:
        print(f'[results] not recorded in doc/results.json: {why}', flush=True)
        return False
    try:
        data = load()
        update(data)
        save(data)
        refresh_readme(data)
    except (OSError, ValueError, KeyError) as e:
        print(f'[results] could not record: {e}', flush=True)
        return False
    print('[results] recorded in doc/results.json, README.md blocks rewritten', flush=True)
    return True


def _now():
    return time.strftime('%Y-%m-%d %H:%M:%S %z')


def record_test(summary, elapsed_s, version, job='test'):
    """make test (or make run, job='run'): its last line and time."""
    if job == 'test' and os.environ.get('B'):
        print('[results] not recorded in doc/results.json: B is set', flush=True)
        return False

    def update(data):
        data[job] = {'date': _now(), 'commit': commit(), 'base': version,
                     'elapsed_s': round(elapsed_s), 'summary': summary}
    return _record(update)


def record_run(elapsed_s, version):
    return record_test('demo done', elapsed_s, version, job='run')


def claims_lines(table):
    """The claims section of make bench's table.txt."""
    out, on = [], False
    for line in table.splitlines():
        if line.startswith('claims ('):
            on = True
            continue
        if on:
            if not line.strip():
                break
            out.append(line.strip())
    return out


def record_bench(out_dir):
    """make bench: its results.json (rows, meta) and the claims of its
    table.txt; table.txt and flip.svg are copied to doc/."""
    def update(data):
        with open(os.path.join(out_dir, 'results.json'), encoding='utf-8') as f:
            res = json.load(f)
        with open(os.path.join(out_dir, 'table.txt'), encoding='utf-8') as f:
            table = f.read()
        meta = dict(res['meta'], commit=commit())
        data['bench'] = {'meta': meta, 'claims': claims_lines(table), 'rows': res['rows']}
        with open(BENCH_TABLE, 'w', encoding='utf-8') as f:
            f.write(f'== make bench, {meta["date"]}, Linux {meta["base"]}, commit '
                    f'{sha(meta["commit"])}, {meta["mode"]}\n' + table)
        if os.path.exists(os.path.join(out_dir, 'flip.svg')):
            shutil.copyfile(os.path.join(out_dir, 'flip.svg'), BENCH_PLOT)
    env = dict(os.environ)
    # bench.py sets B to its own build dir; that is the plain run.
    env.pop('B', None)
    return _record(update, env)


def record_distro_bench(out_dir):
    """make distro-bench: its rows, meta and claims (scripts/distro.py)."""
    import distro

    def update(data):
        with open(os.path.join(out_dir, 'results.json'), encoding='utf-8') as f:
            res = json.load(f)
        data['distro_bench'] = {'meta': dict(res['meta'], commit=commit()),
                                'claims': [c.strip() for c in distro.bench_claims(
                                    res['rows'], res['meta']['vulnerabilities'])],
                                'rows': res['rows']}
    env = dict(os.environ)
    # distro.py sets B to the cloud row's build dir; that is the plain run.
    env.pop('B', None)
    return _record(update, env)


# ---------------------------------------------------------------- rendering

def row(data, case, variant, n=None, source='guest'):
    for r in data['bench']['rows']:
        if (r['source'] == source and r['case'] == case and r['variant'] == variant
                and (n is None or r['n'] == n)):
            return r['value']
    raise KeyError(f'make bench has no {source} {case},{variant},{n} row')


def sha(c):
    return c or 'not recorded'


def num(v):
    return f'{v:.0f}'


def minutes(s):
    return f'{s // 60} min {s % 60} s'


def day(date):
    return date.split()[0] if date else 'date not recorded'


def render_headline(data):
    m = data['bench']['meta']
    n = next(r['n'] for r in data['bench']['rows']
             if r['case'] == 'events' and r['variant'] == 'batched_ipi_rounds')
    return (f'Events switched together share one batch of code patching: `1`, then '
            f'`0`, written to `events/enable` switches all {n} trace events of the bench '
            f'kernel in {num(row(data, "events", "batched_ipi_rounds", n))} IPI rounds, '
            f'against {num(row(data, "events", "one_by_one_ipi_rounds", n))} when each '
            f'event\'s own `enable` file is written in turn (`make bench`, '
            f'{day(m["date"])}, Linux {m["base"]}).\n')


def render_times(data):
    """make run and make test: from a fresh clone, and the last run."""
    out = []
    for job in ('run', 'test'):
        fr, last = data['fresh_clone'][job], data.get(job) or {}
        t = f'{minutes(fr["elapsed_s"])} from a fresh clone ({fr["note"]})'
        if last.get('date'):
            t += (f'; last run {minutes(last["elapsed_s"])} ({day(last["date"])}, '
                  f'commit {sha(last["commit"])})')
        out.append(f'- `make {job}`: {t}')
    return '\n'.join(out) + '\n'


def render_status(data):
    t, m = data['test'], data['bench']['meta']
    note = f' ({t["note"]})' if t.get('note') else ''
    return (f'Last `make test`: **{t["summary"]}**, commit {sha(t["commit"])}, '
            f'{day(t["date"])}, Linux {t["base"]} and the 6.12 backport, '
            f'{t["elapsed_s"]} s{note}. Last `make bench`: commit {sha(m["commit"])}, '
            f'{day(m["date"])}, Linux {m["base"]}, {m["elapsed_s"]} s.\n')


def render_figures(data):
    g = lambda c, v, n=None, s='guest': row(data, c, v, n, s)  # noqa: E731
    nothing = g('off', 'nothing')
    rec0 = g('record', 'nothing')
    mit = 'guest-mitigations'
    ev = next(r['n'] for r in data['bench']['rows']
              if r['case'] == 'events' and r['variant'] == 'batched_ipi_rounds')
    dd = next(r['n'] for r in data['bench']['rows']
              if r['case'] == 'dyndbg' and r['variant'] == 'all_ipi_rounds')
    m = data['bench']['meta']
    lines = [
        f'`make bench` of {m["date"]}, Linux {m["base"]}, commit {sha(m["commit"])}, '
        f'{m["mode"]}: guest instructions per iteration, not cycles; the empty '
        f'loop\'s {num(nothing)} subtracted, except in the two "enabled" rows, which '
        f'the claims compare with it.',
        '',
        '| what | MARK / with the series | against |',
        '|---|---|---|',
        f'| disabled site | {num(g("off", "mark") - nothing)} | tracepoint '
        f'{num(g("off", "tracepoint") - nothing)}, load+test of a flag '
        f'{num(g("off", "generic") - nothing)} |',
        f'| enabled, one empty probe (loop included) | {num(g("on", "mark_1probe_empty"))} | tracepoint '
        f'{num(g("on", "tracepoint_1probe_empty"))} |',
        f'| the same, retpolines + call depth tracking (loop included) | '
        f'{num(g("mitigations_on", "mark_1probe_empty", s=mit))} | tracepoint '
        f'{num(g("mitigations_on", "tracepoint_1probe_empty", s=mit))} |',
        f'| record `"%d %p"` in the ring buffer | {num(g("record", "mark") - rec0)} | '
        f'TRACE_EVENT {num(g("record", "tracepoint") - rec0)}, trace_printk '
        f'{num(g("record", "trace_printk") - rec0)}, kprobe event '
        f'{num(g("record", "kprobe_event") - g("record", "kprobe_event_call_only"))} '
        f'(less its call instead of the loop) |',
        f'| BPF tracepoint program on the event | {num(g("bpf", "mark") - rec0)} | '
        f'on the TRACE_EVENT {num(g("bpf", "tracepoint") - rec0)} |',
        f'| BPF raw tracepoint program | {num(g("bpf_raw", "mark") - rec0)} | '
        f'on the tracepoint {num(g("bpf_raw", "tracepoint") - rec0)} |',
        f'| all {ev} events on, then off: IPI rounds | '
        f'{num(g("events", "batched_ipi_rounds", ev))} | one by one '
        f'{num(g("events", "one_by_one_ipi_rounds", ev))} |',
        f'| 1000 static keys on, then off: IPI rounds | '
        f'{num(g("flip", "batch_ipi_rounds", 1000))} | one by one '
        f'{num(g("flip", "one_by_one_ipi_rounds", 1000))} |',
        f'| {dd} `pr_debug()` sites on, then off: IPI rounds | '
        f'{num(g("dyndbg", "all_ipi_rounds", dd))} | one control write per site '
        f'{num(g("dyndbg", "one_by_one_ipi_rounds", dd))} |',
        f'| site size, bytes of text (hot path) | '
        f'{num(g("size", "mark_site_text_total", 1, "host-obj"))} '
        f'({num(g("size", "mark_site_hot_path", 1, "host-obj"))}) | tracepoint '
        f'{num(g("size", "tracepoint_site_text_total", 1, "host-obj"))} '
        f'({num(g("size", "tracepoint_site_hot_path", 1, "host-obj"))}) |',
        '',
        'The claims `make bench` checks (its table, `doc/bench-table.txt`):',
        '',
        '```',
    ] + data['bench']['claims'] + ['```']
    return '\n'.join(lines) + '\n'


def render_distro_figures(data):
    """make distro-bench's figures and claims, or that it has not run."""
    d = data.get('distro_bench')
    if not d:
        return ('Not measured yet: `make distro-bench` records its figures here.\n')
    import distro
    m = d['meta']
    lines = [f'`make distro-bench` of {m["date"]}, Linux {m["base"]}, commit '
             f'{sha(m["commit"])}, Debian\'s {m["config"]} config, {m["mode"]}, booted with '
             f'`{m["append"]}`: guest instructions per iteration, which understate what a '
             'retpoline costs in cycles.', '',
             '| what | MARK / with the series | against |', '|---|---|---|']
    lines += [f'| {w} | {a} | {b} |' for w, a, b in distro.bench_figures(d['rows'])]
    lines += ['', 'Its claims, and `/sys/devices/system/cpu/vulnerabilities` in that guest:',
              '', '```'] + d['claims'] + [''] + m['vulnerabilities'] + ['```']
    return '\n'.join(lines) + '\n'


RENDER = {
    'distro-figures': render_distro_figures,
    'headline': render_headline,
    'times': render_times,
    'status': render_status,
    'figures': render_figures,
}


def refresh(text, data):
    """text with every block's content rendered from data."""
    def sub(mt):
        name = mt.group(2)
        if name not in RENDER:
            raise KeyError(f'README block results:{name}: no such block '
                           f'(known: {", ".join(sorted(RENDER))})')
        return mt.group(1) + RENDER[name](data) + mt.group(4)
    return BLOCK.sub(sub, text)


def blocks(text):
    return [m.group(2) for m in BLOCK.finditer(text)]


def refresh_readme(data=None, path=README):
    data = load() if data is None else data
    with open(path, encoding='utf-8') as f:
        text = f.read()
    new = refresh(text, data)
    if new != text:
        with open(path, 'w', encoding='utf-8') as f:
            f.write(new)
    return new != text


def main(argv):
    cmd = argv[1] if len(argv) > 1 else 'readme'
    if cmd == 'readme':
        changed = refresh_readme()
        print('README.md: blocks ' + ('rewritten' if changed else 'already up to date'))
        return 0
    if cmd == 'check':
        with open(README, encoding='utf-8') as f:
            text = f.read()
        if refresh(text, load()) != text:
            print('README.md: blocks differ from doc/results.json (run make results)')
            return 1
        return 0
    if cmd == 'show':
        data = load()
        for name, fn in RENDER.items():
            print(f'<!-- results:{name} -->\n{fn(data)}<!-- /results -->\n')
        return 0
    print(f'usage: {argv[0]} readme|check|show', file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main(sys.argv))
