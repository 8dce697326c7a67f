#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Signs an EFI application for Secure Boot: the signing step of
# boot/install.sh --sign, usable alone.
#
#   boot/sign.sh --key KEY --cert CERT [--passin ARG] IN OUT
#
# Signs IN with sbsign into OUT and checks OUT with sbverify --cert CERT.
# A warning from sbsign (such as "gaps between PE/COFF sections?": bytes of
# the file the Authenticode hash would not cover) is an error: shim and
# signing services are stricter than sbsign. --passin ARG opens an
# encrypted KEY with openssl's -passin ARG (pass:WORD, env:VAR, file:PATH;
# Debian's snakeoil test key, /usr/share/ovmf/PkKek-1-snakeoil.key, is
# pass:snakeoil): sbsign cannot take a passphrase, so the key is decrypted
# into a temporary file only this user can read, removed on exit.
# Prints one line: "signed with CERT; sbverify: Signature verification OK".
# Exit 1 when signing or verifying fails, 2 on a usage error.
set -euo pipefail

key="" cert="" passin=""
usage() { sed -n '3,19p' "$0" | sed 's/^# \{0,1\}//'; }
bad() { echo "boot/sign.sh: $*" >&2; exit 2; }
die() { echo "boot/sign.sh: $*" >&2; exit 1; }
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --key) [ $# -ge 2 ] || bad "--key needs a file"; key=$2; shift 2 ;;
    --cert) [ $# -ge 2 ] || bad "--cert needs a file"; cert=$2; shift 2 ;;
    --passin) [ $# -ge 2 ] || bad "--passin needs an argument"; passin=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) bad "unknown option $1 (see --help)" ;;
    *) args+=("$1"); shift ;;
  esac
done
[ -n "$key" ] && [ -n "$cert" ] || bad "--key KEY and --cert CERT are required"
[ "${#args[@]}" -eq 2 ] || bad "give IN and OUT"
in=${args[0]} out=${args[1]}
command -v sbsign >/dev/null && command -v sbverify >/dev/null ||
  die "needs sbsign and sbverify (Debian sbsigntool; tools/setup.sh)"
[ -r "$key" ] || die "--key $key: cannot read"
[ -r "$cert" ] || die "--cert $cert: cannot read"
[ -r "$in" ] || die "$in: cannot read"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "$passin" ]; then
  (umask 077; openssl pkey -in "$key" -passin "$passin" -out "$work/key.pem" 2>"$work/openssl.log") ||
    die "--passin: cannot open $key: $(head -1 "$work/openssl.log")"
  key=$work/key.pem
fi
# sbsign asks for a passphrase on the terminal otherwise: never wait for one.
sbsign --key "$key" --cert "$cert" --output "$work/signed.efi" "$in" </dev/null >"$work/sbsign.log" 2>&1 ||
  die "sbsign failed: $(grep -m1 -i 'error\|can.t' "$work/sbsign.log" || tail -1 "$work/sbsign.log")"
if grep -qi warning "$work/sbsign.log"; then
  die "sbsign warns: $(grep -m1 -i warning "$work/sbsign.log")"
fi
sbverify --cert "$cert" "$work/signed.efi" >"$work/sbverify.log" 2>&1 ||
  die "sbverify --cert $cert rejects the signed app: $(tail -1 "$work/sbverify.log")"
cp "$work/signed.efi" "$out"
echo "signed with $cert; sbverify: $(tail -1 "$work/sbverify.log")"
