//! A whole board: the tiles as they lie, the figures in their players' colours, the last
//! move marked, a score panel, and optional overlays (shaded cells, a suggested move).

use std::collections::BTreeMap;

use carcassonne::{Figure, Game, PlayerId, Pos, Rotation, SegmentIndex, SegmentKind, TileIndex};

use crate::anchor::anchor_points;
use crate::figure::{Pose, draw_figure, player_fill};
use crate::geom::{Pt, pt};
use crate::layout::{Layout, layout};
use crate::style::TILE;
use crate::svg::{escape, num, push};
use crate::tile::{Fields, draw_face};

/// Space round the board, in pixels.
const MARGIN: f64 = 24.0;
/// Width of the score panel, in pixels.
const PANEL: f64 = 250.0;
/// Height of one player's line in the panel, in pixels.
const LINE: f64 = 46.0;

/// What to draw besides the tiles and figures.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardOptions {
    /// A panel beside the board with each player's score and figures in supply, the tiles
    /// left and whose turn it is.
    pub score_panel: bool,
    /// An outline round the tile placed last.
    pub last_move: bool,
    /// Shaded cells and a suggested move drawn over the board.
    pub overlay: Overlay,
}

impl Default for BoardOptions {
    fn default() -> BoardOptions {
        BoardOptions { score_panel: true, last_move: true, overlay: Overlay::default() }
    }
}

/// Marks drawn over a board: an analysis shows its candidate cells and its best move.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overlay {
    /// Cells shaded by value, each with an optional label.
    pub cells: Vec<ShadedCell>,
    /// A move drawn in: the tile shown where it would go, outlined.
    pub suggestion: Option<Suggestion>,
}

/// A cell shaded by a value: 0 is drawn red, 1 green, between them a blend; values outside
/// are clamped.
#[derive(Clone, Debug, PartialEq)]
pub struct ShadedCell {
    /// The cell.
    pub pos: Pos,
    /// From 0 (worst) to 1 (best).
    pub value: f64,
    /// Written in the cell, such as an expected margin.
    pub label: Option<String>,
}

/// A placement, and the figure with it, drawn over the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Suggestion {
    /// The cell.
    pub pos: Pos,
    /// The tile type, numbered as the game numbers them.
    pub tile: TileIndex,
    /// How the tile is turned.
    pub rotation: Rotation,
    /// The figure put on a segment of it, if any.
    pub figure: Option<(SegmentIndex, Figure)>,
}

/// The board of `game` as an SVG document.
///
/// ```
/// use carcassonne::{Action, Catalog, Game, GameSetup};
/// use carcassonne_render::{BoardOptions, board_svg};
/// let mut game = Game::new(GameSetup::new(vec![Catalog::builtin("base")?], 2))?;
/// for _ in 0..12 {
///     game.apply(game.legal_action(0).unwrap())?;
/// }
/// let svg = board_svg(&game, &BoardOptions::default());
/// assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
/// assert_eq!(svg.matches("class=\"tile\"").count(), game.board().len());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn board_svg(game: &Game, options: &BoardOptions) -> String {
    let mut cells: Vec<Pos> = game.board().tiles().map(|(pos, _)| pos).collect();
    cells.extend(options.overlay.cells.iter().map(|cell| cell.pos));
    cells.extend(options.overlay.suggestion.iter().map(|suggestion| suggestion.pos));
    let min_x = cells.iter().map(|pos| pos.x).min().unwrap_or(0);
    let max_x = cells.iter().map(|pos| pos.x).max().unwrap_or(0);
    let min_y = cells.iter().map(|pos| pos.y).min().unwrap_or(0);
    let max_y = cells.iter().map(|pos| pos.y).max().unwrap_or(0);
    let columns = f64::from(i32::from(max_x) - i32::from(min_x) + 1);
    let rows = f64::from(i32::from(max_y) - i32::from(min_y) + 1);
    // North is up: the row of the largest y is drawn first.
    let corner = |pos: Pos| {
        pt(
            MARGIN + f64::from(i32::from(pos.x) - i32::from(min_x)) * TILE,
            MARGIN + f64::from(i32::from(max_y) - i32::from(pos.y)) * TILE,
        )
    };
    let panel = if options.score_panel { PANEL + MARGIN } else { 0.0 };
    let players = f64::from(game.players());
    let width = 2.0 * MARGIN + columns * TILE + panel;
    let height = (2.0 * MARGIN + rows * TILE).max(2.0 * MARGIN + 110.0 + players * LINE);

    let mut out = String::new();
    push(
        &mut out,
        format_args!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
             viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">\n",
            w = num(width),
            h = num(height)
        ),
    );
    push(
        &mut out,
        format_args!(
            "<defs><clipPath id=\"tile-clip\"><rect width=\"{t}\" height=\"{t}\"/></clipPath></defs>\n\
             <rect width=\"100%\" height=\"100%\" fill=\"#3c4a3a\"/>\n",
            t = num(TILE)
        ),
    );

    let mut layouts = Layouts::default();
    for (pos, placed) in game.board().tiles() {
        let Some(tile) = game.tile(placed.tile) else { continue };
        let at = corner(pos);
        push(
            &mut out,
            format_args!(
                "<g class=\"tile\" transform=\"translate({},{})\"><title>{} at ({}, {}) turned {}</title>\n",
                num(at.x),
                num(at.y),
                escape(tile.id()),
                pos.x,
                pos.y,
                placed.rotation
            ),
        );
        draw_face(&mut out, &layouts.get(game, placed.tile, placed.rotation).0, Fields::Alike);
        out.push_str("</g>\n");
    }

    for cell in &options.overlay.cells {
        draw_shade(&mut out, corner(cell.pos), cell);
    }

    if options.last_move
        && game.board().len() > 1
        && let Some((pos, _)) = game.placements().last()
    {
        let at = corner(*pos);
        push(
            &mut out,
            format_args!(
                "<rect class=\"last-move\" x=\"{}\" y=\"{}\" width=\"{t}\" height=\"{t}\" \
                     fill=\"none\" stroke=\"#fff36b\" stroke-width=\"5\" stroke-dasharray=\"14 7\"/>\n",
                num(at.x + 2.5),
                num(at.y + 2.5),
                t = num(TILE - 5.0)
            ),
        );
    }

    for placed in game.figures() {
        let Some(tile) = game.board().get(placed.pos) else { continue };
        let (_, anchors) = layouts.get(game, tile.tile, tile.rotation);
        let Some(anchor) = anchors.get(usize::from(placed.segment)) else { continue };
        let kind = game
            .tile(tile.tile)
            .and_then(|tile| tile.segments().get(usize::from(placed.segment)))
            .map(|segment| segment.kind());
        let pose = if kind == Some(SegmentKind::Field) { Pose::Lying } else { Pose::Standing };
        let at = corner(placed.pos);
        let fill = player_fill(game.player_colour(placed.player), placed.player.index());
        draw_figure(
            &mut out,
            placed.figure,
            pose,
            pt(at.x + anchor.x * TILE, at.y + anchor.y * TILE),
            fill,
        );
    }

    if let Some(suggestion) = &options.overlay.suggestion {
        draw_suggestion(&mut out, game, &mut layouts, corner(suggestion.pos), suggestion);
    }

    if options.score_panel {
        draw_panel(&mut out, game, MARGIN + columns * TILE + MARGIN);
    }
    out.push_str("</svg>\n");
    out
}

/// Tile layouts and anchors by tile type and rotation, worked out once a picture.
#[derive(Default)]
struct Layouts(BTreeMap<(TileIndex, usize), (Layout, Vec<Pt>)>);

impl Layouts {
    fn get(&mut self, game: &Game, tile: TileIndex, rotation: Rotation) -> &(Layout, Vec<Pt>) {
        let turns = rotation.quarter_turns();
        self.0.entry((tile, turns)).or_insert_with(|| match game.tile(tile) {
            Some(tile) => {
                let flat = layout(tile);
                let anchors = anchor_points(tile, &flat).iter().map(|p| p.turned(turns)).collect();
                (flat.turned(turns), anchors)
            }
            None => (Layout::empty(), Vec::new()),
        })
    }
}

/// A cell washed in its value's colour, with its label.
fn draw_shade(out: &mut String, at: Pt, cell: &ShadedCell) {
    let value = if cell.value.is_nan() { 0.0 } else { cell.value.clamp(0.0, 1.0) };
    // Red through amber to green.
    let red = (255.0 * (1.0 - value).min(0.5) * 2.0).round() as u8;
    let green = (200.0 * value.min(0.5) * 2.0).round() as u8;
    push(
        out,
        format_args!(
            "<rect class=\"shade\" x=\"{}\" y=\"{}\" width=\"{t}\" height=\"{t}\" \
             fill=\"#{red:02x}{green:02x}30\" fill-opacity=\"0.55\" stroke=\"#111\" stroke-opacity=\"0.4\"/>\n",
            num(at.x),
            num(at.y),
            t = num(TILE)
        ),
    );
    if let Some(label) = &cell.label {
        push(
            out,
            format_args!(
                "<text x=\"{}\" y=\"{}\" font-size=\"22\" font-weight=\"bold\" text-anchor=\"middle\" \
                 fill=\"#fff\" stroke=\"#000\" stroke-width=\"3\" paint-order=\"stroke\">{}</text>\n",
                num(at.x + TILE / 2.0),
                num(at.y + TILE / 2.0 + 8.0),
                escape(label)
            ),
        );
    }
}

/// The suggested tile drawn at its cell, a little see-through, outlined, with its figure.
fn draw_suggestion(
    out: &mut String,
    game: &Game,
    layouts: &mut Layouts,
    at: Pt,
    suggestion: &Suggestion,
) {
    push(
        out,
        format_args!(
            "<g class=\"suggestion\" transform=\"translate({},{})\" opacity=\"0.85\">\n",
            num(at.x),
            num(at.y)
        ),
    );
    let (layout, anchors) = layouts.get(game, suggestion.tile, suggestion.rotation);
    draw_face(out, layout, Fields::Alike);
    let anchor = suggestion.figure.and_then(|(segment, figure)| {
        anchors.get(usize::from(segment)).map(|anchor| (*anchor, segment, figure))
    });
    out.push_str("</g>\n");
    push(
        out,
        format_args!(
            "<rect class=\"suggestion-outline\" x=\"{}\" y=\"{}\" width=\"{t}\" height=\"{t}\" \
             fill=\"none\" stroke=\"#00e5ff\" stroke-width=\"6\"/>\n",
            num(at.x + 3.0),
            num(at.y + 3.0),
            t = num(TILE - 6.0)
        ),
    );
    if let Some((anchor, segment, figure)) = anchor {
        let kind = game
            .tile(suggestion.tile)
            .and_then(|tile| tile.segments().get(usize::from(segment)))
            .map(|segment| segment.kind());
        let pose = if kind == Some(SegmentKind::Field) { Pose::Lying } else { Pose::Standing };
        let player = game.current_player();
        let fill = player_fill(game.player_colour(player), player.index());
        let centre = pt(at.x + anchor.x * TILE, at.y + anchor.y * TILE);
        push(
            out,
            format_args!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"#00e5ff\" stroke-width=\"3\"/>\n",
                num(centre.x),
                num(centre.y),
                num(TILE * 0.13)
            ),
        );
        draw_figure(out, figure, pose, centre, fill);
    }
}

/// Scores, figures in supply, tiles left and whose turn it is (or who won).
fn draw_panel(out: &mut String, game: &Game, left: f64) {
    let top = MARGIN;
    push(
        out,
        format_args!(
            "<g class=\"score-panel\" transform=\"translate({},{})\">\n\
             <rect width=\"{}\" height=\"{}\" rx=\"10\" fill=\"#f7f5ef\" stroke=\"#222\"/>\n",
            num(left),
            num(top),
            num(PANEL),
            num(90.0 + f64::from(game.players()) * LINE)
        ),
    );
    let status = if game.is_over() {
        String::from("Game over")
    } else {
        format!("{} tiles left", game.tiles_left())
    };
    push(
        out,
        format_args!(
            "<text x=\"16\" y=\"30\" font-size=\"18\" font-weight=\"bold\" fill=\"#222\">Scores</text>\n\
             <text x=\"{}\" y=\"30\" font-size=\"14\" text-anchor=\"end\" fill=\"#555\">{}</text>\n",
            num(PANEL - 16.0),
            escape(&status)
        ),
    );
    let leaders = game.leaders();
    for seat in 0..game.players() {
        let player = PlayerId(seat);
        let y = 52.0 + f64::from(seat) * LINE;
        let fill = player_fill(game.player_colour(player), player.index());
        let name = game.player_colour(player).map_or_else(
            || format!("Player {}", seat + 1),
            |c| format!("Player {} ({c})", seat + 1),
        );
        let marker = if game.is_over() {
            if leaders.contains(player) { " \u{2605}" } else { "" }
        } else if game.current_player() == player {
            " \u{25c0}"
        } else {
            ""
        };
        let supply = game.supply(player);
        let mut figures = format!("followers {}", supply.followers);
        if supply.big_followers > 0 {
            figures.push_str(&format!(", big {}", supply.big_followers));
        }
        if supply.abbots > 0 {
            figures.push_str(&format!(", abbot {}", supply.abbots));
        }
        push(
            out,
            format_args!(
                "<g class=\"player\" transform=\"translate(16,{})\">\
                 <rect width=\"22\" height=\"22\" rx=\"4\" fill=\"{fill}\" stroke=\"#222\"/>\
                 <text x=\"32\" y=\"16\" font-size=\"14\" fill=\"#222\">{}{}</text>\
                 <text x=\"{}\" y=\"17\" font-size=\"20\" font-weight=\"bold\" text-anchor=\"end\" fill=\"#222\">{}</text>\
                 <text x=\"32\" y=\"34\" font-size=\"11.5\" fill=\"#555\">{}</text></g>\n",
                num(y),
                escape(&name),
                marker,
                num(PANEL - 32.0),
                game.scores().get(usize::from(seat)).copied().unwrap_or(0),
                escape(&figures)
            ),
        );
    }
    out.push_str("</g>\n");
}
