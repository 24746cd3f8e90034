//! Studies, their members and chapters. Every change to a study is a
//! conditional update of its `version` (from the version the edit was made
//! on) and the change itself, in one transaction: of two edits made on the
//! same version, one commits and the other touches no row and is rolled back.

use sqlx::{AnyConnection, any::AnyRow};

use super::{FromRow, Keyset, Store, Written, get, named};
use crate::model::Named;
use crate::model::page::{Page, Paged};
use crate::model::studies::{StudyRecord, StudyShelf};
use crate::model::studies::{StudyRole, Visibility};

impl FromRow for StudyRecord {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(StudyRecord {
            id: get(r, "id")?,
            owner: get(r, "owner")?,
            title: get(r, "title")?,
            visibility: named(r, "visibility")?,
            version: get(r, "version")?,
            created_ms: get(r, "created_ms")?,
            updated_ms: get(r, "updated_ms")?,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberRow {
    pub user: String,
    pub role: StudyRole,
    pub added_ms: i64,
}

impl FromRow for MemberRow {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(MemberRow { user: get(r, "user_name")?, role: named(r, "role")?, added_ms: get(r, "added_ms")? })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChapterRow {
    pub id: String,
    pub position: i64,
    pub title: String,
    pub variant: xiangqi::Variant,
    pub rules: xiangqi::RuleSet,
    pub start_fen: String,
    /// The tree of moves as JSON (see `domain::studies::Tree`).
    pub tree: String,
    pub created_ms: i64,
}

impl FromRow for ChapterRow {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(ChapterRow {
            id: get(r, "id")?,
            position: get(r, "position")?,
            title: get(r, "title")?,
            variant: named(r, "variant")?,
            rules: named(r, "rules")?,
            start_fen: get(r, "start_fen")?,
            tree: get(r, "tree")?,
            created_ms: get(r, "created_ms")?,
        })
    }
}

/// What an edit changes besides the study's version.
pub enum StudyChange<'a> {
    Settings {
        title: &'a str,
        visibility: Visibility,
    },
    /// Adds a member, or changes a member's role.
    Member(&'a str, StudyRole),
    RemoveMember(&'a str),
    AddChapter(&'a ChapterRow),
    RenameChapter {
        id: &'a str,
        title: &'a str,
    },
    DeleteChapter(&'a str),
    /// The chapters' new order: every chapter's id, first to last.
    ChapterOrder(&'a [String]),
    /// A chapter's new tree of moves.
    Tree {
        id: &'a str,
        tree: &'a str,
    },
}

fn list_key(s: &StudyRecord) -> String {
    format!("{}.{}", s.created_ms, s.id)
}

async fn apply(
    c: &mut AnyConnection,
    study: &str,
    change: &StudyChange<'_>,
    now: i64,
) -> Result<u64, sqlx::Error> {
    if let StudyChange::ChapterOrder(ids) = *change {
        let mut moved = 0;
        for (position, id) in ids.iter().enumerate() {
            moved += sqlx::query("UPDATE study_chapters SET position = $3 WHERE study_id = $1 AND id = $2")
                .bind(study)
                .bind(id)
                .bind(position as i64)
                .execute(&mut *c)
                .await?
                .rows_affected();
        }
        return Ok(moved);
    }
    let q = match *change {
        StudyChange::Settings { title, visibility } => {
            sqlx::query("UPDATE studies SET title = $2, visibility = $3 WHERE id = $1")
                .bind(study)
                .bind(title)
                .bind(visibility.name())
        }
        StudyChange::Member(user, role) => sqlx::query(
            "INSERT INTO study_members (study_id, user_name, role, added_ms) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (study_id, user_name) DO UPDATE SET role = excluded.role",
        )
        .bind(study)
        .bind(user)
        .bind(role.name())
        .bind(now),
        StudyChange::RemoveMember(user) => {
            sqlx::query("DELETE FROM study_members WHERE study_id = $1 AND user_name = $2").bind(study).bind(user)
        }
        StudyChange::AddChapter(ch) => sqlx::query(
            "INSERT INTO study_chapters (id, study_id, position, title, variant, rules, start_fen, tree, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(ch.id.as_str())
        .bind(study)
        .bind(ch.position)
        .bind(ch.title.as_str())
        .bind(ch.variant.name())
        .bind(ch.rules.name())
        .bind(ch.start_fen.as_str())
        .bind(ch.tree.as_str())
        .bind(ch.created_ms),
        StudyChange::RenameChapter { id, title } => {
            sqlx::query("UPDATE study_chapters SET title = $3 WHERE study_id = $1 AND id = $2")
                .bind(study)
                .bind(id)
                .bind(title)
        }
        StudyChange::DeleteChapter(id) => {
            sqlx::query("DELETE FROM study_chapters WHERE study_id = $1 AND id = $2").bind(study).bind(id)
        }
        StudyChange::Tree { id, tree } => {
            sqlx::query("UPDATE study_chapters SET tree = $3 WHERE study_id = $1 AND id = $2")
                .bind(study)
                .bind(id)
                .bind(tree)
        }
        StudyChange::ChapterOrder(_) => unreachable!("written above"),
    };
    Ok(q.execute(c).await?.rows_affected())
}

impl Store {
    pub async fn study(&self, id: &str) -> Result<Option<StudyRecord>, sqlx::Error> {
        self.one(sqlx::query("SELECT * FROM studies WHERE id = $1").bind(id)).await
    }

    pub async fn study_members(&self, id: &str) -> Result<Vec<MemberRow>, sqlx::Error> {
        self.all(
            sqlx::query("SELECT * FROM study_members WHERE study_id = $1 ORDER BY added_ms, user_name")
                .bind(id),
        )
        .await
    }

    pub async fn study_chapters(&self, id: &str) -> Result<Vec<ChapterRow>, sqlx::Error> {
        self.all(
            sqlx::query("SELECT * FROM study_chapters WHERE study_id = $1 ORDER BY position, id").bind(id),
        )
        .await
    }

    /// How many studies a user owns.
    pub async fn studies_owned(&self, owner: &str) -> Result<i64, sqlx::Error> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM studies WHERE owner = $1")
            .bind(owner)
            .fetch_one(self.pool())
            .await?;
        get(&row, "n")
    }

    /// A page of studies, newest first.
    pub async fn studies(
        &self,
        shelf: StudyShelf<'_>,
        page: &Page,
    ) -> Result<Paged<StudyRecord>, sqlx::Error> {
        let (before_ms, before_id) = page.before();
        let order = "(s.created_ms < $1 OR (s.created_ms = $1 AND s.id < $2)) \
                     ORDER BY s.created_ms DESC, s.id DESC LIMIT $3";
        let rows = match shelf {
            StudyShelf::Of(user) => {
                let sql = format!(
                    "SELECT s.* FROM studies s WHERE (s.owner = $4 OR EXISTS (SELECT 1 FROM study_members m \
                     WHERE m.study_id = s.id AND m.user_name = $4)) AND {order}"
                );
                self.all(sqlx::query(&sql).bind(before_ms).bind(before_id).bind(page.probe()).bind(user))
                    .await?
            }
            StudyShelf::Public => {
                let sql = format!("SELECT s.* FROM studies s WHERE s.visibility = 'public' AND {order}");
                self.all(sqlx::query(&sql).bind(before_ms).bind(before_id).bind(page.probe())).await?
            }
        };
        Ok(page.cut(rows, list_key))
    }

    /// Writes a new study with its first chapter.
    pub async fn insert_study(&self, s: &StudyRecord, first: &ChapterRow) -> Result<(), sqlx::Error> {
        self.insert_study_with(s, std::slice::from_ref(first)).await
    }

    /// Writes a new study with its chapters, all together.
    pub async fn insert_study_with(
        &self,
        s: &StudyRecord,
        chapters: &[ChapterRow],
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.pool().begin().await?;
        sqlx::query(
            "INSERT INTO studies (id, owner, title, visibility, version, created_ms, updated_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(s.id.as_str())
        .bind(s.owner.as_str())
        .bind(s.title.as_str())
        .bind(s.visibility.name())
        .bind(s.version)
        .bind(s.created_ms)
        .bind(s.updated_ms)
        .execute(&mut *tx)
        .await?;
        for chapter in chapters {
            apply(&mut tx, &s.id, &StudyChange::AddChapter(chapter), s.created_ms).await?;
        }
        tx.commit().await
    }

    /// Makes a change to a study if it is still at version `based`: the
    /// version moves on by one with it. [`Written::Stale`] (and nothing
    /// changed) if another change came first.
    pub async fn change_study(
        &self,
        id: &str,
        based: i64,
        change: &StudyChange<'_>,
        now: i64,
    ) -> Result<Written, sqlx::Error> {
        let mut tx = self.pool().begin().await?;
        // The version first: on SQLite this write takes the database's write
        // lock before anything is read in the transaction.
        let claimed = sqlx::query(
            "UPDATE studies SET version = version + 1, updated_ms = $3 WHERE id = $1 AND version = $2",
        )
        .bind(id)
        .bind(based)
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if claimed != 1 {
            tx.rollback().await?;
            return Ok(Written::Stale);
        }
        apply(&mut tx, id, change, now).await?;
        tx.commit().await?;
        Ok(Written::Done)
    }

    /// Deletes a study, its members and chapters, if it is still at version `based`.
    pub async fn delete_study(&self, id: &str, based: i64) -> Result<Written, sqlx::Error> {
        let mut tx = self.pool().begin().await?;
        let claimed = sqlx::query("UPDATE studies SET version = version + 1 WHERE id = $1 AND version = $2")
            .bind(id)
            .bind(based)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if claimed != 1 {
            tx.rollback().await?;
            return Ok(Written::Stale);
        }
        for sql in [
            "DELETE FROM study_members WHERE study_id = $1",
            "DELETE FROM study_chapters WHERE study_id = $1",
            "DELETE FROM studies WHERE id = $1",
        ] {
            sqlx::query(sql).bind(id).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(Written::Done)
    }
}
