//! Every bot only ever chooses legal actions, from random reachable states of every set
//! combination and rule option, for 2 to 6 players, early, midway and in the last tiles
//! (where the search solves the endgame exactly).

#[path = "../../tests/common/combinations.rs"]
mod combinations;
mod common;
#[path = "../../tests/common/giant.rs"]
mod giant;

use carcassonne::{
    Action, Catalog, FarmScoring, Game, GameSetup, Phase, RuleOptions, UnfinishedMarks,
};
use carcassonne_bots::{BotKind, MctsConfig, Playout, Profile, Widening};
use combinations::COMBINATIONS;
use proptest::prelude::*;

/// The built-in profiles with test-sized budgets, and searches of every shape: chance nodes
/// and determinized trees, each playout, widening, several trees, the exact endgame.
fn contestants() -> Vec<Profile> {
    let mut profiles = common::builtin_profiles_cut_to(60);
    let shapes = [
        MctsConfig::default()
            .with_iterations(40)
            .with_playout(Playout::Random)
            .with_exact_tiles(3)
            .with_exact_nodes(20_000),
        MctsConfig::default()
            .with_iterations(40)
            .with_trees(3)
            .with_determinized(true)
            .with_playout(Playout::Truncated { turns: 2 })
            .with_widening(Some(Widening::new(1.0, 0.5)))
            .with_ordered_levels(u32::MAX),
    ];
    for (index, config) in shapes.into_iter().enumerate() {
        profiles.push(Profile {
            name: format!("shape{index}"),
            description: String::new(),
            kind: BotKind::Mcts(config),
        });
    }
    profiles
}

fn setup_strategy() -> impl Strategy<Value = GameSetup> {
    let farm = prop::sample::select(vec![
        FarmScoring::PerField,
        FarmScoring::PerFieldOnce,
        FarmScoring::PerCity4,
    ]);
    let unfinished = prop::sample::select(vec![UnfinishedMarks::Zero, UnfinishedMarks::Normal]);
    (
        prop::sample::select(COMBINATIONS.to_vec()),
        2u8..=6,
        any::<u64>(),
        (any::<bool>(), farm, any::<bool>(), unfinished, any::<bool>()),
    )
        .prop_map(
            |(
                sets,
                players,
                seed,
                (farmers, farm_scoring, tiny_city, inn_cathedral_unfinished, abbots),
            )| {
                let catalogs: Vec<Catalog> =
                    sets.iter().map(|set| Catalog::builtin(set).unwrap()).collect();
                let colours = if sets.contains(&"inns_and_cathedrals") { 6 } else { 5 };
                let options = RuleOptions::default()
                    .with_farmers(farmers)
                    .with_farm_scoring(farm_scoring)
                    .with_tiny_city(tiny_city)
                    .with_inn_cathedral_unfinished(inn_cathedral_unfinished)
                    .with_abbots(abbots);
                GameSetup::new(catalogs, players.min(colours)).with_seed(seed).with_options(options)
            },
        )
}

/// Plays `game` on at random, with figures often, until `left` tiles are in the bag or fewer.
fn advance(game: &mut Game, left: u32, mut choice: u64) {
    let mut actions = Vec::new();
    while !game.is_over() && game.tiles_left() > left {
        game.legal_actions_into(&mut actions);
        choice =
            choice.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let action = actions[(choice >> 33) as usize % actions.len()];
        game.apply(action).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Whatever the sets, options and history, a bot's answer is one the game accepts.
    #[test]
    fn bots_choose_only_legal_actions(setup in setup_strategy(), choices in any::<u64>(), depth in 0.0f64..1.0) {
        let total: u32 = setup.catalogs.iter().map(|c| c.tile_count() as u32).sum();
        let contestants = contestants();
        for left in [(f64::from(total) * (1.0 - depth)) as u32, 3, 1] {
            let mut game = Game::new(setup.clone()).unwrap();
            advance(&mut game, left, choices);
            // Ask at each decision of the next whole turn: the draw, the placement, the figure.
            for _ in 0..3 {
                if game.is_over() {
                    break;
                }
                let seat = game.current_player();
                let mut answer = None;
                for profile in &contestants {
                    let action = profile.bot(choices).choose(&game, seat).unwrap();
                    prop_assert_eq!(game.check(action), Ok(()), "{} chose {:?}", profile.name, action);
                    if game.phase() == Phase::Draw {
                        prop_assert_eq!(action, Action::Draw);
                    }
                    answer.get_or_insert(action);
                }
                game.apply(answer.unwrap()).unwrap();
            }
        }
    }
}

/// Every bot plays a whole game with an author's figure, answering only what the game
/// accepts, and the giant is deployed: the bots know figures by their declarations.
#[test]
fn bots_play_an_authors_figure() {
    let giant = giant::giant();
    for profile in contestants() {
        let mut game =
            Game::new(GameSetup::new(vec![giant::with_giant()], 2).with_seed(9)).unwrap();
        let bots = [profile.bot(1), profile.bot(2)];
        let mut giants = 0;
        while !game.is_over() {
            let seat = game.current_player();
            let action = bots[seat.index()].choose(&game, seat).unwrap();
            assert_eq!(game.check(action), Ok(()), "{} chose {action:?}", profile.name);
            giants +=
                usize::from(matches!(action, Action::Deploy { figure, .. } if figure == giant));
            game.apply(action).unwrap();
        }
        assert!(giants > 0, "{} never deployed a giant", profile.name);
    }
}
