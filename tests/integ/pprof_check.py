#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read a pprof profile as `protoc --decode perftools.profiles.Profile` prints
it (stdin) and answer questions about it, one answer line per question:

  check             "ok" when the structure is sound (ids 1.. unique, every
                    reference resolves, string 0 is "", as many values as
                    sample types), else what is wrong
  types             the sample types, "type/unit" separated by spaces
  default           the default sample type's name
  period            "type/unit period", or "none"
  total I           the sum of value I over the samples
  share FUNC I      the sum of value I over samples with FUNC in the stack
  leaf I            the function with the most value I as the leaf
  mappings          the mappings' file names, one line, sorted
  labels            the label keys, one line, sorted
  label KEY I       "VALUE=SUM ..." of value I by the string label KEY
  values KEY        how many values the label KEY takes
  time              "time_nanos duration_nanos"
  srcfile FUNC      the source files of the functions named FUNC, and their
                    first lines ("FILE:LINE", sorted), "none" without
  hotline FUNC I    the line of FUNC, as a leaf, with the most value I
  comments          the comments, joined with "|"
  nolines           locations without a function
  folded I [LABEL]  the stacks as perf-prof's folded lines: the comm label
                    first, frames root first, "-" between user and kernel
                    frames, kernel ones (mapping [kernel.kallsyms] or a
                    [module]) with "_[k]", a location without a function as
                    "[file]", and the string label LABEL (task-state's
                    state) as the leaf; weighted by value I, sorted

Usage: gzip -dc F.pb.gz | protoc --decode ... | pprof_check.py QUESTION [ARGS]...
Several questions: separate them with ",".
"""
import codecs
import re
import sys
from collections import defaultdict

TOKEN = re.compile(r'\s*(?:(\w+)\s*\{|(\})|(\w+)\s*:\s*("(?:[^"\\]|\\.)*"|\S+))')


def parse(text):
    """protobuf text format -> nested dicts of lists."""
    root = defaultdict(list)
    stack = [root]
    pos = 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            if text[pos:].strip():
                raise SystemExit("cannot parse at: %r" % text[pos:pos + 40])
            break
        pos = m.end()
        if m.group(1):
            d = defaultdict(list)
            stack[-1][m.group(1)].append(d)
            stack.append(d)
        elif m.group(2):
            stack.pop()
        else:
            v = m.group(4)
            if v.startswith('"'):
                v = codecs.escape_decode(v[1:-1].encode())[0].decode('utf-8', 'replace')
            elif v in ('true', 'false'):
                v = v == 'true'
            else:
                v = int(v)
            stack[-1][m.group(3)].append(v)
    return root


def one(d, key, default=0):
    v = d.get(key)
    return v[0] if v else default


class Profile:
    def __init__(self, p):
        self.p = p
        self.strings = p.get('string_table', [])
        self.funcs = {one(f, 'id'): f for f in p.get('function', [])}
        self.maps = {one(m, 'id'): m for m in p.get('mapping', [])}
        self.locs = {one(l, 'id'): l for l in p.get('location', [])}
        self.samples = p.get('sample', [])

    def s(self, i):
        return self.strings[i] if 0 <= i < len(self.strings) else '(bad string %d)' % i

    def func_names(self, loc_id):
        loc = self.locs.get(loc_id)
        return [self.s(one(self.funcs[one(ln, 'function_id')], 'name'))
                for ln in loc.get('line', []) if one(ln, 'function_id') in self.funcs]

    def map_file(self, loc_id):
        m = self.maps.get(one(self.locs[loc_id], 'mapping_id'))
        return self.s(one(m, 'filename')) if m else ''

    def kernel(self, loc_id):
        f = self.map_file(loc_id)
        return f.startswith('[') and f not in ('[vdso]', '[vsyscall]')

    def frame(self, loc_id):
        names = self.func_names(loc_id)
        if names:
            name = names[0]
        else:
            f = self.map_file(loc_id)
            name = f if f.startswith('[') else '[%s]' % f.rsplit('/', 1)[-1] if f else '[unknown]'
        name = name.replace(';', ':').replace('\n', ' ').replace('\r', ' ')
        return name + '_[k]' if self.kernel(loc_id) else name

    def value(self, smp, i):
        v = smp.get('value', [])
        return v[i] if i < len(v) else 0

    def check(self):
        errs = []
        if not self.strings or self.strings[0] != '':
            errs.append('string 0 is not ""')
        for name, table in (('function', self.p.get('function', [])),
                            ('mapping', self.p.get('mapping', [])),
                            ('location', self.p.get('location', []))):
            ids = [one(x, 'id') for x in table]
            if ids != list(range(1, len(ids) + 1)):
                errs.append('%s ids are not 1..%d' % (name, len(ids)))
        for f in self.p.get('function', []):
            for k in ('name', 'system_name', 'filename'):
                if not 0 <= one(f, k) < len(self.strings):
                    errs.append('function %d: bad %s' % (one(f, 'id'), k))
        for l in self.p.get('location', []):
            if one(l, 'mapping_id') and one(l, 'mapping_id') not in self.maps:
                errs.append('location %d: no mapping %d' % (one(l, 'id'), one(l, 'mapping_id')))
            for ln in l.get('line', []):
                if one(ln, 'function_id') not in self.funcs:
                    errs.append('location %d: no function' % one(l, 'id'))
        for m in self.p.get('mapping', []):
            if one(m, 'memory_limit') <= one(m, 'memory_start'):
                errs.append('mapping %d: empty range' % one(m, 'id'))
        nt = len(self.p.get('sample_type', []))
        for i, smp in enumerate(self.samples):
            if len(smp.get('value', [])) != nt:
                errs.append('sample %d: %d values for %d types' % (i, len(smp.get('value', [])), nt))
            for lid in smp.get('location_id', []):
                if lid not in self.locs:
                    errs.append('sample %d: no location %d' % (i, lid))
        return 'ok' if not errs else '; '.join(sorted(set(errs))[:5])

    def labels(self, smp):
        out = {}
        for lb in smp.get('label', []):
            k = self.s(one(lb, 'key'))
            out[k] = self.s(one(lb, 'str')) if one(lb, 'str') else one(lb, 'num')
        return out

    def answer(self, q, args):
        if q == 'check':
            return self.check()
        if q == 'types':
            return ' '.join('%s/%s' % (self.s(one(t, 'type')), self.s(one(t, 'unit')))
                            for t in self.p.get('sample_type', []))
        if q == 'default':
            return self.s(one(self.p, 'default_sample_type'))
        if q == 'period':
            pt = self.p.get('period_type')
            if not pt:
                return 'none'
            return '%s/%s %d' % (self.s(one(pt[0], 'type')), self.s(one(pt[0], 'unit')),
                                 one(self.p, 'period'))
        if q == 'total':
            return str(sum(self.value(smp, int(args[0])) for smp in self.samples))
        if q == 'share':
            fn, i = args[0], int(args[1])
            return str(sum(self.value(smp, i) for smp in self.samples
                           if any(fn in self.func_names(l) for l in smp.get('location_id', []))))
        if q == 'leaf':
            by = defaultdict(int)
            for smp in self.samples:
                if smp.get('location_id'):
                    by[self.frame(smp['location_id'][0])] += self.value(smp, int(args[0]))
            return max(by, key=by.get) if by else 'none'
        if q == 'mappings':
            return ' '.join(sorted(set(self.s(one(m, 'filename')) for m in self.maps.values())))
        if q == 'labels':
            return ' '.join(sorted(set(k for smp in self.samples for k in self.labels(smp))))
        if q == 'label':
            by = defaultdict(int)
            for smp in self.samples:
                by[str(self.labels(smp).get(args[0], ''))] += self.value(smp, int(args[1]))
            return ' '.join('%s=%d' % kv for kv in sorted(by.items()))
        if q == 'values':
            return str(len(set(str(self.labels(smp)[args[0]]) for smp in self.samples
                               if args[0] in self.labels(smp))))
        if q == 'srcfile':
            out = sorted(set('%s:%d' % (self.s(one(f, 'filename')), one(f, 'start_line'))
                             for f in self.funcs.values()
                             if self.s(one(f, 'name')) == args[0] and one(f, 'filename')))
            return ' '.join(out) if out else 'none'
        if q == 'hotline':
            by = defaultdict(int)
            for smp in self.samples:
                ids = smp.get('location_id', [])
                lines = self.locs[ids[0]].get('line', []) if ids else []
                if lines and self.func_names(ids[0])[0] == args[0]:
                    by[one(lines[0], 'line')] += self.value(smp, int(args[1]))
            return str(max(by, key=by.get)) if by else 'none'
        if q == 'time':
            return '%d %d' % (one(self.p, 'time_nanos'), one(self.p, 'duration_nanos'))
        if q == 'comments':
            return '|'.join(self.s(c) for c in self.p.get('comment', []))
        if q == 'nolines':
            return str(sum(1 for l in self.locs.values() if not l.get('line')))
        if q == 'folded':
            by = defaultdict(int)
            for smp in self.samples:
                lb = self.labels(smp)
                locs = list(reversed(smp.get('location_id', [])))
                user = [self.frame(l) for l in locs if not self.kernel(l)]
                kern = [self.frame(l) for l in locs if self.kernel(l)]
                fr = user + (['-'] if user and kern else []) + kern
                head = [str(lb['comm'])] if 'comm' in lb else []
                tail = [str(lb[args[1]])] if len(args) > 1 and args[1] in lb else []
                by[';'.join(head + fr + tail)] += self.value(smp, int(args[0]))
            return '\n'.join('%s %d' % kv for kv in sorted(by.items()))
        raise SystemExit('unknown question: ' + q)


def main():
    prof = Profile(parse(sys.stdin.read()))
    qs, cur = [], []
    for a in sys.argv[1:]:
        if a == ',':
            qs.append(cur)
            cur = []
        else:
            cur.append(a)
    if cur:
        qs.append(cur)
    for q in qs:
        print(prof.answer(q[0], q[1:]))


if __name__ == '__main__':
    main()
