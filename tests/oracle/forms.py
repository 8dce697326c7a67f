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
  * an intended difference, with its reason in tests/oracle/intended.tsv
    (each row's kind says which cases it can explain: a difference outside
    them fails, and so does a row that no difference needs any more).
Before comparing, every event the two forms spell differently is made one
count (spellings.py), so that a spelling cannot hide a formula difference.
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
import spellings  # noqa: E402
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

# Why the forms may still differ on a node: tests/oracle/intended.tsv, one
# row per reason (its header says what forms.py checks for each kind).
INTENDED_TSV = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'intended.tsv')
KINDS = ('tma-release', 'retire-latency', 'perf-conversion', 'published', 'cancellation', 'recording')
# kinds that hold on every case, so a row whose node agrees is stale
ALWAYS = ('tma-release', 'perf-conversion', 'published')


def load_intended(path=INTENDED_TSV):
    """{(model, node): [(kind, reason, line)]}"""
    rows = {}
    for no, line in enumerate(open(path), 1):
        if not line.strip() or line.startswith('#'):
            continue
        f = line.rstrip('\n').split('\t')
        if len(f) != 4 or f[2] not in KINDS or not f[3].strip():
            raise SystemExit('forms: %s:%d: want models<TAB>node<TAB>kind<TAB>reason, kind one of %s'
                             % (path, no, ', '.join(KINDS)))
        for mid in f[0].split(','):
            rows.setdefault((mid, f[1]), []).append((f[2], f[3], no))
    return rows


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


# The other defect baretop corrects, found here from the BaseFormula (the
# text in node names that the expanded Formula was made from): a reference
# to a node the model does not have (EMR's hbm_bound). perf's conversion
# writes 0 for it; the native text expanded it to another node's formula.
PHANTOM = re.compile(r'(?<![\w.])([a-z][a-z0-9_]*_bound)\b(?![.\w])')
BF_WORDS = {'max', 'min', 'if', 'else', 'and', 'or', 'not'}


def phantoms(doc):
    """{metric: the node names its BaseFormula reads that no metric of the
    file is}, and the metrics that read those through their BaseFormula."""
    tma = [m for m in doc['Metrics'] if m.get('Category') == 'TMA']
    byref = {'tma_' + m['MetricName'].lower(): m['MetricName'] for m in tma}
    found = {}
    for m in tma:
        bad = {t for t in PHANTOM.findall(m.get('BaseFormula') or '') if t not in byref}
        if bad:
            found[m['MetricName']] = bad
    readers = set(found)
    grew = True
    while grew:
        grew = False
        for m in tma:
            refs = {byref.get(t) for t in re.findall(r'\btma_\w+', m.get('BaseFormula') or '')}
            if m['MetricName'] not in readers and refs & readers:
                readers.add(m['MetricName'])
                grew = True
    return found, readers, byref


def from_base_formula(model, doc, names, found, byref):
    """Compile the BaseFormula of each of names into model: node references
    read the node's value (a tree node's as a fraction, as perf's
    conversion does), a phantom node reads 0."""
    text = {m['MetricName']: m.get('BaseFormula') or '' for m in doc['Metrics']}
    for name in names:
        def word(mm):
            t = mm.group(0)
            if t in byref:
                ref = model.metrics[byref[t]]
                return '(V(%r)%s)' % (ref.name, ' / 100' if ref.percent else '')
            if t in found.get(name, ()):
                return '0'
            if t in BF_WORDS:
                return t
            raise SystemExit('forms: %s %s: BaseFormula reads %r, neither a node nor a phantom node'
                             % (model.id, name, t))
        code = re.sub(r'\b[a-z][a-z0-9_]*\b', word, text[name])
        model.metrics[name].code = compile(code, name + '.base', 'eval')


def fixed_native(ref, mid, work):
    """The native model with fix_caps applied to its text and the phantom
    node references read as 0, and the names of the metrics either changed."""
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
    model = tma_oracle.Model(os.path.join(work, 'fixed'), mid)
    found, readers, byref = phantoms(doc)
    if readers:
        from_base_formula(model, doc, readers, found, byref)
        changed |= readers
    return model, changed


class PerfForm(tma_oracle.Model):
    """The perf conversion of a P-core (or SRF) tree, read by tma_oracle's
    perf-JSON reader with the P-core spellings added (topdown-* fields,
    `slots`, X@R / X:R retire latencies, #num_packages ...)."""

    def __init__(self, ref, mid, harmonise=True):
        self.id = mid
        self.metrics, self.order = {}, []
        path, unit = PERF_FORM[mid]
        # read once with perf's own spellings, to learn which name each
        # of its inputs has in the native form (spellings.py), then again
        # reading those as the native names: one counter, one count
        self.alias = {}
        self._load_perf([os.path.join(ref, path)], unit, False)
        nat_ev, nat_rl = tma_oracle.Model(ref, mid).inputs()
        ev, _ = self.inputs()
        self.harmonised = spellings.harmonise(ref, mid, nat_ev, ev)
        if not harmonise:
            return
        self.alias = {p: n for p, (n, _) in self.harmonised.items()}
        self.metrics, self.order = {}, []
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
                    ev = self.alias.get(ev, ev)
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
    ap.add_argument('--plant', default='', metavar='MODEL:NODE',
                    help='multiply the native value of one node by 1.01: a planted defect the step must catch')
    a = ap.parse_args()
    models = a.models.split(',') if a.models else list(tma_oracle.MODELS)
    corr = baretop_corrections(a.host)
    intended = load_intended()
    rng = random.Random(a.seed)
    raw_rng = random.Random(a.seed + 7919)
    work = tempfile.mkdtemp(prefix='bt-forms-')
    rows, problems, table, spelled, spelling_only = [], [], [], [], []
    seen = set()
    kinds = {}
    n_flags = flag_follow = 0
    try:
        for mid in models:
            if mid in SINGLE_FORM:
                rows.append((mid, 0, 0, 0, 0, 0, SINGLE_FORM[mid]))
                continue
            nat = tma_oracle.Model(a.ref, mid)
            if a.plant.startswith(mid + ':'):
                met = nat.metrics[a.plant.split(':', 1)[1]]
                met.code = compile('(%s) * 1.01' % met.source, met.name + '.planted', 'eval')
            prf = PerfForm(a.ref, mid)
            # perf's form read with its own spellings, as this step did
            # before harmonising: only to count what harmonising settles
            raw = PerfForm(a.ref, mid, harmonise=False)
            spelled += [(mid, p, n, rule) for p, (n, rule) in sorted(prf.harmonised.items())]
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
            # the perf form reads events the native one does not read (after
            # harmonising, really other events): the same machine state for both
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
            raw_ev, _ = raw.inputs()
            raw_counts = []
            for c in cases:
                rc = dict(c['counts'])
                for e in sorted(raw_ev - set(rc) - {'TSC', 'duration_time'}):
                    rc[e] = raw_rng.randrange(10 ** 5, 10 ** 9)
                raw_counts.append(rc)
            need_bt = any(m == mid for (m, _) in corr)
            bt = baretop_values(a.host, os.path.join(work, mid), cases) if need_bt else None
            fix, changed = fixed_native(a.ref, mid, work)
            mine = {n for (m, n) in corr if m == mid}
            for n in sorted(changed ^ mine):
                problems.append('%s %s: %s' % (mid, n, 'a defect forms.py finds in its text (cap or phantom '
                                                'node) that baretop does not correct' if n in changed else
                                                'baretop corrects it but forms.py finds no defect in its text'))
            differ, lit_differ, bt_bad, raw_differ = {}, {}, {}, set()
            for ci, c in enumerate(cases):
                rn = nat.evaluate(c['counts'], c['retire_latency'], c['constants'])
                rf = fix.evaluate(c['counts'], c['retire_latency'], c['constants']) if changed else rn
                rp = prf.evaluate(c['counts'], c['retire_latency'], c['constants'])
                rr = raw.evaluate(raw_counts[ci], c['retire_latency'], c['constants'])
                here = set()
                for k in both:
                    vn, vf, vp = rn[nkeys[k]][0], rf[nkeys[k]][0], rp[pkeys[k]][0]
                    if not close(vf, vp):
                        differ.setdefault(k, []).append((ci, vf, vp))
                        here.add(k)
                    if not close(vn, vp):
                        lit_differ.setdefault(k, []).append(ci)
                    if not close(vn, rr[pkeys[k]][0]):
                        raw_differ.add(k)
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
            spelling_only += [(mid, nkeys[k]) for k in sorted(raw_differ) if k not in lit_differ]
            n_corr = n_int = 0
            for k in both:
                name = nkeys[k]
                lst = differ.get(k, [])
                if name not in mine and not lst:
                    continue
                ni, pi = inputs_of(nat, nkeys[k]), inputs_of(prf, pkeys[k])
                used, bad = explain(intended.get((mid, name), []), lst, cases, ni, pi) if lst else ([], None)
                for u in used or []:
                    seen.add((mid, name, u[2]))
                if bad is not None:
                    ci = bad
                    vf, vp = [(x[1], x[2]) for x in lst if x[0] == ci][0]
                    problems.append('%s %s: %s %r, perf %r on %d of %d cases (first unexplained: %s): no row '
                                    'of tests/oracle/intended.tsv explains it'
                                    % (mid, name, 'corrected native' if name in mine else 'native', vf, vp,
                                       len(lst), len(cases), cases[ci].get('case')))
                    used = [('UNEXPLAINED', '-', 0)]
                why = '; '.join('%s: %s' % (u[0], u[1]) for u in used)
                if name in mine:
                    n_corr += 1
                    table.append((mid, name, len(lit_differ.get(k, [])), len(cases),
                                  'CORRECTED (%s); corrected text = perf form on every case%s'
                                  % (corr[(mid, name)], '' if not lst else ' but %d: %s' % (len(lst), why))))
                else:
                    table.append((mid, name, len(lst), len(cases), why))
                    if bad is None:
                        n_int += 1
                        for u in used:
                            kinds[u[0]] = kinds.get(u[0], 0) + 1
            agree = len([k for k in both if k not in differ and nkeys[k] not in mine])
            rows.append((mid, len(both), len(cases), agree, n_corr, n_int, ''))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for (mid, node), lst in sorted(intended.items()):
        if mid not in models:
            continue
        for kind, reason, no in lst:
            if (mid, node, no) in seen:
                continue
            if kind in ALWAYS:
                problems.append('%s %s: tests/oracle/intended.tsv:%d (%s) explains a difference the forms do not '
                                'have any more' % (mid, node, no, kind))
            else:
                table.append((mid, node, 0, 0, 'not seen on these cases (%s, line %d)' % (kind, no)))
    print('%-8s %6s %6s %6s %9s %8s  %s' % ('model', 'nodes', 'cases', 'agree', 'corrected', 'intended', 'note'))
    for r in rows:
        print('%-8s %6d %6d %6d %9d %8d  %s' % r)
    print()
    print('spellings harmonised (model, perf form, native form, rule: tests/oracle/spellings.py):')
    for t in spelled:
        print('  %-8s %-50s = %-48s %s' % t)
    print()
    print('nodes that differed only in spelling (agree once harmonised): %d' % len(spelling_only))
    for mid, name in spelling_only:
        print('  %-8s %s' % (mid, name))
    print()
    print('disagreements (model, node, cases that differ / cases, kind: reason from tests/oracle/intended.tsv):')
    for t in table:
        print('  %-8s %-34s %3d/%-3d %s' % t)
    for p in problems:
        print('FAIL', p)
    tot = [sum(r[i] for r in rows) for i in (1, 3, 4, 5)]
    print('forms: %d models, %d with two published forms, %d nodes compared, %d agree on every case, '
          '%d corrected by baretop, %d intended differences (%s), %d unexplained'
          % (len(rows), sum(1 for r in rows if r[1]), tot[0], tot[1], tot[2], tot[3],
             ', '.join('%s %d' % kv for kv in sorted(kinds.items())) or 'none', len(problems)))
    print('forms: %d spellings harmonised; %d nodes differed only in spelling and agree once harmonised'
          % (len(spelled), len(spelling_only)))
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


def accepts(kind, c, ni, pi):
    """Whether a row of this kind explains a difference on case c."""
    if kind == 'tma-release':
        return ni != pi
    if kind == 'retire-latency':
        lat = {i[2:] for i in ni | pi if i.startswith('R:')}
        return bool(lat - set(c['retire_latency']))
    if kind == 'cancellation':
        return c.get('kind') == 'random:mixed'
    if kind == 'recording':
        return not c['constants'].get('DURATIONTIMEINMILLISECONDS')
    return True


def explain(rows, lst, cases, ni, pi):
    """The rows that explain every differing case of lst (each case by one
    of them), or None with the first case none explains."""
    used = []
    for ci, _, _ in lst:
        hit = [r for r in rows if accepts(r[0], cases[ci], ni, pi)]
        if not hit:
            return None, ci
        if hit[0] not in used:
            used.append(hit[0])
    return used, None


if __name__ == '__main__':
    sys.exit(main())
