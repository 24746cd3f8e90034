//! A tree of moves: a record's main line with its variations and comments.
//!
//! The tree is flat, an arena of nodes that name their parent and children by
//! index, so that building, walking, cloning, comparing, printing and dropping
//! one are loops over a vector whatever its shape: a record's author decides
//! how long a line or how deep a nesting of variations is, and none of it may
//! become a frame on a reader's stack.
//!
//! ```
//! use xiangqi::{Position, Standard, notation::tree::MoveTree};
//!
//! let pos = Position::<Standard>::startpos();
//! let (cannon, pawn) = (pos.parse_move("h2e2").unwrap(), pos.parse_move("c3c4").unwrap());
//! let mut tree = MoveTree::new();
//! let main = tree.add(MoveTree::ROOT, cannon);
//! let side = tree.add(MoveTree::ROOT, pawn);
//! tree.set_comment(side, "quieter");
//! assert_eq!(tree.main_line(), [cannon]);
//! assert_eq!(tree.children(MoveTree::ROOT), [main, side]);
//! assert_eq!(tree.preorder().collect::<Vec<_>>(), [MoveTree::ROOT, main, side]);
//! ```

use crate::types::Move;

/// One position of a tree: the move that led there (none at the start), a
/// comment on it, and the moves that may follow, the main one first.
#[derive(Clone, Debug)]
pub struct MoveNode {
    mv: Option<Move>,
    comment: String,
    parent: Option<usize>,
    children: Vec<usize>,
}

/// A tree of moves from a start position; node [`MoveTree::ROOT`] is the start.
#[derive(Clone, Debug)]
pub struct MoveTree {
    nodes: Vec<MoveNode>,
}

impl Default for MoveTree {
    fn default() -> Self {
        MoveTree::new()
    }
}

impl MoveTree {
    /// The start position's node.
    pub const ROOT: usize = 0;

    /// A tree with no moves.
    pub fn new() -> MoveTree {
        MoveTree {
            nodes: vec![MoveNode { mv: None, comment: String::new(), parent: None, children: vec![] }],
        }
    }

    /// A plain line of moves, without comments or variations.
    pub fn line(moves: &[Move]) -> MoveTree {
        let mut tree = MoveTree::new();
        tree.nodes.reserve(moves.len());
        let mut at = MoveTree::ROOT;
        for &m in moves {
            at = tree.add(at, m);
        }
        tree
    }

    /// Nodes, the start included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree has no moves.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    /// Adds a move after a node, after the moves it has already (the main
    /// line if it had none, else a variation); the new node.
    ///
    /// # Panics
    /// If `parent` is no node of this tree.
    pub fn add(&mut self, parent: usize, mv: Move) -> usize {
        let id = self.nodes.len();
        self.nodes[parent].children.push(id);
        self.nodes.push(MoveNode {
            mv: Some(mv),
            comment: String::new(),
            parent: Some(parent),
            children: vec![],
        });
        id
    }

    /// The move that led to a node; none for the start (or no such node).
    pub fn mv(&self, id: usize) -> Option<Move> {
        self.nodes.get(id)?.mv
    }

    /// A node's comment; empty for none.
    pub fn comment(&self, id: usize) -> &str {
        self.nodes.get(id).map_or("", |n| n.comment.as_str())
    }

    /// Sets a node's comment (the start's is the comment before the first move).
    ///
    /// # Panics
    /// If `id` is no node of this tree.
    pub fn set_comment(&mut self, id: usize, comment: impl Into<String>) {
        self.nodes[id].comment = comment.into();
    }

    /// The node a node follows; none for the start.
    pub fn parent(&self, id: usize) -> Option<usize> {
        self.nodes.get(id)?.parent
    }

    /// The moves that may follow a node, the main line's first.
    pub fn children(&self, id: usize) -> &[usize] {
        self.nodes.get(id).map_or(&[], |n| n.children.as_slice())
    }

    /// The main line: the first move after each node, from the start.
    pub fn main_line(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        let mut at = MoveTree::ROOT;
        while let Some(&next) = self.children(at).first() {
            moves.extend(self.mv(next));
            at = next;
        }
        moves
    }

    /// Moves from the start to a node.
    pub fn path(&self, id: usize) -> Vec<Move> {
        let mut moves = Vec::new();
        let mut at = Some(id);
        while let Some(n) = at.and_then(|i| self.nodes.get(i)) {
            moves.extend(n.mv);
            at = n.parent;
        }
        moves.reverse();
        moves
    }

    /// Every node, each before the moves that follow it and the main line
    /// before its variations: the order a record writes them in.
    pub fn preorder(&self) -> Preorder<'_> {
        Preorder { tree: self, stack: vec![MoveTree::ROOT] }
    }
}

/// The nodes of a tree in [`MoveTree::preorder`]'s order.
pub struct Preorder<'a> {
    tree: &'a MoveTree,
    stack: Vec<usize>,
}

impl Iterator for Preorder<'_> {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        let id = self.stack.pop()?;
        self.stack.extend(self.tree.children(id).iter().rev());
        Some(id)
    }
}

/// Two trees are equal when they hold the same moves and comments in the same
/// places, whatever order their nodes were added in.
impl PartialEq for MoveTree {
    fn eq(&self, other: &MoveTree) -> bool {
        let mut pairs = vec![(MoveTree::ROOT, MoveTree::ROOT)];
        while let Some((a, b)) = pairs.pop() {
            let (x, y) = (&self.nodes[a], &other.nodes[b]);
            if x.mv != y.mv || x.comment != y.comment || x.children.len() != y.children.len() {
                return false;
            }
            pairs.extend(x.children.iter().copied().zip(y.children.iter().copied()));
        }
        true
    }
}

impl Eq for MoveTree {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Position, Standard};

    #[test]
    fn equality_is_of_shape_not_of_the_order_nodes_were_added_in() {
        let pos = Position::<Standard>::startpos();
        let (a, b) = (pos.parse_move("h2e2").unwrap(), pos.parse_move("c3c4").unwrap());
        let mut after = pos.clone();
        after.play_unchecked(a);
        let reply = after.parse_move("h9g7").unwrap();
        let mut first = MoveTree::new();
        let main = first.add(MoveTree::ROOT, a);
        first.add(MoveTree::ROOT, b);
        first.add(main, reply);
        let mut second = MoveTree::new();
        let main = second.add(MoveTree::ROOT, a);
        second.add(main, reply);
        second.add(MoveTree::ROOT, b);
        assert_eq!(first, second);
        assert_eq!(first.path(3), [a, reply]);
        second.set_comment(main, "!");
        assert_ne!(first, second);
        assert_ne!(MoveTree::line(&[a]), MoveTree::line(&[b]));
    }
}
