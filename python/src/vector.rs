//! Many games stepped in one call: the native half of the vector environments.
//!
//! Each game is a slot with its own seeds: episode `k` of slot `i` shuffles its bag from
//! `(seed, i, k)` and seats bots seeded from `(bot_seed, i, k, seat)`, so a slot's trajectory
//! depends on the seeds and the actions it is given, never on the thread that steps it. The
//! results go straight into numpy arrays made once, which every call rewrites in place; an
//! observation is updated rather than rewritten while its window stays put.

use carcassonne::{Action as CoreAction, Game as CoreGame, GameSetup, PlayerId};
use carcassonne_bots::{Bot, Profile, derive_seed};
use numpy::{PyArray1, PyArray2, PyArray4, PyArrayMethods};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::IntoPyDict;
use rayon::prelude::*;

use crate::action::Action;
use crate::bots::{profile, profiles};
use crate::encoding::{Encoder, Observation, Window, Written};
use crate::errors::{IllegalActionError, SetupError};
use crate::game::{Game, setup};

/// Salts that keep the seeds of bags, bots and replacement actions apart.
const BAG: u64 = 0x4241_4700;
const BOTS: u64 = 0x424f_5400;
const REPLACEMENT: u64 = 0x5245_5000;

/// How a step rewards the players.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reward {
    /// The points each player scored since the slot's last step, final scoring included.
    ScoreDelta,
    /// +1 to the winner (a shared win split), -1 to the others, when the game ends.
    Win,
}

/// What every slot shares: the setup, the encoder and the seats.
struct Shared {
    setup: GameSetup,
    encoder: Encoder,
    /// The window's side: every observation is this size.
    side: usize,
    /// A bot profile for each bot seat; None for the seats the caller plays.
    seats: Vec<Option<Profile>>,
    reward: Reward,
    seed: u64,
    bot_seed: u64,
}

/// One game and what its observation buffer holds.
struct Slot {
    index: u64,
    episode: u64,
    game: CoreGame,
    /// A bot for each bot seat of this episode.
    bots: Vec<Option<Box<dyn Bot>>>,
    /// The window of the observation the caller is answering.
    window: Window,
    written: Written,
    /// The legal actions of the observation the caller is answering.
    legal: Vec<CoreAction>,
    /// Scores when the caller last saw this game, for the score rewards.
    seen: Vec<u32>,
    /// Steps taken, for the seeds of replacement actions.
    steps: u64,
}

/// One slot's part of the output arrays.
struct Out<'a> {
    observation: Observation<'a>,
    rewards: &'a mut [f32],
    scores: &'a mut [i32],
    final_scores: &'a mut [i32],
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    illegal: &'a mut bool,
    agent: &'a mut i64,
}

impl Shared {
    fn players(&self) -> usize {
        self.seats.len()
    }

    /// Episode `episode` of slot `index`, played up to the first decision of a caller's seat.
    fn start(&self, slot: &mut Slot, episode: u64) -> Result<(), String> {
        let mut setup = self.setup.clone();
        setup.seed = derive_seed(self.seed ^ BAG, slot.index.wrapping_mul(1 << 32) ^ episode);
        slot.game = CoreGame::new(setup).map_err(|error| error.to_string())?;
        slot.episode = episode;
        let bots_seed =
            derive_seed(self.bot_seed ^ BOTS, slot.index.wrapping_mul(1 << 32) ^ episode);
        slot.bots = self
            .seats
            .iter()
            .enumerate()
            .map(|(seat, profile)| {
                profile.as_ref().map(|profile| profile.bot(derive_seed(bots_seed, seat as u64)))
            })
            .collect();
        slot.written.forget();
        // From nothing: what the bots score before the caller's first decision is reported
        // with the first step's rewards, so a game's rewards add up to its final scores.
        slot.seen.clear();
        slot.seen.resize(self.players(), 0);
        self.advance(slot)
    }

    /// Draws and the bots' turns, until a caller's seat must decide or the game is over.
    fn advance(&self, slot: &mut Slot) -> Result<(), String> {
        let game = &mut slot.game;
        while !game.is_over() {
            let action = match game.phase() {
                phase if phase.is_chance() => CoreAction::Draw,
                _ => {
                    let seat = game.current_player();
                    match &slot.bots[seat.index()] {
                        Some(bot) => bot.choose(game, seat).map_err(|error| error.to_string())?,
                        None => return Ok(()),
                    }
                }
            };
            game.apply(action).map_err(|error| error.to_string())?;
        }
        Ok(())
    }

    /// The action the caller's `index` stands for in `slot`, if it is legal.
    fn legal_action(&self, slot: &Slot, index: i64) -> Option<CoreAction> {
        let index = usize::try_from(index).ok()?;
        let action = self.encoder.action(&slot.window, index, &slot.game)?;
        slot.legal.contains(&action).then_some(action)
    }

    /// Plays `index` (or, when it is not legal, a legal action drawn from the slot's seeds)
    /// and the turns up to the next decision, starting a new episode when the game ends, and
    /// writes what the caller sees next into `out`.
    fn step(&self, slot: &mut Slot, index: i64, mut out: Out<'_>) -> Result<(), String> {
        let action = match self.legal_action(slot, index) {
            Some(action) => {
                *out.illegal = false;
                action
            }
            None => {
                *out.illegal = true;
                let salt = slot.index.wrapping_mul(1 << 40) ^ slot.steps;
                let pick =
                    derive_seed(self.seed ^ REPLACEMENT, salt) % slot.legal.len().max(1) as u64;
                *slot.legal.get(pick as usize).ok_or("the game has no decision to take")?
            }
        };
        slot.steps += 1;
        slot.game.apply(action).map_err(|error| error.to_string())?;
        self.advance(slot)?;
        let over = slot.game.is_over();
        let scores = slot.game.scores();
        for (seat, reward) in out.rewards.iter_mut().enumerate() {
            *reward = match self.reward {
                Reward::ScoreDelta => scores[seat] as f32 - slot.seen[seat] as f32,
                Reward::Win if over => win_reward(&slot.game, seat),
                Reward::Win => 0.0,
            };
        }
        slot.seen.clear();
        slot.seen.extend_from_slice(scores);
        *out.terminated = over;
        *out.truncated = false;
        if over {
            copy_scores(slot.game.scores(), out.final_scores);
            self.start(slot, slot.episode + 1)?;
        }
        self.observe(slot, &mut out)
    }

    /// Writes what the caller's seat to decide in `slot` sees; a game whose frontier has
    /// outgrown a window smaller than the guaranteed one is cut short (truncated) and a new
    /// episode begins, since the arrays cannot grow.
    fn observe(&self, slot: &mut Slot, out: &mut Out<'_>) -> Result<(), String> {
        let mut window = self.encoder.window(&slot.game);
        let mut restarts = 0;
        while window.side != self.side || slot.game.is_over() {
            restarts += 1;
            if restarts > 8 {
                return Err(format!(
                    "no game reached a caller's decision inside a {}-cell window in 8 tries: \
                     make the window larger",
                    self.side
                ));
            }
            if !*out.terminated {
                *out.truncated = true;
                copy_scores(slot.game.scores(), out.final_scores);
            }
            self.start(slot, slot.episode + 1)?;
            window = self.encoder.window(&slot.game);
        }
        slot.window = window;
        let seat = slot.game.current_player();
        *out.agent = seat.index() as i64;
        copy_scores(slot.game.scores(), out.scores);
        let observer = seat.index();
        let observation = Observation {
            planes: &mut *out.observation.planes,
            features: &mut *out.observation.features,
            mask: &mut *out.observation.mask,
        };
        self.encoder.write(
            &slot.game,
            observer,
            &window,
            observation,
            &mut slot.written,
            &mut slot.legal,
        );
        Ok(())
    }
}

fn copy_scores(scores: &[u32], out: &mut [i32]) {
    for (out, score) in out.iter_mut().zip(scores) {
        *out = i32::try_from(*score).unwrap_or(i32::MAX);
    }
}

/// +1 for the winner (a shared win split), -1 for the others.
fn win_reward(game: &CoreGame, seat: usize) -> f32 {
    let leaders = game.leaders();
    if leaders.contains(PlayerId(seat as u8)) { 1.0 / leaders.len() as f32 } else { -1.0 }
}

/// The arrays the caller reads, made once and rewritten in place by every call.
struct Arrays {
    observations: Py<PyArray4<u8>>,
    features: Py<PyArray2<f32>>,
    action_masks: Py<PyArray2<i8>>,
    rewards: Py<PyArray2<f32>>,
    scores: Py<PyArray2<i32>>,
    final_scores: Py<PyArray2<i32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    illegal: Py<PyArray1<bool>>,
    agents: Py<PyArray1<i64>>,
}

/// `num_envs` games stepped together, for the vector environments: every seat is either the
/// caller's (`None` in `seats`) or a bot's (a profile name), observations are from the seat to
/// decide, and results are written into numpy arrays made once (the attributes here), never
/// copied, and read-only between calls (copy what you keep). A finished game starts its next episode within the same step (`terminated` says
/// so, `final_scores` holds how it ended).
#[pyclass(module = "carcassonne")]
pub struct VectorGames {
    shared: Shared,
    slots: Vec<Slot>,
    arrays: Arrays,
    pool: Option<rayon::ThreadPool>,
    raise_illegal: bool,
}

impl Arrays {
    fn all<'py>(&self, py: Python<'py>) -> [Bound<'py, PyAny>; 10] {
        [
            self.observations.bind(py).clone().into_any(),
            self.features.bind(py).clone().into_any(),
            self.action_masks.bind(py).clone().into_any(),
            self.rewards.bind(py).clone().into_any(),
            self.scores.bind(py).clone().into_any(),
            self.final_scores.bind(py).clone().into_any(),
            self.terminated.bind(py).clone().into_any(),
            self.truncated.bind(py).clone().into_any(),
            self.illegal.bind(py).clone().into_any(),
            self.agents.bind(py).clone().into_any(),
        ]
    }

    /// Makes the arrays writeable from Python, or not: they are read-only between calls,
    /// because the next observation is written over the last one where it changed, and a
    /// caller's write would leave it wrong without a word.
    fn set_writeable(&self, py: Python<'_>, writeable: bool) -> PyResult<()> {
        let flags = [("write", writeable)].into_py_dict(py)?;
        for array in self.all(py) {
            array.call_method("setflags", (), Some(&flags))?;
        }
        Ok(())
    }
}

impl VectorGames {
    /// Starts every game: episode 0 when `first`, else each game's next episode.
    fn start_all(&mut self, py: Python<'_>, first: bool) -> PyResult<()> {
        if first {
            for slot in &mut self.slots {
                slot.steps = 0;
            }
        }
        self.each(py, None, |shared, slot, _, mut out| {
            let episode = if first { 0 } else { slot.episode + 1 };
            shared.start(slot, episode)?;
            shared.observe(slot, &mut out)?;
            // Whatever a too-small window cut short on the way, the caller sees a fresh start.
            out.rewards.fill(0.0);
            out.final_scores.fill(0);
            *out.terminated = false;
            *out.truncated = false;
            *out.illegal = false;
            Ok(())
        })
    }

    /// Runs `work` on every slot with the arrays writeable for the call, then read-only.
    fn each<F>(&mut self, py: Python<'_>, actions: Option<&[i64]>, work: F) -> PyResult<()>
    where
        F: Fn(&Shared, &mut Slot, i64, Out<'_>) -> Result<(), String> + Sync,
    {
        self.arrays.set_writeable(py, true)?;
        let result = self.each_writeable(py, actions, work);
        self.arrays.set_writeable(py, false)?;
        result
    }

    /// Runs `work` on every slot with its part of the arrays, on the pool when there is one,
    /// with the GIL released; the first error of any slot is raised.
    fn each_writeable<F>(
        &mut self,
        py: Python<'_>,
        actions: Option<&[i64]>,
        work: F,
    ) -> PyResult<()>
    where
        F: Fn(&Shared, &mut Slot, i64, Out<'_>) -> Result<(), String> + Sync,
    {
        let arrays = &self.arrays;
        let mut observations = arrays.observations.bind(py).try_readwrite()?;
        let mut features = arrays.features.bind(py).try_readwrite()?;
        let mut masks = arrays.action_masks.bind(py).try_readwrite()?;
        let mut rewards = arrays.rewards.bind(py).try_readwrite()?;
        let mut scores = arrays.scores.bind(py).try_readwrite()?;
        let mut final_scores = arrays.final_scores.bind(py).try_readwrite()?;
        let mut terminated = arrays.terminated.bind(py).try_readwrite()?;
        let mut truncated = arrays.truncated.bind(py).try_readwrite()?;
        let mut illegal = arrays.illegal.bind(py).try_readwrite()?;
        let mut agents = arrays.agents.bind(py).try_readwrite()?;
        let encoder = &self.shared.encoder;
        let side = self.shared.side;
        let players = self.shared.players();
        let plane_len = encoder.planes() * side * side;
        let outs: Vec<Out<'_>> = observations
            .as_slice_mut()?
            .chunks_mut(plane_len)
            .zip(features.as_slice_mut()?.chunks_mut(encoder.features()))
            .zip(masks.as_slice_mut()?.chunks_mut(encoder.actions(side)))
            .zip(rewards.as_slice_mut()?.chunks_mut(players))
            .zip(scores.as_slice_mut()?.chunks_mut(players))
            .zip(final_scores.as_slice_mut()?.chunks_mut(players))
            .zip(terminated.as_slice_mut()?.iter_mut())
            .zip(truncated.as_slice_mut()?.iter_mut())
            .zip(illegal.as_slice_mut()?.iter_mut())
            .zip(agents.as_slice_mut()?.iter_mut())
            .map(
                |(
                    (
                        (
                            (
                                (((((planes, features), mask), rewards), scores), final_scores),
                                terminated,
                            ),
                            truncated,
                        ),
                        illegal,
                    ),
                    agent,
                )| Out {
                    observation: Observation { planes, features, mask },
                    rewards,
                    scores,
                    final_scores,
                    terminated,
                    truncated,
                    illegal,
                    agent,
                },
            )
            .collect();
        let shared = &self.shared;
        let slots = &mut self.slots;
        let pool = self.pool.as_ref();
        let action = |index: usize| actions.map_or(0, |actions| actions[index]);
        let result = py.detach(|| match pool {
            Some(pool) => pool.install(|| {
                outs.into_par_iter()
                    .zip(slots.par_iter_mut())
                    .enumerate()
                    .try_for_each(|(index, (out, slot))| work(shared, slot, action(index), out))
            }),
            None => outs
                .into_iter()
                .zip(slots.iter_mut())
                .enumerate()
                .try_for_each(|(index, (out, slot))| work(shared, slot, action(index), out)),
        });
        result.map_err(|error| PyValueError::new_err(format!("a game could not go on: {error}")))
    }
}

#[pymethods]
impl VectorGames {
    /// `num_envs` games on `tilesets` with the rule `options`, one seat per entry of `seats`:
    /// None for a seat the caller plays, a bot profile name (`random`, `easy`, `medium`,
    /// `hard`, … or one of `profiles`, the text of a profile file) for a bot's. `reward` is
    /// `"score_delta"` or `"win"`; `window` the board window's side (None: large enough that
    /// no game can outgrow it; a game that outgrows a smaller one is truncated). `threads`
    /// spreads the games over that many threads (1: the calling thread only); the results
    /// are the same for any number. `on_illegal` is `"random"` (a legal action drawn from the
    /// seeds is played instead, and `illegal` says so) or `"raise"`.
    #[new]
    #[pyo3(signature = (num_envs, seats, tilesets = None, options = None, reward = "score_delta", window = None, seed = 0, bot_seed = 0, threads = 1, profiles = None, on_illegal = "random"))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        num_envs: usize,
        seats: Vec<Option<String>>,
        tilesets: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyAny>>,
        reward: &str,
        window: Option<usize>,
        seed: u64,
        bot_seed: u64,
        threads: usize,
        profiles: Option<&str>,
        on_illegal: &str,
    ) -> PyResult<VectorGames> {
        if num_envs == 0 || num_envs > 1 << 16 {
            return Err(PyValueError::new_err(format!(
                "num_envs is between 1 and 65536, not {num_envs}"
            )));
        }
        if seats.iter().all(Option::is_some) {
            return Err(PyValueError::new_err("seats leaves no seat to the caller (None)"));
        }
        let players = u8::try_from(seats.len())
            .map_err(|_| SetupError::new_err(format!("{} players is too many", seats.len())))?;
        let reward = match reward {
            "score_delta" => Reward::ScoreDelta,
            "win" => Reward::Win,
            other => {
                return Err(PyValueError::new_err(format!(
                    "reward is \"score_delta\" or \"win\", not {other:?}"
                )));
            }
        };
        let raise_illegal = match on_illegal {
            "random" => false,
            "raise" => true,
            other => {
                return Err(PyValueError::new_err(format!(
                    "on_illegal is \"random\" or \"raise\", not {other:?}"
                )));
            }
        };
        if !(1..=256).contains(&threads) {
            return Err(PyValueError::new_err(format!(
                "threads is between 1 and 256, not {threads}"
            )));
        }
        let all = self::profiles(profiles)?;
        let seats = seats
            .iter()
            .map(|seat| {
                // One thread and no time cap: a bot's answer then depends on its seed and the
                // game only, never on the load or the thread count (and no pool per game).
                let profile = |name| {
                    profile(&all, name).map(|found| found.with_threads(1).without_time_limit())
                };
                seat.as_deref().map(profile).transpose()
            })
            .collect::<PyResult<Vec<_>>>()?;
        let setup = setup(py, tilesets, players, seed, options)?;
        let template =
            CoreGame::new(setup.clone()).map_err(|error| SetupError::new_err(error.to_string()))?;
        let encoder = Encoder::new(&template, window);
        let side = encoder.side();
        let shared = Shared { setup, encoder, side, seats, reward, seed, bot_seed };
        let planes = shared.encoder.planes();
        let features = shared.encoder.features();
        let actions = shared.encoder.actions(side);
        let players = usize::from(players);
        let arrays = Arrays {
            observations: PyArray4::zeros(py, [num_envs, planes, side, side], false).unbind(),
            features: PyArray2::zeros(py, [num_envs, features], false).unbind(),
            action_masks: PyArray2::zeros(py, [num_envs, actions], false).unbind(),
            rewards: PyArray2::zeros(py, [num_envs, players], false).unbind(),
            scores: PyArray2::zeros(py, [num_envs, players], false).unbind(),
            final_scores: PyArray2::zeros(py, [num_envs, players], false).unbind(),
            terminated: PyArray1::zeros(py, [num_envs], false).unbind(),
            truncated: PyArray1::zeros(py, [num_envs], false).unbind(),
            illegal: PyArray1::zeros(py, [num_envs], false).unbind(),
            agents: PyArray1::zeros(py, [num_envs], false).unbind(),
        };
        let slots = (0..num_envs as u64)
            .map(|index| Slot {
                index,
                episode: 0,
                game: template.clone(),
                bots: Vec::new(),
                window: shared.encoder.window(&template),
                written: Written::default(),
                legal: Vec::new(),
                seen: vec![0; players],
                steps: 0,
            })
            .collect();
        let pool = if threads > 1 {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|error| PyValueError::new_err(error.to_string()))?,
            )
        } else {
            None
        };
        let mut games = VectorGames { shared, slots, arrays, pool, raise_illegal };
        games.start_all(py, true)?;
        Ok(games)
    }

    /// Starts every game anew: from `seed` when given (episode 0 of each game, as after
    /// construction with that seed), else each game's next episode. The arrays then hold the
    /// first observations, with zero rewards and no game ended.
    #[pyo3(signature = (seed = None))]
    fn reset(&mut self, py: Python<'_>, seed: Option<u64>) -> PyResult<()> {
        if let Some(seed) = seed {
            self.shared.seed = seed;
        }
        self.start_all(py, seed.is_some())
    }

    /// Plays one action in every game (`actions[i]` an index of game `i`'s action space) and
    /// everything up to each game's next decision for a caller's seat; the arrays then hold
    /// the new observations, rewards and ends.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyArray1<i64>>) -> PyResult<()> {
        // A copy, its borrow ended: `actions` may be one of the arrays this call writes.
        let actions = actions.try_readonly()?.as_array().to_vec();
        let actions = actions.as_slice();
        if actions.len() != self.slots.len() {
            return Err(PyValueError::new_err(format!(
                "{} actions for {} games",
                actions.len(),
                self.slots.len()
            )));
        }
        if self.raise_illegal {
            for (slot, index) in self.slots.iter().zip(actions) {
                if self.shared.legal_action(slot, *index).is_none() {
                    return Err(IllegalActionError::new_err(format!(
                        "action {index} is not legal in game {} (nothing was played)",
                        slot.index
                    )));
                }
            }
        }
        self.each(py, Some(actions), |shared, slot, index, out| shared.step(slot, index, out))
    }

    /// A random legal action index for every game, drawn from `seed` (for baselines and
    /// benchmarks: the same seed and games give the same draw).
    fn random_actions<'py>(&self, py: Python<'py>, seed: u64) -> Bound<'py, PyArray1<i64>> {
        let picks: Vec<i64> = self
            .slots
            .iter()
            .map(|slot| {
                let pick = derive_seed(seed, slot.index) % slot.legal.len().max(1) as u64;
                slot.legal
                    .get(pick as usize)
                    .and_then(|action| self.shared.encoder.index(&slot.window, *action, &slot.game))
                    .map_or(0, |index| index as i64)
            })
            .collect();
        PyArray1::from_vec(py, picks)
    }

    /// How many games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.slots.len()
    }

    /// The window's side.
    #[getter]
    fn side(&self) -> usize {
        self.shared.side
    }

    /// Board planes per observation.
    #[getter]
    fn planes(&self) -> usize {
        self.shared.encoder.planes()
    }

    /// Features per observation.
    #[getter]
    fn features_len(&self) -> usize {
        self.shared.encoder.features()
    }

    /// The size of the action space.
    #[getter]
    fn actions(&self) -> usize {
        self.shared.encoder.actions(self.shared.side)
    }

    /// Players (seats) per game.
    #[getter]
    fn players(&self) -> usize {
        self.shared.players()
    }

    /// uint8 planes, shaped (num_envs, planes, side, side), of the seat to decide.
    #[getter]
    fn observations<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray4<u8>> {
        self.arrays.observations.bind(py).clone()
    }

    /// float32 features, shaped (num_envs, features).
    #[getter]
    fn features<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.arrays.features.bind(py).clone()
    }

    /// int8 masks, shaped (num_envs, actions): 1 exactly for the legal actions.
    #[getter]
    fn action_masks<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i8>> {
        self.arrays.action_masks.bind(py).clone()
    }

    /// float32 rewards of the last step, shaped (num_envs, players), by seat.
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.arrays.rewards.bind(py).clone()
    }

    /// int32 scores now, shaped (num_envs, players), by seat.
    #[getter]
    fn scores<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i32>> {
        self.arrays.scores.bind(py).clone()
    }

    /// int32 final scores of the games that ended in the last step (where `terminated` or
    /// `truncated`), shaped (num_envs, players).
    #[getter]
    fn final_scores<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i32>> {
        self.arrays.final_scores.bind(py).clone()
    }

    /// bool, shaped (num_envs,): the game ended in the last step (and a new one began).
    #[getter]
    fn terminated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.arrays.terminated.bind(py).clone()
    }

    /// bool, shaped (num_envs,): the game was cut short in the last step because its
    /// frontier outgrew a window smaller than the guaranteed one (and a new one began).
    #[getter]
    fn truncated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.arrays.truncated.bind(py).clone()
    }

    /// bool, shaped (num_envs,): the last step's action was not legal and a random legal
    /// one was played instead.
    #[getter]
    fn illegal<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.arrays.illegal.bind(py).clone()
    }

    /// int64, shaped (num_envs,): the seat to decide in each game.
    #[getter]
    fn agents<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.arrays.agents.bind(py).clone()
    }

    /// A copy of game `index` as it stands (for pictures and inspection). It knows the bag's
    /// order, as the game itself does: give a policy or planner its `view()` or a
    /// `reshuffled` copy instead.
    fn game(&self, index: usize) -> PyResult<Game> {
        self.slots
            .get(index)
            .map(|slot| Game::wrap(slot.game.clone()))
            .ok_or_else(|| PyIndexError::new_err(format!("there is no game {index}")))
    }

    /// The action `action` stands for in game `index` now.
    fn decode(&self, index: usize, action: usize) -> PyResult<Action> {
        let slot = self
            .slots
            .get(index)
            .ok_or_else(|| PyIndexError::new_err(format!("there is no game {index}")))?;
        self.shared
            .encoder
            .action(&slot.window, action, &slot.game)
            .map(Action::from)
            .ok_or_else(|| PyValueError::new_err(format!("{action} is outside the action space")))
    }

    /// The episode each game is in (0 after a reset), as a list.
    fn episodes(&self) -> Vec<u64> {
        self.slots.iter().map(|slot| slot.episode).collect()
    }

    fn __len__(&self) -> usize {
        self.slots.len()
    }
}
