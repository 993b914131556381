//! External bots through the protocol: a correct one plays as it says; each way of failing
//! loses the move to a random legal one, is counted, and never stalls the game.
#![cfg(unix)]

use std::time::{Duration, Instant};

use carcassonne::{Catalog, Game, GameSetup, PlayerId};
use carcassonne_bots::arena::{self, ArenaConfig};
use carcassonne_bots::{Bot, BotKind, ExternalBot, ExternalConfig, Profile, RandomBot};

fn script(name: &str) -> String {
    format!("{}/tests/external/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn config(command: &[&str], move_ms: u64) -> ExternalConfig {
    let mut config = ExternalConfig::from_command_line("sh").unwrap();
    config.command = command.iter().map(|word| (*word).to_owned()).collect();
    config.move_ms = move_ms;
    config.start_ms = 2_000;
    config.show_stderr = false;
    config
}

fn faulty(fault: &str, move_ms: u64) -> ExternalConfig {
    config(&["sh", &script("faulty.sh"), fault], move_ms)
}

fn base_game(seed: u64) -> Game {
    let mut setup = GameSetup::new(vec![Catalog::builtin("base").unwrap()], 2);
    setup.seed = seed;
    Game::new(setup).unwrap()
}

/// Plays a whole game, `bot` in seat 0 against the random bot; the decisions `bot` made.
fn play(bot: &dyn Bot, seed: u64) -> (Game, Vec<(Game, carcassonne::Action)>) {
    let mut game = base_game(seed);
    let other = RandomBot::new("random", 5, 0.5);
    let mut decisions = Vec::new();
    while !game.is_over() {
        let seat = game.current_player();
        let action = if seat == PlayerId(0) {
            let action = bot.choose(&game, seat).unwrap();
            if !game.phase().is_chance() {
                decisions.push((game.clone(), action));
            }
            action
        } else {
            other.choose(&game, seat).unwrap()
        };
        game.apply(action).unwrap();
    }
    (game, decisions)
}

/// A bot that speaks the protocol plays exactly what it answers (here the first legal action
/// every time), starts once, and loses no move.
#[test]
fn a_correct_bot_plays_its_answers() {
    let bot = ExternalBot::new("first", 1, config(&["sh", &script("first_legal.sh")], 5_000));
    let (game, decisions) = play(&bot, 3);
    assert!(game.is_over());
    assert!(decisions.len() > 40, "{} decisions", decisions.len());
    for (before, action) in &decisions {
        assert_eq!(*action, before.legal_actions()[0]);
    }
    assert_eq!(bot.faults().total(), 0, "{:?}", bot.faults());
    assert_eq!(bot.calls_itself().as_deref(), Some("first legal"));
}

/// Each way of failing: the game goes on to its end within bounded time, every lost move is
/// the random bot's choice with the same seed, and the faults are counted by cause with the
/// first described. A bot that keeps failing is started `starts` times and then no more.
#[test]
fn every_fault_loses_the_move_and_is_counted() {
    let fallback = RandomBot::new("x", 9, 0.5);
    let cases: [(&str, u64, &str); 7] = [
        ("sleep", 150, "no answer within 150 ms"),
        ("exit", 5_000, "exit status: 3"),
        ("garbage", 5_000, "`I think I will play the city`"),
        ("flood", 5_000, "a line longer than 64 KiB"),
        ("illegal", 5_000, "index 100000 of a list of"),
        ("nowhere", 5_000, "(40, 40)"),
        ("mute", 5_000, "no `ready` within 300 ms"),
    ];
    for (fault, move_ms, described) in cases {
        let mut config = faulty(fault, move_ms);
        config.starts = 2;
        if fault == "mute" {
            config.start_ms = 300;
        }
        let bot = ExternalBot::new("x", 9, config);
        let started = Instant::now();
        let (game, decisions) = play(&bot, 4);
        let took = started.elapsed();
        assert!(game.is_over());
        for (before, action) in &decisions {
            assert_eq!(*action, fallback.choose(before, PlayerId(0)).unwrap(), "{fault}");
        }
        let faults = bot.faults();
        assert_eq!(faults.total() as usize, decisions.len(), "{fault}: {faults:?}");
        let first = faults.first.clone().unwrap();
        assert!(first.contains(described), "{fault}: {first}");
        let (cause, count) = match fault {
            "sleep" => ("slow", faults.slow),
            "mute" => ("slow", faults.slow),
            "exit" => ("exited", faults.exited),
            "garbage" | "flood" => ("garbage", faults.garbage),
            _ => ("illegal", faults.illegal),
        };
        assert!(first.starts_with(cause), "{fault}: {first}");
        if cause == "illegal" {
            // An illegal answer is still the protocol: the bot keeps running and is asked again.
            assert_eq!(count as usize, decisions.len(), "{fault}: {faults:?}");
        } else {
            // Two starts, each failing once; then the moves are the random bot's, unasked.
            assert_eq!(count, 2, "{fault}: {faults:?}");
            assert_eq!(faults.abandoned as usize, decisions.len() - 2, "{fault}: {faults:?}");
        }
        // Bounded: two waits at most, and the rest of the game at full speed.
        assert!(took < Duration::from_secs(15), "{fault}: {took:?}");
    }
}

/// A program that does not exist, or that exits at once, loses every move: `exited` at each of
/// its starts, then `abandoned`.
#[test]
fn a_bot_that_cannot_start_is_reported() {
    let bot = ExternalBot::new("ghost", 2, config(&["/nonexistent/carcassonne-bot"], 1_000));
    let (_, decisions) = play(&bot, 5);
    let faults = bot.faults();
    assert_eq!((faults.exited, faults.abandoned as usize), (4, decisions.len() - 4));
    let first = faults.first.unwrap();
    assert!(first.contains("cannot start `/nonexistent/carcassonne-bot`"), "{first}");

    let bot = ExternalBot::new("quitter", 2, config(&["true"], 1_000));
    let (_, decisions) = play(&bot, 5);
    assert_eq!(bot.faults().exited + bot.faults().abandoned, decisions.len() as u32);
}

/// Dropping a bot that ignores the end of its stdin stops it (and what it started) quickly.
#[test]
fn a_bot_is_stopped_when_dropped() {
    let bot = ExternalBot::new("x", 1, faulty("sleep", 100));
    let game = base_game(1);
    let mut game = game;
    game.apply(carcassonne::Action::Draw).unwrap();
    bot.choose(&game, PlayerId(0)).unwrap();
    let started = Instant::now();
    drop(bot);
    assert!(started.elapsed() < Duration::from_secs(3));
}

/// The arena plays external bots by profile and reports their faults per entrant.
#[test]
fn the_arena_reports_faults() {
    let entrants = [
        Profile {
            name: "chatty".into(),
            description: String::new(),
            kind: BotKind::External(faulty("garbage", 2_000)),
        },
        Profile {
            name: "first".into(),
            description: String::new(),
            kind: BotKind::External(config(&["sh", &script("first_legal.sh")], 2_000)),
        },
    ];
    let config = ArenaConfig::new(GameSetup::new(vec![Catalog::builtin("base").unwrap()], 2))
        .with_games(4)
        .with_seed(1)
        .with_threads(2);
    let report = arena::run(&entrants, &config, &|_| {}).unwrap();
    assert_eq!(report.games, 4);
    let (chatty, first) = (&report.entrants[0], &report.entrants[1]);
    assert!(chatty.faults.garbage >= 4 * 2, "{:?}", chatty.faults);
    assert!(chatty.faults.first.as_deref().unwrap().starts_with("garbage"));
    assert_eq!(first.faults.total(), 0);
    let json = serde_json::to_value(&report).unwrap();
    assert!(json["entrants"][0]["faults"]["garbage"].as_u64().unwrap() >= 8);
}

/// A turn played through `for_turn` ends within its budget, start-up included, however the
/// bot fails: the program is started once a turn at most, and an action asked for after the
/// budget is the random bot's without asking. Before, a silent bot's turn on the server took
/// 20.1 s with a 1 s limit: each of its two actions started the program again and waited for
/// its start-up as long again.
#[test]
fn a_turn_keeps_to_its_budget_in_all() {
    for fault in ["mute", "sleep", "exit"] {
        let mut config = faulty(fault, 1_000);
        config.start_ms = 10_000;
        let bot = ExternalBot::new("x", 1, config);
        let mut game = to_a_decision(base_game(7));
        let seat = game.current_player();
        let started = Instant::now();
        let turn = bot.for_turn(Duration::from_millis(700));
        let mut actions = 0;
        while !game.is_over() && game.current_player() == seat && !game.phase().is_chance() {
            let action = turn.choose(&game, seat).unwrap();
            game.apply(action).unwrap();
            actions += 1;
        }
        let took = started.elapsed();
        assert!(actions >= 2, "{fault}: a placement and a figure step: {actions}");
        assert!(took < Duration::from_millis(1_500), "{fault}: the turn took {took:?}");
        let faults = bot.faults();
        assert_eq!(faults.total(), actions, "{fault}: every action was lost: {faults:?}");
    }
}

/// A bot that writes without end between its moves costs this process a bounded queue, not
/// everything it wrote: reading stops at 16 lines or 256 KiB unread, and its next move is
/// lost as garbage (the program is then stopped). Before, 2 MB of `x` lines between moves
/// were all queued (the server grew from 10 to 71 MB).
#[test]
fn a_flood_between_moves_is_a_fault_of_the_bot() {
    let bot = ExternalBot::new("x", 1, faulty("chatter", 2_000));
    let mut game = to_a_decision(base_game(3));
    let seat = game.current_player();
    let first = bot.choose(&game, seat).unwrap();
    assert_eq!(bot.faults().total(), 0, "the first move is answered: {:?}", bot.faults());
    game.apply(first).unwrap();
    assert!(game.current_player() == seat && !game.phase().is_chance(), "its figure step");
    std::thread::sleep(Duration::from_millis(500));
    let _ = bot.choose(&game, seat).unwrap();
    let faults = bot.faults();
    assert_eq!(faults.garbage, 1, "{faults:?}");
    assert!(faults.first.as_deref().is_some_and(|first| first.contains("flood")), "{faults:?}");
}

/// `game` after its draws, at a player's decision.
fn to_a_decision(mut game: Game) -> Game {
    while game.phase().is_chance() {
        game.apply(carcassonne::Action::Draw).unwrap();
    }
    game
}
