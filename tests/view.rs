//! The player's view shows everything on the table and nothing of the bag's order.

use carcassonne::{Catalog, Game, GameSetup, PlayerView};

fn random_game_views(sets: &[&str], seed: u64) -> Vec<(Game, PlayerView)> {
    let catalogs = sets.iter().map(|name| Catalog::builtin(name).unwrap()).collect();
    let mut setup = GameSetup::new(catalogs, 3);
    setup.seed = seed;
    setup.options.abbots = true;
    let mut game = Game::new(setup).unwrap();
    let mut seen = Vec::new();
    let mut step = 0u64;
    while !game.is_over() {
        seen.push((game.clone(), game.view()));
        let count = game.legal_action_count() as u64;
        step = step.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let action = game.legal_action(((step >> 33) % count) as usize).unwrap();
        game.apply(action).unwrap();
    }
    seen.push((game.clone(), game.view()));
    seen
}

#[test]
fn games_that_differ_only_in_the_bag_order_look_the_same() {
    for sets in [&["base"][..], &["base", "river", "inns_and_cathedrals"], &["base_c2"]] {
        for (game, view) in random_game_views(sets, 5) {
            for seed in [1, 2, 3] {
                let other = game.reshuffled(seed);
                assert_eq!(other.view(), view, "a reshuffled copy looks the same");
            }
        }
    }
}

#[test]
fn the_view_shows_what_is_on_the_table() {
    let views = random_game_views(&["base", "inns_and_cathedrals"], 9);
    let (game, view) = views.last().unwrap();
    assert_eq!(view.tiles.len(), game.placements().len());
    assert_eq!(view.figures.len(), game.figures().len());
    assert_eq!(view.scores, game.scores());
    assert_eq!(view.tiles_left, 0);
    assert_eq!(view.sets, ["base", "inns_and_cathedrals"]);
    let json = serde_json::to_string(view).unwrap();
    assert!(!json.contains("seed"), "the view never carries the seed: {json}");
    for (before, after) in views.iter().zip(&views[1..]) {
        assert!(after.1.tiles.len() >= before.1.tiles.len(), "tiles are never taken away");
    }
}
