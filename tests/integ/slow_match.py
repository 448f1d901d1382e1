#!/usr/bin/env python3
"""slow_match.py text|json A B THRESHOLD_NS [TOLERANCE_NS]

Matches the slow records two back ends printed for one run of a workload
(rundelay --than T on BPF and on the ring path, say): the same records in
the same order, but the times, each latency within 1% of the other's.

The two back ends stamp their events at different points of one tracepoint
hit (a BPF program's clock beside the perf sample's, tens of us apart when
several tools hook the same tracepoints), so a delay within TOLERANCE_NS
(250 us by default) above THRESHOLD_NS may be over it on one and not on the
other: such a record on one side only is left out, and counted.

text: a record is a header "KIND => END: LATENCY key KEY[ (...)]" and the
event lines and stack frames under it; the event lines lose their time (the
first 26 characters), the frames keep their function (no offset); a
kworker's comm is "kworker" (its name changes with the work it runs).
json: a record is a line of type "slow"; its times go, kworker as above.

Prints "matched N, left out A B"; on a mismatch, both records, and exits 1.
"""
import json
import re
import sys

HEAD = re.compile(r'^([a-z_]+ => [a-z_-]+:) (\S+) (key .*)$')
EVENT = re.compile(r'^\d{4}-\d\d-\d\d [0-9:.]+ +(.*\] \S+: .*)$')
FRAME = re.compile(r'^ +[0-9a-f]+ ([^ +]+)')
UNIT = {'ns': 1, 'us': 1e3, 'ms': 1e6, 's': 1e9}


def ns(text):
    m = re.match(r'^([0-9.]+)([a-z]+)$', text)
    return float(m.group(1)) * UNIT[m.group(2)]


def kworker(s):
    return re.sub(r'^kworker/\S*', 'kworker', ' '.join(s.split()))


def text_records(path):
    recs, cur = [], None
    for line in open(path, encoding='utf-8', errors='replace'):
        line = line.rstrip('\n')
        m = HEAD.match(line)
        if m:
            cur = [ns(m.group(2)), [m.group(1) + ' ' + m.group(3)]]
            recs.append(cur)
            continue
        if cur is None:
            continue
        m = EVENT.match(line)
        if m:
            cur[1].append(' ' + kworker(m.group(1)))
            continue
        m = FRAME.match(line)
        if m:
            if not m.group(1).startswith('0x'):
                cur[1].append('  ' + m.group(1))
            continue
        cur = None  # the table after the records
    return [(lat, '\n'.join(body)) for lat, body in recs]


def json_records(path):
    recs = []
    for line in open(path, encoding='utf-8', errors='replace'):
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if o.get('type') != 'slow':
            continue
        if 'duration_ns' not in o:
            raise SystemExit('%s: a slow record without duration_ns: %s' % (path, line))
        lat = o['duration_ns']
        for k in ('time_ns', 'duration_ns'):
            o.pop(k, None)
        for side in ('start', 'end'):
            e = o.get(side)
            if isinstance(e, dict):
                e.pop('time_ns', None)
                if str(e.get('comm', '')).startswith('kworker/'):
                    e['comm'] = 'kworker'
        recs.append((lat, json.dumps(o, sort_keys=True)))
    return recs


def main():
    mode, pa, pb, than = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    tol = float(sys.argv[5]) if len(sys.argv) > 5 else 250e3
    read = text_records if mode == 'text' else json_records
    a, b = read(pa), read(pb)
    i = j = matched = left_a = left_b = 0
    while i < len(a) or j < len(b):
        if i < len(a) and j < len(b) and a[i][1] == b[j][1]:
            if abs(a[i][0] - b[j][0]) > b[j][0] / 100:
                print('latencies %.0f and %.0f ns differ by more than 1%%:\n%s' %
                      (a[i][0], b[j][0], a[i][1]))
                return 1
            matched += 1
            i += 1
            j += 1
        # a record on one side only, just over the threshold: the one whose
        # dropping brings the two in step again (one ahead), else either
        elif (j + 1 < len(b) and i < len(a) and a[i][1] == b[j + 1][1]
              and b[j][0] <= than + tol):
            left_b += 1
            j += 1
        elif i < len(a) and a[i][0] <= than + tol:
            left_a += 1
            i += 1
        elif j < len(b) and b[j][0] <= than + tol:
            left_b += 1
            j += 1
        else:
            print('record %d of %s and %d of %s differ:' % (i + 1, pa, j + 1, pb))
            print('%s: %s' % (pa, a[i] if i < len(a) else '(none)'))
            print('%s: %s' % (pb, b[j] if j < len(b) else '(none)'))
            return 1
    print('matched %d, left out %d %d' % (matched, left_a, left_b))
    return 0


if __name__ == '__main__':
    sys.exit(main())
