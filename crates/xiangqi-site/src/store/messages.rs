//! Private messages between two users. Each side deletes for itself only.

use sqlx::{Row, any::AnyRow};

use super::{Counting, FromRow, Keyset, Store, Written, get};
use crate::model::page::{Page, Paged};
use crate::model::people::{Conversation, Mailbox, MessageRecord};

impl FromRow for MessageRecord {
    fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(MessageRecord {
            id: get(r, "id")?,
            sender: get(r, "sender")?,
            recipient: get(r, "recipient")?,
            body: get(r, "body")?,
            created_ms: get(r, "created_ms")?,
            read_ms: get(r, "read_ms")?,
        })
    }
}

/// Newest first: the key is `created_ms.id`.
fn newest_key(m: &MessageRecord) -> String {
    format!("{}.{}", m.created_ms, m.id)
}

/// Visible to `$1`: sent by them and not deleted by them, or received and not deleted.
const VISIBLE: &str = "((sender = $1 AND sender_deleted = 0) OR (recipient = $1 AND recipient_deleted = 0))";

impl Store {
    /// Writes a message, counted in the sender's turn.
    pub async fn insert_message(&self, on: &mut Counting, m: &MessageRecord) -> Result<(), sqlx::Error> {
        let q = sqlx::query(
            "INSERT INTO messages (id, sender, recipient, body, created_ms) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&m.id)
        .bind(&m.sender)
        .bind(&m.recipient)
        .bind(&m.body)
        .bind(m.created_ms);
        q.execute(on.connection()).await?;
        Ok(())
    }

    /// A user's received or sent messages, newest first.
    pub async fn mailbox(
        &self,
        user: &str,
        which: Mailbox,
        page: &Page,
    ) -> Result<Paged<MessageRecord>, sqlx::Error> {
        let who = match which {
            Mailbox::Inbox => "recipient = $1 AND recipient_deleted = 0",
            Mailbox::Sent => "sender = $1 AND sender_deleted = 0",
        };
        let (ms, id) = page.before();
        let sql = format!(
            "SELECT * FROM messages WHERE {who} AND (created_ms < $2 OR (created_ms = $2 AND id < $3)) \
             ORDER BY created_ms DESC, id DESC LIMIT $4"
        );
        let rows = self.all(sqlx::query(&sql).bind(user).bind(ms).bind(id).bind(page.probe())).await?;
        Ok(page.cut(rows, newest_key))
    }

    /// The messages between two users that `user` still sees, newest first.
    pub async fn conversation(
        &self,
        user: &str,
        with: &str,
        page: &Page,
    ) -> Result<Paged<MessageRecord>, sqlx::Error> {
        let (ms, id) = page.before();
        let sql = format!(
            "SELECT * FROM messages WHERE {VISIBLE} AND (sender = $2 OR recipient = $2) \
             AND (created_ms < $3 OR (created_ms = $3 AND id < $4)) ORDER BY created_ms DESC, id DESC LIMIT $5"
        );
        let q = sqlx::query(&sql).bind(user).bind(with).bind(ms).bind(id).bind(page.probe());
        let rows = self.all(q).await?;
        Ok(page.cut(rows, newest_key))
    }

    /// The people a user has messages with, the latest conversation first.
    pub async fn conversations(&self, user: &str, page: &Page) -> Result<Paged<Conversation>, sqlx::Error> {
        let (ms, _) = page.before();
        let sql = format!(
            "SELECT CASE WHEN sender = $1 THEN recipient ELSE sender END AS other, MAX(created_ms) AS latest, \
             SUM(CASE WHEN recipient = $1 AND read_ms IS NULL THEN 1 ELSE 0 END) AS unread \
             FROM messages WHERE {VISIBLE} GROUP BY CASE WHEN sender = $1 THEN recipient ELSE sender END \
             HAVING MAX(created_ms) < $2 ORDER BY latest DESC LIMIT $3"
        );
        let rows = sqlx::query(&sql).bind(user).bind(ms).bind(page.probe()).fetch_all(&self.pool).await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            let with: String = r.try_get("other")?;
            let unread: Option<i64> = r.try_get("unread")?;
            let last = self.conversation(user, &with, &Page::first(1)).await?.items.into_iter().next();
            if let Some(last) = last {
                out.push(Conversation { with, last, unread: unread.unwrap_or(0) });
            }
        }
        Ok(page.cut(out, |c: &Conversation| format!("{}.", c.last.created_ms)))
    }

    /// Unread messages to a user.
    pub async fn unread_messages(&self, user: &str) -> Result<i64, sqlx::Error> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM messages WHERE recipient = $1 AND recipient_deleted = 0 AND read_ms IS NULL",
        )
        .bind(user)
        .fetch_one(&self.pool)
        .await?;
        row.try_get("n")
    }

    /// Marks what `with` sent to `user` as read.
    pub async fn mark_read(&self, user: &str, with: &str, now: i64) -> Result<u64, sqlx::Error> {
        let q = sqlx::query(
            "UPDATE messages SET read_ms = $1 WHERE recipient = $2 AND sender = $3 AND read_ms IS NULL",
        )
        .bind(now)
        .bind(user)
        .bind(with);
        self.run(q).await
    }

    pub async fn message(&self, id: &str) -> Result<Option<MessageRecord>, sqlx::Error> {
        self.one(sqlx::query("SELECT * FROM messages WHERE id = $1").bind(id)).await
    }

    /// Deletes a message for `user` only (the other side keeps it).
    pub async fn delete_message(&self, user: &str, id: &str) -> Result<Written, sqlx::Error> {
        let q = sqlx::query(
            "UPDATE messages SET \
             sender_deleted = CASE WHEN sender = $1 THEN 1 ELSE sender_deleted END, \
             recipient_deleted = CASE WHEN recipient = $1 THEN 1 ELSE recipient_deleted END \
             WHERE id = $2 AND ((sender = $1 AND sender_deleted = 0) OR (recipient = $1 AND recipient_deleted = 0))",
        )
        .bind(user)
        .bind(id);
        Ok(Written::from_count(self.run(q).await?))
    }
}
