//! Conditional moves: what a correspondence player sends as "if they play X,
//! I answer Y", checked against the game before it is kept. Each line begins
//! with the opponent's next move and ends with an answer; every move must be
//! legal where it stands; lines that begin alike form a tree in which each of
//! the opponent's moves has one answer. The tree is a user's input: the moves
//! sent in all are bounded like the nodes of any tree a request may hold, and
//! its branching nested no deeper than a record's variations may be. The
//! answering itself, in the transaction of the opponent's move, is
//! [`Conditionals::answer`]'s.

use std::collections::HashMap;

use xiangqi::notation::limits::Limits;

use super::{
    board::{Board, MoveNames},
    refusal::{RecordLimit, Refusal},
};
use crate::model::games::Conditionals;

/// The lines sent, checked from `board` (the opponent to move) and written as
/// the board writes stored moves; a line that another one continues, or that
/// repeats one, is kept once.
pub fn prepare(board: &Board, lines: &[Vec<String>]) -> Result<Conditionals, Refusal> {
    let limits = Limits::SITE;
    let sent: usize = lines.iter().map(Vec::len).sum();
    if sent > limits.nodes_per_tree {
        return Err(too_many(RecordLimit::NodesPerTree, limits.nodes_per_tree));
    }
    let mut written = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        let number = count(i);
        if line.is_empty() || line.len() % 2 == 1 {
            return Err(Refusal::ConditionalEndsWithTheirs { line: number });
        }
        let mut at = board.clone();
        let mut moves = Vec::with_capacity(line.len());
        for (j, text) in line.iter().enumerate() {
            let checked = at.check_text(text).map_err(|why| Refusal::ConditionalIllegal {
                line: number,
                number: count(j),
                text: text.clone(),
                why,
            })?;
            moves.push(at.names(checked.mv()).iccs);
            at.play_checked(checked);
        }
        written.push(moves);
    }
    let keep = {
        let tree = Tree::of(&written)?;
        if tree.nesting() > limits.variation_depth {
            return Err(too_many(RecordLimit::VariationDepth, limits.variation_depth));
        }
        tree.ends()
    };
    Ok(Conditionals::checked(
        written.into_iter().zip(keep).filter_map(|(line, kept)| kept.then_some(line)).collect(),
    ))
}

/// Kept lines with every move's written forms, read from `board`, where they
/// begin.
pub fn named(board: &Board, kept: &Conditionals) -> Vec<Vec<MoveNames>> {
    let line = |moves: &Vec<String>| {
        let mut at = board.clone();
        let name = |mv: &String| {
            let checked = at.check_text(mv).ok()?;
            let names = at.names(checked.mv());
            at.play_checked(checked);
            Some(names)
        };
        moves.iter().map_while(name).collect()
    };
    kept.lines().iter().map(line).collect()
}

fn count(index: usize) -> u32 {
    u32::try_from(index + 1).unwrap_or(u32::MAX)
}

fn too_many(limit: RecordLimit, allowed: usize) -> Refusal {
    Refusal::RecordLimit { limit, allowed: allowed as u64 }
}

/// The lines as a tree of moves, each node numbered, the root 0.
struct Tree<'a> {
    /// The node reached by a move from a node.
    child: HashMap<(usize, &'a str), usize>,
    /// Each node's children, counted.
    children: Vec<usize>,
    /// Each line's nodes, in order.
    paths: Vec<Vec<usize>>,
}

impl<'a> Tree<'a> {
    /// Refuses two answers to one move of the opponent's.
    fn of(lines: &'a [Vec<String>]) -> Result<Tree<'a>, Refusal> {
        let mut tree =
            Tree { child: HashMap::new(), children: vec![0], paths: Vec::with_capacity(lines.len()) };
        let mut answer: HashMap<usize, &'a str> = HashMap::new();
        for line in lines {
            let mut node = 0;
            let mut path = Vec::with_capacity(line.len());
            for (j, mv) in line.iter().enumerate() {
                // Odd places hold my answers: the node before is their move.
                if j % 2 == 1
                    && let Some(first) = answer.insert(node, mv)
                    && first != mv
                {
                    return Err(Refusal::ConditionalTwoAnswers {
                        after: line[..j].join(" "),
                        first: first.to_string(),
                        second: mv.clone(),
                    });
                }
                let next = tree.children.len();
                node = *tree.child.entry((node, mv.as_str())).or_insert_with(|| {
                    tree.children[node] += 1;
                    next
                });
                if node == next {
                    tree.children.push(0);
                }
                path.push(node);
            }
            tree.paths.push(path);
        }
        Ok(tree)
    }

    /// The most places along one line where the tree branches: how deep its
    /// variations would nest, written as a record.
    fn nesting(&self) -> usize {
        let branches = |path: &Vec<usize>| {
            std::iter::once(&0).chain(&path[..path.len() - 1]).filter(|&&n| self.children[n] > 1).count()
        };
        self.paths.iter().map(branches).max().unwrap_or(0)
    }

    /// Which lines to keep: those that end where the tree does, each once.
    fn ends(&self) -> Vec<bool> {
        let mut seen = std::collections::HashSet::new();
        let end = |path: &Vec<usize>| path.last().is_some_and(|&n| self.children[n] == 0 && seen.insert(n));
        self.paths.iter().map(end).collect()
    }
}

#[cfg(test)]
mod tests {
    use xiangqi::{RuleSet, Variant};

    use super::*;
    use crate::domain::refusal::Illegality;

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    fn board() -> Board {
        Board::from_fen(Variant::Standard, START, RuleSet::Asian).unwrap()
    }

    fn lines(text: &[&str]) -> Vec<Vec<String>> {
        text.iter().map(|l| l.split(' ').map(str::to_string).collect()).collect()
    }

    #[test]
    fn lines_are_written_as_stored_moves_and_kept_once() {
        let sent =
            lines(&["炮二平五 h9g7", "h2e2 h9g7 h0g2 i9h9", "h2e2 h9g7", "b2e2 b9c7", "h2e2 h9g7 h0g2 i9h9"]);
        let kept = prepare(&board(), &sent).unwrap();
        assert_eq!(kept.lines(), lines(&["h2e2 h9g7 h0g2 i9h9", "b2e2 b9c7"]).as_slice());
    }

    #[test]
    fn the_opponent_s_move_finds_its_answer_and_the_rest_of_its_lines() {
        let kept =
            prepare(&board(), &lines(&["h2e2 h9g7 h0g2 i9h9", "h2e2 h9g7 b0c2 b9c7", "b2e2 b9c7"])).unwrap();
        let (answer, rest) = kept.answer("h2e2");
        assert_eq!(answer.as_deref(), Some("h9g7"));
        assert_eq!(rest.lines(), lines(&["h0g2 i9h9", "b0c2 b9c7"]).as_slice());
        let (answer, rest) = rest.answer("h0g2");
        assert_eq!(answer.as_deref(), Some("i9h9"));
        assert!(rest.is_empty(), "the line ended with its answer");
        // Any other move drops the whole tree.
        let (answer, rest) = kept.answer("c3c4");
        assert_eq!(answer, None);
        assert!(rest.is_empty());
    }

    #[test]
    fn what_is_stored_reads_back_the_same() {
        let kept = prepare(&board(), &lines(&["h2e2 h9g7 h0g2 i9h9", "b2e2 b9c7"])).unwrap();
        let stored = kept.to_stored();
        assert_eq!(stored.as_deref(), Some("h2e2 h9g7 h0g2 i9h9\nb2e2 b9c7"));
        assert_eq!(Conditionals::from_stored(stored.as_deref()), kept);
        assert_eq!(Conditionals::default().to_stored(), None);
        assert!(Conditionals::from_stored(None).is_empty());
    }

    #[test]
    fn bad_lines_are_refused_with_where_they_go_wrong() {
        let b = board();
        assert_eq!(prepare(&b, &lines(&["h2e2"])), Err(Refusal::ConditionalEndsWithTheirs { line: 1 }));
        assert_eq!(
            prepare(&b, &[vec!["h2e2".into(), "h9g7".into()], vec![]]),
            Err(Refusal::ConditionalEndsWithTheirs { line: 2 })
        );
        // Black's move first: it is Red's turn.
        let Err(Refusal::ConditionalIllegal { line: 1, number: 1, text, why: Illegality::NotYourPiece }) =
            prepare(&b, &lines(&["h9g7 h2e2"]))
        else {
            panic!("Black cannot begin")
        };
        assert_eq!(text, "h9g7");
        assert!(matches!(
            prepare(&b, &lines(&["h2e2 h9g7", "h2e2 h9h0"])),
            Err(Refusal::ConditionalIllegal { line: 2, number: 2, .. })
        ));
        assert_eq!(
            prepare(&b, &lines(&["h2e2 h9g7", "h2e2 b9c7"])),
            Err(Refusal::ConditionalTwoAnswers {
                after: "h2e2".into(),
                first: "h9g7".into(),
                second: "b9c7".into()
            })
        );
    }

    #[test]
    fn a_tree_is_bounded_in_moves_and_in_nesting() {
        let b = board();
        // More moves sent than a tree may hold, even when they repeat.
        let many = vec![vec!["h2e2".to_string(), "h9g7".to_string()]; Limits::SITE.nodes_per_tree / 2 + 1];
        assert_eq!(
            prepare(&b, &many),
            Err(Refusal::RecordLimit {
                limit: RecordLimit::NodesPerTree,
                allowed: Limits::SITE.nodes_per_tree as u64
            })
        );
        assert!(prepare(&b, &many[..Limits::SITE.nodes_per_tree / 2]).is_ok());
    }

    #[test]
    fn nesting_counts_the_branches_along_the_deepest_line() {
        // A side line leaving at every exchange of a main line: the main
        // line's answer at each step has a second move of theirs beside it.
        let mut main: Vec<String> = Vec::new();
        let mut sent = Vec::new();
        for k in 0..5 {
            let mut side = main.clone();
            side.extend([format!("s{k}"), format!("t{k}")]);
            sent.push(side);
            main.extend([format!("m{k}"), format!("n{k}")]);
        }
        sent.push(main);
        let tree = Tree::of(&sent).unwrap();
        assert_eq!(tree.nesting(), 5);
        assert_eq!(Tree::of(&sent[4..]).unwrap().nesting(), 1, "the last side line alone branches once");
        assert_eq!(Tree::of(&sent[5..]).unwrap().nesting(), 0);
    }
}
