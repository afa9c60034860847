#!/usr/bin/env bash
# The command line at its boundary values (issue 22): time limits that are huge, infinite,
# not a number or negative; round numbers at the top of u32; output to a closed pipe or a
# full disk; a 200-byte JSON whose round number is 4294967295. Each case runs the built
# binary under a 60 s timeout and a 2 GB address-space limit, so a runaway case cannot hurt
# the machine.
#
#   scripts/cli-boundary.sh [--bin PATH]
#
# A case passes when the command exits 0 (accepted; `audit` also 1 and 3, its verdicts), 2
# with an `error:` line (refused), or 4 with an `error:` line on standard output or the memory
# limit (the output could not be written).
# Failures: PANIC (exit 101), KILLED (a signal: the memory limit or an abort), TIMEOUT,
# SILENT (a meaningless value — nan, a negative limit — accepted with exit 0). Exits 1 if
# any case fails.
set -u
BIN=target/release/optipair
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) BIN=$2; shift 2 ;;
    *) echo "cli-boundary.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
BIN=$(realpath "$BIN")
DIR=$(mktemp -d /tmp/optipair-cli.XXXXXX)
cd "$DIR" || exit 2
"$BIN" generate --players 12 --rounds 9 --played 3 --seed 7 --out ev.json >/dev/null 2>&1 || { echo "generate failed"; exit 2; }
printf '{"format":"optipair/1","players":[{"id":1,"name":"A"},{"id":2,"name":"B"}],"rounds":[{"number":4294967295,"games":[{"white":1,"black":2,"result":"1-0"}]}]}\n' > huge-round.json
printf '1 1-0\n' > res.txt
fails=0

# case NAME SILENT_IF_0 COMMAND...: SILENT_IF_0=1 when exit 0 means a bad value was accepted.
case_() {
  local name=$1 silent=$2; shift 2
  cp ev.json work.json
  local out rc
  (ulimit -v 2000000; timeout 60 "$@") >/dev/null 2>err.txt
  rc=$?
  out=$(grep -v '^note:' err.txt | head -1)
  local verdict
  case $rc in
    # audit's own codes: 1 legal but not optimal, 3 breaks a rule.
    0|1|3) if [ "$rc" -ne 0 ] && [ "$2" != audit ]; then verdict="exit $rc"
       elif [ "$silent" = 1 ]; then verdict=SILENT; else verdict=ok; fi ;;
    2) if printf '%s' "$out" | grep -q '^error:'; then verdict=ok; else verdict="exit 2, no error line"; fi ;;
    4) if grep -q '^error: .*\(standard output\|memory limit\)' err.txt; then verdict=ok
       else verdict="exit 4, no error line"; fi ;;
    101) verdict=PANIC ;;
    124) verdict=TIMEOUT ;;
    *) if [ "$rc" -gt 128 ]; then verdict="KILLED (signal $((rc - 128)))"; else verdict="exit $rc"; fi ;;
  esac
  [ "$verdict" = ok ] || fails=$((fails + 1))
  printf '%-58s exit %3d  %-16s %s\n' "$name" "$rc" "$verdict" "$(printf '%s' "$out" | cut -c1-100)"
}

for tl in inf -inf 1e19 1e308 99999999999999999999 nan -1 0; do
  silent=0; case $tl in nan|-1|-inf) silent=1 ;; esac
  case_ "pair --time-limit=$tl" $silent "$BIN" pair work.json --time-limit="$tl"
  case_ "audit --round 3 --time-limit=$tl" $silent "$BIN" audit work.json --round 3 --time-limit="$tl"
  case_ "bench --players 20 --time-limit=$tl" $silent "$BIN" bench --players 20 --round 2 --rounds 3 --time-limit="$tl"
done
case_ "pair --round 4294967295" 0 "$BIN" pair work.json --round 4294967295
case_ "pair --round 4294967295 --write" 0 "$BIN" pair work.json --round 4294967295 --write
case_ "check --round 4294967295" 0 "$BIN" check work.json --round 4294967295
case_ "record --round 4294967295" 0 "$BIN" record work.json --round 4294967295 --results res.txt
case_ "audit --round 4294967295" 0 "$BIN" audit work.json --round 4294967295
case_ "check (round number 4294967295 in the file)" 0 "$BIN" check huge-round.json
case_ "pair (round number 4294967295 in the file)" 0 "$BIN" pair huge-round.json
case_ "pair | closed pipe" 0 bash -c "set -o pipefail; '$BIN' pair work.json | true"
case_ "check --format json | closed pipe" 0 bash -c "set -o pipefail; '$BIN' check work.json --format json | head -c 1 >/dev/null"
case_ "pair > /dev/full" 0 sh -c "'$BIN' pair work.json > /dev/full"
case_ "check > /dev/full" 0 sh -c "'$BIN' check work.json > /dev/full"
echo "$fails failing case(s); scratch directory $DIR"
[ "$fails" -eq 0 ]
