//! Studies: lists, a study with its members and chapters, each chapter's tree.

use super::*;
use crate::{
    domain::studies::{Arrow, Chapter, Mark, Study},
    model::studies::StudyRecord,
    model::studies::{StudyRole, Visibility},
};

/// A study in a list.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct StudySummary {
    pub id: String,
    pub owner: String,
    pub title: String,
    pub visibility: Visibility,
    /// Grows by one with every change; an edit names the version it was made on.
    pub version: i64,
    /// Milliseconds since the Unix epoch.
    pub created: i64,
    pub updated: i64,
}

impl From<&StudyRecord> for StudySummary {
    fn from(r: &StudyRecord) -> Self {
        StudySummary {
            id: r.id.clone(),
            owner: r.owner.clone(),
            title: r.title.clone(),
            visibility: r.visibility,
            version: r.version,
            created: r.created_ms,
            updated: r.updated_ms,
        }
    }
}

/// A member of a study besides its owner.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct StudyMember {
    pub name: String,
    pub role: StudyRole,
}

/// A position of a chapter's tree.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct StudyNode {
    /// 0 is the chapter's start; ids are never reused.
    pub id: u32,
    pub parent: Option<u32>,
    /// Moves from the chapter's start.
    pub ply: u32,
    /// The position here.
    pub fen: String,
    /// The move that led here (null at the start).
    #[serde(rename = "move")]
    pub mv: Option<MoveNamesView>,
    /// The moves that may follow: the main line first, then the variations.
    pub children: Vec<u32>,
    pub comment: String,
    pub arrows: Vec<Arrow>,
    pub marks: Vec<Mark>,
}

/// A chapter: a board, rules and start, and its tree of moves.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ChapterView {
    pub id: String,
    pub title: String,
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<Variant>)]
    pub variant: Variant,
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<RuleSet>)]
    pub rules: RuleSet,
    pub start_fen: String,
    /// Every position, each before the ones after it.
    pub nodes: Vec<StudyNode>,
    /// The ECCO code of the main line's opening (names from `GET /openings`),
    /// null when it has none.
    pub opening: Option<String>,
}

impl From<&Chapter> for ChapterView {
    fn from(c: &Chapter) -> Self {
        let nodes: Vec<StudyNode> = c
            .placed()
            .into_iter()
            .map(|p| StudyNode {
                id: p.node.id,
                parent: p.node.parent,
                ply: p.ply as u32,
                fen: p.fen,
                mv: p.names.map(MoveNamesView::from),
                children: p.node.children.clone(),
                comment: p.node.comment.clone(),
                arrows: p.node.arrows.clone(),
                marks: p.node.marks.clone(),
            })
            .collect();
        // The main line: from the start, each position's first move.
        let mut line = Vec::new();
        let mut at = nodes.first();
        while let Some(next) =
            at.and_then(|n| n.children.first()).and_then(|id| nodes.iter().find(|n| n.id == *id))
        {
            let Some(mv) = &next.mv else { break };
            line.push(mv.iccs.clone());
            if line.len() >= xiangqi_records::ecco::PLIES {
                break;
            }
            at = Some(next);
        }
        let code = crate::domain::openings::code_of(c.row.variant, &c.row.start_fen, &line.join(" "));
        ChapterView {
            id: c.row.id.clone(),
            title: c.row.title.clone(),
            variant: c.row.variant,
            rules: c.row.rules,
            start_fen: c.row.start_fen.clone(),
            nodes,
            opening: (!code.is_empty()).then_some(code),
        }
    }
}

/// A study: its summary, members and chapters.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct StudyView {
    #[serde(flatten)]
    pub summary: StudySummary,
    pub members: Vec<StudyMember>,
    pub chapters: Vec<ChapterView>,
}

impl From<&Study> for StudyView {
    fn from(s: &Study) -> Self {
        StudyView {
            summary: StudySummary::from(&s.row),
            members: s.members.iter().map(|m| StudyMember { name: m.user.clone(), role: m.role }).collect(),
            chapters: s.chapters.iter().map(ChapterView::from).collect(),
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct StudyAnswer {
    pub study: StudyView,
}

super::page::listings! {
    /// A page of studies, newest first.
    StudiesPage = Studies of StudySummary as "studies": "A page of studies, newest first.";
}
