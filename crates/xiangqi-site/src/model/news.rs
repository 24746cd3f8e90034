//! What the site keeps of a news item.

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewsRecord {
    pub id: String,
    pub author: String,
    pub title: String,
    pub body: String,
    pub created_ms: i64,
}
