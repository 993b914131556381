//! A person's seat in `play --players human,...`: the board, the drawn tile turned each way,
//! numbered placements, then the figure choices named as a player says them, each answer
//! read from standard input; a bad answer is explained and asked again.

use std::fmt::Write as _;
use std::io::{BufRead, Write};

use carcassonne::{Action, Game, Phase, PlayerId, Rotation, TileType};

use crate::names;
use crate::play::{figure_on_tile, tile_id};
use crate::tileset::CommandError;

/// The longest answer read; a longer line is refused, not stored.
const MAX_ANSWER_BYTES: usize = 256;

/// Asks a person for each of their actions.
pub struct HumanSeat<R, W> {
    input: R,
    output: W,
}

impl<R: BufRead, W: Write> HumanSeat<R, W> {
    pub fn new(input: R, output: W) -> Self {
        HumanSeat { input, output }
    }

    /// Tells the person something (another player's move, a score).
    pub fn tell(&mut self, text: &str) -> Result<(), CommandError> {
        self.output
            .write_all(text.as_bytes())
            .and_then(|()| self.output.flush())
            .map_err(|error| format!("cannot write to the human player: {error}"))
    }

    /// The person's action in `game`, where it is their turn.
    pub fn choose(&mut self, game: &Game) -> Result<Action, CommandError> {
        let legal = game.legal_actions();
        match game.phase() {
            // The bag decides the tile or the flock's token; there is nothing to ask.
            Phase::Draw | Phase::Sheep { .. } => Ok(Action::Draw),
            Phase::Flock { .. } => {
                let mut text = String::from("your shepherd's field grew:\n");
                for (number, action) in legal.iter().enumerate() {
                    let _ = writeln!(text, "{:>6}. {action}", number + 1);
                }
                self.tell(&text)?;
                let number = self.ask("flock", 1, legal.len())?;
                Ok(legal[number - 1])
            }
            Phase::Place { tile } => {
                let mut text = String::new();
                let _ = writeln!(text, "\n{}", crate::play::board(game));
                let _ = writeln!(text, "scores: {}", scores(game));
                let _ = writeln!(
                    text,
                    "{}, you drew tile {} ({} left in the bag), shown turned each way:",
                    names::player(game, game.current_player()),
                    tile_id(game, tile),
                    game.tiles_left()
                );
                if let Some(tile_type) = game.tile(tile) {
                    text.push_str(&carcassonne_render::ascii::rotations(tile_type, game.marks()));
                }
                for (number, action) in legal.iter().enumerate() {
                    if let Action::Place { pos, rotation } = action {
                        let _ = writeln!(text, "{:>4}. at {pos} turned {rotation}", number + 1);
                    }
                }
                self.tell(&text)?;
                let number = self.ask("placement", 1, legal.len())?;
                Ok(legal[number - 1])
            }
            Phase::Figure { pos } => {
                // Skip is listed last; it is offered first, as 0.
                let choices: Vec<Action> =
                    legal.iter().copied().filter(|action| *action != Action::Skip).collect();
                if choices.is_empty() {
                    self.tell("no figure can go on this tile\n")?;
                    return Ok(Action::Skip);
                }
                let mut text = String::from("then:\n     0. no figure\n");
                let placed = names::placed(game, pos);
                for (number, action) in choices.iter().enumerate() {
                    let named = match placed {
                        Some((tile, rotation)) => choice(tile, rotation, *action),
                        None => action.to_string(),
                    };
                    let _ = writeln!(text, "{:>6}. {named}", number + 1);
                }
                self.tell(&text)?;
                let number = self.ask("figure", 0, choices.len())?;
                Ok(if number == 0 { Action::Skip } else { choices[number - 1] })
            }
            Phase::GameOver => Err("the game is over".to_owned()),
        }
    }

    /// A number from `low` to `high` read from the person, asking again until one comes.
    fn ask(&mut self, what: &str, low: usize, high: usize) -> Result<usize, CommandError> {
        loop {
            self.tell(&format!("{what} ({low} to {high}, q to stop): "))?;
            let Some(answer) = self.read_line()? else {
                return Err("standard input ended before the game did".to_owned());
            };
            let answer = answer.trim();
            match answer.parse::<usize>() {
                Ok(number) if (low..=high).contains(&number) => return Ok(number),
                _ if answer.eq_ignore_ascii_case("q") || answer.eq_ignore_ascii_case("quit") => {
                    return Err("the game was stopped by its human player".to_owned());
                }
                _ if answer.is_empty() => {}
                _ => {
                    let shown: String = answer.chars().take(40).collect();
                    self.tell(&format!("'{shown}' is not a number from {low} to {high}\n"))?;
                }
            }
        }
    }

    /// One line of input, at most [`MAX_ANSWER_BYTES`] of it kept; `None` at the end of input.
    fn read_line(&mut self) -> Result<Option<String>, CommandError> {
        let cannot = |error: std::io::Error| format!("cannot read standard input: {error}");
        let mut line = Vec::new();
        let mut over = false;
        loop {
            let buffer = self.input.fill_buf().map_err(cannot)?;
            if buffer.is_empty() {
                return Ok(
                    (!line.is_empty() || over).then(|| String::from_utf8_lossy(&line).into())
                );
            }
            let end = buffer.iter().position(|byte| *byte == b'\n');
            let taken = end.map_or(buffer.len(), |end| end + 1);
            let room = MAX_ANSWER_BYTES.saturating_sub(line.len());
            over |= taken > room;
            line.extend_from_slice(&buffer[..taken.min(room)]);
            self.input.consume(taken);
            if end.is_some() {
                // An overlong line is answered as a bad one, whatever it began with.
                return Ok(Some(if over {
                    "-".into()
                } else {
                    String::from_utf8_lossy(&line).into()
                }));
            }
        }
    }
}

/// A figure choice on `tile`, just placed turned by `rotation`, as the person reads it: "a
/// farmer on the field to the south, along the east half of the south side". No two choices
/// of one placement read the same.
fn choice(tile: &TileType, rotation: Rotation, action: Action) -> String {
    match action {
        Action::Deploy { segment, figure } => figure_on_tile(tile, rotation, figure, segment),
        Action::RecallAbbot { pos } => format!("recall your abbot from {pos}"),
        Action::Skip => "no figure".to_owned(),
        other => other.to_string(),
    }
}

/// "red 12, green 9".
fn scores(game: &Game) -> String {
    game.scores()
        .iter()
        .enumerate()
        .map(|(player, score)| format!("{} {score}", names::player(game, PlayerId(player as u8))))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use carcassonne::{Catalog, GameSetup};

    fn game() -> Game {
        let mut game =
            Game::new(GameSetup::new(vec![Catalog::builtin("base").unwrap()], 2)).unwrap();
        game.apply(Action::Draw).unwrap();
        game
    }

    #[test]
    fn bad_answers_are_explained_and_asked_again() {
        let game = game();
        let long = "9".repeat(10_000);
        let input = format!("\nxyz\n0\n{long}\n999\n2\n");
        let mut output = Vec::new();
        let action = HumanSeat::new(input.as_bytes(), &mut output).choose(&game).unwrap();
        assert_eq!(action, game.legal_actions()[1]);
        let said = String::from_utf8(output).unwrap();
        assert!(said.contains("you drew tile"), "{said}");
        assert!(said.contains("'xyz' is not a number from 1 to"), "{said}");
        assert!(said.contains("'0' is not a number"), "{said}");
        assert!(said.contains("'-' is not a number"), "an overlong line is refused: {said}");
        assert!(said.contains("'999' is not a number"), "{said}");
    }

    #[test]
    fn the_end_of_input_and_quitting_stop_the_game() {
        let game = game();
        let error = HumanSeat::new(&b"abc"[..], Vec::new()).choose(&game).unwrap_err();
        assert!(error.contains("standard input ended"), "{error}");
        let error = HumanSeat::new(&b"q\n"[..], Vec::new()).choose(&game).unwrap_err();
        assert!(error.contains("stopped by its human player"), "{error}");
    }

    /// Every figure choice a placement of any built-in tile at any rotation can offer (each
    /// figure on each segment, an abbot's recall, no figure) reads differently from the others,
    /// told apart by what a player sees, never by a segment's number.
    #[test]
    fn no_two_choices_of_a_placement_read_the_same() {
        use carcassonne::{BUILTIN_NAMES, Figure, Pos, SegmentIndex};
        for set in BUILTIN_NAMES {
            let catalog = Catalog::builtin(set).unwrap();
            for tile in catalog.tiles() {
                for rotation in Rotation::ALL {
                    let mut actions =
                        vec![Action::Skip, Action::RecallAbbot { pos: Pos::new(2, -1) }];
                    for segment in 0..tile.segments().len() as SegmentIndex {
                        for figure in Figure::PUBLISHED {
                            actions.push(Action::Deploy { segment, figure });
                        }
                    }
                    let read: Vec<String> =
                        actions.iter().map(|action| choice(tile, rotation, *action)).collect();
                    let mut distinct = read.clone();
                    distinct.sort();
                    distinct.dedup();
                    let at = format!("{set} {} {rotation}", tile.id());
                    assert_eq!(distinct.len(), read.len(), "{at}: {read:#?}");
                    assert!(read.iter().all(|text| !text.contains("segment")), "{at}: {read:#?}");
                }
            }
        }
    }

    #[test]
    fn figure_choices_are_named_with_no_figure_first() {
        let mut game = game();
        let place = game.legal_actions()[0];
        game.apply(place).unwrap();
        let mut output = Vec::new();
        let action = HumanSeat::new(&b"0\n"[..], &mut output).choose(&game).unwrap();
        assert_eq!(action, Action::Skip);
        let said = String::from_utf8(output).unwrap();
        assert!(said.contains("0. no figure"), "{said}");
        assert!(said.contains("1. a "), "figures are named: {said}");
    }
}
