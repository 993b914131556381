//! `carcassonne play`: a whole game between random players, and the report of a game that
//! `replay` prints too.

use std::fmt::Write as _;
use std::process::ExitCode;

use carcassonne::{
    Action, BUILTIN_NAMES, Catalog, Effect, Event, FarmScoring, FeatureScore, Figure, Game,
    GameSetup, LoadError, Phase, PlayerId, PlayerSet, Pos, Rotation, Rule, RuleOptions,
    ScoreReason, SegmentIndex, SegmentKind, SetupError, TileIndex, TileType, TitleId, TitleScoring,
    TokenId, UnfinishedMarks,
};
use clap::ValueEnum;
use serde::Serialize;

use crate::human::HumanSeat;
use crate::names;
use crate::tileset::CommandError;
use carcassonne_render::ascii;

/// The rule options as flags, shared by `play` and `score`.
#[derive(clap::Args)]
pub struct RuleArgs {
    /// No followers on fields, and no field scoring.
    #[arg(long)]
    no_farmers: bool,
    /// How fields score at the end.
    #[arg(long, value_enum, default_value_t = FarmScoringArg::PerField)]
    farm_scoring: FarmScoringArg,
    /// A completed city of two tiles scores 1 per tile and pennant (first edition).
    #[arg(long)]
    tiny_city: bool,
    /// What an unfinished road with an inn or city with a cathedral scores at the end.
    #[arg(long, value_enum, default_value_t = UnfinishedArg::Zero)]
    inn_cathedral_unfinished: UnfinishedArg,
    /// How the titles of King & Robber Baron score: as printed, or a published variant.
    #[arg(long, value_enum, default_value_t = TitleScoringArg::Printed)]
    title_scoring: TitleScoringArg,
}

impl RuleArgs {
    /// The options these flags ask for; abbots are a matter of the game's supply, not of
    /// scoring, so the caller says.
    pub fn options(&self, abbots: bool) -> RuleOptions {
        let farm_scoring = match self.farm_scoring {
            FarmScoringArg::PerField => FarmScoring::PerField,
            FarmScoringArg::PerFieldOnce => FarmScoring::PerFieldOnce,
            FarmScoringArg::PerCity4 => FarmScoring::PerCity4,
        };
        let inn_cathedral_unfinished = match self.inn_cathedral_unfinished {
            UnfinishedArg::Zero => UnfinishedMarks::Zero,
            UnfinishedArg::Normal => UnfinishedMarks::Normal,
        };
        let title_scoring = match self.title_scoring {
            TitleScoringArg::Printed => TitleScoring::Printed,
            TitleScoringArg::TenEach => TitleScoring::TenEach,
            TitleScoringArg::FifteenForty => TitleScoring::FifteenForty,
            TitleScoringArg::Continuous => TitleScoring::Continuous,
        };
        RuleOptions::default()
            .with_farmers(!self.no_farmers)
            .with_farm_scoring(farm_scoring)
            .with_tiny_city(self.tiny_city)
            .with_inn_cathedral_unfinished(inn_cathedral_unfinished)
            .with_abbots(abbots)
            .with_title_scoring(title_scoring)
    }
}

/// `--title-scoring`, spelled as in save files.
#[derive(Clone, Copy, ValueEnum)]
enum TitleScoringArg {
    /// At the end, the holder scores each title's points per completed feature (printed).
    #[value(name = "printed")]
    Printed,
    /// At the end, 10 points a title held ("10/20").
    #[value(name = "ten_each")]
    TenEach,
    /// At the end, 15 for holding one title, 40 for both ("15/40").
    #[value(name = "fifteen_forty")]
    FifteenForty,
    /// The holder scores each completed feature of its title's kind at once.
    #[value(name = "continuous")]
    Continuous,
}

/// `--farm-scoring`, spelled as in save files.
#[derive(Clone, Copy, ValueEnum)]
enum FarmScoringArg {
    /// Each field scores 3 per completed city it borders (current rules).
    #[value(name = "per_field")]
    PerField,
    /// As per_field, but each player scores each city at most once (second edition).
    #[value(name = "per_field_once")]
    PerFieldOnce,
    /// Per completed city, the players with most farmers around it score 4 (first edition).
    #[value(name = "per_city_4")]
    PerCity4,
}

/// `--inn-cathedral-unfinished`.
#[derive(Clone, Copy, ValueEnum)]
enum UnfinishedArg {
    /// They score nothing (the published rule).
    Zero,
    /// They score as plain roads and cities.
    Normal,
}

/// The tile sets and rules of bots' games (`arena`, `train-evaluator`).
#[derive(clap::Args)]
pub struct SetsArgs {
    /// Tile sets, comma-separated: built-in names or tile set files.
    #[arg(
        long,
        alias = "tilesets",
        value_delimiter = ',',
        default_value = "base",
        value_name = "SET,..."
    )]
    sets: Vec<String>,
    #[command(flatten)]
    rules: RuleArgs,
    /// Give each player an abbot.
    #[arg(long)]
    abbots: bool,
}

impl SetsArgs {
    /// The setup of a game of `players` with these sets and rules.
    pub fn setup(&self, players: u8) -> Result<GameSetup, CommandError> {
        let catalogs = self.sets.iter().map(|set| load_set(set)).collect::<Result<_, _>>()?;
        let mut setup = GameSetup::new(catalogs, players);
        setup.options = self.rules.options(self.abbots);
        Ok(setup)
    }
}

/// The name in `--players` that seats a person.
const HUMAN: &str = "human";

/// `carcassonne play`.
#[derive(clap::Args)]
pub struct PlayArgs {
    /// Tile sets, comma-separated: built-in names (base, base_c2, river, river_ii,
    /// inns_and_cathedrals, cathars, traders_and_builders, hills_and_sheep, king_and_robber, cult)
    /// or tile set files.
    #[arg(
        long,
        alias = "sets",
        value_delimiter = ',',
        default_value = "base",
        value_name = "SET,..."
    )]
    tilesets: Vec<String>,
    /// The players: a number of random players, or bots by profile name, comma-separated
    /// (random, greedy, easy, medium, hard, expert, anchor, one of --profiles or a --bot), and
    /// `human` for a person who answers on the terminal.
    #[arg(long, default_value = "2", value_name = "N|BOT,...")]
    players: String,
    /// A profile file whose bots join the built-in ones.
    #[arg(long, value_name = "FILE")]
    profiles: Option<std::path::PathBuf>,
    #[command(flatten)]
    external: crate::bots::ExternalArgs,
    /// The seed of the tile bag and of the players' choices: the whole game.
    #[arg(long, default_value_t = 0, value_name = "S")]
    seed: u64,
    /// Print the game as JSON (setup, actions, events, final scores), for `replay`.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: RuleArgs,
    /// Give each player an abbot.
    #[arg(long)]
    abbots: bool,
    /// Also draw the final board to this file (with a human player, after every turn, for a
    /// viewer kept open on it): PNG when its name ends in .png, else SVG.
    #[arg(long, value_name = "FILE")]
    svg: Option<std::path::PathBuf>,
}

impl PlayArgs {
    /// The picture this command writes, if any.
    pub fn picture(&self) -> Option<&std::path::Path> {
        self.svg.as_deref()
    }
}

pub fn play(args: &PlayArgs) -> Result<ExitCode, CommandError> {
    // `None` seats a person; bots are named by profile.
    let (players, bots): (u8, Vec<Option<carcassonne_bots::Profile>>) =
        match args.players.trim().parse::<u8>() {
            Ok(players) => (players, Vec::new()),
            Err(_) if args.players.trim().chars().all(|c| c.is_ascii_digit()) => {
                return Err(format!("--players {} is not a number of players", args.players));
            }
            Err(_) => {
                let profiles = crate::bots::profiles(args.profiles.as_deref(), &args.external)?;
                let bots = args
                    .players
                    .split(',')
                    .map(|name| match name.trim() {
                        human if human.eq_ignore_ascii_case(HUMAN) => Ok(None),
                        name => crate::bots::named(&profiles, &[name.to_owned()])
                            .map(|mut found| found.pop()),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let players = u8::try_from(bots.len())
                    .map_err(|_| format!("{} bots are too many players", bots.len()))?;
                (players, bots)
            }
        };
    let catalogs = args.tilesets.iter().map(|set| load_set(set)).collect::<Result<_, _>>()?;
    let setup = GameSetup::new(catalogs, players)
        .with_seed(args.seed)
        .with_options(args.rules.options(args.abbots));
    let mut game = Game::new(setup.clone()).map_err(|error| {
        format!("cannot set up the game: {error}{}", setup_hint(&setup, &error))
    })?;
    let mut dice = Dice::new(args.seed);
    // Each bot's seed: the game's, apart for each seat.
    let seated: Vec<_> = bots
        .iter()
        .enumerate()
        .map(|(seat, profile)| {
            profile
                .as_ref()
                .map(|profile| profile.bot(Dice::new(args.seed ^ (seat as u64 + 1)).next()))
        })
        .collect();
    let humans = bots.iter().any(Option::is_none);
    // A person is asked on standard error, so that standard output stays the game's report
    // (or its JSON) as without them.
    let mut person = humans.then(|| HumanSeat::new(std::io::stdin().lock(), std::io::stderr()));
    let mut events = Vec::new();
    let mut legal = Vec::new();
    // Another player's placement, and the game before it, to tell the person their turn.
    let mut placing: Option<(Game, Action)> = None;
    while !game.is_over() {
        let seat = game.current_player();
        let bot = seated.get(seat.index());
        let action = match (bot, person.as_mut()) {
            (Some(Some(bot)), _) => {
                bot.choose(&game, seat).map_err(|error| format!("bot {}: {error}", bot.name()))?
            }
            (Some(None), Some(person)) => person.choose(&game)?,
            _ => {
                game.legal_actions_into(&mut legal);
                if legal.is_empty() {
                    return Err(format!(
                        "engine bug: no legal action in the {} phase",
                        game.phase().name()
                    ));
                }
                legal[dice.below(legal.len())]
            }
        };
        let before = events.len();
        if let (Some(_), Action::Place { .. }) = (&person, action) {
            placing = Some((game.clone(), action));
        }
        game.apply_into(action, &mut events)
            .map_err(|error| format!("legal action {action:?} refused: {error}"))?;
        let Some(person) = person.as_mut() else { continue };
        let mut news = String::new();
        if let (Some((placed_in, place)), Phase::Draw | Phase::GameOver) = (&placing, game.phase())
        {
            let mover = names::player(&game, seat);
            let who = match bot {
                Some(Some(bot)) => format!("{mover} ({})", bot.name()),
                _ => mover,
            };
            let tile = placed_in.drawn_tile().map_or("?", |tile| tile_id(placed_in, tile));
            let _ = writeln!(
                news,
                "{who} laid tile {tile} {}",
                crate::analyze::describe(placed_in, Some(*place), action)
            );
            placing = None;
        }
        for event in &events[before..] {
            match event {
                Event::FeatureScored(score) => {
                    let _ = writeln!(news, "    {}", describe(&game, score));
                }
                Event::TileDiscarded { player, tile } => {
                    let _ = writeln!(
                        news,
                        "{} drew tile {}, which fits nowhere: discarded",
                        names::player(&game, *player),
                        tile_id(&game, *tile)
                    );
                }
                _ => {}
            }
        }
        person.tell(&news)?;
        if let (Some(svg), Phase::Draw | Phase::GameOver) = (&args.svg, game.phase()) {
            // Rewritten after every turn, for a viewer the person keeps open.
            let picture = carcassonne_render::board_svg(&game, &Default::default());
            crate::picture::write_picture(svg, &picture, false)?;
        }
    }
    if let Some(svg) = &args.svg {
        let picture = carcassonne_render::board_svg(&game, &Default::default());
        crate::picture::write_picture(svg, &picture, false)?;
    }
    // An external bot's lost moves are news for whoever runs it, apart from the report.
    let faults =
        crate::bots::fault_lines(seated.iter().flatten().map(|bot| (bot.name(), bot.faults())));
    if !faults.is_empty() {
        eprint!("{faults}");
    }
    // Who sat where, when bots were named: `play` and `replay` print it, `--json` keeps it.
    let players =
        bots.iter().map(|bot| bot.as_ref().map_or(HUMAN, |bot| bot.name.as_str()).to_owned());
    let transcript = Transcript { game, events, players: players.collect() };
    let text = if args.json { transcript.to_json()? } else { transcript.report() };
    crate::write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// What to try when `error` refused `setup`, for the sets that ship with the library: a
/// sixth colour, or a base game under an expansion.
fn setup_hint(setup: &GameSetup, error: &SetupError) -> String {
    let ids: Vec<&str> = setup.catalogs.iter().map(|c| c.info().id.as_str()).collect();
    let has = |id: &str| ids.contains(&id);
    match error {
        SetupError::TooManyPlayers { .. } if !has("inns_and_cathedrals") && setup.players <= 6 => {
            format!(
                " (Inns & Cathedrals brings a sixth: --tilesets {},inns_and_cathedrals)",
                ids.join(",")
            )
        }
        SetupError::NoFollowers | SetupError::NoStartTile if !has("base") && !has("base_c2") => {
            format!(" (expansions play with a base game: --tilesets base,{})", ids.join(","))
        }
        _ => String::new(),
    }
}

/// A built-in set by name or a tile set file, with a message that lists the built-in names
/// when the name is neither.
pub fn load_set(set: &str) -> Result<Catalog, CommandError> {
    Catalog::load(set).map_err(|error| match error {
        LoadError::Invalid(diagnostics) => format!("{set} is not a valid tile set:\n{diagnostics}"),
        LoadError::Io { .. } if !set.contains(['/', '\\', '.']) => format!(
            "`{set}` is not a built-in tile set ({}) and no such file exists",
            BUILTIN_NAMES.join(", ")
        ),
        other => other.to_string(),
    })
}

/// The random players' dice: SplitMix64 seeded from the game's seed but apart from the bag's
/// generator, so that one seed fixes both the tiles and every choice.
struct Dice(u64);

impl Dice {
    fn new(seed: u64) -> Dice {
        Dice(seed ^ 0x6a09_e667_f3bc_c908)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n`, each equally likely (to within 2⁻⁶⁴).
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}

/// A game with the events of every action applied to it, in order, and who played it.
pub struct Transcript {
    pub game: Game,
    pub events: Vec<Event>,
    /// The player in each seat by name (a bot's profile, or `human`); empty when `play` dealt
    /// random players, who have no name.
    pub players: Vec<String>,
}

impl Transcript {
    /// Replays `actions` from `setup`, keeping the events.
    ///
    /// # Errors
    /// The setup's error, or the first refused action by its index and reason.
    pub fn replay(setup: GameSetup, actions: &[Action]) -> Result<Transcript, CommandError> {
        let mut game = Game::new(setup).map_err(|error| format!("invalid setup: {error}"))?;
        let mut events = Vec::new();
        for (index, action) in actions.iter().enumerate() {
            game.apply_into(*action, &mut events)
                .map_err(|error| format!("action {index} was refused: {error}"))?;
        }
        Ok(Transcript { game, events, players: Vec::new() })
    }

    /// The winners, once the game is over.
    pub fn winners(&self) -> PlayerSet {
        if self.game.is_over() { self.game.leaders() } else { PlayerSet::EMPTY }
    }

    /// What `play --json` writes: the saved game (format, setup, actions) that `replay` and
    /// `serde_json::from_str::<Game>` read, then the ids of the declared marks and rules (what
    /// the events' numbers index), the events, scores and winners. One action
    /// or event per line, so that two games can be compared with `diff`.
    pub fn to_json(&self) -> Result<String, CommandError> {
        let serde_json::Value::Object(mut saved) = json_value(&self.game)? else {
            return Err("the saved game is not a JSON object".into());
        };
        // The save's keys come from the library; setup and actions are written from their
        // types again so their fields keep the declared order, which `Value` would sort.
        let mut entries = Vec::new();
        if let Some(format) = saved.remove("format") {
            entries.push(("format".to_string(), compact(&format)?));
        }
        if saved.remove("setup").is_some() {
            entries.push(("setup".into(), compact(&self.game.setup())?));
        }
        if !self.players.is_empty() {
            entries.push(("players".into(), compact(&self.players)?));
        }
        let actions = saved.remove("actions").is_some();
        for (key, value) in &saved {
            entries.push((key.clone(), compact(value)?));
        }
        if actions {
            entries.push(("actions".into(), one_per_line(self.game.actions())?));
        }
        // What the events' mark and rule numbers stand for.
        let marks: Vec<&str> = self.game.marks().iter().map(|mark| mark.id.as_str()).collect();
        let rules: Vec<&str> = self.game.rules().iter().map(|rule| rule.id.as_str()).collect();
        entries.push(("marks".into(), compact(&marks)?));
        entries.push(("rules".into(), compact(&rules)?));
        entries.push(("events".into(), one_per_line(&self.events)?));
        entries.push(("scores".into(), compact(&self.game.scores())?));
        entries.push(("winners".into(), compact(&self.winners())?));
        let body: Vec<String> = entries
            .iter()
            .map(|(key, value)| format!("  {}: {value}", compact(key).unwrap_or_default()))
            .collect();
        Ok(format!("{{\n{}\n}}\n", body.join(",\n")))
    }

    /// The game for people: who played (when they have names), setup, moves with their
    /// scores, the board, the end-of-game scores feature by feature, points by kind, and the
    /// final scores.
    pub fn report(&self) -> String {
        let game = &self.game;
        let mut out = String::new();
        if !self.players.is_empty() {
            // "players: red hard, green medium, blue easy".
            let seats: Vec<String> = (0..game.players())
                .zip(&self.players)
                .map(|(seat, name)| format!("{} {name}", names::player(game, PlayerId(seat))))
                .collect();
            let _ = writeln!(out, "players: {}", seats.join(", "));
        }
        out.push_str(&header(&game.setup()));
        out.push('\n');
        let start =
            game.placements().first().and_then(|(pos, tile)| Some((*pos, game.tile(*tile)?)));
        if let Some((pos, tile)) = start {
            let _ = writeln!(out, "start tile {} at {pos}", tile.id());
        }
        let mut final_scores = Vec::new();
        let mut majorities = Vec::new();
        let id_width = game.tiles().iter().map(|tile| tile.id().len()).max().unwrap_or(1);
        let name_width = (0..game.players())
            .map(|player| names::player(game, PlayerId(player)).len())
            .max()
            .unwrap_or(1);
        let mut turn = Turn::default();
        for event in &self.events {
            match *event {
                Event::TileDrawn { .. } | Event::TurnStarted { .. } | Event::GameOver { .. } => {
                    turn.flush(&mut out);
                }
                Event::TileDiscarded { player, tile } => {
                    turn.flush(&mut out);
                    let _ = writeln!(
                        out,
                        "     {} draws tile {}, which fits nowhere: discarded",
                        names::player(game, player),
                        tile_id(game, tile)
                    );
                }
                Event::TilePlaced { player, tile, pos, rotation } => {
                    turn.flush(&mut out);
                    turn.number += 1;
                    turn.line = Some(format!(
                        "{:>3}. {:<name_width$}  tile {:<id_width$}  at {:<10} turned {:<4}",
                        turn.number,
                        names::player(game, player),
                        tile_id(game, tile),
                        pos.to_string(),
                        rotation.to_string()
                    ));
                    turn.tile = Some(tile);
                    turn.figure = "no figure".into();
                }
                Event::FigurePlaced { figure, segment, pos, .. } => {
                    turn.figure = figure_on(game, figure, pos, segment);
                }
                Event::AbbotRecalled { pos, .. } => {
                    turn.figure = format!("recalls the abbot from {pos}");
                }
                Event::TileHidden { .. } => turn.taken.push("hides a tile under the hill".into()),
                Event::TokenDrawn { drawn, .. } => {
                    let kind = game.bag_kind(drawn);
                    turn.taken.push(match kind.map(|kind| kind.rule) {
                        Some(rule) if rule.then == carcassonne::Drawn::Keep => {
                            format!(
                                "draws {drawn} (worth {}) from the {} bag",
                                rule.worth,
                                kind.map_or("", |kind| kind.bag_id.as_str())
                            )
                        }
                        _ => format!("draws {drawn}, which sends the figure home"),
                    });
                }
                Event::ExtraTurn { player } => {
                    turn.flush(&mut out);
                    let _ = writeln!(
                        out,
                        "     {} extended their builder's feature: a second turn",
                        names::player(game, player)
                    );
                }
                Event::FeatureScored(score) if score.reason == ScoreReason::GameEnd => {
                    final_scores.push(score);
                }
                Event::FeatureScored(score) => turn.scores.push(describe(game, &score)),
                Event::TokensTaken { player, token, count, .. } => {
                    turn.taken.push(format!(
                        "{} takes {}",
                        names::player(game, player),
                        tokens_phrase(game, token, count)
                    ));
                }
                Event::TokensScored { token, held, points, scorers } => {
                    let holders: Vec<String> =
                        scorers.iter().map(|player| names::player(game, player)).collect();
                    majorities.push(format!(
                        "most {}: {} with {held}, {points} each",
                        token_name(game, token),
                        holders.join(" and ")
                    ));
                }
                Event::TitleTaken { player, title, tiles, .. } => {
                    turn.taken.push(format!(
                        "{} takes {} ({})",
                        names::player(game, player),
                        title_name(game, title),
                        plural(tiles, "tile")
                    ));
                }
                Event::TitleScored { title, player, features, points } => {
                    majorities.push(format!(
                        "{} holds {}: {} for {} completed",
                        names::player(game, player),
                        title_name(game, title),
                        plural(points, "point"),
                        plural(
                            features,
                            game.titles().get(title.index()).map_or("feature", |t| {
                                if t.feature == SegmentKind::City { "city" } else { "road" }
                            })
                        )
                    ));
                }
                Event::FigureReturned { .. } => {}
            }
        }
        turn.flush(&mut out);

        out.push('\n');
        out.push_str(&board(game));
        out.push_str(&ascii::legend(game.marks()));
        out.push('\n');
        let colours: Vec<String> = (0..game.players())
            .map(|player| format!("{player} {}", names::player(game, PlayerId(player))))
            .collect();
        let _ = writeln!(out, "        players: {}", colours.join(", "));

        if game.is_over() {
            out.push_str("\nend of game\n");
            if final_scores.is_empty() {
                out.push_str("     no figure left on the board scores\n");
            }
            for score in &final_scores {
                let _ = writeln!(out, "     {}", describe(game, score));
            }
            for majority in &majorities {
                let _ = writeln!(out, "     {majority}");
            }
        } else {
            let _ = writeln!(
                out,
                "\nthe game is not over: {} left, {} to play ({} phase)",
                plural(game.tiles_left(), "tile"),
                names::player(game, game.current_player()),
                game.phase().name()
            );
        }
        out.push('\n');
        out.push_str(&points_by_kind(game));
        out
    }
}

fn json_value(value: &impl Serialize) -> Result<serde_json::Value, CommandError> {
    serde_json::to_value(value).map_err(|error| format!("cannot write JSON: {error}"))
}

pub fn compact(value: &impl Serialize) -> Result<String, CommandError> {
    serde_json::to_string(value).map_err(|error| format!("cannot write JSON: {error}"))
}

/// A JSON array with one compact item per line.
pub fn one_per_line<T: Serialize>(items: &[T]) -> Result<String, CommandError> {
    if items.is_empty() {
        return Ok("[]".into());
    }
    let lines = items.iter().map(|item| compact(item).map(|text| format!("    {text}")));
    Ok(format!("[\n{}\n  ]", lines.collect::<Result<Vec<_>, _>>()?.join(",\n")))
}

/// One turn's line as the events arrive: the figure step and scores come after the
/// placement.
#[derive(Default)]
struct Turn {
    number: u32,
    line: Option<String>,
    tile: Option<TileIndex>,
    figure: String,
    scores: Vec<String>,
    taken: Vec<String>,
}

impl Turn {
    fn flush(&mut self, out: &mut String) {
        if let Some(line) = self.line.take() {
            let _ = writeln!(out, "{line}  {}", self.figure);
        }
        for score in self.scores.drain(..) {
            let _ = writeln!(out, "       scores {score}");
        }
        for taken in self.taken.drain(..) {
            let _ = writeln!(out, "       {taken}");
        }
    }
}

fn header(setup: &GameSetup) -> String {
    let sets: Vec<&str> = setup.catalogs.iter().map(|c| c.info().id.as_str()).collect();
    let options = setup.options;
    let on = |flag: bool| if flag { "on" } else { "off" };
    let farmers = match options.farm_scoring {
        _ if !options.farmers => "farmers off".to_owned(),
        FarmScoring::PerField => "farmers on, farm scoring per_field".to_owned(),
        FarmScoring::PerFieldOnce => "farmers on, farm scoring per_field_once".to_owned(),
        FarmScoring::PerCity4 => "farmers on, farm scoring per_city_4".to_owned(),
    };
    let unfinished = match options.inn_cathedral_unfinished {
        UnfinishedMarks::Zero => "zero",
        UnfinishedMarks::Normal => "normal",
    };
    // Said only when a variant is chosen, so that headers stay as they were otherwise.
    let titles = match options.title_scoring {
        TitleScoring::Printed => String::new(),
        TitleScoring::TenEach => "titles: 10 a title held\n".to_owned(),
        TitleScoring::FifteenForty => "titles: 15 for one held, 40 for both\n".to_owned(),
        TitleScoring::Continuous => {
            "titles: the holder scores each completion at once\n".to_owned()
        }
    };
    format!(
        "carcassonne: {}; {} players; seed {}\n\
         rules: {farmers}, tiny city {}, unfinished inns and cathedrals {unfinished}, abbots {}\n",
        sets.join(", "),
        setup.players,
        setup.seed,
        on(options.tiny_city),
        on(options.abbots),
    ) + &titles
}

pub fn tile_id(game: &Game, tile: TileIndex) -> &str {
    game.tile(tile).map_or("?", |tile| tile.id())
}

/// "a farmer on the field to the south", "a big follower on the city to the north", "an
/// abbot on the monastery": the figure and the segment of the tile just placed at `pos`.
pub fn figure_on(game: &Game, figure: Figure, pos: Pos, segment: SegmentIndex) -> String {
    match names::placed(game, pos) {
        Some((tile, rotation)) => figure_on_tile(tile, rotation, figure, segment),
        None => format!("{} {figure} on segment {segment}", figure.article()),
    }
}

/// [`figure_on`] for segment `segment` of `tile` turned by `rotation`.
pub fn figure_on_tile(
    tile: &TileType,
    rotation: Rotation,
    figure: Figure,
    segment: SegmentIndex,
) -> String {
    let kind = tile.segments().get(usize::from(segment)).map(|s| s.kind());
    let named = names::segment(tile, rotation, segment);
    let who = match (figure, kind) {
        (Figure::FOLLOWER, Some(SegmentKind::Field)) => "a farmer".to_owned(),
        (Figure::BIG_FOLLOWER, Some(SegmentKind::Field)) => "a big farmer".to_owned(),
        _ => format!("{} {figure}", figure.article()),
    };
    format!("{who} on {named}")
}

/// A declared rule as a score line names it: its id in words and what it pays, as the tile
/// set declares it ("cathedral (3 per tile, 3 per pennant)", "unfinished inn (worth
/// nothing)", "besieged (farmers paid 2 times)", "vineyards (3 more per vineyard around
/// it)").
fn rule_phrase(game: &Game, rule: &Rule) -> String {
    let name = rule.id.replace('_', " ");
    match &rule.effect {
        Effect::Value(value) => {
            let mut parts = vec![format!("{} per tile", value.per_tile)];
            for (mark, points) in &value.per_mark {
                if let Some(info) = game.marks().get(mark.index()) {
                    parts.push(format!("{points} per {}", info.name.to_lowercase()));
                }
            }
            let nothing = value.per_tile == 0 && value.per_mark.iter().all(|(_, p)| *p == 0);
            if nothing {
                format!("{name} (worth nothing)")
            } else {
                format!("{name} ({})", parts.join(", "))
            }
        }
        Effect::Farm(farm) => format!("{name} (farmers paid {} times)", farm.times),
        Effect::Neighbours(bonus) => {
            let mark = game
                .marks()
                .get(bonus.mark.index())
                .map_or_else(|| "marked tile".to_owned(), |info| info.name.to_lowercase());
            format!("{name} ({} more per {mark} around it)", bonus.each)
        }
        Effect::TieBreak(_) => name,
        Effect::Rival(_) => format!("{name} (lost to a rival completed first)"),
        Effect::Pig(pig) => format!("{name} ({} more per city to its owner)", pig.per_city),
        Effect::Bag(bag) => format!("{name} ({} a unit of worth)", bag.points),
        Effect::Chain(_) | Effect::Occupants(_) | Effect::Hide(_) => name,
    }
}

/// One feature's score on one line: what, where, why, how it adds up, and who gets what.
pub fn describe(game: &Game, score: &FeatureScore) -> String {
    let mut what = names::feature(game, score.pos, score.segment);
    let per_city = score.farmers && score.kind == SegmentKind::City;
    let why = match score.reason {
        ScoreReason::Completed => "completed",
        ScoreReason::AbbotRecalled => "abbot recalled",
        ScoreReason::GameEnd if per_city => "completed, paid to the farmers around it",
        ScoreReason::GameEnd if score.kind == SegmentKind::Field => "",
        ScoreReason::GameEnd if score.complete => "complete",
        ScoreReason::GameEnd => "unfinished",
        ScoreReason::Defeated => "defeated",
        ScoreReason::Market => "flock driven to market",
    };
    if !why.is_empty() {
        let _ = write!(what, ", {why}");
    }
    let _ = write!(what, ", {}", plural(score.tiles, "tile"));
    if !per_city {
        for (mark, count) in score.marks.iter() {
            if let Some(info) = game.marks().get(mark.index()) {
                let _ = write!(what, ", {}", plural(count, &info.name.to_lowercase()));
            }
        }
    }
    if score.kind == SegmentKind::Field {
        let _ = write!(what, ", {}", plural(score.cities, "completed city"));
    }
    if let Some(rule) = score.rule.and_then(|rule| game.rules().get(rule.index())) {
        let _ = write!(what, ", {}", rule_phrase(game, rule));
    }
    let paid: Vec<String> = score
        .scorers
        .iter()
        .map(|player| format!("{} +{}", names::player(game, player), score.points))
        .collect();
    format!("{what}: {}", paid.join(", "))
}

/// A token kind's name as a noun: "wine".
fn token_name(game: &Game, token: TokenId) -> String {
    game.tokens()
        .get(token.index())
        .map_or_else(|| format!("token {}", token.0), |info| info.name.to_lowercase())
}

/// A title's name: "The King".
fn title_name(game: &Game, title: TitleId) -> String {
    game.titles()
        .get(title.index())
        .map_or_else(|| format!("title {}", title.0), |info| info.name.clone())
}

/// "2 wine tokens".
fn tokens_phrase(game: &Game, token: TokenId, count: u32) -> String {
    plural(count, &format!("{} token", token_name(game, token)))
}

pub fn plural(count: u32, noun: &str) -> String {
    match (count, noun.strip_suffix('y')) {
        (1, _) => format!("1 {noun}"),
        (_, Some(stem)) => format!("{count} {stem}ies"),
        (_, None) => format!("{count} {noun}s"),
    }
}

pub fn board(game: &Game) -> String {
    ascii::board(game)
}

/// Points per player by kind of feature over the whole game, then the scores and winners.
fn points_by_kind(game: &Game) -> String {
    const KINDS: [&str; 7] = ["city", "road", "monastery", "garden", "field", "tokens", "titles"];
    let table: Vec<[u32; 7]> = game
        .points_by_kind()
        .iter()
        .map(|kinds| {
            [
                kinds.city,
                kinds.road,
                kinds.monastery,
                kinds.garden,
                kinds.farms,
                kinds.tokens,
                kinds.titles,
            ]
        })
        .collect();
    // Gardens, tokens and titles only where a set in play has them.
    let gardens = table.iter().any(|row| row[3] > 0);
    let tokens = !game.tokens().is_empty();
    let titles = !game.titles().is_empty();
    let shown: Vec<usize> = (0..KINDS.len())
        .filter(|k| (*k != 3 || gardens) && (*k != 5 || tokens) && (*k != 6 || titles))
        .collect();
    let mut out = String::from("points      ");
    for k in &shown {
        let _ = write!(out, "{:>10}", KINDS[*k]);
    }
    out.push_str("     total\n");
    let winners = if game.is_over() { game.leaders() } else { PlayerSet::EMPTY };
    for (player, row) in table.iter().enumerate() {
        let id = PlayerId(player as u8);
        let _ = write!(out, "  {:<10}", names::player(game, id));
        for k in &shown {
            let _ = write!(out, "{:>10}", row[*k]);
        }
        let total = game.scores().get(player).copied().unwrap_or(0);
        let _ = write!(out, "{total:>10}");
        out.push_str(if winners.contains(id) { "  winner\n" } else { "\n" });
    }
    if game.is_over() {
        let names: Vec<String> = winners.iter().map(|player| names::player(game, player)).collect();
        let _ = writeln!(
            out,
            "\n{} {}",
            if names.len() == 1 { "winner:" } else { "winners (tied):" },
            names.join(", ")
        );
    }
    out
}
