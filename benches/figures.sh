#!/usr/bin/env bash
# The speed and memory tables of BENCHMARKS.md, measured in one run:
#
#   bash benches/figures.sh BIN OUTDIR > tables.md
#
# For every system, field size, round and seed: `BIN bench --system S --players N --rounds
# PLANNED --round R --seed K --csv ...` (README, `optipair bench`: a generated field whose
# history is paired greedily, round R paired exactly as `pair` pairs it) under
# `/usr/bin/time -f '%e %U %S %M'`. For the FIDE Dutch (`swiss`) the same field is also written
# as TRF (`BIN generate ... --played R-1 --greedy-history --out F.trf`, the field bench pairs)
# and its round R is paired by the reference engine (`REF --dutch F.trf -p OUT`) and then by
# optipair's engine interface (`BIN --dutch F.trf -p OUT`), both timed, in the same run, and
# the two outputs are compared. Markdown tables go to standard output (and OUTDIR/tables.md),
# one raw line per command to OUTDIR/raw.tsv, and each command's own output to OUTDIR/runs/.
#
# Settings, from the environment (all optional):
#   SIZES        field sizes                                   default "1000 3000"
#   SEEDS        field seeds                                   default "1 2 3 4 5"
#   SYSTEMS      systems                                       default: every system
#                                                              `BIN bench --help` lists
#   ROUNDS       rounds to pair ("last" = PLANNED)             default "2 4 last"
#   PLANNED      rounds planned (bench's --rounds)             default 9
#   TIME_LIMIT   bench's --time-limit in seconds               default: pair's own default
#   PLAIN        1: also `bench --plain` (the tier model with every allowed pair listed, the
#                dense formulation) in a second command        default 0
#   REF          the reference engine                          default: the repository's
#                                                              ../shared/reference/engine/bbpPairings
#   REF_MAX      largest field the reference pairs (it takes   default 1000
#                30-80 s a round at 1,000 players and 450 s at 2,000; TRF holds 9,999)
#   REF_TIMEOUT  seconds before a reference run is stopped     default 1800
#   LOADED       other runnable tasks (the mean of five        default 0.5
#                samples of /proc/loadavg before and after a run) from which the run counts
#                as taken under load
#
# Needs only bash, coreutils, python3 and /usr/bin/time; without the reference engine the
# reference columns are left out, with a note.
set -euo pipefail

usage() {
  sed -n '2,/^set /p' "$0" | grep '^#' | sed 's/^# \{0,1\}//' >&2
  exit 2
}
[ $# -eq 2 ] || usage
BIN=$1
OUT=$2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$BIN" ] || { echo "figures.sh: BIN $BIN is not an executable file" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "figures.sh: /usr/bin/time is missing (GNU time)" >&2; exit 2; }
command -v python3 > /dev/null || { echo "figures.sh: python3 is missing" >&2; exit 2; }
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

SIZES=${SIZES:-1000 3000}
SEEDS=${SEEDS:-1 2 3 4 5}
ROUNDS=${ROUNDS:-2 4 last}
PLANNED=${PLANNED:-9}
PLAIN=${PLAIN:-0}
REF=${REF:-$ROOT/../shared/reference/engine/bbpPairings}
REF_MAX=${REF_MAX:-1000}
REF_TIMEOUT=${REF_TIMEOUT:-1800}
CORES=$(nproc)
LOADED=${LOADED:-0.5}
if [ -z "${SYSTEMS:-}" ]; then
  # The systems bench's --help lists (clap's "[possible values: ...]"), else pair's.
  SYSTEMS=$( { "$BIN" bench --help 2> /dev/null || "$BIN" pair --help 2> /dev/null || true; } |
    python3 -c '
import re, sys
m = re.search(r"possible values:\s*([^\]]*)\]", sys.stdin.read())
print(" ".join(v.strip() for v in m.group(1).replace("\n", " ").split(",")) if m else "")')
  [ -n "$SYSTEMS" ] || { echo "figures.sh: $BIN bench --help lists no systems; set SYSTEMS" >&2; exit 2; }
fi

is_count() { [[ $1 =~ ^[1-9][0-9]*$ ]]; }
for n in $SIZES $SEEDS $PLANNED; do
  [[ $n =~ ^[0-9]+$ ]] || { echo "figures.sh: '$n' in SIZES, SEEDS or PLANNED is not a number" >&2; exit 2; }
done
is_count "$PLANNED" || { echo "figures.sh: PLANNED must be 1 or more" >&2; exit 2; }
PAIRED=""
for r in $ROUNDS; do
  [ "$r" = last ] && r=$PLANNED
  if ! is_count "$r" || [ "$r" -gt "$PLANNED" ]; then
    echo "figures.sh: round '$r' in ROUNDS is not between 1 and PLANNED ($PLANNED)" >&2
    exit 2
  fi
  PAIRED="$PAIRED $r"
done
TIME_ARGS=()
[ -n "${TIME_LIMIT:-}" ] && TIME_ARGS=(--time-limit "$TIME_LIMIT")

mkdir -p "$OUT/runs" "$OUT/fields"
RAW=$OUT/raw.tsv
[ -e "$RAW" ] && { echo "figures.sh: $RAW exists; give an OUTDIR of its own to each run" >&2; exit 2; }
HAVE_REF=1
[ -x "$REF" ] || HAVE_REF=0

load1() { cut -d' ' -f1 /proc/loadavg 2> /dev/null || echo 0; }
# busy: the runnable tasks other than this shell, the mean of five samples 0.1 s apart (the
# 1-minute load average would count this script's own last run).
busy() {
  local t=0 i r
  for i in 1 2 3 4 5; do
    r=1
    read -r _ _ _ r _ < /proc/loadavg 2> /dev/null || true
    r=${r%/*}
    t=$((t + r - 1))
    sleep 0.1
  done
  echo "$((t / 5)).$(((t % 5) * 2))"
}
COMMIT=$(git -C "$ROOT" rev-parse --short HEAD 2> /dev/null || echo unknown)
{
  echo "# started $(date -u '+%Y-%m-%d %H:%M UTC'), repository commit $COMMIT, $CORES cores, load $(load1)"
  echo "# bin $BIN ($("$BIN" --version 2> /dev/null || echo 'no --version'))"
  echo "# reference $REF ($([ $HAVE_REF = 1 ] && echo present || echo absent)), REF_MAX $REF_MAX"
  printf 'kind\tsystem\tplayers\tround\tseed\tmethod\texit\tload\tbusy_before\tbusy_after\twall_s\tuser_s\tsys_s\tpeak_kb\tpair_s\tstatus\tcandidates\tall_pairs\tproved\n'
} > "$RAW"

# timed NAME CMD...: runs CMD under /usr/bin/time (stdout to runs/NAME.out, stderr to
# runs/NAME.err), and sets EXIT, TIMES ("wall user sys peak_kb") and LOAD ("load1 before
# after": the 1-minute load average and the other runnable tasks before and after).
timed() {
  local name=$1 l b
  shift
  EXIT=0
  l=$(load1)
  b=$(busy)
  /usr/bin/time -f '%e %U %S %M' -o "$OUT/runs/$name.time" "$@" \
    > "$OUT/runs/$name.out" 2> "$OUT/runs/$name.err" || EXIT=$?
  TIMES=$(tail -n 1 "$OUT/runs/$name.time" 2> /dev/null || true)
  LOAD="$l $b $(busy)"
}

# raw KIND SYSTEM N R K METHOD CSV: one raw line per bench row of CSV (or per command when
# CSV is ""), with the last `timed` command's EXIT, TIMES and LOAD.
raw() {
  python3 - "$RAW" "$@" "$EXIT" "$TIMES" "$LOAD" << 'EOF'
import csv, sys
raw, kind, system, n, r, k, method, csv_path, code, times, load = sys.argv[1:12]
load1, before, after = (load.split() + ["", "", ""])[:3]
wall, user, sys_s, peak = (times.split() + ["", "", "", ""])[:4]
rows = []
if csv_path:
    try:
        with open(csv_path, newline="") as f:
            rows = [x for x in csv.DictReader(f) if x["method"] == method]
    except OSError:
        rows = []
if not rows:
    rows = [{"seconds": "", "status": "error" if code != "0" else "", "candidates": "",
             "all_pairs": "", "proved": ""}]
with open(raw, "a") as f:
    for x in rows:
        proved = x["proved"].replace("\t", " ").replace("\n", " ")
        f.write("\t".join([kind, system, n, r, k, method, code, load1, before, after, wall, user,
                           sys_s, peak, x["seconds"], x["status"].lower(), x["candidates"],
                           x["all_pairs"], proved]) + "\n")
EOF
}

for s in $SYSTEMS; do
  for n in $SIZES; do
    for r in $PAIRED; do
      for k in $SEEDS; do
        id=$s-$n-r$r-s$k
        echo "figures.sh: $s, $n players, round $r of $PLANNED, seed $k" >&2
        timed "bench-$id" "$BIN" bench --system "$s" --players "$n" --rounds "$PLANNED" \
          --round "$r" --seed "$k" "${TIME_ARGS[@]}" --csv "$OUT/runs/bench-$id.csv"
        raw bench "$s" "$n" "$r" "$k" pair "$OUT/runs/bench-$id.csv"
        if [ "$PLAIN" = 1 ]; then
          timed "plain-$id" "$BIN" bench --system "$s" --players "$n" --rounds "$PLANNED" \
            --round "$r" --seed "$k" "${TIME_ARGS[@]}" --plain --csv "$OUT/runs/plain-$id.csv"
          raw bench "$s" "$n" "$r" "$k" plain "$OUT/runs/plain-$id.csv"
        fi
        [ "$s" = swiss ] || continue
        # The FIDE Dutch beside the reference: the same field as TRF, both engines in turn.
        [ "$n" -le 9999 ] || continue
        f=$OUT/fields/$id.trf
        timed "field-$id" "$BIN" generate --players "$n" --rounds "$PLANNED" \
          --played $((r - 1)) --seed "$k" --greedy-history --out "$f"
        [ "$EXIT" = 0 ] || { raw field "$s" "$n" "$r" "$k" generate ""; continue; }
        if [ $HAVE_REF = 1 ] && [ "$n" -le "$REF_MAX" ]; then
          timed "ref-$id" timeout "$REF_TIMEOUT" "$REF" --dutch "$f" -p "$OUT/runs/ref-$id.txt"
          raw reference "$s" "$n" "$r" "$k" reference ""
        fi
        timed "dutch-$id" "$BIN" --dutch "$f" -p "$OUT/runs/dutch-$id.txt"
        raw dutch "$s" "$n" "$r" "$k" optipair ""
      done
    done
  done
done
echo "# ended $(date -u '+%Y-%m-%d %H:%M UTC'), load $(load1)" >> "$RAW"

python3 - "$OUT" "$HAVE_REF" "$REF" "$REF_MAX" "$REF_TIMEOUT" "$LOADED" "$PLANNED" << 'EOF' | tee "$OUT/tables.md"
import collections, os, statistics, sys

out, have_ref, ref, ref_max, ref_timeout, loaded, planned = sys.argv[1:8]
loaded = float(loaded)
lines = open(os.path.join(out, "raw.tsv")).read().splitlines()
notes = [l[2:] for l in lines if l.startswith("# ")]
rows = [dict(zip(lines[3].split("\t"), l.split("\t"))) for l in lines[4:] if not l.startswith("#")]


def num(x):
    try:
        return float(x)
    except ValueError:
        return None


def med_max(xs, fmt="{:.2f}"):
    xs = [x for x in xs if x is not None]
    if not xs:
        return "–"
    return f"{fmt.format(statistics.median(xs))} / {fmt.format(max(xs))}"


def thousands(n):
    return f"{int(n):,}"


def proved(group):
    """What was proved, each distinct wording with its count; candidate pairs as a median."""
    words = collections.Counter()
    for x in group:
        if x["exit"] != "0" and not x["proved"]:
            prefix = "bench" if x["method"] == "pair" else "plain"
            err = open(os.path.join(out, "runs", f"{prefix}-{key_id(x)}.err")).read().strip()
            words["failed (exit " + x["exit"] + "): " + (err.splitlines() or [""])[-1][:120]] += 1
        else:
            words[x["proved"].split(";")[0] or x["status"] or "?"] += 1
    text = "; ".join(f"{w} ({c} of {len(group)})" for w, c in words.most_common())
    cand = [num(x["candidates"]) for x in group if num(x["candidates"]) is not None]
    pairs = [num(x["all_pairs"]) for x in group if num(x["all_pairs"]) is not None]
    if cand and pairs:
        text += f"; {thousands(statistics.median(cand))} candidate pairs (median) of {thousands(max(pairs))}"
    return text


def key_id(x):
    return f"{x['system']}-{x['players']}-r{x['round']}-s{x['seed']}"


def under_load(group):
    return any(max(num(x["busy_before"]) or 0, num(x["busy_after"]) or 0) >= loaded for x in group)


def mib(group):
    xs = [num(x["peak_kb"]) for x in group if num(x["peak_kb"]) is not None]
    return f"{max(xs) / 1024:.0f}" if xs else "–"


def cpu(group):
    xs = [num(x["user_s"]) + num(x["sys_s"]) for x in group
          if num(x["user_s"]) is not None and num(x["sys_s"]) is not None]
    return f"{statistics.median(xs):.2f}" if xs else "–"


def groups(kind, method):
    g = collections.OrderedDict()
    for x in rows:
        if x["kind"] == kind and x["method"] == method:
            g.setdefault((x["system"], int(x["players"]), int(x["round"])), []).append(x)
    return g


def seeds(group):
    return ", ".join(x["seed"] for x in group)


for n in notes:
    print(f"<!-- {n} -->")
print()
print(f"Rows marked *under load* hold a run with {loaded:g} or more other runnable tasks on average",
      "(five samples of `/proc/loadavg`) just before or just after it.")
print()

dutch, refs = groups("dutch", "optipair"), groups("reference", "reference")
if dutch:
    print("#### FIDE Dutch: optipair beside the reference engine, same run")
    print()
    print("Each field written by `optipair generate --players N --rounds", planned,
          "--played R-1 --seed K --greedy-history --out F.trf`; its round R paired by",
          "`bbpPairings --dutch F.trf -p OUT`, then by `optipair --dutch F.trf -p OUT`, under",
          "`/usr/bin/time` (whole command). Seconds median / max over the seeds.")
    if have_ref != "1":
        print(f"The reference engine was not found at `{ref}`: its columns are left out.")
    else:
        print(f"The reference paired fields of at most {ref_max} players (stopped after {ref_timeout} s).")
    print()
    print("| players | round | seeds | reference wall s | reference CPU s | reference peak MiB "
          "| optipair wall s | optipair CPU s | optipair peak MiB | pairing |")
    print("|---:|---:|---|---|---:|---:|---|---:|---:|---|")
    for key, group in dutch.items():
        n, r = key[1], key[2]
        rg = refs.get(key, [])
        verdicts = collections.Counter()
        for x in group:
            if x["exit"] != "0":
                verdicts[f"optipair failed (exit {x['exit']})"] += 1
                continue
            y = next((y for y in rg if y["seed"] == x["seed"]), None)
            if y is None:
                verdicts["reference not run"] += 1
                continue
            if y["exit"] != "0":
                verdicts["reference stopped" if y["exit"] == "124" else f"reference failed (exit {y['exit']})"] += 1
                continue
            a = open(os.path.join(out, "runs", f"ref-{key_id(x)}.txt")).read().split("\n")
            b = open(os.path.join(out, "runs", f"dutch-{key_id(x)}.txt")).read().split("\n")
            if a == b:
                verdicts["identical"] += 1
            elif sorted(a) == sorted(b):
                verdicts["same pairs and colours, other board order"] += 1
            else:
                verdicts[f"different (seed {x['seed']})"] += 1
        verdict = "; ".join(f"{v} {c} of {len(group)}" for v, c in verdicts.most_common())
        mark = " *under load*" if under_load(group + rg) else ""
        ref_cols = (f"{med_max([num(y['wall_s']) for y in rg if y['exit'] == '0'])} | {cpu(rg)} | {mib(rg)}"
                    if rg else "– | – | –")
        print(f"| {n:,} | {r} | {seeds(group)} | {ref_cols} | "
              f"{med_max([num(x['wall_s']) for x in group])} | {cpu(group)} | {mib(group)} | {verdict}{mark} |")
    print()

for method, title in (("pair", "as `pair` pairs it"), ("plain", "the dense formulation (`bench --plain`)")):
    g = groups("bench", method)
    if not g:
        continue
    print(f"#### Every system, {title}")
    print()
    print("`optipair bench --system S --players N --rounds", planned, "--round R --seed K`:",
          "pairing seconds as bench prints them (the round alone: the engine, the fallback and",
          "the verifier), wall and CPU seconds and peak memory of the whole command under",
          "`/usr/bin/time` (the generated field's history included); seconds median / max over the seeds.")
    if method == "plain":
        print("The plain command pairs the round as `pair` does first, so its wall, CPU and peak",
              "memory include that; its pairing seconds are the dense formulation's alone.")
    print()
    print("| system | players | round | seeds | pairing s | wall s | CPU s | peak MiB | what was proved |")
    print("|---|---:|---:|---|---|---|---:|---:|---|")
    for (s, n, r), group in g.items():
        mark = " *under load*" if under_load(group) else ""
        print(f"| {s} | {n:,} | {r} | {seeds(group)} | {med_max([num(x['pair_s']) for x in group], '{:.3f}')} "
              f"| {med_max([num(x['wall_s']) for x in group])} | {cpu(group)} | {mib(group)} "
              f"| {proved(group)}{mark} |")
    print()
EOF
