//! Answers as clients see them, one module per concept. Each module takes the
//! shared imports below (`use super::*`) and everything is named from here.

use std::collections::HashMap;

use serde::Serialize;
use utoipa::ToSchema;
use xiangqi::{Color, Outcome, Reason, RuleSet, Variant};

use crate::model::wire;
use crate::{
    domain::{games::Loaded, glance::Glance, review, tournaments::Table},
    model::{
        ChallengeStatus, GameStatus, MoveClass, PairingResult, PlayerResult, Relation, ReviewStatus,
        SideChoice, TieBreak, TournamentFormat, TournamentStatus, clock::ClockSpec, ratings::Category,
    },
};

mod accounts;
mod analysis;
mod database;
mod games;
mod ladders;
mod lobby;
pub mod page;
mod people;
mod puzzles;
mod ratings;
mod site;
mod studies;
mod tournaments;

pub use self::{
    accounts::*, analysis::*, database::*, games::*, ladders::*, lobby::*, people::*, puzzles::*, ratings::*,
    site::*, studies::*, tournaments::*,
};
