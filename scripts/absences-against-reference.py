#!/usr/bin/env python3
"""Random absences against the reference Dutch engine.

  absences-against-reference.py BIN DIR SEED COUNT [--mode byes|history] [--football]

Takes COUNT random (file, round k) draws from the TRF files in DIR (e.g. made by
`../shared/reference/engine/make-set.sh`), cuts each file before round k (`trfkit.strip`), and
adds absences the generator does not make:

  byes     each player, with a probability of 3, 8 or 15%, requests a bye for round k
           (`0000 - H`, `Z` or `F`);
  history  each game of rounds 1..k-1, with the same probabilities, is replaced by an absence
           for one player (`Z`, `H`, or `-`) and a bye or unplayed win for the other (`F`,
           `U`, `+`), the points column recomputed: unplayed rounds in the colour, float and
           bye histories.

With `--football`, the file scores 3 for a win (and for `+`, `F`, `U`), 1 for a draw (and
`H`), 0 for a loss (bbpPairings' `BBW`, `BBD`, `BBU` lines), the points column to match.

Round k is then paired by `bbpPairings --dutch` (REF, default the shared engine) and by
`BIN pair --format json`, and pairs (with colours) and the pairing-allocated bye compared.
Differing inputs are kept in /tmp/absences-*.trf. Prints one JSON summary line last.
"""
import glob
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, '..', '..', 'shared')
sys.path.insert(0, os.path.join(SHARED, 'tools'))
import trfkit  # noqa: E402

REF = os.environ.get('REF', os.path.join(SHARED, 'reference', 'engine', 'bbpPairings'))
POINTS = {'1': 1, '0': 0, '=': 0.5, '+': 1, '-': 0, 'H': 0.5, 'Z': 0, 'F': 1, 'U': 1,
          'W': 1, 'D': 0.5, 'L': 0}
FOOTBALL = {c: {1: 3, 0.5: 1, 0: 0}[v] for c, v in POINTS.items()}
ENTRY = 10  # columns per round: two spaces and `oppo c R`


def entries(line, k):
    return [trfkit.entry(line, r) if len(line) >= 91 + ENTRY * (r - 1) + 8 else ''
            for r in range(1, k + 1)]


def absences(path, k, rng, mode, football):
    lines = open(path, encoding='utf-8').read().split('\n')
    ents = {int(l[4:8]): entries(l, k) for l in lines if l.startswith('001')}
    share = rng.choice([0.03, 0.08, 0.15])
    if mode == 'byes':
        for pid, es in ents.items():
            if not es[k - 1].strip() and rng.random() < share:
                es[k - 1] = '0000 - ' + rng.choice('HZF')
    else:
        seen = set()
        for pid in sorted(ents):
            for r in range(1, k):
                e = ents[pid][r - 1]
                if len(e) < 8 or e[0:4] == '0000':
                    continue
                opp = int(e[0:4])
                if (min(pid, opp), max(pid, opp), r) in seen:
                    continue
                seen.add((min(pid, opp), max(pid, opp), r))
                if rng.random() < share:
                    a, b = (pid, opp) if rng.random() < 0.5 else (opp, pid)
                    ents[a][r - 1] = '0000 - ' + rng.choice('ZH-')
                    ents[b][r - 1] = '0000 - ' + rng.choice('FU+')
    out = []
    for l in lines:
        if l.startswith('001'):
            es = list(ents[int(l[4:8])])
            while es and not es[-1].strip():
                es.pop()
            pts = FOOTBALL if football else POINTS
            score = sum(pts.get(e[7], 0) for e in es if len(e) == 8)
            head = l[:91].ljust(91)
            head = head[:80] + ('%4.1f' % score) + head[84:]
            out.append((head[:89] + ''.join('  ' + (e or ' ' * 8) for e in es)).rstrip())
        else:
            out.append(l)
    if football:
        out = [out[0], 'BBW  3.0', 'BBD  1.0', 'BBU  3.0'] + out[1:]
    with open(path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(out).rstrip('\n') + '\n')


def main():
    args = sys.argv[1:]
    mode = 'byes'
    football = '--football' in args
    if football:
        args.remove('--football')
    if '--mode' in args:
        i = args.index('--mode')
        mode = args[i + 1]
        del args[i:i + 2]
    binary, folder, seed, count = args[0], args[1], int(args[2]), int(args[3])
    files = sorted(glob.glob(os.path.join(folder, '*.trf')))
    rng = random.Random(seed)
    tmp = tempfile.mkdtemp()
    total = same = errors = 0
    for it in range(count):
        f = rng.choice(files)
        k = rng.randint(2, trfkit.nrounds(trfkit.lines_of(f)))
        st = os.path.join(tmp, 'state.trf')
        trfkit.strip(f, k, st)
        absences(st, k, rng, mode, football)
        ref_out = os.path.join(tmp, 'ref.txt')
        r = subprocess.run([REF, '--dutch', st, '-p', ref_out], capture_output=True, text=True,
                           timeout=600)
        if r.returncode != 0:
            print('reference refused %s r%d: %s' % (os.path.basename(f), k, r.stderr[:160]))
            continue
        nums = open(ref_out).read().split()
        want, want_bye = set(), []
        for i in range(int(nums[0])):
            a, b = int(nums[1 + 2 * i]), int(nums[2 + 2 * i])
            if b == 0:
                want_bye.append(a)
            else:
                want.add((a, b))
        total += 1
        p = subprocess.run([binary, 'pair', st, '--format', 'json'], capture_output=True,
                           text=True, timeout=600)
        if p.returncode != 0:
            errors += 1
            shutil.copy(st, '/tmp/absences-%s-%d.trf' % (mode, it))
            print('optipair exit %d %s r%d: %s' % (p.returncode, os.path.basename(f), k,
                                                   p.stderr[:200]))
            continue
        o = json.loads(p.stdout)
        got = {(int(x['white']), int(x['black'])) for x in o['pairings']}
        bye = sorted(int(b['player'] if isinstance(b, dict) else b) for b in o.get('byes', [])
                     if not isinstance(b, dict)
                     or b.get('kind', 'pairing-allocated') == 'pairing-allocated')
        if got == want and bye == sorted(want_bye):
            same += 1
        else:
            shutil.copy(st, '/tmp/absences-%s-%d.trf' % (mode, it))
            print('differs %s r%d: only ours %s, only the reference %s, byes %s / %s' % (
                os.path.basename(f), k, sorted(got - want)[:6], sorted(want - got)[:6], bye,
                want_bye))
    print(json.dumps({'mode': mode, 'football': football, 'seed': seed, 'rounds': total, 'identical': same,
                      'errors': errors}))


if __name__ == '__main__':
    main()
