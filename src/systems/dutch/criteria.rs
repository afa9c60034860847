//! A bracket's criteria as fields of one packed integer per pair: the layout (which fields,
//! how wide) and each pair's weight, article by article (models/dutch.md).

use super::procedure::Context;
use super::state::{DutchPlayer, Float};
use super::weight::{bits_for, Builder, Field, Layout, Weight};
use crate::tournament::Colour;
use std::collections::HashMap;

pub(super) struct Fields {
    pub(super) completion: Field,
    pub(super) in_bracket: Field,
    pub(super) scores: HashMap<i64, Field>,
    pub(super) next: Field,
    pub(super) next_scores: HashMap<i64, Field>,
    /// Only where the bye comes from this bracket ("FIDE Dutch 2025 C.9").
    pub(super) bye: Option<Field>,
    /// C.10 and C.11 only in the last round: before it two players with the same absolute
    /// preference never meet, so those fields would count every pair alike.
    pub(super) colours: [Option<Field>; 4],
    pub(super) floats: Vec<Field>,
    pub(super) float_scores: Vec<HashMap<i64, Field>>,
    pub(super) order: Field,
    /// Below every criterion and every ordering decision: a preference for the natural
    /// S1 v S2 pairing that only chooses among equal optima, so that the optimum found
    /// usually is the first candidate already and the ordering steps need no solve.
    pub(super) hint: Field,
    /// Bits inside the order field: `ob` per sub-part (room for 3 parts, or `block`, + 2 bits).
    pub(super) ob: u32,
    /// Most S1 players whose opponents one matching decides, each preference in a sub-part
    /// of its own above the next player's, when the optimum found is not already the first
    /// candidate for them.
    pub(super) block: usize,
    /// Bits the criteria need: the layout with a block of 3 (its narrowest).
    pub(super) needed: u32,
}

pub(super) fn score_counts(players: &[DutchPlayer], set: &[usize]) -> Vec<(i64, usize)> {
    let mut out: Vec<(i64, usize)> = Vec::new();
    for &i in set {
        let s = players[i].score;
        match out.iter_mut().find(|(x, _)| *x == s) {
            Some(e) => e.1 += 1,
            None => out.push((s, 1)),
        }
    }
    out.sort_by_key(|e| std::cmp::Reverse(e.0));
    out
}

/// Bits of the layout of a bracket of `cur` with `curnext` as its look-ahead.
pub fn layout_bits(ctx: &Context, cur: &[usize], curnext: &[usize]) -> u32 {
    layout_for(ctx, ctx.players.len(), cur, curnext, false, 0)
        .1
        .needed
}

/// Only pairs inside the bracket and its look-ahead carry more than completion, and a
/// matching holds at most `curnext.len() / 2` of them: the criteria fields are sized by that
/// (completion and the bye's ranks by the whole field). What `room` (the weights' bits) has
/// to spare beyond goes to the S1 players' block (`Fields::block`).
pub(super) fn layout_for(
    ctx: &Context,
    n: usize,
    cur: &[usize],
    curnext: &[usize],
    bye_here: bool,
    room: u32,
) -> (Layout, Fields) {
    let m = curnext.len().max(2) as u64;
    let wb = bits_for(m) + 1;
    let wbn = bits_for(n as u64) + 1;
    let mut l = Layout::default();
    let completion = l.push(bits_for(3 * n as u64) + 1);
    let in_bracket = l.push(wb);
    let per_score = |l: &mut Layout, set: &[usize]| -> HashMap<i64, Field> {
        score_counts(ctx.players, set)
            .into_iter()
            .map(|(s, c)| (s, l.push(bits_for(c as u64) + 1)))
            .collect()
    };
    let scores = per_score(&mut l, cur);
    let next = l.push(wb);
    let next_scores = per_score(&mut l, curnext);
    let bye = (bye_here && ctx.readings.bye_unplayed_games).then(|| l.push(wb + wbn));
    let last = ctx.last_round;
    let colours = [
        last.then(|| l.push(wb)),
        last.then(|| l.push(wb)),
        Some(l.push(wb)),
        Some(l.push(wb)),
    ];
    let mut floats = Vec::new();
    for back in 1..=2u32 {
        if ctx.played_rounds >= back {
            floats.push(l.push(wb + 1));
            floats.push(l.push(wb));
        }
    }
    let mut float_scores = Vec::new();
    for back in 1..=2u32 {
        if ctx.played_rounds >= back {
            float_scores.push(per_score(&mut l, cur));
            float_scores.push(per_score(&mut l, cur));
        }
    }
    // The exchanges' three parts, or the preferences of a block of S1 players.
    let hint_bits = bits_for(m.pow(3)) + 2;
    let narrowest = l.bits_so_far() + 3 * wb + 2 + hint_bits;
    let block = 3 + (room.saturating_sub(narrowest) / wb) as usize;
    let order = l.push(block as u32 * wb + 2);
    let hint = l.push(hint_bits);
    l.finish();
    (
        l,
        Fields {
            completion,
            in_bracket,
            scores,
            next,
            next_scores,
            bye,
            colours,
            floats,
            float_scores,
            order,
            hint,
            ob: wb,
            block,
            needed: narrowest,
        },
    )
}

#[allow(clippy::too_many_arguments)]
pub(super) fn base_weight<W: Weight>(
    ctx: &Context,
    bye_candidate: &[bool],
    l: &Layout,
    f: &Fields,
    a: usize,
    b: usize,
    b_in_cur: bool,
    b_in_next: bool,
    single_bye_bracket: bool,
    bye_score: i64,
    unplayed_rank: &dyn Fn(usize) -> i64,
    hint: i64,
) -> W {
    let (hi, lo) = (&ctx.players[a], &ctx.players[b]);
    let mut w = Builder::<W>::new(l);
    w.set(f.hint, hint);
    w.set(
        f.completion,
        1 + i64::from(!bye_candidate[a]) + i64::from(!bye_candidate[b]),
    );
    if b_in_cur {
        w.set(f.in_bracket, 1);
        w.set(f.scores[&hi.score], 1);
    }
    if b_in_next {
        w.set(f.next, 1);
        w.set(f.next_scores[&hi.score], 1);
    }
    if single_bye_bracket && ctx.readings.bye_unplayed_games {
        let mut v = 0;
        if hi.score == bye_score {
            v += unplayed_rank(a);
        }
        if lo.score == bye_score {
            v += unplayed_rank(b);
        }
        w.set_opt(f.bye, v);
    }
    if b_in_cur {
        let same = hi.preference.is_some() && hi.preference == lo.preference;
        // "FIDE Dutch 2025 C.10": topscorers (or opponents) beyond a colour difference of 2.
        w.set_opt(
            f.colours[0],
            i64::from(!(lo.absolute_imbalance() && hi.absolute_imbalance() && same)),
        );
        // "FIDE Dutch 2025 C.11": topscorers (or opponents) with a colour three times running.
        let third = if lo.colour_difference.abs() == hi.colour_difference.abs() {
            lo.repeated.is_some() && lo.repeated == hi.repeated
        } else {
            let smaller = if lo.colour_difference.abs() > hi.colour_difference.abs() {
                hi
            } else {
                lo
            };
            smaller.repeated.is_some() && smaller.repeated == lo.preference.map(Colour::opposite)
        };
        w.set_opt(
            f.colours[1],
            i64::from(!(lo.absolute && hi.absolute && same && third)),
        );
        // "FIDE Dutch 2025 C.12": colour preferences granted.
        w.set_opt(f.colours[2], i64::from(!same));
        // "FIDE Dutch 2025 C.13": strong colour preferences granted.
        let strongish = |p: &DutchPlayer| p.strong || p.absolute;
        w.set_opt(
            f.colours[3],
            i64::from(!(strongish(lo) && strongish(hi) && !(lo.absolute && hi.absolute) && same)),
        );
        // "FIDE Dutch 2025 C.14"–"FIDE Dutch 2025 C.17": floats repeated from one and two
        // rounds before; "FIDE Dutch 2025 C.18"–"FIDE Dutch 2025 C.21": their scores.
        for back in 0..2usize {
            if f.floats.len() < 2 * (back + 1) {
                continue;
            }
            let down_lo = lo.floats[back] == Float::Down;
            let down_hi = hi.floats[back] == Float::Down;
            let up_again = hi.score > lo.score && lo.floats[back] == Float::Up;
            w.set(
                f.floats[2 * back],
                i64::from(down_lo) + i64::from(hi.score <= lo.score && down_hi),
            );
            w.set(f.floats[2 * back + 1], i64::from(!up_again));
            let sd = &f.float_scores[2 * back];
            let mut by: HashMap<i64, i64> = HashMap::new();
            if down_lo {
                *by.entry(lo.score).or_default() += 1;
            }
            if down_hi {
                *by.entry(hi.score).or_default() += 1;
            }
            for (s, v) in by {
                w.set(sd[&s], v);
            }
            if !up_again {
                w.set(f.float_scores[2 * back + 1][&hi.score], 1);
            }
        }
    }
    w.done()
}
