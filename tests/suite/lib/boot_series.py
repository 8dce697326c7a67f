#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A machine's boots over several power-ons, counted from outside baretop
(58-qemu-secure-boot.sh and 75-qemu-reboot-no-loop.sh use it).

One series is one machine: one ESP image, one variable store (persistent
NVRAM), the other disks the caller gives. Each power-on is one run of
qemu/run.sh --reboot --trace-boots --keep-esp: QEMU restarts the machine
on a reset as a real one does, so a power-on goes on over every reset until
a power-off, --until or its time bound. What each boot did is read from
what baretop does not control:

  boots          QEMU's trace of the variable store's flash chip being
                 reset (pflash_reset system.flash1: when the machine starts
                 and on every reset), which splits the console into boots;
  resets         boots minus power-ons;
  flash erases   QEMU's pflash_sector_erase_start (EDK2 reclaiming its
                 variable store erases flash blocks);
  NVRAM writes   records EDK2 appended to the variable store file
                 (ovmf_varstore.records: one per SetVariable), attributed
                 to boots by EDK2's MTC variable, which
                 MonotonicCounterDriverInit (MdeModulePkg/Universal/
                 MonotonicCounterRuntimeDxe) writes once early in every
                 boot; "baretop's" are those of baretop's vendor GUID and
                 BootNext (nothing else in these machines writes BootNext);
  measurements   results files new on the ESP (read from the image with
                 mtools), each placed in its boot by the console line
                 baretop prints when it writes one;
  power-offs     a power-on QEMU ended by itself with status 0 (no --until
                 match, no timeout): by the OS stand-in when its marker is
                 the last thing on the console, else by baretop (or the
                 firmware when baretop never started in that boot);
  OS reached     a marker of the OS stand-in (tests/efi/fake-os-loader.c:
                 "fake-os-loader: started", or the caller's); markers of
                 what else the firmware may start after baretop (the
                 shell's startup.nsh: BDS went on past a boot manager) are
                 the caller's --past-marker;
  ESP bytes      the bytes of the files under \\baretop, and the volume's
                 free bytes (mdir).

Each series is a few lines of Python or one command:

  boot_series.py --out DIR --power-ons N [--os-marker TEXT]... \\
      [--until-each REGEX] [--check CHECK]... -- RUN.SH-OPTIONS...

prints a table per boot and a summary, writes DIR/series.json, and prints
one ok/FAIL line per --check (exit 1 if one fails):
  resets<=measurements     every reset paid for by a measurement
  os-within=N              the OS stand-in reached within N boots after the
                           last measuring boot (and reached at all)
  poweroff-on-measuring    a power-off by baretop only on a boot that measured
  nvram-per-boot<=N        at most N writes by baretop in any boot
  no-timeout               no power-on ran out of time
"""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ovmf_varstore as ov  # noqa: E402

BARETOP_GUID = '6c1f6e3a-8d2b-4f5e-9a47-b7e2c0d41a93'
GVAR = '8be4df61-93ca-11d2-aa0d-00e098032b8c'
BANNER = 'bare-metal Top-Down analysis'
OS_MARKER = 'fake-os-loader: started'
RESULTS_LINE = re.compile(r'^results\s+\\baretop\\results\\(\d+)\.json\s*$')
BOOT_MARK = 'pflash_reset system.flash1: reset'
ERASE_MARK = 'pflash_sector_erase_start'
TEMPLATE = '/usr/share/OVMF/OVMF_VARS_4M.fd'
TEMPLATE_SB = '/usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd'


def store_records(path):
    """(name, guid) of every record in the store, in the order written."""
    if not os.path.exists(path):
        return []
    blob = open(path, 'rb').read()
    recs, _, _ = ov.records(blob)
    return [(name, str(guid)) for _, name, guid, _, _ in recs]


def split_writes(before, after):
    """The records appended by one power-on, one list per boot, cut at each
    MTC record (one per boot, early in DXE). A boot cut short before that
    (a time bound in SEC or PEI) wrote nothing and has no list. None when
    the store was compacted (a reclaim drops the older records)."""
    if after[:len(before)] != before:
        return None
    groups = []
    for name, guid in after[len(before):]:
        if name == 'MTC':
            groups.append([])
        elif groups:
            groups[-1].append((name, guid))
    return groups


def is_baretops(name, guid):
    return guid == BARETOP_GUID or (name == 'BootNext' and guid == GVAR)


def esp_state(out):
    """Files under \\baretop (path -> bytes), from the copy qemu/run.sh
    brings out of the image after each run (OUT/esp), and the image's free
    bytes (mdir's last line; it groups digits with spaces)."""
    files = {}
    top = os.path.join(out, 'esp')
    for d, _, names in os.walk(top):
        for f in names:
            p = os.path.join(d, f)
            files[os.path.relpath(p, top)] = os.path.getsize(p)
    free = None
    img = os.path.join(out, 'esp.img')
    if os.path.exists(img):
        m = re.search(r'([\d ]+) bytes free', subprocess.run(
            ['mdir', '-i', img, '::/'], capture_output=True, text=True).stdout)
        if m:
            free = int(m.group(1).replace(' ', ''))
    return files, free


class Series:
    def __init__(self, out, run_args, os_markers=(OS_MARKER,), past_markers=(), smp=1,
                 vars_from=None):
        self.out = out
        self.run_args = list(run_args)
        self.os_markers = list(os_markers)
        self.past_markers = list(past_markers)
        self.smp = smp
        self.vars = os.path.join(out, 'vars.fd')
        self.power_ons = []
        self.boots = []
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        if vars_from:
            shutil.copy(vars_from, self.vars)

    def power_on(self, timeout=90, until=None, extra=()):
        n = len(self.power_ons) + 1
        if not os.path.exists(self.vars):
            # the template qemu/run.sh would copy, copied here so that its
            # records (the snakeoil one was made by a boot) are not this
            # series' writes
            shutil.copy(TEMPLATE_SB if '--secure-boot' in self.run_args + list(extra)
                        else TEMPLATE, self.vars)
        before = store_records(self.vars)
        files_before = esp_state(self.out)[0] if n > 1 else {}
        cmd = ['bash', 'qemu/run.sh', '--out', self.out, '--vars', self.vars, '--reboot',
               '--trace-boots', '--no-unattended', '--smp', str(self.smp), '--timeout',
               str(timeout)] + (['--keep-esp'] if n > 1 else []) + self.run_args + list(extra)
        if until:
            cmd += ['--until', until]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if not os.path.exists(os.path.join(self.out, 'console.txt')):
            raise RuntimeError(f'qemu/run.sh did not boot (exit {p.returncode}): {p.stderr.strip()}')
        console = open(os.path.join(self.out, 'console.txt'), errors='replace').read()
        shutil.copy(os.path.join(self.out, 'console.txt'),
                    os.path.join(self.out, f'power-on-{n}.txt'))
        after = store_records(self.vars)
        files_after, free = esp_state(self.out)
        new_results = sorted(f for f in files_after if f not in files_before
                             and '/results/' in f and f.endswith('.json'))
        if p.returncode == 124:
            end = 'timeout'
        elif until and p.returncode == 0 and re.search(until, console, re.M):
            end = 'until'
        elif p.returncode == 0:
            end = 'power-off'
        else:
            end = f'exit {p.returncode}'
        segments = console.split(BOOT_MARK + '\n')[1:]
        writes = split_writes(before, after)
        first = len(self.boots)
        for i, seg in enumerate(segments):
            lines = seg.splitlines()
            events = []
            for line in lines:
                if BANNER in line:
                    events.append('baretop')
                elif any(m in line for m in self.os_markers):
                    events.append('os')
                elif any(m in line for m in self.past_markers):
                    events.append('past')
                m = RESULTS_LINE.match(line)
                if m:
                    events.append('results')
            bw = None if writes is None else writes[i] if i < len(writes) else []
            self.boots.append(dict(
                boot=len(self.boots) + 1, power_on=n,
                baretop_starts=events.count('baretop'),
                measured=events.count('results'),
                os='os' in events, events=events,
                erases=sum(ERASE_MARK in line for line in lines),
                nvram_writes=None if bw is None else len(bw),
                nvram_baretop=None if bw is None else sum(is_baretops(*w) for w in bw),
                nvram_names=None if bw is None else sorted({w[0] for w in bw}),
                end='reset' if i < len(segments) - 1 else end))
        last = self.boots[-1] if len(self.boots) > first else None
        if end == 'power-off' and last is not None:
            ev = [e for e in last['events'] if e in ('baretop', 'os', 'past')]
            last['end'] = 'power-off by ' + ({'os': 'the OS', 'baretop': 'baretop',
                                              'past': 'what came after baretop'}.get(
                ev[-1]) if ev else 'the firmware')
        rec = dict(power_on=n, end=end, status=p.returncode, boots=len(segments),
                   resets=max(len(segments) - 1, 0), new_results=len(new_results),
                   results_lines=sum(b['measured'] for b in self.boots[first:]),
                   nvram_records=len(after) - len(before) if writes is not None else None,
                   reclaimed=writes is None, esp_bytes=sum(files_after.values()),
                   esp_free=free, stderr=p.stderr.strip()[-400:])
        self.power_ons.append(rec)
        return rec

    def state(self):
        """BaretopState as the variable store holds it now (decoded when
        its layout is the one ovmf_varstore knows)."""
        if not os.path.exists(self.vars):
            return None
        data = ov.find(open(self.vars, 'rb').read(), 'BaretopState', BARETOP_GUID)
        if data is None:
            return None
        try:
            return ov.decode_baretop(data)
        except ValueError as e:
            return {'raw': data.hex(), 'why': str(e)}

    def summary(self):
        b = self.boots
        measuring = [x['boot'] for x in b if x['measured']]
        os_boots = [x['boot'] for x in b if x['os']]
        known = [x['nvram_baretop'] for x in b if x['nvram_baretop'] is not None]
        return dict(
            power_ons=len(self.power_ons), boots=len(b),
            resets=sum(p['resets'] for p in self.power_ons),
            baretop_starts=sum(x['baretop_starts'] for x in b),
            measurements=sum(p['new_results'] for p in self.power_ons),
            measuring_boots=measuring,
            results_lines=sum(p['results_lines'] for p in self.power_ons),
            poweroffs_by_baretop=[x['boot'] for x in b if x['end'] == 'power-off by baretop'],
            os_boots=os_boots,
            timeouts=sum(p['end'] == 'timeout' for p in self.power_ons),
            nvram_baretop=sum(known), nvram_baretop_max=max(known, default=0),
            nvram_all=sum(x['nvram_writes'] or 0 for x in b),
            reclaimed=any(p['reclaimed'] for p in self.power_ons),
            erases=sum(x['erases'] for x in b),
            esp_bytes=self.power_ons[-1]['esp_bytes'] if self.power_ons else 0,
            esp_free=self.power_ons[-1]['esp_free'] if self.power_ons else None,
            state=self.state())

    def table(self):
        rows = ['boot power-on baretop measured os   nvram(baretop/all) end']
        for x in self.boots:
            nv = '?' if x['nvram_writes'] is None else f"{x['nvram_baretop']}/{x['nvram_writes']}"
            rows.append(f"{x['boot']:4} {x['power_on']:8} {x['baretop_starts']:7} "
                        f"{x['measured']:8} {'yes' if x['os'] else '-':4} {nv:18} {x['end']}")
        return '\n'.join(rows)

    def check(self, name):
        """(passed, line) for one invariant over the whole series."""
        s = self.summary()
        if name == 'resets<=measurements':
            return (s['resets'] <= s['measurements'],
                    f"resets {s['resets']} <= measurements {s['measurements']}")
        if name.startswith('os-within='):
            n = int(name.split('=')[1])
            last = s['measuring_boots'][-1] if s['measuring_boots'] else 0
            hit = [x for x in s['os_boots'] if x >= max(last, 1)]
            ok = bool(hit) and hit[0] - max(last, 1) <= n
            return ok, (f"OS stand-in reached in boot {hit[0] if hit else 'never'}, "
                        f"last measurement in boot {last or 'none'} (within {n})")
        if name == 'poweroff-on-measuring':
            bad = [x for x in s['poweroffs_by_baretop']
                   if not self.boots[x - 1]['measured']]
            return not bad, (f"power-offs by baretop in boots {s['poweroffs_by_baretop']}, "
                             f"measuring boots {s['measuring_boots']}")
        if name.startswith('nvram-per-boot<='):
            n = int(name.split('=')[-1])
            return (s['nvram_baretop_max'] <= n and not s['reclaimed'],
                    f"at most {s['nvram_baretop_max']} NVRAM writes by baretop in a boot "
                    f"(bound {n}){', store reclaimed: not all seen' if s['reclaimed'] else ''}")
        if name == 'no-timeout':
            return s['timeouts'] == 0, f"{s['timeouts']} power-on(s) ran out of time"
        raise ValueError(f'unknown check {name}')


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', required=True)
    ap.add_argument('--power-ons', type=int, default=1)
    ap.add_argument('--timeout', type=int, default=90, help='seconds per power-on')
    ap.add_argument('--until-each', help='end each power-on at this console regex')
    ap.add_argument('--os-marker', action='append', default=[])
    ap.add_argument('--past-marker', action='append', default=[],
                    help='a line of what the firmware started after baretop that is not the OS')
    ap.add_argument('--smp', type=int, default=1)
    ap.add_argument('--vars-from', help='the store to start from (default: the template '
                    'qemu/run.sh copies), e.g. one with boot options or MokPolicy written in')
    ap.add_argument('--check', action='append', default=[])
    ap.add_argument('--name', default=None)
    ap.add_argument('run_args', nargs='*')
    a = ap.parse_args(argv)
    s = Series(a.out, a.run_args, os_markers=[OS_MARKER] + a.os_marker,
               past_markers=a.past_marker, smp=a.smp, vars_from=a.vars_from)
    for _ in range(a.power_ons):
        s.power_on(timeout=a.timeout, until=a.until_each)
    summ = s.summary()
    json.dump(dict(summary=summ, power_ons=s.power_ons, boots=s.boots),
              open(os.path.join(a.out, 'series.json'), 'w'), indent=1)
    name = a.name or os.path.basename(a.out.rstrip('/'))
    print(f"     {name}: {summ['power_ons']} power-on(s), {summ['boots']} boots, "
          f"{summ['resets']} resets, {summ['baretop_starts']} baretop starts, "
          f"{summ['measurements']} measurements, power-offs by baretop {len(summ['poweroffs_by_baretop'])}, "
          f"OS reached {len(summ['os_boots'])}x, NVRAM writes by baretop {summ['nvram_baretop']} "
          f"(all {summ['nvram_all']}), flash erases {summ['erases']}, ESP {summ['esp_bytes']} bytes")
    for line in s.table().splitlines():
        print('     ' + line)
    fails = 0
    for c in a.check:
        ok, line = s.check(c)
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {c}: {line}")
        fails += not ok
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
