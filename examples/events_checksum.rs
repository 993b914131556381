//! The story of many random games as one number per set combination: every event of 3,000
//! games of each combination of the built-in sets (the first editions' with and without The
//! River and Inns & Cathedrals, and the sets written as data alone), under every rule option
//! in turn, hashed.
//! When the rules move from code to data, this is the proof that nothing a player could see
//! changed: the numbers before and after must be identical.
//!
//! `cargo run --release --example events_checksum` prints them;
//! `... -- --check tests/checksums/events.txt` compares them with the recorded ones and fails
//! on any difference; `--games N` plays N games per combination instead of 3,000.

use std::fmt::Write as _;
use std::process::ExitCode;

use carcassonne::{
    Catalog, Drawn, Event, FarmScoring, FeatureScore, Game, GameSetup, PlayerSet, RuleOptions,
    UnfinishedMarks,
};

/// Every combination of the built-in sets that makes a game: a land set (first or second
/// edition), with or without The River and Inns & Cathedrals.
/// The sets written as data alone follow, recorded when each arrived, so that what moves
/// later keeps them as they are too.
const COMBINATIONS: [&[&str]; 17] = [
    &["base"],
    &["base", "river"],
    &["base", "inns_and_cathedrals"],
    &["base", "river", "inns_and_cathedrals"],
    &["base_c2"],
    &["base_c2", "river"],
    &["base_c2", "inns_and_cathedrals"],
    &["base_c2", "river", "inns_and_cathedrals"],
    &["base", "cathars"],
    &["base", "traders_and_builders"],
    &["base", "river", "inns_and_cathedrals", "cathars", "traders_and_builders"],
    &["base", "hills_and_sheep"],
    &["base", "king_and_robber"],
    &["base", "cult"],
    &["base", "hills_and_sheep", "cult"],
    &["base", "river_ii"],
    &["base", "river_ii", "inns_and_cathedrals"],
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut games = 3_000u64;
    let mut check = None;
    let mut index = 0;
    while index < args.len() {
        match args[index].as_str() {
            "--games" => games = args.get(index + 1).and_then(|n| n.parse().ok()).unwrap_or(0),
            "--check" => check = args.get(index + 1).cloned(),
            other => {
                eprintln!("unknown argument `{other}`; expected --games N or --check FILE");
                return ExitCode::FAILURE;
            }
        }
        index += 2;
    }
    if games == 0 {
        eprintln!("--games needs a positive number");
        return ExitCode::FAILURE;
    }
    let mut report = String::new();
    for sets in COMBINATIONS {
        let (hash, events) = play(sets, games);
        writeln!(report, "{:<40} {games} games {events:>9} events {hash:016x}", sets.join("+"))
            .expect("writing to a string");
    }
    print!("{report}");
    let Some(path) = check else { return ExitCode::SUCCESS };
    match std::fs::read_to_string(&path) {
        Ok(expected) if expected == report => {
            println!("identical to {path}");
            ExitCode::SUCCESS
        }
        Ok(expected) => {
            eprintln!("the events differ from {path}, which records:\n{expected}");
            ExitCode::FAILURE
        }
        Err(error) => {
            eprintln!("cannot read {path}: {error}");
            ExitCode::FAILURE
        }
    }
}

/// The hash of every event of `games` random games of `sets`, and how many events there were.
fn play(sets: &[&str], games: u64) -> (u64, u64) {
    let catalogs: Vec<Catalog> =
        sets.iter().map(|name| Catalog::builtin(name).expect("a built-in set")).collect();
    let colours: usize = catalogs.iter().map(|c| c.figures().colours.len()).sum();
    let mut hash = Fnv::new();
    let mut count = 0u64;
    let mut events = Vec::new();
    let mut line = String::new();
    for seed in 0..games {
        let mut setup = GameSetup::new(catalogs.clone(), 2 + (seed % (colours as u64 - 1)) as u8);
        setup.seed = seed;
        setup.options = options(seed);
        let mut game = Game::new(setup).expect("a valid setup");
        let mut rng = Xorshift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        while !game.is_over() {
            let action = game.legal_action(rng.below(game.legal_action_count())).expect("in range");
            events.clear();
            game.apply_into(action, &mut events).expect("a legal action");
            for event in &events {
                line.clear();
                describe(event, &game, &mut line);
                hash.write(line.as_bytes());
                count += 1;
            }
        }
    }
    (hash.0, count)
}

/// The rule options of game `seed`: each farm scoring, the tiny city, unfinished inns and
/// cathedrals scored normally, abbots and no farmers, in turn.
fn options(seed: u64) -> RuleOptions {
    let mut options = RuleOptions::default();
    match seed % 7 {
        1 => options.farm_scoring = FarmScoring::PerFieldOnce,
        2 => options.farm_scoring = FarmScoring::PerCity4,
        3 => options.tiny_city = true,
        4 => options.inn_cathedral_unfinished = UnfinishedMarks::Normal,
        5 => options.abbots = true,
        6 => {
            options.farmers = false;
            options.abbots = true;
            options.tiny_city = true;
        }
        _ => {}
    }
    options
}

/// One event as a line of text that names everything a player sees in it.
fn describe(event: &Event, game: &Game, out: &mut String) {
    let written = match event {
        Event::TileDrawn { player, tile } => write!(out, "drawn {} {tile}", player.0),
        Event::TileDiscarded { player, tile } => write!(out, "discarded {} {tile}", player.0),
        Event::TilePlaced { player, tile, pos, rotation } => {
            write!(out, "placed {} {tile} {} {} {}", player.0, pos.x, pos.y, rotation.degrees())
        }
        Event::FigurePlaced { player, figure, pos, segment } => {
            write!(out, "figure {} {} {} {} {segment}", player.0, figure, pos.x, pos.y)
        }
        Event::AbbotRecalled { player, pos } => {
            write!(out, "recalled {} {} {}", player.0, pos.x, pos.y)
        }
        Event::FeatureScored(score) => scored(score, game, out),
        Event::FigureReturned { player, figure, pos, segment } => {
            write!(out, "returned {} {} {} {} {segment}", player.0, figure, pos.x, pos.y)
        }
        Event::TokensTaken { player, token, count, pos, segment } => {
            let token = &game.tokens()[token.index()].id;
            write!(out, "taken {} {token} {count} {} {} {segment}", player.0, pos.x, pos.y)
        }
        Event::TokensScored { token, held, points, scorers } => {
            let token = &game.tokens()[token.index()].id;
            write!(out, "majority {token} {held} {points} {}", players(*scorers))
        }
        Event::TitleTaken { player, title, tiles, pos, segment } => {
            let title = &game.titles()[title.index()].id;
            write!(out, "title {} {title} {tiles} {} {} {segment}", player.0, pos.x, pos.y)
        }
        Event::TitleScored { title, player, features, points } => {
            let title = &game.titles()[title.index()].id;
            write!(out, "held {title} {} {features} {points}", player.0)
        }
        Event::TileHidden { player, pos } => {
            write!(out, "hidden {} {} {}", player.0, pos.x, pos.y)
        }
        // Named as the lines named the flock's tokens before bags were declared: a kept
        // token by its worth, one that sends home as the wolf.
        Event::TokenDrawn { player, pos, segment, drawn } => {
            let kind = game.bag_kind(*drawn);
            match kind.map(|kind| kind.rule) {
                Some(rule) if rule.then == Drawn::Keep => {
                    write!(out, "sheep {} {} {} {segment} {}", player.0, pos.x, pos.y, rule.worth)
                }
                _ => write!(out, "wolf {} {} {} {segment}", player.0, pos.x, pos.y),
            }
        }
        Event::ExtraTurn { player } => write!(out, "extra {}", player.0),
        Event::TurnStarted { player } => write!(out, "turn {}", player.0),
        Event::GameOver { winners } => write!(out, "over {}", players(*winners)),
    };
    written.expect("writing to a string");
}

/// A score as the line has always named it: the pennants it counted, and the rule that set
/// its value by name (`none` for the plain value), as the engine named its modifiers before
/// the rules were data.
fn scored(score: &FeatureScore, game: &Game, out: &mut String) -> std::fmt::Result {
    let pennants = score.marks.count_of(game.marks(), "pennant");
    let rule = score.rule.and_then(|rule| game.rules().get(rule.index()));
    write!(
        out,
        "scored {} {} {} {} {:?} {} {} {} {} {} {} {} {}",
        score.kind,
        score.pos.x,
        score.pos.y,
        score.segment,
        score.reason,
        score.complete,
        score.tiles,
        pennants,
        score.cities,
        rule.map_or("none", |rule| rule.id.as_str()),
        score.farmers,
        score.points,
        players(score.scorers)
    )
}

fn players(set: PlayerSet) -> u8 {
    set.iter().fold(0, |bits, player| bits | 1 << player.0)
}

/// FNV-1a, 64 bits: a hash whose value is the same on every machine and in every release.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes.iter().chain(b"\n") {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

struct Xorshift(u64);

impl Xorshift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        ((u128::from(self.0) * n as u128) >> 64) as usize
    }
}
