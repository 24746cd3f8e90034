//! Answers as clients see them, one module per concept. Each module takes the
//! shared imports below (`use super::*`) and everything is named from here.

use std::collections::HashMap;

use serde::Serialize;
use utoipa::ToSchema;
use xiangqi::{Color, Outcome, Reason, RuleSet, Variant};

use crate::domain::wire;
use crate::{
    domain::{
        clock::ClockSpec,
        games::Loaded,
        glance::Glance,
        model::{
            ChallengeStatus, GameStatus, MoveClass, PairingResult, PlayerResult, Relation, ReviewStatus,
            SideChoice, TieBreak, TournamentFormat, TournamentStatus,
        },
        ratings::Category,
        review,
        tournaments::Table,
    },
    store::{
        ChallengeRow, ChatRow, Conversation, InvitationRow, MessageRow, ReviewPositionRow, ReviewRow,
        RuleSetRecord, TournamentRow, UserRow,
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
