//! Validating `[[bag]]`: its kinds of token, what each does when drawn, and the figures that
//! draw from it.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::declare::{MAX_POINTS, named};
use super::diagnostic::{Code, Problems};
use super::limits;
use super::raw::{RawBag, RawFigure};
use super::validate::{check_id, check_range};
use crate::rulebook::{BagRule, BagToken, BagTokenRule, Drawn, Effect, MAX_BAG_TOKEN_KINDS, Rule};

/// The bag `raw` declares, or `None` after reporting every problem with it.
pub(super) fn validate_bag(raw: &RawBag, problems: &mut Problems) -> Option<Rule> {
    let id = raw.id.as_ref().and_then(|id| {
        check_id(problems, id.clone(), "rule id", limits::is_set_id_char, "a-z, 0-9 and _")
    });
    let points = match &raw.points {
        None => Some(1),
        Some(points) => {
            check_range(problems, points, "points", 1, MAX_POINTS).map(|points| points as u32)
        }
    };
    let mut ok = true;
    let span = raw.tokens_span.clone().unwrap_or_else(|| raw.span.clone());
    if raw.tokens_span.is_some()
        && (raw.tokens.is_empty() || raw.tokens.len() > MAX_BAG_TOKEN_KINDS)
    {
        problems.report(
            Code::OutOfRange,
            span.clone(),
            format!(
                "a bag holds 1 to {MAX_BAG_TOKEN_KINDS} kinds of token, not {}",
                raw.tokens.len()
            ),
        );
        ok = false;
    }
    let mut tokens: Vec<BagTokenRule> = Vec::new();
    for token in &raw.tokens {
        let Some(rule) = validate_token(token, problems) else {
            ok = false;
            continue;
        };
        // Two kinds that do the same are one kind counted twice: a client naming the draw
        // could not tell them apart by what they do.
        if let Some(twin) = tokens.iter().find(|known| {
            known.token == rule.token || (known.then, known.worth) == (rule.then, rule.worth)
        }) {
            let what = if twin.token == rule.token {
                format!("token `{}` is listed twice in this bag", rule.token.id())
            } else {
                format!(
                    "token `{}` does what `{}` does (`then = \"{}\"`, worth {}): count them as \
                     one kind",
                    rule.token.id(),
                    twin.token.id(),
                    rule.then.name(),
                    rule.worth
                )
            };
            problems.report(Code::Duplicate, token.span.clone(), what);
            ok = false;
            continue;
        }
        tokens.push(rule);
    }
    // Read from the file as written, so that a kept token with another problem still counts.
    let kept = raw.tokens.iter().any(|token| {
        token.then.as_ref().is_none_or(|then| then.value == Drawn::Keep.name())
            && token.count.as_ref().is_none_or(|count| count.value != 0)
    });
    if raw.tokens_span.is_some() && !raw.tokens.is_empty() && !kept {
        problems.report(
            Code::NeverApplies,
            span,
            "a bag needs at least one token that is kept (`then = \"keep\"`, the default), or \
             a figure drawing from it never has anything to cash in"
                .into(),
        );
        ok = false;
    }
    let bag = BagRule { tokens, points: points? };
    (ok).then_some(Rule { id: id?, effect: Effect::Bag(bag) })
}

fn validate_token(raw: &super::raw::RawBagToken, problems: &mut Problems) -> Option<BagTokenRule> {
    let token = named(
        problems,
        raw.id.as_ref(),
        BagToken::from_id,
        Code::InvalidId,
        "a token id",
        crate::Figure::ID_RULE,
    );
    let count = raw
        .count
        .as_ref()
        .and_then(|count| check_range(problems, count, "count", 0, limits::MAX_BAG_TOKENS))
        .map(|count| count as u8);
    let then = raw.then.as_ref().map_or(Some(Drawn::Keep), |then| {
        named(
            problems,
            Some(then),
            Drawn::from_name,
            Code::UnknownValue,
            "what a drawn token does",
            "keep or send_home",
        )
    });
    let worth = match (&raw.worth, then) {
        (Some(worth), Some(Drawn::SendHome)) => {
            problems.report(
                Code::KeyNotAllowed,
                worth.span.clone(),
                "a token that sends its figure home is never kept, so it has no `worth`".into(),
            );
            None
        }
        (Some(worth), _) => check_range(problems, worth, "worth", 1, limits::MAX_TOKEN_WORTH)
            .map(|worth| worth as u8),
        (None, Some(Drawn::Keep)) => {
            problems.report(
                Code::MissingKey,
                raw.span.clone(),
                "a kept token has no `worth`: what it counts when cashed in".into(),
            );
            None
        }
        (None, _) => Some(0),
    };
    Some(BagTokenRule { token: token?, count: count?, worth: worth?, then: then? })
}

/// Reports each figure whose `draws` names no bag of this set.
pub(super) fn check_draws(figures: &[RawFigure], bags: &[String], problems: &mut Problems) {
    for figure in figures {
        let Some(draws) = &figure.draws else { continue };
        if !bags.contains(&draws.value) {
            let known = if bags.is_empty() { "none".into() } else { bags.join(", ") };
            problems.report(
                Code::UnknownValue,
                draws.span.clone(),
                format!(
                    "`draws` names bag `{}`, which this set does not declare (its bags: {known})",
                    super::validate::shorten(&draws.value)
                ),
            );
        }
    }
}
