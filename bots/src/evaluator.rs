//! The evaluator: each player's expected final points from any position, from what a player
//! can see.

use carcassonne::{Challenge, Effect, FeatureScore, Figure, Game, Pos, ScoreReason, SegmentKind};
use serde::Deserialize;

/// The evaluator's weights, in points; a profile may set any of them.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
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
        }
    }
}

/// Expected final points per player: points so far; each unfinished road, city, monastery
/// and garden by its chance of completion from the tiles left that fit its open cells; the
/// fields as they would score now; the token majorities as they stand; figures in supply;
/// figures stuck.
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
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Evaluator {
    /// The weights in use.
    pub weights: EvaluatorWeights,
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
}

impl Evaluator {
    /// An evaluator with `weights`.
    #[must_use]
    pub fn new(weights: EvaluatorWeights) -> Evaluator {
        Evaluator { weights }
    }

    /// Each player's expected final points, in turn order. A finished game gives its scores.
    #[must_use]
    pub fn expected_points(&self, game: &Game) -> Vec<f32> {
        let mut out = vec![0.0; usize::from(game.players())];
        self.expected_points_into(game, &mut Scratch::default(), &mut out);
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
        let weights = &self.weights;
        let total = game.catalogs().iter().map(|c| c.tile_count()).sum::<usize>().max(1) as f32;
        let left = game.tiles_left() as f32;
        let progress = 1.0 - left / total;
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
            let value = match score.kind {
                SegmentKind::Field if score.farmers => {
                    score.points as f32 + self.field_outlook(game, score, draws, scratch)
                }
                _ if score.farmers || score.reason != ScoreReason::GameEnd => score.points as f32,
                SegmentKind::City | SegmentKind::Road => {
                    let chance = self.completion_chance(game, score, draws, scratch);
                    score.points as f32
                        + chance * (completed_value(game, score) - score.points as f32)
                }
                SegmentKind::Monastery | SegmentKind::Garden => {
                    let (expected, chance) = self.cloister_outlook(game, score.pos, draws, scratch);
                    self.remember(game, score, chance, scratch);
                    // The bonus of the marked tiles around it now, if it is completed.
                    let bonus = if bonuses { completed_value(game, score) - 9.0 } else { 0.0 };
                    (expected + chance * bonus.max(0.0)) * survival(game, score.pos, &challenges)
                }
                SegmentKind::Field | SegmentKind::River => score.points as f32,
            };
            for player in score.scorers.iter() {
                if let Some(out) = out.get_mut(player.index()) {
                    *out += value;
                }
            }
        }
        scratch.scores = scores;

        let fading = 1.0 - progress;
        let worth = weights.figure_in_supply * (1.0 - weights.supply_decay * progress);
        for (player, out) in out.iter_mut().enumerate() {
            let supply = game.supply(carcassonne::PlayerId(player as u8));
            let followers = f32::from(supply.followers) + f32::from(supply.big_followers);
            *out += worth * (followers + 0.5 * f32::from(supply.abbots));
            let specials =
                u16::from(supply.builders) + u16::from(supply.pigs) + u16::from(supply.shepherds);
            *out += worth * weights.special_in_supply * f32::from(specials);
        }
        self.token_majorities(game, out);
        self.titles_held(game, out);
        self.flocks(game, out);
        for figure in game.figures() {
            let Some(root) = root_of(game, figure.pos, figure.segment) else { continue };
            let Some((_, chance)) = scratch.chances.iter().find(|(r, _)| *r == root) else {
                continue;
            };
            if figure.figure == Figure::Builder {
                // Its second turns come while the road or city stays open to its owner's tiles.
                out[figure.player.index()] += weights.builder * fading * (1.0 - *chance * 0.5);
            }
            if *chance < weights.stuck_below {
                let strength = if figure.figure == Figure::Abbot { 0.5 } else { 1.0 };
                out[figure.player.index()] -= weights.stuck_penalty * fading * strength;
            }
        }
    }

    /// Each flock's market value to its shepherd's owner: its sheep at the declared points a
    /// sheep, discounted by half the chance that the next token drawn is a wolf (from the bag's
    /// public counts: its order is nobody's to know).
    fn flocks(&self, game: &Game, out: &mut [f32]) {
        let Some(per_sheep) = game.rules().iter().find_map(|rule| match rule.effect {
            Effect::Flock(flock) => Some(flock.per_sheep),
            _ => None,
        }) else {
            return;
        };
        let bag = game.sheep_bag();
        let wolf = if bag.total() == 0 { 0.0 } else { f32::from(bag.wolves) / bag.total() as f32 };
        for flock in game.flocks() {
            if let Some(out) = out.get_mut(flock.player.index()) {
                let market = (flock.sheep() * per_sheep) as f32;
                *out += self.weights.flock * market * (1.0 - 0.5 * wolf);
            }
        }
    }

    /// Each declared token kind's majority points to the players who hold the most of it now
    /// (nothing for a kind nobody holds), by the declared rules: a new set's tokens are
    /// valued with no code here.
    fn token_majorities(&self, game: &Game, out: &mut [f32]) {
        for (kind, token) in game.tokens().iter().enumerate() {
            let token_id = carcassonne::TokenId(kind as u8);
            let held =
                |player: usize| game.token_count(carcassonne::PlayerId(player as u8), token_id);
            let most = (0..out.len()).map(held).max().unwrap_or(0);
            if most == 0 {
                continue;
            }
            for (player, out) in out.iter_mut().enumerate() {
                if held(player) == most {
                    *out += self.weights.token_majority * token.majority as f32;
                }
            }
        }
    }

    /// Each declared title's points to its holder now, as the end would pay them under the
    /// game's title scoring (nothing more under "continuously", which pays as it goes).
    fn titles_held(&self, game: &Game, out: &mut [f32]) {
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
            if let Some(out) = out.get_mut(holder.index()) {
                *out += self.weights.titles * points as f32;
            }
        }
    }

    /// The chance that the city or road `score` describes is completed before the end, from
    /// the tiles left that fit each cell it is open to; remembered for the stuck-figure test.
    fn completion_chance(
        &self,
        game: &Game,
        score: &FeatureScore,
        draws: f32,
        scratch: &mut Scratch,
    ) -> f32 {
        let chance = linear_chance(game, score.pos, score.segment, draws, scratch);
        self.remember(game, score, chance, scratch);
        chance
    }

    /// What a field's farmers may still gain: 3 points for each unfinished city it borders,
    /// by that city's completion chance.
    fn field_outlook(
        &self,
        game: &Game,
        score: &FeatureScore,
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
        gain * self.weights.field_outlook
    }

    fn remember(&self, game: &Game, score: &FeatureScore, chance: f32, scratch: &mut Scratch) {
        if let Some(root) = root_of(game, score.pos, score.segment) {
            scratch.chances.push((root, chance));
        }
    }

    /// A monastery's or garden's expected final value and its completion chance: each empty
    /// cell around it is filled by the end with its own chance.
    fn cloister_outlook(
        &self,
        game: &Game,
        pos: Pos,
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
}

/// The share of its value a monastery or garden at `pos` keeps through its challenges: for
/// each rival beside it, the chance it is completed first, guessed from the empty cells each
/// still needs (fewer, sooner). 1 when it has no rival.
fn survival(game: &Game, pos: Pos, challenges: &[Challenge]) -> f32 {
    let empty = |at: Pos| at.surrounding().filter(|cell| game.board().get(*cell).is_none()).count();
    let mut keeps = 1.0;
    for challenge in challenges {
        let rival = if challenge.marked == pos {
            challenge.plain
        } else if challenge.plain == pos {
            challenge.marked
        } else {
            continue;
        };
        let (mine, theirs) = (empty(pos) as f32, empty(rival) as f32);
        keeps *= (theirs + 0.5) / (mine + theirs + 1.0);
    }
    keeps
}

/// The root of the feature segment `segment` of the tile at `pos` belongs to.
fn root_of(game: &Game, pos: Pos, segment: u8) -> Option<u32> {
    let placed = game.board().get(pos)?;
    let features = game.features();
    Some(features.root(features.node(placed.order, segment)?))
}

/// What a completed city, road, monastery or garden would score as it is now, by the declared
/// rules (the engine's own valuation, so a new set's marks are valued with no code here).
fn completed_value(game: &Game, score: &FeatureScore) -> f32 {
    game.feature(score.pos, score.segment)
        .map_or(score.points as f32, |view| view.points_if_complete as f32)
}

/// The chance that the city or road through segment `segment` of the tile at `pos` is
/// completed in `draws` draws: every cell it is open to filled.
fn linear_chance(game: &Game, pos: Pos, segment: u8, draws: f32, scratch: &mut Scratch) -> f32 {
    scratch.cells.clear();
    open_cells(game, pos, segment, &mut scratch.cells);
    let cells = std::mem::take(&mut scratch.cells);
    let chance = cells.iter().map(|cell| fill_chance(game, *cell, draws, scratch)).product();
    scratch.cells = cells;
    chance
}

/// The empty cells the feature through segment `segment` of the tile at `pos` is open to.
fn open_cells(game: &Game, pos: Pos, segment: u8, cells: &mut Vec<Pos>) {
    let board = game.board();
    let features = game.features();
    let Some(placed) = board.get(pos) else { return };
    let Some(node) = features.node(placed.order, segment) else { return };
    for (order, member) in features.members(node) {
        let Some(&(at, tile)) = game.placements().get(usize::from(order)) else { continue };
        let (Some(tile), Some(lying)) = (game.tile(tile), board.get(at)) else { continue };
        let Some(printed) = tile.segments().get(usize::from(member)) else { continue };
        for dir in printed.rotated(lying.rotation).edges().iter() {
            if let Some(next) = at.neighbour(dir)
                && board.get(next).is_none()
                && !cells.contains(&next)
            {
                cells.push(next);
            }
        }
    }
}

/// The chance that some tile fills `cell` in `draws` draws: a frontier cell by the share of
/// tiles left that fit it, a cell not yet next to the board at half the rate of an average
/// cell, since it needs a neighbour first.
fn fill_chance(game: &Game, cell: Pos, draws: f32, scratch: &mut Scratch) -> f32 {
    let left = game.tiles_left();
    if left == 0 {
        return 0.0;
    }
    let fitting = match game.board().frontier_key(cell) {
        Some(key) => fitting_tiles(game, key, scratch),
        None => left / 4,
    };
    let miss = 1.0 - fitting as f32 / left as f32;
    1.0 - miss.powf(draws)
}

/// How many tiles left fit a frontier cell with constraint key `key` in some rotation.
fn fitting_tiles(game: &Game, key: u16, scratch: &mut Scratch) -> u32 {
    if let Some((_, count)) = scratch.fits.iter().find(|(k, _)| *k == key) {
        return *count;
    }
    let table = game.fit_table();
    let count = game
        .remaining()
        .iter()
        .enumerate()
        .filter(|(tile, count)| {
            **count > 0 && !table.rotations_by_key(*tile as u16, key).is_empty()
        })
        .map(|(_, count)| u32::from(*count))
        .sum();
    scratch.fits.push((key, count));
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::{Action, Catalog, GameSetup};

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
        game.apply(Action::Deploy { segment: 0, figure: Figure::Follower }).unwrap();
        put(&mut game, "CU01", 1);
        let evaluator = Evaluator::default();
        let (mut alone, mut challenged) = (game.clone(), game);
        alone.apply(Action::Skip).unwrap();
        challenged.apply(Action::Deploy { segment: 0, figure: Figure::Follower }).unwrap();
        assert_eq!(challenged.challenges().len(), 1);
        // Red's worth: the same but for the monastery's share.
        let (alone, challenged) =
            (evaluator.expected_points(&alone)[0], evaluator.expected_points(&challenged)[0]);
        assert!(challenged < alone - 2.0, "{challenged} vs {alone}");
        let pos = Pos::new(0, -1);
        assert!((survival(&alone_game(), pos, &[]) - 1.0).abs() < f32::EPSILON);
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

    /// Hills & Sheep: a flock is worth its sheep at a point each, less half the chance that
    /// the next token is a wolf: 3 sheep with 2 wolves among the 17 tokens left, 3 x (1 - 1/17).
    #[test]
    fn a_flock_is_valued_by_its_sheep_against_the_wolf() {
        let sets = ["base", "hills_and_sheep"].map(|name| Catalog::builtin(name).unwrap());
        let mut game = Game::new(GameSetup::new(sets.to_vec(), 2)).unwrap();
        let monastery = game.tile_by_id("B").unwrap().0;
        game.apply(Action::DrawTile { tile: monastery }).unwrap();
        game.apply(Action::Place { pos: Pos::new(0, -1), rotation: carcassonne::Rotation::R0 })
            .unwrap();
        game.apply(Action::Deploy { segment: 1, figure: Figure::Shepherd }).unwrap();
        let evaluator = Evaluator::default();
        let before = evaluator.expected_points(&game);
        game.apply(Action::DrawSheep { sheep: 3 }).unwrap();
        let after = evaluator.expected_points(&game);
        assert!(
            (after[0] - before[0] - 3.0 * (1.0 - 1.0 / 17.0)).abs() < 1e-4,
            "{before:?} {after:?}"
        );
        assert!((after[1] - before[1]).abs() < 1e-4);
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
