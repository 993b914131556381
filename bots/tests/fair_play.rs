//! A bot sees only what a player sees, and the same seed gives the same choices.

use carcassonne::{Action, Catalog, Game, GameSetup, Phase};
mod common;

use carcassonne_bots::{Bot, MctsBot, MctsConfig, Playout, Profile};

fn test_profiles() -> Vec<Profile> {
    let mut profiles = common::builtin_profiles_cut_to(200);
    // A greedy bot on the learned weights, and a bot in another language that sees only the
    // protocol's lines.
    profiles.push(Profile {
        name: "greedy-learned".into(),
        description: String::new(),
        kind: carcassonne_bots::BotKind::Greedy {
            evaluator: carcassonne_bots::EvaluatorWeights::default()
                .with_learned(Some(carcassonne_bots::LearnedWeights::builtin())),
            noise: 0.0,
        },
    });
    if cfg!(unix) {
        let script = format!("{}/tests/external/first_legal.sh", env!("CARGO_MANIFEST_DIR"));
        let mut config = carcassonne_bots::ExternalConfig::from_command_line("sh").unwrap();
        config.command.push(script);
        profiles.push(Profile::external("first-legal", config).unwrap());
    }
    profiles
}

/// Three games with the same public history and different hidden orders: the original, the
/// same actions replayed under another seed (its draws named), and a reshuffled copy.
fn twins(setup: GameSetup, turns: usize) -> Vec<Game> {
    let mut game = Game::new(setup.clone()).unwrap();
    let mut actions = Vec::new();
    let mut played = 0;
    while !game.is_over() && played < turns * 3 {
        game.legal_actions_into(&mut actions);
        // Deterministic, figure-rich play: the last placement, the first figure action.
        let action = match game.phase() {
            Phase::Place { .. } => *actions.last().unwrap(),
            _ => actions[0],
        };
        game.apply(action).unwrap();
        played += 1;
    }
    let named = game.reshuffled(game.seed());
    let mut other = setup;
    other.seed = game.seed() ^ 0xDEAD_BEEF;
    let replayed = Game::replay(other, named.actions()).unwrap();
    let reshuffled = game.reshuffled(12345);
    vec![game, replayed, reshuffled]
}

/// The control: a bot that draws from a copy without reshuffling it, and so knows the next
/// tile. If the twins did not differ in their hidden order, the no-peek test below would
/// pass for this cheat too and prove nothing.
struct Peeker;

impl Bot for Peeker {
    fn choose(
        &self,
        game: &Game,
        _: carcassonne::PlayerId,
    ) -> Result<Action, carcassonne_bots::BotError> {
        let legal = game.legal_actions();
        let mut future = game.clone();
        while future.phase() != Phase::Draw && !future.is_over() {
            let first = future.legal_actions()[0];
            future.apply(first).unwrap();
        }
        let next = if future.is_over() {
            0
        } else {
            future.apply(Action::Draw).unwrap();
            future.drawn_tile().map_or(0, usize::from)
        };
        Ok(legal[next % legal.len()])
    }

    fn name(&self) -> &str {
        "peeker"
    }
}

fn setups() -> Vec<GameSetup> {
    let sets =
        |names: &[&str]| names.iter().map(|n| Catalog::builtin(n).unwrap()).collect::<Vec<_>>();
    let mut all = GameSetup::new(sets(&["base", "river", "inns_and_cathedrals"]), 4);
    all.options.abbots = true;
    vec![GameSetup::new(sets(&["base"]), 2), all, GameSetup::new(sets(&["base_c2"]), 3)]
}

#[test]
fn bots_choose_alike_whatever_the_hidden_order() {
    let mut peeker_differed = false;
    for setup in setups() {
        for turns in [3, 9, 20] {
            let twins = twins(setup.clone(), turns);
            // At the place phase: draw the same named tile in all three.
            let mut positions = twins.clone();
            if positions[0].phase() == Phase::Draw {
                let mut drawn = positions[0].clone();
                drawn.apply(Action::Draw).unwrap();
                let tile = drawn.drawn_tile();
                for game in &mut positions {
                    match tile {
                        Some(tile) => game.apply(Action::DrawTile { tile }).unwrap(),
                        None => continue,
                    };
                }
            }
            assert!(positions.windows(2).all(|pair| pair[0].remaining() == pair[1].remaining()));
            for profile in test_profiles() {
                let bot = profile.bot(77);
                let seat = positions[0].current_player();
                let choices: Vec<Action> =
                    positions.iter().map(|game| bot.choose(game, seat).unwrap()).collect();
                assert!(
                    choices.windows(2).all(|pair| pair[0] == pair[1]),
                    "{} chose {choices:?} in games that differ only in their hidden order",
                    profile.name
                );
            }
            let peeks: Vec<Action> = positions
                .iter()
                .map(|game| Peeker.choose(game, game.current_player()).unwrap())
                .collect();
            peeker_differed |= peeks.windows(2).any(|pair| pair[0] != pair[1]);
        }
    }
    assert!(peeker_differed, "the twins never differed in their hidden order");
}

#[test]
fn the_same_seed_gives_the_same_choice_and_threads_do_not_matter() {
    let setup = setups().remove(1);
    let mut game = twins(setup, 12).remove(0);
    if game.phase() == Phase::Draw {
        game.apply(Action::Draw).unwrap();
    }
    for profile in test_profiles() {
        let first = profile.bot(5).choose(&game, game.current_player()).unwrap();
        let again = profile.bot(5).choose(&game, game.current_player()).unwrap();
        assert_eq!(first, again, "{}", profile.name);
    }
    let config = MctsConfig::default()
        .with_iterations(600)
        .with_trees(3)
        .with_figure_share(0.0)
        .with_playout(Playout::Random);
    let one = MctsBot::new("one", 9, config).search(&game).unwrap();
    let two = MctsBot::new("two", 9, config.with_threads(2)).search(&game).unwrap();
    assert_eq!(one.choices, two.choices);
    assert_eq!(one.iterations, 600);
    assert!(one.choices.iter().map(|choice| u64::from(choice.visits)).sum::<u64>() == 600);
    let other = MctsBot::new("other", 10, config).search(&game).unwrap();
    assert_ne!(one.choices, other.choices, "another seed explores differently");
}

/// The control for the flock's bag: a bot that grows its flock only when a copy of the game,
/// not reshuffled, shows that the next token is no wolf.
struct SheepPeeker;

impl Bot for SheepPeeker {
    fn choose(
        &self,
        game: &Game,
        _: carcassonne::PlayerId,
    ) -> Result<Action, carcassonne_bots::BotError> {
        let mut future = game.clone();
        if future.apply(Action::GrowFlock).is_err() {
            return Ok(Action::DriveFlock);
        }
        let events = future.apply(Action::Draw).unwrap();
        let wolf =
            events.iter().any(|event| matches!(event, carcassonne::Event::FigureReturned { .. }));
        Ok(if wolf { Action::DriveFlock } else { Action::GrowFlock })
    }

    fn name(&self) -> &str {
        "sheep peeker"
    }
}

/// Hills & Sheep: the flock's bag is counts only to a bot. At each flock choice met in games
/// played on from the start, three twins that differ only in their hidden order (the tiles'
/// and the sheep tokens') get the same choice from every bot, while the peeking control's
/// choice differs in some of them.
#[test]
fn bots_choose_alike_whatever_the_sheep_to_come() {
    let sets = ["base", "hills_and_sheep"].map(|name| Catalog::builtin(name).unwrap());
    let (mut choices, mut peeker_differed) = (0, false);
    for seed in 0..40u64 {
        let mut setup = GameSetup::new(sets.to_vec(), 2);
        setup.seed = seed;
        let mut game = Game::new(setup.clone()).unwrap();
        let mut actions = Vec::new();
        // Shepherds wherever they may go, else the first figure action; the last placement.
        while !game.is_over() && !matches!(game.phase(), Phase::Flock { .. }) {
            game.legal_actions_into(&mut actions);
            let shepherd = actions.iter().find(|action| {
                matches!(action, Action::Deploy { figure: carcassonne::Figure::SHEPHERD, .. })
            });
            let action = match game.phase() {
                Phase::Place { .. } => *actions.last().unwrap(),
                _ => *shepherd.unwrap_or(&actions[0]),
            };
            game.apply(action).unwrap();
        }
        if game.is_over() {
            continue;
        }
        let named = game.reshuffled(game.seed());
        let mut other = setup;
        other.seed = game.seed() ^ 0xDEAD_BEEF;
        let twins =
            [game.clone(), Game::replay(other, named.actions()).unwrap(), game.reshuffled(99)];
        assert!(twins.windows(2).all(|pair| pair[0].view() == pair[1].view()));
        for profile in test_profiles() {
            let bot = profile.bot(77);
            let seat = game.current_player();
            let chosen: Vec<Action> =
                twins.iter().map(|twin| bot.choose(twin, seat).unwrap()).collect();
            assert!(
                chosen.windows(2).all(|pair| pair[0] == pair[1]),
                "{} chose {chosen:?} at a flock choice in games that differ only in their hidden order",
                profile.name
            );
        }
        let peeks: Vec<Action> = twins
            .iter()
            .map(|twin| SheepPeeker.choose(twin, twin.current_player()).unwrap())
            .collect();
        peeker_differed |= peeks.windows(2).any(|pair| pair[0] != pair[1]);
        choices += 1;
    }
    assert!(choices >= 5, "only {choices} flock choices met");
    assert!(peeker_differed, "the twins never differed in the sheep to come");
}
