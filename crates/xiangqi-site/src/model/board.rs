//! Which board, under which rules, from which position: the triple a request
//! names wherever it starts from a position of its choosing (a line to play
//! through, an analysis, the explorer, a search by position, a new chapter).

use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use xiangqi::{RuleSet, Variant};

use super::wire;

/// A board, its rules and a position on it. Each may be left out: the board
/// follows from the rules, the rules from the board (its usual ones), and with
/// neither it is the standard board under the asian rules; the position is
/// the board's start.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, ToSchema, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BoardSpec {
    /// `standard` or `hex`; follows from `rules` if left out.
    #[serde(default, with = "wire::optional")]
    #[schema(schema_with = wire::nullable::<Variant>)]
    #[param(schema_with = wire::nullable::<Variant>)]
    pub variant: Option<Variant>,
    /// The rules judging the position (repetitions among them); the board's
    /// usual ones if left out.
    #[serde(default, with = "wire::optional")]
    #[schema(schema_with = wire::nullable::<RuleSet>)]
    #[param(schema_with = wire::nullable::<RuleSet>)]
    pub rules: Option<RuleSet>,
    /// The first position as FEN; the board's start position if left out.
    #[serde(default)]
    pub fen: Option<String>,
}

impl BoardSpec {
    /// The start of a board under its usual rules.
    pub fn start_of(variant: Variant) -> BoardSpec {
        BoardSpec { variant: Some(variant), ..BoardSpec::default() }
    }

    /// The board and the rules, each from the other where it was left out.
    pub fn board_and_rules(&self) -> (Variant, RuleSet) {
        match (self.variant, self.rules) {
            (Some(v), Some(r)) => (v, r),
            (Some(v), None) => (v, v.default_rules()),
            (None, Some(r)) => (r.variant(), r),
            (None, None) => (Variant::Standard, Variant::Standard.default_rules()),
        }
    }

    /// The position asked for as written, if one was (blank counts as none).
    pub fn fen(&self) -> Option<&str> {
        self.fen.as_deref().map(str::trim).filter(|f| !f.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_and_rules_follow_from_either() {
        let spec = |variant, rules| BoardSpec { variant, rules, fen: None };
        assert_eq!(spec(None, None).board_and_rules(), (Variant::Standard, RuleSet::Asian));
        assert_eq!(spec(Some(Variant::Hex), None).board_and_rules(), (Variant::Hex, RuleSet::Hex));
        assert_eq!(spec(None, Some(RuleSet::Casual)).board_and_rules(), (Variant::Standard, RuleSet::Casual));
        assert_eq!(spec(None, Some(RuleSet::Hex)).board_and_rules(), (Variant::Hex, RuleSet::Hex));
        // Both named: kept as asked, for the board to refuse a mismatch by name.
        assert_eq!(
            spec(Some(Variant::Hex), Some(RuleSet::Asian)).board_and_rules(),
            (Variant::Hex, RuleSet::Asian)
        );
    }

    #[test]
    fn a_blank_position_is_the_start() {
        let spec = BoardSpec { fen: Some("  ".into()), ..BoardSpec::default() };
        assert_eq!(spec.fen(), None);
        let spec = BoardSpec { fen: Some(" 9/9 w ".into()), ..BoardSpec::default() };
        assert_eq!(spec.fen(), Some("9/9 w"));
    }

    #[test]
    fn it_reads_from_a_flattened_query_and_refuses_nothing_itself() {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Asked {
            #[serde(flatten)]
            board: BoardSpec,
            depth: Option<i32>,
        }
        let asked: Asked = serde_json::from_str(r#"{"rules":"hex","depth":3}"#).unwrap();
        assert_eq!(asked.board.board_and_rules(), (Variant::Hex, RuleSet::Hex));
        assert_eq!(asked.depth, Some(3));
        let unknown = serde_json::from_str::<Asked>(r#"{"rules":"hex","colour":"red"}"#).err().unwrap();
        assert!(unknown.to_string().contains("colour"), "{unknown}");
    }
}
