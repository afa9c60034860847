//! The optimality certificate of a matching, checked from the edges alone.
//!
//! Linear-programming duality for the matching polytope (Edmonds): a matching is maximum-weight
//! if there are vertex duals y ≥ 0 and blossom duals z ≥ 0 (on a laminar family of odd sets)
//! with y_u + y_v + Σ_{B ∋ u,v} z_B ≥ w(uv) for every edge, equality on matched edges, y_v = 0
//! on exposed vertices and z_B > 0 only on blossoms holding (|B| − 1)/2 matched edges.
//!
//! Maximum cardinality first: adding a constant K to every weight, K above any weight
//! difference, makes a maximum-weight matching one of maximum cardinality. The duals of that
//! problem are those returned shifted by a large D on the last search's trees: outer (S)
//! vertices down by D, inner (T) vertices up by D, outer blossoms up by 2D. They are feasible
//! when the inner vertices (the set X given) are single vertices matched into odd components of
//! G − X, each odd component is one vertex or exactly one full blossom, every exposed vertex
//! lies in an odd component at a common dual y0 that no outer vertex is below, and the
//! Tutte–Berge count holds: odd components − |X| = exposed vertices (so no matching is larger).

#![allow(clippy::needless_range_loop)]

use super::{Matching, Weight};

/// Checks the dual certificate of `m` against the edges (feasibility, complementary
/// slackness): true only if `m` is proved optimal for that problem. Used by tests and the
/// certificate.
pub fn is_proved_optimal<W: Weight>(
    n: usize,
    edges: &[(usize, usize, W)],
    max_cardinality: bool,
    m: &Matching<W>,
) -> bool {
    check(n, edges, max_cardinality, m).is_ok()
}

/// The first condition that fails, for tests and traces.
pub(crate) fn check<W: Weight>(
    n: usize,
    edges: &[(usize, usize, W)],
    max_cardinality: bool,
    m: &Matching<W>,
) -> Result<(), String> {
    check_mates(n, m)?;
    let f = Forest::new(n, &m.duals)?;
    check_edges(n, edges, m, &f)?;
    let (size, inside) = f.counts(n, m);
    for b in 0..f.depth.len() {
        if m.duals.blossoms[b].dual > W::zero() && 2 * inside[b] + 1 != size[b] {
            return Err(format!("blossom {b} not full"));
        }
    }
    // An isolated vertex's dual is in no constraint: it is read as whatever the proof needs.
    let mut isolated = vec![true; n];
    for (u, v, _) in edges {
        isolated[*u] = false;
        isolated[*v] = false;
    }
    if !max_cardinality {
        let d = &m.duals;
        for v in (0..n).filter(|&v| !isolated[v]) {
            if d.vertex[v] < W::zero() || (m.mate[v].is_none() && d.vertex[v] != W::zero()) {
                return Err(format!("vertex {v} dual"));
            }
        }
        return Ok(());
    }
    let blossoms = Counts {
        size,
        inside,
        isolated,
    };
    check_tutte_berge(n, edges, m, &f, &blossoms)
}

/// The sizes agree and every mate is mutual.
fn check_mates<W: Weight>(n: usize, m: &Matching<W>) -> Result<(), String> {
    let d = &m.duals;
    if m.mate.len() != n || d.vertex.len() != n || d.vertex_parent.len() != n {
        return Err("sizes".into());
    }
    for (v, &p) in m.mate.iter().enumerate() {
        if let Some(u) = p {
            if u >= n || u == v || m.mate[u] != Some(v) {
                return Err(format!("mate of {v}"));
            }
        }
    }
    Ok(())
}

/// The blossom forest of the duals: depths (refusing cycles), tops, accumulated duals.
struct Forest<'a, W> {
    /// The duals read.
    d: &'a super::Duals<W>,
    /// Each blossom's depth in the forest.
    depth: Vec<usize>,
    /// The blossoms, shallowest first.
    order: Vec<usize>,
    /// Σ of the duals of each blossom and its ancestors.
    acc: Vec<W>,
    /// Each blossom's top-level ancestor.
    top: Vec<usize>,
}

impl<'a, W: Weight> Forest<'a, W> {
    /// The forest of `d` over `n` vertices, or the first inconsistency.
    fn new(n: usize, d: &'a super::Duals<W>) -> Result<Self, String> {
        let nb = d.blossoms.len();
        let parent = |b: usize| d.blossoms[b].parent;
        let mut depth = vec![usize::MAX; nb];
        for b in 0..nb {
            let mut chain = vec![];
            let mut x = Some(b);
            while let Some(c) = x {
                if c >= nb || chain.len() > nb {
                    return Err("blossom parents".into());
                }
                if depth[c] != usize::MAX {
                    break;
                }
                chain.push(c);
                x = parent(c);
            }
            let from = x.map_or(0, |c| depth[c] + 1);
            for (dep, &c) in (from..).zip(chain.iter().rev()) {
                depth[c] = dep;
            }
        }
        for v in 0..n {
            if d.vertex_parent[v].is_some_and(|b| b >= nb) {
                return Err("vertex parent".into());
            }
        }
        let mut order: Vec<usize> = (0..nb).collect();
        order.sort_by_key(|&b| depth[b]);
        let mut acc: Vec<W> = vec![W::zero(); nb];
        let mut top = vec![0usize; nb];
        for &b in &order {
            if d.blossoms[b].dual < W::zero() {
                return Err(format!("blossom {b} dual negative"));
            }
            match parent(b) {
                Some(p) => {
                    acc[b] = acc[p].add(&d.blossoms[b].dual);
                    top[b] = top[p];
                }
                None => {
                    acc[b] = d.blossoms[b].dual;
                    top[b] = b;
                }
            }
        }
        Ok(Forest {
            d,
            depth,
            order,
            acc,
            top,
        })
    }

    /// The innermost blossom holding both u and v.
    fn common(&self, u: usize, v: usize) -> Option<usize> {
        let parent = |b: usize| self.d.blossoms[b].parent;
        let (mut a, mut b) = (self.d.vertex_parent[u]?, self.d.vertex_parent[v]?);
        if self.top[a] != self.top[b] {
            return None;
        }
        while a != b {
            if self.depth[a] >= self.depth[b] {
                a = parent(a)?;
            } else {
                b = parent(b)?;
            }
        }
        Some(a)
    }

    /// Each blossom's vertices and the matched edges inside it.
    fn counts(&self, n: usize, m: &Matching<W>) -> (Vec<usize>, Vec<usize>) {
        let nb = self.depth.len();
        let mut size = vec![0usize; nb];
        let mut inside = vec![0usize; nb];
        for v in 0..n {
            if let Some(b) = self.d.vertex_parent[v] {
                size[b] += 1;
            }
            if let Some(u) = m.mate[v] {
                if v < u {
                    if let Some(b) = self.common(u, v) {
                        inside[b] += 1;
                    }
                }
            }
        }
        for &b in self.order.iter().rev() {
            if let Some(p) = self.d.blossoms[b].parent {
                size[p] += size[b];
                inside[p] += inside[b];
            }
        }
        (size, inside)
    }
}

/// Every edge feasible (no negative slack), every matched edge tight, and the weight the
/// tight matched edges add up to.
fn check_edges<W: Weight>(
    n: usize,
    edges: &[(usize, usize, W)],
    m: &Matching<W>,
    f: &Forest<W>,
) -> Result<(), String> {
    let d = &m.duals;
    let mut tight_mate = vec![false; n];
    let mut weight = W::zero();
    for (u, v, w) in edges {
        let (u, v) = (*u, *v);
        if u >= n || v >= n || u == v {
            return Err(format!("edge ({u}, {v})"));
        }
        let z = f.common(u, v).map_or_else(W::zero, |b| f.acc[b]);
        let slack = d.vertex[u].add(&d.vertex[v]).add(&z).sub(&w.double());
        if slack < W::zero() {
            return Err(format!("edge ({u}, {v}) slack {slack:?}"));
        }
        if slack == W::zero() && m.mate[u] == Some(v) && !tight_mate[u] {
            tight_mate[u] = true;
            tight_mate[v] = true;
            weight = weight.add(w);
        }
    }
    for v in 0..n {
        if m.mate[v].is_some() && !tight_mate[v] {
            return Err(format!(
                "matched vertex {v} without a tight edge to its mate"
            ));
        }
    }
    if weight != m.weight {
        return Err(format!("weight {:?} v {weight:?}", m.weight));
    }
    Ok(())
}

/// What the cardinality proof reads of the blossoms and vertices.
struct Counts {
    /// Each blossom's vertices.
    size: Vec<usize>,
    /// The matched edges inside each blossom.
    inside: Vec<usize>,
    /// The vertices on no edge.
    isolated: Vec<bool>,
}

/// Maximum cardinality: the shifted duals' conditions and the Tutte–Berge count (see the
/// module notes).
fn check_tutte_berge<W: Weight>(
    n: usize,
    edges: &[(usize, usize, W)],
    m: &Matching<W>,
    f: &Forest<W>,
    c: &Counts,
) -> Result<(), String> {
    let d = &m.duals;
    let (size, inside, isolated) = (&c.size, &c.inside, &c.isolated);
    let exposed: Vec<usize> = (0..n)
        .filter(|&v| m.mate[v].is_none() && !isolated[v])
        .collect();
    let Some(&first) = exposed.first() else {
        // Perfect: the duals of the perfect-matching polytope need no sign.
        return Ok(());
    };
    let y0 = d.vertex[first];
    let mut in_x = vec![false; n];
    for &x in &d.inner {
        if x >= n || in_x[x] || m.mate[x].is_none() || d.vertex_parent[x].is_some() {
            return Err(format!("inner vertex {x}"));
        }
        in_x[x] = true;
    }
    let (mut uf, comp_size, comp_top) = components(n, edges, &in_x, f);
    let odd = |uf: &mut Vec<usize>, v: usize| comp_size[find(uf, v)] % 2 == 1;
    let odd_count = (0..n)
        .filter(|&v| !in_x[v] && find(&mut uf, v) == v && comp_size[v] % 2 == 1)
        .count();
    let isolated_count = isolated.iter().filter(|&&i| i).count();
    if odd_count != d.inner.len() + exposed.len() + isolated_count {
        return Err(format!(
            "Tutte–Berge: {odd_count} odd components, {} inner, {} exposed",
            d.inner.len(),
            exposed.len()
        ));
    }
    for &v in &exposed {
        if in_x[v] || !odd(&mut uf, v) || d.vertex[v] != y0 {
            return Err(format!("exposed vertex {v}"));
        }
    }
    for &x in &d.inner {
        let u = m.mate[x].expect("inner vertices are matched");
        if in_x[u] || !odd(&mut uf, u) {
            return Err(format!(
                "inner vertex {x} not matched into an odd component"
            ));
        }
    }
    for v in 0..n {
        if in_x[v] || isolated[v] || !odd(&mut uf, v) {
            continue;
        }
        if d.vertex[v] < y0 {
            return Err(format!("outer vertex {v} below the exposed dual"));
        }
        let r = find(&mut uf, v);
        if comp_size[r] > 1 {
            // One whole full blossom.
            let Some(Some(b)) = comp_top[r] else {
                return Err(format!("odd component of {v} is not one blossom"));
            };
            if size[b] != comp_size[r] || 2 * inside[b] + 1 != size[b] {
                return Err(format!("odd component of {v} is not one full blossom"));
            }
        }
    }
    Ok(())
}

/// The union-find root of `i`, halving the path.
fn find(p: &mut [usize], mut i: usize) -> usize {
    while p[i] != i {
        p[i] = p[p[i]];
        i = p[i];
    }
    i
}

/// Components of G − X (`in_x`): the union-find, each root's size, and each root's top
/// blossom (`Some(None)` when its vertices lie in different ones).
#[allow(clippy::type_complexity)]
fn components<W: Weight>(
    n: usize,
    edges: &[(usize, usize, W)],
    in_x: &[bool],
    f: &Forest<W>,
) -> (Vec<usize>, Vec<usize>, Vec<Option<Option<usize>>>) {
    let mut uf: Vec<usize> = (0..n).collect();
    for (u, v, _) in edges {
        if !in_x[*u] && !in_x[*v] {
            let (a, b) = (find(&mut uf, *u), find(&mut uf, *v));
            if a != b {
                uf[a] = b;
            }
        }
    }
    let mut comp_size = vec![0usize; n];
    let mut comp_top: Vec<Option<Option<usize>>> = vec![None; n];
    for v in 0..n {
        if in_x[v] {
            continue;
        }
        let r = find(&mut uf, v);
        comp_size[r] += 1;
        let t = f.d.vertex_parent[v].map(|b| f.top[b]);
        match comp_top[r] {
            None => comp_top[r] = Some(t),
            Some(s) if s != t => comp_top[r] = Some(None),
            Some(_) => {}
        }
    }
    (uf, comp_size, comp_top)
}
