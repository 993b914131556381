//! `carcassonne-server`: the multiplayer server and its web page on one port.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;

/// The carcassonne multiplayer server: WebSocket rooms at /ws and the web page at /.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Where to listen.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// The SQLite database holding rooms, sessions and games (created if missing);
    /// `:memory:` keeps everything in memory, lost on exit.
    #[arg(long, value_name = "FILE", default_value = "carcassonne-server.sqlite")]
    db: PathBuf,
    /// Seconds a bot waits before it acts.
    #[arg(long, default_value_t = 2.0, value_name = "SECONDS")]
    bot_delay: f64,
    /// Seconds a placed tile waits for a figure action (1.0 clients send none) before the
    /// turn ends without one.
    #[arg(long, default_value_t = 20.0, value_name = "SECONDS")]
    figure_grace: f64,
    /// Seconds a disconnected player's turn waits before the server plays for them.
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS")]
    absent_grace: f64,
    /// Seconds of inactivity that end a session (a player seated in a game in progress
    /// keeps their seat until it ends).
    #[arg(long, default_value_t = 300.0, value_name = "SECONDS")]
    session_timeout: f64,
    /// An origin whose pages may open the WebSocket besides the server's own, such as
    /// `https://games.example.org`; repeat for several.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    allow_origin: Vec<String>,
    /// A host name this server answers to, such as `games.example.org`, besides its addresses,
    /// `localhost` and the hosts of --allow-origin: a request for any other name is refused
    /// (421), so that a page whose name was rebound to this address reaches nothing. Repeat
    /// for several.
    #[arg(long = "host", value_name = "NAME")]
    hosts: Vec<String>,
    /// Connections one IP address may hold at once.
    #[arg(long, default_value_t = 32, value_name = "N")]
    connections_per_address: usize,
    /// Sessions one IP address may hold at once.
    #[arg(long, default_value_t = 64, value_name = "N")]
    sessions_per_address: usize,
    /// Open rooms the clients of one IP address may have created together.
    #[arg(long, default_value_t = 8, value_name = "N")]
    rooms_per_address: usize,
    /// A bot of this server's, as NAME=COMMAND: a program that speaks the bot protocol
    /// (docs/bot-protocol.md), which hosts may then add by name. The command line is split as a
    /// shell would and run without one, once per seat for its turns. May be given more than once.
    #[arg(long = "bot", value_name = "NAME=COMMAND")]
    bots: Vec<String>,
    /// How long a bot of --bot may take over one turn, in milliseconds, in all: its tile and
    /// its figure, and starting its program when the turn needs it; what it has not answered
    /// by then is played as the random bot's choice.
    #[arg(long, default_value_t = 5000, value_name = "MS")]
    bot_ms: u64,
    /// How long a bot of --bot may take to start (answer `hello`), in milliseconds, within
    /// its turn's --bot-ms.
    #[arg(long, default_value_t = 5000, value_name = "MS")]
    bot_start_ms: u64,
    /// A tile set file (tilesets/README.md), or a folder whose `*.toml` files are tile sets,
    /// that rooms may use besides the built-in sets. Repeat for several. Every file is
    /// checked at start: one with a problem stops the server, with all its problems listed.
    #[arg(long = "tilesets", value_name = "PATH")]
    tilesets: Vec<PathBuf>,
}

/// The built-in sets and those of every `--tilesets` path.
fn library(paths: &[PathBuf]) -> Result<carcassonne_rooms::Library, String> {
    let mut library = carcassonne_rooms::Library::builtin();
    for path in paths {
        library
            .add_path(path)
            .map_err(|error| format!("--tilesets {}: {error}", path.display()))?;
    }
    Ok(library)
}

/// The profiles of `--bot NAME=COMMAND`, each taking at most `move_ms` a turn and `start_ms`
/// of it to start.
fn external_bots(
    bots: &[String],
    move_ms: u64,
    start_ms: u64,
) -> Result<Vec<carcassonne_bots::Profile>, String> {
    if !(1..=3_600_000).contains(&move_ms) || !(1..=3_600_000).contains(&start_ms) {
        return Err("--bot-ms and --bot-start-ms are from 1 to 3600000".to_owned());
    }
    let mut profiles: Vec<carcassonne_bots::Profile> = Vec::new();
    for bot in bots {
        let mut profile = carcassonne_bots::Profile::from_bot_argument(bot, move_ms)?;
        if let carcassonne_bots::BotKind::External(config) = &mut profile.kind {
            config.start_ms = start_ms;
        }
        let name = profile.name.as_str();
        if !carcassonne_server::is_bot_name(name) {
            return Err(format!(
                "--bot {name}: a name is 1 to 64 letters, digits, `-`, `_` or `.`"
            ));
        }
        if carcassonne_bots::Profile::builtin(name).is_ok() {
            return Err(format!("--bot {name}: `{name}` is a built-in bot's name"));
        }
        if profiles.iter().any(|profile| profile.name == name) {
            return Err(format!("--bot {name}: two bots are named `{name}`"));
        }
        profiles.push(profile);
    }
    Ok(profiles)
}

fn seconds(name: &str, value: f64) -> Result<Duration, String> {
    if value.is_finite() && (0.0..=86_400.0).contains(&value) {
        Ok(Duration::from_secs_f64(value))
    } else {
        Err(format!("--{name} is between 0 and 86400 seconds, not {value}"))
    }
}

fn at_least_one(name: &str, value: usize) -> Result<usize, String> {
    if value == 0 { Err(format!("--{name} is at least 1")) } else { Ok(value) }
}

/// An origin as browsers send it: a scheme and a host, with a port if any, nothing after.
fn checked_origin(origin: &str) -> Result<String, String> {
    let origin = origin.trim_end_matches('/');
    let host = origin.strip_prefix("https://").or_else(|| origin.strip_prefix("http://"));
    match host {
        Some(host) if !host.is_empty() && !host.contains(['/', '?', '#', ' ']) => {
            Ok(origin.to_owned())
        }
        _ => Err(format!(
            "--allow-origin takes an origin such as https://games.example.org, not {origin}"
        )),
    }
}

/// A host name as `Host` carries it, without a scheme, path or port.
fn checked_host(host: &str) -> Result<String, String> {
    let valid = !host.is_empty()
        && host.len() <= 253
        && host.bytes().all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'-'));
    if valid {
        Ok(host.to_ascii_lowercase())
    } else {
        Err(format!("--host takes a host name such as games.example.org, not {host}"))
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    let config = (|| {
        Ok::<_, String>(carcassonne_server::Config {
            addr: args.addr,
            db: (args.db.as_os_str() != ":memory:").then(|| args.db.clone()),
            bot_delay: seconds("bot-delay", args.bot_delay)?,
            figure_grace: seconds("figure-grace", args.figure_grace)?,
            absent_grace: seconds("absent-grace", args.absent_grace)?,
            session_timeout: seconds("session-timeout", args.session_timeout)?,
            allowed_origins: args
                .allow_origin
                .iter()
                .map(|origin| checked_origin(origin))
                .collect::<Result<_, _>>()?,
            limits: carcassonne_server::Limits {
                connections_per_address: at_least_one(
                    "connections-per-address",
                    args.connections_per_address,
                )?,
                rooms_per_address: at_least_one("rooms-per-address", args.rooms_per_address)?,
                sessions_per_address: at_least_one(
                    "sessions-per-address",
                    args.sessions_per_address,
                )?,
                ..carcassonne_server::Limits::default()
            },
            external_bots: external_bots(&args.bots, args.bot_ms, args.bot_start_ms)?,
            allowed_hosts: args
                .hosts
                .iter()
                .map(|host| checked_host(host))
                .collect::<Result<_, _>>()?,
            library: std::sync::Arc::new(library(&args.tilesets)?),
            ..carcassonne_server::Config::default()
        })
    })();
    let config = match config {
        Ok(config) => config,
        Err(message) => {
            eprintln!("carcassonne-server: {message}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("carcassonne-server: {error}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        let listener = match tokio::net::TcpListener::bind(config.addr).await {
            Ok(listener) => listener,
            Err(error) => {
                eprintln!("carcassonne-server: cannot listen on {}: {error}", config.addr);
                return ExitCode::FAILURE;
            }
        };
        let address =
            listener.local_addr().map_or_else(|_| config.addr.to_string(), |a| a.to_string());
        let stored = config
            .db
            .as_ref()
            .map_or_else(|| "in memory".to_owned(), |path| path.display().to_string());
        tracing::info!(
            "serving http://{address}/ (WebSocket at ws://{address}/ws), games {stored}"
        );
        let added: Vec<&str> = config
            .library
            .sets()
            .map(|set| set.info().id.as_str())
            .filter(|id| !config.library.is_builtin(id))
            .collect();
        if !added.is_empty() {
            tracing::info!("tile sets from files: {}", added.join(", "));
        }
        let ctrl_c = async {
            let _ = tokio::signal::ctrl_c().await;
            tracing::info!("stopping (every game is stored)");
        };
        match carcassonne_server::serve(config, listener, ctrl_c).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("carcassonne-server: {error}");
                ExitCode::FAILURE
            }
        }
    })
}
