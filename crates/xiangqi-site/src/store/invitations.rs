//! Invitations a user hands to a friend: whoever registers with one starts with
//! the inviter as a buddy and, if the inviter attached one, a challenge from them.

use sqlx::any::AnyRow;
use xiangqi::RuleSet;

use super::{FromRow, Keyset, Store, get, optional_named};
use crate::model::page::{Page, Paged};
use crate::model::people::{InvitationRecord, InvitedGame};
use crate::model::{
    clock::ClockSpec,
    {Named, SideChoice},
};

impl FromRow for InvitationRecord {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        let rules: Option<RuleSet> = optional_named(r, "rules")?;
        let color: Option<SideChoice> = optional_named(r, "color")?;
        let kind: Option<String> = get(r, "clock_kind")?;
        let game = match (rules, color, kind) {
            (Some(rules), Some(color), Some(kind)) => {
                let clock = ClockSpec::from_columns(
                    &kind,
                    get::<Option<i64>>(r, "hours")?.unwrap_or(0),
                    get::<Option<i64>>(r, "base_ms")?.unwrap_or(0),
                    get::<Option<i64>>(r, "increment_ms")?.unwrap_or(0),
                )
                .map_err(|why| super::corrupt("clock_kind", why))?;
                Some(InvitedGame { rules, color, clock })
            }
            _ => None,
        };
        Ok(InvitationRecord {
            code: get(r, "code")?,
            inviter: get(r, "inviter")?,
            game,
            created_ms: get(r, "created_ms")?,
            uses: get(r, "uses")?,
        })
    }
}

impl Store {
    pub async fn insert_invitation(&self, i: &InvitationRecord) -> Result<(), sqlx::Error> {
        let columns = i.game.map(|g| g.clock.columns());
        let q = sqlx::query(
            "INSERT INTO invitations (code, inviter, rules, color, clock_kind, hours, base_ms, increment_ms, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&i.code)
        .bind(&i.inviter)
        .bind(i.game.map(|g| g.rules.name()))
        .bind(i.game.map(|g| g.color.name()))
        .bind(columns.map(|c| c.0))
        .bind(columns.map(|c| c.1))
        .bind(columns.map(|c| c.2))
        .bind(columns.map(|c| c.3))
        .bind(i.created_ms);
        self.run(q).await?;
        Ok(())
    }

    pub async fn invitation(&self, code: &str) -> Result<Option<InvitationRecord>, sqlx::Error> {
        self.one(sqlx::query("SELECT * FROM invitations WHERE code = $1").bind(code)).await
    }

    /// A user's invitations, newest first; the key is `created_ms.code`.
    pub async fn invitations_of(
        &self,
        inviter: &str,
        page: &Page,
    ) -> Result<Paged<InvitationRecord>, sqlx::Error> {
        let (before_ms, before_code) = page.before();
        let q = sqlx::query(
            "SELECT * FROM invitations WHERE inviter = $1 AND (created_ms < $2 OR (created_ms = $2 AND code < $3)) \
             ORDER BY created_ms DESC, code DESC LIMIT $4",
        )
        .bind(inviter)
        .bind(before_ms)
        .bind(before_code)
        .bind(page.probe());
        let rows = self.all(q).await?;
        Ok(page.cut(rows, |i: &InvitationRecord| format!("{}.{}", i.created_ms, i.code)))
    }

    /// How many invitations a user has made.
    pub async fn invitation_count(&self, inviter: &str) -> Result<i64, sqlx::Error> {
        let q = sqlx::query("SELECT COUNT(*) AS n FROM invitations WHERE inviter = $1").bind(inviter);
        sqlx::Row::try_get(&q.fetch_one(&self.pool).await?, "n")
    }

    /// Counts one more registration through an invitation.
    pub async fn count_invitation_use(&self, code: &str) -> Result<(), sqlx::Error> {
        self.run(sqlx::query("UPDATE invitations SET uses = uses + 1 WHERE code = $1").bind(code)).await?;
        Ok(())
    }
}
