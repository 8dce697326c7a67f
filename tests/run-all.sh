#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The test suite: what `make test` (the whole suite) and CI (.ci/run) run,
# and `make test-host` (the hosted tier only).
#   1. install missing Debian packages (tools/setup.sh)
#   2. build everything (the unit tests too) with gcc and with clang,
#      -Wall -Wextra -Werror
#   3. then, JOBS at a time: the hosted unit tests under ASan + UBSan and
#      every tests/suite/NN-*.sh of the selected tier (tests/suite/README.md)
#
# usage: tests/run-all.sh [--tier all|host|qemu] [-j JOBS] [--no-setup]
#                         [--list] [STEP...]
#   --tier   host: the steps that never boot QEMU (and the unit tests);
#            qemu: the steps that do; all (default): both
#   -j       how many jobs run at once (default: one more than the CPUs,
#            as many steps spend part of their time waiting: QEMU's
#            firmware timers, a run's calibration)
#   STEP     run only these steps (a number or a file name, e.g. 70 or
#            70-results-schema); the builds still run first
#   --list   print each step with its tier and exit
# A step's output is printed in one piece when it ends, followed by its
# status and time; steps are independent, so their order does not matter.
# Exit status: 0 when every step passed (or was skipped: a step skips by
# exiting with status 77), 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."

tier=all
jobs=$(( $(nproc) + 1 ))
setup=1
list=0
only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --tier) tier=$2; shift 2 ;;
    --tier=*) tier=${1#--tier=}; shift ;;
    -j) jobs=$2; shift 2 ;;
    -j*) jobs=${1#-j}; shift ;;
    --no-setup) setup=0; shift ;;
    --list) list=1; shift ;;
    -h|--help) sed -n '3,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run-all.sh: unknown option $1" >&2; exit 2 ;;
    *) only+=("$1"); shift ;;
  esac
done
case "$tier" in all|host|qemu) ;; *) echo "run-all.sh: --tier all, host or qemu" >&2; exit 2 ;; esac
[ "$jobs" -ge 1 ] 2>/dev/null || { echo "run-all.sh: -j needs a number" >&2; exit 2; }

# A step's header line "# tier: host|qemu ~Ns" gives its tier and its
# typical time (wall seconds on a 2-core machine, which orders the pool).
step_tier() { sed -n 's/^# tier: *\([a-z]*\).*/\1/p' "$1" | head -1; }
# "# alone" in the header: nothing else of the suite runs beside the step
# (it compares wall time it measures with simulated counts).
step_alone() { grep -q '^# alone' "$1" && echo 1 || echo 0; }
step_secs() { local n; n=$(sed -n 's/^# tier: *[a-z]* *~\([0-9]*\)s.*/\1/p' "$1" | head -1); echo "${n:-10}"; }

steps=()
declare -A alone=()
for s in tests/suite/[0-9][0-9]-*.sh; do
  [ -e "$s" ] || continue
  name=$(basename "$s" .sh)
  t=$(step_tier "$s")
  if [ "$t" != host ] && [ "$t" != qemu ]; then
    echo "run-all.sh: $s has no '# tier: host' or '# tier: qemu' line" >&2; exit 2
  fi
  if [ ${#only[@]} -gt 0 ]; then
    hit=0
    for o in "${only[@]}"; do
      o=$(basename "$o" .sh)
      [ "$o" = "$name" ] || [ "$o" = "${name%%-*}" ] && hit=1
    done
    [ $hit = 1 ] || continue
  elif [ "$tier" != all ] && [ "$t" != "$tier" ]; then
    continue
  fi
  if [ "$(step_alone "$s")" = 1 ]; then
    # An "alone" step is queued last (key 0): it then waits only for the
    # short steps still running at the end, not for the long ones.
    alone[$name]=1
    steps+=("0 $t:$name")
  else
    steps+=("$(step_secs "$s") $t:$name")
  fi
done
if [ $list = 1 ]; then
  for s in "${steps[@]}"; do x=${s#* }; printf '%-28s %-5s ~%ss%s\n' "${x#*:}" "${x%%:*}" "$(step_secs "tests/suite/${x#*:}.sh")" "${alone[${x#*:}]:+ alone}"; done
  exit 0
fi

t0=$(date +%s)
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
n_pass=0
n_fail=0
n_skip=0
failed=()

# python3 here may be a version-manager shim (pyenv: ~0.5-0.8 s a start, and
# the steps start python hundreds of times). Put the interpreter the shim
# picks for this tree first on PATH: the same python, without the shim.
py=$(command -v python3 || true)
if [ -n "$py" ]; then
  real=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null || true)
  if [ -n "$real" ] && [ -x "$real" ] && [ "$(readlink -f "$real")" != "$(readlink -f "$py")" ]; then
    mkdir -p "$log/bin" && ln -s "$real" "$log/bin/python3" && export PATH=$log/bin:$PATH
  fi
fi

# job OUT CMD...: runs CMD (stdin closed), its output in OUT and the CPU
# seconds it used (user + system, its processes included) in OUT.cpu.
job() {
  local out=$1; shift
  "$@" >"$out" 2>&1 </dev/null
  local rc=$?
  # (the builtin, not in a pipe: a subshell would not have these children)
  times >"$out.times"
  awk 'END { t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] }
             printf "%.0f\n", t }' "$out.times" >"$out.cpu"
  return $rc
}

# report NAME STATUS SECONDS OUTPUT-FILE: one step's block, in one piece.
report() {
  local name=$1 rc=$2 secs=$3 out=$4 verdict
  case $rc in
    0) verdict=ok; n_pass=$((n_pass + 1)) ;;
    77) verdict=skipped; n_skip=$((n_skip + 1)) ;;
    *) verdict=FAILED; n_fail=$((n_fail + 1)); failed+=("$name") ;;
  esac
  echo "==== $name"
  cat "$out"
  echo "==== $name: $verdict (${secs}s, CPU $(cat "$out.cpu" 2>/dev/null || echo ?)s)"
}

# A step run in the foreground (the setup and the builds: the steps need them).
serial() {
  local name=$1; shift
  local s=$(date +%s)
  ( job "$log/serial.out" "$@" )
  report "$name" $? $(( $(date +%s) - s )) "$log/serial.out"
}

[ $setup = 1 ] && serial "setup (Debian packages)" bash tools/setup.sh
# `tests`: the unit test programs without sanitizers, which steps run too.
serial "build, gcc" make -j"$jobs" all tests
serial "build, clang" make -j"$jobs" CC=clang all tests

# The pool: the unit tests and the steps, JOBS at a time. The builds are
# done, so a step's own `make` only checks that they are up to date. The
# longest start first (their typical times), so the short ones fill in at
# the end instead of one long step running alone.
jobs_list=("${steps[@]}")
[ ${#only[@]} -eq 0 ] && jobs_list+=("90 unit:unit tests, gcc + ASan/UBSan")
queue=()
while IFS= read -r s; do queue+=("${s#* }"); done < <(printf '%s\n' "${jobs_list[@]}" | sort -s -k1,1nr)

declare -A pid_name=() pid_start=() pid_out=()
run_job() { # KIND:NAME
  local kind=${1%%:*} name=${1#*:} out=$log/job$next.out
  if [ "$kind" = unit ]; then
    job "$out" make -j"$jobs" SAN=1 check &
  else
    job "$out" bash "tests/suite/$name.sh" &
  fi
  pid_name[$!]=$name
  pid_start[$!]=$(date +%s)
  pid_out[$!]=$out
}
next=0
running_alone=0
while [ $next -lt ${#queue[@]} ] || [ ${#pid_name[@]} -gt 0 ]; do
  while [ $next -lt ${#queue[@]} ] && [ ${#pid_name[@]} -lt "$jobs" ] && [ $running_alone = 0 ]; do
    q=${queue[$next]}
    if [ -n "${alone[${q#*:}]:-}" ]; then
      # an "alone" step waits for the pool to empty and keeps it empty
      [ ${#pid_name[@]} -eq 0 ] || break
      running_alone=1
    fi
    run_job "$q"; next=$((next + 1))
  done
  wait -n -p done_pid; rc=$?
  [ -n "${done_pid:-}" ] && [ -n "${pid_name[$done_pid]:-}" ] || continue
  name=${pid_name[$done_pid]}
  report "$name" $rc $(( $(date +%s) - ${pid_start[$done_pid]} )) "${pid_out[$done_pid]}"
  unset "pid_name[$done_pid]" "pid_start[$done_pid]" "pid_out[$done_pid]"
  [ -n "${alone[$name]:-}" ] && running_alone=0
done

# Every job queued must have been reported: anything else is a failure of
# this runner, not a pass.
n_done=$((n_pass + n_fail + n_skip))
if [ $n_done -ne $((${#queue[@]} + 2 + setup)) ]; then
  echo "run-all.sh: $n_done results for $((${#queue[@]} + 2 + setup)) jobs"; n_fail=$((n_fail + 1)); failed+=("(runner)")
fi

echo
echo "suite took $(( $(date +%s) - t0 ))s (tier $tier, $jobs at a time)"
if [ $n_fail -gt 0 ]; then
  printf 'FAILED: %s\n' "${failed[@]}"
else
  echo "all steps passed"
fi
if [ $n_skip -gt 0 ]; then
  echo "$n_pass passed, $n_fail failed, $n_skip skipped"
else
  echo "$n_pass passed, $n_fail failed"
fi
[ $n_fail -eq 0 ]
