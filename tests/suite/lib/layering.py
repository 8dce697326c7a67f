#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The layering rules of README.md ("Layout"), checked on the tree and on the
built objects. Exits 1 with one line per broken rule.

  1. UEFI headers are included only in efi/ (and the test EFI apps).
  2. Privileged instructions appear only in arch/ (inline asm or .S files).
  3. Folders include only the folders below them (ALLOWED), so the folder
     graph has no cycle, also when a room's subfolders count as the room
     (arch/sim as arch/: no arch/ -> pmu/ -> arch/ circle). Every folder the
     product builds is a room, the programs of tools/ too (each tool is a
     room of its own, tools/baretop-host/fleet one inside baretop-host).
  4. No file-level import cycle: file A imports file B when A's object uses a
     symbol B's object defines (from `nm` of the hosted build), which also
     sees circles that run through a shared internal header. A tool's
     objects resolve a symbol in their own program first, then in the
     library every program links (two tools may both define main).
  5. No function-local static storage without a comment saying why (hidden
     state that outlives the call: a buffer belongs to the caller; the few
     singletons that must be static say so next to them).
  6. Host-only code never reaches baretop.efi: no object of a host-only room
     (HOST_ONLY_ROOMS, *-host.c) is in the EFI build, and no EFI object
     defines or uses a symbol that only host-only objects define (from `nm`
     of the hosted and the EFI builds).
  7. Every suite script a source file or document names
     (tests/suite/NN-name.sh) exists, so renumbering a step cannot leave a
     stale reference behind (and none cites a step by bare number).
  8. Linux perf_event (its header <linux/perf_event.h>, the
     perf_event_open system call) appears only in host-only code: counting
     through the kernel's driver is baretop-host's, never baretop.efi's.
"""
import os, re, subprocess, sys
from collections import defaultdict

ROOMS = ['base', 'arch', 'arch/sim', 'synth', 'pmu', 'metrics', 'metrics/gen', 'report', 'workloads', 'firmware', 'kernels', 'validate', 'validate/gen', 'app', 'efi', 'host', 'analysis',
         'tools/baretop-host', 'tools/baretop-host/fleet', 'tools/bench-eval', 'tools/bench-workloads',
         'tools/gen-atlas', 'tools/gen-models', 'tools/gen-retlat', 'tools/kernel-census']
# The library rooms every program links; below them the programs of tools/.
LIBRARY = {'base', 'arch', 'arch/sim', 'synth', 'pmu', 'metrics', 'metrics/gen', 'report', 'workloads', 'firmware',
           'kernels', 'validate', 'validate/gen', 'app', 'host', 'analysis'}
# What each room may include (itself always). arch/sim is the model of the
# registers the driver (pmu/) is tested against, so it sees none of the
# driver's code: a sim written from the driver's reading could not catch
# that reading's mistakes.
ALLOWED = {
    'base': set(),
    'arch': {'base'},
    'arch/sim': {'base', 'arch'},
    # Simulated count sources: what the simulated PMU counts (models, never
    # measurements).
    'synth': {'base', 'arch', 'arch/sim', 'pmu', 'kernels'},
    'pmu': {'base', 'arch'},
    'metrics': {'base'},
    'metrics/gen': {'base', 'metrics'},
    'report': {'base', 'arch', 'pmu', 'metrics', 'firmware'},
    'workloads': {'base', 'arch', 'pmu'},
    'kernels': {'base', 'arch'},
    'validate': {'base', 'arch', 'pmu', 'metrics', 'report', 'kernels'},
    'validate/gen': {'base', 'arch', 'pmu', 'metrics', 'report', 'kernels', 'validate'},
    'app': {'base', 'arch', 'arch/sim', 'synth', 'pmu', 'metrics', 'report', 'workloads', 'firmware', 'kernels', 'validate'},
    'efi': {'base', 'arch', 'arch/sim', 'pmu', 'metrics', 'report', 'workloads', 'firmware', 'kernels', 'validate', 'app'},
    'host': {'base', 'arch', 'arch/sim', 'pmu', 'metrics', 'report', 'workloads', 'firmware', 'kernels', 'validate', 'app'},
    # Host-only analysis after the run (never linked into baretop.efi).
    'analysis': {'base', 'arch', 'arch/sim', 'synth', 'pmu', 'metrics', 'report', 'firmware'},
    # SMBIOS/ACPI parsers: bytes in, facts out (efi/ finds the tables).
    'firmware': {'base'},
    # The host programs (tools/): each sees the library, never another
    # program. The fleet store sees what a results file and its statistics
    # need, never the command line above it (tools/baretop-host).
    'tools/baretop-host': LIBRARY | {'tools/baretop-host/fleet'},
    'tools/baretop-host/fleet': {'base', 'metrics', 'report', 'analysis'},
    'tools/bench-eval': {'base', 'metrics'},
    'tools/bench-workloads': {'base', 'arch', 'pmu', 'host', 'workloads'},
    'tools/gen-atlas': {'base', 'metrics', 'validate'},
    'tools/gen-models': {'base', 'metrics'},
    'tools/gen-retlat': {'base', 'metrics'},
    'tools/kernel-census': {'base', 'arch', 'app', 'kernels'},
}
# Rooms built hosted only (the Makefile's HOST_ONLY_DIRS).
HOST_ONLY_ROOMS = ('analysis', 'host')
UEFI_HEADERS = re.compile(r'#\s*include\s*[<"](efi|efilib|efiapi|efiprot|efidef|efibind|efierr|efi_\w+|protocol/\w+|Uefi\w*|Protocol/\w+)(\.h)?[>"]')
PRIVILEGED = re.compile(r'\b(rdmsr|wrmsr|rdpmc|rdtscp?|cpuid|xgetbv|xsetbv|cli|sti|hlt|lidt|lgdt|invlpg|wbinvd|in[bwl]?|out[bwl]?)\b'
                        r'|mov[lq]?\s+[^;\n]*%?cr[0-8]')

PERF_EVENT = re.compile(r'#\s*include\s*<linux/perf_event\.h>|\b(SYS|__NR)_perf_event_open\b')

def top_of(room):
    """The folder a room counts as for cycles: arch/sim -> arch; a program of
    tools/ is its own (tools/baretop-host/fleet -> tools/baretop-host)."""
    parts = room.split('/')
    return '/'.join(parts[:2]) if parts[0] == 'tools' else parts[0]

def program_of(path):
    """Which program's symbols a file sees first: its tool, or the library."""
    parts = path.split('/')
    return '/'.join(parts[:2]) if parts[0] == 'tools' else 'lib'

def file_graph(defs, uses):
    """file -> the files whose symbols it uses; defs[(program, symbol)] = file."""
    g = {}
    for f, syms in uses.items():
        prog = program_of(f)
        g[f] = set()
        for s in syms:
            t = defs.get((prog, s)) or defs.get(('lib', s))
            if t and t != f:
                g[f].add(t)
    return g

def folder_cycles(g):
    """Cycles of a room graph with every room folded into its top folder."""
    top = defaultdict(set)
    for r, targets in g.items():
        top[top_of(r)] |= {top_of(t) for t in targets if top_of(t) != top_of(r)}
    return cycles(top)

def room_of(path):
    best = None
    for r in ROOMS:
        if path.startswith(r + '/') and (best is None or len(r) > len(best)):
            best = r
    return best

def code_only(text):
    """text with comments, strings and character constants blanked, lines kept."""
    t = re.sub(r'/\*.*?\*/', lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text, flags=re.S)
    t = re.sub(r'//[^\n]*', '', t)
    t = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', t)
    return re.sub(r"'(?:[^'\\\n]|\\.)*'", "''", t)

FUNC_STATIC = re.compile(r'\s*static\b(?!\s+const\b)[^(]*;')

def local_statics(text):
    """(line, text) of each function-local non-const static with no comment on
    its line or the line above it."""
    raw = text.split('\n')
    code = code_only(text).split('\n')
    depth, out = 0, []
    for i, line in enumerate(code):
        if depth > 0 and FUNC_STATIC.match(line):
            here = raw[i]
            above = raw[i - 1].strip() if i else ''
            if '/*' not in here and '//' not in here and not above.endswith('*/') and not above.startswith('//'):
                out.append((i + 1, here.strip()))
        depth += line.count('{') - line.count('}')
    return out

def host_only(path):
    """Host-only rooms, *-host.c, and the host programs of tools/."""
    return room_of(path) in HOST_ONLY_ROOMS or path.endswith('-host.c') or path.startswith('tools/')

def nm_symbols(obj):
    """(defined, used) global symbols of one object file."""
    defined, used = set(), set()
    for line in subprocess.check_output(['nm', obj], text=True).splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'TDBRCVW':
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == 'U':
            used.add(parts[1])
    return defined, used

def efi_link_errors(files, host_dir, efi_dir):
    """Rule 6 over the two builds; [] when the EFI build is absent (said)."""
    if not os.path.isdir(efi_dir):
        print(f'note: no EFI build at {efi_dir}: host-only symbol check not run')
        return []
    errors, host_syms, shared_syms = [], {}, set()
    for f in files:
        if not f.endswith('.c') or room_of(f) is None:
            continue
        o = os.path.join(host_dir, f[:-2] + '.o')
        if not os.path.exists(o):
            continue
        defined, _ = nm_symbols(o)
        if host_only(f):
            for s in defined:
                host_syms[s] = f
        else:
            shared_syms |= defined
    for s in shared_syms:
        host_syms.pop(s, None)   # also defined by portable code: not host-only
    errors += host_symbol_use(host_syms, efi_objects(efi_dir), efi_dir)
    so = os.path.join(efi_dir, 'baretop.so')
    if os.path.exists(so):
        linked, _ = nm_symbols(so)
        errors += [f'baretop.so defines {s}, host-only ({host_syms[s]})' for s in sorted(linked & set(host_syms))]
    print(f'host-only symbols: {len(host_syms)}, none in the {len(efi_objects(efi_dir))} EFI objects'
          if not errors else f'host-only symbols: {len(host_syms)}')
    return errors

def efi_objects(efi_dir):
    """The EFI build's objects whose source still exists (a stale object
    left in the build folder by a moved file is not linked)."""
    out = []
    for root, _, names in os.walk(efi_dir):
        for n in names:
            o = os.path.join(root, n)
            src = os.path.relpath(o, efi_dir)[:-2]
            if n.endswith('.o') and (os.path.exists(src + '.c') or os.path.exists(src + '.S')):
                out.append(o)
    return sorted(out)

def host_symbol_use(host_syms, objs, efi_dir):
    errors = []
    for o in objs:
        rel = os.path.relpath(o, efi_dir)
        if host_only(rel[:-2] + '.c'):
            errors.append(f'{rel}: an object of a host-only room is in the EFI build')
            continue
        defined, used = nm_symbols(o)
        for s in sorted((defined | used) & set(host_syms)):
            errors.append(f'{rel}: uses {s}, defined only by host-only {host_syms[s]}')
    return errors

STEP_PATH = re.compile(r'tests/suite/\d\d-[a-z0-9-]+\.sh')

def stale_step_paths():
    """(file, path) for each tests/suite/NN-name.sh a tracked text file names
    that does not exist."""
    out = []
    hits = subprocess.run(['git', 'grep', '-I', '-o', '-E', STEP_PATH.pattern, '--', ':!tests/fuzz/corpus'],
                          capture_output=True, text=True).stdout.splitlines()
    for h in hits:
        f, _, path = h.partition(':')
        if not os.path.exists(path):
            out.append((f, path))
    return out

BARE_STEP = re.compile(r'\b[Ss]teps? \d\d\b(?!-)|\bissue \d+ item\b')

def bare_step_citations():
    """(file:line) of each 'step NN' outside tests/: a number a renumbering breaks."""
    hits = subprocess.run(['git', 'grep', '-n', '-I', '-E', r'\b[Ss]teps? [0-9]{2}\b|\bissue [0-9]+ item\b',
                           '--', ':!tests/*'], capture_output=True, text=True).stdout.splitlines()
    return [h for h in hits if BARE_STEP.search(h.split(':', 2)[-1])]

def sources():
    out = subprocess.check_output(['git', 'ls-files', '--cached', '--others', '--exclude-standard', '*.c', '*.h', '*.S'], text=True).split()
    return [f for f in out if os.path.exists(f)]

def asm_text(path, text):
    """The instruction text of a file: all of a .S file, the asm statements of a C file."""
    if path.endswith('.S'):
        return re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    chunks = []
    for m in re.finditer(r'\b(?:__asm__|asm)\s*(?:volatile|__volatile__|goto|inline|\s)*\((.*?)\)\s*;', text, re.S):
        chunks.append(' '.join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))))
    return '\n'.join(chunks)

def main(obj_dir, efi_dir=None):
    errors = []
    files = sources()
    graph = defaultdict(set)
    for f in files:
        text = open(f, encoding='utf-8', errors='replace').read()
        room = room_of(f)
        if UEFI_HEADERS.search(text) and room != 'efi' and not f.startswith('tests/efi/'):
            errors.append(f'{f}: includes a UEFI header outside efi/')
        if room not in ('arch', 'arch/sim') and not f.startswith('tests/efi/'):
            m = PRIVILEGED.search(asm_text(f, text))
            if m:
                errors.append(f'{f}: privileged instruction "{m.group(0).strip()}" outside arch/')
        if PERF_EVENT.search(code_only(text)) and not host_only(f) and not f.startswith(('tests/', 'tools/')):
            errors.append(f'{f}: Linux perf_event outside host-only code (host/, *-host.c)')
        if f.endswith('.c') and not f.startswith(('tests/', 'tools/')):
            for line, decl in local_statics(text):
                errors.append(f'{f}:{line}: function-local static with no comment saying why: {decl}')
        if room is None:
            continue
        for inc in re.findall(r'#\s*include\s*"([^"]+)"', text):
            target = room_of(inc)
            if target is None or target == room:
                continue
            graph[room].add(target)
            if target not in ALLOWED[room]:
                errors.append(f'{f}: {room}/ may not include {inc} ({target}/ is not below it)')
    errors += [f'folder include cycle: {" -> ".join(c)}' for c in folder_cycles(graph)]
    # 4. file-level cycles over symbol use in the hosted objects.
    defs, uses = {}, defaultdict(set)
    for f in files:
        if not f.endswith('.c') or room_of(f) is None:
            continue
        o = os.path.join(obj_dir, f[:-2] + '.o')
        if not os.path.exists(o):
            continue
        for line in subprocess.check_output(['nm', o], text=True).splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in 'TDBR':
                defs[(program_of(f), parts[2])] = f
            elif len(parts) == 2 and parts[0] == 'U':
                uses[f].add(parts[1])
    if not defs:
        errors.append(f'no objects under {obj_dir}: build the hosted library first')
    fg = file_graph(defs, uses)
    errors += [f'file import cycle among: {", ".join(c[:-1])}' for c in cycles(fg)]
    if efi_dir:
        errors += efi_link_errors(files, obj_dir, efi_dir)
    errors += [f'{f}: names {p}, which does not exist' for f, p in stale_step_paths()]
    errors += [f'{h[:160]}: cites a suite step by number (name the step or its script)' for h in bare_step_citations()]
    for e in errors:
        print('FAIL', e)
    rooms = sorted(graph)
    print(f'{len(files)} files, {len(fg)} objects checked; folder graph: ' +
          '; '.join(f'{r} -> {",".join(sorted(graph[r]))}' for r in rooms))
    return 1 if errors else 0

def cycles(g):
    """One representative cycle per strongly connected component (Tarjan)."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]
    def strong(v):
        index[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
        for w in g.get(v, ()):
            if w not in index:
                strong(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1:
                out.append(sorted(comp) + [sorted(comp)[0]])
    sys.setrecursionlimit(10000)
    for v in list(g):
        if v not in index:
            strong(v)
    return out

def self_test():
    """The rules must be able to fail: each is shown a violation."""
    bad_c = 'static inline void f(void) { __asm__ volatile("wrmsr" :: "c"(1), "a"(0), "d"(0)); }'
    bad_cr = 'void g(void) { asm volatile("movq %0, %%cr4" :: "r"(x)); }'
    fine = 'void h(void) { __asm__ volatile("1: dec %0\\n\\tjnz 1b" : "+r"(n)); } /* rdmsr in a comment */'
    checks = [
        (PRIVILEGED.search(asm_text('x.c', bad_c)) is not None, 'wrmsr in inline asm is found'),
        (PRIVILEGED.search(asm_text('x.c', bad_cr)) is not None, 'a CR4 write is found'),
        (PRIVILEGED.search(asm_text('x.c', fine)) is None, 'a dec/jnz loop and a comment are not privileged'),
        (PRIVILEGED.search(asm_text('x.S', 'rdpmc\n')) is not None, 'rdpmc in a .S file is found'),
        (UEFI_HEADERS.search('#include <efi.h>') is not None, '<efi.h> is a UEFI header'),
        (UEFI_HEADERS.search('#include <efilib.h>') is not None, '<efilib.h> is a UEFI header'),
        ('pmu' not in ALLOWED['metrics'] and 'app' not in ALLOWED['report'], 'metrics/ may not see pmu/, report/ not app/'),
        (room_of('arch/sim/sim-core.c') == 'arch/sim' and room_of('arch/arch.h') == 'arch', 'rooms by longest prefix'),
        ('pmu' not in ALLOWED['arch/sim'], 'arch/sim/ may not see pmu/, the driver it checks'),
        (folder_cycles({'arch/sim': {'pmu'}, 'pmu': {'arch'}}) == [['arch', 'pmu', 'arch']],
         'arch/sim -> pmu -> arch is a folder cycle'),
        (cycles({'a': {'b'}, 'b': {'a'}, 'c': {'a'}}) == [['a', 'b', 'a']], 'a two-file cycle is found'),
        # the fleet store's old circle, from the symbols its objects used:
        # the import picked the engine, the engines used the import's SQL
        (cycles(file_graph(
            {('tools/baretop-host', 'bt_fleet_pg_open'): 'tools/baretop-host/fleet-pg.c',
             ('tools/baretop-host', 'bt_fleet_sqlite_open'): 'tools/baretop-host/fleet-db.c',
             ('tools/baretop-host', 'BT_FLEET_COUNT_SQL'): 'tools/baretop-host/fleet-import.c'},
            {'tools/baretop-host/fleet-import.c': {'bt_fleet_pg_open', 'bt_fleet_sqlite_open'},
             'tools/baretop-host/fleet-pg.c': {'BT_FLEET_COUNT_SQL'},
             'tools/baretop-host/fleet-db.c': {'BT_FLEET_COUNT_SQL'}}))
         == [['tools/baretop-host/fleet-db.c', 'tools/baretop-host/fleet-import.c', 'tools/baretop-host/fleet-pg.c',
              'tools/baretop-host/fleet-db.c']], 'a three-file circle in a tool is found'),
        (file_graph({('tools/gen-atlas', 'main'): 'tools/gen-atlas/main.c', ('tools/gen-models', 'main'): 'tools/gen-models/main.c',
                     ('lib', 'bt_x'): 'base/x.c'},
                    {'tools/gen-models/pack.c': {'main', 'bt_x'}})
         == {'tools/gen-models/pack.c': {'tools/gen-models/main.c', 'base/x.c'}},
         'a tool resolves a symbol in its own program first, then in the library'),
        (room_of('tools/baretop-host/fleet/pg.c') == 'tools/baretop-host/fleet' and
         'tools/baretop-host' not in ALLOWED['tools/baretop-host/fleet'],
         'the fleet store is a room that may not see the command line above it'),
        (folder_cycles({'tools/baretop-host/fleet': {'tools/baretop-host'}, 'tools/baretop-host': {'tools/baretop-host/fleet'},
                        'tools/gen-atlas': {'metrics'}}) == [],
         'a tool and its subfolder count as one folder'),
        (cycles({'a': {'b'}, 'b': {'c'}}) == [], 'a chain is not a cycle'),
        (len(local_statics('int f(void)\n{\n\tstatic char buf[64];\n\treturn 0;\n}\n')) == 1,
         'a function-local static buffer is found'),
        (local_statics('static int n;\nint f(void)\n{\n\t/* why */\n\tstatic int once;\n'
                       '\tstatic const int k = 1;\n\tstatic int f2(int);\n\treturn n;\n}\n') == [],
         'file-scope, commented, const and declared-function statics are not'),
        (host_only('analysis/page-html.c') and host_only('report/x-host.c') and not host_only('report/console.c'),
         'host-only rooms and *-host.c are host only'),
        (host_symbol_use({'bt_page_html': 'analysis/page-html.c'}, [], 'e') == [], 'no EFI object, no finding'),
        (PERF_EVENT.search(code_only('#include <linux/perf_event.h>\nint f(void) { return syscall(SYS_perf_event_open, 0); }'))
         is not None and PERF_EVENT.search(code_only('/* perf_event_open(2) */ int g;')) is None,
         'perf_event in code is found, in a comment it is not'),
        (BARE_STEP.search('checked by suite step 56') is not None and BARE_STEP.search('step 2n') is None,
         'a step cited by number is found'),
        (STEP_PATH.search('see tests/suite/99-no-such-step.sh') is not None
         and not os.path.exists('tests/suite/99-no-such-step.sh'), 'a suite script path is recognised'),
    ]
    for ok, what in checks:
        print(('ok   ' if ok else 'FAIL ') + 'self-test: ' + what)
    # The allowed folder graph itself must be acyclic.
    acyclic = cycles({r: set(a) for r, a in ALLOWED.items()}) == [] and \
        folder_cycles({r: set(a) for r, a in ALLOWED.items()}) == []
    print(('ok   ' if acyclic else 'FAIL ') + 'self-test: the allowed folder graph has no cycle '
          '(also with subfolders folded into their folder)')
    return 0 if all(ok for ok, _ in checks) and acyclic else 1

if __name__ == '__main__':
    if sys.argv[1:] == ['--self-test']:
        sys.exit(self_test())
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else 'build/host',
                  sys.argv[2] if len(sys.argv) > 2 else None))
