#!/usr/bin/env bash
# kill -9 during writes (issue 22, item 6): many trials of `optipair pair --write` and
# `optipair record` on a small and a 2,000-player file, each killed with SIGKILL at a random
# moment. After every kill the file must be byte-identical to the old or the new version
# (never missing, never a third thing); after the next successful run
# the file must be the new version and no `.NAME.tmp-*` file may remain. The next run is the
# same command when the kill left the old version; when it left the new one (`pair` refuses
# to overwrite a paired round), `record --round 4` with no result lines, which rewrites the
# file unchanged.
#
#   scripts/kill9.sh [--bin PATH] [--small N] [--big N] [--dir DIR] [--seed N]
#
# --small N / --big N: trials per command on each file (default 100 / 25). Prints one line
# per file and command and exits non-zero on any failure.
set -u
BIN=target/release/optipair
SMALL=100
BIG=25
DIR=$(mktemp -d /tmp/optipair-kill9.XXXXXX)
SEED=1
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) BIN=$2; shift 2 ;;
    --small) SMALL=$2; shift 2 ;;
    --big) BIG=$2; shift 2 ;;
    --dir) DIR=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    *) echo "kill9.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
BIN=$(realpath "$BIN")
RANDOM=$SEED
mkdir -p "$DIR"
cd "$DIR" || exit 2
fail=0

hash() { sha256sum "$1" 2>/dev/null | cut -d' ' -f1; }
now_ms() { date +%s%3N; }

# prepare NAME PLAYERS: NAME.old.json (3 rounds played) → NAME.paired.json (round 4 paired)
# → NAME.recorded.json (round 4 results), and NAME.results.txt.
prepare() {
  local name=$1 players=$2
  "$BIN" generate --players "$players" --rounds 9 --played 3 --seed 7 --out "$name.old.json" >/dev/null || exit 2
  cp "$name.old.json" "$name.paired.json"
  "$BIN" pair "$name.paired.json" --round 4 --write >/dev/null || exit 2
  local boards
  boards=$(python3 -c "import json,sys; t=json.load(open('$name.paired.json')); print(len([r for r in t['rounds'] if r['number']==4][0]['games']))")
  : > "$name.results.txt"
  for b in $(seq 1 "$boards"); do
    case $((b % 3)) in 0) echo "$b 1-0" ;; 1) echo "$b 0-1" ;; *) echo "$b 1/2" ;; esac >> "$name.results.txt"
  done
  cp "$name.paired.json" "$name.recorded.json"
  "$BIN" record "$name.recorded.json" --round 4 --results "$name.results.txt" >/dev/null || exit 2
}

# trials NAME COMMAND N: COMMAND is pair or record.
trials() {
  local name=$1 cmd=$2 n=$3 from to
  if [ "$cmd" = pair ]; then from=$name.old.json; to=$name.paired.json; else from=$name.paired.json; to=$name.recorded.json; fi
  local old new file=work-$name.json
  old=$(hash "$from"); new=$(hash "$to")
  local argv
  if [ "$cmd" = pair ]; then argv=(pair "$file" --round 4 --write)
  else argv=(record "$file" --round 4 --results "$name.results.txt"); fi
  run() { "$BIN" "${argv[@]}" >/dev/null 2>&1; }
  rewrite() { "$BIN" record "$file" --round 4 --results empty.txt >/dev/null 2>&1; }
  # How long a full run takes: kills land in 0..1.2 × that.
  cp "$from" "$file"
  local t0 t1 span
  t0=$(now_ms); run; t1=$(now_ms); span=$(( (t1 - t0) * 12 / 10 + 1 ))
  local as_old=0 as_new=0 bad=0 leftovers=0 stale=0 i
  for i in $(seq 1 "$n"); do
    cp "$from" "$file"
    # The binary itself in the background (a function would put a subshell in between, and
    # the kill would miss the writer).
    "$BIN" "${argv[@]}" >/dev/null 2>&1 &
    local pid=$!
    # Anywhere in the run, or (every other trial) in its last third, where the write is.
    local wait_ms=$(( (RANDOM * 32768 + RANDOM) % span ))
    if [ $((i % 2)) -eq 0 ]; then wait_ms=$(( span * 2 / 3 + (RANDOM * 32768 + RANDOM) % (span / 3 + 1) )); fi
    sleep "$(printf '%d.%03d' $((wait_ms / 1000)) $((wait_ms % 1000)))"
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    local h
    h=$(hash "$file")
    if [ "$h" = "$old" ]; then as_old=$((as_old + 1))
    elif [ "$h" = "$new" ]; then as_new=$((as_new + 1))
    else bad=$((bad + 1)); cp "$file" "bad-$name-$cmd-$i.json" 2>/dev/null; echo "trial $i: third version (or missing) after kill at ${wait_ms} ms" >&2
    fi
    if ls -a | grep -q "^\.$file\.tmp-"; then stale=$((stale + 1)); fi
    if [ "$h" = "$old" ]; then next=run; else next=rewrite; fi
    $next || { echo "trial $i: the next run ($next) failed" >&2; bad=$((bad + 1)); }
    if [ "$(hash "$file")" != "$new" ]; then bad=$((bad + 1)); echo "trial $i: the next run did not give the new version" >&2; fi
    if ls -a | grep -q "^\.$file\.tmp-"; then leftovers=$((leftovers + 1)); echo "trial $i: temp file left after the next run: $(ls -a | grep "^\.$file\.tmp-")" >&2; fi
  done
  printf '%-7s %-6s trials %4d  run %5d ms  old %4d  new %4d  third/missing %d  temp left by the kill %d  temp after next run %d\n' \
    "$name" "$cmd" "$n" "$((t1 - t0))" "$as_old" "$as_new" "$bad" "$stale" "$leftovers"
  if [ "$bad" -ne 0 ] || [ "$leftovers" -ne 0 ]; then fail=1; fi
}

: > empty.txt
prepare small 12
prepare big 2000
trials small pair "$SMALL"
trials small record "$SMALL"
trials big pair "$BIG"
trials big record "$BIG"
echo "scratch directory: $DIR"
exit $fail
