//! The evaluator: each player's expected final points from any position, from what a player
//! can see: their points so far plus a weighted sum of the position's [signals](Signal), with
//! weights set by hand ([`EvaluatorWeights`]) or fitted to self-play ([`LearnedWeights`]).

mod chance;
mod learned;
mod signals;

use carcassonne::{Action, FeatureScore, Game, Phase, Pos};
use serde::Deserialize;

pub use learned::{LearnedWeights, LearnedWeightsError};
pub use signals::{SIGNALS, Signal, Signals};

/// The evaluator's weights, in points; a profile may set any of them.
///
/// Made with `default` and changed with its `with_` methods or by assigning fields: it is
/// `#[non_exhaustive]`, so an option added in a later release breaks no caller.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct EvaluatorWeights {
    /// What a follower in supply is worth at the start of the game (an abbot half of it).
    pub figure_in_supply: f32,
    /// The share of that worth gone by the end: worth × (1 − decay × progress).
    pub supply_decay: f32,
    /// A figure on a feature whose completion chance is below this is stuck.
    pub stuck_below: f32,
    /// Points lost per stuck figure at the start of the game, fading to 0 at the end.
    pub stuck_penalty: f32,
    /// How much the other players' draws help to complete a feature, against one's own
    /// (they fill cells only when it suits them).
    pub rival_help: f32,
    /// Weight of what farmers may still gain from the unfinished cities their fields border
    /// (0 values a field only by the cities complete now).
    pub field_outlook: f32,
    /// Weight of the token majorities the players lead now (Traders & Builders' goods: each
    /// kind's declared points to whoever holds the most, ties in full, as the end would pay).
    pub token_majority: f32,
    /// Weight of the titles held now (King & Robber Baron: what each would pay its holder if
    /// the game ended now, by the declared rules).
    pub titles: f32,
    /// What a builder on an unfinished road or city is worth at the start of the game: the
    /// second turns its owner may still take there (Traders & Builders), fading to 0 at the
    /// end and by the feature's chance of staying open.
    pub builder: f32,
    /// Weight of a flock's market value: its sheep at the declared points a sheep, less the
    /// risk that the next token drawn for it is a wolf (halved: its owner may drive instead).
    pub flock: f32,
    /// What a builder, pig or shepherd in supply is worth, as a share of a follower's.
    pub special_in_supply: f32,
    /// Weights fitted to self-play (`carcassonne train-evaluator`), which replace the hand-set
    /// ones above but `rival_help` and `stuck_below` (they shape the signals). A profile
    /// names them: `learned = "builtin"` for the built-in weights, or a weights file's path
    /// (relative to the current directory).
    #[serde(deserialize_with = "learned::deserialize")]
    pub learned: Option<LearnedWeights>,
}

impl Default for EvaluatorWeights {
    fn default() -> EvaluatorWeights {
        EvaluatorWeights {
            figure_in_supply: 4.0,
            supply_decay: 0.7,
            stuck_below: 0.15,
            stuck_penalty: 3.0,
            rival_help: 0.25,
            field_outlook: 0.2,
            token_majority: 1.0,
            titles: 1.0,
            builder: 4.0,
            flock: 1.0,
            special_in_supply: 0.5,
            learned: None,
        }
    }
}

impl EvaluatorWeights {
    /// Sets [`figure_in_supply`](Self::figure_in_supply), for chaining.
    #[must_use]
    pub fn with_figure_in_supply(mut self, figure_in_supply: f32) -> EvaluatorWeights {
        self.figure_in_supply = figure_in_supply;
        self
    }

    /// Sets [`supply_decay`](Self::supply_decay), for chaining.
    #[must_use]
    pub fn with_supply_decay(mut self, supply_decay: f32) -> EvaluatorWeights {
        self.supply_decay = supply_decay;
        self
    }

    /// Sets [`stuck_below`](Self::stuck_below), for chaining.
    #[must_use]
    pub fn with_stuck_below(mut self, stuck_below: f32) -> EvaluatorWeights {
        self.stuck_below = stuck_below;
        self
    }

    /// Sets [`stuck_penalty`](Self::stuck_penalty), for chaining.
    #[must_use]
    pub fn with_stuck_penalty(mut self, stuck_penalty: f32) -> EvaluatorWeights {
        self.stuck_penalty = stuck_penalty;
        self
    }

    /// Sets [`rival_help`](Self::rival_help), for chaining.
    #[must_use]
    pub fn with_rival_help(mut self, rival_help: f32) -> EvaluatorWeights {
        self.rival_help = rival_help;
        self
    }

    /// Sets [`field_outlook`](Self::field_outlook), for chaining.
    #[must_use]
    pub fn with_field_outlook(mut self, field_outlook: f32) -> EvaluatorWeights {
        self.field_outlook = field_outlook;
        self
    }

    /// Sets [`token_majority`](Self::token_majority), for chaining.
    #[must_use]
    pub fn with_token_majority(mut self, token_majority: f32) -> EvaluatorWeights {
        self.token_majority = token_majority;
        self
    }

    /// Sets [`titles`](Self::titles), for chaining.
    #[must_use]
    pub fn with_titles(mut self, titles: f32) -> EvaluatorWeights {
        self.titles = titles;
        self
    }

    /// Sets [`builder`](Self::builder), for chaining.
    #[must_use]
    pub fn with_builder(mut self, builder: f32) -> EvaluatorWeights {
        self.builder = builder;
        self
    }

    /// Sets [`flock`](Self::flock), for chaining.
    #[must_use]
    pub fn with_flock(mut self, flock: f32) -> EvaluatorWeights {
        self.flock = flock;
        self
    }

    /// Sets [`special_in_supply`](Self::special_in_supply), for chaining.
    #[must_use]
    pub fn with_special_in_supply(mut self, special_in_supply: f32) -> EvaluatorWeights {
        self.special_in_supply = special_in_supply;
        self
    }

    /// Sets [`learned`](Self::learned), for chaining.
    #[must_use]
    pub fn with_learned(mut self, learned: Option<LearnedWeights>) -> EvaluatorWeights {
        self.learned = learned;
        self
    }

    /// The weight of each signal: the learned ones, or those the hand-set settings imply.
    #[must_use]
    pub fn signal_weights(&self) -> Signals {
        if let Some(learned) = &self.learned {
            return learned.weights;
        }
        let mut weights = [0.0; SIGNALS];
        let worth = self.figure_in_supply;
        for (signal, weight) in [
            (Signal::CityNow, 1.0),
            (Signal::CityGain, 1.0),
            (Signal::RoadNow, 1.0),
            (Signal::RoadGain, 1.0),
            (Signal::CloisterNow, 1.0),
            (Signal::CloisterGain, 1.0),
            (Signal::FieldNow, 1.0),
            (Signal::FieldOutlook, self.field_outlook),
            (Signal::OtherNow, 1.0),
            (Signal::Supply, worth),
            (Signal::SupplyProgress, -worth * self.supply_decay),
            (Signal::Specials, worth * self.special_in_supply),
            (Signal::SpecialsProgress, -worth * self.supply_decay * self.special_in_supply),
            (Signal::Tokens, self.token_majority),
            (Signal::Titles, self.titles),
            (Signal::Flock, self.flock),
            (Signal::Builder, self.builder),
            (Signal::Stuck, -self.stuck_penalty),
        ] {
            weights[signal.index()] = weight;
        }
        weights
    }
}

/// Expected final points per player: points so far plus the weighted signals of the
/// position. With the hand-set weights: each unfinished road, city, monastery and garden by
/// its chance of completion from the tiles left that fit its open cells; the fields as they
/// would score now and a share of what the cities they border may bring; the token majorities
/// and titles as they stand; flocks; figures in supply, worth less as the game goes on; a
/// penalty for figures stuck.
///
/// ```
/// use carcassonne::{Catalog, Game, GameSetup};
/// use carcassonne_bots::Evaluator;
/// let game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 3))?;
/// let expected = Evaluator::default().expected_points(&game);
/// assert_eq!(expected.len(), 3);
/// // Nobody has scored or placed anything: the players differ by nothing.
/// assert!(expected.iter().all(|points| *points == expected[0] && *points > 0.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluator {
    /// The weights in use.
    pub weights: EvaluatorWeights,
    /// Each signal's weight, from `weights`.
    signal_weights: Signals,
}

impl Default for Evaluator {
    fn default() -> Evaluator {
        Evaluator::new(EvaluatorWeights::default())
    }
}

/// The buffers one evaluation uses, kept between calls by a search.
#[derive(Default)]
pub(crate) struct Scratch {
    scores: Vec<FeatureScore>,
    cells: Vec<Pos>,
    /// Frontier key → how many tiles left fit it.
    fits: Vec<(u16, u32)>,
    /// Feature root → its completion chance.
    chances: Vec<(u32, f32)>,
    /// Unfinished cities a field borders: root, and a tile and segment of each.
    cities: Vec<(u32, u16, u8)>,
    /// Each player's signals.
    signals: Vec<Signals>,
}

impl Evaluator {
    /// An evaluator with `weights`.
    #[must_use]
    pub fn new(weights: EvaluatorWeights) -> Evaluator {
        Evaluator { weights, signal_weights: weights.signal_weights() }
    }

    /// Each player's expected final points, in turn order. A finished game gives its scores.
    #[must_use]
    pub fn expected_points(&self, game: &Game) -> Vec<f32> {
        let mut out = vec![0.0; usize::from(game.players())];
        self.expected_points_into(game, &mut Scratch::default(), &mut out);
        out
    }

    /// Each player's signals in `game` (all 0 in a finished game), in turn order: what the
    /// weights multiply.
    #[must_use]
    pub fn signals(&self, game: &Game) -> Vec<Signals> {
        let mut scratch = Scratch::default();
        let mut out = vec![[0.0; SIGNALS]; usize::from(game.players())];
        if !game.is_over() {
            signals::signals_into(game, &self.weights, &mut scratch, &mut out);
        }
        out
    }

    /// As [`Evaluator::expected_points`], reusing `scratch`; `out` holds one entry a player.
    pub(crate) fn expected_points_into(&self, game: &Game, scratch: &mut Scratch, out: &mut [f32]) {
        for (out, score) in out.iter_mut().zip(game.scores()) {
            *out = *score as f32;
        }
        if game.is_over() {
            return;
        }
        if matches!(game.phase(), Phase::Sheep { .. })
            && self.expected_over_tokens(game, scratch, out)
        {
            return;
        }
        let mut signals = std::mem::take(&mut scratch.signals);
        signals.resize(out.len(), [0.0; SIGNALS]);
        signals::signals_into(game, &self.weights, scratch, &mut signals);
        for (out, signals) in out.iter_mut().zip(&signals) {
            *out += signals.iter().zip(&self.signal_weights).map(|(s, w)| s * w).sum::<f32>();
        }
        scratch.signals = signals;
    }
}

/// Each token the bag of the hoard being drawn for holds, as the action that draws it, with its count (public; the
/// order is not): what a draw in the sheep phase may bring, and how likely each is.
pub(crate) fn token_draws(game: &Game) -> Vec<(Action, f32)> {
    game.tended_bag()
        .iter()
        .filter(|(_, count)| *count > 0)
        .map(|(token, count)| (Action::DrawToken { token }, f32::from(count)))
        .collect()
}

impl Evaluator {
    /// A flock's token is about to be drawn (Hills & Sheep): the mean of the positions after
    /// each token the bag holds, weighted by its count (public; the order is not). Valued as
    /// it stands, the flock would count without the sheep it is about to gain or lose, and a
    /// shepherd just placed or a flock being grown would look worth nothing. A draw leads to
    /// a decision or the next turn, never to another draw, so this recurses once. `false`,
    /// with `out` untouched, if no token could be drawn.
    fn expected_over_tokens(&self, game: &Game, scratch: &mut Scratch, out: &mut [f32]) -> bool {
        let mut tokens = token_draws(game);
        if tokens.is_empty() {
            tokens.push((Action::Draw, 1.0));
        }
        let total: f32 = tokens.iter().map(|(_, count)| count).sum();
        let mut child = vec![0.0; out.len()];
        let mut mean = vec![0.0; out.len()];
        let mut weight = 0.0;
        for (token, count) in tokens {
            let mut after = game.clone();
            if after.apply(token).is_err() || matches!(after.phase(), Phase::Sheep { .. }) {
                continue;
            }
            self.expected_points_into(&after, scratch, &mut child);
            for (mean, child) in mean.iter_mut().zip(&child) {
                *mean += child * count / total;
            }
            weight += count / total;
        }
        if weight <= 0.0 {
            return false;
        }
        for (out, mean) in out.iter_mut().zip(&mean) {
            *out = mean / weight;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::{Action, Catalog, Figure, GameSetup, Phase};

    /// A monk challenged by a heretic beside him (The Cult), both needing as many cells, keeps
    /// half his monastery's worth: the race is even.
    #[test]
    fn a_challenged_monastery_is_worth_its_chance_of_winning() {
        let sets = vec![Catalog::builtin("base").unwrap(), Catalog::builtin("cult").unwrap()];
        let mut game = Game::new(GameSetup::new(sets, 2)).unwrap();
        let put = |game: &mut Game, id: &str, x: i16| {
            let tile = game.tile_by_id(id).unwrap().0;
            game.apply(Action::DrawTile { tile }).unwrap();
            let rotation = carcassonne::Rotation::R0;
            game.apply(Action::Place { pos: Pos::new(x, -1), rotation }).unwrap();
        };
        put(&mut game, "B", 0);
        game.apply(Action::Deploy { segment: 0, figure: Figure::FOLLOWER }).unwrap();
        put(&mut game, "CU01", 1);
        let evaluator = Evaluator::default();
        let (mut alone, mut challenged) = (game.clone(), game);
        alone.apply(Action::Skip).unwrap();
        challenged.apply(Action::Deploy { segment: 0, figure: Figure::FOLLOWER }).unwrap();
        assert_eq!(challenged.challenges().len(), 1);
        // Red's worth: the same but for the monastery's share.
        let (alone, challenged) =
            (evaluator.expected_points(&alone)[0], evaluator.expected_points(&challenged)[0]);
        assert!(challenged < alone - 2.0, "{challenged} vs {alone}");
        let pos = Pos::new(0, -1);
        assert!((chance::survival(&alone_game(), pos, &[]) - 1.0).abs() < f32::EPSILON);
    }

    fn alone_game() -> Game {
        Game::new(GameSetup::new(vec![Catalog::builtin("base").unwrap()], 2)).unwrap()
    }

    /// A follower on a city that only a rare tile can close is worth less than on one that
    /// many tiles close, and a finished game is valued at its scores.
    #[test]
    fn values_follow_completion_chances() {
        let mut game =
            Game::new(GameSetup::new(vec![Catalog::builtin("base").unwrap()], 2)).unwrap();
        let evaluator = Evaluator::default();
        let start = evaluator.expected_points(&game);
        assert_eq!(start[0], start[1]);
        let mut actions = Vec::new();
        while !game.is_over() {
            game.legal_actions_into(&mut actions);
            let deploy = actions.iter().find(|a| matches!(a, Action::Deploy { .. }));
            game.apply(*deploy.unwrap_or(&actions[0])).unwrap();
            let expected = evaluator.expected_points(&game);
            assert!(expected.iter().all(|points| points.is_finite() && *points >= -30.0));
        }
        let end = evaluator.expected_points(&game);
        let scores: Vec<f32> = game.scores().iter().map(|s| *s as f32).collect();
        assert_eq!(end, scores);
    }

    /// Hills & Sheep: the base game's first tile, a monastery below it with the first
    /// player's shepherd on its field, the flock's first token not drawn yet.
    fn shepherd_placed() -> Game {
        let sets = ["base", "hills_and_sheep"].map(|name| Catalog::builtin(name).unwrap());
        let mut game = Game::new(GameSetup::new(sets.to_vec(), 2)).unwrap();
        let monastery = game.tile_by_id("B").unwrap().0;
        game.apply(Action::DrawTile { tile: monastery }).unwrap();
        game.apply(Action::Place { pos: Pos::new(0, -1), rotation: carcassonne::Rotation::R0 })
            .unwrap();
        game.apply(Action::Deploy { segment: 1, figure: Figure::SHEPHERD }).unwrap();
        assert!(matches!(game.phase(), Phase::Sheep { .. }));
        game
    }

    /// Hills & Sheep: a flock is worth its sheep at a point each, less half the chance that
    /// the next token is a wolf: 3 sheep with 2 wolves among the 17 tokens left, 3 x (1 - 1/17).
    #[test]
    fn a_flock_is_valued_by_its_sheep_against_the_wolf() {
        let mut game = shepherd_placed();
        game.apply(Action::DrawToken { token: carcassonne::BagToken::from_id("sheep_3").unwrap() })
            .unwrap();
        let with = Evaluator::default().expected_points(&game);
        let without =
            Evaluator::new(EvaluatorWeights::default().with_flock(0.0)).expected_points(&game);
        assert!(
            (with[0] - without[0] - 3.0 * (1.0 - 1.0 / 17.0)).abs() < 1e-4,
            "{with:?} {without:?}"
        );
        assert!((with[1] - without[1]).abs() < 1e-4);
    }

    /// A shepherd still on the board at the end scores nothing: a flock is worth less the
    /// fewer turns its owner has left to drive it to market (half with one turn, none with
    /// none).
    #[test]
    fn a_flock_fades_as_its_owners_turns_run_out() {
        let mut game = shepherd_placed();
        game.apply(Action::DrawToken { token: carcassonne::BagToken::from_id("sheep_3").unwrap() })
            .unwrap();
        let flock = |own_turns: f32| {
            let mut out = vec![[0.0; SIGNALS]; 2];
            signals::flocks(&game, own_turns, &mut out);
            (out[0][Signal::Flock.index()], out[1][Signal::Flock.index()])
        };
        let full = 3.0 * (1.0 - 1.0 / 17.0);
        assert!((flock(30.0).0 - full).abs() < 1e-4);
        assert!((flock(1.0).0 - full / 2.0).abs() < 1e-4);
        assert_eq!(flock(0.0), (0.0, 0.0));
        assert_eq!(flock(30.0).1, 0.0);
    }

    /// A token about to be drawn is valued as the mean of what each token the bag holds would
    /// leave, by its count (4 of 1 sheep, 5 of 2, 5 of 3, 2 of 4, 2 wolves): a shepherd just
    /// placed is worth its likely sheep, not the empty flock it has before the draw (a wolf
    /// sends it back to the supply, where it is worth about as much).
    #[test]
    fn a_pending_token_is_valued_by_the_bags_counts() {
        let game = shepherd_placed();
        let evaluator = Evaluator::default();
        let after = |token: Action| {
            let mut after = game.clone();
            after.apply(token).unwrap();
            evaluator.expected_points(&after)
        };
        let draws = [(1, 4.0), (2, 5.0), (3, 5.0), (4, 2.0)].map(|(sheep, count)| {
            let token = carcassonne::BagToken::from_id(&format!("sheep_{sheep}")).unwrap();
            (after(Action::DrawToken { token }), count)
        });
        let wolf =
            after(Action::DrawToken { token: carcassonne::BagToken::from_id("wolf").unwrap() });
        let pending = evaluator.expected_points(&game);
        for player in 0..2 {
            let mean = (draws.iter().map(|(points, count)| points[player] * count).sum::<f32>()
                + wolf[player] * 2.0)
                / 18.0;
            assert!((pending[player] - mean).abs() < 1e-3, "{pending:?} against {mean}");
        }
        let (fewest, most) = (draws[0].0[0], draws[3].0[0]);
        assert!(pending[0] > wolf[0] && fewest < pending[0] && pending[0] < most, "{pending:?}");
    }

    /// Traders & Builders: whoever holds the most of a kind now is valued its 10 points (each
    /// tied player in full), from the declared tokens alone.
    #[test]
    fn token_majorities_are_valued_as_they_stand() {
        let sets = ["base", "traders_and_builders"].map(|name| Catalog::builtin(name).unwrap());
        let mut game = Game::new(GameSetup::new(sets.to_vec(), 3)).unwrap();
        let with = Evaluator::default();
        let without =
            Evaluator::new(EvaluatorWeights { token_majority: 0.0, ..EvaluatorWeights::default() });
        let mut actions = Vec::new();
        let mut seen = 0;
        for step in 0usize.. {
            if game.is_over() {
                break;
            }
            let (a, b) = (with.expected_points(&game), without.expected_points(&game));
            for player in 0..3u8 {
                let held = |p: u8, kind: u8| {
                    game.token_count(carcassonne::PlayerId(p), carcassonne::TokenId(kind))
                };
                let leads = (0..3)
                    .filter(|kind| {
                        let most = (0..3).map(|p| held(p, *kind)).max().unwrap_or(0);
                        most > 0 && held(player, *kind) == most
                    })
                    .count();
                seen += leads;
                let gain = a[usize::from(player)] - b[usize::from(player)];
                assert!((gain - 10.0 * leads as f32).abs() < 1e-3, "step {step}: {gain}");
            }
            game.legal_actions_into(&mut actions);
            game.apply(actions[step * 7 % actions.len()]).unwrap();
        }
        assert!(seen > 0, "somebody led a kind during the game");
    }
}
