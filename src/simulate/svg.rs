//! The report as an SVG chart. Written by hand: the only text it holds is the configuration's
//! numbers and the systems' names (escaped all the same).

use super::model::Report;
use super::text::pct;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const PALETTE: &[&str] = &[
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
];

/// The runs the chart shows: "40 runs per system" when every run was paired, else the runs
/// each system made, so that the title never claims a run that was refused.
fn runs_made(r: &Report) -> String {
    let runs = r.config.runs;
    if r.summaries.iter().all(|m| m.refused == 0) {
        return format!("{runs} runs per system");
    }
    let each: Vec<String> = r
        .summaries
        .iter()
        .map(|m| format!("{} {} of {runs}", m.system.name(), m.runs))
        .collect();
    format!("runs paired: {}", each.join(", "))
}

/// An SVG chart: left, the share of events with two or more perfect scores per system with
/// its 95% interval; right, the mean rating gap of the games by round, one line per system.
pub fn svg(r: &Report) -> String {
    use std::fmt::Write;
    let (w, h) = (1100.0, 460.0);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let c = &r.config;
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="15">{} players, {} rounds, {} (seed {})</text>"#,
        w / 2.0,
        c.players,
        c.rounds,
        esc(&runs_made(r)),
        c.seed
    );
    // Left panel: bars with interval whiskers.
    let (x0, y0, pw, ph) = (60.0, 60.0, 400.0, 300.0);
    let top = r
        .summaries
        .iter()
        .map(|m| m.joint_perfect_ci.1)
        .fold(0.0, f64::max);
    let ymax = nice(top.max(0.01));
    axes(&mut s, x0, y0, pw, ph, 0.0, ymax, true);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">events with ≥ 2 perfect scores (95% interval)</text>"#,
        x0 + pw / 2.0,
        y0 - 12.0
    );
    let n = r.summaries.len().max(1) as f64;
    let slot = pw / n;
    for (i, m) in r.summaries.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let bx = x0 + slot * i as f64 + slot * 0.2;
        let bw = slot * 0.6;
        let y = |v: f64| y0 + ph - ph * v / ymax;
        let _ = writeln!(
            s,
            r#"<rect x="{bx:.1}" y="{:.1}" width="{bw:.1}" height="{:.1}" fill="{colour}"/>"#,
            y(m.joint_perfect_share),
            y0 + ph - y(m.joint_perfect_share)
        );
        let mx = bx + bw / 2.0;
        let (lo, hi) = (y(m.joint_perfect_ci.0), y(m.joint_perfect_ci.1));
        let _ = writeln!(
            s,
            r#"<path d="M{mx:.1} {lo:.1}V{hi:.1}M{:.1} {lo:.1}H{:.1}M{:.1} {hi:.1}H{:.1}" stroke="black" fill="none"/>"#,
            mx - 6.0,
            mx + 6.0,
            mx - 6.0,
            mx + 6.0
        );
        // System names slanted, so that long names do not run into each other.
        let ly = y0 + ph + 14.0;
        let _ = writeln!(
            s,
            r#"<text x="{mx:.1}" y="{ly:.1}" text-anchor="end" transform="rotate(-30 {mx:.1} {ly:.1})">{}{}</text>"#,
            esc(m.system.name()),
            if m.refused > 0 {
                format!(" ({} of {} refused)", m.refused, m.refused + m.runs)
            } else {
                String::new()
            }
        );
        let _ = writeln!(
            s,
            r#"<text x="{mx:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            hi - 5.0,
            pct(m.joint_perfect_share)
        );
    }
    // Right panel: gap by round.
    let (x1, pw1) = (560.0, 380.0);
    let rounds = r
        .summaries
        .iter()
        .map(|m| m.gap_by_round.len())
        .max()
        .unwrap_or(1)
        .max(1);
    let gmax = nice(
        r.summaries
            .iter()
            .flat_map(|m| m.gap_by_round.iter().copied())
            .fold(1.0, f64::max),
    );
    axes(&mut s, x1, y0, pw1, ph, 0.0, gmax, false);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">mean rating gap of the games, by round</text>"#,
        x1 + pw1 / 2.0,
        y0 - 12.0
    );
    let xr = |k: usize| x1 + pw1 * (k as f64 + 0.5) / rounds as f64;
    for k in 0..rounds {
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            xr(k),
            y0 + ph + 16.0,
            k + 1
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">round</text>"#,
        x1 + pw1 / 2.0,
        y0 + ph + 32.0
    );
    for (i, m) in r.summaries.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let pts: Vec<String> = m
            .gap_by_round
            .iter()
            .enumerate()
            .map(|(k, g)| format!("{:.1},{:.1}", xr(k), y0 + ph - ph * g / gmax))
            .collect();
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
            pts.join(" ")
        );
        let ly = y0 + 14.0 + 16.0 * i as f64;
        let _ = writeln!(
            s,
            r#"<rect x="{:.1}" y="{:.1}" width="12" height="3" fill="{colour}"/><text x="{:.1}" y="{:.1}">{}</text>"#,
            x1 + pw1 + 16.0,
            ly - 4.0,
            x1 + pw1 + 32.0,
            ly,
            esc(m.system.name())
        );
    }
    s.push_str("</svg>\n");
    s
}

/// A round upper bound for an axis: 1, 2 or 5 times a power of ten.
fn nice(v: f64) -> f64 {
    let p = 10f64.powf(v.log10().floor());
    for k in [1.0, 2.0, 5.0, 10.0] {
        if v <= k * p + 1e-12 {
            return k * p;
        }
    }
    10.0 * p
}

#[allow(clippy::too_many_arguments)]
fn axes(s: &mut String, x: f64, y: f64, w: f64, h: f64, lo: f64, hi: f64, percent: bool) {
    use std::fmt::Write;
    let _ = writeln!(
        s,
        r#"<path d="M{x} {y}V{}H{}" stroke="black" fill="none"/>"#,
        y + h,
        x + w
    );
    for k in 0..=5 {
        let v = lo + (hi - lo) * k as f64 / 5.0;
        let yy = y + h - h * k as f64 / 5.0;
        let label = if percent { pct(v) } else { format!("{v:.0}") };
        let _ = writeln!(
            s,
            r##"<path d="M{} {yy:.1}H{}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">{label}</text>"##,
            x + 1.0,
            x + w,
            x - 4.0,
            yy + 4.0
        );
    }
}
