#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The mglru_ext patch series of each base, kept once where the bases agree.

kernel-patches/ holds the series of both bases (7.3, the primary, and 6.12,
its backport) as parts:

  common/SLUG.patch  the commit message and the hunks both bases share
  BASE/SLUG.patch    what BASE adds to that patch: its own hunks (on 6.12
                     also the corrections a backport makes to the shared
                     ones, as a diff on top of them), and BASE's own commit
                     message where it is not the shared one
  BASE/series        the slugs of BASE's patches, in order

A patch is the shared part (if any) followed by the base's part (if any),
applied as one commit. A patch only one base has lives in that base's
folder alone.

  series.py apply BASE TREE    commit BASE's patches on TREE's HEAD
  series.py split              rewrite the parts from the applied trees
                               build/src/linux-BASE (after an edit there)
  series.py verify BASE TREES  BASE's patches, applied in turn, give the
                               tree ids listed in the file TREES
  series.py postable BASE DIR  write BASE's postable series (numbered,
                               with its cover letter) into DIR
  series.py diff               what differs between the two bases' series,
                               patch by patch (git range-diff)

split shares a hunk of a 7.3 patch when it applies on 6.12's file as it
is and leaves 6.12 less of its own to change there; what 6.12 changes
beyond the shared hunks, corrections included, is its part.
"""
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# MGLRU_PATCHES: another copy of kernel-patches/ (the tests' scratch one)
PATCHES = os.environ.get('MGLRU_PATCHES', os.path.join(REPO, 'kernel-patches'))
BASES = ('7.3', '6.12')
PRIMARY, BACKPORT = BASES
AUTHOR = 'mglru_ext developers <mglru-ext@example.org>'


def die(msg):
    sys.exit('series: ' + msg)


def git(tree, *args, env=None, input=None, check=True):
    e = dict(os.environ, GIT_AUTHOR_NAME='mglru_ext developers',
             GIT_AUTHOR_EMAIL='mglru-ext@example.org',
             GIT_COMMITTER_NAME='mglru_ext developers',
             GIT_COMMITTER_EMAIL='mglru-ext@example.org')
    e.update(env or {})
    r = subprocess.run(['git', '-C', tree, '-c', 'core.abbrev=12'] + list(args),
                       env=e, input=input, capture_output=True, text=True)
    if check and r.returncode:
        die('git %s: %s' % (' '.join(args[:2]), r.stderr.strip()))
    return r


def tree_of(base):
    return os.path.join(REPO, 'build', 'src', 'linux-' + base)


def series(base):
    path = os.path.join(PATCHES, base, 'series')
    with open(path) as f:
        lines = f.read().splitlines()
    return ([l for l in lines if l.startswith('#')],
            [l for l in lines if l and not l.startswith('#')])


def part_path(where, slug):
    return os.path.join(PATCHES, where, slug + '.patch')


class Part:
    """One part file: a mail header, an optional message, a diff."""

    def __init__(self, date, subject, message, diff):
        self.date, self.subject = date, subject
        self.message, self.diff = message, diff

    @classmethod
    def read(cls, path):
        if not os.path.exists(path):
            return None
        with open(path) as f:
            text = f.read()
        head, _, rest = text.partition('\n\n')
        hdr = dict(l.split(': ', 1) for l in head.splitlines() if ': ' in l)
        subject = re.sub(r'^\[PATCH[^]]*\] ', '', hdr['Subject'])
        # the message ends at a line '---'; the diff starts at its first
        # 'diff --git' (a diffstat may stand between)
        m = re.search(r'^---\n', rest, re.M)
        body = rest[:m.start()] if m else rest
        d = re.search(r'^diff --git ', rest, re.M)
        diff = rest[m.start() + 4:] if m and d else ''
        body = body.strip('\n')
        return cls(hdr.get('Date', ''), subject, body, diff)

    def write(self, path):
        if not self.message and not self.diff:
            if os.path.exists(path):
                os.remove(path)
            return
        out = 'From: %s\nDate: %s\nSubject: [PATCH] %s\n\n' % (
            AUTHOR, self.date, self.subject)
        if self.message:
            out += self.message + '\n'
        out += '---\n' + self.diff
        with open(path, 'w') as f:
            f.write(out)


def slugify(subject):
    # format-patch's file name, without the number
    s = re.sub(r'[^A-Za-z0-9._]+', '-', subject).strip('-.')
    return s[:52].rstrip('-.')


def commits(tree):
    """(sha, subject, date, message) of each commit after pristine."""
    out = git(tree, 'log', '--reverse', '--format=%H%x00%s%x00%aD%x00%B%x01',
              'pristine..HEAD').stdout
    res = []
    for rec in out.split('\x01'):
        rec = rec.strip('\n')
        if not rec:
            continue
        sha, subject, date, body = rec.split('\x00')
        message = body.strip('\n').split('\n', 1)[1].strip('\n') \
            if '\n' in body.strip('\n') else ''
        res.append((sha, subject, date, message))
    return res


def diff(tree, a, b, files=None, stat=True):
    args = ['diff', '--no-ext-diff', '--no-color', '-p', a, b, '--']
    if stat:
        args.insert(3, '--stat=72')
    if files is not None:
        if not files:
            return ''
        args += files
    return git(tree, *args).stdout


def changed(tree, a, b):
    return git(tree, 'diff', '--name-only', a, b).stdout.split()


def apply_to_index(tree, index, patch_text, check=False):
    """Apply a diff to a temporary index; True if it applied."""
    args = ['apply', '--cached'] + (['--check'] if check else []) + ['-']
    r = git(tree, *args, env={'GIT_INDEX_FILE': index}, input=patch_text,
            check=False)
    return r.returncode == 0


def index_tree(tree, index, treeish, patches):
    """The tree of treeish with patches applied, or None if one fails."""
    git(tree, 'read-tree', treeish, env={'GIT_INDEX_FILE': index})
    for p in patches:
        if p and not apply_to_index(tree, index, p):
            return None
    return git(tree, 'write-tree', env={'GIT_INDEX_FILE': index}).stdout.strip()


def count_lines(d):
    return sum(1 for l in d.splitlines()
               if l[:1] in '+-' and not l.startswith(('+++', '---')))


def assemble(base, tree, index):
    """Yield (slug, tree id) of each of BASE's patches applied in turn to
    pristine in a scratch index of TREE."""
    git(tree, 'read-tree', 'pristine', env={'GIT_INDEX_FILE': index})
    for slug in series(base)[1]:
        for where in ('common', base):
            p = Part.read(part_path(where, slug))
            if p and p.diff and not apply_to_index(tree, index, p.diff):
                die('%s/%s.patch does not apply on %s' % (where, slug, base))
        yield slug, git(tree, 'write-tree',
                        env={'GIT_INDEX_FILE': index}).stdout.strip()


def cmd_verify(base, tree, trees_file):
    """Each patch of BASE, applied in turn, gives the tree ids of
    trees_file (one a line, first word), in order."""
    with open(trees_file) as f:
        want = [l.split()[0] for l in f if l.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        got = list(assemble(base, tree, os.path.join(tmp, 'index')))
    bad = 0
    for i, (slug, t) in enumerate(got):
        ok = i < len(want) and want[i] == t
        bad += not ok
        print('%s %d - %s %s' % ('ok' if ok else 'not ok', i + 1, base, slug))
    if len(got) != len(want):
        print('not ok - %s: %d patches, %d trees' % (base, len(got), len(want)))
        bad += 1
    sys.exit(1 if bad else 0)


def cmd_apply(base, tree):
    _, slugs = series(base)
    for slug in slugs:
        common = Part.read(part_path('common', slug))
        own = Part.read(part_path(base, slug))
        if not common and not own:
            die('%s/series names %s, found in neither common/ nor %s/'
                % (base, slug, base))
        for where, p in (('common', common), (base, own)):
            if p and p.diff:
                r = git(tree, 'apply', '--index', '-', input=p.diff, check=False)
                if r.returncode:
                    die('%s/%s.patch does not apply on %s: %s' % (
                        where, slug, base, r.stderr.strip().splitlines()[0]))
        msg = own if own and own.message else common
        git(tree, 'commit', '-q', '--allow-empty', '-F', '-',
            env={'GIT_AUTHOR_DATE': (own or common).date},
            input=msg.subject + '\n\n' + msg.message + '\n')


def split_file_diff(d):
    """A one-file diff as (header, [hunk, ...])."""
    parts = re.split(r'(?m)^(?=@@ )', d)
    return parts[0], parts[1:]


def file_at(tree, rev, path):
    r = git(tree, 'show', '%s:%s' % (rev, path), check=False)
    return r.stdout if r.returncode == 0 else None


def try_hunks(pre, header, hunks, post, path):
    """Lines a base must still change after these hunks (None: no fit)."""
    with tempfile.TemporaryDirectory() as tmp:
        f = os.path.join(tmp, 'a', path)
        os.makedirs(os.path.dirname(f))
        if pre is not None:
            with open(f, 'w') as fh:
                fh.write(pre)
        if hunks:
            r = subprocess.run(['git', 'apply', '-p1', '--directory=a', '-'],
                               cwd=tmp, input=header + ''.join(hunks),
                               capture_output=True, text=True)
            if r.returncode:
                return None
        g = os.path.join(tmp, 'b')
        with open(g, 'w') as fh:
            fh.write(post or '')
        r = subprocess.run(['git', 'diff', '--no-index', '--no-color',
                            f if os.path.exists(f) else '/dev/null', g],
                           capture_output=True, text=True)
        return count_lines(r.stdout)


def shared_hunks(t73, c73, t612, c612):
    """The hunks of a 7.3 patch that 6.12 takes as they are, as a diff.

    Hunk by hunk, in order, a hunk is shared when it applies on 6.12's
    file after those shared before it and leaves 6.12 fewer lines of its
    own to change in that file."""
    files612 = set(changed(t612, c612 + '^', c612))
    out = ''
    for path in changed(t73, c73 + '^', c73):
        if path not in files612:
            continue
        header, hunks = split_file_diff(diff(t73, c73 + '^', c73, [path],
                                             stat=False))
        # the index line names 7.3's blobs; a part is applied without it
        header = re.sub(r'(?m)^index .*\n', '', header)
        pre = file_at(t612, c612 + '^', path)
        post = file_at(t612, c612, path)
        chosen = []
        cost = try_hunks(pre, header, [], post, path)
        for h in hunks:
            c = try_hunks(pre, header, chosen + [h], post, path)
            if c is not None and c < cost:
                chosen, cost = chosen + [h], c
        if chosen:
            out += header + ''.join(chosen)
    return out


def diff_from(tree, base_rev, patch_text, rev):
    """The diff from base_rev with patch_text applied to rev."""
    with tempfile.TemporaryDirectory() as tmp:
        t = index_tree(tree, os.path.join(tmp, 'index'), base_rev,
                       [patch_text])
    if t is None:
        die('a shared part does not apply on %s^' % rev)
    return diff(tree, t, rev)


def cmd_split():
    t73, t612 = tree_of(PRIMARY), tree_of(BACKPORT)
    c73 = {slugify(s): (sha, s, d, m) for sha, s, d, m in commits(t73)}
    c612 = {slugify(s): (sha, s, d, m) for sha, s, d, m in commits(t612)}
    parts = {}      # (where, slug) -> Part
    for slug, (sha, subject, date, message) in c73.items():
        if slug not in c612:
            parts[PRIMARY, slug] = Part(date, subject, message,
                                        diff(t73, sha + '^', sha))
            continue
        s612, _, d612, m612 = c612[slug]
        shared = shared_hunks(t73, sha, t612, s612)
        same_msg = m612 == message
        parts['common', slug] = Part(date, subject,
                                     message if same_msg else '', shared)
        parts[PRIMARY, slug] = Part(date, subject, '' if same_msg else message,
                                    diff_from(t73, sha + '^', shared, sha))
        parts[BACKPORT, slug] = Part(d612, subject, '' if same_msg else m612,
                                     diff_from(t612, s612 + '^', shared, s612))
    for slug, (sha, subject, date, message) in c612.items():
        if slug not in c73:
            parts[BACKPORT, slug] = Part(date, subject, message,
                                         diff(t612, sha + '^', sha))
    # the parts are rewritten whole: none is left from before
    for where in ('common',) + BASES:
        d = os.path.join(PATCHES, where)
        os.makedirs(d, exist_ok=True)
        for name in os.listdir(d):
            if name.endswith('.patch'):
                os.remove(os.path.join(d, name))
    for (where, slug), p in parts.items():
        p.write(part_path(where, slug))
    write_series(PRIMARY, list(c73))
    write_series(BACKPORT, list(c612))


def write_series(base, slugs):
    header, _ = series(base)
    with open(os.path.join(PATCHES, base, 'series'), 'w') as f:
        f.write('\n'.join(header + slugs) + '\n')


def cmd_postable(base, outdir):
    tree = tree_of(base)
    os.makedirs(outdir, exist_ok=True)
    for name in os.listdir(outdir):
        if name.endswith('.patch'):
            os.remove(os.path.join(outdir, name))
    git(tree, 'format-patch', '-q', '--no-signature', '--cover-letter',
        '-o', outdir, 'pristine..HEAD')
    with open(os.path.join(PATCHES, base, 'cover-letter.txt')) as f:
        subject, _, blurb = f.read().partition('\n\n')
    letter = os.path.join(outdir, '0000-cover-letter.patch')
    with open(letter) as f:
        s = f.read()
    s = s.replace('*** SUBJECT HERE ***', subject.strip())
    s = s.replace('*** BLURB HERE ***', blurb.strip())
    with open(letter, 'w') as f:
        f.write(s)
    print(outdir)


def cmd_diff():
    t73, t612 = tree_of(PRIMARY), tree_of(BACKPORT)
    h612 = git(t612, 'rev-parse', 'pristine', 'HEAD').stdout.split()
    env = {'GIT_ALTERNATE_OBJECT_DIRECTORIES':
           os.path.join(t612, '.git', 'objects')}
    r = git(t73, 'range-diff', '--no-color', '--creation-factor=95',
            'pristine..HEAD',
            '%s..%s' % tuple(h612), env=env)
    sys.stdout.write(r.stdout)


def main(argv):
    usage = 'usage: series.py apply BASE TREE | split | verify BASE TREES | ' \
            'postable BASE DIR | diff'
    if not argv:
        die(usage)
    cmd, args = argv[0], argv[1:]
    if cmd == 'apply' and len(args) == 2 and args[0] in BASES:
        cmd_apply(*args)
    elif cmd == 'split' and not args:
        cmd_split()
    elif cmd == 'postable' and len(args) == 2 and args[0] in BASES:
        cmd_postable(*args)
    elif cmd == 'verify' and len(args) == 2 and args[0] in BASES:
        cmd_verify(args[0], tree_of(args[0]), args[1])
    elif cmd == 'diff' and not args:
        cmd_diff()
    else:
        die(usage)


if __name__ == '__main__':
    main(sys.argv[1:])
