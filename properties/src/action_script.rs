//! A real game and any actions against it.

use arbitrary::Arbitrary;
use carcassonne::{
    Action, Catalog, Event, FarmScoring, Figure, Game, GameSetup, Phase, PlayerSet, Pos, Rotation,
    RuleOptions, TileIndex, TitleScoring, UnfinishedMarks,
};

#[path = "../../tests/common/oracle.rs"]
#[allow(dead_code, reason = "shared with the root crate's tests, which use all of it")]
mod oracle;

#[path = "../../tests/common/combinations.rs"]
mod combinations;
use combinations::COMBINATIONS;

/// A game to set up and the steps to take in it.
#[derive(Clone, Debug, Arbitrary)]
pub struct Script {
    /// Which of the built-in combinations, modulo their number.
    pub sets: u8,
    /// Players, brought into 2 to the most the sets allow.
    pub players: u8,
    /// The game's seed.
    pub seed: u64,
    /// The rule options, one bit each: farmers, tiny city, unfinished inns and cathedrals
    /// score zero, abbots; bits 4–5 pick the farm scoring, bits 6–7 the title scoring.
    pub options: u8,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// After the steps, play the game to its end with listed actions.
    pub finish: bool,
}

/// One step against the game.
#[derive(Clone, Copy, Debug, Arbitrary)]
pub enum Step {
    /// Apply a listed action, chosen by its number modulo the list's length.
    Legal(u16),
    /// Try any action at all: accepted exactly when the rules allow it.
    Try(Attempt),
    /// Save, load, replay and clone the game, and compare.
    Save,
}

/// An action to try, mostly near the tiles already placed, where mistakes are subtle.
#[derive(Clone, Copy, Debug, Arbitrary)]
pub enum Attempt {
    /// Draw from the bag.
    Draw,
    /// Name the tile to draw.
    DrawTile(u16),
    /// Place the drawn tile at or next to (diagonals too) a tile on the board.
    PlaceNear {
        /// Which placed tile, modulo their number.
        tile: u16,
        /// 0–8: the 3×3 cells around it, row by row.
        cell: u8,
        /// Quarter turns, modulo 4.
        rotation: u8,
    },
    /// Place the drawn tile anywhere, off the board included.
    PlaceAt {
        /// The column.
        x: i16,
        /// The row.
        y: i16,
        /// Quarter turns, modulo 4.
        rotation: u8,
    },
    /// Deploy a figure (any of the engine's, modulo their number) on a segment.
    Deploy {
        /// The segment's index.
        segment: u8,
        /// Which figure, modulo the number of figures.
        figure: u8,
    },
    /// Take back an abbot from the cell of a placed tile, modulo their number.
    Recall(u16),
    /// Deploy nothing.
    Skip,
    /// Name the token to draw from a bag: the game's kind of this number, modulo one more
    /// than their number (the last being a token no bag has).
    DrawToken(u8),
    /// Grow the flock the tile extended.
    GrowFlock,
    /// Drive that flock to market.
    DriveFlock,
}

/// Legal actions are accepted, every other action is refused by both `check` and `apply` with
/// the same error and leaves the game exactly as it was, and after every step the game keeps
/// its invariants: the listed actions are the legal ones, tiles and figures are all accounted
/// for, the scores are the sum of the scoring events, the incremental features equal a
/// from-scratch flood fill, and saving, loading and replaying give back an equal game.
///
/// # Panics
/// When the library breaks one of these promises.
pub fn keeps_invariants(script: &Script) {
    let mut game = Game::new(setup(script)).expect("the built-in combinations make games");
    let mut tally = vec![0u32; usize::from(game.players())];
    let mut legal = Vec::new();
    for step in &script.steps {
        if game.is_over() {
            break;
        }
        game.legal_actions_into(&mut legal);
        match *step {
            Step::Legal(number) => {
                let action = legal[usize::from(number) % legal.len()];
                take(&mut game, action, &mut tally);
            }
            Step::Try(attempt) => {
                let action = attempt.action(&game);
                let allowed = match action {
                    Action::DrawTile { tile } => game.phase() == Phase::Draw && game.drawable(tile),
                    // A named token, like a named tile, is a chance outcome the list leaves out.
                    Action::DrawToken { token } => {
                        matches!(game.phase(), Phase::Sheep { .. })
                            && game.tended_bag().count(token) > 0
                    }
                    _ => legal.contains(&action),
                };
                if allowed {
                    take(&mut game, action, &mut tally);
                } else {
                    let before = game.clone();
                    let refusal = game
                        .check(action)
                        .expect_err("check accepted an action the rules do not list");
                    assert_eq!(game.apply(action), Err(refusal), "check and apply disagree");
                    assert!(game == before, "the refused {action:?} changed the game");
                }
            }
            Step::Save => crate::invariants::assert_saves_and_replays(&game),
        }
        crate::invariants::assert_consistent(&game);
        assert_eq!(game.scores(), tally, "the scores are not the sum of the scoring events");
        if matches!(game.phase(), Phase::Figure { .. }) {
            oracle::assert_matches_oracle(game.features(), game.board(), game.tiles());
        }
    }
    if script.finish {
        let mut pick = script.seed;
        while !game.is_over() {
            game.legal_actions_into(&mut legal);
            pick = pick
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            take(&mut game, legal[(pick >> 33) as usize % legal.len()], &mut tally);
        }
        assert_eq!(game.scores(), tally, "the final scores are not the sum of the events");
        crate::invariants::assert_consistent(&game);
        oracle::assert_matches_oracle(game.features(), game.board(), game.tiles());
        crate::invariants::assert_saves_and_replays(&game);
    }
}

fn setup(script: &Script) -> GameSetup {
    let names = COMBINATIONS[usize::from(script.sets) % COMBINATIONS.len()];
    let catalogs: Vec<Catalog> =
        names.iter().map(|name| Catalog::builtin(name).expect("built in")).collect();
    let seats = if names.contains(&"inns_and_cathedrals") { 6 } else { 5 };
    let bit = |n: u8| script.options & (1 << n) != 0;
    let options = RuleOptions::new()
        .with_farmers(bit(0))
        .with_tiny_city(bit(1))
        .with_inn_cathedral_unfinished(if bit(2) {
            UnfinishedMarks::Zero
        } else {
            UnfinishedMarks::Normal
        })
        .with_abbots(bit(3))
        .with_farm_scoring(match (script.options >> 4) % 3 {
            0 => FarmScoring::PerField,
            1 => FarmScoring::PerFieldOnce,
            _ => FarmScoring::PerCity4,
        })
        .with_title_scoring(
            [
                TitleScoring::Printed,
                TitleScoring::TenEach,
                TitleScoring::FifteenForty,
                TitleScoring::Continuous,
            ][usize::from(script.options >> 6)],
        );
    let players = 2 + script.players % (seats - 1);
    GameSetup::new(catalogs, players).with_seed(script.seed).with_options(options)
}

/// Applies an action the rules allow, which must be accepted, and adds up its scores.
fn take(game: &mut Game, action: Action, tally: &mut [u32]) {
    assert_eq!(game.check(action), Ok(()), "{action:?} is allowed but check refused it");
    let events = game.apply(action).unwrap_or_else(|error| panic!("{action:?} refused: {error}"));
    // A skip before a flock's choice, and growing a flock, tell nothing yet: the choice and
    // the sheep token drawn next do.
    let quiet = action == Action::GrowFlock
        || (action == Action::Skip && matches!(game.phase(), carcassonne::Phase::Flock { .. }));
    assert!(!events.is_empty() || quiet, "{action:?} told nothing");
    for event in &events {
        match *event {
            Event::FeatureScored(score) => {
                for player in score.scorers.iter() {
                    tally[usize::from(player.0)] += score.points;
                }
            }
            Event::TokensScored { points, scorers, .. } => {
                for player in scorers.iter() {
                    tally[usize::from(player.0)] += points;
                }
            }
            Event::TitleScored { player, points, .. } => {
                tally[usize::from(player.0)] += points;
            }
            Event::GameOver { winners } => {
                let best = tally.iter().copied().max().unwrap_or(0);
                let expected = (0..game.players())
                    .map(carcassonne::PlayerId)
                    .filter(|player| tally[usize::from(player.0)] == best)
                    .fold(PlayerSet::EMPTY, PlayerSet::with);
                assert_eq!(winners, expected, "the winners are not the leaders");
            }
            _ => {}
        }
    }
}

impl Attempt {
    fn action(self, game: &Game) -> Action {
        let placed = game.placements();
        let placed_at = |number: u16| placed[usize::from(number) % placed.len()].0;
        match self {
            Attempt::Draw => Action::Draw,
            Attempt::DrawTile(tile) => Action::DrawTile { tile: tile as TileIndex },
            Attempt::PlaceNear { tile, cell, rotation } => {
                let at = placed_at(tile);
                let (dx, dy) = (i16::from(cell % 3) - 1, i16::from(cell / 3 % 3) - 1);
                let pos = Pos::new(at.x.saturating_add(dx), at.y.saturating_add(dy));
                Action::Place { pos, rotation: Rotation::ALL[usize::from(rotation % 4)] }
            }
            Attempt::PlaceAt { x, y, rotation } => Action::Place {
                pos: Pos::new(x, y),
                rotation: Rotation::ALL[usize::from(rotation % 4)],
            },
            Attempt::Deploy { segment, figure } => Action::Deploy {
                segment,
                figure: Figure::PUBLISHED[usize::from(figure) % Figure::PUBLISHED.len()],
            },
            Attempt::Recall(tile) => Action::RecallAbbot { pos: placed_at(tile) },
            Attempt::Skip => Action::Skip,
            Attempt::DrawToken(number) => {
                let kinds = game.bag_kinds();
                let token = kinds
                    .get(usize::from(number) % (kinds.len() + 1))
                    .map(|kind| kind.rule.token)
                    .or(carcassonne::BagToken::from_id("no_bag_has_it"))
                    .expect("a token id");
                Action::DrawToken { token }
            }
            Attempt::GrowFlock => Action::GrowFlock,
            Attempt::DriveFlock => Action::DriveFlock,
        }
    }
}
