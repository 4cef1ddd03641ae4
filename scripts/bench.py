#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench: build a bench kernel, boot it, measure, print one table.

Steps: deps, tree, config (+ configs/bench.config), build (mk.py), then
  guest  - scripts/guest/bench.sh loads samples/markers/marker-bench.ko,
           which measures on load; under TCG with -icount shift=0 the
           guest TSC counts instructions (1 insn = 1 ns of guest time)
  host   - scripts/bench/nop_bench.c, built with gcc -O2, runs the off
           and NOP cases on the host CPU in TSC cycles
  size   - bytes per MARK site and per TRACE_EVENT, from marker-bench.o
  macro  - scripts/guest/macro.sh: hackbench and a pipe ping-pong (perf
           bench) on this kernel, and on the same tree and config with the
           bench-only patch placing the standard markers (built in
           $B/obj-marked; 6.12 only), without and with a counting probe
Writes $B/out/bench/results.csv, results.json and flip.svg (B defaults
to build-bench/).  Nothing asserts a time.
"""

import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'scripts'))
import bases  # noqa: E402

# mk reads B when imported.  Only as make bench's own script: distro.py
# and the harness tests import this file for its helpers.
if __name__ == '__main__':
    os.environ['B'] = os.environ.get('B') or bases.default_build_dir('bench')
import mk  # noqa: E402

FLIP_NS = (1, 10, 100, 1000, 5000)
# Places the standard markers (syscalls, faults, irqs, context switch)
# for case macro only: the posted series adds no site beside an existing
# tracepoint, so the patch is not in it.  patches/bench/<base>-...; 6.12
# only.
MACRO_PATCH = 'markers-instrumentation.patch'


def macro_patch():
    return os.path.join(ROOT, 'patches', 'bench', f'{mk.BASE.name}-{MACRO_PATCH}')
MACRO_BENCHES = ('hackbench', 'pipe')
# One vCPU: with two, TCG runs them round-robin on slices of host time,
# and the same run on the same kernel spreads by about 10%.
MACRO_CPUS = 1
# Fewer random layouts between runs (macro.sh also turns off user ASLR).
MACRO_APPEND = ('kunit.enable=0', 'nokaslr', 'randomize_kstack_offset=off')


def kvm():
    return os.environ.get('VM_ACCEL', 'tcg') == 'kvm'


def parse_csv(text, source):
    rows = []
    for line in text.strip().split('\n'):
        parts = line.strip().split(',')
        if len(parts) != 5:
            continue
        c, variant, n, value, unit = parts
        try:
            v = float(value)
        except ValueError:
            continue
        rows.append({'source': source, 'case': c, 'variant': variant,
                     'n': int(n), 'value': v, 'unit': unit})
    return rows


def build_host_prog():
    exe = os.path.join(mk.B, 'host', 'nop_bench')
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    mk.run(['gcc', '-O2', '-Wall', '-o', exe,
            os.path.join(ROOT, 'scripts', 'bench', 'nop_bench.c')],
           logfile=os.path.join(mk.LOGS, 'nop_bench-build.log'))
    # The BPF case's programs; scripts/guest/bench.sh loads them with the
    # markers kselftest's marker_bpf (a note row where either is missing).
    clang = shutil.which('clang-19') or shutil.which('clang')
    if clang:
        # bench_bpf_raw.bpf.o: its raw tracepoint programs (-DBENCH_RAW)
        for name, extra in (('bench_bpf', []), ('bench_bpf_raw', ['-DBENCH_RAW'])):
            mk.run([clang, '-O2', '-g', '-target', 'bpf', *extra,
                    '-I/usr/include/' + mk.output(['gcc', '-dumpmachine']).strip(),
                    '-c', os.path.join(ROOT, 'scripts', 'bench', 'bench_bpf.bpf.c'),
                    '-o', os.path.join(mk.B, 'host', name + '.bpf.o')],
                   logfile=os.path.join(mk.LOGS, name + '-build.log'))
    return exe


def run_host_prog(exe):
    mk.log(f'$ {exe}   (host CPU, pinned)')
    p = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, check=False)
    if p.returncode:
        raise mk.HarnessError(f'{exe} failed:\n{p.stdout}')
    return parse_csv(p.stdout, 'host')


# ---------------------------------------------------------------- size

def objdump_syms(obj):
    """{name: (section, size)} from objdump -t."""
    syms = {}
    for line in mk.output(['objdump', '-t', obj]).split('\n'):
        m = re.match(r'^[0-9a-f]+ \S.{6} (\S+)\s+([0-9a-f]+) (\S+)$', line)
        if m:
            syms[m.group(3)] = (m.group(1), int(m.group(2), 16))
    return syms


def fn_bytes(obj, name):
    """(total bytes, bytes up to the first return) of a function, its
    .cold part included in the total."""
    text = mk.output(['objdump', '-dr', '--no-show-raw-insn',
                      f'--disassemble={name}', obj])
    insns = []
    relocs = {}
    for line in text.split('\n'):
        m = re.match(r'^\s+([0-9a-f]+):\s+(R_X86_64_\w+)\s+(\S+)', line)
        if m:
            relocs[int(m.group(1), 16)] = m.group(3)
            continue
        m = re.match(r'^\s+([0-9a-f]+):\s+(\S.*)$', line)
        if m:
            insns.append([int(m.group(1), 16), m.group(2)])
    for i, (addr, ins) in enumerate(insns):
        end = insns[i + 1][0] if i + 1 < len(insns) else addr + 5
        if any(addr < a < end and t.startswith('__x86_return_thunk')
               for a, t in relocs.items()):
            insns[i][1] += ' <return_thunk>'
    if not insns:
        return None, None
    hot = None
    for i, (addr, ins) in enumerate(insns):
        m = re.match(r'^jmp\s+\S+\s+<([^>+]+)', ins)
        tail_call = m and m.group(1) != name
        if ins.startswith('ret') or ('jmp' in ins and '<return_thunk>' in ins) or tail_call:
            end = insns[i + 1][0] if i + 1 < len(insns) else None
            if end is None:
                end = addr + (5 if 'jmp' in ins else 1)
            hot = end - insns[0][0]
            break
    return hot, None


def size_case(obj):
    """Bytes per MARK site and per TRACE_EVENT from marker-bench.o."""
    rows = []
    if not os.path.exists(obj):
        return rows
    syms = objdump_syms(obj)

    def add(variant, value, unit='bytes'):
        rows.append({'source': 'host-obj', 'case': 'size', 'variant': variant,
                     'n': 1, 'value': float(value), 'unit': unit})

    def fsize(name):
        total = sum(sz for s, (sec, sz) in syms.items()
                    if s == name or s.startswith(name + '.'))
        return total

    base = fsize('marker_bench_size_none')
    base_hot, _ = fn_bytes(obj, 'marker_bench_size_none')
    for what, fn in (('mark', 'marker_bench_size_mark'),
                     ('tracepoint', 'marker_bench_size_tracepoint')):
        hot, _ = fn_bytes(obj, fn)
        if hot is not None and base_hot is not None:
            add(f'{what}_site_hot_path', hot - base_hot)
        add(f'{what}_site_text_total', fsize(fn) - base)
    # gcc outlines the tracepoint's inline trace_<event>() when several
    # functions use it; each use is then a call to this body.
    add('tracepoint_trace_fn_outlined', fsize('trace_marker_bench_tp'))
    sites = [s for s in syms if s.startswith('__mark_site')]
    if sites:
        add('mark_site_descriptor', syms[sites[0]][1])
        add('mark_sites_in_object', len(sites), 'count')
    add('jump_table_entry', 16)
    # Everything TRACE_EVENT(marker_bench_tp) defines, by symbol.
    ev = {s: v for s, v in syms.items() if 'marker_bench_tp' in s}
    add('trace_event_definition', sum(sz for _, sz in ev.values()))
    add('trace_event_definition_text',
        sum(sz for sec, sz in ev.values() if sec.startswith('.text')))
    add('trace_event_symbols', len(ev), 'count')
    return rows


def tp_size_case(vmlinux):
    """Case tp_size: what connecting marker probes to tracepoints by name
    (<trace/marker_tp.h>) costs in vmlinux, beside what BPF raw
    tracepoints (<trace/bpf_probe.h>) cost for the same tracepoints."""
    rows = []
    if not os.path.exists(vmlinux):
        return rows
    syms = {}
    for line in mk.output(['nm', '-S', vmlinux]).splitlines():
        f = line.split()
        if len(f) == 4:
            syms[f[3]] = (f[2], int(f[1], 16))
        elif len(f) == 3:
            syms[f[2]] = (f[1], 0)
    addr = {}
    for line in mk.output(['nm', vmlinux]).splitlines():
        f = line.split()
        if len(f) == 3:
            addr[f[2]] = int(f[0], 16)

    def add(variant, value, unit='bytes'):
        rows.append({'source': 'host-obj', 'case': 'tp_size', 'variant': variant,
                     'n': 0, 'value': float(value), 'unit': unit})

    def code(prefix):
        fns = [sz for s, (t, sz) in syms.items() if s.startswith(prefix) and t in 'tT']
        return len(fns), sum(fns)

    def section(name):
        a, b = addr.get(f'__start_{name}'), addr.get(f'__stop_{name}')
        return b - a if a is not None and b is not None else None

    n, size = code('__mtp_probe_')
    add('marker_classes', n, 'count')
    add('marker_probe_code', size)
    add('marker_hit_code', sum(sz for s, (t, sz) in syms.items()
                               if re.fullmatch(r'marker_tp_hit\d+', s)))
    add('marker_types', sum(sz for s, (t, sz) in syms.items()
                            if s.startswith('__mtp_types_')))
    desc = section('__marker_tp')
    if desc is not None:
        add('marker_descriptors', desc)
    n, size = code('__bpf_trace_')
    add('bpf_classes', n, 'count')
    add('bpf_probe_code', size)
    add('bpf_run_code', sum(sz for s, (t, sz) in syms.items()
                            if re.fullmatch(r'bpf_trace_run\d+', s)))
    raw = section('_bpf_raw_tp')
    if raw is not None:
        add('bpf_raw_tp_map', raw)
    add('tracepoints', sum(1 for s in syms if s.startswith('__tracepoint_')), 'count')
    add('marker_entries', sum(1 for s in syms if s.startswith('__mtp_entry_')), 'count')
    return rows


def tp_size_table(rows):
    def v(variant):
        return fmt(val(rows, 'host-obj', 'tp_size', variant), 0)
    return ['tp_size: tracepoints by name in vmlinux (<trace/marker_tp.h>) beside BPF raw '
            f'tracepoints (<trace/bpf_probe.h>), {v("tracepoints")} tracepoints, '
            f'{v("marker_entries")} connectable by name',
            f'  markers: {v("marker_classes")} class probes {v("marker_probe_code")} bytes, '
            f'marker_tp_hit<N> {v("marker_hit_code")}, descriptors '
            f'{v("marker_descriptors")}, type tables {v("marker_types")}',
            f'  BPF:     {v("bpf_classes")} class probes {v("bpf_probe_code")} bytes, '
            f'bpf_trace_run<N> {v("bpf_run_code")}, __bpf_raw_tp_map {v("bpf_raw_tp_map")}']


# ---------------------------------------------------------------- output

def val(rows, source, c, variant, n=None):
    for r in rows:
        if (r['source'] == source and r['case'] == c and r['variant'] == variant and
                (n is None or r['n'] == n)):
            return r['value']
    return None


def fmt(v, nd=2):
    if v is None:
        return '-'
    if abs(v) >= 1000 or float(v).is_integer():
        return f'{v:.0f}'
    return f'{v:.{nd}f}'


def table(rows, guest_unit, vulns='', user_extra=''):
    lines = []
    w = (7, 26, 10, 12, 10, 11)

    def line(*cells):
        lines.append('  '.join(str(c).ljust(w[i]) if i < 2 else str(c).rjust(w[i])
                               for i, c in enumerate(cells)))

    lines.append(f'guest: {guest_unit}')
    lines.append('host:  TSC cycles per iteration (scripts/bench/nop_bench.c, '
                 'pinned, gcc -O2)')
    lines.append('delta: minus the row marked "base" of the same case')
    lines.append('')
    line('case', 'variant', 'guest', 'guest delta', 'host', 'host delta')
    line(*['-' * x for x in w])

    def section(c, variants, base, host_map=None):
        gb = val(rows, 'guest', c, base)
        hb = val(rows, 'host', c, (host_map or {}).get(base, base)) if host_map is not None else None
        for v in variants:
            g = val(rows, 'guest', c, v)
            h = None
            if host_map is not None and v in host_map:
                h = val(rows, 'host', c, host_map[v])
                hb = val(rows, 'host', c, host_map.get(base, base))
            gd = g - gb if g is not None and gb is not None and v != base else None
            hd = h - hb if h is not None and hb is not None and v != base else None
            line(c, v + (' (base)' if v == base else ''), fmt(g), fmt(gd), fmt(h), fmt(hd))

    off = ['nothing', 'mark', 'generic', 'immediate', 'tracepoint', 'pr_debug']
    hmap = {v: v for v in ('nothing', 'mark', 'generic', 'immediate')}
    section('off', off, 'nothing', hmap)
    section('off', ['copy_' + v for v in off], 'copy_nothing',
            {'copy_' + v: 'copy_' + v for v in hmap})
    on = sorted({r['variant'] for r in rows if r['source'] == 'guest' and r['case'] == 'on'
                 and r['unit'] == 'tsc'},
                key=lambda v: (not v.startswith('mark'), v))
    gb = val(rows, 'guest', 'off', 'nothing')
    for v in on:
        g = val(rows, 'guest', 'on', v)
        base = val(rows, 'guest', 'on', 'call_target') if v.startswith('kprobe') else gb
        line('on', v, fmt(g), fmt(g - base if g is not None and base is not None
                                   and v != 'call_target' else None), '-', '-')
    section('atomic', ['nothing', 'cmpxchg', 'local_cmpxchg', 'this_cpu_cmpxchg',
                       'preempt_disable_enable'], 'nothing')
    section('atomic', ['irqs_on_nothing', 'irq_save_restore'], 'irqs_on_nothing')
    nops = ['baseline', 'jmp2', 'jmp5', 'nop3_2', 'nop66x4_90', 'p6_nop5']
    section('nop', nops, 'baseline', {v: v for v in nops})
    # bpf: the same bpftrace program on the marker's and the tracepoint's event
    rec = [r for r in rows if r['case'] in ('record', 'bpf', 'bpf_raw')
           and r['source'] == 'guest']
    rb = val(rows, 'guest', 'record', 'nothing')
    for r in rec:
        if r['variant'] == 'nothing':
            continue
        if r['unit'].startswith('skip'):
            line(r['case'], r['variant'], 'skipped', '', '', '')
            lines.append(f'    ({r["unit"][5:]})')
        elif r['unit'] == 'tsc':
            b = rb
            if r['variant'] == 'kprobe_event':
                b = val(rows, 'guest', 'record', 'kprobe_event_call_only')
            line(r['case'], r['variant'], fmt(r['value']),
                 fmt(r['value'] - b if b is not None and
                     r['variant'] != 'kprobe_event_call_only' else None), '-', '-')
    for r in rows:
        if r['unit'] == 'error':
            lines.append(f'    error: {r["case"]} {r["variant"]} returned {r["value"]:.0f}')
    lines.append('')
    unit = 'instructions' if not kvm() else 'cycles'
    lines.append(f'flip: enable + disable of N keys, one site each; time in guest TSC '
                 f'ticks ({unit}) and IPI rounds / text_poke batches')
    fw = (6, 14, 8, 8, 14, 8, 8, 14, 8, 8)
    hdr = ('N', 'one-by-one', 'IPIs', 'batches', 'one batch', 'IPIs', 'batches',
           'batches<=256', 'IPIs', 'batches')
    lines.append('  '.join(h.rjust(fw[i]) for i, h in enumerate(hdr)))
    for n in FLIP_NS:
        cells = [n]
        for mode in ('one_by_one', 'batch', 'batch256'):
            cells += [val(rows, 'guest', 'flip', mode, n),
                      val(rows, 'guest', 'flip', mode + '_ipi_rounds', n),
                      val(rows, 'guest', 'flip', mode + '_batches', n)]
        if all(c is None for c in cells[1:]):
            continue
        lines.append('  '.join(fmt(c).rjust(fw[i]) for i, c in enumerate(cells)))
    ev = val(rows, 'guest', 'events', 'batched')
    if ev is not None:
        n = next(r['n'] for r in rows if r['case'] == 'events' and r['variant'] == 'batched')
        lines.append('')
        lines.append(f'enable + disable all events ({n} events; guest ns, '
                     f'{"cycles" if kvm() else "instructions"} while busy)')
        lines.append('  '.join(h.rjust(14) for h in ('', 'ns', 'IPI rounds', 'batches')))
        for mode, label in (('one_by_one', 'one by one'), ('batched', 'events/enable')):
            cells = [val(rows, 'guest', 'events', mode),
                     val(rows, 'guest', 'events', mode + '_ipi_rounds'),
                     val(rows, 'guest', 'events', mode + '_batches')]
            lines.append(label.rjust(14) + '  ' + '  '.join(fmt(c, 0).rjust(14) for c in cells))
    lines += dyndbg_table(rows)
    up = [r for r in rows if r['source'] == 'guest-up' and r['case'] == 'record']
    if up:
        ub = val(rows, 'guest-up', 'record', 'nothing')
        lines.append('')
        lines.append('record, 1 vCPU (same kernel and module booted with --cpus 1; '
                     'guest units, minus the empty loop)')
        for r in up:
            if r['unit'] == 'tsc' and r['variant'] not in ('nothing', 'kprobe_event_call_only'):
                smp = val(rows, 'guest', 'record', r['variant'])
                lines.append(f'  {r["variant"]:24s} UP {fmt(r["value"] - ub):>8s}   '
                             f'SMP(2) {fmt(smp - rb if smp is not None and rb is not None else None):>8s}')
    lines.append('')
    lines += mitigations_table(rows, vulns)
    lines.append('')
    lines += user_table(rows, user_extra)
    lines.append('')
    lines += scale_table(rows)
    lines.append('')
    lines += tp_size_table(rows)
    lines.append('')
    lines += macro_table(rows)
    lines.append('')
    lines.append('claims (issue 5 "done when"), from the figures above:')
    lines += claims(rows)
    lines.append('')
    lines.append('size (bytes, from samples/markers/marker-bench.o)')
    for r in rows:
        if r['case'] == 'size':
            lines.append(f'  {r["variant"]:32s} {fmt(r["value"]):>8s} {r["unit"]}')
    return '\n'.join(lines)


def dyndbg_table(rows):
    """Dynamic debug: every pr_debug() site without a class switched on
    and off, one control write per site and change against one write for
    all, with what each cost per write, and the goal for a write:
    3 x ceil(pokes / text_poke batch size) IPI rounds."""
    n = next((r['n'] for r in rows if r['case'] == 'dyndbg' and r['variant'] == 'all'
              and r['source'] == 'guest'), None)
    if n is None:
        return []
    skip = [r['unit'] for r in rows if r['case'] == 'dyndbg' and r['unit'].startswith('skip')]
    if skip:
        return ['', f'dynamic debug: skipped ({skip[0][5:]})']
    vmax = val(rows, 'guest', 'flip', 'batch_max', 0)
    out = ['', f'dynamic debug: {n:.0f} pr_debug() sites without a class, printing switched '
           'on then off (<debugfs>/static_keys/stats)',
           '  '.join(h.rjust(12) for h in ('', 'writes', 'pokes', 'IPI rounds', 'text_poke b.',
                                            'key batches', 'rounds/write', 'goal/write'))]
    for mode, label in (('one_by_one', 'one per site'), ('all', 'one for all')):
        w = val(rows, 'guest', 'dyndbg', mode)
        cells = [w] + [val(rows, 'guest', 'dyndbg', f'{mode}_{k}')
                       for k in ('pokes', 'ipi_rounds', 'batches', 'key_batches')]
        per = cells[2] / w if w and cells[2] is not None else None
        goal = (3 * math.ceil(cells[1] / w / vmax) if w and vmax and cells[1] is not None
                else None)
        out.append(label.rjust(12) + '  ' + '  '.join(fmt(c, 0).rjust(12) for c in cells) +
                   '  ' + fmt(per, 1).rjust(12) + '  ' + fmt(goal, 0).rjust(12))
    return out


def insn_le(a, b):
    """a <= b in whole guest instructions per iteration.  A figure is a
    run's instructions over its iterations; what is left below one
    instruction is the run's own fixed part (its setup and any interrupt)
    spread over the loop, not the site's, and is not compared."""
    return round(a) <= round(b)


def claim_line(text, a, b, ok):
    """One line of a claims list: whether ok(a, b) holds, or n/a."""
    if a is None or b is None:
        return f'  n/a   {text}: not measured'
    return f'  {"meets" if ok(a, b) else "MISSES":5s} {text}: {fmt(a)} vs {fmt(b)}'


def claims(rows):
    def g(c, v, src='guest'):
        return val(rows, src, c, v)

    out = []

    def claim(text, a, b, ok):
        out.append(claim_line(text, a, b, ok))

    claim('off = one NOP (MARK off - nothing, guest insns; want 1)',
          (g('off', 'mark') or 0) - (g('off', 'nothing') or 0) if g('off', 'mark') else None,
          1, lambda a, b: round(a) <= b)
    claim('MARK on (1 empty probe) <= tracepoint with 1 empty probe',
          g('on', 'mark_1probe_empty'), g('on', 'tracepoint_1probe_empty'),
          insn_le)
    claim('the same with retpolines and call depth tracking on',
          g(MIT_CASE + 'on', 'mark_1probe_empty', MIT),
          g(MIT_CASE + 'on', 'tracepoint_1probe_empty', MIT),
          insn_le)
    rb = g('record', 'nothing') or 0
    rm, rt, rp = g('record', 'mark'), g('record', 'tracepoint'), g('record', 'trace_printk')
    claim('MARK record <= TRACE_EVENT record', rm and rm - rb, rt and rt - rb,
          insn_le)
    claim('MARK record <= 0.5 x trace_printk', rm and rm - rb, rp and 0.5 * (rp - rb),
          lambda a, b: a <= b)
    bm, bt = g('bpf', 'mark'), g('bpf', 'tracepoint')
    claim('BPF program on a marker event <= on the TRACE_EVENT', bm and bm - rb,
          bt and bt - rb, insn_le)
    bm, bt = g('bpf_raw', 'mark'), g('bpf_raw', 'tracepoint')
    claim('raw tracepoint BPF program on a marker <= on the tracepoint', bm and bm - rb,
          bt and bt - rb, insn_le)
    for b in MACRO_BENCHES:
        m, u = macro_median(rows, 'marked_' + b), macro_median(rows, 'unmarked_' + b)
        claim(f'macro {b}: markers placed, no probe, |delta| < 1% (percent)',
              abs(100 * (m - u) / u) if m is not None and u else None, 1,
              lambda a, b: a < b)
    for op in SCALE_OPS:
        m = [x for _, _, x in scale_marginal(rows, op + '_cpu')]
        ok = [x for x in m if x is not None and x > 0]
        claim(f'scale {op}: marginal CPU time of the caller per marker within 2x from '
              'N=10 to 10000 (max/min of the marginals)',
              max(ok) / min(ok) if len(ok) == len(m) else None, 2, lambda a, b: a <= b)
    # The flip rows count two batches: enable all, then disable all.
    r1000 = val(rows, 'guest', 'flip', 'batch_ipi_rounds', 1000)
    claim('batch of 1000 keys = 3 IPI rounds (per batch)',
          r1000 / 2 if r1000 is not None else None, 3, lambda a, b: a == b)
    # The 4096-entry text_poke vector (01b) against batches that never
    # exceed 256 pokes, side by side in one boot.
    r256 = val(rows, 'guest', 'flip', 'batch256_ipi_rounds', 1000)
    t1, t256 = (val(rows, 'guest', 'flip', m, 1000) for m in ('batch', 'batch256'))
    claim('1000 keys: one batch of 1000 pokes, fewer IPI rounds than batches '
          'of <= 256 (rounds, one vs <=256)', r1000, r256, lambda a, b: a < b)
    claim('1000 keys: one batch of 1000 pokes, less time than batches of <= 256 '
          '(TSC, one vs <=256)', t1, t256, lambda a, b: a < b)
    return out


def svg_plot(rows, path, unit):
    """Flip cost against N, log-log, one line per mode, written by hand."""
    series = {}
    for mode, colour in (('one_by_one', '#d62728'), ('batch', '#1f77b4'),
                         ('batch256', '#2ca02c')):
        pts = [(n, val(rows, 'guest', 'flip', mode, n)) for n in FLIP_NS]
        pts = [(n, v) for n, v in pts if v]
        if pts:
            series[mode] = (colour, pts)
    if not series:
        return False
    import math
    W, H, L, R, T, Bm = 640, 420, 80, 20, 40, 60
    ys = [v for _, (c, p) in series.items() for _, v in p]
    ylo, yhi = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
    if yhi == ylo:
        yhi += 1
    xlo, xhi = 0, math.log10(max(FLIP_NS))

    def X(n):
        return L + (math.log10(n) - xlo) / (xhi - xlo) * (W - L - R)

    def Y(v):
        return H - Bm - (math.log10(v) - ylo) / (yhi - ylo) * (H - T - Bm)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W / 2}" y="20" text-anchor="middle" font-size="14">'
           f'Static key flip cost: enable + disable N keys</text>']
    for e in range(ylo, yhi + 1):
        y = Y(10 ** e)
        out.append(f'<line x1="{L}" y1="{y:.1f}" x2="{W - R}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{L - 6}" y="{y + 4:.1f}" text-anchor="end">1e{e}</text>')
    for n in FLIP_NS:
        x = X(n)
        out.append(f'<line x1="{x:.1f}" y1="{T}" x2="{x:.1f}" y2="{H - Bm}" stroke="#eee"/>')
        out.append(f'<text x="{x:.1f}" y="{H - Bm + 16}" text-anchor="middle">{n}</text>')
    out.append(f'<text x="{W / 2}" y="{H - 20}" text-anchor="middle">N keys (log)</text>')
    out.append(f'<text x="16" y="{H / 2}" text-anchor="middle" '
               f'transform="rotate(-90 16 {H / 2})">guest TSC ticks ({unit}, log)</text>')
    ly = T + 10
    for mode, (colour, pts) in series.items():
        d = ' '.join(f'{X(n):.1f},{Y(v):.1f}' for n, v in pts)
        out.append(f'<polyline points="{d}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for n, v in pts:
            out.append(f'<circle cx="{X(n):.1f}" cy="{Y(v):.1f}" r="3" fill="{colour}"/>')
        label = 'one by one' if mode == 'one_by_one' else 'one batch'
        out.append(f'<rect x="{L + 10}" y="{ly - 9}" width="12" height="3" fill="{colour}"/>')
        out.append(f'<text x="{L + 28}" y="{ly - 4}">{label}</text>')
        ly += 16
    out.append('</svg>')
    with open(path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(out) + '\n')
    return True


def boot_csv(script, name, csv, opts, args=(), obj=None, cpus=2,
             append=('kunit.enable=0',), env='', timeout=None):
    """Boot @obj's kernel running scripts/guest/@script (with @env, shell
    assignments, before it); return its output dir and the text of the
    @csv it wrote, or raise."""
    out, problems, text = mk.step_boot(env + mk.guest(script, '/tmp/results', mk.KSFT, *args),
                                       name, cpus=cpus, qemu_opts=opts, append=append,
                                       obj=obj or mk.OBJ, timeout=timeout, tuned=False)
    path = os.path.join(out, csv)
    if problems or not os.path.exists(path):
        err = os.path.join(out, 'bench.err')
        why = problems + ([mk.read(err).strip()] if os.path.exists(err) else [])
        raise mk.HarnessError(f'{name} guest failed: ' + '; '.join(why or ['no ' + csv]) +
                              '\n' + mk.console_tail(text))
    return out, mk.read(path)


def main():
    t0 = time.time()
    mk.step_deps()
    version = mk.step_tree()
    mk.step_config(extra=('bench.config',))
    mk.step_build()
    exe = build_host_prog()
    opts = None if kvm() else '-icount shift=0'
    out, text = boot_csv('bench.sh', 'bench', 'bench.csv', opts)
    rows = parse_csv(text, 'guest')
    # The seeds' UP vs SMP comparison: the same run on one vCPU.
    _, text = boot_csv('bench.sh', 'bench-up', 'bench.csv', opts, cpus=1)
    rows += parse_csv(text, 'guest-up')
    rows += macro_case(opts)
    mit_rows, vulns = mitigations_case(opts)
    rows += mit_rows
    user_rows, user_extra = user_case(opts)
    rows += user_rows
    rows += scale_case(opts)
    rows += run_host_prog(exe)
    rows += size_case(os.path.join(mk.OBJ, 'samples', 'markers', 'marker-bench.o'))
    rows += tp_size_case(os.path.join(mk.OBJ, 'vmlinux'))
    tsc_khz = val(rows, 'guest', 'meta', 'tsc_khz')
    if kvm():
        guest_unit = 'cycles per iteration (KVM guest TSC)'
    else:
        guest_unit = ('instructions per iteration (TCG, -icount shift=0: 1 insn = 1 ns '
                      f'of guest TSC; guest tsc_khz={fmt(tsc_khz)})')
    with open(os.path.join(out, 'results.csv'), 'w', encoding='utf-8') as f:
        f.write('source,case,variant,n,value,unit\n')
        for r in rows:
            f.write(f'{r["source"]},{r["case"]},{r["variant"]},{r["n"]},'
                    f'{r["value"]:.3f}'.rstrip('0').rstrip('.') + f',{r["unit"]}\n')
    meta = {'date': time.strftime('%Y-%m-%d %H:%M:%S %z'), 'base': version,
            'mode': 'kvm' if kvm() else 'tcg -icount shift=0',
            'guest_unit': guest_unit, 'host_unit': 'TSC cycles per iteration',
            'host_cpu': host_cpu(), 'elapsed_s': None}
    tab = table(rows, guest_unit, vulns, user_extra)
    unit = 'cycles' if kvm() else 'instructions'
    plotted = svg_plot(rows, os.path.join(out, 'flip.svg'), unit)
    meta['elapsed_s'] = round(time.time() - t0)
    with open(os.path.join(out, 'results.json'), 'w', encoding='utf-8') as f:
        json.dump({'meta': meta, 'rows': rows}, f, indent=1)
    with open(os.path.join(out, 'table.txt'), 'w', encoding='utf-8') as f:
        f.write(tab + '\n')
    print()
    print(f'== make bench, {meta["date"]}, Linux {version}, {meta["mode"]}, '
          f'host {meta["host_cpu"]}')
    print(tab)
    print()
    mk.log(f'results: {os.path.relpath(out, ROOT)}/results.csv, results.json' +
           (', flip.svg' if plotted else '') + f'; make bench took {meta["elapsed_s"]}s')
    import results
    results.record_bench(out)
    return 0


# The mitigations kernel: bench.config plus bench-mitigations.config in
# obj-mitigations, booted on a CPU model for which the kernel takes the
# retpoline and call depth tracking choices when asked.
MIT = 'guest-mitigations'
MIT_CASE = 'mitigations_'
MIT_CPU = 'Skylake-Client'
MIT_APPEND = ('kunit.enable=0', 'spectre_v2=retpoline', 'retbleed=stuff')


def mitigations_case(opts):
    obj = os.path.join(mk.B, 'obj-mitigations')
    mk.step_config(extra=('bench.config', 'bench-mitigations.config'), obj=obj,
                   strict=False)
    mk.step_build(obj=obj, logname='build-mitigations')
    qemu = ' '.join(filter(None, [opts, '-cpu ' + MIT_CPU]))
    out, text = boot_csv('bench.sh', 'bench-mitigations', 'bench.csv', qemu, obj=obj,
                         append=MIT_APPEND)
    vf = os.path.join(out, 'vulnerabilities.txt')
    vulns = mk.read(vf) if os.path.exists(vf) else ''
    rows = parse_csv(text, MIT)
    # The same rows as the bench kernel's: a case of their own.
    for r in rows:
        r['case'] = MIT_CASE + r['case'] if r['case'] == 'on' else r['case']
    return rows, vulns


def mitigations_table(rows, vulns):
    lines = [f'on, mitigations kernel (configs/bench-mitigations.config, -cpu {MIT_CPU}, '
             f'{" ".join(MIT_APPEND[1:])}; guest instructions, which understate '
             'what a retpoline costs in cycles)']
    on = sorted({r['variant'] for r in rows if r['source'] == MIT and
                 r['case'] == MIT_CASE + 'on' and r['unit'] == 'tsc'},
                key=lambda v: (not v.startswith('mark'), v))
    if not on:
        return lines + ['  not measured']
    for v in on:
        lines.append(f'  {v:26s} {fmt(val(rows, MIT, MIT_CASE + "on", v)):>10s}   '
                     f'(bench kernel {fmt(val(rows, "guest", "on", v))})')
    lines.append('  /sys/devices/system/cpu/vulnerabilities in that guest:')
    for v in vulns.strip().splitlines():
        lines.append('    ' + v.replace('/sys/devices/system/cpu/vulnerabilities/', ''))
    return lines


# The in-tree user: the 9p virtio transport's markers, against the same
# bench kernel without that patch (obj-before).
USER_PATCH = '26-9p-markers.patch'
USER_OBJ = 'net/9p/trans_virtio.o'


def build_without(patch, name):
    """The bench tree and .config without @patch (reversed), built in
    obj-<name>, as build_marked() builds with its patch."""
    obj = os.path.join(mk.B, 'obj-' + name)
    times = {f: os.stat(os.path.join(mk.SRC, f)) for f in mk.patch_files(patch)}
    mk.run(['patch', '-R', '-p1', '-s', '--no-backup-if-mismatch', '-i', patch], cwd=mk.SRC)
    try:
        os.makedirs(obj, exist_ok=True)
        shutil.copyfile(os.path.join(mk.OBJ, '.config'), os.path.join(obj, '.config'))
        mk.run(['make', '-C', mk.SRC, f'O={obj}', 'olddefconfig'],
               logfile=os.path.join(mk.LOGS, name + '-config.log'))
        mk.step_build(obj=obj, kselftests=False, logname='build-' + name)
    finally:
        mk.run(['patch', '-p1', '-s', '--no-backup-if-mismatch', '-i', patch], cwd=mk.SRC)
        for f, st in times.items():
            os.utime(os.path.join(mk.SRC, f), ns=(st.st_atime_ns, st.st_mtime_ns))
    return obj


def text_bytes(obj):
    """Bytes of the code sections (.text*) of an object file."""
    total = 0
    for line in mk.output(['size', '-A', obj]).splitlines():
        f = line.split()
        if len(f) >= 2 and f[0].startswith('.text') and f[1].isdigit():
            total += int(f[1])
    return total


def user_case(opts):
    """Case user: rows 'user,<kernel>_<state>,<rep>,ns' and the size rows."""
    patch = bases.patch_path(mk.BASE, USER_PATCH)
    if not os.path.isfile(patch):
        return [{'source': 'guest', 'case': 'user', 'variant': 'all', 'n': 0, 'value': 0,
                 'unit': f'skip:no {USER_PATCH}'}], ''
    loop = os.path.join(mk.B, 'host', 'fsync_loop')
    mk.run(['gcc', '-O2', '-Wall', '-o', loop,
            os.path.join(ROOT, 'scripts', 'bench', 'fsync_loop.c')],
           logfile=os.path.join(mk.LOGS, 'fsync_loop-build.log'))
    rows = []
    extra = ''
    # As the macro case: an idle vCPU waiting for the 9p server jumps to
    # its next timer, so the figures count guest instructions only.
    opts = opts and opts.replace('shift=0', 'shift=0,sleep=off')
    for label, obj in (('before', build_without(patch, 'before')), ('after', mk.OBJ)):
        out, text = boot_csv('user.sh', 'user-' + label, 'user.csv', opts,
                             args=(label, loop), obj=obj)
        rows += parse_csv(text, 'guest')
        rows.append({'source': 'host-obj', 'case': 'user_size', 'variant': label, 'n': 0,
                     'value': text_bytes(os.path.join(obj, USER_OBJ)), 'unit': 'bytes'})
        for state in ('off', 'events'):
            vals = [r['value'] for r in rows if r['source'] == 'guest' and
                    r['case'] == 'user' and r['variant'] == f'{label}_{state}' and
                    r['unit'] == 'ns']
            if vals:
                rows.append({'source': 'guest', 'case': 'user',
                             'variant': f'{label}_{state}_median', 'n': 0,
                             'value': statistics.median(vals), 'unit': 'ns'})
        for f in ('user-hist.txt', 'user-trace.txt'):
            if os.path.exists(os.path.join(out, f)):
                extra += mk.read(os.path.join(out, f))
    return rows, extra


def user_table(rows, extra):
    lines = [f'user: the 9p virtio transport\'s markers ({USER_PATCH}); guest ns per '
             'fsync() of a file on the 9p root (median of the reps), and the text of '
             f'{USER_OBJ}']
    for v in ('before_off', 'after_off', 'after_events'):
        vals = [r['value'] for r in rows if r['source'] == 'guest' and r['case'] == 'user'
                and r['variant'] == v and r['unit'] == 'ns']
        lines.append(f'  {v:14s} {fmt(statistics.median(vals) if vals else None):>10s}'
                     f'   ({len(vals)} reps)')
    for v in ('before', 'after'):
        lines.append(f'  text {v:9s} {fmt(val(rows, "host-obj", "user_size", v)):>10s} bytes')
    for r in rows:
        if r['case'] == 'user' and r['unit'].startswith('skip:'):
            lines.append(f'  skipped {r["variant"]}: {r["unit"][5:]}')
    if extra:
        lines.append('  what a user gets (the histogram and trace lines of the after guest):')
        lines += ['    ' + x for x in extra.rstrip().splitlines()]
    return lines


# Case scale: N markers in a generated module, per operation.
SCALE_NS = (10, 100, 1000, 10000)
SCALE_OPS = ('load', 'enable', 'disable', 'unload')


def scale_case(opts):
    """Rows 'scale,<op>,<N>,ns' from modules scripts/bench/gen_scale.py
    writes and this kernel's tree builds (M=)."""
    d = os.path.join(mk.B, 'scale')
    mk.run([sys.executable, os.path.join(ROOT, 'scripts', 'bench', 'gen_scale.py'), d] +
           [str(n) for n in SCALE_NS])
    mk.kmake(f'M={d}', 'modules', logname='scale-build')
    op = os.path.join(mk.B, 'host', 'scale_op')
    mk.run(['gcc', '-O2', '-Wall', '-o', op,
            os.path.join(ROOT, 'scripts', 'bench', 'scale_op.c')],
           logfile=os.path.join(mk.LOGS, 'scale_op-build.log'))
    opts = opts and opts.replace('shift=0', 'shift=0,sleep=off')
    _, text = boot_csv('scale.sh', 'scale', 'scale.csv', opts,
                       args=(d, *[str(n) for n in SCALE_NS]), env=f'SCALE_OP={op} ')
    # One row per (operation, N): the median of its repetitions.
    rows, reps = [], {}
    for r in parse_csv(text, 'guest'):
        if r['unit'] == 'ns':
            reps.setdefault((r['variant'], r['n']), []).append(r['value'])
        else:
            rows.append(r)
    for (op, n), vals in sorted(reps.items()):
        rows.append({'source': 'guest', 'case': 'scale', 'variant': op, 'n': n,
                     'value': statistics.median(vals), 'unit': 'ns'})
    return rows


def scale_marginal(rows, op):
    """(N1, N2, guest ns per marker between consecutive N)."""
    res = []
    for n1, n2 in zip(SCALE_NS, SCALE_NS[1:]):
        a, b = val(rows, 'guest', 'scale', op, n1), val(rows, 'guest', 'scale', op, n2)
        res.append((n1, n2, (b - a) / (n2 - n1) if a is not None and b is not None else None))
    return res


def scale_table(rows):
    lines = ['scale: a module with N markers (scripts/bench/gen_scale.py), guest ns per '
             'operation, median of 3: <op> wall time (instructions, and waits), <op>_cpu '
             'the calling thread\'s CPU time (instructions; scripts/bench/scale_op.c); '
             'marginal = ns per marker between consecutive N']
    lines.append('  ' + 'op'.ljust(12) + ''.join(f'N={n}'.rjust(13) for n in SCALE_NS) +
                 ''.join(f'{a}->{b}'.rjust(12) for a, b in zip(SCALE_NS, SCALE_NS[1:])))
    for op in [o for op in SCALE_OPS for o in (op, op + '_cpu')]:
        vals = [fmt(val(rows, 'guest', 'scale', op, n), 0) for n in SCALE_NS]
        marg = [fmt(m, 0) for _, _, m in scale_marginal(rows, op)]
        lines.append('  ' + op.ljust(12) + ''.join(v.rjust(13) for v in vals) +
                     ''.join(m.rjust(12) for m in marg))
    for r in rows:
        if r['case'] == 'scale' and r['unit'].startswith('skip:'):
            lines.append(f'  skipped {r["variant"]} N={r["n"]}: {r["unit"][5:]}')
    return lines


def build_marked():
    """The bench tree and .config with MACRO_PATCH, built in obj-marked.

    The patch is applied to the bench tree itself for the build and taken
    back out after it, with the files' times restored: the same source
    paths let ccache serve every file the patch does not touch, and the
    bench kernel does not rebuild afterwards."""
    patch = macro_patch()
    obj = os.path.join(mk.B, 'obj-marked')
    times = {f: os.stat(os.path.join(mk.SRC, f)) for f in mk.patch_files(patch)}
    mk.run(['patch', '-p1', '-s', '--no-backup-if-mismatch', '-i', patch], cwd=mk.SRC)
    try:
        os.makedirs(obj, exist_ok=True)
        shutil.copyfile(os.path.join(mk.OBJ, '.config'), os.path.join(obj, '.config'))
        mk.run(['make', '-C', mk.SRC, f'O={obj}', 'olddefconfig'],
               logfile=os.path.join(mk.LOGS, 'marked-config.log'))
        mk.step_build(obj=obj, kselftests=False, logname='build-marked')
    finally:
        mk.run(['patch', '-R', '-p1', '-s', '--no-backup-if-mismatch', '-i', patch],
               cwd=mk.SRC)
        for f, st in times.items():
            os.utime(os.path.join(mk.SRC, f), ns=(st.st_atime_ns, st.st_mtime_ns))
    return obj


def macro_case(opts):
    """Case macro: rows 'macro,<kernel>[_probe]_<bench>,<rep>,ns'."""
    rows = []
    if not os.path.isfile(macro_patch()):
        return [{'source': 'guest', 'case': 'macro', 'variant': 'all', 'n': 0, 'value': 0,
                 'unit': f'skip:no standard markers patch for {mk.BASE.name} '
                         f'(patches/bench/ has one for 6.12 only)'}]
    # sleep=off: an idle vCPU jumps to its next timer instead of letting
    # guest time run at host speed, so idle time does not depend on the host.
    opts = opts and opts.replace('shift=0', 'shift=0,sleep=off')
    for label, obj, extra in (('marked', build_marked(), ('probe',)),
                              ('unmarked', mk.OBJ, ())):
        out, problems, text = mk.step_boot(mk.guest('macro.sh', '/tmp/results', mk.KSFT,
                                                    label, *extra),
                                           'macro-' + label, cpus=MACRO_CPUS, qemu_opts=opts,
                                           append=MACRO_APPEND, obj=obj, tuned=False)
        csv = os.path.join(out, 'macro.csv')
        if problems or not os.path.exists(csv):
            raise mk.HarnessError(f'macro guest ({label}) failed: ' + '; '.join(problems) +
                                  '\n' + mk.console_tail(text))
        rows += parse_csv(mk.read(csv), 'guest')
    return rows


def macro_values(rows, variant):
    return [r['value'] for r in rows if r['source'] == 'guest' and r['case'] == 'macro'
            and r['variant'] == variant and r['unit'] == 'ns']


def macro_median(rows, variant):
    vals = macro_values(rows, variant)
    return statistics.median(vals) if vals else None


def macro_table(rows):
    unit = 'ns (KVM guest clock)' if kvm() else 'ns of guest time (icount: 1 instruction = 1 ns)'
    lines = [f'macro: perf bench on {MACRO_CPUS} vCPU, median of the repetitions, in {unit}: hackbench '
             'the total time, pipe one round trip; delta against the kernel without '
             'the standard markers',
             f'  {"benchmark":10s} {"kernel":34s} {"median":>14s} {"reps":>5s} {"delta":>9s}'
             f'  {"min .. max":>25s}']
    for b in MACRO_BENCHES:
        base = macro_median(rows, 'unmarked_' + b)
        for k, what in (('unmarked', 'without the markers'),
                        ('marked', 'with the markers, no probe'),
                        ('marked_probe', 'with the markers, counting probe')):
            vals = macro_values(rows, f'{k}_{b}')
            m = macro_median(rows, f'{k}_{b}')
            d = f'{100 * (m - base) / base:+.2f}%' if m is not None and base and k != 'unmarked' else '-'
            span = f'{fmt(min(vals))} .. {fmt(max(vals))}' if vals else '-'
            lines.append(f'  {b:10s} {what:34s} {fmt(m):>14s} {len(vals):>5d} {d:>9s}  {span:>25s}')
    hits = [r for r in rows if r['case'] == 'macro' and r['unit'] == 'hits']
    if hits:
        lines.append('  counting probe hits (all probe runs and warm-ups): ' +
                     ', '.join(f'{r["variant"][len("probe_hits_"):]} {r["value"]:.0f}'
                               for r in hits))
    for r in rows:
        if r['case'] == 'macro' and r['unit'].startswith('skip'):
            lines.append(f'  skipped {r["variant"]}: {r["unit"][5:]}')
    return lines


def host_cpu():
    try:
        for line in mk.read('/proc/cpuinfo').split('\n'):
            if line.startswith('model name'):
                return line.split(':', 1)[1].strip()
    except OSError:
        pass
    return '?'


if __name__ == '__main__':
    try:
        sys.exit(main())
    except mk.HarnessError as e:
        print(f'[bench] error: {e}', file=sys.stderr)
        sys.exit(1)
