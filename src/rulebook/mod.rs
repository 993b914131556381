//! The rulebook: the marks a tile set declares and the rules that value features by them,
//! as one set's file declares them or as the sets of one game bring them together.
//!
//! A rulebook is data. Scoring asks it "what is this feature worth, with these marks" and
//! applies the answer; it never asks which mark or rule it is looking at.

mod bag;
mod figure;
mod mark;
mod rule;
mod title;
mod token;

pub use bag::{
    BagKind, BagRule, BagToken, BagTokenRule, Drawn, MAX_BAG_KINDS, MAX_BAG_TOKEN_KINDS,
};
pub(crate) use bag::{BagTable, BagTableError};
pub use figure::{Alone, Extended, FigureRole, FigureRule, Joins, MAX_STRENGTH};
pub(crate) use figure::{FigureTable, TooManyKinds};
pub use mark::{Glyph, KindSet, MAX_MARKS, Mark, MarkCounts, MarkInfo, MarkSet, Merge};
pub use rule::{
    ChainRule, ChainTurns, Effect, FarmRule, FeatureState, HideRule, NeighbourRule, OccupantRule,
    OptionTest, PigRule, Reach, RivalRule, Rule, RuleId, TieBreakBy, TieBreakRule, ValueRule,
};
pub use title::{MAX_TITLES, TitleId, TitleInfo, TitleStanding};
pub use token::{MAX_TOKENS, Taker, TokenId, TokenInfo};

use alloc::string::String;
use alloc::vec::Vec;

use crate::player::Slots;
use crate::segment::SegmentKind;
use crate::setup::RuleOptions;

/// The most rules one tile set may declare, and one game bring together.
pub const MAX_RULES: usize = 64;

/// The marks, rules and token kinds of a tile set, or of the sets of a game together.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rulebook {
    pub(crate) marks: Vec<MarkInfo>,
    pub(crate) rules: Vec<Rule>,
    pub(crate) tokens: Vec<TokenInfo>,
    pub(crate) titles: Vec<TitleInfo>,
}

/// A city's or road's points and the rule that set them (`None`: the plain value).
pub(crate) type Valued = (u32, Option<RuleId>);

impl Rulebook {
    /// The declared marks; a [`Mark`] indexes this list.
    #[must_use]
    pub fn marks(&self) -> &[MarkInfo] {
        &self.marks
    }

    /// The declared rules; a [`RuleId`] indexes this list.
    #[must_use]
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// The declared token kinds; a [`TokenId`] indexes this list.
    #[must_use]
    pub fn tokens(&self) -> &[TokenInfo] {
        &self.tokens
    }

    /// The declared titles; a [`TitleId`] indexes this list.
    #[must_use]
    pub fn titles(&self) -> &[TitleInfo] {
        &self.titles
    }

    /// The token kind with this id.
    #[must_use]
    pub fn token_by_id(&self, id: &str) -> Option<TokenId> {
        let index = self.tokens.iter().position(|token| token.id == id)?;
        Some(TokenId(index as u8))
    }

    /// The declaration of `token`.
    #[must_use]
    pub fn token(&self, token: TokenId) -> Option<&TokenInfo> {
        self.tokens.get(token.index())
    }

    /// The mark with this id.
    #[must_use]
    pub fn mark_by_id(&self, id: &str) -> Option<Mark> {
        let index = self.marks.iter().position(|mark| mark.id == id)?;
        Some(Mark(index as u8))
    }

    /// The declaration of `mark`.
    #[must_use]
    pub fn mark(&self, mark: Mark) -> Option<&MarkInfo> {
        self.marks.get(mark.index())
    }

    /// The declaration of `rule`.
    #[must_use]
    pub fn rule(&self, rule: RuleId) -> Option<&Rule> {
        self.rules.get(rule.index())
    }

    /// The value rules that apply to a feature, the winning one: highest precedence, first
    /// declared among equals.
    fn winning_value(
        &self,
        kind: SegmentKind,
        complete: bool,
        tiles: u32,
        marks: MarkSet,
        options: &RuleOptions,
    ) -> Option<(RuleId, &ValueRule)> {
        let mut best: Option<(RuleId, &ValueRule)> = None;
        for (index, rule) in self.rules.iter().enumerate() {
            let Effect::Value(value) = &rule.effect else { continue };
            if value.applies(kind, complete, tiles, marks, options)
                && best.is_none_or(|(_, known)| value.precedence > known.precedence)
            {
                best = Some((RuleId(index as u8), value));
            }
        }
        best
    }

    /// What a city or road of `tiles` tiles carrying `counts` is worth, complete or
    /// unfinished, and the rule that decided. `plain` overrides some marks' plain points
    /// (a landscape's pennant value).
    pub(crate) fn value(
        &self,
        kind: SegmentKind,
        tiles: u32,
        counts: &MarkCounts,
        complete: bool,
        options: &RuleOptions,
        plain: &PlainOverride,
    ) -> Valued {
        // Only the declared marks can be counted: one pass over them, not over every slot.
        let present = counts.present_among(self.marks.len());
        let rule = self.winning_value(kind, complete, tiles, present, options);
        let per_tile = match (rule, kind, complete) {
            (Some((_, rule)), _, _) => rule.per_tile,
            (None, SegmentKind::City, true) => 2,
            _ => 1,
        };
        let mut points = per_tile.saturating_mul(tiles);
        for mark in present.iter() {
            let (count, info) = (counts.get(mark), &self.marks[mark.index()]);
            let each = match rule.and_then(|(_, rule)| rule.mark_points(mark)) {
                Some(each) => each,
                None => plain.points(mark, complete).unwrap_or(if complete {
                    info.complete
                } else {
                    info.unfinished
                }),
            };
            points = points.saturating_add(each.saturating_mul(info.counted(count)));
        }
        (points, rule.map(|(id, _)| id))
    }

    /// How many times its plain value a completed city carrying `marks` pays its farmers,
    /// and the rule that says so.
    pub(crate) fn farm_factor(&self, marks: MarkSet) -> (u32, Option<RuleId>) {
        let mut best: Option<(RuleId, &FarmRule)> = None;
        for (index, rule) in self.rules.iter().enumerate() {
            let Effect::Farm(farm) = &rule.effect else { continue };
            if marks.contains_all(farm.with)
                && best.is_none_or(|(_, known)| farm.precedence > known.precedence)
            {
                best = Some((RuleId(index as u8), farm));
            }
        }
        best.map_or((1, None), |(id, farm)| (farm.times, Some(id)))
    }

    /// The first declared tie-break, if any.
    pub(crate) fn tiebreak(&self) -> Option<TieBreakRule> {
        self.rules.iter().find_map(|rule| match rule.effect {
            Effect::TieBreak(tiebreak) => Some(tiebreak),
            _ => None,
        })
    }

    /// The neighbourhood bonuses that apply to a `kind` feature, complete or not, with their
    /// numbers.
    pub(crate) fn neighbour_rules(
        &self,
        kind: SegmentKind,
        complete: bool,
    ) -> impl Iterator<Item = (RuleId, NeighbourRule)> + '_ {
        self.rules.iter().enumerate().filter_map(move |(index, rule)| match rule.effect {
            Effect::Neighbours(bonus) if bonus.applies(kind, complete) => {
                Some((RuleId(index as u8), bonus))
            }
            _ => None,
        })
    }

    /// The declared rivalries, with their numbers.
    pub(crate) fn rivals(&self) -> impl Iterator<Item = (RuleId, RivalRule)> + '_ {
        self.rules.iter().enumerate().filter_map(|(index, rule)| match rule.effect {
            Effect::Rival(rival) => Some((RuleId(index as u8), rival)),
            _ => None,
        })
    }

    /// The declared chain, if any: at most one per edge kind, and only river edges chain.
    pub(crate) fn chain(&self) -> Option<ChainRule> {
        self.rules.iter().find_map(|rule| match rule.effect {
            Effect::Chain(chain) => Some(chain),
            _ => None,
        })
    }

    /// For each segment kind, the places in `table` of the figures that the occupants rules
    /// among `rules` let stand there (every figure where none limits them).
    pub(crate) fn occupants_of<'a>(
        rules: impl Iterator<Item = &'a Rule> + Clone,
        table: &FigureTable,
    ) -> [Slots; SegmentKind::ALL.len()] {
        SegmentKind::ALL.map(|kind| match Rulebook::occupants_named(rules.clone(), kind) {
            Some(named) => named.iter().filter_map(|figure| table.slot(figure)).collect(),
            None => (0..table.len()).collect(),
        })
    }

    /// The figures that the occupants rules among `rules` let stand on segments of `kind`,
    /// as the rules name them (figures a game may lack included); `None` where none limits
    /// them. Several rules for one kind all apply: the figures every one of them names.
    pub(crate) fn occupants_named<'a>(
        rules: impl Iterator<Item = &'a Rule>,
        kind: SegmentKind,
    ) -> Option<crate::player::FigureList> {
        rules.fold(None, |allowed, rule| match rule.effect {
            Effect::Occupants(occupants) if occupants.feature == kind => Some(match allowed {
                None => occupants.figures,
                Some(known) => {
                    known.iter().filter(|each| occupants.figures.contains(*each)).collect()
                }
            }),
            _ => allowed,
        })
    }

    /// The occupants rules that reach every set's tiles.
    pub(crate) fn reaching_every_set(&self) -> impl Iterator<Item = &Rule> + Clone {
        self.rules.iter().filter(|rule| {
            matches!(rule.effect, Effect::Occupants(OccupantRule { reach: Reach::EverySet, .. }))
        })
    }

    /// The first declared pig rule, with its number.
    pub(crate) fn pig(&self) -> Option<(RuleId, PigRule)> {
        self.rules.iter().enumerate().find_map(|(index, rule)| match rule.effect {
            Effect::Pig(pig) => Some((RuleId(index as u8), pig)),
            _ => None,
        })
    }

    /// The declared bags, with their numbers and ids.
    pub(crate) fn bags(&self) -> impl Iterator<Item = (RuleId, &str, &BagRule)> {
        self.rules.iter().enumerate().filter_map(|(index, rule)| match &rule.effect {
            Effect::Bag(bag) => Some((RuleId(index as u8), rule.id.as_str(), bag)),
            _ => None,
        })
    }

    /// The marks whose tiles hide a tile under them.
    pub(crate) fn hiding_marks(&self) -> MarkSet {
        self.rules.iter().fold(MarkSet::EMPTY, |marks, rule| match rule.effect {
            Effect::Hide(hide) => marks.with(hide.mark),
            _ => marks,
        })
    }

    /// Whether any farm rule is declared: most games have none, and their fields need not
    /// look at their cities' marks.
    pub(crate) fn has_farm_rules(&self) -> bool {
        self.rules.iter().any(|rule| matches!(rule.effect, Effect::Farm(_)))
    }

    /// The rulebooks of several sets as one, each mark and rule once, and for each set how
    /// its mark numbers map into the combined book.
    ///
    /// # Errors
    /// Every reason the sets cannot share one book, in the order the sets bring them: two
    /// sets that declare the same id differently, two rules of equal standing from two sets
    /// (which neither set orders), or more marks or rules than a game holds.
    pub(crate) fn combine<'a>(
        books: impl Iterator<Item = (&'a str, &'a Rulebook)>,
    ) -> Result<(Rulebook, Vec<Vec<Mark>>), Vec<Conflict>> {
        let mut combined = Rulebook::default();
        let mut conflicts = Vec::new();
        // Which set first declared each mark, rule, token kind and title, for the message
        // when a later set declares one differently.
        let (mut mark_owner, mut rule_owner, mut token_owner, mut title_owner) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut maps = Vec::new();
        for (set, book) in books {
            let mut map = Vec::with_capacity(book.marks.len());
            for mark in &book.marks {
                let at = merge(
                    &mut combined.marks,
                    &mut mark_owner,
                    mark.clone(),
                    set,
                    Kind::MARK,
                    &mut conflicts,
                );
                // A mark that clashed or did not fit still needs a number for the rules
                // that name it: the first declaration's, or the last slot.
                map.push(Mark(at.unwrap_or(combined.marks.len().saturating_sub(1)) as u8));
            }
            for rule in &book.rules {
                let rule = rule.remapped(&map);
                let effect = rule.effect.clone();
                let Some(at) = merge(
                    &mut combined.rules,
                    &mut rule_owner,
                    rule,
                    set,
                    Kind::RULE,
                    &mut conflicts,
                ) else {
                    continue;
                };
                // Two chains of one edge kind under different ids would give its tiles two
                // sets of placement rules.
                if let Effect::Chain(chain) = effect
                    && let Some(other) = combined.rules.iter().position(
                        |known| matches!(known.effect, Effect::Chain(c) if c.edge == chain.edge),
                    )
                    && other != at
                {
                    conflicts.push(Conflict::differs(
                        "chain",
                        &combined.rules[other].id,
                        rule_owner[other],
                        set,
                    ));
                }
            }
            for token in &book.tokens {
                let token = TokenInfo { from: remap(token.from, &map), ..token.clone() };
                merge(
                    &mut combined.tokens,
                    &mut token_owner,
                    token,
                    set,
                    Kind::TOKEN,
                    &mut conflicts,
                );
            }
            for title in &book.titles {
                merge(
                    &mut combined.titles,
                    &mut title_owner,
                    title.clone(),
                    set,
                    Kind::TITLE,
                    &mut conflicts,
                );
            }
            maps.push(map);
        }
        conflicts.extend(equal_standing(&combined.rules, &rule_owner));
        if conflicts.is_empty() { Ok((combined, maps)) } else { Err(conflicts) }
    }
}

/// The pairs of rules from two different sets that both could decide one thing and that
/// nothing orders: which of them wins would be the order the sets were listed in.
fn equal_standing(rules: &[Rule], owners: &[&str]) -> Vec<Conflict> {
    let mut found = Vec::new();
    for (first, earlier) in rules.iter().enumerate() {
        for (second, later) in rules.iter().enumerate().skip(first + 1) {
            if owners[first] == owners[second] {
                continue;
            }
            let what = match (&earlier.effect, &later.effect) {
                (Effect::Value(a), Effect::Value(b))
                    if a.precedence == b.precedence && a.overlaps(b) =>
                {
                    "value rule"
                }
                (Effect::Farm(a), Effect::Farm(b)) if a.precedence == b.precedence => "farm rule",
                (Effect::TieBreak(_), Effect::TieBreak(_)) => "tie-break",
                (Effect::Pig(_), Effect::Pig(_)) => "pig rule",
                _ => continue,
            };
            found.push(Conflict::EqualStanding {
                what,
                first: (earlier.id.clone(), owners[first].into()),
                second: (later.id.clone(), owners[second].into()),
            });
        }
    }
    found
}

/// What [`merge`] needs to know of one sort of declaration: its name in messages, how many
/// a game holds, the conflict when there are more, and an item's id.
struct Kind<T> {
    what: &'static str,
    max: usize,
    full: Conflict,
    id: fn(&T) -> &str,
}

impl Kind<MarkInfo> {
    const MARK: Kind<MarkInfo> =
        Kind { what: "mark", max: MAX_MARKS, full: Conflict::TooManyMarks, id: |mark| &mark.id };
}

impl Kind<Rule> {
    const RULE: Kind<Rule> =
        Kind { what: "rule", max: MAX_RULES, full: Conflict::TooManyRules, id: |rule| &rule.id };
}

impl Kind<TokenInfo> {
    const TOKEN: Kind<TokenInfo> = Kind {
        what: "token",
        max: MAX_TOKENS,
        full: Conflict::TooManyTokens,
        id: |token| &token.id,
    };
}

impl Kind<TitleInfo> {
    const TITLE: Kind<TitleInfo> = Kind {
        what: "title",
        max: MAX_TITLES,
        full: Conflict::TooManyTitles,
        id: |title| &title.id,
    };
}

/// `item`, declared by `set`, taken into `list` (whose items `owners` say which set declared
/// first) unless one of its id is there already, declared alike; its position in `list`, or
/// `None` with the reason in `conflicts` (the first declaration's position when it clashed).
fn merge<'a, T: PartialEq>(
    list: &mut Vec<T>,
    owners: &mut Vec<&'a str>,
    item: T,
    set: &'a str,
    kind: Kind<T>,
    conflicts: &mut Vec<Conflict>,
) -> Option<usize> {
    let id = kind.id;
    match list.iter().position(|known| id(known) == id(&item)) {
        Some(at) if list[at] == item => Some(at),
        Some(at) => {
            conflicts.push(Conflict::differs(kind.what, id(&item), owners[at], set));
            // The rules naming a clashing mark keep the first declaration's number; a
            // clashing rule, token kind or title is left out.
            (kind.what == "mark").then_some(at)
        }
        None if list.len() == kind.max => {
            if !conflicts.contains(&kind.full) {
                conflicts.push(kind.full);
            }
            None
        }
        None => {
            list.push(item);
            owners.push(set);
            Some(list.len() - 1)
        }
    }
}

/// A mark's plain points replaced, for a landscape that values pennants its own way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PlainOverride {
    pub(crate) mark: Option<Mark>,
    pub(crate) complete: Option<u32>,
    pub(crate) unfinished: Option<u32>,
}

impl PlainOverride {
    fn points(&self, mark: Mark, complete: bool) -> Option<u32> {
        if self.mark != Some(mark) {
            return None;
        }
        if complete { self.complete } else { self.unfinished }
    }
}

/// `marks` with each mark's number mapped through `map` (a set's numbers to a game's).
fn remap(marks: MarkSet, map: &[Mark]) -> MarkSet {
    marks.iter().filter_map(|mark| map.get(mark.index())).copied().collect()
}

impl Rule {
    /// The rule with its mark numbers mapped through `map` (a set's numbers to a game's).
    fn remapped(&self, map: &[Mark]) -> Rule {
        let effect = match &self.effect {
            Effect::Value(value) => Effect::Value(ValueRule {
                with: remap(value.with, map),
                per_mark: value
                    .per_mark
                    .iter()
                    .filter_map(|(mark, points)| Some((*map.get(mark.index())?, *points)))
                    .collect(),
                ..value.clone()
            }),
            Effect::Farm(farm) => Effect::Farm(FarmRule { with: remap(farm.with, map), ..*farm }),
            Effect::Neighbours(bonus) => Effect::Neighbours(NeighbourRule {
                mark: map.get(bonus.mark.index()).copied().unwrap_or(bonus.mark),
                ..*bonus
            }),
            Effect::TieBreak(tiebreak) => Effect::TieBreak(TieBreakRule {
                mark: map.get(tiebreak.mark.index()).copied().unwrap_or(tiebreak.mark),
                ..*tiebreak
            }),
            Effect::Rival(rival) => {
                Effect::Rival(RivalRule { marks: remap(rival.marks, map), ..*rival })
            }
            Effect::Chain(chain) => Effect::Chain(*chain),
            Effect::Occupants(occupants) => Effect::Occupants(*occupants),
            Effect::Pig(pig) => Effect::Pig(*pig),
            Effect::Bag(bag) => Effect::Bag(bag.clone()),
            Effect::Hide(hide) => Effect::Hide(HideRule {
                mark: map.get(hide.mark.index()).copied().unwrap_or(hide.mark),
            }),
        };
        Rule { id: self.id.clone(), effect }
    }
}

/// Why the sets of a game cannot share one rulebook.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Conflict {
    /// Two sets declare a mark or rule of the same id differently.
    Differs { what: &'static str, id: String, first: String, second: String },
    /// More marks than a game holds.
    TooManyMarks,
    /// More rules than a game holds.
    TooManyRules,
    /// More token kinds than a game holds.
    TooManyTokens,
    /// More titles than a game holds.
    TooManyTitles,
    /// Two rules of two sets that could both decide one thing, and nothing orders them: each
    /// as its id and its set.
    EqualStanding { what: &'static str, first: (String, String), second: (String, String) },
}

impl Conflict {
    fn differs(what: &'static str, id: &str, first: &str, second: &str) -> Conflict {
        Conflict::Differs { what, id: id.into(), first: first.into(), second: second.into() }
    }
}
