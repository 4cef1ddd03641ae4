#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The `series` file: the ordered commit list of the patch series.

Format: blocks separated by a line holding only "%%".  Each block starts
with header lines, then a blank line, then the commit message body:

    Subject: subsystem: imperative summary
    Files: kernel/marker.c include/linux/marker.h   (paths under linux/)
    Patches: 01-markers-hooks.patch                  (names under patches/)

    Why and what, wrapped at 72 columns.

No Signed-off-by lines: the export adds the exporter's (git's identity).
MAINTAINERS entries and MODULE_AUTHOR() name the exporter too: the
sources say EXPORTER, and the build and the export put the same
identity in its place (fill_exporter()).

A block whose header has "Cover: yes" is the cover letter (subject and
body) of the commits that follow it up to the next cover letter: one
file holds several series, each applying on top of the ones before it
(v3: the static key batches, then the markers).  A cover is not a
commit.  Lines starting with "#" before the first
header of a block are comments.

A backport's series (patches/<base>/series) names patches the same way;
each is looked up in patches/<base>/ first, then in patches/.
"""

import dataclasses
import os
import re
import sys


EXPORTER = '@EXPORTER@'


def fill_exporter(text, ident):
    """text with the exporter's "Name <mail>" where the sources say
    EXPORTER."""
    return text.replace(EXPORTER, ident)


class SeriesError(Exception):
    """A malformed series file or a reference to a missing file."""


@dataclasses.dataclass
class Commit:
    subject: str
    files: list
    patches: list
    body: str
    cover: bool = False
    lineno: int = 0
    part: int = 0       # which series: 1 for the commits after the first cover


def find_patch(patch_dirs, name):
    for d in patch_dirs:
        if os.path.isfile(os.path.join(d, name)):
            return os.path.join(d, name)
    return None


def parse(path, root, patch_dirs=None):
    patch_dirs = patch_dirs or [os.path.join(root, 'patches')]
    with open(path, encoding='utf-8') as f:
        text = f.read()
    commits = []
    lineno = 1
    for block in re.split(r'^%%[ \t]*$', text, flags=re.M):
        start = lineno
        lineno += block.count('\n')
        lines = block.strip('\n').split('\n')
        while lines and (lines[0].startswith('#') or not lines[0].strip()):
            lines.pop(0)
        if not lines:
            continue
        hdr = {'files': [], 'patches': []}
        i = 0
        while i < len(lines) and lines[i].strip():
            m = re.match(r'^(Subject|Files|Patches|Cover):\s*(.*)$', lines[i])
            if not m:
                raise SeriesError(f'{path}:{start + i}: bad header line: {lines[i]!r}')
            key, val = m.group(1).lower(), m.group(2).strip()
            if key in ('files', 'patches'):
                hdr[key] += val.split()
            else:
                hdr[key] = val
            i += 1
        if 'subject' not in hdr:
            raise SeriesError(f'{path}:{start}: block without Subject:')
        body = '\n'.join(lines[i:]).strip('\n') + '\n'
        c = Commit(hdr['subject'], hdr['files'], hdr['patches'], body,
                   hdr.get('cover', '').lower() == 'yes', start)
        c.part = (commits[-1].part if commits else 0) + (1 if c.cover else 0)
        for f in c.files:
            if not os.path.isfile(os.path.join(root, 'linux', f)):
                raise SeriesError(f'{path}:{start}: {c.subject}: missing linux/{f}')
        for p in c.patches:
            if not find_patch(patch_dirs, p):
                raise SeriesError(f'{path}:{start}: {c.subject}: missing patches/{p}')
        if not c.cover and re.search(r'^Signed-off-by:', c.body, re.M):
            raise SeriesError(f'{path}:{start}: {c.subject}: Signed-off-by is added '
                              'at export, with the exporter\'s identity')
        commits.append(c)
    return commits


def parts(commits):
    """[(cover, [commits of its series])], in order; commits before the
    first cover, if any, form a series without a cover (cover None)."""
    out = []
    for c in commits:
        if c.cover or not out:
            out.append((c if c.cover else None, []))
        if not c.cover:
            out[-1][1].append(c)
    return out


def check_complete(commits, root, patch_dirs=None):
    """Every file under linux/ and every patch of the series' own patch
    directory (the first of patch_dirs) belongs to exactly one commit;
    a backport need not use every mainline patch."""
    patch_dirs = patch_dirs or [os.path.join(root, 'patches')]
    own = os.path.relpath(patch_dirs[0], root)
    errors = []
    seen = {}
    for c in commits:
        for f in c.files:
            if f in seen:
                errors.append(f'linux/{f} listed twice')
            seen[f] = c
        for p in c.patches:
            key = 'patches/' + p
            if key in seen:
                errors.append(f'{key} listed twice')
            seen[key] = c
    for dirpath, _, names in os.walk(os.path.join(root, 'linux')):
        for n in names:
            rel = os.path.relpath(os.path.join(dirpath, n), os.path.join(root, 'linux'))
            if rel not in seen:
                errors.append(f'linux/{rel} is in no commit of the series')
    for n in sorted(os.listdir(patch_dirs[0])):
        if n.endswith('.patch') and 'patches/' + n not in seen:
            errors.append(f'{own}/{n} is in no commit of the series')
    return errors


def main():
    import bases
    root = bases.ROOT
    base = bases.current()
    commits = parse(base.series, root, base.patch_dirs)
    for n, c in enumerate(x for x in commits if not x.cover):
        print(f'{n + 1:2d} {c.subject}')
    errs = check_complete(commits, root, base.patch_dirs)
    for e in errs:
        print('error:', e, file=sys.stderr)
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
