#!/usr/bin/env bash
# Runs the 200-player, 7-round comparison of every chess system in parts of PART runs, one
# JSON report per part in benches/simulations/p200-r7/, skipping parts already there, so
# that the 10,000 runs can be spread over several sittings (or machines) and merged:
#
#   bash benches/simulate-in-parts.sh [TOTAL_RUNS] [PART]
#   optipair simulate --merge benches/simulations/p200-r7/*.json
#
# Each part is written to a temporary file and renamed when complete. All the parts of one
# table must come from one build (see benches/simulations/p200-r7/README.md for which).
set -euo pipefail
cd "$(dirname "$0")/.."
TOTAL=${1:-10000}
PART=${2:-50}
BIN=${OPTIPAIR_BIN:-target/release/optipair}
THREADS=${THREADS:-$(nproc)}
OUT=benches/simulations/p200-r7
mkdir -p "$OUT"
for ((first = 0; first < TOTAL; first += PART)); do
  f=$(printf '%s/runs-%05d.json' "$OUT" "$first")
  [ -e "$f" ] && continue
  "$BIN" simulate --system swiss --system ecf-basic --system ecf-advanced \
    --system uscf-batches --system uscf-thirds --system uscf-added-score --system baku \
    --system prog --setting prog.a_min=1930 --setting prog.c_below=1670 \
    --players 200 --rounds 7 --runs "$PART" --first-run "$first" --seed 1 \
    --threads "$THREADS" --quiet --format json > "$f.tmp"
  mv "$f.tmp" "$f"
done
