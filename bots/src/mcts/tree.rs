//! One search tree: decision nodes for the placement and the figure, chance nodes for each
//! draw, UCT to descend, and the leaf's value carried back up.

use carcassonne::{Action, Event, Game, Phase, PlayerId};
use rand::Rng;
use rand::seq::SliceRandom;

use super::MctsConfig;
use super::playout::{LeafBuffers, leaf_value};
use crate::evaluator::Evaluator;
use crate::seeds::Dice;
use crate::turn::distinct_placements;

/// No child yet.
const NONE: u32 = u32::MAX;

/// A position in the tree: the actions out of it are a block of `edges`.
#[derive(Clone, Copy)]
struct Node {
    first: u32,
    len: u32,
    visits: u32,
    /// The seat that chooses here; `None` for a draw, where the bag chooses.
    mover: Option<PlayerId>,
    expanded: bool,
    /// Whether the actions are listed best first, for progressive widening.
    ordered: bool,
}

/// An action out of a node, with the statistics of the node's mover for it.
#[derive(Clone, Copy)]
struct Edge {
    action: Action,
    child: u32,
    visits: u32,
    /// Sum of the mover's rewards through this edge.
    value: f32,
    /// The evaluator's estimate of the mover's reward after the action, counted as
    /// `prior_visits` visits (at ordered nodes; 0 elsewhere).
    prior: f32,
}

/// What a tree learned about one action at its root.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RootStat {
    pub(crate) action: Action,
    pub(crate) visits: u32,
    pub(crate) value: f32,
}

/// A tree grown from one root position.
pub(crate) struct Tree<'a> {
    config: &'a MctsConfig,
    evaluator: Evaluator,
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    /// Edges taken in the current iteration, with the mover each was chosen for.
    path: Vec<(u32, Option<PlayerId>)>,
    /// Buffers for valuing leaves and ordering actions.
    leaf: LeafBuffers,
    buffer: Vec<Action>,
    priors: Vec<f32>,
    events: Vec<Event>,
    reward: Vec<f32>,
}

impl<'a> Tree<'a> {
    pub(crate) fn new(config: &'a MctsConfig, root: &Game) -> Tree<'a> {
        let mut tree = Tree {
            config,
            evaluator: Evaluator::new(config.evaluator),
            nodes: Vec::with_capacity(1024),
            edges: Vec::with_capacity(16 * 1024),
            path: Vec::new(),
            leaf: LeafBuffers::default(),
            buffer: Vec::new(),
            priors: Vec::new(),
            events: Vec::new(),
            reward: vec![0.0; usize::from(root.players())],
        };
        tree.nodes.push(Node::leaf(root));
        tree
    }

    /// One iteration from `game`, a copy of the root whose bag this tree may draw from:
    /// descend by UCT, add one node, value it, and carry the value back up.
    pub(crate) fn iterate(&mut self, mut game: Game, dice: &mut Dice) {
        self.path.clear();
        let mut node = 0u32;
        let mut level = 0;
        loop {
            if game.is_over() {
                break;
            }
            if !self.nodes[node as usize].expanded {
                self.expand(node, &game, level < self.config.ordered_levels, dice);
            }
            if self.nodes[node as usize].mover.is_some() {
                level += 1;
            }
            let Some(edge) = self.select(node, &mut game, dice) else { break };
            self.path.push((edge, self.nodes[node as usize].mover));
            let child = self.edges[edge as usize].child;
            if child == NONE {
                let index = self.nodes.len() as u32;
                self.nodes.push(Node::leaf(&game));
                self.edges[edge as usize].child = index;
                node = index;
                // A draw's outcome is not a choice: go on down to the next decision.
                if self.nodes[node as usize].mover.is_some() {
                    break;
                }
            } else {
                node = child;
            }
        }
        leaf_value(self.config, &self.evaluator, &mut game, dice, &mut self.leaf, &mut self.reward);
        self.nodes[0].visits += 1;
        for (edge, mover) in &self.path {
            let edge = &mut self.edges[*edge as usize];
            edge.visits += 1;
            if let Some(mover) = mover {
                edge.value += self.reward[mover.index()];
            }
            if edge.child != NONE {
                self.nodes[edge.child as usize].visits += 1;
            }
        }
    }

    /// Lists the actions out of `node`: the distinct placements or the figure actions (in a
    /// random order, or best first by the evaluator), or one edge per tile the bag may give.
    fn expand(&mut self, node: u32, game: &Game, ordered: bool, dice: &mut Dice) {
        let first = self.edges.len() as u32;
        match game.phase() {
            Phase::Draw => {
                for (tile, count) in game.remaining().iter().enumerate() {
                    let tile = tile as u16;
                    if *count > 0 && game.drawable(tile) {
                        self.edges.push(Edge::new(Action::DrawTile { tile }));
                    }
                }
            }
            _ => {
                distinct_or_legal(game, &mut self.buffer);
                if ordered {
                    self.order_by_evaluator(game);
                    let edges = self.buffer.iter().zip(&self.priors);
                    self.edges.extend(
                        edges.map(|(action, prior)| Edge { prior: *prior, ..Edge::new(*action) }),
                    );
                } else {
                    self.buffer.shuffle(dice);
                    self.edges.extend(self.buffer.iter().map(|action| Edge::new(*action)));
                }
            }
        }
        let node = &mut self.nodes[node as usize];
        node.first = first;
        node.len = self.edges.len() as u32 - first;
        node.expanded = true;
        node.ordered = ordered;
    }

    /// Sorts the listed actions by the mover's reward estimate after each, best first: the
    /// order in which progressive widening admits them.
    fn order_by_evaluator(&mut self, game: &Game) {
        let mover = game.current_player().index();
        let mut valued: Vec<(f32, Action)> = Vec::with_capacity(self.buffer.len());
        let points = &mut self.leaf.points;
        points.clear();
        points.resize(usize::from(game.players()), 0.0);
        for action in &self.buffer {
            let mut after = game.clone();
            if after.apply_into(*action, &mut self.events).is_err() {
                continue;
            }
            self.events.clear();
            self.evaluator.expected_points_into(&after, &mut self.leaf.scratch, points);
            self.config.reward.of_estimates(points, &mut self.reward);
            valued.push((self.reward[mover], *action));
        }
        valued.sort_by(|a, b| b.0.total_cmp(&a.0));
        self.buffer.clear();
        self.buffer.extend(valued.iter().map(|(_, action)| *action));
        self.priors.clear();
        self.priors.extend(valued.iter().map(|(prior, _)| *prior));
    }

    /// Chooses an edge out of `node` and plays it on `game`: the tile the bag gives at a draw,
    /// else the first untried action, else the best by UCT among those widening admits.
    fn select(&mut self, node: u32, game: &mut Game, dice: &mut Dice) -> Option<u32> {
        let Node { first, len, visits, mover, ordered, .. } = self.nodes[node as usize];
        let edges = first..first + len;
        if mover.is_none() {
            self.events.clear();
            game.apply_into(Action::Draw, &mut self.events).ok()?;
            let tile = self.events.iter().find_map(|event| match event {
                Event::TileDrawn { tile, .. } => Some(*tile),
                _ => None,
            })?;
            return edges
                .into_iter()
                .find(|edge| self.edges[*edge as usize].action == Action::DrawTile { tile });
        }
        let admitted = match self.config.widening {
            Some(widening) if ordered => {
                let limit = (widening.c * (visits.max(1) as f32).powf(widening.alpha)).ceil();
                (limit as u32).clamp(1, len)
            }
            _ => len,
        };
        let candidates = first..first + admitted;
        // With priors, an ordered node's actions all count as tried: the prior stands in for
        // the first visits.
        let prior_visits = if ordered { self.config.prior_visits } else { 0.0 };
        let untried = if prior_visits > 0.0 {
            None
        } else {
            candidates.clone().find(|edge| self.edges[*edge as usize].visits == 0)
        };
        let chosen = match untried {
            Some(untried) => untried,
            None => {
                let log_visits = (visits.max(1) as f32 + prior_visits).ln();
                let c = self.config.exploration;
                let mut best = (f32::MIN, first);
                for index in candidates {
                    let edge = &self.edges[index as usize];
                    let n = edge.visits as f32 + prior_visits;
                    // A hair of noise breaks exact ties without favouring list order.
                    let mean = (edge.value + edge.prior * prior_visits) / n;
                    let score = mean + c * (log_visits / n).sqrt() + dice.random::<f32>() * 1e-6;
                    if score > best.0 {
                        best = (score, index);
                    }
                }
                best.1
            }
        };
        self.events.clear();
        game.apply_into(self.edges[chosen as usize].action, &mut self.events).ok()?;
        Some(chosen)
    }

    /// The root's actions with their visits and summed values.
    pub(crate) fn root_stats(&self) -> Vec<RootStat> {
        let root = self.nodes[0];
        (root.first..root.first + root.len)
            .map(|index| {
                let edge = &self.edges[index as usize];
                RootStat { action: edge.action, visits: edge.visits, value: edge.value }
            })
            .collect()
    }

    /// Nodes in the tree.
    pub(crate) fn size(&self) -> usize {
        self.nodes.len()
    }
}

impl Node {
    fn leaf(game: &Game) -> Node {
        let mover = match game.phase() {
            Phase::Draw | Phase::GameOver => None,
            _ => Some(game.current_player()),
        };
        Node { first: 0, len: 0, visits: 0, mover, expanded: false, ordered: false }
    }
}

impl Edge {
    fn new(action: Action) -> Edge {
        Edge { action, child: NONE, visits: 0, value: 0.0, prior: 0.0 }
    }
}

/// The choices a search distinguishes at a decision: distinct placements, or every figure
/// action.
pub(crate) fn distinct_or_legal(game: &Game, out: &mut Vec<Action>) {
    if matches!(game.phase(), Phase::Place { .. }) {
        distinct_placements(game, out);
    } else {
        game.legal_actions_into(out);
    }
}
