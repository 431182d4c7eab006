//! Maximum cardinality matching in a general graph (Edmonds' blossom algorithm), the check
//! behind every Swiss decision: "can the players still to be paired all be paired?" is "does
//! the graph of allowed games among them have a perfect matching?".

/// The size of a maximum matching of the graph on `n` vertices whose edges `allowed(a, b)`
/// says (called with `a != b`, both orders may be asked).
pub(crate) fn max_matching_size(n: usize, allowed: impl Fn(usize, usize) -> bool) -> usize {
    let adjacency: Vec<Vec<usize>> = (0..n)
        .map(|a| (0..n).filter(|&b| b != a && allowed(a, b)).collect())
        .collect();
    Blossom::new(&adjacency).run()
}

/// Whether every one of the `n` vertices can be matched.
pub(crate) fn has_perfect_matching(n: usize, allowed: impl Fn(usize, usize) -> bool) -> bool {
    n % 2 == 0 && max_matching_size(n, allowed) * 2 == n
}

const NONE: usize = usize::MAX;

struct Blossom<'a> {
    adjacency: &'a [Vec<usize>],
    mate: Vec<usize>,
    parent: Vec<usize>,
    base: Vec<usize>,
    used: Vec<bool>,
    in_blossom: Vec<bool>,
    queue: Vec<usize>,
}

impl<'a> Blossom<'a> {
    fn new(adjacency: &'a [Vec<usize>]) -> Blossom<'a> {
        let n = adjacency.len();
        Blossom {
            adjacency,
            mate: vec![NONE; n],
            parent: vec![NONE; n],
            base: (0..n).collect(),
            used: vec![false; n],
            in_blossom: vec![false; n],
            queue: Vec::with_capacity(n),
        }
    }

    fn run(mut self) -> usize {
        let n = self.adjacency.len();
        // A greedy start: most vertices are matched without searching for a path.
        for v in 0..n {
            if self.mate[v] == NONE {
                if let Some(&w) = self.adjacency[v].iter().find(|&&w| self.mate[w] == NONE) {
                    self.mate[v] = w;
                    self.mate[w] = v;
                }
            }
        }
        for root in 0..n {
            if self.mate[root] != NONE {
                continue;
            }
            let mut v = self.augmenting_path_end(root);
            while v != NONE {
                let pv = self.parent[v];
                let next = self.mate[pv];
                self.mate[v] = pv;
                self.mate[pv] = v;
                v = next;
            }
        }
        self.mate.iter().filter(|&&m| m != NONE).count() / 2
    }

    fn lowest_common_ancestor(&self, mut a: usize, mut b: usize) -> usize {
        let mut seen = vec![false; self.mate.len()];
        loop {
            a = self.base[a];
            seen[a] = true;
            if self.mate[a] == NONE {
                break;
            }
            a = self.parent[self.mate[a]];
        }
        loop {
            b = self.base[b];
            if seen[b] {
                return b;
            }
            b = self.parent[self.mate[b]];
        }
    }

    fn mark_path(&mut self, mut v: usize, b: usize, mut child: usize) {
        while self.base[v] != b {
            self.in_blossom[self.base[v]] = true;
            self.in_blossom[self.base[self.mate[v]]] = true;
            self.parent[v] = child;
            child = self.mate[v];
            v = self.parent[self.mate[v]];
        }
    }

    fn augmenting_path_end(&mut self, root: usize) -> usize {
        let n = self.mate.len();
        self.used.iter_mut().for_each(|u| *u = false);
        self.parent.iter_mut().for_each(|p| *p = NONE);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.used[root] = true;
        self.queue.clear();
        self.queue.push(root);
        let mut head = 0;
        while head < self.queue.len() {
            let v = self.queue[head];
            head += 1;
            for k in 0..self.adjacency[v].len() {
                let to = self.adjacency[v][k];
                if self.base[v] == self.base[to] || self.mate[v] == to {
                    continue;
                }
                if to == root || (self.mate[to] != NONE && self.parent[self.mate[to]] != NONE) {
                    let current = self.lowest_common_ancestor(v, to);
                    self.in_blossom.iter_mut().for_each(|b| *b = false);
                    self.mark_path(v, current, to);
                    self.mark_path(to, current, v);
                    for i in 0..n {
                        if self.in_blossom[self.base[i]] {
                            self.base[i] = current;
                            if !self.used[i] {
                                self.used[i] = true;
                                self.queue.push(i);
                            }
                        }
                    }
                } else if self.parent[to] == NONE {
                    self.parent[to] = v;
                    if self.mate[to] == NONE {
                        return to;
                    }
                    let next = self.mate[to];
                    self.used[next] = true;
                    self.queue.push(next);
                }
            }
        }
        NONE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_odd_cycle_is_matched_through_its_blossom() {
        // A 5-cycle with a pendant vertex on each of two cycle vertices: 7 vertices, and a
        // matching of 3 exists only by going around the blossom.
        let edges = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (0, 5), (2, 6)];
        let allowed = |a: usize, b: usize| edges.contains(&(a, b)) || edges.contains(&(b, a));
        assert_eq!(max_matching_size(7, allowed), 3);
        let petersen_like = |a: usize, b: usize| (a + 1) % 6 == b || (b + 1) % 6 == a;
        assert!(has_perfect_matching(6, petersen_like));
        assert!(!has_perfect_matching(6, |a, b| a == 0 || b == 0));
    }

    #[test]
    fn matches_a_brute_force_count_on_small_random_graphs() {
        use rand::{Rng, SeedableRng};
        fn brute(n: usize, edges: &[Vec<bool>], free: u32) -> usize {
            let Some(v) = (0..n).find(|&v| free & (1 << v) != 0) else {
                return 0;
            };
            let without = free & !(1 << v);
            let mut best = brute(n, edges, without);
            for w in 0..n {
                if without & (1 << w) != 0 && edges[v][w] {
                    best = best.max(1 + brute(n, edges, without & !(1 << w)));
                }
            }
            best
        }
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        for _ in 0..300 {
            let n = rng.gen_range(1..11);
            let mut edges = vec![vec![false; n]; n];
            for (a, b) in (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))) {
                let e = rng.gen_bool(0.3);
                edges[a][b] = e;
                edges[b][a] = e;
            }
            let expected = brute(n, &edges, (1u32 << n) - 1);
            assert_eq!(max_matching_size(n, |a, b| edges[a][b]), expected);
        }
    }
}
