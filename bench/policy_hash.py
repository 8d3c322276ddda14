#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""policy_hash.py OBJ...: one hash of what the kernel is given when each
policy object is loaded: every program's instructions, in the order of its
program type, with what each relocation points at, and the data the
programs read (the knobs' defaults, the struct_ops map with its flags).

Names do not count (a renamed hook, knob or map is the same policy), nor
does what only a reader sees: comments, line and debug info, BTF, the
description and knob sections mglructl prints. A relocation to a program
counts as that program's instructions; one to data as its section and
offset; one to a kernel function or variable as its name. (BTF-defined
maps are described in .BTF alone: a map whose size changes with nothing
else is not seen; every shipped policy's maps are read by its code.)
"""
import hashlib
import re
import subprocess
import sys

SKIP = re.compile(r'^(\.debug|\.BTF|\.rel|\.mglru_ext\.|\.llvm_addrsig|'
                  r'\.symtab|\.strtab|\.shstrtab|license$|$)')


def run(*args):
    return subprocess.run(args, check=True, capture_output=True,
                          text=True).stdout


def sections(obj):
    out = {}
    for m in re.finditer(r'^\s*\[\s*(\d+)\]\s+(\S*)\s+(\S+)\s+\S+\s+\S+\s+'
                         r'([0-9a-f]+)', run('llvm-readelf', '-S', '--wide',
                                             obj), re.M):
        out[int(m.group(1))] = (m.group(2), m.group(3), int(m.group(4), 16))
    return out


def contents(obj, name):
    data = bytearray()
    for line in run('llvm-objdump', '-s', '-j', name, obj).splitlines():
        m = re.match(r'^ [0-9a-f]{4,} ((?:[0-9a-f]{2,8} ){1,4})', line + ' ')
        if m:
            data += bytes.fromhex(m.group(1).replace(' ', ''))
    return bytes(data)


def symbols(obj):
    syms = {}
    for line in run('llvm-readelf', '-s', '--wide', obj).splitlines():
        f = line.split()
        if len(f) == 8 and f[0].endswith(':') and f[3] in ('FUNC', 'OBJECT',
                                                            'NOTYPE'):
            ndx = int(f[6]) if f[6].isdigit() else None
            syms[f[7]] = (f[3], ndx, int(f[1], 16))
    return syms


def relocs(obj):
    """{section name: [(offset, type, symbol)]}"""
    out, cur = {}, None
    for line in run('llvm-readelf', '-r', '--wide', obj).splitlines():
        m = re.match(r"^Relocation section '\.rel(.*)'", line)
        if m:
            cur = out.setdefault(m.group(1), [])
            continue
        f = line.split()
        if cur is not None and len(f) >= 4 and re.match(r'^[0-9a-f]{16}$',
                                                         f[0]):
            cur.append((int(f[0], 16), f[2], f[4] if len(f) > 4 else ''))
    return out


def policy_hash(obj):
    secs = sections(obj)
    syms = symbols(obj)
    rels = relocs(obj)
    names = {i: s[0] for i, s in secs.items()}

    def target(sym, progs):
        kind, ndx, value = syms.get(sym, ('NOTYPE', None, 0))
        if kind == 'FUNC' and names.get(ndx) in progs:
            return 'prog:' + progs[names[ndx]]
        if ndx is None:
            return 'extern:' + sym          # kfunc, ksym: the kernel's name
        return 'data:%s+%d' % (names.get(ndx, sym), value)

    code = {n for n, t, _ in secs.values() if not SKIP.match(n) and
            (n.startswith('struct_ops') or n == '.text')}
    # a program's id: its instructions and the relocations that do not
    # name another program (bpf-to-bpf calls sit in .text, hashed whole)
    progs = {}
    for n in code:
        h = hashlib.sha256(contents(obj, n))
        for off, typ, sym in rels.get(n, []):
            kind = syms.get(sym, ('',))[0]
            h.update(('%d %s %s\n' % (off, typ, 'func' if kind == 'FUNC'
                                      else target(sym, {}))).encode())
        # the program type is the section's prefix (struct_ops, .s)
        progs[n] = n.split('/')[0] + ':' + h.hexdigest()
    parts = sorted(progs.values())
    for n, t, size in secs.values():
        if SKIP.match(n) or n in code:
            continue
        body = ('%d zero bytes' % size) if t == 'NOBITS' else \
            contents(obj, n).hex()
        rel = ' '.join('%d:%s' % (off, target(sym, progs))
                       for off, _, sym in sorted(rels.get(n, [])))
        parts.append('%s %s %s' % (n, body, rel))
    return hashlib.sha256('\n'.join(parts).encode()).hexdigest()


if __name__ == '__main__':
    for obj in sys.argv[1:]:
        print(policy_hash(obj)[:16], obj)
