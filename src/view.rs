//! What a player may know of a game: everything on the table, nothing of the bag's order.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use crate::action::Phase;
use crate::event::PointsByKind;
use crate::game::{Game, PlacedFigure};
use crate::geom::Rotation;
use crate::hoard::BagContents;
use crate::player::{PlayerId, Supply};
use crate::pos::Pos;
use crate::setup::RuleOptions;
use crate::tile::TileIndex;

/// A figure on the board that draws from a bag, with the tokens it keeps (a shepherd and its
/// flock).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct HoardOnBoard {
    /// Whose figure.
    pub player: PlayerId,
    /// Its cell.
    pub pos: Pos,
    /// Its segment.
    pub segment: crate::segment::SegmentIndex,
    /// The id of the bag it draws from.
    pub bag: String,
    /// What its tokens are worth together (the sheep of a flock).
    pub worth: u32,
    /// The tokens it keeps, by id, every kind of its bag listed.
    pub tokens: BagContents,
}

/// Two occupied, unfinished rivals beside each other, under a declared rivalry (The Cult: a
/// shrine with a heretic beside a monastery with a monk): whichever is completed first scores,
/// and the other's figures go home with nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[non_exhaustive]
pub struct Challenge {
    /// The rivalry, by its number in [`Game::rules`].
    pub rule: crate::rulebook::RuleId,
    /// The cell of the feature carrying the rivalry's marks (the shrine).
    pub marked: Pos,
    /// Whose figure stands there.
    pub marked_player: PlayerId,
    /// The cell of the other (the monastery).
    pub plain: Pos,
    /// Whose figure stands there.
    pub plain_player: PlayerId,
}

/// A tile on the board as everyone sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[non_exhaustive]
pub struct TileOnBoard {
    /// Its cell.
    pub pos: Pos,
    /// Its type, an index into [`Game::tiles`].
    pub tile: TileIndex,
    /// How it is turned.
    pub rotation: Rotation,
}

/// What every player (and a spectator) may know of a game: the rules, the board, the figures,
/// the scores and supplies, the turn and the drawn tile, and how many of each tile type the
/// bag still holds, but neither the bag's order nor the seed that decides it.
///
/// Carcassonne has no private hands, so every seat sees the same; a server, a bot or a
/// learning agent given a view (or a [reshuffled](Game::reshuffled) copy) cannot peek at the
/// draws to come. Two games that differ only in the bag's order have equal views.
///
/// ```
/// use carcassonne::{Catalog, Game, GameSetup};
/// let game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 2))?;
/// let view = game.view();
/// assert_eq!(view.tiles.len(), 1); // the start tile
/// assert_eq!(view, game.reshuffled(99).view());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PlayerView {
    /// The tile sets in play, by id.
    pub sets: Vec<String>,
    /// The rule options.
    pub options: RuleOptions,
    /// How many players.
    pub players: u8,
    /// Where the turn cycle stands (with the drawn tile while it waits to be placed, and the
    /// placed tile's cell while its player chooses a figure action).
    pub phase: Phase,
    /// Whose turn it is.
    pub current_player: PlayerId,
    /// Every tile on the board, in placement order (the start tile first).
    pub tiles: Vec<TileOnBoard>,
    /// Every figure on the board.
    pub figures: Vec<PlacedFigure>,
    /// Scores, by seat.
    pub scores: Vec<u32>,
    /// Points by feature kind, by seat.
    pub points_by_kind: Vec<PointsByKind>,
    /// Figures in hand, by seat.
    pub supplies: Vec<Supply>,
    /// Tokens held, by seat, each indexed as [`Game::tokens`]; empty lists when no set in
    /// play declares tokens.
    pub tokens: Vec<Vec<u32>>,
    /// Where each declared title stands, indexed as [`Game::titles`]: its holder, the largest
    /// feature of its kind completed so far, and how many; empty without titles.
    pub titles: Vec<crate::rulebook::TitleStanding>,
    /// The challenges standing between rival monasteries (The Cult), as
    /// [`Game::challenges`] lists them; empty without rivalries.
    pub challenges: Vec<Challenge>,
    /// Copies of each tile type still in the bag, indexed as [`Game::tiles`].
    pub remaining: Vec<u16>,
    /// Tiles still in the bag.
    pub tiles_left: u32,
    /// Tiles drawn that fitted nowhere and went out of the game.
    pub discarded: u32,
    /// Tiles hidden under hills (Hills & Sheep): among `remaining`, never drawn, never named.
    #[serde(skip_serializing_if = "crate::skip::is_default")]
    pub hidden_tiles: u32,
    /// What the game's bags hold, by token id: counts only, as their order is hidden; absent
    /// without a bag.
    #[serde(skip_serializing_if = "crate::skip::is_default")]
    pub bag: BagContents,
    /// The figures on the board that draw from a bag, with what they keep, in the order they
    /// were deployed (shepherds and their flocks).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hoards: Vec<HoardOnBoard>,
    /// Whether the current turn is a builder's second turn (which gives no third).
    #[serde(skip_serializing_if = "crate::skip::is_default")]
    pub second_turn: bool,
}

impl Game {
    /// What every player may know of the game now (see [`PlayerView`]).
    #[must_use]
    pub fn view(&self) -> PlayerView {
        let players = self.players();
        PlayerView {
            sets: self.catalogs().iter().map(|catalog| catalog.info().id.clone()).collect(),
            options: *self.options(),
            players,
            phase: self.phase(),
            current_player: self.current_player(),
            tiles: self
                .placements()
                .iter()
                .map(|(pos, tile)| TileOnBoard {
                    pos: *pos,
                    tile: *tile,
                    rotation: self.board().get(*pos).map_or(Rotation::R0, |placed| placed.rotation),
                })
                .collect(),
            figures: self.figures().collect(),
            scores: self.scores().to_vec(),
            points_by_kind: self.points_by_kind().to_vec(),
            supplies: (0..players).map(|player| self.supply(PlayerId(player))).collect(),
            tokens: (0..players).map(|player| self.tokens_held(PlayerId(player))).collect(),
            titles: (0..self.titles().len())
                .filter_map(|title| self.title_standing(crate::rulebook::TitleId(title as u8)))
                .collect(),
            challenges: self.challenges(),
            remaining: self.remaining().to_vec(),
            tiles_left: self.tiles_left(),
            discarded: self.discarded(),
            hidden_tiles: self.hidden_tiles(),
            bag: self.bag(),
            hoards: self
                .hoards()
                .iter()
                .map(|hoard| HoardOnBoard {
                    player: hoard.player,
                    pos: hoard.pos,
                    segment: hoard.segment,
                    bag: self
                        .bag_kinds()
                        .iter()
                        .find(|kind| kind.bag == hoard.bag)
                        .map(|kind| kind.bag_id.clone())
                        .unwrap_or_default(),
                    worth: hoard.worth(self.bag_kinds()),
                    tokens: hoard.contents(self.bag_kinds()),
                })
                .collect(),
            second_turn: self.is_second_turn(),
        }
    }
}
