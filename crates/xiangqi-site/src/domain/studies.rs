//! Studies: shared analysis in chapters. A chapter is a board, its rules and a
//! start position with a tree of moves; each node of the tree may carry a
//! comment, arrows and marked points. The owner invites members who view or
//! edit; a public study is seen by everyone, a private one by its members.
//!
//! Every edit names the study's version it was made on: an edit on an older
//! version is refused ([`Refusal::StudyStale`]) and nothing changes, so two
//! editors never overwrite each other unseen. Each edit that commits is told
//! to everyone looking at the study.
//!
//! What one user can make the server hold is bounded: studies owned, chapters
//! per study, nodes per chapter, members, comment and title lengths, and the
//! shapes on a node.

use std::{net::IpAddr, sync::Arc};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use xiangqi::{
    RuleSet, Variant,
    notation::{limits::Limits, pgn, tree::MoveTree},
};

use super::{
    accounts::{self, new_id},
    analysis::RateLimit,
    board::{Board, MoveNames},
    events::{Events, Happening},
    people::People,
    refusal::{Act, Refusal, Result, TextField, Window},
};

use crate::model::board::BoardSpec;
use crate::model::page::{Page, Paged};
use crate::model::studies::{StudyRecord, StudyShelf};
use crate::model::{
    Named, NoticeKind, named_enum,
    studies::{StudyRole, Visibility},
};
use crate::parsing::ParsePool;
use crate::store::{ChapterRow, MemberRow, Store, StudyChange, Written};

named_enum! {
    /// The colour of an arrow or a marked point.
    "a brush" Brush {
        Green = "green",
        Red = "red",
        Blue = "blue",
        Yellow = "yellow",
    }
}

/// Studies one user may own.
pub const MAX_STUDIES: i64 = 50;
/// Chapters in one study.
pub const MAX_CHAPTERS: usize = 32;
/// Nodes (positions) in one chapter's tree, its start included: the
/// record limits' nodes per tree.
pub const MAX_NODES: usize = Limits::SITE.nodes_per_tree;
/// Members of one study besides its owner.
pub const MAX_MEMBERS: usize = 30;
/// Characters of a comment on a node.
pub const MAX_COMMENT_CHARS: usize = 2000;
/// Characters of a study's or a chapter's title.
pub const MAX_TITLE_CHARS: usize = 80;
/// Arrows and marked points on one node, together.
pub const MAX_SHAPES: usize = 32;
/// Edits one user may make in a minute, over all studies (each is written,
/// read back and sent to everyone watching).
pub const EDITS_PER_MINUTE: u32 = 120;

/// An arrow from one point to another.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Arrow {
    /// A cell name (`h2`; `e4` on the hex board).
    pub from: String,
    pub to: String,
    pub brush: Brush,
}

/// A marked point.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Mark {
    /// A cell name.
    pub at: String,
    pub brush: Brush,
}

/// A node of a chapter's tree: the position after `mv` (none at the start).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Node {
    pub id: u32,
    pub parent: Option<u32>,
    /// The move that led here, by its cells (`h2e2`).
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// The moves that may follow, the main line first.
    pub children: Vec<u32>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub comment: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arrows: Vec<Arrow>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<Mark>,
}

/// A chapter's tree of moves, as stored (JSON). Node 0 is the start; ids are
/// never reused, so a client's node id names one node for ever.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tree {
    next: u32,
    nodes: Vec<Node>,
}

impl Default for Tree {
    fn default() -> Self {
        let root = Node {
            id: 0,
            parent: None,
            mv: None,
            children: vec![],
            comment: String::new(),
            arrows: vec![],
            marks: vec![],
        };
        Tree { next: 1, nodes: vec![root] }
    }
}

impl Tree {
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    fn index(&self, id: u32) -> Option<usize> {
        self.nodes.iter().position(|n| n.id == id)
    }

    fn node(&self, id: u32) -> Option<&Node> {
        self.index(id).map(|i| &self.nodes[i])
    }

    /// The moves from the start to a node.
    fn path(&self, id: u32) -> Vec<String> {
        let mut moves = Vec::new();
        let mut at = self.node(id);
        while let Some(n) = at {
            moves.extend(n.mv.clone());
            at = n.parent.and_then(|p| self.node(p));
        }
        moves.reverse();
        moves
    }

    /// Makes the line to a node the main line; whether anything changed.
    fn make_main(&mut self, id: u32) -> bool {
        let mut changed = false;
        let mut at = id;
        while let Some(parent) = self.node(at).and_then(|n| n.parent) {
            let Some(p) = self.index(parent) else { break };
            let children = &mut self.nodes[p].children;
            if let Some(i) = children.iter().position(|&c| c == at).filter(|&i| i > 0) {
                children.remove(i);
                children.insert(0, at);
                changed = true;
            }
            at = parent;
        }
        changed
    }

    /// Adds a move after a node (the main line if the node had none, else a
    /// variation); the child that has this move already, if there is one.
    fn add(&mut self, parent: u32, mv: String) -> u32 {
        let Some(p) = self.index(parent) else { return parent };
        if let Some(&existing) =
            self.nodes[p].children.iter().find(|&&c| self.node(c).and_then(|n| n.mv.as_deref()) == Some(&mv))
        {
            return existing;
        }
        let id = self.next;
        self.next += 1;
        self.nodes[p].children.push(id);
        self.nodes.push(Node {
            id,
            parent: Some(parent),
            mv: Some(mv),
            children: vec![],
            comment: String::new(),
            arrows: vec![],
            marks: vec![],
        });
        id
    }

    /// Removes a node and everything after it.
    fn remove(&mut self, id: u32) {
        let mut gone = vec![id];
        let mut i = 0;
        while i < gone.len() {
            if let Some(n) = self.node(gone[i]) {
                gone.extend(n.children.iter().copied());
            }
            i += 1;
        }
        self.nodes.retain(|n| !gone.contains(&n.id));
        for n in &mut self.nodes {
            n.children.retain(|c| *c != id);
        }
    }

    /// Adds a tree of moves read from a record after a node, with their
    /// comments (arrows and marks read back from `[%cal]` and `[%csl]`),
    /// walking it in order with no recursion.
    fn graft(&mut self, at: u32, moves: &MoveTree) -> Result<()> {
        let board = xiangqi::Position::<xiangqi::Standard>::startpos();
        let on_board = |c: &str| xiangqi::Position::<xiangqi::Standard>::tables().parse_cell(c).is_some();
        // Each node of the record's tree as a node of this one.
        let mut placed = vec![at; moves.len()];
        for id in moves.preorder() {
            let (Some(parent), Some(mv)) = (moves.parent(id), moves.mv(id)) else { continue };
            if self.nodes.len() >= MAX_NODES {
                return Err(Refusal::StudyNodes { allowed: MAX_NODES as u32 }.into());
            }
            let node = self.add(placed[parent], board.move_name(mv));
            placed[id] = node;
            let (comment, mut arrows, mut marks) = shapes_of(moves.comment(id));
            arrows.retain(|a| on_board(&a.from) && on_board(&a.to));
            marks.retain(|m| on_board(&m.at));
            if let Some(i) = self.index(node) {
                let n = &mut self.nodes[i];
                n.comment = comment.chars().take(MAX_COMMENT_CHARS).collect();
                n.arrows = arrows.into_iter().take(MAX_SHAPES).collect();
                n.marks = marks.into_iter().take(MAX_SHAPES - n.arrows.len()).collect();
            }
        }
        Ok(())
    }

    /// A main line from the start.
    #[cfg(test)]
    fn line(moves: &[String]) -> Tree {
        let mut tree = Tree::default();
        let mut at = 0;
        for m in moves {
            at = tree.add(at, m.clone());
        }
        tree
    }
}

/// A comment's words, and the arrows and marked points its `[%cal ...]` and
/// `[%csl ...]` commands name (`Gh2e2`: a brush's initial, then points).
fn shapes_of(comment: &str) -> (String, Vec<Arrow>, Vec<Mark>) {
    let brush = |c: char| match c.to_ascii_uppercase() {
        'R' => Brush::Red,
        'B' => Brush::Blue,
        'Y' => Brush::Yellow,
        _ => Brush::Green,
    };
    let (mut words, mut arrows, mut marks) = (String::new(), Vec::new(), Vec::new());
    let mut rest = comment;
    while let Some(open) = rest.find("[%") {
        words.push_str(&rest[..open]);
        let Some(close) = rest[open..].find(']') else {
            words.push_str(&rest[open..]);
            rest = "";
            break;
        };
        let command = &rest[open + 2..open + close];
        rest = &rest[open + close + 1..];
        let (name, list) = command.split_once(' ').unwrap_or((command, ""));
        for item in list.split(',').map(str::trim).filter(|i| i.is_ascii() && i.len() >= 3) {
            let (b, cells) = (brush(item.chars().next().unwrap_or('G')), &item[1..]);
            match (name, cells.len()) {
                ("csl", 2) => marks.push(Mark { at: cells.to_string(), brush: b }),
                ("cal", 4) => {
                    arrows.push(Arrow { from: cells[..2].to_string(), to: cells[2..].to_string(), brush: b })
                }
                _ => {}
            }
        }
    }
    words.push_str(rest);
    (words.split_whitespace().collect::<Vec<_>>().join(" "), arrows, marks)
}

/// A node with what its position is: the FEN after it and its move's names.
#[derive(Clone, Debug)]
pub struct Placed<'a> {
    pub node: &'a Node,
    /// Moves from the chapter's start.
    pub ply: usize,
    pub fen: String,
    pub names: Option<MoveNames>,
}

/// A chapter: its row and its tree, read.
#[derive(Clone, Debug)]
pub struct Chapter {
    pub row: ChapterRow,
    pub tree: Tree,
}

impl Chapter {
    fn from_row(row: ChapterRow) -> Result<Chapter> {
        let tree = serde_json::from_str(&row.tree)
            .map_err(|e| super::refusal::Error::broken(format!("chapter {}: {e}", row.id)))?;
        Ok(Chapter { row, tree })
    }

    /// The chapter's start. A study is analysis and its records history: a
    /// move is refused only when the board refuses it, whatever the rule set
    /// would have judged before it (a repetition a game went on from).
    fn start(&self) -> Result<Board> {
        Board::record_from_fen(self.row.variant, &self.row.start_fen, self.row.rules)
            .map_err(|e| super::refusal::Error::broken(format!("chapter {}: {e}", self.row.id)))
    }

    /// Every node in tree order (each before its children), placed.
    pub fn placed(&self) -> Vec<Placed<'_>> {
        let Ok(start) = self.start() else { return vec![] };
        let mut out = Vec::with_capacity(self.tree.nodes.len());
        let mut stack: Vec<(u32, Board, usize, Option<MoveNames>)> = vec![(0, start, 0, None)];
        while let Some((id, board, ply, names)) = stack.pop() {
            let Some(node) = self.tree.node(id) else { continue };
            for &child in node.children.iter().rev() {
                let Some(mv) = self.tree.node(child).and_then(|c| c.mv.as_deref()) else { continue };
                let Ok(m) = board.parse_legal(mv) else { continue };
                let mut next = board.clone();
                let child_names = next.names(m);
                if next.play(m).is_ok() {
                    stack.push((child, next, ply + 1, Some(child_names)));
                }
            }
            out.push(Placed { node, ply, fen: board.fen(), names });
        }
        out
    }

    /// The board at a node, with the moves that led there played.
    fn board_at(&self, id: u32) -> Result<Board> {
        let mut board = self.start()?;
        for mv in self.tree.path(id) {
            board
                .play_name(&mv)
                .map_err(|e| super::refusal::Error::broken(format!("chapter {}: {e}", self.row.id)))?;
        }
        Ok(board)
    }

    /// The chapter as PGN with its comments (arrows and marks as `[%cal]` and
    /// `[%csl]` commands, as other study sites write them) and variations,
    /// moves in `format` (cell names on the hex board).
    pub fn pgn(&self, study: &StudyRecord, format: xiangqi::notation::pgn::Format) -> String {
        let Ok(start) = self.start() else { return String::new() };
        let comment = |n: &Node| {
            let mut parts = vec![];
            if !n.comment.is_empty() {
                parts.push(n.comment.clone());
            }
            let brush = |b: Brush| b.name()[..1].to_uppercase();
            if !n.marks.is_empty() {
                let marks: Vec<String> =
                    n.marks.iter().map(|m| format!("{}{}", brush(m.brush), m.at)).collect();
                parts.push(format!("[%csl {}]", marks.join(",")));
            }
            if !n.arrows.is_empty() {
                let arrows: Vec<String> =
                    n.arrows.iter().map(|a| format!("{}{}{}", brush(a.brush), a.from, a.to)).collect();
                parts.push(format!("[%cal {}]", arrows.join(",")));
            }
            parts.join(" ")
        };
        // The study's tree as a record's, walked in order: each node's moves
        // are added before any is followed, so that the main line stays first.
        let mut moves = MoveTree::new();
        moves.set_comment(MoveTree::ROOT, self.tree.node(0).map(comment).unwrap_or_default());
        let mut stack = vec![(0, MoveTree::ROOT, start.clone())];
        while let Some((id, at, board)) = stack.pop() {
            let Some(node) = self.tree.node(id) else { continue };
            let mut followed = Vec::with_capacity(node.children.len());
            for &c in &node.children {
                let Some(child) = self.tree.node(c) else { continue };
                let Some(m) = child.mv.as_deref().and_then(|mv| board.parse_legal(mv).ok()) else { continue };
                let mut next = board.clone();
                if next.play(m).is_err() {
                    continue;
                }
                let added = moves.add(at, m);
                moves.set_comment(added, comment(child));
                followed.push((c, added, next));
            }
            stack.extend(followed.into_iter().rev());
        }
        let tags = [
            ("Event", study.title.clone()),
            ("Site", "xiangqi study".to_string()),
            ("Round", self.row.title.clone()),
            ("Annotator", study.owner.clone()),
        ];
        start.pgn_tree(&tags, &moves, format)
    }
}

/// A study as read: its row, members and chapters.
#[derive(Clone, Debug)]
pub struct Study {
    pub row: StudyRecord,
    pub members: Vec<MemberRow>,
    pub chapters: Vec<Chapter>,
}

/// What someone may do with a study.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Access {
    None,
    View,
    Edit,
    Own,
}

impl Study {
    pub fn access(&self, user: Option<&str>) -> Access {
        let member = user.and_then(|u| self.members.iter().find(|m| m.user == u));
        match (user, member) {
            (Some(u), _) if u == self.row.owner => Access::Own,
            (_, Some(m)) if m.role == StudyRole::Edit => Access::Edit,
            (_, Some(_)) => Access::View,
            _ if self.row.visibility == Visibility::Public => Access::View,
            _ => Access::None,
        }
    }

    /// Who may see the study: everyone (`None`) or these users.
    pub fn audience(&self) -> Option<Vec<String>> {
        (self.row.visibility == Visibility::Private).then(|| {
            std::iter::once(self.row.owner.clone())
                .chain(self.members.iter().map(|m| m.user.clone()))
                .collect()
        })
    }

    fn chapter(&self, id: &str) -> Result<&Chapter> {
        self.chapters
            .iter()
            .find(|c| c.row.id == id)
            .ok_or_else(|| Refusal::NoChapter { id: id.to_string() }.into())
    }

    /// Every chapter as PGN, one game after another, moves in `format`.
    pub fn pgn(&self, format: xiangqi::notation::pgn::Format) -> String {
        self.chapters.iter().map(|c| c.pgn(&self.row, format)).collect::<Vec<_>>().join("\n")
    }
}

/// How a new chapter begins.
#[derive(Clone, Debug, Default)]
pub struct NewChapter {
    pub title: Option<String>,
    /// The board, its rules and the start position (the board's usual start
    /// if none); with a record, only its rules count.
    pub board: BoardSpec,
    /// A game record: its start, its moves with their variations and comments.
    pub pgn: Option<String>,
}

/// A change to a study.
#[derive(Clone, Debug)]
pub enum Edit {
    /// The owner renames it or makes it public or private.
    Settings {
        title: Option<String>,
        visibility: Option<Visibility>,
    },
    /// The owner adds a member (by user name) or changes a member's role.
    Invite {
        name: String,
        role: StudyRole,
    },
    /// The owner removes a member, or a member leaves.
    Remove {
        name: String,
    },
    /// A new chapter, sent from a network address (whose share of the
    /// parsing pool reads its record, if it has one).
    AddChapter(NewChapter, IpAddr),
    RenameChapter {
        chapter: String,
        title: String,
    },
    DeleteChapter {
        chapter: String,
    },
    /// Moves a chapter to a place in the list (0 the first; past the end, the last).
    PlaceChapter {
        chapter: String,
        place: u32,
    },
    /// Makes the line to a node the main line: each move on the way becomes
    /// the first of the moves from the position before it.
    MainLine {
        chapter: String,
        node: u32,
    },
    /// A move (in any notation the board reads) after a node: the main line
    /// if the node had no move after it, else a variation.
    Move {
        chapter: String,
        node: u32,
        text: String,
    },
    /// A node and everything after it.
    DeleteNode {
        chapter: String,
        node: u32,
    },
    /// A node's comment, arrows or marks (those given replace the old).
    Annotate {
        chapter: String,
        node: u32,
        comment: Option<String>,
        arrows: Option<Vec<Arrow>>,
        marks: Option<Vec<Mark>>,
    },
}

impl Edit {
    fn needs(&self) -> Access {
        match self {
            Edit::Settings { .. } | Edit::Invite { .. } | Edit::Remove { .. } => Access::Own,
            _ => Access::Edit,
        }
    }
}

fn title(text: &str, field: TextField) -> Result<String> {
    let t = text.trim();
    if t.is_empty() || t.chars().count() > MAX_TITLE_CHARS {
        return Err(Refusal::TextLength { field, min: 1, max: MAX_TITLE_CHARS as u32 }.into());
    }
    Ok(t.to_string())
}

/// A cell name on a chapter's board, written as the board writes it.
fn cell(board: &Board, name: &str) -> Result<String> {
    let t = board.tables();
    t.parse_cell(name.trim())
        .map(|c| t.cell_name(c))
        .ok_or_else(|| Refusal::BadPosition { detail: format!("{name:?} is no point of this board") }.into())
}

/// A new chapter's row, checked.
/// A chapter's board, tree and title from a game record. The record is
/// history: its main line is replayed for legality only (a repetition the
/// rules would have judged was still played), as its variations are.
fn recorded(
    record: &pgn::Record,
    moves: &MoveTree,
    rules: Option<RuleSet>,
) -> Result<(Board, Tree, Option<String>)> {
    let rules = rules.or_else(|| record.tag("RuleSet")?.parse().ok()).unwrap_or(RuleSet::Asian);
    let board = Board::from_fen(Variant::Standard, &record.start.to_fen(), rules)
        .map_err(|detail| Refusal::BadPosition { detail })?;
    record.history(Some(rules)).map_err(Refusal::from_pgn)?;
    let mut tree = Tree::default();
    tree.nodes[0].comment = moves.comment(MoveTree::ROOT).chars().take(MAX_COMMENT_CHARS).collect();
    tree.graft(0, moves)?;
    let players = match (record.tag("Red"), record.tag("Black")) {
        (Some(r), Some(b)) if r != "?" && b != "?" => Some(format!("{r} – {b}")),
        _ => record.tag("Event").filter(|e| *e != "?").map(str::to_string),
    };
    Ok((board, tree, players))
}

/// The chapters of a record file, one per game, each with its whole tree:
/// read within the site's record limits (a chapter's tree within a
/// chapter's node limit), at most [`MAX_CHAPTERS`].
fn file_chapters(
    bytes: &[u8],
    encoding: Option<xiangqi_records::Encoding>,
    now: i64,
) -> Result<Vec<ChapterRow>> {
    let options = xiangqi_records::ReadOptions { encoding, limits: Limits::SITE };
    let read = xiangqi_records::read_file(bytes, &options).map_err(|e| match e {
        xiangqi_records::RecordError::Record(e) => Refusal::from_pgn(e),
        other => Refusal::BadPgn { detail: other.to_string() },
    })?;
    if read.games.is_empty() {
        return Err(Refusal::NoRecords { format: read.format.name().to_string() }.into());
    }
    if read.games.len() > MAX_CHAPTERS {
        return Err(Refusal::StudyChapters { allowed: MAX_CHAPTERS as u32 }.into());
    }
    read.games
        .into_iter()
        .enumerate()
        .map(|(i, game)| {
            // A study keeps what its author wrote whole, or says which record it cannot.
            let game = game.map_err(|e| Refusal::BadPgn { detail: format!("record {}: {e}", i + 1) })?;
            let (board, tree, players) = recorded(&game.record, &game.tree, None)?;
            let position = i as i64;
            let title = players
                .map_or_else(|| format!("Chapter {}", i + 1), |t| t.chars().take(MAX_TITLE_CHARS).collect());
            Ok(chapter_row(&board, &tree, title, position, now))
        })
        .collect()
}

fn chapter_row(board: &Board, tree: &Tree, title: String, position: i64, now: i64) -> ChapterRow {
    ChapterRow {
        id: new_id(),
        position,
        title,
        variant: board.variant(),
        rules: board.rule_set(),
        start_fen: board.start_fen(),
        tree: serde_json::to_string(tree).unwrap_or_default(),
        created_ms: now,
    }
}

fn new_chapter(n: NewChapter, position: i64, now: i64) -> Result<ChapterRow> {
    let (board, tree, from_title) = match &n.pgn {
        Some(text) => {
            // Read within the record limits, a chapter's node limit among them:
            // a record over one is refused as soon as the reader meets it.
            let (record, moves) = pgn::read_tree(text).map_err(Refusal::from_pgn)?;
            recorded(&record, &moves, n.board.rules)?
        }
        None => (Board::from_spec(&n.board)?, Tree::default(), None),
    };
    let title = match (n.title.as_deref(), from_title) {
        (Some(t), _) => title(t, TextField::ChapterTitle)?,
        (None, Some(t)) => t.chars().take(MAX_TITLE_CHARS).collect(),
        (None, None) => format!("Chapter {}", position + 1),
    };
    Ok(chapter_row(&board, &tree, title, position, now))
}

/// Studies: chapters of annotated positions that their members edit together.
pub struct Studies {
    store: Store,
    events: Events,
    parsing: Arc<ParsePool>,
    people: Arc<People>,
    /// Each user's edits of studies, counted on this instance.
    edits: RateLimit,
}

impl Studies {
    pub fn new(store: Store, events: Events, parsing: Arc<ParsePool>, people: Arc<People>) -> Self {
        let edits = RateLimit::new(EDITS_PER_MINUTE, super::limits::MINUTE_MS);
        Studies { store, events, parsing, people, edits }
    }

    /// A study by id, as it is now, whoever asks (for the live updates,
    /// which check each socket's user themselves).
    pub async fn load_study(&self, id: &str) -> Result<Study> {
        let row = self.store.study(id).await?.ok_or_else(|| Refusal::NoStudy { id: id.to_string() })?;
        let members = self.store.study_members(id).await?;
        let chapters = self
            .store
            .study_chapters(id)
            .await?
            .into_iter()
            .map(Chapter::from_row)
            .collect::<Result<Vec<_>>>()?;
        Ok(Study { row, members, chapters })
    }

    /// A study, if `viewer` may see it (a private one is no study to others).
    pub async fn study(&self, viewer: Option<&str>, id: &str) -> Result<Study> {
        let study = self.load_study(id).await?;
        if study.access(viewer) == Access::None {
            return Err(Refusal::NoStudy { id: id.to_string() }.into());
        }
        Ok(study)
    }

    /// A study's chapters as one PGN file in the dialect asked for (XQF,
    /// which holds one game, is refused), if `viewer` may see it.
    pub async fn study_pgn(
        &self,
        viewer: Option<&str>,
        id: &str,
        format: super::exports::ExportFormat,
    ) -> Result<String> {
        let moves = format.for_many()?;
        Ok(self.study(viewer, id).await?.pgn(moves))
    }

    /// A page of studies: a user's own and those they are a member of, or
    /// everyone's public ones.
    pub async fn studies(&self, shelf: StudyShelf<'_>, page: &Page) -> Result<Paged<StudyRecord>> {
        Ok(self.store.studies(shelf, page).await?)
    }

    /// A new study with one chapter from the start of the standard board.
    pub async fn create_study(
        &self,
        owner: &str,
        name: &str,
        visibility: Visibility,
        now: i64,
    ) -> Result<Study> {
        let name = title(name, TextField::StudyTitle)?;
        let row = StudyRecord {
            id: new_id(),
            owner: owner.to_string(),
            title: name,
            visibility,
            version: 1,
            created_ms: now,
            updated_ms: now,
        };
        let first = new_chapter(NewChapter::default(), 0, now)?;
        // One count and insert at a time per owner, on every instance.
        let turn = self.store.exclusive(&format!("studies:{owner}")).await?;
        if self.store.studies_owned(owner).await? >= MAX_STUDIES {
            turn.release().await;
            return Err(Refusal::StudiesOwned { allowed: MAX_STUDIES as u32 }.into());
        }
        let written = self.store.insert_study(&row, &first).await;
        turn.release().await;
        written?;
        self.load_study(&row.id).await
    }

    /// A new study from a record file of any format, a chapter per game with
    /// its whole tree (variations and comments). The file is read in the
    /// parsing pool, in a turn of `client`'s share.
    pub async fn import_study(
        &self,
        owner: &str,
        client: IpAddr,
        name: &str,
        bytes: Vec<u8>,
        encoding: Option<xiangqi_records::Encoding>,
        now: i64,
    ) -> Result<Study> {
        let name = title(name, TextField::StudyTitle)?;
        let chapters = self.parsing.run(client, move || file_chapters(&bytes, encoding, now)).await??;
        let row = StudyRecord {
            id: new_id(),
            owner: owner.to_string(),
            title: name,
            visibility: Visibility::Private,
            version: 1,
            created_ms: now,
            updated_ms: now,
        };
        let turn = self.store.exclusive(&format!("studies:{owner}")).await?;
        if self.store.studies_owned(owner).await? >= MAX_STUDIES {
            turn.release().await;
            return Err(Refusal::StudiesOwned { allowed: MAX_STUDIES as u32 }.into());
        }
        let written = self.store.insert_study_with(&row, &chapters).await;
        turn.release().await;
        written?;
        self.load_study(&row.id).await
    }

    /// Deletes a study (its owner only), if it is still at version `based`.
    pub async fn delete_study(&self, user: &str, id: &str, based: i64) -> Result<()> {
        let study = self.study(Some(user), id).await?;
        if study.access(Some(user)) != Access::Own {
            return Err(Refusal::StudyOwnerOnly {}.into());
        }
        if study.row.version != based || self.store.delete_study(id, based).await? == Written::Stale {
            let now = self.store.study(id).await?.map_or(based, |s| s.version);
            return Err(Refusal::StudyStale { version: now }.into());
        }
        Ok(())
    }

    /// Makes one change to a study, on the version `based` the editor saw,
    /// and tells everyone looking at it. The study as it is after the change.
    pub async fn edit_study(&self, user: &str, id: &str, based: i64, edit: Edit, now: i64) -> Result<Study> {
        let study = self.study(Some(user), id).await?;
        let access = study.access(Some(user));
        let leaving = matches!(&edit, Edit::Remove { name } if name.eq_ignore_ascii_case(user));
        if access < edit.needs() && !leaving {
            return Err(match edit.needs() {
                Access::Own => Refusal::StudyOwnerOnly {},
                _ => Refusal::StudyReadOnly {},
            }
            .into());
        }
        if study.row.version != based {
            return Err(Refusal::StudyStale { version: study.row.version }.into());
        }
        self.edits.admit(user, now).map_err(|wait| Refusal::TooOften {
            act: Act::StudyEdits,
            allowed: EDITS_PER_MINUTE,
            per: Window::Minute,
            seconds: u64::try_from((wait + 999) / 1000).unwrap_or(1).max(1),
        })?;
        // What the change holds is built first (and owned here), then written.
        enum Owned {
            Settings(String, Visibility),
            Member(String, StudyRole),
            RemoveMember(String),
            AddChapter(ChapterRow),
            RenameChapter(String, String),
            DeleteChapter(String),
            ChapterOrder(Vec<String>),
            Tree(String, String),
        }
        let owned = match edit {
            Edit::Settings { title: new_title, visibility } => Owned::Settings(
                match new_title {
                    Some(t) => title(&t, TextField::StudyTitle)?,
                    None => study.row.title.clone(),
                },
                visibility.unwrap_or(study.row.visibility),
            ),
            Edit::Invite { name, role } => {
                let invited = accounts::user(&self.store, &name).await?;
                if invited.name == study.row.owner {
                    return Err(Refusal::Yourself {}.into());
                }
                self.people.not_ignored_by(&invited.name, user).await?;
                let already = study.members.iter().any(|m| m.user == invited.name);
                if !already && study.members.len() >= MAX_MEMBERS {
                    return Err(Refusal::StudyMembers { allowed: MAX_MEMBERS as u32 }.into());
                }
                Owned::Member(invited.name, role)
            }
            Edit::Remove { name } => {
                let member = study
                    .members
                    .iter()
                    .find(|m| m.user.eq_ignore_ascii_case(&name))
                    .ok_or_else(|| Refusal::NotOnList { name: name.clone() })?;
                Owned::RemoveMember(member.user.clone())
            }
            Edit::AddChapter(n, client) => {
                if study.chapters.len() >= MAX_CHAPTERS {
                    return Err(Refusal::StudyChapters { allowed: MAX_CHAPTERS as u32 }.into());
                }
                let position = study.chapters.iter().map(|c| c.row.position + 1).max().unwrap_or(0);
                // Reading a record is heavy work: the parsing pool's, never the runtime's.
                Owned::AddChapter(match n.pgn {
                    Some(_) => self.parsing.run(client, move || new_chapter(n, position, now)).await??,
                    None => new_chapter(n, position, now)?,
                })
            }
            Edit::RenameChapter { chapter, title: t } => {
                let c = study.chapter(&chapter)?;
                Owned::RenameChapter(c.row.id.clone(), title(&t, TextField::ChapterTitle)?)
            }
            Edit::DeleteChapter { chapter } => {
                let c = study.chapter(&chapter)?;
                if study.chapters.len() == 1 {
                    return Err(Refusal::LastChapter {}.into());
                }
                Owned::DeleteChapter(c.row.id.clone())
            }
            Edit::PlaceChapter { chapter, place } => {
                let c = study.chapter(&chapter)?;
                let mut order: Vec<String> = study
                    .chapters
                    .iter()
                    .filter(|x| x.row.id != c.row.id)
                    .map(|x| x.row.id.clone())
                    .collect();
                order.insert((place as usize).min(order.len()), c.row.id.clone());
                if order.iter().eq(study.chapters.iter().map(|x| &x.row.id)) {
                    return Ok(study);
                }
                Owned::ChapterOrder(order)
            }
            Edit::MainLine { chapter, node } => {
                let c = study.chapter(&chapter)?;
                if node == 0 || c.tree.node(node).is_none() {
                    return Err(Refusal::NoNode { id: node }.into());
                }
                let mut tree = c.tree.clone();
                if !tree.make_main(node) {
                    return Ok(study);
                }
                Owned::Tree(c.row.id.clone(), serde_json::to_string(&tree).unwrap_or_default())
            }
            Edit::Move { chapter, node, text } => {
                let c = study.chapter(&chapter)?;
                if c.tree.node(node).is_none() {
                    return Err(Refusal::NoNode { id: node }.into());
                }
                let board = c.board_at(node)?;
                let checked = board.check_text(&text).map_err(|why| Refusal::illegal(&text, why))?;
                let name = board.names(checked.mv()).iccs;
                let mut tree = c.tree.clone();
                let known = tree.nodes.len();
                tree.add(node, name);
                if tree.nodes.len() == known {
                    // The move is there already: nothing changes.
                    return Ok(study);
                }
                if known >= MAX_NODES {
                    return Err(Refusal::StudyNodes { allowed: MAX_NODES as u32 }.into());
                }
                Owned::Tree(c.row.id.clone(), serde_json::to_string(&tree).unwrap_or_default())
            }
            Edit::DeleteNode { chapter, node } => {
                let c = study.chapter(&chapter)?;
                if node == 0 || c.tree.node(node).is_none() {
                    return Err(Refusal::NoNode { id: node }.into());
                }
                let mut tree = c.tree.clone();
                tree.remove(node);
                Owned::Tree(c.row.id.clone(), serde_json::to_string(&tree).unwrap_or_default())
            }
            Edit::Annotate { chapter, node, comment, arrows, marks } => {
                let c = study.chapter(&chapter)?;
                let board = c.start()?;
                let mut tree = c.tree.clone();
                let i = tree.index(node).ok_or(Refusal::NoNode { id: node })?;
                let n = &mut tree.nodes[i];
                if let Some(text) = comment {
                    let text = text.trim().to_string();
                    if text.chars().count() > MAX_COMMENT_CHARS {
                        return Err(Refusal::TextLength {
                            field: TextField::Comment,
                            min: 0,
                            max: MAX_COMMENT_CHARS as u32,
                        }
                        .into());
                    }
                    n.comment = text;
                }
                if let Some(arrows) = arrows {
                    n.arrows = arrows
                        .iter()
                        .map(|a| {
                            Ok(Arrow {
                                from: cell(&board, &a.from)?,
                                to: cell(&board, &a.to)?,
                                brush: a.brush,
                            })
                        })
                        .collect::<Result<_>>()?;
                    n.arrows.dedup();
                }
                if let Some(marks) = marks {
                    n.marks = marks
                        .iter()
                        .map(|m| Ok(Mark { at: cell(&board, &m.at)?, brush: m.brush }))
                        .collect::<Result<_>>()?;
                    n.marks.dedup();
                }
                if n.arrows.len() + n.marks.len() > MAX_SHAPES {
                    return Err(Refusal::StudyShapes { allowed: MAX_SHAPES as u32 }.into());
                }
                Owned::Tree(c.row.id.clone(), serde_json::to_string(&tree).unwrap_or_default())
            }
        };
        let change = match &owned {
            Owned::Settings(t, v) => StudyChange::Settings { title: t, visibility: *v },
            Owned::Member(name, role) => StudyChange::Member(name, *role),
            Owned::RemoveMember(name) => StudyChange::RemoveMember(name),
            Owned::AddChapter(row) => StudyChange::AddChapter(row),
            Owned::RenameChapter(id, t) => StudyChange::RenameChapter { id, title: t },
            Owned::DeleteChapter(id) => StudyChange::DeleteChapter(id),
            Owned::ChapterOrder(ids) => StudyChange::ChapterOrder(ids),
            Owned::Tree(id, tree) => StudyChange::Tree { id, tree },
        };
        if self.store.change_study(id, based, &change, now).await? == Written::Stale {
            let version = self.store.study(id).await?.map_or(based, |s| s.version);
            return Err(Refusal::StudyStale { version }.into());
        }
        let after = self.load_study(id).await?;
        self.events.hear(Happening::Study(&after));
        if let StudyChange::Member(name, _) = &change {
            let new = !study.members.iter().any(|m| &m.user == name);
            if new {
                self.events.notify_of_study(name, NoticeKind::StudyInvite, user, id);
            }
        }
        Ok(after)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_keeps_variations_and_removes_whole_branches() {
        let mut t = Tree::line(&["h2e2".into(), "h9g7".into()]);
        assert_eq!(t.path(2), ["h2e2", "h9g7"]);
        assert_eq!(t.add(1, "h9g7".into()), 2, "a move that is there already is not added twice");
        let alt = t.add(1, "b7e7".into());
        assert_eq!(t.node(1).unwrap().children, [2, alt]);
        let deeper = t.add(alt, "h0g2".into());
        t.remove(alt);
        assert!(t.node(alt).is_none() && t.node(deeper).is_none());
        assert_eq!(t.node(1).unwrap().children, [2]);
        assert_eq!(t.add(1, "c9e7".into()), deeper + 1, "ids are never reused");
        let json = serde_json::to_string(&t).unwrap();
        assert_eq!(serde_json::from_str::<Tree>(&json).unwrap(), t);
    }

    /// A chapter as full as one may be: the view and the PGN of every
    /// position are built (each edit builds the view again), in bounded time.
    #[test]
    fn a_full_chapter_is_placed_and_written() {
        let start = Board::startpos(Variant::Standard, RuleSet::Asian).unwrap();
        let mut tree = Tree::default();
        'fill: for first in start.legal_names() {
            let at = tree.add(0, first.clone());
            let mut after = start.clone();
            after.play_name(&first).unwrap();
            for reply in after.legal_names() {
                if tree.nodes.len() >= MAX_NODES {
                    break 'fill;
                }
                tree.add(at, reply);
            }
        }
        assert_eq!(tree.nodes.len(), MAX_NODES);
        let row = ChapterRow {
            id: "c".into(),
            position: 0,
            title: "full".into(),
            variant: Variant::Standard,
            rules: RuleSet::Asian,
            start_fen: start.start_fen(),
            tree: String::new(),
            created_ms: 0,
        };
        let chapter = Chapter { row, tree };
        let study = StudyRecord {
            id: "s".into(),
            owner: "o".into(),
            title: "t".into(),
            visibility: Visibility::Public,
            version: 1,
            created_ms: 0,
            updated_ms: 0,
        };
        let began = std::time::Instant::now();
        let placed = chapter.placed();
        let placing = began.elapsed();
        let pgn = chapter.pgn(&study, pgn::Format::Wxf);
        let writing = began.elapsed() - placing;
        assert_eq!(placed.len(), MAX_NODES);
        assert!(placed.iter().all(|p| p.names.is_some() || p.node.id == 0));
        let back = pgn::read_tree(&pgn).unwrap().1;
        assert_eq!(back.children(MoveTree::ROOT).len(), chapter.tree.nodes[0].children.len(), "{pgn}");
        assert_eq!(back.len(), MAX_NODES);
        eprintln!("{MAX_NODES} positions placed in {placing:?}, written as PGN in {writing:?}");
    }
}
