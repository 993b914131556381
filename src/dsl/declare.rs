//! Validation of the declarations: marks, the rules that value features by them and the
//! token kinds they give, checked before the tiles so that segments can name the marks.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::diagnostic::{Code, Problems, line_of};
use super::limits;
use super::raw::{
    Located, LocatedList, RawChain, RawFarm, RawFile, RawHide, RawMark, RawNeighbours,
    RawOccupants, RawPig, RawRival, RawTieBreak, RawTitle, RawToken, RawValue,
};
use super::validate::{check_id, check_range, check_text};
use crate::palette::Colour;
use crate::player::{Figure, FigureList};
use crate::rulebook::{
    ChainRule, ChainTurns, Effect, FarmRule, FeatureState, Glyph, HideRule, KindSet, MAX_MARKS,
    MAX_RULES, MAX_TITLES, MAX_TOKENS, Mark, MarkInfo, MarkSet, Merge, NeighbourRule, OccupantRule,
    OptionTest, PigRule, Reach, RivalRule, Rule, Rulebook, Taker, TieBreakBy, TieBreakRule,
    TitleInfo, TokenInfo, ValueRule,
};
use crate::segment::SegmentKind;
use crate::setup::{FarmScoring, UnfinishedMarks};

/// The most points a mark or a rule may give per tile or per mark.
pub(super) const MAX_POINTS: i64 = 100;

/// The declarations that passed, and the ids of the marks whose declarations did not: a
/// segment or rule naming one of those is not reported again, its declaration already was.
pub(crate) struct Declared {
    pub(crate) book: Rulebook,
    pub(crate) broken: Vec<String>,
}

impl Declared {
    /// The declared mark `name` names; reported unless its declaration was broken.
    pub(crate) fn resolve(&self, problems: &mut Problems, name: &Located<String>) -> Option<Mark> {
        let found = self.book.mark_by_id(&name.value);
        if found.is_none() && !self.broken.contains(&name.value) {
            problems.report(
                Code::UnknownMark,
                name.span.clone(),
                unknown_mark(&name.value, &self.book),
            );
        }
        found
    }
}

/// Checks every declaration. Marks that fail are left out, so tiles naming them get no
/// follow-on error beyond their own; the rulebook is complete only when nothing was reported.
pub(crate) fn validate_rulebook(raw: &RawFile, text: &str, problems: &mut Problems) -> Declared {
    let mut declared = Declared { book: Rulebook::default(), broken: Vec::new() };
    let book = &mut declared.book;
    let mut ids: Vec<(&str, usize)> = Vec::new();
    for (number, mark) in raw.marks.iter().enumerate() {
        if number == MAX_MARKS {
            problems.report(
                Code::TooLarge,
                mark.span.clone(),
                format!("a set may declare at most {MAX_MARKS} marks"),
            );
        }
        let fresh = unique(&mut ids, mark.id.as_ref(), "mark", text, problems);
        match validate_mark(mark, problems) {
            Some(info) if fresh && number < MAX_MARKS => book.marks.push(info),
            _ => {
                if let Some(id) = &mark.id {
                    declared.broken.push(id.value.clone());
                }
            }
        }
    }
    let mut rule_ids: Vec<(&str, usize)> = Vec::new();
    let count = raw.values.len()
        + raw.farms.len()
        + raw.neighbours.len()
        + raw.tiebreaks.len()
        + raw.rivals.len()
        + raw.chains.len()
        + raw.occupants.len()
        + raw.pigs.len()
        + raw.bags.len()
        + raw.hides.len();
    if count > MAX_RULES {
        let span = raw
            .values
            .first()
            .map(|value| value.span.clone())
            .or_else(|| raw.farms.first().map(|farm| farm.span.clone()))
            .or_else(|| raw.neighbours.first().map(|bonus| bonus.span.clone()))
            .or_else(|| raw.tiebreaks.first().map(|tiebreak| tiebreak.span.clone()))
            .or_else(|| raw.rivals.first().map(|rival| rival.span.clone()))
            .or_else(|| raw.chains.first().map(|chain| chain.span.clone()))
            .or_else(|| raw.occupants.first().map(|rule| rule.span.clone()))
            .or_else(|| raw.pigs.first().map(|rule| rule.span.clone()))
            .or_else(|| raw.bags.first().map(|rule| rule.span.clone()))
            .or_else(|| raw.hides.first().map(|rule| rule.span.clone()))
            .unwrap_or(0..0);
        problems.report(
            Code::TooLarge,
            span,
            format!("a set may declare at most {MAX_RULES} rules, this one declares {count}"),
        );
        return declared;
    }
    let mut rules = Vec::new();
    for value in &raw.values {
        let fresh = unique(&mut rule_ids, value.id.as_ref(), "rule", text, problems);
        if let Some(rule) = validate_value(value, &declared, problems)
            && fresh
        {
            rules.push(rule);
        }
    }
    for farm in &raw.farms {
        let fresh = unique(&mut rule_ids, farm.id.as_ref(), "rule", text, problems);
        if let Some(rule) = validate_farm(farm, &declared, problems)
            && fresh
        {
            rules.push(rule);
        }
    }
    for bonus in &raw.neighbours {
        let fresh = unique(&mut rule_ids, bonus.id.as_ref(), "rule", text, problems);
        if let Some(rule) = validate_neighbours(bonus, &declared, problems)
            && fresh
        {
            rules.push(rule);
        }
    }
    for tiebreak in &raw.tiebreaks {
        let fresh = unique(&mut rule_ids, tiebreak.id.as_ref(), "rule", text, problems);
        if let Some(rule) = validate_tiebreak(tiebreak, &declared, problems)
            && fresh
        {
            rules.push(rule);
        }
    }
    for rival in &raw.rivals {
        let fresh = unique(&mut rule_ids, rival.id.as_ref(), "rule", text, problems);
        if let Some(rule) = validate_rival(rival, &declared, problems)
            && fresh
        {
            rules.push(rule);
        }
    }
    for (number, chain) in raw.chains.iter().enumerate() {
        let fresh = unique(&mut rule_ids, chain.id.as_ref(), "rule", text, problems);
        if number == 1 {
            // Every chain follows river edges: a second would give them two sets of rules.
            problems.report(
                Code::Duplicate,
                chain.span.clone(),
                "a set may declare one chain: every chain follows river edges".into(),
            );
        }
        if let Some(rule) = validate_chain(chain, problems)
            && fresh
            && number == 0
        {
            rules.push(rule);
        }
    }
    for occupants in &raw.occupants {
        let fresh = unique(&mut rule_ids, occupants.id.as_ref(), "rule", text, problems);
        if let Some(rule) = validate_occupants(occupants, problems)
            && fresh
        {
            rules.push(rule);
        }
    }
    for (number, pig) in raw.pigs.iter().enumerate() {
        let fresh = unique(&mut rule_ids, pig.id.as_ref(), "rule", text, problems);
        only_one(problems, number, &pig.span, "pig rule: every pig is worth the same");
        if let Some(rule) = validate_pig(pig, problems)
            && fresh
            && number == 0
        {
            rules.push(rule);
        }
    }
    let mut bag_ids = Vec::new();
    for bag in &raw.bags {
        let fresh = unique(&mut rule_ids, bag.id.as_ref(), "rule", text, problems);
        if let Some(id) = &bag.id {
            bag_ids.push(id.value.clone());
        }
        if let Some(rule) = super::bag::validate_bag(bag, problems)
            && fresh
        {
            rules.push(rule);
        }
    }
    super::bag::check_draws(&raw.declared_figures, &bag_ids, problems);
    for hide in &raw.hides {
        let fresh = unique(&mut rule_ids, hide.id.as_ref(), "rule", text, problems);
        if let Some(rule) = validate_hide(hide, &declared, problems)
            && fresh
        {
            rules.push(rule);
        }
    }
    declared.book.rules = rules;
    let mut title_ids: Vec<(&str, usize)> = Vec::new();
    for (number, title) in raw.titles.iter().enumerate() {
        if number == MAX_TITLES {
            problems.report(
                Code::TooLarge,
                title.span.clone(),
                format!("a set may declare at most {MAX_TITLES} titles"),
            );
        }
        let fresh = unique(&mut title_ids, title.id.as_ref(), "title", text, problems);
        if let Some(info) = validate_title(title, problems)
            && fresh
            && number < MAX_TITLES
        {
            declared.book.titles.push(info);
        }
    }
    let mut token_ids: Vec<(&str, usize)> = Vec::new();
    for (number, token) in raw.tokens.iter().enumerate() {
        if number == MAX_TOKENS {
            problems.report(
                Code::TooLarge,
                token.span.clone(),
                format!("a set may declare at most {MAX_TOKENS} token kinds"),
            );
        }
        let fresh = unique(&mut token_ids, token.id.as_ref(), "token", text, problems);
        if let Some(info) = validate_token(token, &declared, problems)
            && fresh
            && number < MAX_TOKENS
        {
            declared.book.tokens.push(info);
        }
    }
    declared
}

/// Records `id` and reports it if an earlier declaration of the same sort took it.
fn unique<'a>(
    seen: &mut Vec<(&'a str, usize)>,
    id: Option<&'a Located<String>>,
    what: &str,
    text: &str,
    problems: &mut Problems,
) -> bool {
    let Some(id) = id else { return true };
    if let Some((_, first)) = seen.iter().find(|(known, _)| *known == id.value) {
        problems.report(
            Code::DuplicateId,
            id.span.clone(),
            format!(
                "{what} id `{}` is already declared on line {}",
                super::validate::shorten(&id.value),
                line_of(text, *first)
            ),
        );
        return false;
    }
    seen.push((&id.value, id.span.start));
    true
}

fn declared_id(
    problems: &mut Problems,
    id: Option<&Located<String>>,
    what: &str,
) -> Option<String> {
    check_id(problems, id?.clone(), what, limits::is_set_id_char, "a-z, 0-9 and _")
}

/// What `parse` makes of the text of `raw`, or a report (with `code`) that it is not `what`
/// and what was expected.
pub(super) fn named<T>(
    problems: &mut Problems,
    raw: Option<&Located<String>>,
    parse: impl Fn(&str) -> Option<T>,
    code: Code,
    what: &str,
    expected: &str,
) -> Option<T> {
    let raw = raw?;
    let found = parse(&raw.value);
    if found.is_none() {
        let text = super::validate::shorten(&raw.value);
        problems.report(
            code,
            raw.span.clone(),
            format!("`{text}` is not {what}; expected {expected}"),
        );
    }
    found
}

/// Cities and roads: what value rules and titles are about.
const LINEAR: &[SegmentKind] = &[SegmentKind::City, SegmentKind::Road];

/// The segment kind `raw` names, one of `kinds`; else reported as `{rule}, not `...``.
fn feature_among(
    problems: &mut Problems,
    raw: Option<&Located<String>>,
    kinds: &[SegmentKind],
    rule: &str,
) -> Option<SegmentKind> {
    let raw = raw?;
    let found = SegmentKind::from_name(&raw.value).filter(|kind| kinds.contains(kind));
    if found.is_none() {
        problems.report(
            Code::UnknownValue,
            raw.span.clone(),
            format!("{rule}, not `{}`", super::validate::shorten(&raw.value)),
        );
    }
    found
}

/// The state `raw` names, or `default` when it is left out.
fn state_or(
    problems: &mut Problems,
    raw: Option<&Located<String>>,
    default: FeatureState,
) -> Option<FeatureState> {
    match raw {
        None => Some(default),
        Some(state) => named(
            problems,
            Some(state),
            FeatureState::from_name,
            Code::UnknownValue,
            "a state",
            "complete, unfinished or any",
        ),
    }
}

/// The glyph `raw` names, reported with the glyphs pictures know when it names none.
fn glyph(problems: &mut Problems, raw: Option<&Located<String>>) -> Option<Glyph> {
    let glyphs = format!("one of {}", Glyph::ALL.map(Glyph::name).join(", "));
    named(problems, raw, Glyph::from_name, Code::UnknownGlyph, "a glyph", &glyphs)
}

/// The palette colour `raw` names, reported with the palette when it names none.
fn colour(problems: &mut Problems, raw: Option<&Located<String>>) -> Option<Colour> {
    let colours = format!("one of {}", crate::PALETTE.map(Colour::name).join(", "));
    named(problems, raw, Colour::named, Code::UnknownColour, "a colour", &colours)
}

/// The marks `list` names, as [`marks_named`] reads them, and at least one: an empty list
/// is reported with `missing`.
fn some_marks_named(
    problems: &mut Problems,
    list: Option<&LocatedList>,
    declared: &Declared,
    missing: &str,
) -> Option<MarkSet> {
    let set = marks_named(problems, list, declared)?;
    if set.is_empty()
        && let Some(list) = list
        && list.value.is_empty()
    {
        problems.report(Code::MissingKey, list.span.clone(), missing.into());
        return None;
    }
    Some(set)
}

fn points(problems: &mut Problems, value: Option<&Located<i64>>, what: &str) -> Option<u32> {
    match value {
        None => Some(0),
        Some(value) => check_range(problems, value, what, 0, MAX_POINTS).map(|n| n as u32),
    }
}

fn validate_mark(raw: &RawMark, problems: &mut Problems) -> Option<MarkInfo> {
    let id = declared_id(problems, raw.id.as_ref(), "mark id");
    let name =
        raw.name.clone().and_then(|name| check_text(problems, name, "mark name", limits::MAX_NAME));
    let on = raw.on.as_ref().and_then(|on| {
        let (mut kinds, mut tile) = (KindSet::EMPTY, false);
        let mut ok = !on.value.is_empty();
        if on.value.is_empty() {
            problems.report(
                Code::MissingKey,
                on.span.clone(),
                "a mark must stand on at least one segment kind, or `tile`, in `on`".into(),
            );
        }
        for kind in &on.value {
            if kind.value == "tile" {
                if tile {
                    problems.report(
                        Code::Duplicate,
                        kind.span.clone(),
                        "`tile` is listed twice in `on`".into(),
                    );
                    ok = false;
                }
                tile = true;
                continue;
            }
            match SegmentKind::from_name(&kind.value) {
                Some(found) if kinds.contains(found) => {
                    problems.report(
                        Code::Duplicate,
                        kind.span.clone(),
                        format!("segment kind `{found}` is listed twice in `on`"),
                    );
                    ok = false;
                }
                Some(found) => kinds = kinds.with(found),
                None => {
                    problems.report(
                        Code::UnknownSegmentKind,
                        kind.span.clone(),
                        format!(
                            "`{}` is not a segment kind or `tile`; expected city, road, field, river, monastery, garden or tile",
                            super::validate::shorten(&kind.value)
                        ),
                    );
                    ok = false;
                }
            }
        }
        ok.then_some((kinds, tile))
    });
    let merge = named(
        problems,
        raw.merge.as_ref(),
        Merge::from_name,
        Code::UnknownValue,
        "a way marks add up",
        "count or flag",
    );
    let complete = points(problems, raw.complete.as_ref(), "complete");
    let unfinished = points(problems, raw.unfinished.as_ref(), "unfinished");
    let glyph = glyph(problems, raw.glyph.as_ref());
    let colour = colour(problems, raw.colour.as_ref());
    let (on, tile) = on?;
    Some(MarkInfo {
        id: id?,
        name: name?,
        on,
        tile,
        merge: merge?,
        complete: complete?,
        unfinished: unfinished?,
        glyph: glyph?,
        colour: colour?,
    })
}

/// The marks a rule names in `list`, each declared and named once.
fn marks_named(
    problems: &mut Problems,
    list: Option<&LocatedList>,
    declared: &Declared,
) -> Option<MarkSet> {
    let mut set = MarkSet::EMPTY;
    let mut ok = true;
    for name in list.iter().flat_map(|list| &list.value) {
        match declared.resolve(problems, name) {
            Some(mark) if set.contains(mark) => {
                problems.report(
                    Code::Duplicate,
                    name.span.clone(),
                    format!("mark `{}` is listed twice", name.value),
                );
                ok = false;
            }
            Some(mark) => set = set.with(mark),
            None => ok = false,
        }
    }
    ok.then_some(set)
}

/// The message for a mark the set does not declare, listing those it does.
pub(crate) fn unknown_mark(name: &str, book: &Rulebook) -> String {
    let name = super::validate::shorten(name);
    if book.marks().is_empty() {
        return format!(
            "`{name}` is not a mark of this set, which declares none; declare it in a [[mark]] table"
        );
    }
    let known: Vec<&str> = book.marks().iter().map(|mark| mark.id.as_str()).collect();
    format!("`{name}` is not a mark of this set; it declares {}", known.join(", "))
}

fn validate_value(raw: &RawValue, declared: &Declared, problems: &mut Problems) -> Option<Rule> {
    let id = declared_id(problems, raw.id.as_ref(), "rule id");
    let feature = feature_among(
        problems,
        raw.feature.as_ref(),
        LINEAR,
        "a value rule values a city or a road",
    );
    let state = state_or(problems, raw.state.as_ref(), FeatureState::Any);
    let with = marks_named(problems, raw.with.as_ref(), declared);
    let tiles = match &raw.tiles {
        None => Some(None),
        Some(tiles) => check_range(problems, tiles, "tiles", 1, i64::from(limits::MAX_COPIES))
            .map(|n| Some(n as u32)),
    };
    let options = option_tests(problems, &raw.options);
    let precedence = precedence(problems, raw.precedence.as_ref());
    let per_tile = raw
        .per_tile
        .as_ref()
        .and_then(|per_tile| check_range(problems, per_tile, "per_tile", 0, MAX_POINTS))
        .map(|n| n as u32);
    let mut per_mark: Option<Vec<(Mark, u32)>> = Some(Vec::new());
    for (name, value) in &raw.per_mark {
        let mark = declared.resolve(problems, name);
        let each = check_range(problems, value, "per_mark", 0, MAX_POINTS);
        match (mark, each, per_mark.as_mut()) {
            (Some(mark), Some(each), Some(list)) => list.push((mark, each as u32)),
            _ => per_mark = None,
        }
    }
    Some(Rule {
        id: id?,
        effect: Effect::Value(ValueRule {
            feature: feature?,
            state: state?,
            with: with?,
            tiles: tiles?,
            options: options?,
            precedence: precedence?,
            per_tile: per_tile?,
            per_mark: per_mark?,
        }),
    })
}

fn validate_farm(raw: &RawFarm, declared: &Declared, problems: &mut Problems) -> Option<Rule> {
    let id = declared_id(problems, raw.id.as_ref(), "rule id");
    let with = some_marks_named(
        problems,
        raw.with.as_ref(),
        declared,
        "a farm rule needs at least one mark in `with`",
    );
    let times = raw
        .times
        .as_ref()
        .and_then(|times| check_range(problems, times, "times", 1, 10))
        .map(|n| n as u32);
    let precedence = precedence(problems, raw.precedence.as_ref());
    Some(Rule {
        id: id?,
        effect: Effect::Farm(FarmRule { with: with?, times: times?, precedence: precedence? }),
    })
}

fn validate_title(raw: &RawTitle, problems: &mut Problems) -> Option<TitleInfo> {
    let id = declared_id(problems, raw.id.as_ref(), "title id");
    let name = raw
        .name
        .clone()
        .and_then(|name| check_text(problems, name, "title name", limits::MAX_NAME));
    let feature = feature_among(
        problems,
        raw.feature.as_ref(),
        LINEAR,
        "a title is won by completing a city or a road",
    );
    let per_feature = points(problems, raw.per_feature.as_ref(), "per_feature");
    let holding = points(problems, raw.holding.as_ref(), "holding");
    Some(TitleInfo {
        id: id?,
        name: name?,
        feature: feature?,
        per_feature: per_feature?,
        holding: holding?,
    })
}

fn validate_token(
    raw: &RawToken,
    declared: &Declared,
    problems: &mut Problems,
) -> Option<TokenInfo> {
    let id = declared_id(problems, raw.id.as_ref(), "token id");
    let name = raw
        .name
        .clone()
        .and_then(|name| check_text(problems, name, "token name", limits::MAX_NAME));
    let from = some_marks_named(
        problems,
        raw.from.as_ref(),
        declared,
        "a token kind needs at least one mark in `from`: the marks that give it",
    );
    let taker = named(
        problems,
        raw.taken_by.as_ref(),
        Taker::from_name,
        Code::UnknownValue,
        "who takes tokens",
        "completer or scorers",
    );
    let majority = points(problems, raw.majority.as_ref(), "majority");
    // Optional here: `Some(None)` when left out, `None` when given wrongly.
    let glyph = raw.glyph.as_ref().map_or(Some(None), |raw| glyph(problems, Some(raw)).map(Some));
    let colour =
        raw.colour.as_ref().map_or(Some(None), |raw| colour(problems, Some(raw)).map(Some));
    let from = from?;
    // Drawn as the first mark that gives it, unless the declaration says otherwise.
    let first = from.iter().next().and_then(|mark| declared.book.mark(mark))?;
    Some(TokenInfo {
        id: id?,
        name: name?,
        from,
        taker: taker?,
        majority: majority?,
        glyph: glyph?.unwrap_or(first.glyph),
        colour: colour?.unwrap_or(first.colour),
    })
}

/// The tile mark a neighbourhood bonus or a tie-break names: declared, and declared to stand
/// on whole tiles.
fn tile_mark(
    problems: &mut Problems,
    name: Option<&Located<String>>,
    declared: &Declared,
) -> Option<Mark> {
    let name = name?;
    let mark = declared.resolve(problems, name)?;
    let info = declared.book.mark(mark)?;
    if !info.tile {
        problems.report(
            Code::MarkOnWrongKind,
            name.span.clone(),
            format!(
                "mark `{}` stands on segments; this rule counts a mark printed on whole tiles (`on = [\"tile\"]`)",
                info.id
            ),
        );
        return None;
    }
    Some(mark)
}

fn validate_neighbours(
    raw: &RawNeighbours,
    declared: &Declared,
    problems: &mut Problems,
) -> Option<Rule> {
    let id = declared_id(problems, raw.id.as_ref(), "rule id");
    let feature = feature_among(
        problems,
        raw.feature.as_ref(),
        &[SegmentKind::Monastery, SegmentKind::Garden],
        "a neighbourhood bonus adds to a monastery or a garden",
    );
    let state = state_or(problems, raw.state.as_ref(), FeatureState::Complete);
    let mark = tile_mark(problems, raw.mark.as_ref(), declared);
    let each = raw
        .each
        .as_ref()
        .and_then(|each| check_range(problems, each, "each", 0, MAX_POINTS))
        .map(|n| n as u32);
    Some(Rule {
        id: id?,
        effect: Effect::Neighbours(NeighbourRule {
            feature: feature?,
            state: state?,
            mark: mark?,
            each: each?,
        }),
    })
}

fn validate_tiebreak(
    raw: &RawTieBreak,
    declared: &Declared,
    problems: &mut Problems,
) -> Option<Rule> {
    let id = declared_id(problems, raw.id.as_ref(), "rule id");
    let mark = tile_mark(problems, raw.mark.as_ref(), declared);
    let by = named(
        problems,
        raw.by.as_ref(),
        TieBreakBy::from_name,
        Code::UnknownValue,
        "a way to break a tie",
        "any or most",
    );
    Some(Rule { id: id?, effect: Effect::TieBreak(TieBreakRule { mark: mark?, by: by? }) })
}

fn validate_occupants(raw: &RawOccupants, problems: &mut Problems) -> Option<Rule> {
    let id = declared_id(problems, raw.id.as_ref(), "rule id");
    let feature = feature_among(
        problems,
        raw.feature.as_ref(),
        &[
            SegmentKind::City,
            SegmentKind::Road,
            SegmentKind::Field,
            SegmentKind::Monastery,
            SegmentKind::Garden,
        ],
        "figures stand on cities, roads, fields, monasteries and gardens",
    );
    let figures = raw.figures.as_ref().and_then(|list| {
        let mut figures = FigureList::EMPTY;
        let mut ok = true;
        for name in &list.value {
            match Figure::from_id(&name.value) {
                Some(_) if figures.len() == FigureList::CAPACITY => {
                    problems.report(
                        Code::OutOfRange,
                        name.span.clone(),
                        format!("`figures` names at most {} figures", FigureList::CAPACITY),
                    );
                    ok = false;
                }
                Some(figure) if figures.contains(figure) => {
                    problems.report(
                        Code::Duplicate,
                        name.span.clone(),
                        format!("figure `{}` is listed twice in `figures`", name.value),
                    );
                    ok = false;
                }
                Some(figure) => figures = figures.with(figure),
                None => {
                    problems.report(
                        Code::UnknownValue,
                        name.span.clone(),
                        format!(
                            "`{}` is not a figure id; expected {}",
                            super::validate::shorten(&name.value),
                            Figure::ID_RULE
                        ),
                    );
                    ok = false;
                }
            }
        }
        if list.value.is_empty() {
            problems.report(
                Code::MissingKey,
                list.span.clone(),
                "`figures` names at least one figure: those that may stand on this kind".into(),
            );
            ok = false;
        }
        ok.then_some(figures)
    });
    let reach = match &raw.reach {
        None => Some(Reach::ThisSet),
        Some(reach) => named(
            problems,
            Some(reach),
            Reach::from_name,
            Code::UnknownValue,
            "a reach",
            "this_set or every_set",
        ),
    };
    Some(Rule {
        id: id?,
        effect: Effect::Occupants(OccupantRule {
            feature: feature?,
            figures: figures?,
            reach: reach?,
        }),
    })
}

/// Reports the second and later declarations of a rule a set may declare once.
fn only_one(problems: &mut Problems, number: usize, span: &core::ops::Range<usize>, what: &str) {
    if number == 1 {
        problems.report(Code::Duplicate, span.clone(), format!("a set may declare one {what}"));
    }
}

fn validate_pig(raw: &RawPig, problems: &mut Problems) -> Option<Rule> {
    let id = declared_id(problems, raw.id.as_ref(), "rule id");
    let per_city = raw
        .per_city
        .as_ref()
        .and_then(|value| check_range(problems, value, "per_city", 1, MAX_POINTS))
        .map(|value| value as u32);
    Some(Rule { id: id?, effect: Effect::Pig(PigRule { per_city: per_city? }) })
}

fn validate_hide(raw: &RawHide, declared: &Declared, problems: &mut Problems) -> Option<Rule> {
    let id = declared_id(problems, raw.id.as_ref(), "rule id");
    let mark = tile_mark(problems, raw.mark.as_ref(), declared);
    Some(Rule { id: id?, effect: Effect::Hide(HideRule { mark: mark? }) })
}

fn validate_chain(raw: &RawChain, problems: &mut Problems) -> Option<Rule> {
    let id = declared_id(problems, raw.id.as_ref(), "rule id");
    let edge = raw.edge.as_ref().and_then(|edge| {
        if edge.value == "river" {
            return Some(crate::EdgeKind::River);
        }
        problems.report(
            Code::UnknownValue,
            edge.span.clone(),
            format!(
                "a chain follows river edges, not `{}`; city, road and field edges join features instead",
                super::validate::shorten(&edge.value)
            ),
        );
        None
    });
    let turns = match raw.turns.as_ref() {
        None => Some(ChainTurns::Any),
        some => named(
            problems,
            some,
            ChainTurns::from_name,
            Code::UnknownValue,
            "a way a chain's curves follow each other",
            "any or alternate",
        ),
    };
    Some(Rule { id: id?, effect: Effect::Chain(ChainRule { edge: edge?, turns: turns? }) })
}

fn validate_rival(raw: &RawRival, declared: &Declared, problems: &mut Problems) -> Option<Rule> {
    let id = declared_id(problems, raw.id.as_ref(), "rule id");
    let feature = feature_among(
        problems,
        raw.feature.as_ref(),
        &[SegmentKind::Monastery, SegmentKind::Garden],
        "rivals are monasteries or gardens",
    );
    let marks = some_marks_named(
        problems,
        raw.marks.as_ref(),
        declared,
        "a rivalry needs at least one mark in `marks`, which tells its two sides apart",
    );
    // The marked side is told by the marks its feature's segments carry: a mark that cannot
    // stand on such a segment would make a side nothing can be on.
    let mut stands = true;
    if let (Some(kind), Some(_), Some(list)) = (feature, marks, raw.marks.as_ref()) {
        for name in &list.value {
            let Some(info) =
                declared.book.mark_by_id(&name.value).and_then(|mark| declared.book.mark(mark))
            else {
                continue;
            };
            if !info.on.contains(kind) {
                problems.report(
                    Code::MarkOnWrongKind,
                    name.span.clone(),
                    format!(
                        "mark `{}` does not stand on a {kind}, so no {kind} is on its side",
                        info.id
                    ),
                );
                stands = false;
            }
        }
    }
    let at_most = match raw.at_most.as_ref() {
        None => Some(None),
        Some(at_most) => check_range(problems, at_most, "at_most", 0, 8).map(|n| Some(n as u8)),
    };
    let marks = marks.filter(|_| stands);
    Some(Rule {
        id: id?,
        effect: Effect::Rival(RivalRule { feature: feature?, marks: marks?, at_most: at_most? }),
    })
}

fn precedence(problems: &mut Problems, value: Option<&Located<i64>>) -> Option<u8> {
    match value {
        None => Some(0),
        Some(value) => check_range(problems, value, "precedence", 0, 100).map(|n| n as u8),
    }
}

/// The tests an `option = { name = value }` table writes; `None` after reporting any that is
/// wrong.
pub(super) fn option_tests(
    problems: &mut Problems,
    raw: &[(Located<String>, Located<String>)],
) -> Option<Vec<OptionTest>> {
    let mut options = Some(Vec::new());
    for (name, value) in raw {
        match option_test(&name.value, &value.value) {
            Ok(test) => {
                if let Some(list) = options.as_mut() {
                    list.push(test);
                }
            }
            Err(message) => {
                let span = if OptionTest::NAMES.contains(&name.value.as_str()) {
                    value.span.clone()
                } else {
                    name.span.clone()
                };
                problems.report(Code::UnknownOption, span, message);
                options = None;
            }
        }
    }
    options
}

/// The option test `name = value` writes, or what is wrong with it.
fn option_test(name: &str, value: &str) -> Result<OptionTest, String> {
    let boolean = |make: fn(bool) -> OptionTest| match value {
        "true" => Ok(make(true)),
        "false" => Ok(make(false)),
        _ => Err(format!(
            "option `{name}` is true or false, not `{}`",
            super::validate::shorten(value)
        )),
    };
    match name {
        "tiny_city" => boolean(OptionTest::TinyCity),
        "farmers" => boolean(OptionTest::Farmers),
        "abbots" => boolean(OptionTest::Abbots),
        "inn_cathedral_unfinished" => match value {
            "zero" => Ok(OptionTest::InnCathedralUnfinished(UnfinishedMarks::Zero)),
            "normal" => Ok(OptionTest::InnCathedralUnfinished(UnfinishedMarks::Normal)),
            _ => Err(format!(
                "option `inn_cathedral_unfinished` is zero or normal, not `{}`",
                super::validate::shorten(value)
            )),
        },
        "farm_scoring" => match value {
            "per_field" => Ok(OptionTest::FarmScoring(FarmScoring::PerField)),
            "per_field_once" => Ok(OptionTest::FarmScoring(FarmScoring::PerFieldOnce)),
            "per_city_4" => Ok(OptionTest::FarmScoring(FarmScoring::PerCity4)),
            _ => Err(format!(
                "option `farm_scoring` is per_field, per_field_once or per_city_4, not `{}`",
                super::validate::shorten(value)
            )),
        },
        _ => Err(format!(
            "`{}` is not a game option a rule can test; expected one of {}",
            super::validate::shorten(name),
            OptionTest::NAMES.join(", ")
        )),
    }
}
