#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Two published forms of every formula, compared: Intel's perfmon native
metrics file and the Linux perf conversion of the same TMA tree
(reference/intel/<UARCH>/perf-format/<x>-metrics.json), both evaluated by
this project's independent Python evaluator (tma_oracle.py: the vendor text
turned into Python and run with eval(); nothing shared with baretop's C) on
the same counts: seeded random count sets of every kind compare.py makes,
and the counts of every shared test vector of the model (two of them
recorded on real machines).

Every node present in both forms must agree on every case (rel 1e-9 /
abs 1e-12, invalid = invalid), or the disagreement must be
  * a vendor-file defect that baretop corrects: the correction is in
    baretop's table (metrics/corrections.c, listed by
    `baretop-host models --corrections`), and baretop's value of the node
    (`baretop-host replay --json`, built-in model) equals the second
    published form, the perf conversion, on every case; or
  * an intended difference, documented in INTENDED below with its reason
    (each names the cases it covers: a difference outside them fails).
Models with a single published form (perf-format only: IVB, the hybrid
E-cores; Linux perf JSON only: AMD Zen 4/5; native only: SPR-HBM) are
listed with the reason and nothing to compare.

usage: forms.py --ref ../shared/reference [--host build/baretop-host]
                [--vectors ../shared/testdata/tma] [--per-model 18] [--seed 1]
                [--models LNL-LNC,...]
Exit status: 0 = every disagreement corrected or intended; 1 otherwise.
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402  (its random count sets)
import tma_oracle  # noqa: E402

# model id -> (perf-format file, Unit of its metrics)
PERF_FORM = {
    'HSW': ('intel/HSW/perf-format/hsw-metrics.json', None),
    'SKL': ('intel/SKL/perf-format/skl-metrics.json', None),
    'SKX': ('intel/SKX/perf-format/skx-metrics.json', None),
    'ICL': ('intel/ICL/perf-format/icl-metrics.json', None),
    'TGL': ('intel/TGL/perf-format/tgl-metrics.json', None),
    'ICX': ('intel/ICX/perf-format/icx-metrics.json', None),
    'ADL-GLC': ('intel/ADL/perf-format/adl-metrics.json', 'cpu_core'),
    'SPR': ('intel/SPR/perf-format/spr-metrics.json', None),
    'EMR': ('intel/EMR/perf-format/emr-metrics.json', None),
    'GNR': ('intel/GNR/perf-format/gnr-metrics.json', None),
    'SRF': ('intel/SRF/perf-format/srf-metrics.json', None),
    'MTL-RWC': ('intel/MTL/perf-format/mtl-metrics.json', 'cpu_core'),
    'LNL-LNC': ('intel/LNL/perf-format/lnl-metrics.json', 'cpu_core'),
    'ARL-LNC': ('intel/ARL/perf-format/arl-metrics.json', 'cpu_core'),
}
SINGLE_FORM = {
    'IVB': 'perf-format only (Intel publishes no native file for Ivy Bridge)',
    'ADL-GRT': 'perf-format only (hybrid E-core: no native file)',
    'MTL-CMT': 'perf-format only (hybrid E-core: no native file)',
    'LNL-SKT': 'perf-format only (hybrid E-core: no native file)',
    'ARL-SKT': 'perf-format only (hybrid E-core: no native file)',
    'SPR-HBM': 'native only (Linux perf converts no Xeon Max file; SPR\'s is another tree)',
    'ZEN4': 'Linux perf JSON only (the reference has no second AMD form)',
    'ZEN5': 'Linux perf JSON only (the reference has no second AMD form)',
}

# perf spellings -> the canonical inputs (FORMAT.md): the PERF_METRICS
# fields are perf's topdown-* slot counts, `slots` is TOPDOWN.SLOTS.
PERF_EVENTS = {
    'topdown-fe-bound': 'PERF_METRICS.FRONTEND_BOUND', 'topdown-bad-spec': 'PERF_METRICS.BAD_SPECULATION',
    'topdown-retiring': 'PERF_METRICS.RETIRING', 'topdown-be-bound': 'PERF_METRICS.BACKEND_BOUND',
    'topdown-heavy-ops': 'PERF_METRICS.HEAVY_OPERATIONS',
    'topdown-br-mispredict': 'PERF_METRICS.BRANCH_MISPREDICTS',
    'topdown-fetch-lat': 'PERF_METRICS.FETCH_LATENCY', 'topdown-mem-bound': 'PERF_METRICS.MEMORY_BOUND',
    'slots': 'TOPDOWN.SLOTS',
}
PERF_LITERALS = {
    'SMT_on': 'C["HYPERTHREADING_ON"]', 'core_wide': 'C["CORE_WIDE"]', 'num_cpus_online': 'C["NUM_CPUS"]',
    'num_packages': 'C["SOCKET_COUNT"]', 'num_dies': 'C["SOCKET_COUNT"]', 'has_pmem': '0',
    'num_cores': '(C["CORES_PER_SOCKET"] * C["SOCKET_COUNT"])', 'SYSTEM_TSC_FREQ': 'C["TSC_HZ"]',
}

# Intended differences: (models, node, reason, when) -- `when` names the
# cases the difference is confined to; a disagreement on another case fails.
INTENDED = [
    (('ARL-LNC',), 'Store_Early_Blk',
     'kept as published: native 100 * 7 * LD_BLOCKS.STORE_EARLY:c1 / clks, perf\'s conversion has no 7; '
     'pmu-tools (a third evaluator, the vectors\' oracle_p) agrees with the native text on every vector',
     lambda c: True),
    (('EMR',), 'Bottleneck_Data_Cache_Memory_Bandwidth',
     'kept as published, OPEN: the native EMR text weighs MEM_Bandwidth by L3_Bound\'s share where '
     'perf\'s conversion and SPR\'s native text have 0 (the PMM_Bound term); pmu-tools matches neither, '
     'so no second form decides it (an Info-level bottleneck, not a tree node)',
     lambda c: True),
    (('ICL', 'TGL'), 'Bottleneck_Other_Bottlenecks',
     'cancellation: 100 minus the other bottlenecks, each huge on counts mixing 2^47 with < 100 '
     '(ratios of 1e12 and more), summed in another order; only on such cases',
     lambda c: c.get('kind') == 'random:mixed'),
    (('ICL', 'ADL-GLC'), 'Info_System_Time',
     'a recording without its interval (constants 0, no TSC or duration_time count): native reads '
     'the constant (0 s), perf the duration_time count it lacks (invalid)',
     lambda c: not c['constants'].get('DURATIONTIMEINMILLISECONDS')),
]


# The defect baretop corrects, found here independently of its C table: a
# latency cap x * ( N * F ) - ( M * F ) (F the core-frequency expression)
# written without the parentheses of x * ( ( N * F ) - ( M * F ) ).
_F = r'\( \( \( \w+ \) / \w+ \) \* \w+ / \( 1000000000 \) / \( \( durationtimeinmilliseconds / 1000 \) \) \)'
CAP = re.compile(r'\* \( ([\d.]+) \* (' + _F + r') \) - \( ([\d.]+) \* (' + _F + r') \)')


def fix_caps(text):
    def sub(m):
        if m.group(2) != m.group(4):
            return m.group(0)
        return '* ( ( %s * %s ) - ( %s * %s ) )' % (m.group(1), m.group(2), m.group(3), m.group(4))
    return CAP.sub(sub, text)


def fixed_native(ref, mid, work):
    """The native model with fix_caps applied to its text, and the names of
    the metrics the fix changed."""
    rel = tma_oracle.MODELS[mid][1][0]
    doc = json.load(open(os.path.join(ref, rel)))
    changed = set()
    for m in doc['Metrics']:
        t = fix_caps(m['Formula'])
        if t != m['Formula']:
            changed.add(m['MetricName'])
            m['Formula'] = t
    path = os.path.join(work, 'fixed', rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    json.dump(doc, open(path, 'w'))
    return tma_oracle.Model(os.path.join(work, 'fixed'), mid), changed


class PerfForm(tma_oracle.Model):
    """The perf conversion of a P-core (or SRF) tree, read by tma_oracle's
    perf-JSON reader with the P-core spellings added (topdown-* fields,
    `slots`, X@R / X:R retire latencies, #num_packages ...)."""

    def __init__(self, ref, mid):
        self.id = mid
        self.metrics, self.order = {}, []
        path, unit = PERF_FORM[mid]
        self._load_perf([os.path.join(ref, path)], unit, False)

    def _perf_expr(self, text, byname, met):
        # has_event(x) is 1 where the event exists; source_count(x) the
        # number of its uncore units (CHAs): system metrics only
        text = re.sub(r'has_event\([^)]*\)', '1', text)
        text = re.sub(r'source_count\([^)]*\)', '#bt_chas', text)
        out = []
        met.refs = getattr(met, 'refs', set())
        # what the value reads (the threshold's references are not inputs)
        met.xrefs = getattr(met, 'xrefs', set())
        in_value = met.code is None
        pos = 0
        while pos < len(text):
            m = self.TOKEN.match(text, pos)
            if not m:
                raise ValueError('cannot tokenize %r at %d' % (text, pos))
            pos = m.end()
            if m.group('num'):
                out.append(m.group('num'))
            elif m.group('lit'):
                lit = m.group('lit')[1:]
                out.append('C["CHAS_PER_SOCKET"]' if lit == 'bt_chas' else PERF_LITERALS[lit])
            elif m.group('sym'):
                s = m.group('sym')
                if s in ('if', 'else', 'min', 'max', 'd_ratio'):
                    out.append(s)
                elif s in byname:
                    out.append('V(%r)' % s)
                    met.refs.add(s)
                    if in_value:
                        met.xrefs.add(s)
                elif s == 'duration_time':
                    out.append('(E("duration_time") / 1e9)')
                    met.events.add('duration_time')
                else:
                    plain = s.replace('\\', '')
                    rl = False
                    mm = re.fullmatch(r'(?:cpu_core@)?(.*?)[@:]R', plain)
                    if mm and '@' not in mm.group(1):
                        plain, rl = mm.group(1), True
                    mm = re.fullmatch(r'cpu_core@([^@,]*)@', plain)
                    if mm:
                        plain = mm.group(1)
                    if plain in PERF_EVENTS:
                        ev = PERF_EVENTS[plain]
                    else:
                        ev = tma_oracle.perf_event(plain.replace('cpu=cpu_core', '').replace(',@', '@'))
                    if rl:
                        out.append('RL(%r)' % ev)
                        met.rls.add(ev)
                    else:
                        out.append('E(%r)' % ev)
                        met.events.add(ev)
            elif m.group('op'):
                out.append(m.group('op'))
        return ' '.join(out).replace('< =', '<=').replace('> =', '>=')


def key(name):
    n = name.lower()
    return n[4:] if n.startswith('tma_') else n


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= max(1e-12, 1e-9 * max(abs(a), abs(b)))


def vector_cases(vectors, mid):
    """The counts of every shared vector of the model (plausible, adversarial,
    zero sweeps) and the real recordings of the same model."""
    out = []
    if not vectors or not os.path.isdir(vectors):
        return out
    for dp, dn, fn in os.walk(vectors):
        dn.sort()
        for f in sorted(fn):
            if not f.endswith('.json'):
                continue
            try:
                c = json.load(open(os.path.join(dp, f)))
            except ValueError:
                continue
            if isinstance(c, dict) and c.get('model') == mid and 'counts' in c:
                if c.get('expected_source') == 'pmu-tools':
                    continue
                out.append({'model': mid, 'case': os.path.relpath(os.path.join(dp, f), vectors),
                            'kind': c.get('kind', 'vector'), 'counts': c['counts'],
                            'retire_latency': c.get('retire_latency', {}),
                            'constants': c['constants']})
    return out


def baretop_corrections(host):
    """baretop's corrections table: (model, node) -> reason."""
    r = subprocess.run([host, 'models', '--corrections'], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit('forms: %s models --corrections failed: %s' % (host, r.stderr.strip()))
    out = {}
    for line in r.stdout.splitlines():
        f = line.split('\t')
        if len(f) >= 3 and f[0] != 'model':
            out[(f[0], f[1])] = f[2]
    return out


def baretop_values(host, work, cases):
    """baretop-host replay --json of every case: [{node: (value, flag)}]"""
    d = os.path.join(work, 'cases')
    files = []
    for i, c in enumerate(cases):
        p = os.path.join(d, c['model'], '%04d.json' % i)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        json.dump(c, open(p, 'w'))
        files.append(p)
    out = os.path.join(work, 'out')
    r = subprocess.run([host, 'replay', '--json', '--out-dir', out, '--base', d] + files,
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit('forms: baretop-host replay failed: %s' % r.stderr.strip()[-400:])
    got = []
    for p in files:
        r = json.load(open(os.path.join(out, os.path.relpath(p, d))))
        v, t = r['values'], r.get('thresh', {})
        got.append({key(k): (v[k], t.get(k)) for k in v})
    return got


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ref', required=True)
    ap.add_argument('--host', default='build/baretop-host')
    ap.add_argument('--vectors', default='')
    ap.add_argument('--per-model', type=int, default=18)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--models', default='')
    a = ap.parse_args()
    models = a.models.split(',') if a.models else list(tma_oracle.MODELS)
    corr = baretop_corrections(a.host)
    rng = random.Random(a.seed)
    work = tempfile.mkdtemp(prefix='bt-forms-')
    rows, problems, table = [], [], []
    n_flags = flag_follow = 0
    try:
        for mid in models:
            if mid in SINGLE_FORM:
                rows.append((mid, 0, 0, 0, 0, 0, SINGLE_FORM[mid]))
                continue
            nat = tma_oracle.Model(a.ref, mid)
            prf = PerfForm(a.ref, mid)
            nkeys = {key(n): n for n in nat.metrics}
            pkeys = {key(n): n for n in prf.metrics if prf.metrics[n].kind != 'helper'}
            both = sorted(set(nkeys) & set(pkeys))
            ev = set()
            rls = set()
            for o in (nat, prf):
                e, r = o.inputs()
                ev |= e
                rls |= r
            cases = []
            for i in range(a.per_model):
                c = compare.gen_case(rng, compare.KINDS[i % len(compare.KINDS)], ev, rls, mid)
                # counted core-wide, as baretop counts: perf's #core_wide < 1
                # branch estimates core clocks of a per-thread count from
                # ONE_THREAD_ACTIVE, which the native text has no form of
                c['constants']['CORE_WIDE'] = 1
                cases.append(c)
            cases += vector_cases(a.vectors, mid)
            # the perf form reads events the native one spells otherwise or
            # does not read: the same machine state for both
            for c in cases:
                for e in sorted(ev - {'TSC', 'duration_time'}):
                    c['counts'].setdefault(e, rng.randrange(10 ** 5, 10 ** 9))
                # the interval as the case's constants give it (native reads
                # the constants, perf the counts); a recording without one
                # (constants 0) has none in either form
                k = c['constants']
                if k.get('SYSTEM_TSC_FREQ'):
                    c['counts'].setdefault('TSC', k['SYSTEM_TSC_FREQ'])
                if k.get('DURATIONTIMEINMILLISECONDS'):
                    c['counts'].setdefault('duration_time', round(k['DURATIONTIMEINMILLISECONDS'] * 1e6))
            need_bt = any(m == mid for (m, _) in corr)
            bt = baretop_values(a.host, os.path.join(work, mid), cases) if need_bt else None
            fix, changed = fixed_native(a.ref, mid, work)
            mine = {n for (m, n) in corr if m == mid}
            for n in sorted(changed ^ mine):
                problems.append('%s %s: %s' % (mid, n, 'the cap defect is in its text but baretop does not '
                                                'correct it' if n in changed else 'baretop corrects it but '
                                                'its text has no cap defect'))
            differ, lit_differ, bt_bad = {}, {}, {}
            for ci, c in enumerate(cases):
                rn = nat.evaluate(c['counts'], c['retire_latency'], c['constants'])
                rf = fix.evaluate(c['counts'], c['retire_latency'], c['constants']) if changed else rn
                rp = prf.evaluate(c['counts'], c['retire_latency'], c['constants'])
                here = set()
                for k in both:
                    vn, vf, vp = rn[nkeys[k]][0], rf[nkeys[k]][0], rp[pkeys[k]][0]
                    if not close(vf, vp):
                        differ.setdefault(k, []).append((ci, vf, vp))
                        here.add(k)
                    if not close(vn, vp):
                        lit_differ.setdefault(k, []).append(ci)
                # flags: where the values agree, the thresholds must too, or
                # read a node whose value differs on this case
                for k in both:
                    ff, fp = rf[nkeys[k]][1], rp[pkeys[k]][1]
                    if ff is None or fp is None or k in here:
                        continue
                    n_flags += 1
                    if ff != fp:
                        reads = {key(r) for r in refs_of(prf, pkeys[k])}
                        if reads & here:
                            flag_follow += 1
                        else:
                            problems.append('%s %s: flag native %r, perf %r with equal values (case %s)'
                                            % (mid, nkeys[k], ff, fp, c.get('case')))
                for n in mine:
                    vb, fb = bt[ci].get(key(n), (None, None))
                    if not close(vb, rf[n][0]) or (rf[n][1] is not None and fb != rf[n][1]):
                        bt_bad.setdefault(n, (ci, (vb, fb), rf[n]))
            for n, (ci, vb, vf) in sorted(bt_bad.items()):
                problems.append('%s %s: corrected, but baretop gives %r where the corrected native text gives %r '
                                '(case %s)' % (mid, n, vb, vf, cases[ci].get('case')))
            n_corr = n_int = 0
            for k in both:
                name = nkeys[k]
                if name not in mine:
                    continue
                rest = differ.get(k, [])
                ni, pi = inputs_of(nat, nkeys[k]), inputs_of(prf, pkeys[k])
                why = explain(mid, name, rest, cases, ni, pi) if rest else ''
                if rest and not why:
                    ci, vf, vp = rest[0]
                    problems.append('%s %s: corrected native %r, perf %r on %d of %d cases (first: %s)'
                                    % (mid, name, vf, vp, len(rest), len(cases), cases[ci].get('case')))
                n_corr += 1
                table.append((mid, name, len(lit_differ.get(k, [])), len(cases),
                              'CORRECTED (%s); corrected text = perf form on every case%s'
                              % (corr[(mid, name)], '' if not rest else ' but %d: %s' % (len(rest), why))))
            for k, lst in sorted(differ.items()):
                name = nkeys[k]
                if name in mine:
                    continue
                ni, pi = inputs_of(nat, nkeys[k]), inputs_of(prf, pkeys[k])
                why = explain(mid, name, lst, cases, ni, pi)
                if why:
                    n_int += 1
                    table.append((mid, name, len(lst), len(cases), 'intended: ' + why))
                    continue
                ci, vn, vp = lst[0]
                problems.append('%s %s: native %r, perf %r on %d of %d cases (first: %s) -- neither '
                                'corrected nor an intended difference' % (mid, name, vn, vp, len(lst),
                                                                         len(cases), cases[ci].get('case')))
            agree = len([k for k in both if k not in differ and nkeys[k] not in mine])
            rows.append((mid, len(both), len(cases), agree, n_corr, n_int, ''))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print('%-8s %6s %6s %6s %9s %8s  %s' % ('model', 'nodes', 'cases', 'agree', 'corrected', 'intended', 'note'))
    for r in rows:
        print('%-8s %6d %6d %6d %9d %8d  %s' % r)
    print()
    print('disagreements (model, node, cases that differ / cases, what):')
    for t in table:
        print('  %-8s %-34s %3d/%-3d %s' % t)
    for p in problems:
        print('FAIL', p)
    tot = [sum(r[i] for r in rows) for i in (1, 3, 4, 5)]
    print('forms: %d models, %d with two published forms, %d nodes compared, %d agree on every case, '
          '%d corrected by baretop, %d intended differences, %d unexplained'
          % (len(rows), sum(1 for r in rows if r[1]), tot[0], tot[1], tot[2], tot[3], len(problems)))
    print('forms: %d threshold flags compared where the values agree; %d differ, each reading a node '
          'whose value differs on that case' % (n_flags, flag_follow))
    if sum(1 for r in rows if r[1]) == 0 or tot[0] == 0:
        print('forms: nothing compared')
        return 1
    return 1 if problems else 0


def refs_of(model, name, seen=None):
    """The metrics a perf metric's value and threshold read, transitively."""
    seen = set() if seen is None else seen
    for r in getattr(model.metrics[name], 'refs', ()):
        if r not in seen:
            seen.add(r)
            refs_of(model, r, seen)
    return seen


def inputs_of(model, name, seen=None):
    """Every count and retire latency a metric reads, through the metrics it
    references (perf), as a set of 'E:event' / 'R:event'."""
    seen = set() if seen is None else seen
    if name in seen:
        return set()
    seen.add(name)
    m = model.metrics[name]
    # the interval (TSC ticks, duration) is spelled as constants in one form
    # and as counts in the other: not an input that tells methods apart
    out = {'E:' + e for e in m.events if e not in ('TSC', 'duration_time')} | {'R:' + e for e in m.rls}
    for r in getattr(m, 'xrefs', ()):
        out |= inputs_of(model, r, seen)
    return out


def rp_cache(prf, c, name):
    k = (prf.id, id(c))
    if k not in _rp:
        _rp[k] = prf.evaluate(c['counts'], c['retire_latency'], c['constants'])
    return _rp[k][name][0]


def explain(mid, name, lst, cases, ni, pi):
    """Why the forms differ on these cases, or None: a listed intended
    difference, a latency the case does not give, or another method."""
    for models, node, reason, when in INTENDED:
        if mid in models and node == name and all(when(cases[ci]) for ci, _, _ in lst):
            return reason
    lat = {i[2:] for i in ni | pi if i.startswith('R:')}
    if lat and all(lat - set(cases[ci]['retire_latency']) for ci, _, _ in lst):
        return ('retire latency not measured: native falls back to its published cost (rl >= 0 test), '
                'perf\'s conversion has no such test (perf gives @R itself)')
    if ni != pi:
        return 'another method: the forms read other inputs (native only: %s; perf only: %s)' % (
            ', '.join(sorted(ni - pi)[:3]) or '-', ', '.join(sorted(pi - ni)[:3]) or '-')
    return None


if __name__ == '__main__':
    sys.exit(main())
