//! Any bytes as a tile-set file.

use std::sync::Arc;

use carcassonne::Catalog;
use carcassonne::dsl::MAX_DIAGNOSTICS;
use carcassonne::limits::{MAX_LABEL, MAX_MESSAGE};

/// A tile-set file gives a catalog that writes back to an equal one, or diagnostics that
/// point into the text, at most [`MAX_DIAGNOSTICS`] and one, each message at most
/// [`MAX_MESSAGE`] characters, all sharing one file label cut to [`MAX_LABEL`]; never a panic
/// or a hang. The file is named with a label longer than that, so the cut runs every time.
///
/// # Panics
/// When the library breaks that promise.
pub fn diagnosed(data: &[u8]) {
    let Some(text) = crate::text(data) else { return };
    let label = format!("{}.toml", "fuzz".repeat(MAX_LABEL));
    match Catalog::from_toml(&label, text) {
        Ok(catalog) => {
            let again =
                Catalog::from_toml("again.toml", &catalog.to_toml()).unwrap_or_else(|problems| {
                    panic!("a loaded catalog wrote an invalid file:\n{problems}")
                });
            assert_eq!(again, catalog, "a catalog changed on its way through TOML");
        }
        Err(diagnostics) => {
            assert!(!diagnostics.is_empty(), "a refusal without a diagnostic");
            assert!(diagnostics.len() <= MAX_DIAGNOSTICS + 1, "{} diagnostics", diagnostics.len());
            let file = &diagnostics.0[0].file;
            assert_eq!(file.chars().count(), MAX_LABEL, "the label is cut to its limit");
            for diagnostic in &diagnostics {
                assert!(diagnostic.line >= 1 && diagnostic.column >= 1, "{diagnostic:?}");
                assert!(diagnostic.span.start <= diagnostic.span.end, "{diagnostic:?}");
                assert!(diagnostic.span.end <= text.len(), "{diagnostic:?} past the end");
                assert!(!diagnostic.to_string().is_empty());
                assert!(Arc::ptr_eq(&diagnostic.file, file), "diagnostics copy the file label");
                let chars = diagnostic.message.chars().count();
                assert!(chars <= MAX_MESSAGE, "a message of {chars} characters");
            }
        }
    }
}

/// A tile-set file that loads plays: alone, or beside the base set when it brings no start
/// tile or followers, a game with whatever marks and rules it declares runs to its end with
/// every action the engine offers accepted and counted as listed, every score naming a
/// declared mark and rule, a defeated rival scoring nothing, the
/// tokens held being those the events gave, each majority paid to the players holding the
/// most, and the points of the score and majority events adding up to the scores; never a
/// panic, and a bounded number of actions.
///
/// # Panics
/// When the library breaks that promise.
pub fn plays(data: &[u8]) {
    let Some(text) = crate::text(data) else { return };
    let Ok(catalog) = Catalog::from_toml("fuzz.toml", text) else { return };
    let alone = carcassonne::GameSetup::new(vec![catalog.clone()], 2);
    let game = carcassonne::Game::new(alone).or_else(|_| {
        let base = Catalog::builtin("base").expect("the base set is built in");
        carcassonne::Game::new(carcassonne::GameSetup::new(vec![base, catalog], 2))
    });
    let Ok(mut game) = game else { return };
    // The bytes choose the actions, so that the fuzzer steers the game too.
    let mut choices = data.iter().rev().cycle();
    let mut points = vec![0u64; usize::from(game.players())];
    let mut taken = vec![[0u64; carcassonne::MAX_TOKENS]; usize::from(game.players())];
    // A tile takes a draw, a placement and a figure step; each figure that draws from a bag
    // adds at most a choice and a draw from the bag when the tile extends its field, or one
    // draw when it is deployed.
    let kinds: Vec<carcassonne::Figure> = game.figure_kinds().collect();
    let flock_figures: usize = kinds
        .into_iter()
        .filter_map(|figure| game.figure_rule(figure))
        .filter(|rule| rule.draws.is_some())
        .map(|rule| usize::from(rule.per_player))
        .sum();
    let per_tile = 3 + 2 * flock_figures + usize::from(flock_figures > 0);
    let limit = per_tile * game.tiles_left() as usize + 3;
    let mut steps = 0;
    while !game.is_over() {
        steps += 1;
        assert!(steps <= limit, "a game takes at most {per_tile} actions a tile");
        if matches!(game.phase(), carcassonne::Phase::Place { .. }) {
            // Placements a declared rule (the river's, a rivalry's) refuses are left out of
            // the count as of the list.
            assert_eq!(game.legal_actions().len(), game.legal_action_count());
        }
        let pick = usize::from(*choices.next().unwrap_or(&0)) % game.legal_action_count();
        let action = game.legal_action(pick).expect("a listed action");
        for event in game.apply(action).expect("a legal action is accepted") {
            match event {
                carcassonne::Event::FeatureScored(score) => {
                    if score.reason == carcassonne::ScoreReason::Defeated {
                        assert!(score.points == 0 && !score.complete, "a defeat scores nothing");
                    }
                    assert!(score.rule.is_none_or(|rule| rule.index() < game.rules().len()));
                    assert!(score.marks.iter().all(|(mark, _)| mark.index() < game.marks().len()));
                    for player in score.scorers.iter() {
                        points[player.index()] += u64::from(score.points);
                    }
                }
                carcassonne::Event::TokensTaken { player, token, count, .. } => {
                    assert!(token.index() < game.tokens().len() && count > 0);
                    taken[player.index()][token.index()] += u64::from(count);
                }
                carcassonne::Event::TokensScored { token, held, points: each, scorers } => {
                    // The most held of the kind, to every player holding that many.
                    let most = taken.iter().map(|row| row[token.index()]).max().unwrap_or(0);
                    assert_eq!(u64::from(held), most);
                    for (player, row) in taken.iter().enumerate() {
                        let scores = scorers.contains(carcassonne::PlayerId(player as u8));
                        assert_eq!(scores, row[token.index()] == most, "the majority's holders");
                        if scores {
                            points[player] += u64::from(each);
                        }
                    }
                }
                carcassonne::Event::TitleScored { title, player, points: each, .. } => {
                    let standing = game.title_standing(title).expect("a declared title");
                    assert_eq!(standing.holder, Some(player), "the holder scores the title");
                    points[player.index()] += u64::from(each);
                }
                _ => {}
            }
        }
    }
    let scores: Vec<u64> = game.scores().iter().map(|score| u64::from(*score)).collect();
    assert_eq!(points, scores, "the score, majority and title events add up to the scores");
    for (player, row) in taken.iter().enumerate() {
        let held = game.tokens_held(carcassonne::PlayerId(player as u8));
        assert!(held.iter().zip(row).all(|(held, taken)| u64::from(*held) == *taken));
    }
}
