#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~5s
# Options that contradict each other or do nothing together: one table in
# the option code (app/options-combos.c) makes the checks, the
# "Combinations" part of --help and the README's list. This step reads the
# table from the program itself (the hidden --option-combinations: kind,
# combination, example command lines, configuration-file words, reason),
# not from a copy here, and runs every example: a refused row must exit 2
# with its combination and reason on stderr, a noted one exit 0 with its
# note. Then --help and README.md must list exactly the table's rows.
set -uo pipefail
make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build"; exit 1; }
bin=$PWD/build/baretop-host
readme=$PWD/README.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
cd "$work" || exit 1
echo '{}' > empty.json   # a retire-latency file with no latencies (a noted row's example)
"$bin" run --option-combinations > table || { echo "FAIL run --option-combinations: status $?"; exit 1; }
rows=$(wc -l < table)
[ "$rows" -ge 10 ] || { echo "FAIL only $rows rows in the table"; fail=1; }
n=0
while IFS=$'\t' read -r kind what examples cfg reason; do
  IFS=';' read -ra list <<< "$examples"
  for ex in "${list[@]}"; do
    read -ra words <<< "$ex"
    extra=()
    if [ "$cfg" != "-" ]; then
      echo "$cfg" > combo.cfg
      extra=(--config "$work/combo.cfg")
    fi
    n=$((n + 1))
    "$bin" run "${words[@]}" "${extra[@]}" --results-dir "$work/res$n" >out 2>err; rc=$?
    if [ "$kind" = refused ]; then
      if [ "$rc" -eq 2 ] && grep -qF -- "$what: $reason" err && [ ! -e "$work/res$n" ]; then
        echo "ok   refused: run ${words[*]} ${extra[*]:+(config: $cfg)}: status 2, \"$(head -1 err | cut -c1-110)...\""
      else
        echo "FAIL refused row '$what': run ${words[*]}: status $rc, stderr: $(head -2 err)"; fail=1
      fi
    else
      if [ "$rc" -eq 0 ] && grep -qF -- "$what: $reason" out; then
        echo "ok   noted: run ${words[*]}: status 0, \"$(grep -F -m1 -- "$what" out | sed 's/^ *//' | cut -c1-110)...\""
      else
        echo "FAIL noted row '$what': run ${words[*]}: status $rc, stderr: $(head -2 err)"; fail=1
      fi
    fi
  done
done < table
# --help and the README list every row, and no other
"$bin" run --help > help || { echo "FAIL run --help"; fail=1; }
python3 - table help "$readme" <<'PY' || fail=1
import re, sys
rows = [l.split('\t') for l in open(sys.argv[1]).read().splitlines()]
help_text = open(sys.argv[2]).read()
readme = open(sys.argv[3]).read()
sec = help_text.split('\nCombinations', 1)
shown = re.findall(r'^  (refused|noted) +(.*)$', sec[1], re.M) if len(sec) == 2 else []
want = [(r[0], r[1]) for r in rows]
if shown != want:
    print(f'FAIL --help "Combinations": {shown} != the table {want}'); sys.exit(1)
print(f'ok   --help lists the {len(want)} rows of the table')
part = readme.split('### Options that cannot go together', 1)
body = part[1].split('\n### ', 1)[0] if len(part) == 2 else ''
listed = []
for m in re.finditer(r'^\| (.+?) \| (refused|noted):', body, re.M):
    listed.append((m.group(2), m.group(1).replace('`', '').replace('\\|', '|')))
if listed != want:
    print(f'FAIL README "Options that cannot go together": {listed} != the table {want}'); sys.exit(1)
print(f'ok   README.md lists the {len(want)} rows of the table, each refused or noted as the code does')
PY
exit $fail
