#!/usr/bin/env python3
"""Compares two directories written by scripts/pair-outputs.sh, file by file.

Each output is `pair --format json` followed by an `exit N` line. Outputs compare equal when
they are byte-identical, or identical once the fields listed in IGNORED are removed from the
certificate (fields added since the older build: `solver`, the solver's counts; `fallback`,
the typed reason a fallback summary already states; and `seconds`, a timing, null without
`--timing`). Prints one line per difference and a count; exits 1 on any difference.

Usage: scripts/compare-pair-outputs.py BEFORE_DIR AFTER_DIR
"""
import json
import os
import sys

IGNORED = ("solver", "fallback", "seconds")


def load(path):
    text = open(path).read()
    body, _, code = text.rpartition("exit ")
    try:
        doc = json.loads(body)
    except ValueError:
        doc = body
    if isinstance(doc, dict) and isinstance(doc.get("certificate"), dict):
        for key in IGNORED:
            doc["certificate"].pop(key, None)
    return text, doc, code.strip()


def main(before, after):
    names = sorted(f for f in os.listdir(before) if f.endswith(".json"))
    missing = [f for f in names if not os.path.exists(os.path.join(after, f))]
    same_bytes = same = 0
    differ = []
    for name in names:
        if name in missing:
            continue
        tb, db, cb = load(os.path.join(before, name))
        ta, da, ca = load(os.path.join(after, name))
        if tb == ta:
            same_bytes += 1
        elif db == da and cb == ca:
            same += 1
        else:
            differ.append(name)
    for name in missing:
        print(f"missing after: {name}")
    for name in differ:
        print(f"differs: {name}")
    print(
        f"{len(names)} outputs: {same_bytes} byte-identical, {same} identical without "
        f"certificate.{{{','.join(IGNORED)}}}, {len(differ)} different, {len(missing)} missing"
    )
    return 1 if differ or missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
