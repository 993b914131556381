//! The signals of a position, per player: what each holds on the board and in hand, in points
//! or counts, from what every player can see. Both evaluators weigh the same signals: the
//! hand-set one with weights derived from [`EvaluatorWeights`], the learned one with weights
//! fitted to self-play.

use carcassonne::{Drawn, Effect, Figure, Game, PlayerId, ScoreReason, SegmentKind};

use super::chance::{completed_value, fill_chance, linear_chance, root_of, survival};
use super::{EvaluatorWeights, Scratch};

/// How many signals a player has.
pub const SIGNALS: usize = 25;

/// One player's signals, indexed by [`Signal`].
pub type Signals = [f32; SIGNALS];

/// A signal of a position, for one player. "Left" is the share of the tiles still in the bag,
/// "progress" the share drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Signal {
    /// Points the player's unfinished cities would score now, at the end.
    CityNow,
    /// What completing them would add, by each one's completion chance.
    CityGain,
    /// As [`Signal::CityNow`], for roads.
    RoadNow,
    /// As [`Signal::CityGain`], for roads.
    RoadGain,
    /// Points the player's unfinished monasteries and gardens would score now.
    CloisterNow,
    /// What they may still gain: each empty cell around by its chance of being filled, the
    /// bonus of marked tiles by the chance of completion, all by the chance of surviving a
    /// challenge.
    CloisterGain,
    /// Points the player's farmers would score now.
    FieldNow,
    /// 3 points for each unfinished city the fields border, by its completion chance.
    FieldOutlook,
    /// Other points the end would pay now (fields scored otherwise, end bonuses).
    OtherNow,
    /// Followers in supply (a big follower one, an abbot a half).
    Supply,
    /// [`Signal::Supply`] times progress.
    SupplyProgress,
    /// Builders, pigs and shepherds in supply.
    Specials,
    /// [`Signal::Specials`] times progress.
    SpecialsProgress,
    /// Majority points of the tokens the player leads in now.
    Tokens,
    /// What the titles the player holds would pay now.
    Titles,
    /// The player's flocks at market value, less half the chance the next token is a wolf, times
    /// the chance that the owner drives them to market before the end.
    Flock,
    /// Builders on unfinished features, by left and the chance the feature stays open.
    Builder,
    /// Figures on features unlikely to be completed (an abbot half), by left.
    Stuck,
    /// [`Signal::CityGain`] times left.
    CityGainLeft,
    /// [`Signal::RoadGain`] times left.
    RoadGainLeft,
    /// [`Signal::CloisterGain`] times left.
    CloisterGainLeft,
    /// [`Signal::FieldNow`] times left.
    FieldNowLeft,
    /// Figures on unfinished roads, cities, monasteries and gardens (they come back when
    /// those are completed), by left.
    OpenFigures,
    /// Empty cells the player's unfinished roads and cities are open to, by left.
    OpenCells,
    /// The player's turns left (the tiles in the bag over the players): what is still to be
    /// made of tiles not drawn yet.
    TurnsLeft,
}

impl Signal {
    /// Every signal, in index order.
    pub const ALL: [Signal; SIGNALS] = [
        Signal::CityNow,
        Signal::CityGain,
        Signal::RoadNow,
        Signal::RoadGain,
        Signal::CloisterNow,
        Signal::CloisterGain,
        Signal::FieldNow,
        Signal::FieldOutlook,
        Signal::OtherNow,
        Signal::Supply,
        Signal::SupplyProgress,
        Signal::Specials,
        Signal::SpecialsProgress,
        Signal::Tokens,
        Signal::Titles,
        Signal::Flock,
        Signal::Builder,
        Signal::Stuck,
        Signal::CityGainLeft,
        Signal::RoadGainLeft,
        Signal::CloisterGainLeft,
        Signal::FieldNowLeft,
        Signal::OpenFigures,
        Signal::OpenCells,
        Signal::TurnsLeft,
    ];

    /// The signal's name in weight files.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Signal::CityNow => "city_now",
            Signal::CityGain => "city_gain",
            Signal::RoadNow => "road_now",
            Signal::RoadGain => "road_gain",
            Signal::CloisterNow => "cloister_now",
            Signal::CloisterGain => "cloister_gain",
            Signal::FieldNow => "field_now",
            Signal::FieldOutlook => "field_outlook",
            Signal::OtherNow => "other_now",
            Signal::Supply => "supply",
            Signal::SupplyProgress => "supply_progress",
            Signal::Specials => "specials",
            Signal::SpecialsProgress => "specials_progress",
            Signal::Tokens => "tokens",
            Signal::Titles => "titles",
            Signal::Flock => "flock",
            Signal::Builder => "builder",
            Signal::Stuck => "stuck",
            Signal::CityGainLeft => "city_gain_left",
            Signal::RoadGainLeft => "road_gain_left",
            Signal::CloisterGainLeft => "cloister_gain_left",
            Signal::FieldNowLeft => "field_now_left",
            Signal::OpenFigures => "open_figures",
            Signal::OpenCells => "open_cells",
            Signal::TurnsLeft => "turns_left",
        }
    }

    /// The signal named `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Signal> {
        Signal::ALL.into_iter().find(|signal| signal.name() == name)
    }

    /// Its index in [`Signals`].
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Fills `out` (one entry a player) with each player's signals in `game`, which is not over.
/// `weights` gives the two settings that shape the signals themselves: how much rivals' draws
/// help (`rival_help`) and what counts as stuck (`stuck_below`).
pub(super) fn signals_into(
    game: &Game,
    weights: &EvaluatorWeights,
    scratch: &mut Scratch,
    out: &mut [Signals],
) {
    for signals in out.iter_mut() {
        *signals = [0.0; SIGNALS];
    }
    let total = game.catalogs().iter().map(|c| c.tile_count()).sum::<usize>().max(1) as f32;
    let left = game.tiles_left() as f32;
    let progress = 1.0 - left / total;
    let fading = 1.0 - progress;
    let players = f32::from(game.players());
    // The draws that may fill a cell for a feature's owner: their own, and a little of
    // everyone else's.
    let draws = left / players * (1.0 + weights.rival_help * (players - 1.0));

    scratch.scores.clear();
    scratch.chances.clear();
    scratch.fits.clear();
    game.scores_if_over(&mut scratch.scores);
    let scores = std::mem::take(&mut scratch.scores);
    // Whether a monastery or garden may earn more than 9 when completed (a declared bonus
    // for marked tiles around it, such as Hills & Sheep's vineyards).
    let bonuses = game.rules().iter().any(|rule| matches!(rule.effect, Effect::Neighbours(_)));
    // The challenges between rivals (The Cult): each side keeps its value only by being
    // completed first, or by neither being completed.
    let challenges = game.challenges();
    for score in &scores {
        let points = score.points as f32;
        // (signal, value) pairs this score adds to each of its scorers.
        let mut adds: [(Signal, f32); 3] = [(Signal::OtherNow, 0.0); 3];
        match score.kind {
            SegmentKind::Field if score.farmers => {
                let outlook = field_outlook(game, score, draws, scratch);
                adds = [
                    (Signal::FieldNow, points),
                    (Signal::FieldNowLeft, points * fading),
                    (Signal::FieldOutlook, outlook),
                ];
            }
            _ if score.farmers || score.reason != ScoreReason::GameEnd => {
                adds[0] = (Signal::OtherNow, points);
            }
            SegmentKind::City | SegmentKind::Road => {
                let chance = linear_chance(game, score.pos, score.segment, draws, scratch);
                remember(game, score.pos, score.segment, chance, scratch);
                let cells = scratch.cells.len() as f32;
                let gain = chance * (completed_value(game, score) - points);
                let (now, gained, gained_left) = if score.kind == SegmentKind::City {
                    (Signal::CityNow, Signal::CityGain, Signal::CityGainLeft)
                } else {
                    (Signal::RoadNow, Signal::RoadGain, Signal::RoadGainLeft)
                };
                adds = [(now, points), (gained, gain), (gained_left, gain * fading)];
                for player in score.scorers.iter() {
                    if let Some(signals) = out.get_mut(player.index()) {
                        signals[Signal::OpenCells.index()] += cells * fading;
                    }
                }
            }
            SegmentKind::Monastery | SegmentKind::Garden => {
                let (expected, chance) = cloister_outlook(game, score.pos, draws, scratch);
                remember(game, score.pos, score.segment, chance, scratch);
                // The bonus of the marked tiles around it now, if it is completed.
                let bonus = if bonuses { completed_value(game, score) - 9.0 } else { 0.0 };
                let value =
                    (expected + chance * bonus.max(0.0)) * survival(game, score.pos, &challenges);
                let gain = value - points;
                adds = [
                    (Signal::CloisterNow, points),
                    (Signal::CloisterGain, gain),
                    (Signal::CloisterGainLeft, gain * fading),
                ];
            }
            SegmentKind::Field | SegmentKind::River => adds[0] = (Signal::OtherNow, points),
        }
        for player in score.scorers.iter() {
            if let Some(signals) = out.get_mut(player.index()) {
                for (signal, value) in adds {
                    signals[signal.index()] += value;
                }
            }
        }
    }
    scratch.scores = scores;

    for (player, signals) in out.iter_mut().enumerate() {
        let (mut followers, mut specials) = (0.0, 0.0);
        for figure in game.figure_kinds() {
            let count = f32::from(game.in_hand(PlayerId(player as u8), figure));
            match game.figure_rule(figure) {
                // A follower that stands on few kinds of feature (the abbot: monasteries and
                // gardens) is worth less in hand than one that stands on four or more.
                Some(rule) if rule.is_follower() => {
                    followers += count * (rule.stands_on.len() as f32 / 4.0).min(1.0);
                }
                _ => specials += count,
            }
        }
        signals[Signal::Supply.index()] = followers;
        signals[Signal::SupplyProgress.index()] = followers * progress;
        signals[Signal::Specials.index()] = specials;
        signals[Signal::SpecialsProgress.index()] = specials * progress;
        signals[Signal::TurnsLeft.index()] = left / players;
    }
    token_majorities(game, out);
    titles_held(game, out);
    flocks(game, left / players, out);
    for figure in game.figures() {
        let Some(root) = root_of(game, figure.pos, figure.segment) else { continue };
        let Some((_, chance)) = scratch.chances.iter().find(|(r, _)| *r == root) else {
            continue;
        };
        let Some(signals) = out.get_mut(figure.player.index()) else { continue };
        let strength = if figure.figure == Figure::ABBOT { 0.5 } else { 1.0 };
        if figure.figure == Figure::BUILDER {
            // Its second turns come while the road or city stays open to its owner's tiles.
            signals[Signal::Builder.index()] += fading * (1.0 - *chance * 0.5);
        } else {
            signals[Signal::OpenFigures.index()] += fading * strength;
        }
        if *chance < weights.stuck_below {
            signals[Signal::Stuck.index()] += fading * strength;
        }
    }
}

/// Each flock's market value to its shepherd's owner: its sheep at the declared points a
/// sheep, discounted by half the chance that the next token drawn is a wolf (from the bag's
/// public counts: its order is nobody's to know), and by the chance that it reaches the market
/// at all: a shepherd still on the board at the end scores nothing, and only the owner's own
/// tiles drive a flock (short of closing its field). Each of the owner's `own_turns` left is
/// taken to extend the field with an even chance.
pub(super) fn flocks(game: &Game, own_turns: f32, out: &mut [Signals]) {
    let (kinds, bag) = (game.bag_kinds(), game.bag());
    let reaches_market = 1.0 - 0.5f32.powf(own_turns.max(0.0));
    for hoard in game.hoards() {
        let Some(Effect::Bag(rule)) = game.rules().get(hoard.bag.index()).map(|rule| &rule.effect)
        else {
            continue;
        };
        // The chance that the next token drawn from its bag sends it home.
        let (mut left, mut sends_home) = (0u32, 0u32);
        for kind in kinds.iter().filter(|kind| kind.bag == hoard.bag) {
            let count = u32::from(bag.count(kind.rule.token));
            left += count;
            if kind.rule.then == Drawn::SendHome {
                sends_home += count;
            }
        }
        let wolf = if left == 0 { 0.0 } else { sends_home as f32 / left as f32 };
        if let Some(signals) = out.get_mut(hoard.player.index()) {
            let market = (hoard.worth(kinds) * rule.points) as f32;
            signals[Signal::Flock.index()] += market * (1.0 - 0.5 * wolf) * reaches_market;
        }
    }
}

/// Each declared token kind's majority points to the players who hold the most of it now
/// (nothing for a kind nobody holds), by the declared rules: a new set's tokens are valued
/// with no code here.
fn token_majorities(game: &Game, out: &mut [Signals]) {
    for (kind, token) in game.tokens().iter().enumerate() {
        let token_id = carcassonne::TokenId(kind as u8);
        let held = |player: usize| game.token_count(PlayerId(player as u8), token_id);
        let most = (0..out.len()).map(held).max().unwrap_or(0);
        if most == 0 {
            continue;
        }
        for (player, signals) in out.iter_mut().enumerate() {
            if held(player) == most {
                signals[Signal::Tokens.index()] += token.majority as f32;
            }
        }
    }
}

/// Each declared title's points to its holder now, as the end would pay them under the game's
/// title scoring (nothing more under "continuously", which pays as it goes).
fn titles_held(game: &Game, out: &mut [Signals]) {
    let scoring = game.options().title_scoring;
    for (index, title) in game.titles().iter().enumerate() {
        let Some(standing) = game.title_standing(carcassonne::TitleId(index as u8)) else {
            continue;
        };
        let Some(holder) = standing.holder else { continue };
        let held = (0..game.titles().len())
            .filter_map(|other| game.title_standing(carcassonne::TitleId(other as u8)))
            .filter(|other| other.holder == Some(holder))
            .count();
        let points = scoring.end_points(title, standing, held);
        if let Some(signals) = out.get_mut(holder.index()) {
            signals[Signal::Titles.index()] += points as f32;
        }
    }
}

/// What a field's farmers may still gain: 3 points for each unfinished city it borders, by
/// that city's completion chance.
fn field_outlook(
    game: &Game,
    score: &carcassonne::FeatureScore,
    draws: f32,
    scratch: &mut Scratch,
) -> f32 {
    let features = game.features();
    let Some(placed) = game.board().get(score.pos) else { return 0.0 };
    let Some(field) = features.node(placed.order, score.segment) else { return 0.0 };
    scratch.cities.clear();
    for (order, member) in features.members(field) {
        let Some(&(_, tile)) = game.placements().get(usize::from(order)) else { continue };
        let Some(printed) = game.tile(tile).and_then(|t| t.segments().get(usize::from(member)))
        else {
            continue;
        };
        for city in printed.cities().iter() {
            let Some(node) = features.node(order, city) else { continue };
            let root = features.root(node);
            if features.data(root).open_edges > 0
                && !scratch.cities.iter().any(|(r, _, _)| *r == root)
            {
                scratch.cities.push((root, order, city));
            }
        }
    }
    let cities = std::mem::take(&mut scratch.cities);
    let mut gain = 0.0;
    for (root, order, city) in &cities {
        let chance = match scratch.chances.iter().find(|(r, _)| r == root) {
            Some((_, chance)) => *chance,
            None => {
                let Some(&(pos, _)) = game.placements().get(usize::from(*order)) else {
                    continue;
                };
                let chance = linear_chance(game, pos, *city, draws, scratch);
                scratch.chances.push((*root, chance));
                chance
            }
        };
        gain += 3.0 * chance;
    }
    scratch.cities = cities;
    gain
}

/// Remembers the completion chance of the feature through `segment` at `pos`, for the
/// figures on it and the fields beside it.
fn remember(game: &Game, pos: carcassonne::Pos, segment: u8, chance: f32, scratch: &mut Scratch) {
    if let Some(root) = root_of(game, pos, segment) {
        scratch.chances.push((root, chance));
    }
}

/// A monastery's or garden's expected final value and its completion chance: each empty cell
/// around it is filled by the end with its own chance.
fn cloister_outlook(
    game: &Game,
    pos: carcassonne::Pos,
    draws: f32,
    scratch: &mut Scratch,
) -> (f32, f32) {
    let (mut expected, mut complete) = (1.0, 1.0);
    for cell in pos.surrounding() {
        if game.board().get(cell).is_some() {
            expected += 1.0;
            continue;
        }
        let chance = fill_chance(game, cell, draws, scratch);
        expected += chance;
        complete *= chance;
    }
    (expected, complete)
}
