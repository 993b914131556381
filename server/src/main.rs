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
    /// Seconds of inactivity that end a session.
    #[arg(long, default_value_t = 300.0, value_name = "SECONDS")]
    session_timeout: f64,
}

fn seconds(name: &str, value: f64) -> Result<Duration, String> {
    if value.is_finite() && (0.0..=86_400.0).contains(&value) {
        Ok(Duration::from_secs_f64(value))
    } else {
        Err(format!("--{name} is between 0 and 86400 seconds, not {value}"))
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let config = (|| {
        Ok::<_, String>(carcassonne_server::Config {
            addr: args.addr,
            db: (args.db.as_os_str() != ":memory:").then(|| args.db.clone()),
            bot_delay: seconds("bot-delay", args.bot_delay)?,
            figure_grace: seconds("figure-grace", args.figure_grace)?,
            absent_grace: seconds("absent-grace", args.absent_grace)?,
            session_timeout: seconds("session-timeout", args.session_timeout)?,
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
        eprintln!(
            "carcassonne-server: http://{address}/ (WebSocket at ws://{address}/ws), games {stored}"
        );
        let ctrl_c = async {
            let _ = tokio::signal::ctrl_c().await;
            eprintln!("carcassonne-server: stopping (every game is stored)");
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
