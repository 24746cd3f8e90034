//! Request bodies and query strings. Every one refuses fields it does not know,
//! so a misspelt or unsupported field is an error, never silently ignored.

use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use xiangqi::{RuleSet, Variant};

use super::wire;
use crate::{
    domain::{
        clock::ClockSpec,
        model::{DrawAction, SideChoice},
    },
    store::Page,
};

/// A user id and password, to register or log in.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// 3-20 letters, digits, `_` or `-`; unique ignoring case.
    pub name: String,
    /// 8-200 characters.
    pub password: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    pub old: String,
    pub new: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProfileEdit {
    /// At most 500 characters, kept as typed and shown as text.
    pub bio: String,
}

/// A challenge to a named player, or (without `opponent`) to anyone in the waiting room.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewChallenge {
    #[serde(default)]
    pub opponent: Option<String>,
    /// The board; `standard` if left out (the only one offered yet).
    #[serde(default = "standard", with = "wire::named")]
    #[schema(schema_with = wire::schema::<Variant>)]
    pub variant: Variant,
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<RuleSet>)]
    pub rules: RuleSet,
    /// The creator's side.
    pub color: SideChoice,
    pub clock: ClockSpec,
}

/// Ask to be paired with the next player who asks for the same settings.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AutoMatch {
    #[serde(default = "standard", with = "wire::named")]
    #[schema(schema_with = wire::schema::<Variant>)]
    pub variant: Variant,
    #[serde(with = "wire::named")]
    #[schema(schema_with = wire::schema::<RuleSet>)]
    pub rules: RuleSet,
    pub clock: ClockSpec,
}

fn standard() -> Variant {
    Variant::Standard
}

/// A move.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Submit {
    /// The number of moves already played: the move made is number `ply + 1`.
    pub ply: i64,
    /// ICCS (`h2e2`), WXF (`C2=5`) or Chinese (`炮二平五`).
    #[serde(rename = "move")]
    pub text: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DrawRequest {
    pub action: DrawAction,
}

/// Which page of a list: the `next` of the previous page, and how many (1-100, default 50).
#[derive(Deserialize, IntoParams, Default)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// The `next` of the previous page.
    pub after: Option<String>,
    /// How many at most (1-100; 50 if left out).
    pub limit: Option<u32>,
}

impl From<PageQuery> for Page {
    fn from(q: PageQuery) -> Page {
        Page { after: q.after, limit: q.limit }
    }
}
