#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Two spellings of one event, made one count before the two published
forms of a formula are compared (forms.py).

Intel's native metrics file and Linux perf's conversion name some inputs
differently. Left apart, each form reads its own count of the same
counter, so any formula difference behind the spelling hides as "another
method". Every rule below says why the two names are one counter; a
perf-form input is renamed only to an input the native form of the same
model reads, so a rule can never join two different events:

  core      the encodings the model's events file gives are equal (event
            code, umask and its extension, cmask, inv, edge, eq, the
            offcore MSR value, AnyThread): FP_ARITH_OPS_RETIRED.VECTOR_256B is
            0xC7/0x30, the native text's FP_ARITH_OPS_RETIRED.VECTOR:u0x30
  ocr       perf's `@offcore_rsp=V@` term is the MSR_OFFCORE_RSP value the
            canonical `:ocr_msr_val=V` names (FORMAT.md)
  uncore    an uncore event's `thresh` / `cmask` term is its counter mask,
            `:cN` (Linux's uncore PMU format: thresh is config:24-31);
            `cha_0@event=0x0@` (SKX, ICX) and `uncore_cha_0@event=0x1@`
            (SPR, EMR, GNR) are UNC_CHA_CLOCKTICKS of one CHA, and
            `imc_0@event=0x0@` (SKX) UNC_M_CLOCKTICKS of one memory
            controller, the native `:one_unit` (Linux perf's uncore-cache /
            uncore-memory JSON of those parts: UNC_CHA_CLOCKTICKS EventCode
            0x0 on skylakex/icelakex, 0x01 on sapphirerapids and later;
            UNC_M_CLOCKTICKS 0x0 on skylakex)
  rapl      perf's power PMU `energy-pkg` / `energy-ram` read the RAPL
            MSR_PKG_ENERGY_STATUS (611H) / MSR_DRAM_ENERGY_STATUS (619H)
            counters that the native files call UNC_PKG_ENERGY_STATUS
            (client) or FREERUN_PKG_ENERGY_STATUS / FREERUN_DRAM_ENERGY_STATUS
            (server); both formulas scale the count the same way (x 61 uJ,
            x 15.6 uJ)
Standard library only.
"""
import json
import os
import re

# model id -> its core events file (the first events file of its recipe)
EVENTS = {
    'HSW': 'intel/HSW/events/haswell_core.json',
    'SKL': 'intel/SKL/events/skylake_core.json',
    'SKX': 'intel/SKX/events/skylakex_core.json',
    'ICL': 'intel/ICL/events/icelake_core.json',
    'TGL': 'intel/TGL/events/tigerlake_core.json',
    'ICX': 'intel/ICX/events/icelakex_core.json',
    'ADL-GLC': 'intel/ADL/events/alderlake_goldencove_core.json',
    'SPR': 'intel/SPR/events/sapphirerapids_core.json',
    'EMR': 'intel/EMR/events/emeraldrapids_core.json',
    'GNR': 'intel/GNR/events/graniterapids_core.json',
    'SRF': 'intel/SRF/events/sierraforest_core.json',
    'MTL-RWC': 'intel/MTL/events/meteorlake_redwoodcove_core.json',
    'LNL-LNC': 'intel/LNL/events/lunarlake_lioncove_core.json',
    'ARL-LNC': 'intel/ARL/events/arrowlake_lioncove_core.json',
}

UNCORE_UNITS = {
    'cha_0@event=0x0@': (('SKX', 'ICX'), 'UNC_CHA_CLOCKTICKS:one_unit'),
    'uncore_cha_0@event=0x1@': (('SPR', 'EMR', 'GNR'), 'UNC_CHA_CLOCKTICKS:one_unit'),
    'imc_0@event=0x0@': (('SKX',), 'UNC_M_CLOCKTICKS:one_unit'),
}
RAPL = {
    'power@energy-pkg@': ('UNC_PKG_ENERGY_STATUS', 'FREERUN_PKG_ENERGY_STATUS'),
    'power@energy-ram@': ('FREERUN_DRAM_ENERGY_STATUS',),
}


def _num(v):
    return int(str(v), 0) if v not in (None, '') else 0


class Encodings:
    """Event name (canonical, with its qualifiers) -> encoding tuple, from a
    model's core events file; None for a name the file does not have."""

    def __init__(self, ref, mid):
        self.ev = {}
        path = EVENTS.get(mid)
        if not path or not os.path.exists(os.path.join(ref, path)):
            return
        for e in json.load(open(os.path.join(ref, path)))['Events']:
            self.ev.setdefault(e['EventName'], e)

    def of(self, name):
        base, *mods = name.split(':')
        e = self.ev.get(base)
        if e is None or e.get('EventCode') is None:
            return None
        code = tuple(_num(x) for x in str(e['EventCode']).split(','))
        umask, ext = _num(e.get('UMask')), _num(e.get('UMaskExt'))
        cmask, inv, edge, eq = _num(e.get('CounterMask')), _num(e.get('Invert')), _num(e.get('EdgeDetect')), 0
        anyt = _num(e.get('AnyThread'))
        msr = _num(e.get('MSRValue')) if e.get('MSRIndex') not in (None, '0', '0x00') else 0
        for m in mods:
            if re.fullmatch(r'c\d+', m):
                cmask = int(m[1:])
            elif re.fullmatch(r'i\d', m):
                inv = int(m[1:])
            elif re.fullmatch(r'e\d', m):
                edge = int(m[1:])
            elif re.fullmatch(r'eq\d', m):
                eq = int(m[2:])
            elif re.fullmatch(r'u0x[0-9a-fA-F]+', m):
                umask = int(m[1:], 16)
            elif m.startswith('ocr_msr_val='):
                msr = int(m.split('=')[1], 0)
            else:
                return None  # a qualifier this table does not model: not joined
        return (code, umask, ext, cmask, inv, edge, eq, anyt, msr)


def harmonise(ref, mid, native_inputs, perf_inputs):
    """{perf spelling: (native spelling, rule)} for every perf-form input
    that is an input of the native form under another name."""
    out = {}
    native = set(native_inputs)
    enc = Encodings(ref, mid)
    by_enc = {}
    for n in native:
        k = enc.of(n)
        if k is not None:
            by_enc.setdefault(k, set()).add(n)
    for p in sorted(set(perf_inputs) - native):
        m = re.fullmatch(r'(OCR\.[\w.]+)@offcore_rsp=(0x[0-9a-fA-F]+)@', p)
        if m:
            for n in native:
                mm = re.fullmatch(r'(OCR\.[\w.]+):ocr_msr_val=(0x[0-9a-fA-F]+)', n)
                if mm and mm.group(1) == m.group(1) and int(mm.group(2), 16) == int(m.group(2), 16):
                    out[p] = (n, 'ocr')
            continue
        m = re.fullmatch(r'(UNC_[\w.]+)@(?:thresh|cmask)=(\d+|0x[0-9a-fA-F]+)@', p)
        if m:
            n = '%s:c%d' % (m.group(1), int(m.group(2), 0))
            if n in native:
                out[p] = (n, 'uncore')
            continue
        if p in UNCORE_UNITS:
            models, n = UNCORE_UNITS[p]
            if mid in models and n in native:
                out[p] = (n, 'uncore')
            continue
        if p in RAPL:
            hit = [n for n in RAPL[p] if n in native]
            if len(hit) == 1:
                out[p] = (hit[0], 'rapl')
            continue
        k = enc.of(p)
        hit = sorted(by_enc.get(k, ())) if k is not None else []
        if len(hit) == 1:
            out[p] = (hit[0], 'core')
    return out
