//! Brackets, the completion criterion and the quality criteria of one bracket candidate.

use super::state::{allocate, Float, Points, RoundState, Strength};
use super::*;
use crate::tournament::Colour;
use crate::verify::matching::Matching;

/// Fields up to this size decide completion (C.4, C.5, C.8, C.9) exactly by a table over every
/// subset of players; larger fields use maximum matchings (C.8 then counts pairs only).
pub const EXACT_MAX: usize = 22;

/// Fields up to this size get the exact look-ahead of C.8.
pub const LOOKAHEAD_MAX: usize = 40;

/// A score difference of an MDP who floats on (Limbo): above any difference within the
/// bracket, and growing with his score (C.18, C.20; see the module notes).
const LIMBO: Points = 1_000_000_000_000;

/// One bracket: moved-down players and residents (rank indices), the players below it.
#[derive(Debug, Clone)]
pub struct Bracket {
    /// 1-based, from the top.
    pub number: usize,
    /// Moved-down players: those left unpaired above (rank indices).
    pub mdps: Vec<usize>,
    /// The bracket's scoregroup (rank indices).
    pub residents: Vec<usize>,
    /// Residents of the next scoregroup (the following bracket's), if any.
    pub next: Option<Vec<usize>>,
    /// Every player of the scoregroups below this bracket's.
    pub lower: Vec<usize>,
}

impl Bracket {
    /// MDPs and residents, in rank order.
    pub fn players(&self) -> Vec<usize> {
        let mut v: Vec<usize> = self.mdps.iter().chain(&self.residents).copied().collect();
        v.sort_unstable();
        v
    }
    /// Whether rank index `i` is one of the bracket's MDPs.
    pub fn is_mdp(&self, i: usize) -> bool {
        self.mdps.contains(&i)
    }
    /// The residents' pairing score (thousandths of a point; 0 for an empty scoregroup).
    pub fn resident_score(&self, st: &RoundState) -> Points {
        self.residents.first().map_or(0, |&r| st.players[r].score)
    }
}

/// A candidate of a bracket: its pairs and the players it leaves unpaired (downfloaters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// Pairs made in the bracket (rank indices).
    pub pairs: Vec<(usize, usize)>,
    /// Players left unpaired: they float down (rank indices).
    pub floaters: Vec<usize>,
}

/// Completion questions over sets of players (rank indices).
pub struct Ctx<'a> {
    /// The round's state.
    pub st: &'a RoundState,
    /// The scoregroups from the top (rank indices).
    pub groups: Vec<Vec<usize>>,
    allowed: Vec<Vec<bool>>,
    table: Option<Vec<bool>>,
}

impl<'a> Ctx<'a> {
    /// The questions over `st`'s players; fields up to [`EXACT_MAX`] get the exact table.
    pub fn new(st: &'a RoundState) -> Ctx<'a> {
        let n = st.players.len();
        let allowed: Vec<Vec<bool>> = (0..n)
            .map(|a| (0..n).map(|b| st.bar(a, b).is_none()).collect())
            .collect();
        let table = (n <= EXACT_MAX).then(|| {
            let mut t = vec![false; 1usize << n];
            t[0] = true;
            for mask in 1usize..(1 << n) {
                if mask.count_ones() % 2 == 1 {
                    continue;
                }
                let i = mask.trailing_zeros() as usize;
                let rest = mask & !(1 << i);
                let mut m = rest;
                while m != 0 {
                    let j = m.trailing_zeros() as usize;
                    m &= m - 1;
                    if allowed[i][j] && t[rest & !(1 << j)] {
                        t[mask] = true;
                        break;
                    }
                }
            }
            t
        });
        Ctx {
            st,
            groups: st.scoregroups(),
            allowed,
            table,
        }
    }

    /// Whether completion is decided by the exact table (fields up to [`EXACT_MAX`]).
    pub fn exact(&self) -> bool {
        self.table.is_some()
    }

    /// Whether rank indices `a` and `b` may meet (C.1, C.3).
    pub fn allowed(&self, a: usize, b: usize) -> bool {
        self.allowed[a][b]
    }

    fn mask(set: &[usize]) -> usize {
        set.iter().fold(0, |m, &i| m | (1 << i))
    }

    /// Whether the players of `set` can all be paired among themselves (C.1, C.3).
    pub fn perfect(&self, set: &[usize]) -> bool {
        if set.len() % 2 == 1 {
            return false;
        }
        if let Some(t) = &self.table {
            return t[Self::mask(set)];
        }
        let mut m = Matching::new(set.len());
        for x in 0..set.len() {
            for y in x + 1..set.len() {
                if self.allowed[set[x]][set[y]] {
                    m.add_edge(x, y);
                }
            }
        }
        m.covers_all_but(&[])
    }

    /// The least `key` of a player of `set` who may take the PAB (C.2) with everyone else of
    /// `set` paired (C.1, C.3), among those `keep` admits.
    pub fn bye_min(
        &self,
        set: &[usize],
        key: impl Fn(usize) -> i64,
        keep: impl Fn(usize) -> bool,
    ) -> Option<i64> {
        if set.len().is_multiple_of(2) {
            return None;
        }
        let ok = |x: usize| self.st.players[x].pab_eligible() && keep(x);
        if let Some(t) = &self.table {
            let m = Self::mask(set);
            return set
                .iter()
                .filter(|&&x| ok(x) && t[m & !(1 << x)])
                .map(|&x| key(x))
                .min();
        }
        let mut keys: Vec<i64> = set.iter().filter(|&&x| ok(x)).map(|&x| key(x)).collect();
        keys.sort_unstable();
        keys.dedup();
        for k in keys {
            let n = set.len();
            let mut m = Matching::new(n + 1);
            for x in 0..n {
                for y in x + 1..n {
                    if self.allowed[set[x]][set[y]] {
                        m.add_edge(x, y);
                    }
                }
                if ok(set[x]) && key(set[x]) == k {
                    m.add_edge(x, n);
                }
            }
            if m.covers_all_but(&[]) {
                return Some(k);
            }
        }
        None
    }

    /// C.4 for the players not yet paired: `Some(None)` when all can be paired, `Some(Some(s))`
    /// when all but a PAB assignee can, `s` the lowest score he can have (C.5); `None` when no
    /// pairing complying with C.1-C.3 exists.
    pub fn complete(&self, rest: &[usize]) -> Option<Option<Points>> {
        if rest.len().is_multiple_of(2) {
            self.perfect(rest).then_some(None)
        } else {
            self.bye_min(rest, |x| self.st.players[x].score, |_| true)
                .map(Some)
        }
    }

    /// The brackets of a pairing, from the top (FIDE Dutch 2025 1.3): each takes the players
    /// left unpaired above it (MDPs) and one scoregroup; a pair belongs to the first bracket
    /// holding both its players.
    pub fn brackets_of(&self, pairs: &[(usize, usize)]) -> Vec<(Bracket, Candidate)> {
        let mut out = Vec::new();
        let mut mdps: Vec<usize> = Vec::new();
        let mut used = vec![false; pairs.len()];
        for (g, residents) in self.groups.iter().enumerate() {
            let b = self.bracket(g, mdps.clone());
            let players = b.players();
            let inside = |i: usize| players.binary_search(&i).is_ok();
            let mut mine = Vec::new();
            for (k, &(x, y)) in pairs.iter().enumerate() {
                if !used[k] && inside(x) && inside(y) {
                    used[k] = true;
                    mine.push((x, y));
                }
            }
            let floaters: Vec<usize> = players
                .iter()
                .copied()
                .filter(|&i| !mine.iter().any(|&(x, y)| x == i || y == i))
                .collect();
            let _ = residents;
            mdps = floaters.clone();
            out.push((
                b,
                Candidate {
                    pairs: mine,
                    floaters,
                },
            ));
        }
        out
    }

    /// Bracket `g` (0-based scoregroup) with these MDPs.
    pub fn bracket(&self, g: usize, mdps: Vec<usize>) -> Bracket {
        Bracket {
            number: g + 1,
            mdps,
            residents: self.groups[g].clone(),
            next: self.groups.get(g + 1).cloned(),
            lower: self.groups.iter().skip(g + 1).flatten().copied().collect(),
        }
    }
}

/// What a candidate's downfloaters alone decide: C.4 and C.5 to C.9, C.14, C.16 and the
/// Limbo part of C.18 and C.20.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FloatPart {
    /// C.4 holds for the players below.
    pub complete: bool,
    /// C.5: the lowest PAB score the rest allows (empty: no PAB; `i64::MAX`: C.4 fails).
    pub c5: Vec<i64>,
    /// C.6: the number of downfloaters.
    pub c6: Vec<i64>,
    /// C.7: the downfloaters' scores, highest first.
    pub c7: Vec<i64>,
    /// C.8: the following bracket's fewest downfloaters, then their scores (empty without the
    /// look-ahead).
    pub c8: Vec<i64>,
    /// C.9: the PAB assignee's unplayed rounds (empty without the look-ahead, or unless one
    /// player floats down).
    pub c9: Vec<i64>,
    /// C.8 was valued exactly (see [`LOOKAHEAD_MAX`]).
    pub c8_exact: bool,
    /// C.14: resident downfloaters with a downfloat the round before.
    pub c14: i64,
    /// C.16: resident downfloaters with a downfloat two rounds before.
    pub c16: i64,
    /// C.18's Limbo part: MDPs floating on with a downfloat the round before.
    pub c18: Vec<i64>,
    /// C.20's Limbo part: MDPs floating on with a downfloat two rounds before.
    pub c20: Vec<i64>,
}

fn desc(mut v: Vec<i64>) -> Vec<i64> {
    v.sort_unstable_by(|a, b| b.cmp(a));
    v
}

/// C.4 and C.5: the rest after this bracket (its downfloaters and everybody below) can be
/// paired; the lowest PAB score it allows. In the last bracket nothing is paired later: at
/// most one downfloater, the PAB assignee.
fn rest_completion(ctx: &Ctx, b: &Bracket, floaters: &[usize]) -> Option<Option<Points>> {
    if b.lower.is_empty() {
        return match floaters {
            [] => Some(None),
            [x] => ctx.st.players[*x]
                .pab_eligible()
                .then_some(Some(ctx.st.players[*x].score)),
            _ => None,
        };
    }
    let mut rest: Vec<usize> = floaters.iter().chain(&b.lower).copied().collect();
    rest.sort_unstable();
    ctx.complete(&rest)
}

/// Whether `set` (players of one bracket) can be paired among themselves without pairing two
/// MDPs with each other (3.2: S1 holds MDPs, S2 residents).
pub fn bracket_perfect(ctx: &Ctx, b: &Bracket, set: &[usize]) -> bool {
    if set.len() % 2 == 1 {
        return false;
    }
    let mut m = Matching::new(set.len());
    for x in 0..set.len() {
        for y in x + 1..set.len() {
            let (p, q) = (set[x], set[y]);
            if ctx.allowed(p, q) && !(b.is_mdp(p) && b.is_mdp(q)) {
                m.add_edge(x, y);
            }
        }
    }
    m.covers_all_but(&[])
}

/// C.8: the best the following bracket can do (fewest downfloaters, then their scores) with
/// these downfloaters as its MDPs, keeping C.4 and the C.5 value. Exact up to
/// [`LOOKAHEAD_MAX`] players (and 20 in the following bracket); beyond, the number of
/// downfloaters of a maximum matching, without completion or scores.
fn lookahead(ctx: &Ctx, b: &Bracket, floaters: &[usize], c5: Option<Points>) -> Vec<i64> {
    let Some(next) = &b.next else {
        return Vec::new();
    };
    let nb = Bracket {
        number: b.number + 1,
        mdps: floaters.to_vec(),
        residents: next.clone(),
        next: None,
        lower: b
            .lower
            .iter()
            .copied()
            .filter(|i| !next.contains(i))
            .collect(),
    };
    let players = nb.players();
    let n = players.len();
    // Exact: every set of downfloaters of the following bracket, fewest first, each checked
    // for C.4 and C.5. On fields over `LOOKAHEAD_MAX` players (or a following bracket over
    // 20), the same for every candidate: the count of a maximum matching.
    if n > 20 || ctx.st.players.len() > LOOKAHEAD_MAX {
        return approx_left(ctx, &nb, &players);
    }
    let mut best: Option<Vec<i64>> = None;
    for k in 0..=n {
        if (n - k) % 2 == 1 {
            continue;
        }
        for_each_subset(n, k, &mut |pick: &[usize]| {
            let u: Vec<usize> = pick.iter().map(|&i| players[i]).collect();
            let rest_in: Vec<usize> = players.iter().copied().filter(|p| !u.contains(p)).collect();
            if !bracket_perfect(ctx, &nb, &rest_in) {
                return;
            }
            let ok = if nb.lower.is_empty() {
                match u.as_slice() {
                    [] => c5.is_none(),
                    [x] => {
                        ctx.st.players[*x].pab_eligible() && Some(ctx.st.players[*x].score) == c5
                    }
                    _ => false,
                }
            } else {
                let mut rest: Vec<usize> = u.iter().chain(&nb.lower).copied().collect();
                rest.sort_unstable();
                ctx.complete(&rest) == Some(c5)
            };
            if !ok {
                return;
            }
            let mut v = vec![u.len() as i64];
            v.extend(desc(u.iter().map(|&x| ctx.st.players[x].score).collect()));
            if best.as_ref().is_none_or(|b| v < *b) {
                best = Some(v);
            }
        });
        if best.is_some() {
            break;
        }
    }
    best.unwrap_or_else(|| vec![i64::MAX])
}

/// The fewest players a maximum matching of bracket `nb` leaves over (no completion, no
/// scores): C.8 on fields too large for the exact look-ahead.
fn approx_left(ctx: &Ctx, nb: &Bracket, players: &[usize]) -> Vec<i64> {
    let n = players.len();
    let mut m = Matching::new(n);
    for x in 0..n {
        for y in x + 1..n {
            let (p, q) = (players[x], players[y]);
            if ctx.allowed(p, q) && !(nb.is_mdp(p) && nb.is_mdp(q)) {
                m.add_edge(x, y);
            }
        }
    }
    // Fewest players left over: `d` extra vertices joined to everyone absorb them.
    let mut d = n % 2;
    loop {
        let mut g = Matching::new(n + d);
        for x in 0..n {
            for y in x + 1..n {
                if m.has_edge(x, y) {
                    g.add_edge(x, y);
                }
            }
            for e in 0..d {
                g.add_edge(x, n + e);
            }
        }
        if d >= n || g.covers_all_but(&[]) {
            break;
        }
        d += 2;
    }
    let left = d as i64;
    vec![left]
}

/// Whether [`lookahead`] values C.8 exactly for these downfloaters.
fn lookahead_exact(ctx: &Ctx, b: &Bracket, floaters: &[usize]) -> bool {
    b.next.as_ref().is_none_or(|next| {
        floaters.len() + next.len() <= 20 && ctx.st.players.len() <= LOOKAHEAD_MAX
    })
}

/// Calls `f` with every `k`-subset of `0..n`, in lexicographic order.
pub fn for_each_subset(n: usize, k: usize, f: &mut dyn FnMut(&[usize])) {
    fn go(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, f: &mut dyn FnMut(&[usize])) {
        if cur.len() == k {
            f(cur);
            return;
        }
        for i in start..n {
            if n - i < k - cur.len() {
                break;
            }
            cur.push(i);
            go(i + 1, n, k, cur, f);
            cur.pop();
        }
    }
    if k <= n {
        go(0, n, k, &mut Vec::new(), f);
    }
}

/// The downfloaters' part of the criteria. `deep` computes C.8 and C.9 (the look-ahead);
/// without it they are left empty (the brute force fills them only for candidates still
/// best on C.5-C.7).
pub fn float_part(ctx: &Ctx, b: &Bracket, floaters: &[usize], deep: bool) -> FloatPart {
    let st = ctx.st;
    let rest = rest_completion(ctx, b, floaters);
    let complete = rest.is_some();
    let c5v = rest.flatten();
    let c5 = match rest {
        Some(Some(s)) => vec![s],
        Some(None) => Vec::new(),
        None => vec![i64::MAX],
    };
    let c6 = vec![floaters.len() as i64];
    let c7 = desc(floaters.iter().map(|&x| st.players[x].score).collect());
    let mut c8_exact = true;
    let (c8, c9) = if deep && complete {
        let c8 = lookahead(ctx, b, floaters, c5v);
        c8_exact = lookahead_exact(ctx, b, floaters);
        // C.9 counts only where the bracket downfloats exactly one player who may end up with
        // the PAB (eligible, at the C.5 score): his unplayed games; any other single
        // downfloater counts 0 (the note to C.9; see the module notes).
        let c9 = match (floaters, c5v) {
            ([d], Some(s)) => {
                let p = &st.players[*d];
                vec![if p.pab_eligible() && p.score == s {
                    i64::from(p.unplayed)
                } else {
                    0
                }]
            }
            _ => Vec::new(),
        };
        (c8, c9)
    } else {
        (Vec::new(), Vec::new())
    };
    let mut c14 = 0;
    let mut c16 = 0;
    let mut c18 = Vec::new();
    let mut c20 = Vec::new();
    let base = b.resident_score(st);
    for &x in floaters {
        let p = &st.players[x];
        if b.is_mdp(x) {
            let d = LIMBO + p.score - base;
            if p.float_back(1) == Float::Down {
                c18.push(d);
            }
            if p.float_back(2) == Float::Down {
                c20.push(d);
            }
        } else {
            c14 += i64::from(p.float_back(1) == Float::Down);
            c16 += i64::from(p.float_back(2) == Float::Down);
        }
    }
    FloatPart {
        complete,
        c5,
        c6,
        c7,
        c8,
        c9,
        c8_exact,
        c14,
        c16,
        c18,
        c20,
    }
}

/// What the pairs decide: colour criteria C.10-C.13 (with the colours of article 5), the
/// MDP opponents' upfloats C.15, C.17, score differences C.18-C.21.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PairPart {
    /// C.10: topscorers or their opponents beyond a colour difference of ±2.
    pub c10: i64,
    /// C.11: topscorers or their opponents with a third colour in a row.
    pub c11: i64,
    /// C.12: players not given their colour preference.
    pub c12: i64,
    /// C.13: players not given a strong or absolute preference.
    pub c13: i64,
    /// C.15: residents facing an MDP, themselves with an upfloat the round before.
    pub c15: i64,
    /// C.17: residents facing an MDP, themselves with an upfloat two rounds before.
    pub c17: i64,
    /// C.18: MDP minus opponent score, for MDPs with a downfloat the round before.
    pub c18: Vec<i64>,
    /// C.19: MDP minus opponent score, for opponents with an upfloat the round before.
    pub c19: Vec<i64>,
    /// C.20: MDP minus opponent score, for MDPs with a downfloat two rounds before.
    pub c20: Vec<i64>,
    /// C.21: MDP minus opponent score, for opponents with an upfloat two rounds before.
    pub c21: Vec<i64>,
}

impl PairPart {
    /// Adds pair (`x`, `y`) of bracket `b`.
    pub fn add(&mut self, st: &RoundState, b: &Bracket, x: usize, y: usize) {
        let (w, _) = allocate(st, x, y);
        for (me, opp) in [(x, y), (y, x)] {
            let p = &st.players[me];
            let o = &st.players[opp];
            let got = if me == w {
                Colour::White
            } else {
                Colour::Black
            };
            let top = p.topscorer || o.topscorer;
            if top {
                if (p.cd() + got.sign()).abs() > 2 {
                    self.c10 += 1;
                }
                let h = &p.colours;
                if h.len() >= 2 && h[h.len() - 1] == got && h[h.len() - 2] == got {
                    self.c11 += 1;
                }
            }
            if let Some(pref) = p.pref {
                if pref.colour != got {
                    self.c12 += 1;
                    if pref.strength >= Strength::Strong {
                        self.c13 += 1;
                    }
                }
            }
        }
        let (m, r) = match (b.is_mdp(x), b.is_mdp(y)) {
            (true, false) => (x, y),
            (false, true) => (y, x),
            _ => return,
        };
        let (pm, pr) = (&st.players[m], &st.players[r]);
        let d = pm.score - pr.score;
        if pr.float_back(1) == Float::Up {
            self.c15 += 1;
            self.c19.push(d);
        }
        if pr.float_back(2) == Float::Up {
            self.c17 += 1;
            self.c21.push(d);
        }
        if pm.float_back(1) == Float::Down {
            self.c18.push(d);
        }
        if pm.float_back(2) == Float::Down {
            self.c20.push(d);
        }
    }
}

/// The quality criteria of a candidate, in priority order, each value to be minimised
/// lexicographically.
pub fn vector(f: &FloatPart, p: &PairPart) -> Vec<(&'static str, Vec<i64>)> {
    let mut c18: Vec<i64> = f.c18.iter().chain(&p.c18).copied().collect();
    let mut c20: Vec<i64> = f.c20.iter().chain(&p.c20).copied().collect();
    c18 = desc(std::mem::take(&mut c18));
    c20 = desc(std::mem::take(&mut c20));
    vec![
        (C5, f.c5.clone()),
        (C6, f.c6.clone()),
        (C7, f.c7.clone()),
        (C8, f.c8.clone()),
        (C9, f.c9.clone()),
        (C10, vec![p.c10]),
        (C11, vec![p.c11]),
        (C12, vec![p.c12]),
        (C13, vec![p.c13]),
        (C14, vec![f.c14]),
        (C15, vec![p.c15]),
        (C16, vec![f.c16]),
        (C17, vec![p.c17]),
        (C18, c18),
        (C19, desc(p.c19.clone())),
        (C20, c20),
        (C21, desc(p.c21.clone())),
    ]
}

/// The comparable form of a criteria vector.
pub fn values(v: &[(&'static str, Vec<i64>)]) -> Vec<Vec<i64>> {
    v.iter().map(|(_, x)| x.clone()).collect()
}

/// Rule findings of a candidate: C.1/C.3 on its pairs, two MDPs paired together (3.2), C.4
/// for the rest.
pub fn absolute(ctx: &Ctx, b: &Bracket, c: &Candidate, f: &FloatPart) -> Vec<Finding> {
    let st = ctx.st;
    let mut out = Vec::new();
    for &(x, y) in &c.pairs {
        let (px, py) = (&st.players[x], &st.players[y]);
        if let Some(rule) = st.bar(x, y) {
            let why = if rule == C1 {
                if px.met.contains(&py.id) {
                    "they have met before"
                } else {
                    "a forbidden pair"
                }
            } else {
                "two non-topscorers with the same absolute colour preference"
            };
            out.push(Finding {
                article: rule.to_string(),
                message: format!("{} v {}: {why}", px.id, py.id),
            });
        }
        if b.is_mdp(x) && b.is_mdp(y) {
            out.push(Finding {
                article: PAIR_MDPS.to_string(),
                message: format!(
                    "{} v {}: two moved-down players paired with each other (S1 holds MDPs, S2 residents)",
                    px.id, py.id
                ),
            });
        }
    }
    let barred = match c.floaters.as_slice() {
        [x] if b.lower.is_empty() => st.players[*x].pab_bar.as_ref().map(|w| (*x, w)),
        _ => None,
    };
    if let Some((x, why)) = barred {
        out.push(Finding {
            article: C2.to_string(),
            message: format!("{} gets the PAB but {why}", st.players[x].id),
        });
    } else if !f.complete {
        let ids: Vec<String> = c
            .floaters
            .iter()
            .map(|&x| st.players[x].id.to_string())
            .collect();
        out.push(Finding {
            article: C4.to_string(),
            message: format!(
                "with downfloaters [{}] the players not yet paired cannot all be paired (or the PAB cannot go to an eligible player)",
                ids.join(", ")
            ),
        });
    }
    out
}
