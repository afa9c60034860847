#!/usr/bin/env bash
# Pairs every round of the reference tournaments, the example events and a 10,000-player
# round with one binary and stores each `pair --format json` output (stdout and exit code) in
# OUTDIR, so two builds can be compared with `diff -r` (stdout carries no timings without
# `--timing`, so the outputs of the same input are byte-identical).
# Usage: scripts/pair-outputs.sh BINARY OUTDIR [F10K.json]
set -u
bin=$1 out=$2 f10k=${3:-}
mkdir -p "$out"
run() { # name, args...
    local name=$1; shift
    nice "$bin" pair "$@" --format json >"$out/$name.json" 2>"$out/$name.err"
    echo "exit $?" >>"$out/$name.json"
}
for f in tests/data/dutch/*.trf; do
    b=$(basename "$f" .trf)
    for k in $(seq 1 99); do
        run "$b.r$k" "$f" --round "$k"
        if grep -q -e "cannot be paired before" -e "is past the" "$out/$b.r$k.err"; then
            rm "$out/$b.r$k".*; break
        fi
    done
done
# Systems that pair through the tier program rather than the exact Dutch procedure.
for s in ecf-basic ecf-advanced uscf-batches uscf-thirds uscf-added-score; do
    for f in tests/data/dutch/rtg_1011_250p_7r.trf tests/data/dutch/rtg_1021_201p_9r.trf; do
        b=$(basename "$f" .trf)
        for k in 2 4 6; do run "$b.r$k.$s" "$f" --round "$k" --system "$s"; done
    done
    run "open-250.$s" instances/open-250.trf --system "$s"
done
for f in instances/*.trf instances/*.json instances/*.t; do
    case $f in *.tsh.json) continue ;; esac
    run "inst.$(basename "$f")" "$f"
done
if [ -n "$f10k" ]; then run f10k "$f10k"; fi
