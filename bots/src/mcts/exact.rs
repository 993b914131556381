//! Exact search for the last few tiles: every draw weighted by its chance from the counts
//! left, every choice made by its chooser for their own reward (expectimax, with one reward
//! per player), within a node budget.

use carcassonne::{Action, Game, Phase};

use super::tree::distinct_or_legal;
use crate::evaluator::token_draws;
use crate::reward::Reward;

/// The exact value of each choice at `game`'s decision, or `None` when the tree is larger
/// than `budget` nodes.
pub(crate) fn exact_choices(
    game: &Game,
    reward: &Reward,
    budget: u64,
) -> Option<Vec<(Action, f32)>> {
    let mover = game.current_player().index();
    let mut budget = budget;
    let mut choices = Vec::new();
    distinct_or_legal(game, &mut choices);
    let mut values = vec![0.0; usize::from(game.players())];
    let mut ranked = Vec::with_capacity(choices.len());
    for action in choices {
        let mut after = game.clone();
        after.apply(action).ok()?;
        value(&after, reward, &mut budget, &mut values)?;
        ranked.push((action, values[mover]));
    }
    Some(ranked)
}

/// Writes every player's exact expected reward from `game` into `out`.
fn value(game: &Game, reward: &Reward, budget: &mut u64, out: &mut [f32]) -> Option<()> {
    *budget = budget.checked_sub(1)?;
    match game.phase() {
        Phase::GameOver => {
            let scores: Vec<f32> = game.scores().iter().map(|score| *score as f32).collect();
            reward.of_scores(&scores, out);
        }
        Phase::Draw => {
            let drawable: Vec<(u16, f32)> = game
                .remaining()
                .iter()
                .enumerate()
                .filter(|(tile, count)| **count > 0 && game.drawable(*tile as u16))
                .map(|(tile, count)| (tile as u16, f32::from(*count)))
                .collect();
            let total: f32 = drawable.iter().map(|(_, count)| count).sum();
            out.fill(0.0);
            let mut child = vec![0.0; out.len()];
            for (tile, count) in drawable {
                let mut after = game.clone();
                after.apply(Action::DrawTile { tile }).ok()?;
                value(&after, reward, budget, &mut child)?;
                for (out, child) in out.iter_mut().zip(&child) {
                    *out += child * count / total;
                }
            }
        }
        Phase::Sheep { .. } => {
            // Each token the flock's bag holds, as likely as its count.
            let tokens = token_draws(game);
            let total: f32 = tokens.iter().map(|(_, count)| count).sum();
            out.fill(0.0);
            let mut child = vec![0.0; out.len()];
            for (token, count) in tokens {
                let mut after = game.clone();
                after.apply(token).ok()?;
                value(&after, reward, budget, &mut child)?;
                for (out, child) in out.iter_mut().zip(&child) {
                    *out += child * count / total;
                }
            }
        }
        Phase::Place { .. } | Phase::Figure { .. } | Phase::Flock { .. } => {
            let mover = game.current_player().index();
            let mut choices = Vec::new();
            distinct_or_legal(game, &mut choices);
            let mut child = vec![0.0; out.len()];
            let mut best = f32::MIN;
            for action in choices {
                let mut after = game.clone();
                after.apply(action).ok()?;
                value(&after, reward, budget, &mut child)?;
                if child[mover] > best {
                    best = child[mover];
                    out.copy_from_slice(&child);
                }
            }
        }
    }
    Some(())
}
