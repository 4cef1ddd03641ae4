#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Edit a patch under patches/ through the files it produces.

  regen_patch.py extract <patch> <dir>   base files + patch applied -> dir
  regen_patch.py write <patch> <dir>     rewrite <patch> as diff base..dir
  regen_patch.py refresh                 rewrite every patch of the base's
                                         own series so it applies exactly
                                         (no offset, no fuzz), e.g. after
                                         a base update (BASE= picks it)

The patches before <patch> in `series` are applied first, in a
sibling directory <dir>.before, which "write" diffs against.
"""
import os
import shutil
import subprocess
import sys
import tempfile

import mk


def earlier_patches(patch):
    names = []
    for c in mk.load_series():
        names += c.patches
    name = os.path.basename(patch)
    return [mk.bases.patch_path(mk.BASE, n) for n in names[:names.index(name)]]


def refresh():
    own = mk.BASE.patch_dirs[0]
    for c in mk.load_series():
        for n in c.patches:
            p = mk.bases.patch_path(mk.BASE, n)
            if os.path.dirname(p) != own:
                continue
            tmp = tempfile.mkdtemp()
            try:
                main('extract', p, os.path.join(tmp, 't'))
                main('write', p, os.path.join(tmp, 't'))
            finally:
                shutil.rmtree(tmp)
            print(f'refreshed {os.path.relpath(p, mk.ROOT)}')
    return 0


def main(cmd, patch=None, d=None):
    if cmd == 'refresh':
        return refresh()
    base = mk.base_tree()
    before = d.rstrip('/') + '.before'
    files = mk.patch_files(patch)
    if cmd == 'extract':
        prior = earlier_patches(patch)
        allfiles = set(files)
        for p in prior:
            allfiles |= set(mk.patch_files(p))
        for tree in (before, d):
            shutil.rmtree(tree, ignore_errors=True)
            for f in allfiles:
                os.makedirs(os.path.dirname(os.path.join(tree, f)), exist_ok=True)
                # A file an earlier commit adds starts from linux/.
                for origin in (base, os.path.join(mk.ROOT, 'linux')):
                    if os.path.exists(os.path.join(origin, f)):
                        shutil.copy2(os.path.join(origin, f), os.path.join(tree, f))
                        break
            for p in prior + ([os.path.abspath(patch)] if tree == d else []):
                subprocess.run(['patch', '-s', '-p1', '--no-backup-if-mismatch',
                                '-d', tree, '-i', p], check=True)
        return 0
    out = []
    for f in files:
        gone = not os.path.exists(os.path.join(d, f))
        r = subprocess.run(['diff', '-u', '-N', '--label', 'a/' + f,
                            '--label', '/dev/null' if gone else 'b/' + f,
                            os.path.join(before, f), os.path.join(d, f)],
                           stdout=subprocess.PIPE, text=True, check=False)
        out.append(r.stdout)
    with open(patch, 'w', encoding='utf-8') as fp:
        fp.write(''.join(out))
    return 0


if __name__ == '__main__':
    sys.exit(main(*sys.argv[1:]))
