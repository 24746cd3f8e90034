//! A tournament's order: points (a win 1, a draw ½, a Swiss bye 1, a forfeit
//! won 1), then the tie-break, then wins, then seed.
//!
//! The tie-break of a round-robin is Sonneborn-Berger: the points of every
//! opponent beaten plus half the points of every opponent drawn with. That of a
//! Swiss is Buchholz: the sum of the opponents' points (a bye adds nothing).
//! Forfeits count as games for both, since the pairing was made. Pure: players
//! by number (their seed, 0 the top), points in halves and tie-breaks in
//! quarters, so every sum is exact.

use xiangqi::Color;

use crate::model::{PairingResult, TournamentFormat};

/// A settled pairing: a game's result, a forfeit, or a bye (`black` none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settled {
    pub red: usize,
    pub black: Option<usize>,
    pub result: PairingResult,
}

/// One line of the standings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    pub player: usize,
    /// Half points.
    pub points: i64,
    /// Sonneborn-Berger or Buchholz, in quarter points.
    pub tiebreak: i64,
    /// Wins, forfeits won included.
    pub wins: i64,
}

/// The standings of `players` players after the settled pairings, best first.
pub fn standings(format: TournamentFormat, players: usize, settled: &[Settled]) -> Vec<Standing> {
    let mut lines: Vec<Standing> =
        (0..players).map(|player| Standing { player, points: 0, tiebreak: 0, wins: 0 }).collect();
    for s in settled {
        lines[s.red].points += s.result.half_points(Color::Red);
        if let Some(b) = s.black {
            lines[b].points += s.result.half_points(Color::Black);
        }
        for (who, side) in sides(s) {
            if s.black.is_some() && s.result.half_points(side) == 2 {
                lines[who].wins += 1;
            }
        }
    }
    let points: Vec<i64> = lines.iter().map(|l| l.points).collect();
    for s in settled {
        let Some(black) = s.black else { continue };
        for (who, side) in sides(s) {
            let opponent = if who == s.red { black } else { s.red };
            lines[who].tiebreak += match format {
                TournamentFormat::RoundRobin => s.result.half_points(side) * points[opponent],
                TournamentFormat::Swiss => 2 * points[opponent],
            };
        }
    }
    lines.sort_by_key(|l| (-l.points, -l.tiebreak, -l.wins, l.player));
    lines
}

fn sides(s: &Settled) -> impl Iterator<Item = (usize, Color)> {
    std::iter::once((s.red, Color::Red)).chain(s.black.map(|b| (b, Color::Black)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(red: usize, black: usize, result: PairingResult) -> Settled {
        Settled { red, black: Some(black), result }
    }

    #[test]
    fn sonneborn_berger_weighs_results_by_the_opponents_points() {
        use PairingResult::*;
        // Four players, everyone against everyone:
        // 0 beats 1 and 2, draws 3: 2.5. 1 beats 2 and 3: 2. 2 beats 3: 1. 3: 0.5.
        let settled = [
            game(0, 1, Red),
            game(2, 0, Black),
            game(0, 3, Draw),
            game(1, 2, Red),
            game(3, 1, Black),
            game(2, 3, Red),
        ];
        let s = standings(TournamentFormat::RoundRobin, 4, &settled);
        let order: Vec<(usize, i64, i64)> = s.iter().map(|l| (l.player, l.points, l.tiebreak)).collect();
        // SB of 0: 1·2 + 1·1 + ½·½ = 3.25 -> 13 quarters; of 1: 1 + ½ = 1.5 -> 6;
        // of 2: ½ -> 2; of 3: ½·2.5 = 1.25 -> 5.
        assert_eq!(order, [(0, 5, 13), (1, 4, 6), (2, 2, 2), (3, 1, 5)]);
    }

    #[test]
    fn a_tie_on_points_goes_to_the_tie_break_then_wins_then_seed() {
        use PairingResult::*;
        // Three players all draw: equal in everything but seed.
        let settled = [game(0, 1, Draw), game(1, 2, Draw), game(2, 0, Draw)];
        let s = standings(TournamentFormat::RoundRobin, 3, &settled);
        assert_eq!(s.iter().map(|l| l.player).collect::<Vec<_>>(), [0, 1, 2]);
        // 2 beat the strong one, 1 the weak one: both on 1 point, 2 ahead on SB.
        let settled = [game(0, 3, Red), game(0, 4, Red), game(2, 0, Red), game(1, 4, Red), game(3, 2, Red)];
        let s = standings(TournamentFormat::RoundRobin, 5, &settled);
        let pos = |p: usize| s.iter().position(|l| l.player == p).unwrap();
        assert!(pos(2) < pos(1), "{s:?}");
    }

    #[test]
    fn buchholz_sums_the_opponents_points_and_a_bye_adds_nothing() {
        use PairingResult::*;
        // Round 1: 0 beats 1, 2 beats 3, 4 has the bye. Round 2: 4 beats 0, 2 draws 1, 3 has the bye.
        let settled = [
            game(0, 1, Red),
            game(2, 3, Red),
            Settled { red: 4, black: None, result: Bye },
            game(4, 0, Red),
            game(2, 1, Draw),
            Settled { red: 3, black: None, result: Bye },
        ];
        let s = standings(TournamentFormat::Swiss, 5, &settled);
        let line = |p: usize| *s.iter().find(|l| l.player == p).unwrap();
        // Points: 0:1, 1:0.5, 2:1.5, 3:1, 4:2.
        assert_eq!([0, 1, 2, 3, 4].map(|p| line(p).points), [2, 1, 3, 2, 4]);
        // Buchholz: 0 met 1 and 4: 2.5; 2 met 3 and 1: 1.5; 4 met 0 only: 1.
        assert_eq!([0, 2, 4].map(|p| line(p).tiebreak), [10, 6, 4]);
        assert_eq!(line(4).wins, 1, "a bye is not a win");
        assert_eq!(s[0].player, 4);
    }

    #[test]
    fn a_forfeit_scores_like_a_win_for_the_one_who_stayed() {
        use PairingResult::*;
        let settled = [game(0, 1, RedByForfeit), game(2, 1, BlackByForfeit)];
        let s = standings(TournamentFormat::RoundRobin, 3, &settled);
        let line = |p: usize| *s.iter().find(|l| l.player == p).unwrap();
        assert_eq!((line(0).points, line(0).wins), (2, 1));
        assert_eq!((line(1).points, line(1).wins), (2, 1));
        assert_eq!(line(2).points, 0);
    }
}
