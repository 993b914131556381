//! Validating `[figures]` and `[[figure]]`: the figures a set brings and the colours it adds.

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::declare::named;
use super::diagnostic::{Code, Problems};
use super::limits;
use super::raw::{RawFigure, RawFigures};
use super::validate::{check_range, check_text, shorten};
use crate::catalog::Figures;
use crate::player::{Figure, MAX_FOLLOWER_KINDS};
use crate::rulebook::{Alone, Extended, FigureRole, FigureRule, Joins, KindSet, MAX_STRENGTH};
use crate::segment::SegmentKind;

/// The kinds a figure may be declared to stand on: every kind but the river.
const STANDABLE: [SegmentKind; 5] = [
    SegmentKind::City,
    SegmentKind::Road,
    SegmentKind::Field,
    SegmentKind::Monastery,
    SegmentKind::Garden,
];

/// The set's figures: `[[figure]]` declarations and the `followers` shorthand, and its
/// colours.
pub(crate) fn validate_figures(
    counts: &RawFigures,
    declared: &[RawFigure],
    problems: &mut Problems,
) -> Figures {
    let mut figures: Vec<FigureRule> = Vec::new();
    let mut seen: Vec<Figure> = Vec::new();
    for raw in declared {
        let Some(rule) = validate_figure(raw, problems) else { continue };
        if seen.contains(&rule.figure) {
            let span = raw.id.as_ref().map_or(raw.span.clone(), |id| id.span.clone());
            problems.report(
                Code::Duplicate,
                span,
                format!("figure `{}` is declared twice in this set", rule.figure.id()),
            );
            continue;
        }
        let of_role = figures.iter().filter(|known| known.is_follower() == rule.is_follower());
        if of_role.count() == MAX_FOLLOWER_KINDS {
            let role = if rule.is_follower() { "follower" } else { "companion" };
            problems.report(
                Code::OutOfRange,
                raw.span.clone(),
                format!("a set declares at most {MAX_FOLLOWER_KINDS} kinds of {role}"),
            );
            continue;
        }
        seen.push(rule.figure);
        figures.push(rule);
    }
    if let Some(followers) = &counts.followers
        && let Some(count) = check_range(problems, followers, "followers", 0, limits::MAX_FIGURES)
    {
        if seen.contains(&Figure::FOLLOWER) {
            problems.report(
                Code::Duplicate,
                followers.span.clone(),
                "`followers` and a `[[figure]]` with id `follower` both declare the follower; \
                 keep one"
                    .to_owned(),
            );
        } else if figures.iter().filter(|rule| rule.is_follower()).count() == MAX_FOLLOWER_KINDS {
            problems.report(
                Code::OutOfRange,
                followers.span.clone(),
                format!("a set declares at most {MAX_FOLLOWER_KINDS} kinds of follower"),
            );
        } else {
            figures.insert(0, plain_follower(count as u8));
        }
    }
    Figures { declared: figures, colours: validate_colours(counts, problems) }
}

/// What `followers = count` in `[figures]` declares: the plain follower, a thief, knight,
/// monk or farmer, of strength 1.
fn plain_follower(count: u8) -> FigureRule {
    FigureRule {
        figure: Figure::FOLLOWER,
        per_player: count,
        role: FigureRole::Follower { strength: 1, recall: false },
        stands_on: STANDABLE.into_iter().collect(),
        farmer: true,
        options: Vec::new(),
        draws: None,
    }
}

fn validate_figure(raw: &RawFigure, problems: &mut Problems) -> Option<FigureRule> {
    let figure = named(
        problems,
        raw.id.as_ref(),
        Figure::from_id,
        Code::UnknownValue,
        "a figure id",
        Figure::ID_RULE,
    );
    let per_player = raw
        .per_player
        .as_ref()
        .and_then(|count| check_range(problems, count, "per_player", 0, limits::MAX_FIGURES))
        .map(|count| count as u8);
    let stands_on = stands_on(raw, problems);
    let options = super::declare::option_tests(problems, &raw.options);
    let follower = named(
        problems,
        raw.role.as_ref(),
        |role| match role {
            "follower" => Some(true),
            "companion" => Some(false),
            _ => None,
        },
        Code::UnknownValue,
        "a role",
        "follower or companion",
    );
    // Every layer that names the published figures by constant (C's CARC_FIGURE_*, Python's
    // action slots, pictures) knows each in its published role, so their ids keep it; any
    // other id takes either.
    if let (Some(figure), Some(follower), Some(role)) = (figure, follower, raw.role.as_ref())
        && Figure::PUBLISHED.contains(&figure)
        && Figure::PUBLISHED_FOLLOWERS.contains(&figure) != follower
    {
        let expected = if follower { "companion" } else { "follower" };
        problems.report(
            Code::UnknownValue,
            role.span.clone(),
            format!(
                "the {figure} is a {expected} as its built-in set declares it: write \
                 `role = \"{expected}\"`, or give a figure of your own an id of its own"
            ),
        );
    }
    let role = match follower {
        Some(true) => follower_role(raw, stands_on, problems),
        Some(false) => companion_role(raw, stands_on, problems),
        None => None,
    };
    Some(FigureRule {
        figure: figure?,
        per_player: per_player?,
        role: role?,
        stands_on: stands_on?,
        farmer: raw.farmer.as_ref().is_some_and(|farmer| farmer.value),
        options: options?,
        draws: raw.draws.as_ref().map(|bag| bag.value.clone()),
    })
}

fn stands_on(raw: &RawFigure, problems: &mut Problems) -> Option<KindSet> {
    let list = raw.stands_on.as_ref()?;
    let mut kinds = KindSet::EMPTY;
    let mut ok = true;
    for name in &list.value {
        match SegmentKind::from_name(&name.value).filter(|kind| STANDABLE.contains(kind)) {
            Some(kind) if kinds.contains(kind) => {
                problems.report(
                    Code::Duplicate,
                    name.span.clone(),
                    format!("`{}` is listed twice in `stands_on`", name.value),
                );
                ok = false;
            }
            Some(kind) => kinds = kinds.with(kind),
            None => {
                problems.report(
                    Code::UnknownValue,
                    name.span.clone(),
                    format!(
                        "figures stand on cities, roads, fields, monasteries and gardens, not \
                         `{}`",
                        shorten(&name.value)
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
            "`stands_on` names at least one kind of segment".to_owned(),
        );
        ok = false;
    }
    ok.then_some(kinds)
}

/// Reports `key` as one only the other role takes.
fn not_for(problems: &mut Problems, span: &core::ops::Range<usize>, key: &str, role: &str) {
    problems.report(Code::KeyNotAllowed, span.clone(), format!("a {role} does not take `{key}`"));
}

fn follower_role(
    raw: &RawFigure,
    stands_on: Option<KindSet>,
    problems: &mut Problems,
) -> Option<FigureRole> {
    let mut ok = true;
    let companion_keys = [
        ("joins", raw.joins.as_ref().map(|v| &v.span)),
        ("alone", raw.alone.as_ref().map(|v| &v.span)),
        ("extended", raw.extended.as_ref().map(|v| &v.span)),
        ("farm_bonus", raw.farm_bonus.as_ref().map(|v| &v.span)),
        ("draws", raw.draws.as_ref().map(|v| &v.span)),
    ];
    for (key, span) in companion_keys {
        if let Some(span) = span {
            not_for(problems, span, key, "follower");
            ok = false;
        }
    }
    let strength = match &raw.strength {
        None => Some(1),
        Some(value) => check_range(problems, value, "strength", 1, i64::from(MAX_STRENGTH))
            .map(|strength| strength as u8),
    };
    let recall = raw.recall.as_ref().is_some_and(|recall| recall.value);
    if recall
        && let (Some(kinds), Some(flag)) = (stands_on, raw.recall.as_ref())
        && kinds.iter().any(|kind| !matches!(kind, SegmentKind::Monastery | SegmentKind::Garden))
    {
        problems.report(
            Code::KeyNotAllowed,
            flag.span.clone(),
            "a recalled follower scores its monastery or garden as at the end, so `recall` \
             needs `stands_on` to name only monastery and garden"
                .to_owned(),
        );
        ok = false;
    }
    let strength = strength?;
    ok.then_some(FigureRole::Follower { strength, recall })
}

fn companion_role(
    raw: &RawFigure,
    stands_on: Option<KindSet>,
    problems: &mut Problems,
) -> Option<FigureRole> {
    let mut ok = true;
    if let Some(strength) = &raw.strength {
        not_for(problems, &strength.span, "strength", "companion (it counts for no majority)");
        ok = false;
    }
    if let Some(recall) = &raw.recall {
        not_for(problems, &recall.span, "recall", "companion");
        ok = false;
    }
    let joins = raw.joins.as_ref().map_or(Some(Joins::Any), |joins| {
        named(
            problems,
            Some(joins),
            Joins::from_name,
            Code::UnknownValue,
            "a way to join a feature",
            "any or own_follower",
        )
    });
    let alone = raw.alone.as_ref().map_or(Some(Alone::Owner), |alone| {
        named(
            problems,
            Some(alone),
            Alone::from_name,
            Code::UnknownValue,
            "whose figures keep it out",
            "owner or all",
        )
    });
    let extended = raw.extended.as_ref().map_or(Some(None), |then| {
        named(
            problems,
            Some(then),
            Extended::from_name,
            Code::UnknownValue,
            "what an extended feature gives",
            "extra_turn or draw_or_cash",
        )
        .map(Some)
    });
    let farm_bonus = raw.farm_bonus.as_ref().is_some_and(|bonus| bonus.value);
    let fields_only =
        stands_on.is_some_and(|kinds| kinds == KindSet::EMPTY.with(SegmentKind::Field));
    let needs_fields = [
        (
            raw.farm_bonus.as_ref().filter(|bonus| bonus.value).map(|bonus| &bonus.span),
            "farm_bonus",
        ),
        (raw.draws.as_ref().map(|bag| &bag.span), "draws"),
    ];
    for (span, key) in needs_fields {
        if let Some(span) = span
            && stands_on.is_some()
            && !fields_only
        {
            problems.report(
                Code::KeyNotAllowed,
                span.clone(),
                format!("`{key}` belongs to a figure on fields: `stands_on` must be [\"field\"]"),
            );
            ok = false;
        }
    }
    // Drawing again or cashing in needs a bag to draw from.
    if let (Some(then), Some(Some(Extended::DrawOrCash)), None) =
        (&raw.extended, extended, &raw.draws)
    {
        problems.report(
            Code::MissingKey,
            then.span.clone(),
            "`extended = \"draw_or_cash\"` draws from a bag: name it with `draws`".to_owned(),
        );
        ok = false;
    }
    let role =
        FigureRole::Companion { joins: joins?, alone: alone?, extended: extended?, farm_bonus };
    ok.then_some(role)
}

fn validate_colours(raw: &RawFigures, problems: &mut Problems) -> Vec<String> {
    let mut colours: Vec<String> = Vec::new();
    let Some(list) = &raw.colours else { return colours };
    if list.value.len() > limits::MAX_COLOURS {
        problems.report(
            Code::TooLarge,
            list.span.clone(),
            format!("a set may bring at most {} colours", limits::MAX_COLOURS),
        );
    }
    for colour in &list.value {
        let Some(text) = check_text(problems, colour.clone(), "colour", limits::MAX_COLOUR) else {
            continue;
        };
        if crate::Colour::named(&text).is_none() {
            let known: Vec<&str> = crate::PALETTE.iter().map(|colour| colour.name()).collect();
            problems.report(
                Code::UnknownColour,
                colour.span.clone(),
                format!("`{text}` is not a colour; expected one of {}", known.join(", ")),
            );
        } else if colours.contains(&text) {
            problems.report(
                Code::Duplicate,
                colour.span.clone(),
                format!("colour `{text}` is listed twice"),
            );
        } else {
            colours.push(text);
        }
    }
    colours
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_followers_shorthand_declares_a_plain_follower() {
        let follower = plain_follower(7);
        assert!(follower.may_stand_on(SegmentKind::Field, true));
        assert!(!follower.may_stand_on(SegmentKind::Field, false));
        assert!(!follower.may_stand_on(SegmentKind::River, true));
        assert_eq!(follower.strength(), 1);
    }
}
