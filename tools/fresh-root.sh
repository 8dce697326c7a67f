#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks the README's promise that its commands work on a fresh Debian 12
# machine as root, with no ../shared beside the clone: makes a fresh
# Debian 12 (bookworm) root with `debootstrap --variant=minbase` (plus git,
# which a user needs to clone), clones this repository into it at a commit
# (~/baretop of its root user, nothing beside it), and runs the README's
# test command there as root in a clean environment: `./dev.sh test`, which
# installs the packages itself (tools/setup.sh: apt-get update, install).
#
# usage: tools/fresh-root.sh [--cache DIR] [--commit REV] [--keep]
#                            [--mirror URL] [--env VAR=VALUE]... [-- COMMAND...]
#   --cache   where the debootstrapped root is kept as a tarball
#             (bookworm-minbase.tar) and unpacked afresh for each run (root/),
#             with the run's log (last.log); default build/fresh-root.
#             A second run does not download the base system again (delete
#             the tarball to make it anew), nor the packages apt got (kept in
#             debs/, bound on the root's apt archive folder).
#   --commit  the commit to clone (default: HEAD of the clone this script is
#             in); uncommitted changes are not in the root.
#   --keep    leave the root unpacked after the run (it is unpacked afresh,
#             the old one deleted, at the start of every run anyway).
#   --mirror  the Debian mirror (default http://deb.debian.org/debian); the
#             root's apt sources are bookworm, bookworm-updates and
#             bookworm-security, as the Debian 12 installer writes them.
#   --env     set a variable in the root's environment (which is otherwise
#             only HOME, PATH and TERM: no LANG, as in a new root), e.g.
#             --env LANG=C.UTF-8.
#   COMMAND   run this instead of ./dev.sh test, in ~/baretop, e.g.
#             -- bash tests/run-all.sh --tier host
# Needs root (debootstrap, chroot, mounts); installs debootstrap if missing.
# Mounted in the root: /proc, /sys, /dev (bound), /dev/pts (bound), /dev/shm
# (a new tmpfs); all unmounted, and every process still running in the root
# ended, on every exit path (trap EXIT). Services do not start inside the
# root (a policy-rc.d says so, as in every chroot): postgresql-15's package
# would start its "main" cluster, and the suite starts its own server.
# Prints the command's output (also in CACHE/last.log), then one line: the
# commit, the command, its exit status and its summary lines. Exits with the
# command's status.
set -euo pipefail
self=$(readlink -f "$0")
cd "$(dirname "$0")/.."
top=$PWD

cache=build/fresh-root
commit=HEAD
keep=0
mirror=http://deb.debian.org/debian
envs=()
cmd=()
while [ $# -gt 0 ]; do
  case "$1" in
    --cache) cache=$2; shift 2 ;;
    --commit) commit=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --mirror) mirror=$2; shift 2 ;;
    --env) case "$2" in *=*) envs+=("$2") ;; *) echo "fresh-root: --env VAR=VALUE" >&2; exit 2 ;; esac; shift 2 ;;
    -h|--help) sed -n '3,39p' "$self" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; cmd=("$@"); break ;;
    *) echo "fresh-root: unknown argument $1 (--help)" >&2; exit 2 ;;
  esac
done
[ ${#cmd[@]} -gt 0 ] || cmd=(./dev.sh test)
if [ "$(id -u)" -ne 0 ]; then
  echo "fresh-root: needs root (debootstrap, chroot, mounts)" >&2; exit 2
fi
if ! command -v debootstrap >/dev/null; then
  echo "fresh-root: installing debootstrap" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null ||
    { echo "fresh-root: could not install debootstrap" >&2; exit 2; }
fi
rev=$(git -C "$top" rev-parse --verify "$commit^{commit}") ||
  { echo "fresh-root: $commit is not a commit of $top" >&2; exit 2; }

mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
base=$cache/bookworm-minbase.tar
root=$cache/root
log=$cache/last.log

# The base system, made once: debootstrap into a temporary folder, then
# kept as a tarball (a root used once has packages installed in it).
if [ ! -s "$base" ]; then
  tmp=$(mktemp -d "$cache/debootstrap.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  echo "fresh-root: debootstrap --variant=minbase bookworm from $mirror (once, a few minutes)" >&2
  debootstrap --variant=minbase --include=git,ca-certificates bookworm "$tmp" "$mirror" \
    >"$cache/debootstrap.log" 2>&1 ||
    { echo "fresh-root: debootstrap failed: $(tail -3 "$cache/debootstrap.log")" >&2; exit 1; }
  # (no downloaded .debs in the base: a fresh machine's apt cache is empty)
  rm -f "$tmp/var/cache/apt/archives/"*.deb
  chmod 755 "$tmp"   # (mktemp's 700 would be the root's /: no one else could enter)
  tar -C "$tmp" --numeric-owner -cf "$base.part" . && mv "$base.part" "$base"
  rm -rf "$tmp"
  trap - EXIT
fi

mounted=()
cleanup() {
  local rc=$? p m i
  # every process whose root is ours (a server, a QEMU left behind): they
  # were started by this script's command
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && kill -KILL "${p#/proc/}" 2>/dev/null
  done
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    m=${mounted[$i]}
    umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null ||
      echo "fresh-root: could not unmount $m" >&2
  done
  mounted=()
  [ $keep = 1 ] || rm -rf --one-file-system "$root"
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# a mount left by a killed run would be deleted through by rm -rf: refuse
if grep -q " $root/" /proc/self/mounts; then
  echo "fresh-root: something is still mounted under $root (umount it first)" >&2; exit 1
fi
rm -rf --one-file-system "$root"
mkdir -p "$root"
tar -C "$root" --numeric-owner -xpf "$base"
chmod 755 "$root"

mnt() { # TARGET MOUNT-ARGS...
  local t=$root/$1; shift
  mkdir -p "$t"
  mount "$@" "$t"
  mounted+=("$t")
}
mnt proc -t proc proc
mnt sys -t sysfs sysfs
mnt dev --bind /dev
mnt dev/pts --bind /dev/pts
mnt dev/shm -t tmpfs -o mode=1777,nosuid,nodev tmpfs
# the .debs apt downloads are kept for the next run (apt-get update and the
# installs still run each time: only the download is saved)
mkdir -p "$cache/debs/partial"
mnt var/cache/apt/archives --bind "$cache/debs"

# What the Debian 12 installer writes; name resolution as the host's.
cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
(cd / && cp -L etc/resolv.conf "$root/etc/resolv.conf")
echo fresh-root >"$root/etc/hostname"
printf '#!/usr/bin/sh\n# fresh-root.sh: no service starts inside a chroot\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"

# The clone: the commit alone, nothing beside it (no ../shared).
git clone -q --no-local --no-checkout "$top" "$root/root/baretop"
# (a commit on no branch, e.g. a remote-tracking one, is fetched by name)
git -C "$root/root/baretop" cat-file -e "$rev^{commit}" 2>/dev/null ||
  git -C "$root/root/baretop" fetch -q "$top" "$rev"
git -C "$root/root/baretop" checkout -q --detach "$rev"
[ ! -e "$root/root/shared" ] || { echo "fresh-root: $root/root/shared exists" >&2; exit 1; }

echo "fresh-root: $(git -C "$top" log -1 --format='%h %s' "$rev" | cut -c1-72)" >&2
echo "fresh-root: running '${cmd[*]}' as root in $root (in ~/baretop)" >&2
t0=$(date +%s)
# In the background, waited for: bash runs a trap only when the foreground
# command ends, while `wait` returns at once on a signal (then the EXIT
# trap ends what runs in the root).
rm -f "$cache/status"
{ set +e   # (this group's own status is the command's)
  chroot "$root" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${envs[@]}" \
    /usr/bin/bash -c 'cd ~/baretop && exec "$@"' fresh-root "${cmd[@]}" </dev/null 2>&1
  echo $? >"$cache/status"; } | tee "$log" &
wait $! || true
rc=$(cat "$cache/status" 2>/dev/null || echo 1)
summary=$({ grep -E '^(suite took|all steps passed|FAILED:|[0-9]+ passed, [0-9]+ failed)' "$log" | tr '\n' ';' || true; } | sed 's/;$//; s/;/; /g')
echo "fresh-root: ${rev:0:12} '${cmd[*]}': exit status $rc after $(( $(date +%s) - t0 ))s${summary:+; $summary}"
exit $rc
