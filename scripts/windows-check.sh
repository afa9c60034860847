#!/usr/bin/env bash
# optipair.exe, the Windows build, run under Wine, pairs as the Linux build does: for every
# tournament in tests/data/dutch (the reference tournaments and the golden rounds), its next
# round and, stepping back with `optipair unpair --force`, its last BACK recorded rounds are
# paired by both builds with the engine command line (`--dutch FILE -p OUT`); the -p files and
# the exit codes must be byte-identical. Usage, after both builds:
#     cargo build --release && cargo build --release --target x86_64-pc-windows-gnu
#     scripts/windows-check.sh [BACK]        # BACK: rounds replayed per tournament, default 1
# Needs wine (Debian: apt-get install -y wine64) and MinGW's gcc; WINEPREFIX as set, else
# ~/.wine. Wine 8 (Debian 12) lacks bcryptprimitives.dll, whose ProcessPrng Rust's standard
# library calls (Windows 10 and later have it): a stub of it, on Windows' own RtlGenRandom, is
# built beside the copy of optipair.exe that runs here.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
back=${1:-1}
target=$(realpath "${CARGO_TARGET_DIR:-target}")
linux=$target/release/optipair
exe=$target/x86_64-pc-windows-gnu/release/optipair.exe
for f in "$linux" "$exe"; do
  [ -x "$f" ] || [ -f "$f" ] || { echo "error: $f not built" >&2; exit 1; }
done
wine=$(command -v wine || command -v wine64 || ls /usr/lib/wine/wine64 2>/dev/null) \
  || { echo "error: wine not found" >&2; exit 1; }
export WINEDEBUG=-all
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/exe"
cp "$exe" "$tmp/exe/optipair.exe"
exe=$tmp/exe/optipair.exe
cat >"$tmp/prng.c" <<'C'
#include <windows.h>
#include <ntsecapi.h>
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
  while (len > 0) {
    ULONG n = len > 0x10000 ? 0x10000 : (ULONG)len;
    if (!RtlGenRandom(data, n)) return FALSE;
    data += n;
    len -= n;
  }
  return TRUE;
}
C
x86_64-w64-mingw32-gcc-posix -shared -O2 -o "$tmp/exe/bcryptprimitives.dll" "$tmp/prng.c" -ladvapi32

# Runs one build on STATE.trf in $tmp: writes NAME.out (the -p file, or nothing) and NAME.rc.
engine() {
  local name=$1
  shift
  rm -f "$tmp/$name.out"
  (cd "$tmp" && "$@" --dutch state.trf -p "$name.out" >/dev/null 2>"$name.err") && rc=0 || rc=$?
  echo "$rc" >"$tmp/$name.rc"
  [ -f "$tmp/$name.out" ] || : >"$tmp/$name.out"
}

# The number of the last round with an entry in any player line (the files end lines in \r).
last_round() {
  tr '\r' '\n' <"$1" | awk '/^001/ { n = int((length($0) - 89) / 10); if (n > m) m = n } END { print m + 0 }'
}

start=$(date +%s)
paired=0 states=0 differ=()
"$wine" "$exe" --version >/dev/null 2>&1 || true # the first run sets up the Wine prefix
for f in tests/data/dutch/*.trf; do
  name=$(basename "$f" .trf)
  cp "$f" "$tmp/state.trf"
  for step in $(seq 0 "$back"); do
    if [ "$step" -gt 0 ]; then
      r=$(last_round "$tmp/state.trf")
      [ "$r" -gt 1 ] && "$linux" unpair "$tmp/state.trf" --round "$r" --force >/dev/null 2>&1 \
        || break
    fi
    engine linux "$linux"
    engine windows "$wine" "$exe"
    states=$((states + 1))
    if cmp -s "$tmp/linux.out" "$tmp/windows.out" && cmp -s "$tmp/linux.rc" "$tmp/windows.rc"; then
      [ "$(cat "$tmp/linux.rc")" = 0 ] && paired=$((paired + 1))
    else
      differ+=("$name (step $step: exit $(cat "$tmp/linux.rc") / $(cat "$tmp/windows.rc"))")
    fi
  done
done
echo "windows-check: $states rounds, $paired paired by both builds, ${#differ[@]} differing," \
  "$(($(date +%s) - start)) s"
if [ ${#differ[@]} -gt 0 ]; then
  printf '  differs: %s\n' "${differ[@]}" >&2
  exit 1
fi
[ "$paired" -gt 0 ] || { echo "error: no round was paired" >&2; exit 1; }
