//! Who plays whom in a tournament round, and with which colour. Pure: players
//! are numbered by seed (0 is the top seed) and nothing here reads a clock or a
//! database.
//!
//! Round-robin uses the circle method (the Berger tables): the whole schedule is
//! known at the start, every colour alternates except once per player, and with
//! an odd field the player who meets the empty place rests that round.
//!
//! Swiss pairs a round from the standings so far. Its rules are absolute:
//! nobody meets the same opponent twice; nobody gets the same colour three
//! times in a row, nor two more games with one colour than with the other; a
//! bye goes to the lowest-ranked player who has not had one. Within those rules
//! players meet others of their score, the upper half of a score group against
//! the lower half, and get the colour they are due. The pairing is chosen a
//! pair at a time from the top, and each pair is taken only if the players left
//! can still all be paired (a maximum matching on the graph of allowed pairs,
//! Edmonds' blossom algorithm, answers that exactly); so whenever a legal
//! pairing of the round exists, one is found, without backtracking.

use xiangqi::Color;

/// A game of a round: the two players by number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair {
    pub red: usize,
    pub black: usize,
}

/// One round: its games, best boards first, and who has no game (a Swiss bye,
/// or a round-robin rest).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    pub pairs: Vec<Pair>,
    pub bye: Option<usize>,
}

/// The rounds of a round-robin of `n` players: `n - 1` rounds when `n` is even,
/// `n` when odd (each player rests once).
pub fn round_robin(n: usize) -> Vec<Round> {
    if n < 2 {
        return Vec::new();
    }
    // With an odd field the fixed place of the circle is empty.
    let m = n + n % 2;
    let fixed = m - 1;
    let circle = m - 1;
    (0..circle)
        .map(|r| {
            let mut round = Round::default();
            let mut add = |red: usize, black: usize| {
                if red >= n {
                    round.bye = Some(black);
                } else if black >= n {
                    round.bye = Some(red);
                } else {
                    round.pairs.push(Pair { red, black });
                }
            };
            // The fixed place alternates colours; every other player's colour
            // follows the parity of its distance round the circle, which
            // changes by one each round.
            if r % 2 == 0 {
                add(fixed, r)
            } else {
                add(r, fixed)
            }
            for i in 1..m / 2 {
                let a = (r + i) % circle;
                let b = (r + circle - i) % circle;
                if i % 2 == 1 { add(a, b) } else { add(b, a) }
            }
            round
        })
        .collect()
}

/// A player as a Swiss round sees them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entrant {
    /// The player's number (their seed: 0 is the top).
    pub id: usize,
    /// Points so far, in half points.
    pub score: i64,
    /// Colours of the games played, in order (byes and forfeits have none).
    pub colors: Vec<Color>,
    /// Everyone met so far (forfeits included: they are not paired again).
    pub opponents: Vec<usize>,
    pub had_bye: bool,
}

impl Entrant {
    /// Red games minus black games.
    fn balance(&self) -> i64 {
        self.colors.iter().map(|c| if *c == Color::Red { 1 } else { -1 }).sum()
    }

    /// The colour this player must have: after two of one colour in a row, or
    /// with two more of one colour, only the other is allowed.
    pub fn must(&self) -> Option<Color> {
        let balance = self.balance();
        let last_two = match self.colors.as_slice() {
            [.., a, b] if a == b => Some(!*a),
            _ => None,
        };
        let by_balance = match balance {
            b if b >= 2 => Some(Color::Black),
            b if b <= -2 => Some(Color::Red),
            _ => None,
        };
        match (last_two, by_balance) {
            (Some(a), Some(b)) if a != b => None,
            (a, b) => a.or(b),
        }
    }

    /// The colour this player is due, and how strongly (2 absolute, 1 to even
    /// the balance, 0 to alternate); none before the first game.
    fn preference(&self) -> Option<(Color, u8)> {
        if let Some(c) = self.must() {
            return Some((c, 2));
        }
        match self.balance() {
            b if b > 0 => Some((Color::Black, 1)),
            b if b < 0 => Some((Color::Red, 1)),
            _ => self.colors.last().map(|c| (!*c, 0)),
        }
    }
}

/// How strictly a Swiss round is paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strictness {
    /// All the rules: no rematch and the colour rules.
    Full,
    /// No rematch, colours as well as they can be: only for a round that has no
    /// legal pairing under the full rules.
    NoRematchOnly,
}

/// Colours for two players who meet; `a` ranks above `b`, on board `board` (from 0).
pub fn colors_for(a: &Entrant, b: &Entrant, board: usize) -> Pair {
    let give = |a_gets: Color| {
        if a_gets == Color::Red { Pair { red: a.id, black: b.id } } else { Pair { red: b.id, black: a.id } }
    };
    match (a.preference(), b.preference()) {
        (None, None) => give(if board % 2 == 0 { Color::Red } else { Color::Black }),
        (Some((ca, _)), None) => give(ca),
        (None, Some((cb, _))) => give(!cb),
        (Some((ca, _)), Some((cb, _))) if ca != cb => give(ca),
        // Both are due the same colour: the stronger claim has it, else the higher rank.
        (Some((ca, sa)), Some((_, sb))) => give(if sb > sa { !ca } else { ca }),
    }
}

/// Pairs a Swiss round. `ranked` are the players still in the tournament, from
/// the top of the standings (score, then seed). `None` when no pairing obeys
/// the rules at `strictness`.
pub fn swiss(ranked: &[Entrant], strictness: Strictness) -> Option<Round> {
    let allowed = |a: &Entrant, b: &Entrant| {
        if a.opponents.contains(&b.id) || b.opponents.contains(&a.id) {
            return false;
        }
        match strictness {
            Strictness::Full => !matches!((a.must(), b.must()), (Some(x), Some(y)) if x == y),
            Strictness::NoRematchOnly => true,
        }
    };
    let n = ranked.len();
    let adjacent: Vec<Vec<bool>> =
        (0..n).map(|i| (0..n).map(|j| i != j && allowed(&ranked[i], &ranked[j])).collect()).collect();
    let mut left: Vec<usize> = (0..n).collect();
    let mut bye = None;
    if n % 2 == 1 {
        // The lowest-ranked player without a bye whose absence leaves a pairable field.
        let chosen = (0..n)
            .rev()
            .filter(|&i| !ranked[i].had_bye)
            .find(|&i| perfect_matching(&adjacent, &without(&left, &[i])).is_some())?;
        bye = Some(ranked[chosen].id);
        left.retain(|&i| i != chosen);
    }
    let mut mate = perfect_matching(&adjacent, &left)?;
    let mut pairs = Vec::new();
    while let Some(&top) = left.first() {
        let mut candidates: Vec<usize> = left[1..].iter().copied().filter(|&j| adjacent[top][j]).collect();
        candidates.sort_by_key(|&j| preference_order(ranked, &left, top, j));
        let partner = candidates
            .into_iter()
            .find_map(|j| {
                if mate[top] == Some(j) {
                    return Some((j, None));
                }
                let rest = without(&left, &[top, j]);
                perfect_matching(&adjacent, &rest).map(|m| (j, Some(m)))
            })
            .expect("a perfect matching of the players left pairs the top one");
        let (j, found) = partner;
        if let Some(m) = found {
            mate = m;
        }
        pairs.push(colors_for(&ranked[top], &ranked[j], pairs.len()));
        left.retain(|&i| i != top && i != j);
    }
    Some(Round { pairs, bye })
}

fn without(left: &[usize], gone: &[usize]) -> Vec<usize> {
    left.iter().copied().filter(|i| !gone.contains(i)).collect()
}

/// How good a partner `j` is for `top` (the highest-ranked player left): the
/// nearest score first, then one with whom both get their due colour, then the
/// one the upper-half-against-lower-half order names.
fn preference_order(ranked: &[Entrant], left: &[usize], top: usize, j: usize) -> (i64, u8, usize) {
    let (a, b) = (&ranked[top], &ranked[j]);
    let group = left.iter().filter(|&&i| ranked[i].score == a.score).count();
    let ideal = group / 2;
    let place = left.iter().position(|&i| i == j).unwrap_or(0);
    let clash = match (a.preference(), b.preference()) {
        (Some((ca, _)), Some((cb, _))) if ca == cb => 1,
        _ => 0,
    };
    (i64::abs(a.score - b.score), clash, place.abs_diff(ideal))
}

/// A perfect matching of the players `left` on the graph `adjacent` (by index),
/// as each one's partner; `None` if there is none.
fn perfect_matching(adjacent: &[Vec<bool>], left: &[usize]) -> Option<Vec<Option<usize>>> {
    if left.len() % 2 == 1 {
        return None;
    }
    let k = left.len();
    let graph: Vec<Vec<usize>> =
        (0..k).map(|a| (0..k).filter(|&b| adjacent[left[a]][left[b]]).collect()).collect();
    let local = maximum_matching(&graph);
    if local.iter().any(Option::is_none) {
        return None;
    }
    let mut mate = vec![None; adjacent.len()];
    for (a, b) in local.iter().enumerate() {
        mate[left[a]] = b.map(|b| left[b]);
    }
    Some(mate)
}

/// A maximum matching of a general graph (Edmonds' blossom algorithm): each
/// vertex's partner, if it has one.
fn maximum_matching(graph: &[Vec<usize>]) -> Vec<Option<usize>> {
    let mut m = Blossom::new(graph);
    // A greedy start leaves few vertices to augment from.
    for (v, neighbours) in graph.iter().enumerate() {
        if m.mate[v] == NONE
            && let Some(&w) = neighbours.iter().find(|&&w| m.mate[w] == NONE)
        {
            m.mate[v] = w;
            m.mate[w] = v;
        }
    }
    for v in 0..graph.len() {
        if m.mate[v] == NONE
            && let Some(end) = m.augmenting_path(v)
        {
            m.augment(end);
        }
    }
    m.mate.iter().map(|&w| (w != NONE).then_some(w)).collect()
}

const NONE: usize = usize::MAX;

struct Blossom<'g> {
    graph: &'g [Vec<usize>],
    mate: Vec<usize>,
    /// The vertex each outer vertex was reached from, along the alternating tree.
    parent: Vec<usize>,
    /// The base of the blossom each vertex lies in (itself if none).
    base: Vec<usize>,
    /// Outer vertices: reached at an even distance from the root.
    outer: Vec<bool>,
}

impl<'g> Blossom<'g> {
    fn new(graph: &'g [Vec<usize>]) -> Self {
        let n = graph.len();
        Blossom {
            graph,
            mate: vec![NONE; n],
            parent: vec![NONE; n],
            base: (0..n).collect(),
            outer: vec![false; n],
        }
    }

    /// The nearest common base of `a` and `b` on their paths to the root.
    fn common_base(&self, mut a: usize, mut b: usize) -> usize {
        let mut seen = vec![false; self.graph.len()];
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

    /// Marks the blossom's vertices on the path from `v` down to `base`, turning
    /// the path so it can be walked from `child`.
    fn mark(&mut self, mut v: usize, base: usize, mut child: usize, in_blossom: &mut [bool]) {
        while self.base[v] != base {
            in_blossom[self.base[v]] = true;
            in_blossom[self.base[self.mate[v]]] = true;
            self.parent[v] = child;
            child = self.mate[v];
            v = self.parent[self.mate[v]];
        }
    }

    /// The free vertex an augmenting path from `root` ends at, if there is one.
    fn augmenting_path(&mut self, root: usize) -> Option<usize> {
        let n = self.graph.len();
        self.parent.fill(NONE);
        self.outer.fill(false);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.outer[root] = true;
        let mut queue = std::collections::VecDeque::from([root]);
        while let Some(v) = queue.pop_front() {
            for &to in &self.graph[v] {
                if self.base[v] == self.base[to] || self.mate[v] == to {
                    continue;
                }
                if to == root || (self.mate[to] != NONE && self.parent[self.mate[to]] != NONE) {
                    let base = self.common_base(v, to);
                    let mut in_blossom = vec![false; n];
                    self.mark(v, base, to, &mut in_blossom);
                    self.mark(to, base, v, &mut in_blossom);
                    for i in 0..n {
                        if in_blossom[self.base[i]] {
                            self.base[i] = base;
                            if !self.outer[i] {
                                self.outer[i] = true;
                                queue.push_back(i);
                            }
                        }
                    }
                } else if self.parent[to] == NONE {
                    self.parent[to] = v;
                    if self.mate[to] == NONE {
                        return Some(to);
                    }
                    let next = self.mate[to];
                    self.outer[next] = true;
                    queue.push_back(next);
                }
            }
        }
        None
    }

    /// Flips the matching along the path found, ending at the free vertex `end`.
    fn augment(&mut self, end: usize) {
        let mut v = end;
        while v != NONE {
            let p = self.parent[v];
            let next = self.mate[p];
            self.mate[v] = p;
            self.mate[p] = v;
            v = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    /// A small deterministic generator, so a failing field can be replayed.
    struct Dice(u64);

    impl Dice {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    fn longest_run(colors: &[Color]) -> usize {
        let mut best = 0;
        let mut run = 0;
        for (i, c) in colors.iter().enumerate() {
            run = if i > 0 && colors[i - 1] == *c { run + 1 } else { 1 };
            best = best.max(run);
        }
        best
    }

    fn balance(colors: &[Color]) -> i64 {
        colors.iter().map(|c| if *c == Color::Red { 1 } else { -1 }).sum()
    }

    /// Plays a Swiss of `n` players over `rounds` rounds with random results,
    /// checking every rule after every round. Answers the rounds that needed
    /// the colour rules relaxed, and the rounds played: fewer than `rounds` when
    /// a round had no pairing without a rematch (then the tournament ends).
    fn play_swiss(n: usize, rounds: usize, dice: &mut Dice) -> (usize, usize) {
        let mut field: Vec<Entrant> = (0..n).map(|id| Entrant { id, ..Entrant::default() }).collect();
        let mut relaxed = 0;
        for round in 0..rounds {
            let mut ranked = field.clone();
            ranked.sort_by_key(|e| (-e.score, e.id));
            let paired = match swiss(&ranked, Strictness::Full) {
                Some(r) => r,
                None => {
                    relaxed += 1;
                    match swiss(&ranked, Strictness::NoRematchOnly) {
                        Some(r) => r,
                        None => return (relaxed, round),
                    }
                }
            };
            let mut seen = HashSet::new();
            for p in &paired.pairs {
                assert!(seen.insert(p.red) && seen.insert(p.black), "{n}/{round}: someone twice");
                assert!(!field[p.red].opponents.contains(&p.black), "{n}/{round}: a rematch");
            }
            if let Some(b) = paired.bye {
                assert!(seen.insert(b));
                assert!(!field[b].had_bye, "{n}/{round}: a second bye");
                // Everyone ranked below had one already, or could not be spared.
                let place = ranked.iter().position(|e| e.id == b).unwrap();
                for e in &ranked[place + 1..] {
                    assert!(e.had_bye || swiss_without(&ranked, e.id).is_none(), "{n}/{round}: bye too high");
                }
            }
            assert_eq!(paired.bye.is_some(), n % 2 == 1);
            assert_eq!(seen.len(), n, "{n}/{round}: everyone is paired or has the bye");
            for p in &paired.pairs {
                let r = match dice.below(3) {
                    0 => (2, 0),
                    1 => (1, 1),
                    _ => (0, 2),
                };
                field[p.red].score += r.0;
                field[p.black].score += r.1;
                field[p.red].colors.push(Color::Red);
                field[p.black].colors.push(Color::Black);
                field[p.red].opponents.push(p.black);
                field[p.black].opponents.push(p.red);
            }
            if let Some(b) = paired.bye {
                field[b].score += 2;
                field[b].had_bye = true;
            }
            if relaxed == 0 {
                for e in &field {
                    assert!(longest_run(&e.colors) <= 2, "{n}/{round}: {:?} three in a row", e.colors);
                    assert!(balance(&e.colors).abs() <= 2, "{n}/{round}: {:?} unbalanced", e.colors);
                }
            }
        }
        (relaxed, rounds)
    }

    /// Whether the field pairs (under the full rules) with `id` left out.
    fn swiss_without(ranked: &[Entrant], id: usize) -> Option<Round> {
        let rest: Vec<Entrant> = ranked.iter().filter(|e| e.id != id).cloned().collect();
        swiss(&rest, Strictness::Full)
    }

    #[test]
    fn swiss_fields_of_5_to_64_keep_every_rule_over_all_rounds() {
        let mut dice = Dice(0x9e37_79b9_7f4a_7c15);
        for n in 5usize..=64 {
            // The usual length of a Swiss, and one of half the field.
            let usual = (usize::BITS - n.leading_zeros()) as usize + 1;
            for rounds in [usual.min(n - 1), n / 2] {
                for _ in 0..2 {
                    assert_eq!(play_swiss(n, rounds, &mut dice), (0, rounds), "{n} players, {rounds} rounds");
                }
            }
        }
    }

    #[test]
    fn the_longest_swiss_never_pairs_a_rematch() {
        // Players - 1 rounds: late rounds may need the colour rules relaxed, and
        // the last may have no pairing without a rematch at all (the earlier
        // rounds' pairings fixed that); then it ends early, never with a rematch.
        let mut dice = Dice(0x2545_f491_4f6c_dd1d);
        let (mut relaxed, mut short, mut fields) = (0, 0, 0);
        for n in 5..=24 {
            for _ in 0..3 {
                let (r, played) = play_swiss(n, n - 1, &mut dice);
                relaxed += r;
                short += usize::from(played < n - 1);
                fields += 1;
                assert!(played + 2 >= n - 1, "{n} players: only {played} rounds");
            }
        }
        eprintln!("{fields} fields: {relaxed} rounds with colours relaxed, {short} ended early");
    }

    #[test]
    fn the_bye_goes_to_the_lowest_ranked_player_without_one() {
        let mut field: Vec<Entrant> = (0..5).map(|id| Entrant { id, ..Entrant::default() }).collect();
        let first = swiss(&field, Strictness::Full).unwrap();
        assert_eq!(first.bye, Some(4));
        field[4].had_bye = true;
        let second = swiss(&field, Strictness::Full).unwrap();
        assert_eq!(second.bye, Some(3), "the last had one already");
    }

    #[test]
    fn the_upper_half_of_a_score_group_meets_the_lower_half() {
        let field: Vec<Entrant> = (0..8).map(|id| Entrant { id, ..Entrant::default() }).collect();
        let round = swiss(&field, Strictness::Full).unwrap();
        let mut met: Vec<(usize, usize)> =
            round.pairs.iter().map(|p| (p.red.min(p.black), p.red.max(p.black))).collect();
        met.sort();
        assert_eq!(met, [(0, 4), (1, 5), (2, 6), (3, 7)]);
        // Colours alternate down the boards in the first round.
        assert_eq!(round.pairs[0], Pair { red: 0, black: 4 });
        assert_eq!(round.pairs[1], Pair { red: 5, black: 1 });
    }

    #[test]
    fn a_player_due_a_colour_gets_it() {
        let mut a = Entrant { id: 0, colors: vec![Color::Red, Color::Red], ..Entrant::default() };
        let b = Entrant { id: 1, colors: vec![Color::Black], ..Entrant::default() };
        assert_eq!(a.must(), Some(Color::Black));
        assert_eq!(colors_for(&a, &b, 0), Pair { red: 1, black: 0 });
        a.colors = vec![Color::Black, Color::Red];
        assert_eq!(colors_for(&a, &b, 0), Pair { red: 1, black: 0 }, "a alternates; b evens out");
        let c = Entrant { id: 2, colors: vec![Color::Red, Color::Red], ..Entrant::default() };
        let d = Entrant { id: 3, colors: vec![Color::Red, Color::Red], ..Entrant::default() };
        let field = [c, d];
        assert_eq!(swiss(&field, Strictness::Full), None, "both must have black");
        assert!(swiss(&field, Strictness::NoRematchOnly).is_some());
    }

    #[test]
    fn nobody_meets_an_opponent_twice_even_when_the_order_would_pair_them() {
        // 0 and 2 would meet (top against the middle), but have met.
        let mut field: Vec<Entrant> = (0..4).map(|id| Entrant { id, ..Entrant::default() }).collect();
        field[0].opponents.push(2);
        field[2].opponents.push(0);
        field[1].opponents.push(3);
        field[3].opponents.push(1);
        let round = swiss(&field, Strictness::Full).unwrap();
        for p in round.pairs {
            assert!(!field[p.red].opponents.contains(&p.black));
        }
        // Two players who have met: no pairing exists.
        let mut field: Vec<Entrant> = (0..2).map(|id| Entrant { id, ..Entrant::default() }).collect();
        field[0].opponents.push(1);
        field[1].opponents.push(0);
        assert_eq!(swiss(&field, Strictness::NoRematchOnly), None);
    }

    /// The size of a maximum matching by trying everything (small graphs only).
    fn brute_force(graph: &[Vec<usize>], free: u32) -> usize {
        let Some(v) = (0..graph.len()).find(|&v| free & (1 << v) != 0) else { return 0 };
        let rest = free & !(1 << v);
        let mut best = brute_force(graph, rest);
        for &w in &graph[v] {
            if rest & (1 << w) != 0 {
                best = best.max(1 + brute_force(graph, rest & !(1 << w)));
            }
        }
        best
    }

    #[test]
    fn the_blossom_matching_is_as_large_as_any() {
        let mut dice = Dice(0x1234_5678_9abc_def1);
        for _ in 0..2000 {
            let n = 2 + dice.below(11) as usize;
            let mut graph = vec![Vec::new(); n];
            for a in 0..n {
                for b in a + 1..n {
                    if dice.below(100) < 30 {
                        graph[a].push(b);
                        graph[b].push(a);
                    }
                }
            }
            let m = maximum_matching(&graph);
            for (a, b) in m.iter().enumerate() {
                if let Some(b) = *b {
                    assert_eq!(m[b], Some(a));
                    assert!(graph[a].contains(&b));
                }
            }
            let size = m.iter().filter(|x| x.is_some()).count() / 2;
            assert_eq!(size, brute_force(&graph, (1u32 << n) - 1), "{graph:?}");
        }
    }

    #[test]
    fn a_round_robin_meets_everyone_once_with_colours_alternating() {
        for n in 3..=24 {
            let rounds = round_robin(n);
            assert_eq!(rounds.len(), if n % 2 == 0 { n - 1 } else { n }, "{n}");
            let mut met = HashSet::new();
            let mut colors = vec![Vec::new(); n];
            let mut rests = vec![0; n];
            for r in &rounds {
                let mut seen = HashSet::new();
                for p in &r.pairs {
                    assert!(met.insert((p.red.min(p.black), p.red.max(p.black))), "{n}: a rematch");
                    assert!(seen.insert(p.red) && seen.insert(p.black));
                    colors[p.red].push(Color::Red);
                    colors[p.black].push(Color::Black);
                }
                assert_eq!(r.bye.is_some(), n % 2 == 1);
                if let Some(b) = r.bye {
                    rests[b] += 1;
                    seen.insert(b);
                }
                assert_eq!(seen.len(), n);
            }
            assert_eq!(met.len(), n * (n - 1) / 2, "{n}: everyone met");
            for (p, c) in colors.iter().enumerate() {
                assert!(longest_run(c) <= 2, "{n}: player {p} {c:?}");
                assert!(balance(c).abs() <= 1, "{n}: player {p} {c:?}");
            }
            if n % 2 == 1 {
                assert!(rests.iter().all(|&r| r == 1), "{n}: each rests once");
            }
        }
    }

    #[test]
    fn a_round_robin_starts_like_the_berger_table() {
        let first = &round_robin(6)[0];
        let mut met: Vec<(usize, usize)> =
            first.pairs.iter().map(|p| (p.red.min(p.black), p.red.max(p.black))).collect();
        met.sort();
        assert_eq!(met, [(0, 5), (1, 4), (2, 3)]);
    }
}
