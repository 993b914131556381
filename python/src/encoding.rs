//! The observation and action encoding for learning: the board as planes over a window that
//! follows the play area, a vector of what is not on the board, a flat action space and its
//! mask. `python/README.md` documents every plane and index.
//!
//! The window is square, `window` cells a side, centred on the start tile while the frontier
//! (where every legal placement lies) fits in it, else on the frontier's bounding box. By default it is as large as the deck can ever make
//! the frontier (`tiles + 3`: a line of every tile and a cell at each end), so no legal move
//! is ever outside it. A smaller window may be asked for; when the frontier outgrows it, the
//! window grows to fit, and the encoder says so (`grew`).

use carcassonne::{
    Action as CoreAction, Dir, EdgeKind, Figure, Game as CoreGame, Phase, PlayerId, Pos, Rotation,
    SegmentKind,
};

/// The smallest window side.
pub const MIN_SIDE: usize = 5;

/// Figure kinds a deployment names: one action slot per segment and figure.
const FIGURES: usize = FOLLOWERS.len();
/// The published followers, in their action slots' order. A figure no built-in set brings has
/// its slots in the declared figures' section, after every other.
const FOLLOWERS: [Figure; 3] = Figure::PUBLISHED_FOLLOWERS;
/// The special figures (builder, pig, shepherd): their deployments, planes and features come
/// after the published followers', and only in games whose sets bring them, so that every
/// other game encodes exactly as before they existed.
const SPECIALS: [Figure; 3] = Figure::PUBLISHED_COMPANIONS;
/// Features of the special figures shared by every player: the flock phase, a second turn,
/// the hidden tiles over the deck, the bags' kept tokens of each worth (the tokens of each
/// number of sheep; the last slot takes any worth beyond) and their tokens that send home
/// (the wolves).
const SPECIAL_SHARED: usize = 3 + BAG_WORTHS + 1;
/// The worths of kept tokens with a feature of their own.
const BAG_WORTHS: usize = 8;
/// Features of the special figures per player: builders, pigs, shepherds in hand, sheep in
/// their flocks.
const SPECIAL_PER_PLAYER: usize = 4;
/// Segments a tile may have.
const SEGMENTS: usize = carcassonne::MAX_SEGMENTS_PER_TILE;

/// The planes of a placed tile that depend only on its type and rotation.
mod plane {
    pub const TILE: usize = 0;
    /// City edge N, E, S, W.
    pub const CITY_EDGE: usize = 1;
    pub const ROAD_EDGE: usize = 5;
    pub const RIVER_EDGE: usize = 9;
    /// One city segment joins the pair of sides: NE, NS, NW, ES, EW, SW.
    pub const CITY_JOINS: usize = 13;
    pub const ROAD_JOINS: usize = 19;
    pub const PENNANT: usize = 25;
    pub const INN: usize = 26;
    pub const CATHEDRAL: usize = 27;
    pub const MONASTERY: usize = 28;
    pub const GARDEN: usize = 29;
    /// An empty cell next to a tile.
    pub const OPEN: usize = 30;
    /// What an open cell's neighbours ask of each side: city, road, field, river × N, E, S, W.
    pub const OPEN_NEEDS: usize = 31;
    /// The drawn tile fits the cell turned 0, 90, 180, 270 degrees.
    pub const FITS: usize = 47;
    /// The tile just placed, whose segments the figure actions name.
    pub const JUST_PLACED: usize = 51;
    /// Figures from here: per player, starting with the one observing, four planes each.
    pub const FIGURES: usize = 52;
    /// Per player: follower (not on a field), farmer, big follower, abbot.
    pub const PER_PLAYER: usize = 4;
}

const PAIRS: [(Dir, Dir); 6] = [
    (Dir::N, Dir::E),
    (Dir::N, Dir::S),
    (Dir::N, Dir::W),
    (Dir::E, Dir::S),
    (Dir::E, Dir::W),
    (Dir::S, Dir::W),
];

/// Where the window lies: its north-west cell, and its side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub west: i32,
    pub north: i32,
    pub side: usize,
}

impl Window {
    /// The window cell of `pos`, as (row from the north, column from the west).
    fn cell(&self, pos: Pos) -> Option<(usize, usize)> {
        let column = i32::from(pos.x) - self.west;
        let row = self.north - i32::from(pos.y);
        let side = self.side as i32;
        ((0..side).contains(&column) && (0..side).contains(&row))
            .then_some((row as usize, column as usize))
    }

    fn pos(&self, row: usize, column: usize) -> Option<Pos> {
        let x = i16::try_from(self.west + column as i32).ok()?;
        let y = i16::try_from(self.north - row as i32).ok()?;
        Some(Pos::new(x, y))
    }
}

/// Where one observation is written: planes, features and mask, each exactly the size the
/// encoder gives for its window.
pub struct Observation<'a> {
    pub planes: &'a mut [u8],
    pub features: &'a mut [f32],
    pub mask: &'a mut [i8],
}

/// What an observation buffer holds, so that the next write changes only what changed: the
/// window it was written for, how many placed tiles are drawn, and the plane and mask
/// indexes set by the parts that change every decision.
#[derive(Clone, Debug, Default)]
pub struct Written {
    window: Option<Window>,
    placed: usize,
    dynamic: Vec<u32>,
    mask: Vec<u32>,
}

impl Written {
    /// Forgets the buffer's contents: the next write rewrites it whole.
    pub fn forget(&mut self) {
        self.window = None;
    }
}

/// The encoding of one game's setup: its sizes and the static planes of every tile turned.
pub struct Encoder {
    /// The side asked for (or the guaranteed one).
    side: usize,
    players: usize,
    tile_types: usize,
    /// Most copies of any tile type, to scale the remaining counts.
    most_copies: f32,
    deck: f32,
    abbots: usize,
    /// Per tile type and rotation, the static planes that are set, as a bit mask.
    static_planes: Vec<[u32; 4]>,
    /// Marks the sets declare beyond the pennant, inn and cathedral: one plane each after
    /// the players' planes, in the order the game numbers them.
    other_marks: usize,
    /// Per tile type and rotation, which of those marks the tile carries (bit k: the k-th).
    other_mark_planes: Vec<[u16; 4]>,
    /// Token kinds the sets declare: one feature each per player.
    token_kinds: usize,
    /// Titles the sets declare: one feature each per player (1 for its holder).
    titles: usize,
    /// Whether the sets bring special figures (builders, pigs, shepherds; an author's
    /// companions are declared figures).
    specials: bool,
    /// The game's figures that no built-in set brings (an author's own), in the game's
    /// order: their planes, features and deployments come last, and only in games that have
    /// them, so that every other game encodes as before.
    declared: Vec<Figure>,
}

impl Encoder {
    /// An encoder for games set up as `game`; `window` None for the guaranteed side.
    pub fn new(game: &CoreGame, window: Option<usize>) -> Encoder {
        let tiles = game.tiles();
        let deck: usize = tiles.iter().map(|tile| usize::from(tile.count())).sum();
        let guaranteed = deck + 3;
        // Odd, so that a frontier as wide as the side, centred, fits with no column cut off;
        // at least 5, so that the start tile's frontier and the next tile's fit.
        let side = window.map_or(guaranteed, |side| side.clamp(MIN_SIDE, guaranteed)) | 1;
        // The three fixed mark planes are the built-in sets' pennant, inn and cathedral, found
        // by their ids; every other declared mark has a plane of its own after the players'.
        let mut other_marks = 0;
        let mark_plane: Vec<Result<u32, u16>> = game
            .marks()
            .iter()
            .map(|mark| match mark.id.as_str() {
                "pennant" => Ok(1 << plane::PENNANT),
                "inn" => Ok(1 << plane::INN),
                "cathedral" => Ok(1 << plane::CATHEDRAL),
                _ => {
                    other_marks += 1;
                    Err(1 << (other_marks - 1))
                }
            })
            .collect();
        let other_mark_planes = tiles
            .iter()
            .map(|tile| {
                Rotation::ALL.map(|rotation| {
                    // Marks of the whole tile (a hill, a vineyard), then of its segments.
                    let mut bits = 0;
                    for mark in tile.marks().iter() {
                        if let Some(Err(bit)) = mark_plane.get(mark.index()) {
                            bits |= bit;
                        }
                    }
                    for segment in tile.segments() {
                        for mark in segment.rotated(rotation).marks().iter() {
                            if let Some(Err(bit)) = mark_plane.get(mark.index()) {
                                bits |= bit;
                            }
                        }
                    }
                    bits
                })
            })
            .collect();
        let static_planes = tiles
            .iter()
            .map(|tile| {
                Rotation::ALL.map(|rotation| {
                    let mut bits = 1u32 << plane::TILE;
                    let edges = tile.edges().rotated(rotation);
                    for (index, dir) in Dir::ALL.into_iter().enumerate() {
                        bits |= match edges[dir] {
                            EdgeKind::City => 1 << (plane::CITY_EDGE + index),
                            EdgeKind::Road => 1 << (plane::ROAD_EDGE + index),
                            EdgeKind::River => 1 << (plane::RIVER_EDGE + index),
                            EdgeKind::Field => 0,
                        };
                    }
                    for segment in tile.segments() {
                        let turned = segment.rotated(rotation);
                        let sides = turned.edges();
                        for (index, (a, b)) in PAIRS.into_iter().enumerate() {
                            if sides.contains(a) && sides.contains(b) {
                                bits |= match turned.kind() {
                                    SegmentKind::City => 1 << (plane::CITY_JOINS + index),
                                    SegmentKind::Road => 1 << (plane::ROAD_JOINS + index),
                                    _ => 0,
                                };
                            }
                        }
                        for mark in turned.marks().iter() {
                            if let Some(Ok(bit)) = mark_plane.get(mark.index()) {
                                bits |= bit;
                            }
                        }
                        match turned.kind() {
                            SegmentKind::Monastery => bits |= 1 << plane::MONASTERY,
                            SegmentKind::Garden => bits |= 1 << plane::GARDEN,
                            _ => {}
                        }
                    }
                    bits
                })
            })
            .collect();
        Encoder {
            side,
            players: usize::from(game.players()),
            tile_types: tiles.len(),
            most_copies: f32::from(tiles.iter().map(|tile| tile.count()).max().unwrap_or(1).max(1)),
            deck: deck.max(1) as f32,
            // Every figure its owner may recall, as the abbot (one slot each).
            abbots: game
                .figure_kinds()
                .filter(|figure| recalls(game, *figure))
                .map(|figure| usize::from(game.in_hand(PlayerId(0), figure)))
                .sum::<usize>()
                .max(1),
            static_planes,
            other_marks,
            other_mark_planes,
            token_kinds: game.tokens().len(),
            titles: game.titles().len(),
            specials: game.catalogs().iter().any(|catalog| {
                catalog
                    .figures()
                    .declared
                    .iter()
                    .any(|rule| SPECIALS.contains(&rule.figure) && rule.per_player > 0)
            }),
            declared: game
                .figure_kinds()
                .filter(|figure| !Figure::PUBLISHED.contains(figure))
                .collect(),
        }
    }

    /// The first plane of the declared figures, after the special figures'.
    fn declared_plane(&self) -> usize {
        self.specials_plane() + if self.specials { SPECIALS.len() * self.players } else { 0 }
    }

    /// The first action of the declared figures, after the special figures'.
    fn declared_action(&self, side: usize) -> usize {
        self.specials_action(side) + if self.specials { SEGMENTS * SPECIALS.len() + 2 } else { 0 }
    }

    /// The first plane of the special figures, after the other marks'.
    fn specials_plane(&self) -> usize {
        self.other_marks_plane() + self.other_marks
    }

    /// The first action of the special figures, after the abbots' recalls.
    fn specials_action(&self, side: usize) -> usize {
        side * side * 4 + SEGMENTS * FIGURES + 1 + self.abbots
    }

    /// The first plane of the other declared marks, after every player's.
    fn other_marks_plane(&self) -> usize {
        plane::FIGURES + plane::PER_PLAYER * self.players
    }

    pub fn planes(&self) -> usize {
        self.declared_plane() + self.declared.len() * self.players
    }

    pub fn features(&self) -> usize {
        // Phase (place, figure), drawn tile, its rotation when placed, remaining copies,
        // tiles left, then per player (from the observer): score, followers, big
        // followers, abbots in hand, then the tokens held of each declared kind, then the
        // titles held; then, with special figures, theirs; then per player the declared
        // figures in hand.
        let specials =
            if self.specials { SPECIAL_SHARED + SPECIAL_PER_PLAYER * self.players } else { 0 };
        2 + self.tile_types
            + 4
            + self.tile_types
            + 1
            + (4 + self.token_kinds + self.titles) * self.players
            + specials
            + self.declared.len() * self.players
    }

    /// Actions: placements (cell × rotation), deployments (segment × figure), skip, recalls;
    /// then, with special figures, their deployments (segment × figure), grow and drive; then
    /// the declared figures' deployments (segment × figure).
    pub fn actions(&self, side: usize) -> usize {
        self.declared_action(side) + SEGMENTS * self.declared.len()
    }

    pub fn side(&self) -> usize {
        self.side
    }

    /// The window for `game`: centred on the start tile while the frontier fits in it, so that
    /// the board stays put from one decision to the next; else centred on the frontier, grown
    /// when the frontier is wider than the side.
    pub fn window(&self, game: &CoreGame) -> Window {
        let around_start = |side: usize| {
            let half = (side / 2) as i32;
            Window { west: -half, north: half, side }
        };
        let mut frontier = game.board().frontier();
        let Some(first) = frontier.next() else {
            return around_start(self.side);
        };
        let (mut west, mut east, mut south, mut north) =
            (i32::from(first.x), i32::from(first.x), i32::from(first.y), i32::from(first.y));
        for pos in frontier {
            west = west.min(i32::from(pos.x));
            east = east.max(i32::from(pos.x));
            south = south.min(i32::from(pos.y));
            north = north.max(i32::from(pos.y));
        }
        let fixed = around_start(self.side);
        let last = self.side as i32 - 1;
        if west >= fixed.west
            && east <= fixed.west + last
            && north <= fixed.north
            && south >= fixed.north - last
        {
            return fixed;
        }
        let wide = ((east - west).max(north - south) + 1) as usize;
        let side = if wide > self.side { wide | 1 } else { self.side };
        let half = (side / 2) as i32;
        Window {
            west: (west + east).div_euclid(2) - half,
            north: (north + south).div_euclid(2) + half,
            side,
        }
    }

    /// The observation of `game` for `observer` through `window`, into vectors sized here:
    /// planes (`planes × side × side`, row-major, rows from the north), features and the
    /// action mask.
    pub fn observe(
        &self,
        game: &CoreGame,
        observer: usize,
        window: &Window,
        planes: &mut Vec<u8>,
        features: &mut Vec<f32>,
        mask: &mut Vec<i8>,
    ) {
        planes.clear();
        planes.resize(self.planes() * window.side * window.side, 0);
        features.clear();
        features.resize(self.features(), 0.0);
        mask.clear();
        mask.resize(self.actions(window.side), 0);
        let mut written = Written::default();
        let mut legal = Vec::new();
        let out = Observation { planes, features, mask };
        self.write(game, observer, window, out, &mut written, &mut legal);
    }

    /// Writes the observation of `game` for `observer` through `window` into `out`, which
    /// holds what `written` says was written there last; only what changed since is touched
    /// when the window is the same (a full rewrite of a 75-cell window is 340 KB, an update a
    /// few hundred bytes). `legal` is left holding the legal actions.
    pub fn write(
        &self,
        game: &CoreGame,
        observer: usize,
        window: &Window,
        out: Observation<'_>,
        written: &mut Written,
        legal: &mut Vec<CoreAction>,
    ) {
        let Observation { planes, features, mask } = out;
        let side = window.side;
        let area = side * side;
        let placements = game.placements();
        if written.window != Some(*window) || written.placed > placements.len() {
            planes.fill(0);
            mask.fill(0);
            written.dynamic.clear();
            written.mask.clear();
            written.placed = 0;
            written.window = Some(*window);
        } else {
            for index in written.dynamic.drain(..) {
                planes[index as usize] = 0;
            }
            for index in written.mask.drain(..) {
                mask[index as usize] = 0;
            }
        }
        for (pos, tile) in &placements[written.placed..] {
            let Some((row, column)) = window.cell(*pos) else { continue };
            let rotation = game.board().get(*pos).map_or(Rotation::R0, |placed| placed.rotation);
            let bits = self.static_planes[usize::from(*tile)][rotation.quarter_turns()];
            for plane in 0..plane::OPEN {
                if bits & (1 << plane) != 0 {
                    planes[plane * area + row * side + column] = 1;
                }
            }
            let marks = self.other_mark_planes[usize::from(*tile)][rotation.quarter_turns()];
            for other in 0..self.other_marks {
                if marks & (1 << other) != 0 {
                    let plane = self.other_marks_plane() + other;
                    planes[plane * area + row * side + column] = 1;
                }
            }
        }
        written.placed = placements.len();

        let dynamic = &mut written.dynamic;
        let mut set = |plane: usize, row: usize, column: usize| {
            let index = plane * area + row * side + column;
            planes[index] = 1;
            dynamic.push(index as u32);
        };
        for pos in game.board().frontier() {
            let Some((row, column)) = window.cell(pos) else { continue };
            set(plane::OPEN, row, column);
            let needs = game.board().constraint(pos).0;
            for (index, dir) in Dir::ALL.into_iter().enumerate() {
                let kind = match needs[dir] {
                    Some(EdgeKind::City) => 0,
                    Some(EdgeKind::Road) => 1,
                    Some(EdgeKind::Field) => 2,
                    Some(EdgeKind::River) => 3,
                    None => continue,
                };
                set(plane::OPEN_NEEDS + kind * 4 + index, row, column);
            }
        }
        let players = self.players;
        for figure in game.figures() {
            let Some((row, column)) = window.cell(figure.pos) else { continue };
            let relative = (figure.player.index() + players - observer) % players;
            let on_field = game
                .board()
                .get(figure.pos)
                .and_then(|placed| game.tile(placed.tile))
                .and_then(|tile| tile.segments().get(usize::from(figure.segment)))
                .is_some_and(|segment| segment.kind() == SegmentKind::Field);
            let plane = match (figure.figure, on_field) {
                (Figure::FOLLOWER, false) => plane::FIGURES + relative * plane::PER_PLAYER,
                (Figure::FOLLOWER, true) => plane::FIGURES + relative * plane::PER_PLAYER + 1,
                (Figure::BIG_FOLLOWER, _) => plane::FIGURES + relative * plane::PER_PLAYER + 2,
                (Figure::ABBOT, _) => plane::FIGURES + relative * plane::PER_PLAYER + 3,
                (other, _) => {
                    if let Some(kind) = SPECIALS.iter().position(|each| *each == other) {
                        self.specials_plane() + relative * SPECIALS.len() + kind
                    } else if let Some(kind) = self.declared.iter().position(|each| *each == other)
                    {
                        self.declared_plane() + relative * self.declared.len() + kind
                    } else {
                        continue;
                    }
                }
            };
            set(plane, row, column);
        }

        game.legal_actions_into(legal);
        for action in legal.iter() {
            if let Some(index) = self.index(window, *action, game) {
                mask[index] = 1;
                written.mask.push(index as u32);
            }
            if let (CoreAction::Place { rotation, .. }, Some((row, column))) =
                (action, action_cell(window, *action))
            {
                set(plane::FITS + rotation.quarter_turns(), row, column);
            }
        }
        if let Phase::Figure { pos } | Phase::Flock { pos } = game.phase()
            && let Some((row, column)) = window.cell(pos)
        {
            set(plane::JUST_PLACED, row, column);
        }
        self.write_features(game, observer, features);
    }

    /// The features: phase, drawn tile and its rotation, remaining tiles, then per player
    /// (from the observer) score and supply.
    fn write_features(&self, game: &CoreGame, observer: usize, features: &mut [f32]) {
        features.fill(0.0);
        let mut at = 0;
        match game.phase() {
            Phase::Place { .. } => features[0] = 1.0,
            Phase::Figure { .. } => features[1] = 1.0,
            _ => {}
        }
        at += 2;
        let drawn = match game.phase() {
            Phase::Place { tile } => Some(tile),
            Phase::Figure { pos } | Phase::Flock { pos } => {
                game.board().get(pos).map(|placed| placed.tile)
            }
            _ => None,
        };
        if let Some(tile) = drawn {
            features[at + usize::from(tile)] = 1.0;
        }
        at += self.tile_types;
        if let Phase::Figure { pos } | Phase::Flock { pos } = game.phase()
            && let Some(placed) = game.board().get(pos)
        {
            features[at + placed.rotation.quarter_turns()] = 1.0;
        }
        at += 4;
        for (tile, copies) in game.remaining().iter().enumerate() {
            features[at + tile] = f32::from(*copies) / self.most_copies;
        }
        at += self.tile_types;
        features[at] = game.tiles_left() as f32 / self.deck;
        at += 1;
        for relative in 0..self.players {
            let player = PlayerId(((observer + relative) % self.players) as u8);
            let held = |figure| f32::from(game.in_hand(player, figure));
            features[at] = game.scores().get(player.index()).copied().unwrap_or(0) as f32 / 100.0;
            features[at + 1] = held(Figure::FOLLOWER) / 7.0;
            features[at + 2] = held(Figure::BIG_FOLLOWER);
            features[at + 3] = held(Figure::ABBOT);
            at += 4;
        }
        for relative in 0..self.players {
            let player = PlayerId(((observer + relative) % self.players) as u8);
            for (kind, held) in game.tokens_held(player).into_iter().enumerate() {
                // Tenths, within the declared bound of 10.
                features[at + kind] = (held as f32 / 10.0).min(10.0);
            }
            at += self.token_kinds;
        }
        for relative in 0..self.players {
            let player = PlayerId(((observer + relative) % self.players) as u8);
            for title in 0..self.titles {
                let standing = game.title_standing(carcassonne::TitleId(title as u8));
                if standing.is_some_and(|standing| standing.holder == Some(player)) {
                    features[at + title] = 1.0;
                }
            }
            at += self.titles;
        }
        if self.specials {
            self.write_special_features(game, observer, &mut features[at..]);
            at += SPECIAL_SHARED + SPECIAL_PER_PLAYER * self.players;
        }
        for relative in 0..self.players {
            let player = PlayerId(((observer + relative) % self.players) as u8);
            for (kind, figure) in self.declared.iter().enumerate() {
                features[at + kind] = f32::from(game.in_hand(player, *figure));
            }
            at += self.declared.len();
        }
    }

    /// The special figures' features: the flock phase, a second turn, the hidden tiles, the
    /// bag's counts (tenths), then per player from the observer the builders, pigs and
    /// shepherds in hand and the sheep of their flocks (tenths).
    fn write_special_features(&self, game: &CoreGame, observer: usize, features: &mut [f32]) {
        features[0] = f32::from(u8::from(matches!(game.phase(), Phase::Flock { .. })));
        features[1] = f32::from(u8::from(game.is_second_turn()));
        features[2] = game.hidden_tiles() as f32 / self.deck;
        let bag = game.bag();
        features[3..SPECIAL_SHARED].fill(0.0);
        for kind in game.bag_kinds() {
            let slot = match kind.rule.then {
                carcassonne::Drawn::Keep => usize::from(kind.rule.worth).clamp(1, BAG_WORTHS) - 1,
                carcassonne::Drawn::SendHome => BAG_WORTHS,
            };
            features[3 + slot] += f32::from(bag.count(kind.rule.token)) / 10.0;
        }
        let mut at = SPECIAL_SHARED;
        for relative in 0..self.players {
            let player = PlayerId(((observer + relative) % self.players) as u8);
            for (kind, figure) in SPECIALS.into_iter().enumerate() {
                features[at + kind] = f32::from(game.in_hand(player, figure));
            }
            let sheep: u32 = game
                .hoards()
                .iter()
                .filter(|hoard| hoard.player == player)
                .map(|hoard| hoard.worth(game.bag_kinds()))
                .sum();
            features[at + 3] = sheep as f32 / 10.0;
            at += SPECIAL_PER_PLAYER;
        }
    }

    /// The index of `action` in the action space of `window`; None for a draw or a cell
    /// outside (never for a legal placement: the window covers the frontier).
    pub fn index(&self, window: &Window, action: CoreAction, game: &CoreGame) -> Option<usize> {
        let side = window.side;
        let placements = side * side * 4;
        match action {
            CoreAction::Place { rotation, .. } => {
                let (row, column) = action_cell(window, action)?;
                Some((row * side + column) * 4 + rotation.quarter_turns())
            }
            CoreAction::Deploy { segment, figure } => {
                if let Some(bit) = FOLLOWERS.iter().position(|each| *each == figure) {
                    return Some(placements + usize::from(segment) * FIGURES + bit);
                }
                if let Some(kind) = self.declared.iter().position(|each| *each == figure) {
                    let first = self.declared_action(side);
                    return Some(first + usize::from(segment) * self.declared.len() + kind);
                }
                let kind = SPECIALS.iter().position(|each| *each == figure)?;
                self.specials.then(|| {
                    self.specials_action(side) + usize::from(segment) * SPECIALS.len() + kind
                })
            }
            CoreAction::Skip => Some(placements + SEGMENTS * FIGURES),
            CoreAction::RecallAbbot { pos } => {
                let rank = self.abbot_cells(game).iter().position(|cell| *cell == pos)?;
                Some(placements + SEGMENTS * FIGURES + 1 + rank)
            }
            CoreAction::GrowFlock => {
                self.specials.then(|| self.specials_action(side) + SEGMENTS * SPECIALS.len())
            }
            CoreAction::DriveFlock => {
                self.specials.then(|| self.specials_action(side) + SEGMENTS * SPECIALS.len() + 1)
            }
            CoreAction::Draw | CoreAction::DrawTile { .. } | CoreAction::DrawToken { .. } => None,
        }
    }

    /// The action at `index` of the action space of `window`; None outside it.
    pub fn action(&self, window: &Window, index: usize, game: &CoreGame) -> Option<CoreAction> {
        let side = window.side;
        let placements = side * side * 4;
        if index < placements {
            let cell = index / 4;
            let pos = window.pos(cell / side, cell % side)?;
            return Some(CoreAction::Place { pos, rotation: Rotation::ALL[index % 4] });
        }
        let rest = index - placements;
        if rest < SEGMENTS * FIGURES {
            return Some(CoreAction::Deploy {
                segment: (rest / FIGURES) as u8,
                figure: FOLLOWERS[rest % FIGURES],
            });
        }
        let declared = self.declared_action(side);
        if index >= declared {
            let rest = index - declared;
            let figure = self.declared.get(rest % self.declared.len().max(1))?;
            let segment = u8::try_from(rest / self.declared.len()).ok()?;
            return (usize::from(segment) < SEGMENTS)
                .then_some(CoreAction::Deploy { segment, figure: *figure });
        }
        let specials = self.specials_action(side);
        if index >= specials {
            let rest = index - specials;
            let deployments = SEGMENTS * SPECIALS.len();
            return match rest.checked_sub(deployments) {
                None => Some(CoreAction::Deploy {
                    segment: (rest / SPECIALS.len()) as u8,
                    figure: SPECIALS[rest % SPECIALS.len()],
                }),
                Some(0) => Some(CoreAction::GrowFlock),
                Some(1) => Some(CoreAction::DriveFlock),
                Some(_) => None,
            }
            .filter(|_| self.specials);
        }
        match rest - SEGMENTS * FIGURES {
            0 => Some(CoreAction::Skip),
            rank => self
                .abbot_cells(game)
                .get(rank - 1)
                .map(|pos| CoreAction::RecallAbbot { pos: *pos }),
        }
    }

    /// Where the current player's abbots stand, in the order the board lists its figures.
    fn abbot_cells(&self, game: &CoreGame) -> Vec<Pos> {
        let current = game.current_player();
        game.figures()
            .filter(|figure| figure.player == current && recalls(game, figure.figure))
            .map(|figure| figure.pos)
            .take(self.abbots)
            .collect()
    }
}

/// Whether `figure`'s owner may take it back early in `game`, as the abbot.
fn recalls(game: &CoreGame, figure: Figure) -> bool {
    game.figure_rule(figure).is_some_and(carcassonne::FigureRule::recalls)
}

fn action_cell(window: &Window, action: CoreAction) -> Option<(usize, usize)> {
    match action {
        CoreAction::Place { pos, .. } => window.cell(pos),
        _ => None,
    }
}
