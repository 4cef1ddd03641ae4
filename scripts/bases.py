# SPDX-License-Identifier: GPL-2.0
"""The kernel bases the series supports, and how to fetch their source.

A base is one row of BASES: the Debian package that carries its source,
the exact version and checksum the series is tested on, the suite that
serves it, and where its commit list and patch overrides live.  Every
harness step reads the base from here; nothing else names a version.

The mainline series is `series` with `patches/`; a backport is a series
file of its own in `patches/<name>/` holding only the patch files that
differ from mainline's (a patch name is looked up there first).  Files
under `linux/` are shared.

fetch() downloads the package with a private apt sources list and state
directory (the machine's apt configuration is never touched), checks it
and caches it in build-dl/.  When the archive no longer has the pinned
version but has a newer one of the same x.y, that one is used with a
warning; when it has none, the error names what it has.
"""

import dataclasses
import glob
import hashlib
import os
import re
import shutil
import subprocess
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIRROR = os.environ.get('DEBIAN_MIRROR', 'http://deb.debian.org')
KEYRING = '/usr/share/keyrings/debian-archive-keyring.gpg'


@dataclasses.dataclass(frozen=True)
class Base:
    name: str           # BASE=<name>
    package: str        # Debian binary package carrying the source tarball
    version: str        # pinned Debian version
    sha256: str         # of the pinned .deb
    archive: str        # path under MIRROR
    suite: str
    overrides: str      # dir under patches/ with the series and differing patches, or ''

    @property
    def series(self):
        if self.overrides:
            return os.path.join(ROOT, 'patches', self.overrides, 'series')
        return os.path.join(ROOT, 'series')

    @property
    def patch_dirs(self):
        dirs = [os.path.join(ROOT, 'patches')]
        if self.overrides:
            dirs.insert(0, os.path.join(ROOT, 'patches', self.overrides))
        return dirs

    @property
    def upstream(self):
        """The x.y of the package name (linux-source-7.3 -> 7.3)."""
        return self.package.rsplit('-', 1)[1]


BASES = {
    '7.3': Base('7.3', 'linux-source-7.3', '7.3.4-1~bpo13+1',
                '703e369ddd4cce971452f5a593ee55df3a5c10c83caf0fa0df039633ed181ee3',
                'debian', 'trixie-backports', ''),
    '6.12': Base('6.12', 'linux-source-6.12', '6.12.117-1~deb12u1',
                 'e849faf31ca3555757f3a8877cb01af92122f744f75d1f3102734651c4e14703',
                 'debian-security', 'bookworm-security', '6.12'),
}
DEFAULT = '7.3'


class BaseError(Exception):
    """The base cannot be had; the message says what the archive has."""


def current():
    name = os.environ.get('BASE') or DEFAULT
    if name not in BASES:
        raise BaseError(f'BASE={name}: unknown base (known: {", ".join(BASES)})')
    return BASES[name]


def default_build_dir(kind=''):
    """build/ for the default base, build-<base>/ for the others; kind
    ('bench', 'debug', ...) makes build-<kind>[-<base>]/."""
    b = current()
    parts = ['build'] + ([kind] if kind else []) + ([b.name] if b.name != DEFAULT else [])
    return os.path.join(ROOT, '-'.join(parts))


def patch_path(base, name):
    for d in base.patch_dirs:
        p = os.path.join(d, name)
        if os.path.isfile(p):
            return p
    return os.path.join(base.patch_dirs[-1], name)


def _vkey(v):
    """Sort key for Debian versions of one package (digits compared as
    numbers; good enough for x.y.z-n~suffix)."""
    return [int(t) if t.isdigit() else t for t in re.split(r'(\d+)', v)]


class Apt:
    """apt-get/apt-cache with a private sources list and state dir."""

    def __init__(self, base, state, run):
        self.base, self.state, self.run = base, state, run
        self.sources = os.path.join(state, 'sources.list')

    def opts(self):
        return ['-o', f'Dir::Etc::SourceList={self.sources}',
                '-o', 'Dir::Etc::SourceParts=/dev/null',
                '-o', f'Dir::State::Lists={os.path.join(self.state, "lists")}',
                '-o', 'Dir::Cache::pkgcache=', '-o', 'Dir::Cache::srcpkgcache=',
                '-o', 'Acquire::Languages=none', '-o', 'APT::Sandbox::User=root']

    def update(self):
        os.makedirs(os.path.join(self.state, 'lists', 'partial'), exist_ok=True)
        signed = f' [signed-by={KEYRING}]' if os.path.exists(KEYRING) else ''
        with open(self.sources, 'w', encoding='utf-8') as f:
            f.write(f'deb{signed} {MIRROR}/{self.base.archive} {self.base.suite} main\n')
        self.run(['apt-get'] + self.opts() + ['-qq', 'update'],
                 logfile=os.path.join(self.state, 'update.log'))

    def versions(self, pattern):
        """{package: {version: sha256}} of the packages matching pattern."""
        out = subprocess.run(['apt-cache'] + self.opts() + ['show', pattern],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True, check=False).stdout
        found = {}
        for stanza in out.split('\n\n'):
            f = dict(re.findall(r'^([\w-]+): (.*)$', stanza, re.M))
            if 'Package' in f and 'Version' in f:
                found.setdefault(f['Package'], {})[f['Version']] = f.get('SHA256', '')
        return found


def choose(base, have, warn):
    """The version to use from have = {version: sha256} of base.package."""
    if base.version in have:
        return base.version, base.sha256
    same = sorted((v for v in have if v.startswith(base.upstream + '.')), key=_vkey)
    if same and _vkey(same[-1]) > _vkey(base.version):
        v = same[-1]
        warn(f'WARNING: the archive no longer has {base.package} {base.version} '
             f'(pinned in scripts/bases.py); using the newer {v}')
        return v, have[v]
    raise BaseError(f'{base.package} {base.version} is not in {MIRROR}/{base.archive} '
                    f'{base.suite}, nor any newer {base.upstream}.y; it has: ' +
                    (', '.join(sorted(have, key=_vkey)) or 'no version of it'))


def sha256(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for chunk in iter(lambda: f.read(1 << 20), b''):
            h.update(chunk)
    return h.hexdigest()


@dataclasses.dataclass(frozen=True)
class Deb:
    """Another binary package of a base's source, from its archive and suite."""
    package: str
    version: str        # pinned Debian version
    sha256: str         # of the pinned .deb
    arch: str           # as in the .deb's name: all, amd64


# Debian's own kernel configurations of a base (linux-config-<x.y>, the
# same source package and suite as linux-source-<x.y>): make distro-test.
# The package carries config.<arch>_<featureset>_<flavour>.xz without the
# references to Debian's signing certificates.
CONFIGS = {
    '7.3': Deb('linux-config-7.3', '7.3.4-1~bpo13+1',
               '1161d8946bd74094857fc1950da809a14e1b3aafe4f3defbec83150520e3e82c', 'amd64'),
}


def fetch_deb(base, run, log, cache=None, deb=None):
    """Path of the pinned .deb of base.package (or of deb, another
    package of the base's suite), downloading and checking it if needed."""
    cache = cache or os.path.join(ROOT, 'build-dl')
    if deb:
        base = dataclasses.replace(base, package=deb.package, version=deb.version,
                                   sha256=deb.sha256)
    arch = deb.arch if deb else 'all'
    pinned = os.path.join(cache, f'{base.package}_{base.version}_{arch}.deb')
    if not os.path.exists(pinned):
        state = os.path.join(cache, 'apt-' + base.name)
        apt = Apt(base, state, run)
        apt.update()
        have = apt.versions(base.package).get(base.package, {})
        if not have:
            family = base.package.rsplit('-', 1)[0] + '-*'
            others = apt.versions(family)
            raise BaseError(f'{MIRROR}/{base.archive} {base.suite} has no {base.package}; '
                            'it has: ' + ', '.join(f'{p} {v}' for p in sorted(others)
                                                   for v in sorted(others[p], key=_vkey)))
        version, digest = choose(base, have, log)
        got_deb = os.path.join(cache, f'{base.package}_{version}_{arch}.deb')
        if not os.path.exists(got_deb):
            dl = os.path.join(cache, 'dl')
            shutil.rmtree(dl, ignore_errors=True)
            os.makedirs(dl)
            run(['apt-get'] + apt.opts() + ['-qq', 'download', f'{base.package}={version}'],
                cwd=dl, logfile=os.path.join(state, 'download.log'))
            got = glob.glob(os.path.join(dl, '*.deb'))
            if len(got) != 1 or sha256(got[0]) != digest:
                raise BaseError(f'{base.package} {version}: download does not match '
                                f'its checksum {digest}')
            os.rename(got[0], got_deb)
        return got_deb
    if sha256(pinned) != base.sha256:
        os.unlink(pinned)
        raise BaseError(f'{pinned} did not match the pinned checksum; removed, run again')
    return pinned


def fetch(base, run, log, cache=None):
    """Path of the base's source tarball, downloading it if needed."""
    cache = cache or os.path.join(ROOT, 'build-dl')
    pinned = fetch_deb(base, run, log, cache)
    tarball = os.path.join(cache, os.path.basename(pinned)[:-4] + '.tar.xz')
    if not os.path.exists(tarball):
        x = os.path.join(cache, 'x')
        shutil.rmtree(x, ignore_errors=True)
        run(['dpkg-deb', '-x', pinned, x])
        inner = glob.glob(os.path.join(x, 'usr/src', 'linux-source-*.tar.xz'))
        if len(inner) != 1:
            raise BaseError(f'{pinned} holds no linux-source tarball')
        os.rename(inner[0], tarball)
        shutil.rmtree(x)
    return tarball


# 7.3's kbuild runs no checker unless sparse passes its
# scripts/checker-valid.sh (__typeof_unqual__, sparse 0.6.5); Debian 12
# has 0.6.4.  The sparse row then uses one built from the source Debian
# ships for its newer releases, pinned like the kernel's.
SPARSE = ('debian/pool/main/s/sparse/sparse_0.6.5~rc1.orig.tar.gz',
          '3ac8855ec7f3ab92f325be0f64347ccc2b10f8b4d7c2906783ee8e2bdab3f0de',
          'sparse-0.6.5-rc1')


def fetch_sparse(run, log, cache=None, jobs='1'):
    """Path of a sparse binary built once, with <jobs> compile jobs, from
    the pinned SPARSE source and kept in build-dl/.  A lock keeps two
    harness runs sharing build-dl/ from building it over each other."""
    import fcntl
    import http.client
    import tempfile
    cache = cache or os.path.join(ROOT, 'build-dl')
    path, digest, top = SPARSE
    binary = os.path.join(cache, top, 'sparse')
    if os.path.exists(binary):
        return binary
    os.makedirs(cache, exist_ok=True)
    with open(os.path.join(cache, 'sparse.lock'), 'w', encoding='utf-8') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(binary):
            return binary
        tarball = os.path.join(cache, os.path.basename(path))
        if not os.path.exists(tarball):
            url = f'{MIRROR}/{path}'
            log(f'downloading {url}')
            try:
                with urllib.request.urlopen(url, timeout=120) as r, \
                        open(tarball + '.part', 'wb') as f:
                    shutil.copyfileobj(r, f)
            except (OSError, http.client.HTTPException, ValueError) as e:
                raise BaseError(f'{url}: {e}') from e
            if sha256(tarball + '.part') != digest:
                os.unlink(tarball + '.part')
                raise BaseError(f'{url} does not match its pinned checksum {digest}')
            os.rename(tarball + '.part', tarball)
        work = tempfile.mkdtemp(prefix=top + '.', dir=cache)
        try:
            run(['tar', '-xzf', tarball, '-C', work])
            buildlog = os.path.join(cache, top + '-build.log')
            try:
                run(['make', '-C', os.path.join(work, top), f'-j{jobs}', 'sparse'],
                    logfile=buildlog)
            except Exception as e:  # the harness's HarnessError
                raise BaseError(f'building sparse failed, see {buildlog}') from e
            os.rename(os.path.join(work, top), os.path.join(cache, top))
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return binary


def fetch_configs(base, run, log, cache=None):
    """The directory holding Debian's config.*.xz files of the base
    (CONFIGS), extracted once from the pinned linux-config package."""
    if base.name not in CONFIGS:
        raise BaseError(f'no Debian kernel config package pinned for base {base.name} '
                        f'(scripts/bases.py CONFIGS has: {", ".join(CONFIGS)})')
    cache = cache or os.path.join(ROOT, 'build-dl')
    deb = fetch_deb(base, run, log, cache, deb=CONFIGS[base.name])
    x = deb[:-4]
    configs = os.path.join(x, 'usr', 'src', CONFIGS[base.name].package)
    if not glob.glob(os.path.join(configs, 'config.*.xz')):
        shutil.rmtree(x, ignore_errors=True)
        run(['dpkg-deb', '-x', deb, x + '.tmp'])
        os.rename(x + '.tmp', x)
        if not glob.glob(os.path.join(configs, 'config.*.xz')):
            raise BaseError(f'{deb} holds no {configs}/config.*.xz')
    return configs
