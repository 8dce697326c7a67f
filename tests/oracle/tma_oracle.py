#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An independent reference evaluator of the vendor Top-Down formulas.

It reads the vendor JSON files directly (perfmon native metrics, Intel
perf-format metrics, AMD perf pipeline/recommended metrics) and evaluates the
formulas with Python's own semantics, the semantics the test vectors are
defined by (../shared/testdata/tma/FORMAT.md):
  * counts are Python ints, so sums and products of counts are exact;
  * x / 0 raises ZeroDivisionError: the metric is invalid;
  * "A if C else B" is lazy; min/max evaluate all their arguments;
  * a metric referencing an invalid metric is invalid;
  * thresholds: a comparison involving an invalid metric is False, the flag of
    an invalid metric is False; & | are "and" / "or" below the comparisons;
  * perf d_ratio(a, b) = 0 if b == 0 else a / b; perf duration_time is seconds.
Formulas are turned into Python expressions and run with eval(): the only
thing shared with baretop is the vendor data. Standard library only.
"""
import json
import math
import os
import re

# model id -> (format, metric files, unit, ecore)
MODELS = {
    'HSW': ('native', ['intel/HSW/metrics/haswell_metrics.json'], None),
    'IVB': ('perf', ['intel/IVB/perf-format/ivb-metrics.json'], None),
    'SKL': ('native', ['intel/SKL/metrics/skylake_metrics.json'], None),
    'SKX': ('native', ['intel/SKX/metrics/skylakex_metrics.json'], None),
    'ICL': ('native', ['intel/ICL/metrics/icelake_metrics.json'], None),
    'TGL': ('native', ['intel/TGL/metrics/tigerlake_metrics.json'], None),
    'ICX': ('native', ['intel/ICX/metrics/icelakex_metrics.json'], None),
    'ADL-GLC': ('native', ['intel/ADL/metrics/alderlake_metrics_goldencove_core.json'], None),
    'ADL-GRT': ('perf', ['intel/ADL/perf-format/adl-metrics.json'], 'cpu_atom'),
    'SPR': ('native', ['intel/SPR/metrics/sapphirerapids_metrics.json'], None),
    'SPR-HBM': ('native', ['intel/SPR/metrics/sapphirerapidshbm_metrics.json'], None),
    'EMR': ('native', ['intel/EMR/metrics/emeraldrapids_metrics.json'], None),
    'GNR': ('native', ['intel/GNR/metrics/graniterapids_metrics.json'], None),
    'SRF': ('native', ['intel/SRF/metrics/sierraforest_metrics.json'], None),
    'MTL-RWC': ('native', ['intel/MTL/metrics/meteorlake_metrics_redwoodcove_core.json'], None),
    'MTL-CMT': ('perf', ['intel/MTL/perf-format/mtl-metrics.json'], 'cpu_atom'),
    'LNL-LNC': ('native', ['intel/LNL/metrics/lunarlake_metrics_lioncove_core.json'], None),
    'LNL-SKT': ('perf', ['intel/LNL/perf-format/lnl-metrics.json'], 'cpu_atom'),
    'ARL-LNC': ('native', ['intel/ARL/metrics/arrowlake_metrics_lioncove_core.json'], None),
    'ARL-SKT': ('perf', ['intel/ARL/perf-format/arl-metrics.json'], 'cpu_atom'),
    'ZEN4': ('perf', ['amd/amdzen4/pipeline.json', 'amd/amdzen4/recommended.json'], None),
    'ZEN5': ('perf', ['amd/amdzen5/pipeline.json', 'amd/amdzen5/recommended.json'], None),
}

AMD_SKIP_GROUPS = {'data_fabric', 'memory_controller'}


class Invalid(Exception):
    """A metric that cannot be computed (division by zero on its path)."""


def canon_event(name):
    """perfmon spelling -> canonical count name (FORMAT.md), and whether it is
    a retire-latency reference."""
    base, *mods = name.split(':')
    out = {'c': None, 'i': None, 'e': None, 'eq': None, 'u': None, 'ocr': None}
    other, priv, rl = [], '', False
    for m in mods:
        if m == 'perf_metrics':
            continue
        if m == 'retire_latency':
            rl = True
        elif m in ('SUP', 'sup', 'k'):
            priv = ':SUP'
        elif m in ('USER', 'user', 'u'):
            priv = ':USER'
        elif re.fullmatch(r'c\d+', m):
            out['c'] = m
        elif re.fullmatch(r'i\d', m):
            out['i'] = m
        elif re.fullmatch(r'eq\d', m):
            out['eq'] = m
        elif re.fullmatch(r'e\d', m):
            out['e'] = m
        elif re.fullmatch(r'u0x[0-9a-fA-F]+', m):
            out['u'] = 'u0x%02x' % int(m[1:], 16)
        elif m.startswith('ocr_msr_val='):
            out['ocr'] = m
        else:
            other.append(m)
    parts = [base] + [out[k] for k in ('c', 'i', 'e', 'eq', 'u', 'ocr') if out[k]] + other
    return ':'.join(parts) + priv, rl


def perf_event(tok):
    """perf event token -> canonical count name."""
    t = tok.replace('\\', '')
    if '@' not in t:
        return canon_event(t)[0]
    pmu, inner, suffix = t.split('@')
    if pmu == 'msr' and inner.split(',')[0] == 'tsc':
        return 'TSC'
    if pmu not in ('cpu', 'cpu_atom', 'cpu_core'):
        return t
    ev, *terms = inner.split(',')
    mods = []
    kv = dict((x.split('=') + ['1'])[:2] for x in terms)
    if 'cmask' in kv:
        mods.append('c%d' % int(kv['cmask'], 0))
    if 'inv' in kv:
        mods.append('i%d' % int(kv['inv'], 0))
    if 'edge' in kv:
        mods.append('e%d' % int(kv['edge'], 0))
    if 'umask' in kv:
        mods.append('u0x%02x' % int(kv['umask'], 0))
    name = ':'.join([ev] + mods)
    if suffix == 'k':
        name += ':SUP'
    elif suffix == 'u':
        name += ':USER'
    return canon_event(name)[0]


class Metric:
    def __init__(self, name, kind, level, parent, percent):
        self.name, self.kind, self.level, self.parent, self.percent = name, kind, level, parent, percent
        self.code = None        # compiled formula
        self.thresh = None      # compiled threshold (intended)
        self.events = set()
        self.rls = set()


class Model:
    """Metrics of one model; evaluate(counts, rl, constants) -> {name: (value, flag)}"""

    def __init__(self, ref, mid):
        self.id = mid
        fmt, files, unit = MODELS[mid]
        self.metrics = {}
        self.order = []
        if fmt == 'native':
            self._load_native(os.path.join(ref, files[0]))
        else:
            self._load_perf([os.path.join(ref, f) for f in files], unit, mid.startswith('ZEN'))

    # ---------------------------------------------------------------- native
    def _load_native(self, path):
        data = json.load(open(path))['Metrics']
        tma = [m for m in data if m.get('Category') == 'TMA']
        legacy = {m['LegacyName']: m['MetricName'] for m in tma}
        units = {m['MetricName']: m.get('UnitOfMeasure') for m in tma}
        consts = {'20': '20', 'system.sockets[0].cpus.count * system.socket_count': 'C["NUM_CPUS"]'}
        for m in tma:
            name = m['MetricName']
            kind = 'info' if name.startswith('Info_') else 'bottleneck' if name.startswith('Bottleneck_') else 'tree'
            level = m.get('Level') if kind == 'tree' else 0
            met = Metric(name, kind, level, m.get('ParentCategory') or None,
                         kind == 'tree' and m.get('UnitOfMeasure') == 'percent')
            names = {}
            for e in m['Events']:
                ev, rl = canon_event(e['Name'])
                if rl:
                    names[e['Alias']] = 'RL(%r)' % ev
                    met.rls.add(ev)
                else:
                    names[e['Alias']] = 'E(%r)' % ev
                    met.events.add(ev)
            for c in m['Constants']:
                names[c['Alias']] = consts.get(c['Name'], 'C[%r]' % c['Name'])
            f = m['Formula'].replace('> =', '>=').replace('< =', '<=').replace('#NA', 'NA()')
            f = re.sub(r'\b[a-z][a-z_]*\b', lambda x: names.get(x.group(0), x.group(0)), f)
            met.source = f
            met.code = compile(f, name, 'eval')
            t = (m.get('Threshold') or {}).get('Formula')
            if t:
                tm = m['Threshold'].get('ThresholdMetrics')
                if tm:
                    refs = {x['Alias']: 'V(%r)' % legacy[x['Value']] for x in tm}
                    t = re.sub(r'\b[a-z][a-z_]*\b', lambda x: refs.get(x.group(0), x.group(0)), t)
                else:
                    # TMA 3.x (SRF): LegacyNames in the text, percent metrics compared
                    # with fractions: the intended reading divides them by 100
                    for lg in sorted(legacy, key=len, reverse=True):
                        n = legacy[lg]
                        scale = ' / 100' if units.get(n) == 'percent' else ''
                        t = t.replace(lg, '(V(%r)%s)' % (n, scale))
                t = t.replace('&&', ' and ').replace('||', ' or ').replace('&', ' and ').replace('|', ' or ')
                met.thresh = compile(t, name + '.thresh', 'eval')
            self.metrics[name] = met
            self.order.append(name)
        for met in self.metrics.values():
            if met.kind == 'tree' and met.level > 1 and not met.parent:
                met.parent = '?'  # inferred from the threshold chain; not compared here

    # ---------------------------------------------------------------- perf
    def _load_perf(self, paths, unit, amd):
        entries = []
        for p in paths:
            for m in json.load(open(p)):
                if 'MetricName' in m and m.get('Unit') == unit:
                    entries.append(m)
        byname = {}
        for m in entries:
            byname.setdefault(m['MetricName'], m)
        for name, m in byname.items():
            groups = (m.get('MetricGroup') or '').split(';')
            if amd:
                if AMD_SKIP_GROUPS & set(groups):
                    continue
            elif not name.startswith('tma_'):
                continue
            level = 0
            for g in groups:
                mm = re.fullmatch(r'(?:TopdownL|PipelineL)(\d+)', g)
                if mm:
                    level = int(mm.group(1))
            parent = None
            for g in groups:
                if g.endswith('_group') and g[:-6] in byname and level > 1:
                    pg = (byname[g[:-6]].get('MetricGroup') or '').split(';')
                    if ('TopdownL%d' % (level - 1)) in pg or ('PipelineL%d' % (level - 1)) in pg:
                        parent = g[:-6]
            met = Metric(name, 'tree' if level else 'info', level, parent, False)
            met.code = compile(self._perf_expr(m['MetricExpr'], byname, met), name, 'eval')
            if m.get('MetricThreshold'):
                t = self._perf_expr(m['MetricThreshold'], byname, met)
                t = t.replace('&', ' and ').replace('|', ' or ')
                met.thresh = compile(t, name + '.thresh', 'eval')
            self.metrics[name] = met
            self.order.append(name)
        # helpers that are referenced but not selected
        changed = True
        while changed:
            changed = False
            for met in list(self.metrics.values()):
                for r in getattr(met, 'refs', ()):
                    if r not in self.metrics:
                        m = byname[r]
                        h = Metric(r, 'helper', 0, None, False)
                        h.code = compile(self._perf_expr(m['MetricExpr'], byname, h), r, 'eval')
                        self.metrics[r] = h
                        changed = True

    TOKEN = re.compile(r'\s+|(?P<num>\d+\.?\d*(?:e-?\d+)?)|(?P<lit>#\w+)'
                       r'|(?P<sym>(?:[A-Za-z_@]|\\.)(?:[\w.:?]|\\.|@[^@]*@[a-z]*)*|@[^@]*@[a-z]*)'
                       r'|(?P<op>[-+*/(),<>=!&|])')

    def _perf_expr(self, text, byname, met):
        out = []
        met.refs = getattr(met, 'refs', set())
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
                out.append({'SMT_on': 'C["HYPERTHREADING_ON"]', 'core_wide': 'C["CORE_WIDE"]',
                            'num_cpus_online': 'C["NUM_CPUS"]'}[lit])
            elif m.group('sym'):
                s = m.group('sym')
                if s in ('if', 'else', 'min', 'max', 'd_ratio'):
                    out.append(s)
                elif s in byname:
                    out.append('V(%r)' % s)
                    met.refs.add(s)
                elif s == 'duration_time':
                    out.append('(E("duration_time") / 1e9)')
                    met.events.add('duration_time')
                else:
                    ev = perf_event(s)
                    out.append('E(%r)' % ev)
                    met.events.add(ev)
            elif m.group('op'):
                out.append(m.group('op'))
            else:
                out.append(' ')
        return ' '.join(out).replace('< =', '<=').replace('> =', '>=')

    # ---------------------------------------------------------------- evaluate
    def inputs(self):
        ev, rl = set(), set()
        for m in self.metrics.values():
            ev |= m.events
            rl |= m.rls
        return ev, rl

    def evaluate(self, counts, retire_latency, constants):
        cache = {}

        def E(name):
            if name not in counts:  # not recorded: the metric cannot be computed
                raise Invalid()
            return counts[name]

        def RL(name):
            return retire_latency.get(name, -1)

        def NA():
            raise Invalid()

        def d_ratio(a, b):
            return 0 if b == 0 else a / b

        def V(name):
            if name not in cache:
                try:
                    cache[name] = eval(self.metrics[name].code, env)
                except (ZeroDivisionError, Invalid, KeyError):
                    cache[name] = None
            if cache[name] is None:
                raise Invalid()
            return cache[name]

        env = {'E': E, 'RL': RL, 'NA': NA, 'C': constants, 'V': V, 'd_ratio': d_ratio,
               'min': min, 'max': max, '__builtins__': {}}
        out = {}
        for name in self.metrics:
            try:
                raw = V(name)
            except Invalid:
                raw = None
            met = self.metrics[name]
            flag = None
            if met.thresh is not None:
                if raw is None:
                    flag = False
                else:
                    def TV(n):  # threshold view: invalid metrics compare false (NaN)
                        try:
                            return V(n)
                        except Invalid:
                            return math.nan
                    flag = bool(eval(met.thresh, dict(env, V=TV)))
            value = raw
            if raw is not None and met.percent:
                value = raw / 100
            out[name] = (value, flag)
        return out
