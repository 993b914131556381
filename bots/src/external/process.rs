//! A bot's process: started with piped stdin and stdout, written to and read from by threads
//! of its own, so that a bot which stops reading or stops writing can never block the game.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender, TrySendError};
use std::time::Duration;
use web_time::Instant;

use super::ExternalConfig;

/// The longest line a bot may write; a longer one is garbage, and reading stops there, so a
/// bot that writes without end costs no more memory than this.
pub(crate) const MAX_LINE: usize = 64 * 1024;

/// The most lines a bot may have written that were not yet read (a bot writes one line a
/// request; more is noise between turns): past them, or past [`MAX_UNREAD_BYTES`], the bot is
/// flooding, reading stops, and its next answer is taken as garbage.
const MAX_UNREAD_LINES: usize = 16;

/// The most bytes of lines a bot may have written that were not yet read.
const MAX_UNREAD_BYTES: usize = 256 * 1024;

/// How long a bot whose stdin was closed may take to exit before it is killed.
const EXIT_GRACE: Duration = Duration::from_millis(200);

/// What came from the bot's stdout.
pub(crate) enum Received {
    /// A line, without its line break.
    Line(String),
    /// A line longer than [`MAX_LINE`], or not UTF-8, or more unread than the bounds allow.
    Unreadable(&'static str),
    /// Its stdout closed: it exited, or closed it.
    Closed,
    /// Nothing before the deadline.
    Timeout,
}

/// A running bot.
pub(crate) struct Process {
    child: Child,
    /// Lines to write; dropping it closes the bot's stdin once the writer is done.
    to_bot: Option<Sender<String>>,
    from_bot: Receiver<Received>,
    /// What the reader shares with [`Process::receive`]: the bytes written and not yet read,
    /// and whether the bot flooded.
    unread: Arc<Unread>,
    /// The exit status once the process is stopped and reaped; its id may then be anyone's.
    stopped: Option<Option<std::process::ExitStatus>>,
}

impl Process {
    /// Starts `config`'s command.
    pub(crate) fn start(config: &ExternalConfig) -> std::io::Result<Process> {
        let (program, arguments) = config
            .command
            .split_first()
            .ok_or_else(|| std::io::Error::other("the command is empty"))?;
        let mut command = Command::new(program);
        command
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if config.show_stderr { Stdio::inherit() } else { Stdio::null() });
        // Its own process group, so that killing it reaches whatever it started (a shell's
        // interpreter, say), which would otherwise keep its stdout open.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn()?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(stdin), Some(stdout)) => (stdin, stdout),
            _ => {
                stop(&mut child);
                return Err(std::io::Error::other("the process's pipes did not open"));
            }
        };
        let (to_bot, lines) = mpsc::channel::<String>();
        std::thread::Builder::new().name("bot-writer".into()).spawn(move || {
            let mut stdin = stdin;
            for line in lines {
                if stdin.write_all(line.as_bytes()).and_then(|()| stdin.flush()).is_err() {
                    return;
                }
            }
        })?;
        let (sender, from_bot) = mpsc::sync_channel(MAX_UNREAD_LINES);
        let unread = Arc::new(Unread::default());
        let shared = Arc::clone(&unread);
        std::thread::Builder::new()
            .name("bot-reader".into())
            .spawn(move || read_lines(stdout, &sender, &shared))?;
        Ok(Process { child, to_bot: Some(to_bot), from_bot, unread, stopped: None })
    }

    /// Queues `line` (with its line break) for the bot; false when the writer has stopped
    /// (the bot closed its stdin or exited).
    pub(crate) fn send(&self, line: String) -> bool {
        self.to_bot.as_ref().is_some_and(|to_bot| to_bot.send(line).is_ok())
    }

    /// The bot's next line, or why there is none by `deadline`.
    pub(crate) fn receive(&self, deadline: Instant) -> Received {
        if self.unread.flooded.load(Ordering::Acquire) {
            return Received::Unreadable("more lines than it was asked for (a flood)");
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.from_bot.recv_timeout(wait) {
            Ok(received) => {
                if let Received::Line(line) = &received {
                    self.unread.bytes.fetch_sub(line.len(), Ordering::AcqRel);
                }
                received
            }
            Err(RecvTimeoutError::Timeout) => Received::Timeout,
            Err(RecvTimeoutError::Disconnected) => Received::Closed,
        }
    }

    /// How the process ended, in words, waiting a moment for it to exit; one that has only
    /// closed its stdout is stopped. Either way it is gone afterwards.
    pub(crate) fn ending(&mut self) -> String {
        let exited = self.stopped.is_some() || wait_for_exit(&mut self.child, EXIT_GRACE);
        match self.stop() {
            Some(status) if exited => format!("it exited ({status})"),
            _ => "it closed its stdout and was stopped".to_owned(),
        }
    }
}

impl Drop for Process {
    /// Closes the bot's stdin, which tells it to exit; stops it (and its process group) if it
    /// has not within a moment.
    fn drop(&mut self) {
        self.to_bot = None;
        if self.stopped.is_none() {
            wait_for_exit(&mut self.child, EXIT_GRACE);
        }
        self.stop();
    }
}

impl Process {
    /// Stops the process once (see [`stop`]); its exit status.
    fn stop(&mut self) -> Option<std::process::ExitStatus> {
        *self.stopped.get_or_insert_with(|| stop(&mut self.child))
    }
}

/// Whether the process exits within `grace`, without reaping it: its id, which is also its
/// group's, stays its own until [`stop`] has signalled the group.
fn wait_for_exit(child: &mut Child, grace: Duration) -> bool {
    let deadline = Instant::now() + grace;
    loop {
        if has_exited(child) {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[cfg(unix)]
fn has_exited(child: &mut Child) -> bool {
    use rustix::process::{Pid, WaitId, WaitIdOptions, waitid};
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
    !matches!(waitid(WaitId::Pid(Pid::from_child(child)), options), Ok(None))
}

#[cfg(not(unix))]
fn has_exited(child: &mut Child) -> bool {
    !matches!(child.try_wait(), Ok(None))
}

/// Kills the process and what is left of its group (what it started), then reaps it; its
/// exit status, if it could be read.
fn stop(child: &mut Child) -> Option<std::process::ExitStatus> {
    // Signalled before the reaping, while the group's id cannot belong to anyone else.
    #[cfg(unix)]
    {
        let group = rustix::process::Pid::from_child(child);
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    }
    let _ = child.kill();
    child.wait().ok()
}

/// What a bot wrote and nobody has read yet.
#[derive(Default)]
struct Unread {
    bytes: AtomicUsize,
    flooded: AtomicBool,
}

/// Reads `stdout` line by line into `sender` until it closes, a line is unreadable, nobody
/// listens, or more is unread than [`MAX_UNREAD_LINES`] or [`MAX_UNREAD_BYTES`] (a flood:
/// reading stops, so what the bot writes next blocks it or breaks its pipe, and costs this
/// process nothing).
fn read_lines(stdout: impl Read, sender: &SyncSender<Received>, unread: &Unread) {
    let mut reader = BufReader::new(stdout);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        let limit = MAX_LINE as u64 + 1;
        let received = match (&mut reader).take(limit).read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => Received::Closed,
            Ok(_) if buffer.last() != Some(&b'\n') && buffer.len() > MAX_LINE => {
                Received::Unreadable("a line longer than 64 KiB")
            }
            Ok(_) => {
                if buffer.last() == Some(&b'\n') {
                    buffer.pop();
                }
                if buffer.last() == Some(&b'\r') {
                    buffer.pop();
                }
                match String::from_utf8(std::mem::take(&mut buffer)) {
                    Ok(line) => Received::Line(line),
                    Err(_) => Received::Unreadable("a line that is not UTF-8"),
                }
            }
        };
        let stop = !matches!(received, Received::Line(_));
        let bytes = match &received {
            Received::Line(line) => line.len(),
            _ => 0,
        };
        let before = unread.bytes.fetch_add(bytes, Ordering::AcqRel);
        if before + bytes > MAX_UNREAD_BYTES {
            unread.flooded.store(true, Ordering::Release);
            return;
        }
        match sender.try_send(received) {
            Ok(()) if !stop => {}
            Ok(()) | Err(TrySendError::Disconnected(_)) => return,
            Err(TrySendError::Full(_)) => {
                unread.flooded.store(true, Ordering::Release);
                return;
            }
        }
    }
}
