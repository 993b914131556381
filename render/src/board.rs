//! A whole board: the tiles as they lie, the figures in their players' colours, the last
//! move marked, a score panel, and optional overlays (shaded cells, a suggested move).

use std::collections::BTreeMap;

use carcassonne::{
    Action, Figure, Game, Landscape, LandscapeError, LandscapeOptions, MarkInfo, PlayerId, Pos,
    Rotation, SegmentIndex, SegmentKind, TileIndex, TileType,
};

use crate::anchor::anchor_points;
use crate::figure::{Pose, draw_figure, draw_flock, player_fill};
use crate::geom::{Pt, pt};
use crate::layout::{Layout, layout};
use crate::style::TILE;
use crate::svg::{escape, num, open_document, push};
use crate::tile::{Fields, draw_face};

/// Space round the board, in pixels.
const MARGIN: f64 = 24.0;
/// Width of the score panel, in pixels.
const PANEL: f64 = 250.0;
/// Height of one player's line in the panel, in pixels.
const LINE: f64 = 46.0;

/// What to draw besides the tiles and figures.
///
/// Made with `default` and changed with its `with_` methods or by assigning fields: it is
/// `#[non_exhaustive]`, so an option added in a later release breaks no caller.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
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

impl BoardOptions {
    /// Sets [`score_panel`](Self::score_panel), for chaining.
    #[must_use]
    pub fn with_score_panel(mut self, score_panel: bool) -> BoardOptions {
        self.score_panel = score_panel;
        self
    }

    /// Sets [`last_move`](Self::last_move), for chaining.
    #[must_use]
    pub fn with_last_move(mut self, last_move: bool) -> BoardOptions {
        self.last_move = last_move;
        self
    }

    /// Sets [`overlay`](Self::overlay), for chaining.
    #[must_use]
    pub fn with_overlay(mut self, overlay: Overlay) -> BoardOptions {
        self.overlay = overlay;
        self
    }
}

/// Marks drawn over a board: an analysis shows its candidate cells and its best move.
///
/// Made with `default` or [`Overlay::heat_map`] and changed with its `with_` methods or by
/// assigning fields: it is `#[non_exhaustive]`, so an option added in a later release breaks no
/// caller.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Overlay {
    /// Cells shaded by value, each with an optional label.
    pub cells: Vec<ShadedCell>,
    /// A move drawn in: the tile shown where it would go, outlined.
    pub suggestion: Option<Suggestion>,
    /// The move played there, drawn in the same way with a dashed outline of its own (a
    /// review shows it beside the best one).
    pub played: Option<Suggestion>,
}

impl Overlay {
    /// An analysis's heat map: each cell of `candidates` (a cell and a value, such as a
    /// move's expected margin; a cell may come more than once) shaded by the best value there,
    /// from red at the lowest to green at the highest, labelled with it; `best` and `played`
    /// drawn in.
    #[must_use]
    pub fn heat_map(
        candidates: impl IntoIterator<Item = (Pos, f64)>,
        best: Option<Suggestion>,
        played: Option<Suggestion>,
    ) -> Overlay {
        let mut best_at: Vec<(Pos, f64)> = Vec::new();
        for (pos, value) in candidates {
            match best_at.iter_mut().find(|(at, _)| *at == pos) {
                Some((_, best)) => *best = best.max(value),
                None => best_at.push((pos, value)),
            }
        }
        let low = best_at.iter().map(|(_, value)| *value).fold(f64::INFINITY, f64::min);
        let high = best_at.iter().map(|(_, value)| *value).fold(f64::NEG_INFINITY, f64::max);
        let spread = (high - low).max(1e-9);
        let cells = best_at
            .iter()
            .map(|(pos, value)| ShadedCell {
                pos: *pos,
                value: (value - low) / spread,
                label: Some(format!("{value:+.1}")),
            })
            .collect();
        Overlay { cells, suggestion: best, played }
    }
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

impl Suggestion {
    /// A turn's move as actions (its placement and the figure action after it) of a tile
    /// `tile`, as the board draws it in; None when `place` is no placement.
    #[must_use]
    pub fn of_move(tile: TileIndex, place: Option<Action>, figure: Action) -> Option<Suggestion> {
        match place {
            Some(Action::Place { pos, rotation }) => Some(Suggestion {
                pos,
                tile,
                rotation,
                figure: match figure {
                    Action::Deploy { segment, figure } => Some((segment, figure)),
                    _ => None,
                },
            }),
            _ => None,
        }
    }
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
    let tiles = game
        .board()
        .tiles()
        .filter_map(|(pos, placed)| {
            Some((pos, (game.tile(placed.tile)?, game.marks()), placed.rotation))
        })
        .collect();
    let figures = game
        .figures()
        .map(|placed| Standing {
            pos: placed.pos,
            segment: placed.segment,
            figure: placed.figure,
            fill: player_fill(game.player_colour(placed.player), placed.player.index()),
            flock: game
                .hoards()
                .iter()
                .find(|hoard| hoard.pos == placed.pos && hoard.segment == placed.segment)
                .map(|hoard| hoard.worth(game.bag_kinds())),
        })
        .collect();
    let last = (options.last_move && game.board().len() > 1)
        .then(|| game.placements().last().map(|(pos, _)| *pos))
        .flatten();
    let leaders = game.leaders();
    let players = (0..game.players())
        .map(|seat| {
            let player = PlayerId(seat);
            let marker = if game.is_over() {
                if leaders.contains(player) { " \u{2605}" } else { "" }
            } else if game.current_player() == player {
                " \u{25c0}"
            } else {
                ""
            };
            let supply = game.supply(player);
            let mut figures = format!("followers {}", supply.count(Figure::FOLLOWER));
            // The big follower and abbot as before; the companions have no room here; an
            // author's own figures by name.
            for (figure, count) in supply.iter() {
                let short = match figure {
                    Figure::BIG_FOLLOWER => String::from("big"),
                    Figure::ABBOT => String::from("abbot"),
                    other if Figure::PUBLISHED.contains(&other) => continue,
                    other => other.to_string(),
                };
                if count > 0 {
                    figures.push_str(&format!(", {short} {count}"));
                }
            }
            PanelRow {
                name: player_name(game.player_colour(player), seat),
                marker,
                fill: player_fill(game.player_colour(player), player.index()),
                score: game.scores().get(usize::from(seat)).copied().unwrap_or(0),
                detail: figures,
            }
        })
        .collect();
    let status = if game.is_over() {
        String::from("Game over")
    } else {
        format!("{} tiles left", game.tiles_left())
    };
    let drawn_in = |suggestion: Suggestion| {
        let player = game.current_player();
        let fill = player_fill(game.player_colour(player), player.index());
        Some((suggestion, (game.tile(suggestion.tile)?, game.marks()), fill))
    };
    let suggestion = options.overlay.suggestion.and_then(drawn_in);
    let played = options.overlay.played.and_then(drawn_in);
    let scene = Scene {
        tiles,
        figures,
        last,
        panel: options.score_panel.then_some(Panel { status, players }),
        shaded: &options.overlay.cells,
        suggestion,
        played,
    };
    draw_scene(&scene)
}

/// A landscape (tiles and figures laid out by hand, as `carcassonne score` reads them) as an
/// SVG document, with each player's points as the end of a game would score them under
/// `options` in the panel.
///
/// # Errors
/// Why the landscape cannot be scored: an unknown tile, tiles that do not fit, a figure
/// where none may stand.
///
/// ```
/// use carcassonne::{LandscapeDoc, LandscapeOptions};
/// let doc: LandscapeDoc = serde_json::from_str(r#"{"tiles": [
///     {"tile": "D", "x": 0, "y": 0}, {"tile": "E", "x": 0, "y": 1, "rotation": 180}],
///     "figures": [{"player": 1, "x": 0, "y": 1, "segment": 0}]}"#)?;
/// let landscape = doc.into_landscape(Vec::new())?;
/// let svg = carcassonne_render::landscape_svg(&landscape, &LandscapeOptions::default())?;
/// assert_eq!(svg.matches("class=\"tile\"").count(), 2);
/// assert!(svg.contains(">4</text>"), "the closed city is worth 4 to player 1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn landscape_svg(
    landscape: &Landscape,
    options: &LandscapeOptions,
) -> Result<String, LandscapeError> {
    let score = landscape.score(options)?;
    // The first set with a tile of an id has it, as scoring found it; its marks are
    // numbered as that set declares them.
    let mut by_id: BTreeMap<&str, Printed<'_>> = BTreeMap::new();
    for catalog in &landscape.catalogs {
        for tile in catalog.tiles() {
            by_id.entry(tile.id()).or_insert((tile, catalog.marks()));
        }
    }
    let tiles = landscape
        .tiles
        .iter()
        .filter_map(|listed| {
            Some((Pos::new(listed.x, listed.y), *by_id.get(listed.tile.as_str())?, listed.rotation))
        })
        .collect();
    let figures = landscape
        .figures
        .iter()
        .map(|figure| Standing {
            pos: Pos::new(figure.x, figure.y),
            segment: figure.segment,
            figure: figure.figure,
            fill: player_fill(None, figure.player.index()),
            flock: None,
        })
        .collect();
    let players = score
        .total
        .iter()
        .enumerate()
        .map(|(seat, points)| PanelRow {
            name: player_name(None, seat as u8),
            marker: "",
            fill: player_fill(None, seat),
            score: *points,
            detail: String::new(),
        })
        .collect();
    let scene = Scene {
        tiles,
        figures,
        last: None,
        panel: Some(Panel { status: String::from("Landscape"), players }),
        shaded: &[],
        suggestion: None,
        played: None,
    };
    Ok(draw_scene(&scene))
}

/// A figure standing on a segment of the tile at a cell.
struct Standing {
    pos: Pos,
    segment: SegmentIndex,
    figure: Figure,
    fill: &'static str,
    /// A shepherd's flock: the sheep its tokens show.
    flock: Option<u32>,
}

/// One player's line in the panel.
struct PanelRow {
    name: String,
    marker: &'static str,
    fill: &'static str,
    score: u32,
    detail: String,
}

struct Panel {
    status: String,
    players: Vec<PanelRow>,
}

/// Everything a board picture shows, from a game or a landscape.
struct Scene<'a> {
    tiles: Vec<(Pos, Printed<'a>, Rotation)>,
    figures: Vec<Standing>,
    last: Option<Pos>,
    panel: Option<Panel>,
    shaded: &'a [ShadedCell],
    suggestion: Option<(Suggestion, Printed<'a>, &'static str)>,
    played: Option<(Suggestion, Printed<'a>, &'static str)>,
}

/// A tile type with the declared marks its segments' mark numbers index.
type Printed<'a> = (&'a TileType, &'a [MarkInfo]);

fn player_name(colour: Option<&str>, seat: u8) -> String {
    match colour {
        Some(colour) => format!("Player {} ({colour})", u32::from(seat) + 1),
        None => format!("Player {}", u32::from(seat) + 1),
    }
}

fn draw_scene(scene: &Scene<'_>) -> String {
    let mut cells: Vec<Pos> = scene.tiles.iter().map(|(pos, _, _)| *pos).collect();
    cells.extend(scene.shaded.iter().map(|cell| cell.pos));
    cells.extend(scene.suggestion.iter().map(|(suggestion, _, _)| suggestion.pos));
    cells.extend(scene.played.iter().map(|(played, _, _)| played.pos));
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
    let players = scene.panel.as_ref().map_or(0, |panel| panel.players.len()) as f64;
    let panel = if scene.panel.is_some() { PANEL + MARGIN } else { 0.0 };
    let width = 2.0 * MARGIN + columns * TILE + panel;
    let height = (2.0 * MARGIN + rows * TILE).max(2.0 * MARGIN + 110.0 + players * LINE);

    let mut out = String::new();
    open_document(&mut out, width, height);
    push(
        &mut out,
        format_args!(
            "<defs><clipPath id=\"tile-clip\"><rect width=\"{t}\" height=\"{t}\"/></clipPath></defs>\n\
             <rect width=\"100%\" height=\"100%\" fill=\"#3c4a3a\"/>\n",
            t = num(TILE)
        ),
    );

    let mut layouts = Layouts::default();
    // Which tile lies at each cell, for the figures.
    let mut at_cell: BTreeMap<Pos, (Printed<'_>, Rotation)> = BTreeMap::new();
    for (pos, printed, rotation) in &scene.tiles {
        let tile = printed.0;
        at_cell.insert(*pos, (*printed, *rotation));
        let at = corner(*pos);
        push(
            &mut out,
            format_args!(
                "<g class=\"tile\" transform=\"translate({},{})\"><title>{} at ({}, {}) turned {}</title>\n",
                num(at.x),
                num(at.y),
                escape(tile.id()),
                pos.x,
                pos.y,
                rotation
            ),
        );
        draw_face(&mut out, &layouts.get(*printed, *rotation).0, Fields::Alike);
        out.push_str("</g>\n");
    }

    for cell in scene.shaded {
        draw_shade(&mut out, corner(cell.pos), cell);
    }

    if let Some(pos) = scene.last {
        let at = corner(pos);
        outline(&mut out, at, "last-move", "#fff36b\" stroke-dasharray=\"14 7", 5.0);
    }

    for standing in &scene.figures {
        let Some((printed, rotation)) = at_cell.get(&standing.pos) else { continue };
        let tile = printed.0;
        let (_, anchors) = layouts.get(*printed, *rotation);
        let Some(anchor) = anchors.get(usize::from(standing.segment)) else { continue };
        let at = corner(standing.pos);
        let centre = pt(at.x + anchor.x * TILE, at.y + anchor.y * TILE);
        draw_figure(&mut out, standing.figure, pose(tile, standing.segment), centre, standing.fill);
        if let Some(sheep) = standing.flock {
            draw_flock(&mut out, centre, sheep);
        }
    }

    // The move played first, so that the best one, where they share a cell, is drawn over it;
    // the played one's outline last, inside the cell, so that both outlines show.
    if let Some((played, printed, fill)) = &scene.played {
        let at = corner(played.pos);
        draw_suggestion(&mut out, &mut layouts, at, played, *printed, fill, Marked::Played);
    }
    if let Some((suggestion, printed, fill)) = &scene.suggestion {
        let at = corner(suggestion.pos);
        draw_suggestion(&mut out, &mut layouts, at, suggestion, *printed, fill, Marked::Best);
    }
    if let Some((played, _, _)) = &scene.played {
        let at = corner(played.pos);
        push(
            &mut out,
            format_args!(
                "<rect class=\"played-outline\" x=\"{}\" y=\"{}\" width=\"{t}\" height=\"{t}\" \
                 fill=\"none\" stroke=\"#ff3df2\" stroke-width=\"5\" stroke-dasharray=\"10 6\"/>\n",
                num(at.x + 9.5),
                num(at.y + 9.5),
                t = num(TILE - 19.0)
            ),
        );
    }

    if let Some(panel) = &scene.panel {
        draw_panel(&mut out, panel, MARGIN + columns * TILE + MARGIN);
    }
    out.push_str("</svg>\n");
    out
}

/// A frame of `width` pixels just inside the cell whose corner is `at`; `stroke` is the
/// colour, and may carry further attributes.
fn outline(out: &mut String, at: Pt, class: &str, stroke: &str, width: f64) {
    push(
        out,
        format_args!(
            "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{t}\" height=\"{t}\" \
             fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{}\"/>\n",
            num(at.x + width / 2.0),
            num(at.y + width / 2.0),
            num(width),
            t = num(TILE - width)
        ),
    );
}

/// Lying in a field, standing elsewhere.
fn pose(tile: &TileType, segment: SegmentIndex) -> Pose {
    let kind = tile.segments().get(usize::from(segment)).map(|segment| segment.kind());
    if kind == Some(SegmentKind::Field) { Pose::Lying } else { Pose::Standing }
}

/// Tile layouts and anchors by tile type and rotation, worked out once a picture: the search
/// for room is made once a tile type, and each rotation turns its result. A tile type is
/// known by its address: every tile of a picture comes from the same sets.
#[derive(Default)]
struct Layouts {
    flat: BTreeMap<*const TileType, (Layout, Vec<Pt>)>,
    turned: BTreeMap<(*const TileType, usize), (Layout, Vec<Pt>)>,
}

impl Layouts {
    fn get(&mut self, (tile, marks): Printed<'_>, rotation: Rotation) -> &(Layout, Vec<Pt>) {
        let turns = rotation.quarter_turns();
        let key = core::ptr::from_ref(tile);
        let flat = &mut self.flat;
        self.turned.entry((key, turns)).or_insert_with(|| {
            let (layout, anchors) = flat.entry(key).or_insert_with(|| {
                let layout = layout(tile, marks);
                let anchors = anchor_points(tile, &layout);
                (layout, anchors)
            });
            (layout.turned(turns), anchors.iter().map(|p| p.turned(turns)).collect())
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

/// Which move an overlay draws in: the best one (solid cyan) or the one played (dashed
/// magenta, its outline inside the cell's so that both show where they coincide).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Marked {
    Best,
    Played,
}

/// A suggested (or played) tile drawn at its cell, a little see-through, outlined, with its figure.
fn draw_suggestion(
    out: &mut String,
    layouts: &mut Layouts,
    at: Pt,
    suggestion: &Suggestion,
    printed: Printed<'_>,
    fill: &str,
    marked: Marked,
) {
    let tile = printed.0;
    let (class, stroke) = match marked {
        Marked::Best => ("suggestion", "#00e5ff"),
        Marked::Played => ("played", "#ff3df2"),
    };
    push(
        out,
        format_args!(
            "<g class=\"{class}\" transform=\"translate({},{})\" opacity=\"0.85\">\n",
            num(at.x),
            num(at.y)
        ),
    );
    let (layout, anchors) = layouts.get(printed, suggestion.rotation);
    draw_face(out, layout, Fields::Alike);
    let anchor = suggestion.figure.and_then(|(segment, figure)| {
        anchors.get(usize::from(segment)).map(|anchor| (*anchor, segment, figure))
    });
    out.push_str("</g>\n");
    // The played move's outline is drawn after both moves (see `draw_scene`).
    if marked == Marked::Best {
        outline(out, at, "suggestion-outline", stroke, 6.0);
    }
    if let Some((anchor, segment, figure)) = anchor {
        let centre = pt(at.x + anchor.x * TILE, at.y + anchor.y * TILE);
        push(
            out,
            format_args!(
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"3\"/>\n",
                num(centre.x),
                num(centre.y),
                num(TILE * 0.13)
            ),
        );
        draw_figure(out, figure, pose(tile, segment), centre, fill);
    }
}

/// Scores, figures in supply, tiles left and whose turn it is (or who won).
fn draw_panel(out: &mut String, panel: &Panel, left: f64) {
    push(
        out,
        format_args!(
            "<g class=\"score-panel\" transform=\"translate({},{})\">\n\
             <rect width=\"{}\" height=\"{}\" rx=\"10\" fill=\"#f7f5ef\" stroke=\"#222\"/>\n",
            num(left),
            num(MARGIN),
            num(PANEL),
            num(90.0 + panel.players.len() as f64 * LINE)
        ),
    );
    push(
        out,
        format_args!(
            "<text x=\"16\" y=\"30\" font-size=\"18\" font-weight=\"bold\" fill=\"#222\">Scores</text>\n\
             <text x=\"{}\" y=\"30\" font-size=\"14\" text-anchor=\"end\" fill=\"#555\">{}</text>\n",
            num(PANEL - 16.0),
            escape(&panel.status)
        ),
    );
    for (seat, row) in panel.players.iter().enumerate() {
        let y = 52.0 + seat as f64 * LINE;
        push(
            out,
            format_args!(
                "<g class=\"player\" transform=\"translate(16,{})\">\
                 <rect width=\"22\" height=\"22\" rx=\"4\" fill=\"{}\" stroke=\"#222\"/>\
                 <text x=\"32\" y=\"16\" font-size=\"14\" fill=\"#222\">{}{}</text>\
                 <text x=\"{}\" y=\"17\" font-size=\"20\" font-weight=\"bold\" text-anchor=\"end\" fill=\"#222\">{}</text>\
                 <text x=\"32\" y=\"34\" font-size=\"11.5\" fill=\"#555\">{}</text></g>\n",
                num(y),
                row.fill,
                escape(&row.name),
                row.marker,
                num(PANEL - 32.0),
                row.score,
                escape(&row.detail)
            ),
        );
    }
    out.push_str("</g>\n");
}
