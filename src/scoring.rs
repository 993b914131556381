//! Scoring: what a feature is worth, who takes it, and the end-of-game pass shared by games
//! and landscapes.

use alloc::collections::BTreeSet;
use alloc::vec::Vec;

use smallvec::SmallVec;

use crate::board::Board;
use crate::event::{FeatureScore, ScoreReason};
use crate::features::{Features, NodeId};
use crate::player::{ByPlayer, Figure, PlayerId, PlayerSet};
use crate::pos::Pos;
use crate::rulebook::FigureTable;
use crate::rulebook::{
    Mark, MarkCounts, PlainOverride, RuleId, Rulebook, TieBreakBy, TieBreakRule,
};
use crate::segment::{SegmentIndex, SegmentKind};
use crate::setup::{FarmScoring, RuleOptions};
use crate::tile::{TileIndex, TileType};

/// A figure on the board, where the game keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Standing {
    pub(crate) player: PlayerId,
    pub(crate) figure: Figure,
    pub(crate) pos: Pos,
    pub(crate) segment: SegmentIndex,
    pub(crate) node: NodeId,
    /// The kind of segment it stands on.
    pub(crate) kind: SegmentKind,
}

/// How features are valued: the game's rule options and rulebook, plus the landscape-only
/// overrides.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Valuation<'a> {
    pub(crate) options: RuleOptions,
    pub(crate) rulebook: &'a Rulebook,
    /// A mark's plain points replaced (a landscape's pennant value).
    pub(crate) plain: PlainOverride,
    /// Every feature counts for player 0, whatever stands on it.
    pub(crate) claim_all: bool,
}

impl<'a> Valuation<'a> {
    pub(crate) fn of(options: RuleOptions, rulebook: &'a Rulebook) -> Valuation<'a> {
        Valuation { options, rulebook, plain: PlainOverride::default(), claim_all: false }
    }

    /// A city's or road's points and the declared rule that set them.
    pub(crate) fn linear(
        &self,
        kind: SegmentKind,
        tiles: u32,
        marks: &MarkCounts,
        complete: bool,
    ) -> (u32, Option<RuleId>) {
        self.rulebook.value(kind, tiles, marks, complete, &self.options, &self.plain)
    }
}

/// The board and features a scoring pass reads.
pub(crate) struct Scene<'a> {
    pub(crate) board: &'a Board,
    pub(crate) features: &'a Features,
    pub(crate) tiles: &'a [TileType],
    /// Cell and tile type of each placed tile, in placement order.
    pub(crate) placed: &'a [(Pos, TileIndex)],
    pub(crate) figures: &'a [Standing],
    /// The root of the feature under each figure, in `figures` order.
    roots: SmallVec<[NodeId; 16]>,
    /// The declared rules: neighbourhood bonuses for monasteries and gardens.
    rulebook: &'a Rulebook,
    /// The declared tie-break, if any (most games have none).
    tiebreak: Option<TieBreakRule>,
    /// How each figure counts: its strength, whether it is a follower, what it earns.
    table: &'a FigureTable,
}

impl<'a> Scene<'a> {
    pub(crate) fn new(
        board: &'a Board,
        features: &'a Features,
        tiles: &'a [TileType],
        placed: &'a [(Pos, TileIndex)],
        figures: &'a [Standing],
        rulebook: &'a Rulebook,
        table: &'a FigureTable,
    ) -> Scene<'a> {
        let roots = figures.iter().map(|standing| features.root(standing.node)).collect();
        let tiebreak = rulebook.tiebreak();
        Scene { board, features, tiles, placed, figures, roots, rulebook, tiebreak, table }
    }

    /// Whether the tile at `pos` carries the tile mark `mark`.
    fn on_marked_tile(&self, pos: Pos, mark: Mark) -> bool {
        self.board
            .get(pos)
            .and_then(|placed| self.tiles.get(usize::from(placed.tile)))
            .is_some_and(|tile| tile.marks().contains(mark))
    }

    /// `leaders`, tied, split by the declared tie-break: `marked` counts each player's figures
    /// on the feature that stand on tiles carrying its mark. Unchanged without a tie-break, a
    /// tie, or a tied player on such a tile.
    fn break_tie(&self, leaders: PlayerSet, marked: &ByPlayer<u32>) -> PlayerSet {
        match self.tiebreak {
            Some(rule) => broken_tie(rule.by, leaders, marked),
            None => leaders,
        }
    }

    /// Each player's figures on the feature `root` that stand on tiles carrying the
    /// tie-break's mark.
    fn marked_figures(&self, root: NodeId) -> ByPlayer<u32> {
        let mut marked = ByPlayer([0u32; crate::player::MAX_PLAYERS]);
        if let Some(rule) = self.tiebreak {
            for (standing, under) in self.figures.iter().zip(&self.roots) {
                if *under == root
                    && self.table.is_follower(standing.figure)
                    && self.on_marked_tile(standing.pos, rule.mark)
                {
                    marked[standing.player] += 1;
                }
            }
        }
        marked
    }

    /// Who takes a feature: the players with the most strength on it (or player 0 for
    /// `claim_all`). Empty when nobody stands on it. One scan of the figures: for one
    /// feature; a pass over many reads [`Strengths`] instead.
    pub(crate) fn majority(&self, root: NodeId, claim_all: bool) -> PlayerSet {
        if claim_all {
            return PlayerSet::EMPTY.with(PlayerId(0));
        }
        let mut strength = ByPlayer([0u32; crate::player::MAX_PLAYERS]);
        for (standing, under) in self.figures.iter().zip(&self.roots) {
            if *under == root {
                strength[standing.player] += u32::from(self.table.strength(standing.figure));
            }
        }
        let leaders = winners(&strength);
        if self.tiebreak.is_none() || leaders.len() < 2 {
            return leaders;
        }
        self.break_tie(leaders, &self.marked_figures(root))
    }

    /// A monastery or garden at `pos`: its tile count (itself and its neighbours) and whether
    /// all eight neighbours are present.
    pub(crate) fn cloister(&self, pos: Pos) -> (u32, bool) {
        let around = self.board.surrounding_tiles(pos) as u32;
        (1 + around, around == 8)
    }

    /// The score of the city or road whose root is `root`.
    pub(crate) fn linear(
        &self,
        root: NodeId,
        valuation: &Valuation,
        reason: ScoreReason,
        scorers: PlayerSet,
    ) -> FeatureScore {
        let data = self.features.data(root);
        let tiles = self.features.tile_count(root) as u32;
        let complete = data.is_closed();
        let marks = self.features.marks(root);
        let (points, rule) = valuation.linear(data.kind, tiles, &marks, complete);
        let (pos, segment) = self.locate(root);
        FeatureScore {
            kind: data.kind,
            pos,
            segment,
            reason,
            complete,
            tiles,
            marks,
            cities: 0,
            rule,
            farmers: false,
            points,
            scorers,
        }
    }

    /// The score of the monastery or garden segment `segment` at `pos`.
    pub(crate) fn cloister_score(
        &self,
        pos: Pos,
        segment: SegmentIndex,
        kind: SegmentKind,
        reason: ScoreReason,
        scorers: PlayerSet,
    ) -> FeatureScore {
        let (tiles, complete) = self.cloister(pos);
        let (bonus, rule, marks) = self.neighbour_bonus(pos, kind, complete);
        FeatureScore {
            kind,
            pos,
            segment,
            reason,
            complete,
            tiles,
            marks,
            cities: 0,
            rule,
            farmers: false,
            points: tiles.saturating_add(bonus),
            scorers,
        }
    }

    /// What the declared bonuses for marked tiles around the monastery or garden at `pos`
    /// add to it, complete or not (Hills & Sheep's vineyards): each rule adds, the first that
    /// adds is the one named, and the marked tiles counted are reported as its marks.
    pub(crate) fn neighbour_bonus(
        &self,
        pos: Pos,
        kind: SegmentKind,
        complete: bool,
    ) -> (u32, Option<RuleId>, MarkCounts) {
        let (mut points, mut rule, mut marks) = (0u32, None, MarkCounts::default());
        for (id, bonus) in self.rulebook.neighbour_rules(kind, complete) {
            let count =
                pos.surrounding().filter(|cell| self.on_marked_tile(*cell, bonus.mark)).count()
                    as u32;
            if count == 0 {
                continue;
            }
            marks.0[bonus.mark.index()] = count;
            points = points.saturating_add(bonus.each.saturating_mul(count));
            rule = rule.or(Some(id));
        }
        (points, rule, marks)
    }

    /// The cell and segment of a feature's node.
    pub(crate) fn locate(&self, node: NodeId) -> (Pos, SegmentIndex) {
        locate(self.features, self.placed, node)
    }

    /// The distinct completed cities a field borders, as roots, in ascending order. Sorted
    /// rather than searched: a hostile field may border thousands of cities.
    fn bordering_cities(&self, field: NodeId, cities: &mut Vec<NodeId>) {
        cities.clear();
        for (order, segment) in self.features.members(field) {
            let (_, tile) = self.placed[usize::from(order)];
            let tile = &self.tiles[usize::from(tile)];
            for city in tile.segments()[usize::from(segment)].cities().iter() {
                let Some(node) = self.features.node(order, city) else { continue };
                let root = self.features.root(node);
                if self.features.data(root).is_closed() {
                    cities.push(root);
                }
            }
        }
        cities.sort_unstable();
        cities.dedup();
    }

    /// The end-of-game pass: unfinished (and, in landscapes, finished) roads, cities,
    /// monasteries and gardens with figures on them, then fields, in that order.
    ///
    /// Linear in features and figures, up to sorting: a landscape may hold 65,536 tiles and
    /// as many figures, and asking every feature's majority of every figure took minutes.
    pub(crate) fn final_scores(&self, valuation: &Valuation, out: &mut Vec<FeatureScore>) {
        let claim_all = valuation.claim_all;
        let strengths = Strengths::new(self);
        let majority = |root| if claim_all { owner() } else { strengths.winners(root) };
        let mut roots: Vec<NodeId> = if claim_all {
            (0..self.features.node_count()).map(|node| self.features.root(node)).collect()
        } else {
            self.roots.to_vec()
        };
        roots.sort_unstable();
        roots.dedup();

        for kind in [SegmentKind::Road, SegmentKind::City] {
            for root in roots.iter().copied() {
                if self.features.data(root).kind != kind {
                    continue;
                }
                let scorers = majority(root);
                if !scorers.is_empty() {
                    out.push(self.linear(root, valuation, ScoreReason::GameEnd, scorers));
                }
            }
        }
        for root in roots.iter().copied() {
            let kind = self.features.data(root).kind;
            if matches!(kind, SegmentKind::Monastery | SegmentKind::Garden) {
                let scorers = majority(root);
                let (order, segment) = self.features.members(root).next().unwrap_or((0, 0));
                let pos = self.placed[usize::from(order)].0;
                if !scorers.is_empty() {
                    out.push(self.cloister_score(
                        pos,
                        segment,
                        kind,
                        ScoreReason::GameEnd,
                        scorers,
                    ));
                }
            }
        }
        // Fields score only with farmers, claimed or not: the solo puzzles score none.
        if valuation.options.farmers {
            let fields: Vec<NodeId> = roots
                .iter()
                .copied()
                .filter(|root| self.features.data(*root).kind == SegmentKind::Field)
                .collect();
            self.field_scores(&fields, valuation, &strengths, out);
        }
    }

    fn field_scores(
        &self,
        fields: &[NodeId],
        valuation: &Valuation,
        strengths: &Strengths,
        out: &mut Vec<FeatureScore>,
    ) {
        let claim_all = valuation.claim_all;
        let majority = |root| if claim_all { owner() } else { strengths.winners(root) };
        let mut cities = Vec::new();
        // Who has a pig on which field, where the game declares what a pig is worth.
        let pig = valuation.rulebook.pig();
        let pigs: Vec<(NodeId, PlayerId)> = match pig {
            Some(_) => self
                .figures
                .iter()
                .zip(&self.roots)
                .filter(|(standing, _)| self.table.farm_bonus(standing.figure))
                .map(|(standing, root)| (*root, standing.player))
                .collect(),
            None => Vec::new(),
        };
        let pig_owners = |field: NodeId| -> PlayerSet {
            pigs.iter().filter(|(root, _)| *root == field).map(|(_, player)| *player).collect()
        };
        // A pig's owner is paid its bonus on top of each share, named by the pig's rule.
        let with_pig = |per_share: u32, by: Option<RuleId>, pigged: bool| match (pig, pigged) {
            (Some((id, rule)), true) => (per_share.saturating_add(rule.per_city), Some(id)),
            _ => (per_share, by),
        };
        match valuation.options.farm_scoring {
            FarmScoring::PerField | FarmScoring::PerFieldOnce => {
                let once = valuation.options.farm_scoring == FarmScoring::PerFieldOnce;
                let mut paid: BTreeSet<(PlayerId, NodeId)> = BTreeSet::new();
                for field in fields.iter().copied() {
                    let scorers = majority(field);
                    if scorers.is_empty() {
                        continue;
                    }
                    self.bordering_cities(field, &mut cities);
                    let (pos, segment) = self.locate(field);
                    let pigged = pig_owners(field);
                    // What each city pays: 1 share, or more under a declared farm rule; a
                    // share pays 3, and more to a pig's owner.
                    let score = |paying: &mut dyn Iterator<Item = NodeId>,
                                 scorers: PlayerSet,
                                 pig: bool| {
                        let (mut count, mut shares, mut rule) = (0u32, 0u32, None);
                        for city in paying {
                            let (times, by) = self.farm_factor(valuation, city);
                            count += 1;
                            shares = shares.saturating_add(times);
                            rule = rule.or(by);
                        }
                        let (per_share, rule) = with_pig(3, rule, pig);
                        FeatureScore {
                            kind: SegmentKind::Field,
                            pos,
                            segment,
                            reason: ScoreReason::GameEnd,
                            complete: false,
                            tiles: self.features.tile_count(field) as u32,
                            marks: MarkCounts::default(),
                            cities: count,
                            rule,
                            farmers: true,
                            points: shares.saturating_mul(per_share),
                            scorers,
                        }
                    };
                    if !once {
                        // Scorers with a pig there are paid more: an entry of their own.
                        let plain = PlayerSet::from_bits(scorers.bits() & !pigged.bits());
                        let pig = PlayerSet::from_bits(scorers.bits() & pigged.bits());
                        if !plain.is_empty() {
                            out.push(score(&mut cities.iter().copied(), plain, false));
                        }
                        if !pig.is_empty() {
                            out.push(score(&mut cities.iter().copied(), pig, true));
                        }
                        continue;
                    }
                    // Each player is paid each city once, so scorers may earn different
                    // amounts: one entry per scorer.
                    for player in scorers.iter() {
                        let mut fresh =
                            cities.iter().copied().filter(|city| paid.insert((player, *city)));
                        let pig = pigged.contains(player);
                        out.push(score(&mut fresh, PlayerSet::EMPTY.with(player), pig));
                    }
                }
            }
            FarmScoring::PerCity4 => {
                // Each completed city with every field bordering it, each pair once, sorted
                // by city: the farmers of all those fields together decide the city.
                let mut pairs: Vec<(NodeId, NodeId)> = Vec::new();
                for field in fields.iter().copied() {
                    self.bordering_cities(field, &mut cities);
                    pairs.extend(cities.iter().map(|city| (*city, field)));
                }
                pairs.sort_unstable();
                for group in pairs.chunk_by(|a, b| a.0 == b.0) {
                    let city = group[0].0;
                    let scorers = if claim_all {
                        owner()
                    } else {
                        let (mut strength, mut marked) = (NOBODY, NOBODY);
                        for (_, field) in group {
                            let (on_field, on_marks) = strengths.of(*field);
                            for (total, more) in strength.0.iter_mut().zip(on_field.0) {
                                *total = total.saturating_add(more);
                            }
                            for (total, more) in marked.0.iter_mut().zip(on_marks.0) {
                                *total = total.saturating_add(more);
                            }
                        }
                        strengths.decide(&strength, &marked)
                    };
                    if scorers.is_empty() {
                        continue;
                    }
                    let (pos, segment) = self.locate(city);
                    let (times, by) = self.farm_factor(valuation, city);
                    // A scorer with a pig in any of the city's fields is paid more.
                    let pigged = group.iter().fold(PlayerSet::EMPTY, |owners, (_, field)| {
                        PlayerSet::from_bits(owners.bits() | pig_owners(*field).bits())
                    });
                    let plain = PlayerSet::from_bits(scorers.bits() & !pigged.bits());
                    let pig = PlayerSet::from_bits(scorers.bits() & pigged.bits());
                    for (scorers, pigged) in [(plain, false), (pig, true)] {
                        if scorers.is_empty() {
                            continue;
                        }
                        let (per_share, rule) = with_pig(4, by, pigged);
                        out.push(FeatureScore {
                            kind: SegmentKind::City,
                            pos,
                            segment,
                            reason: ScoreReason::GameEnd,
                            complete: true,
                            tiles: self.features.tile_count(city) as u32,
                            marks: self.features.marks(city),
                            cities: 1,
                            rule,
                            farmers: true,
                            points: times.saturating_mul(per_share),
                            scorers,
                        });
                    }
                }
            }
        }
    }
}

impl Scene<'_> {
    /// How many shares of a farm's payout the completed city `city` is worth, and the farm
    /// rule that says so; most games declare none and skip reading the city's marks.
    fn farm_factor(&self, valuation: &Valuation, city: NodeId) -> (u32, Option<RuleId>) {
        if !valuation.rulebook.has_farm_rules() {
            return (1, None);
        }
        valuation.rulebook.farm_factor(self.features.marks(city).present())
    }
}

/// Player 0, who owns every feature under `claim_all`.
fn owner() -> PlayerSet {
    PlayerSet::EMPTY.with(PlayerId(0))
}

/// The cell and segment of a feature's node, from the features and the placements alone.
pub(crate) fn locate(
    features: &Features,
    placed: &[(Pos, TileIndex)],
    node: NodeId,
) -> (Pos, SegmentIndex) {
    let (order, segment) = features.members(node).next().unwrap_or((0, 0));
    (placed.get(usize::from(order)).map_or(Pos::ORIGIN, |(pos, _)| *pos), segment)
}

/// Nobody on a feature.
const NOBODY: ByPlayer<u32> = ByPlayer([0; crate::player::MAX_PLAYERS]);

/// The strength of each player on every feature that has figures, from one pass over the
/// figures, sorted by feature root; and, where the game declares a tie-break, each player's
/// figures there on tiles carrying its mark.
struct Strengths<'s> {
    by_root: Vec<(NodeId, ByPlayer<u32>)>,
    /// Parallel to `by_root`; empty when the game has no tie-break (most games), so that
    /// their end-of-game pass does no more than before tie-breaks existed.
    marked: Vec<ByPlayer<u32>>,
    scene: &'s Scene<'s>,
}

impl<'s> Strengths<'s> {
    fn new(scene: &'s Scene<'s>) -> Strengths<'s> {
        let tiebreak = scene.tiebreak.map(|rule| rule.mark);
        let mut standing: Vec<(NodeId, PlayerId, u32, bool)> = scene
            .figures
            .iter()
            .zip(&scene.roots)
            .map(|(figure, root)| {
                let marked = scene.table.is_follower(figure.figure)
                    && tiebreak.is_some_and(|mark| scene.on_marked_tile(figure.pos, mark));
                (*root, figure.player, u32::from(scene.table.strength(figure.figure)), marked)
            })
            .collect();
        standing.sort_unstable_by_key(|(root, _, _, _)| *root);
        let mut by_root: Vec<(NodeId, ByPlayer<u32>)> = Vec::new();
        let mut marked: Vec<ByPlayer<u32>> = Vec::new();
        for (root, player, strength, on_mark) in standing {
            if by_root.last().is_none_or(|(last, _)| *last != root) {
                by_root.push((root, NOBODY));
                if tiebreak.is_some() {
                    marked.push(NOBODY);
                }
            }
            if let Some((_, total)) = by_root.last_mut() {
                total[player] = total[player].saturating_add(strength);
            }
            if let Some(count) = marked.last_mut() {
                count[player] += u32::from(on_mark);
            }
        }
        Strengths { by_root, marked, scene }
    }

    /// Where the feature `root` is listed, if anybody stands on it.
    fn find(&self, root: NodeId) -> Option<usize> {
        self.by_root.binary_search_by_key(&root, |(known, _)| *known).ok()
    }

    /// Each player's strength on the feature `root`, and figures on tie-break tiles there;
    /// all 0 when nobody stands on it.
    fn of(&self, root: NodeId) -> (ByPlayer<u32>, ByPlayer<u32>) {
        match self.find(root) {
            Some(at) => (self.by_root[at].1, self.marked.get(at).copied().unwrap_or(NOBODY)),
            None => (NOBODY, NOBODY),
        }
    }

    /// Who takes a feature with `strength` and `marked` figures on it, as
    /// [`Scene::majority`] says.
    fn decide(&self, strength: &ByPlayer<u32>, marked: &ByPlayer<u32>) -> PlayerSet {
        let leaders = winners(strength);
        if self.marked.is_empty() || leaders.len() < 2 {
            return leaders;
        }
        self.scene.break_tie(leaders, marked)
    }

    /// Who takes the feature `root`, as [`Scene::majority`] says.
    fn winners(&self, root: NodeId) -> PlayerSet {
        match self.find(root) {
            Some(at) => {
                let marked = self.marked.get(at).copied().unwrap_or(NOBODY);
                self.decide(&self.by_root[at].1, &marked)
            }
            None => PlayerSet::EMPTY,
        }
    }
}

/// `leaders` split as a tie-break comparing `marked` (each player's figures on its marked
/// tiles) says: unchanged unless at least two tie and at least one of them has such a figure.
fn broken_tie(by: TieBreakBy, leaders: PlayerSet, marked: &ByPlayer<u32>) -> PlayerSet {
    if leaders.len() < 2 {
        return leaders;
    }
    let broken = match by {
        TieBreakBy::Any => leaders.iter().filter(|player| marked[*player] > 0).collect(),
        TieBreakBy::Most => {
            let mut among = NOBODY;
            for player in leaders.iter() {
                among[player] = marked[player];
            }
            winners(&among)
        }
    };
    if broken.is_empty() { leaders } else { broken }
}

/// The players with the highest positive value.
pub(crate) fn winners(values: &ByPlayer<u32>) -> PlayerSet {
    let best = values.0.iter().copied().max().unwrap_or(0);
    if best == 0 {
        return PlayerSet::EMPTY;
    }
    (0..crate::player::MAX_PLAYERS as u8)
        .map(PlayerId)
        .filter(|player| values[*player] == best)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Catalog;

    /// The base set's and Inns & Cathedrals' declarations, as a game of both numbers them.
    fn rulebook() -> Rulebook {
        let sets =
            [Catalog::builtin("base").unwrap(), Catalog::builtin("inns_and_cathedrals").unwrap()];
        Rulebook::combine(sets.iter().map(|set| (set.info().id.as_str(), set.rulebook())))
            .unwrap()
            .0
    }

    fn city(book: &Rulebook, pennants: u32, cathedral: bool) -> MarkCounts {
        let mut counts = MarkCounts::default();
        counts.0[book.mark_by_id("pennant").unwrap().index()] = pennants;
        counts.0[book.mark_by_id("cathedral").unwrap().index()] = u32::from(cathedral);
        counts
    }

    #[test]
    fn city_values_follow_the_declared_rules_and_the_options() {
        let book = rulebook();
        let rule = |id: &str| {
            book.rules().iter().position(|rule| rule.id == id).map(|at| RuleId(at as u8))
        };
        let mut valuation = Valuation::of(RuleOptions::default(), &book);
        let city_value = |valuation: &Valuation, tiles, pennants, cathedral, complete| {
            valuation.linear(SegmentKind::City, tiles, &city(&book, pennants, cathedral), complete)
        };
        assert_eq!(city_value(&valuation, 3, 1, false, true), (8, None));
        assert_eq!(city_value(&valuation, 3, 1, false, false), (4, None));
        assert_eq!(city_value(&valuation, 4, 1, true, true), (15, rule("cathedral")));
        assert_eq!(city_value(&valuation, 4, 1, true, false), (0, rule("unfinished_cathedral")));
        assert_eq!(city_value(&valuation, 2, 1, false, true), (6, None));
        valuation.options.tiny_city = true;
        assert_eq!(city_value(&valuation, 2, 1, false, true), (3, rule("tiny_city")));
        assert_eq!(
            city_value(&valuation, 2, 1, true, true),
            (9, rule("cathedral")),
            "the cathedral takes precedence"
        );
        valuation.options.inn_cathedral_unfinished = crate::setup::UnfinishedMarks::Normal;
        assert_eq!(city_value(&valuation, 4, 1, true, false), (5, None));
        valuation.plain =
            PlainOverride { mark: book.mark_by_id("pennant"), complete: Some(5), unfinished: None };
        assert_eq!(city_value(&valuation, 3, 2, false, true), (16, None));
        // A landscape may set any pennant value; the points stop at the largest number.
        valuation.plain.complete = Some(u32::MAX);
        assert_eq!(city_value(&valuation, 3, 2, false, true), (u32::MAX, None));
    }

    /// The Cathars' rules beside Inns & Cathedrals': a besieged city scores 1 a tile and
    /// pennant, 2 with a cathedral, nothing unfinished (docs/rules.md, Besieged cities).
    #[test]
    fn besieged_cities_follow_the_cathars_rules_over_the_cathedrals() {
        let sets =
            ["base", "inns_and_cathedrals", "cathars"].map(|name| Catalog::builtin(name).unwrap());
        let book =
            Rulebook::combine(sets.iter().map(|set| (set.info().id.as_str(), set.rulebook())))
                .unwrap()
                .0;
        let rule = |id: &str| {
            book.rules().iter().position(|rule| rule.id == id).map(|at| RuleId(at as u8))
        };
        let besieged = book.mark_by_id("besieged").unwrap();
        let counts = |pennants, cathedral, sieges| {
            let mut counts = city(&book, pennants, cathedral);
            counts.0[besieged.index()] = sieges;
            counts
        };
        let mut valuation = Valuation::of(RuleOptions::default(), &book);
        let value = |valuation: &Valuation, counts: MarkCounts, complete| {
            valuation.linear(SegmentKind::City, 4, &counts, complete)
        };
        assert_eq!(value(&valuation, counts(1, false, 2), true), (5, rule("besieged")));
        assert_eq!(value(&valuation, counts(1, true, 1), true), (10, rule("besieged_cathedral")));
        assert_eq!(value(&valuation, counts(1, true, 1), false), (0, rule("unfinished_besieged")));
        assert_eq!(value(&valuation, counts(1, false, 1), false), (0, rule("unfinished_besieged")));
        valuation.options.inn_cathedral_unfinished = crate::setup::UnfinishedMarks::Normal;
        assert_eq!(value(&valuation, counts(1, true, 1), false), (0, rule("unfinished_besieged")));
        assert_eq!(book.farm_factor(counts(0, false, 1).present()), (2, rule("besieged_farms")));
        assert_eq!(book.farm_factor(counts(3, true, 0).present()), (1, None));
    }

    /// Hills & Sheep's tie-break and its `most` variant: only tied leaders are compared, and
    /// where none of them stands on a marked tile they share as before.
    #[test]
    fn tie_breaks_split_only_tied_leaders() {
        let set = |players: &[u8]| players.iter().map(|p| PlayerId(*p)).collect::<PlayerSet>();
        let marked = |counts: [u32; 4]| {
            let mut all = NOBODY;
            all.0[..4].copy_from_slice(&counts);
            all
        };
        let tied = set(&[0, 1, 2]);
        // Any: every tied player with a figure on a marked tile takes it.
        assert_eq!(broken_tie(TieBreakBy::Any, tied, &marked([1, 0, 2, 5])), set(&[0, 2]));
        // Most: those of them with the most such figures; a non-leader's count is ignored.
        assert_eq!(broken_tie(TieBreakBy::Most, tied, &marked([1, 0, 2, 5])), set(&[2]));
        assert_eq!(broken_tie(TieBreakBy::Most, tied, &marked([2, 0, 2, 0])), set(&[0, 2]));
        // Nobody tied on a marked tile, or no tie at all: unchanged.
        assert_eq!(broken_tie(TieBreakBy::Any, tied, &marked([0, 0, 0, 3])), tied);
        assert_eq!(broken_tie(TieBreakBy::Most, set(&[1]), &marked([4, 0, 0, 0])), set(&[1]));
    }

    #[test]
    fn ties_share_in_full_and_nobody_wins_nothing() {
        let mut values = ByPlayer([0; crate::player::MAX_PLAYERS]);
        assert!(winners(&values).is_empty());
        values[PlayerId(1)] = 2;
        values[PlayerId(3)] = 2;
        values[PlayerId(0)] = 1;
        assert_eq!(winners(&values).iter().collect::<Vec<_>>(), [PlayerId(1), PlayerId(3)]);
    }
}
