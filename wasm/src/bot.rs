//! `Bot`: the engine's bots, by level or by profile.

use carcassonne_bots::{Bot as CoreBot, BotKind, Profiles};
use wasm_bindgen::prelude::*;

use crate::convert::{seed, to_js};
use crate::errors::error;
use crate::game::Game;

/// A bot: one of the built-in levels (`random`, `easy`, `medium`, `greedy`, `hard`,
/// `expert`, `anchor`) or a profile of a profile file's text.
#[wasm_bindgen]
pub struct Bot {
    bot: Box<dyn CoreBot>,
}

#[wasm_bindgen]
impl Bot {
    /// The bot of profile `profile` (`medium` by default) with `seed`; `profiles` is the text of
    /// a profile file (TOML) whose profiles join the built-in ones. External bots run programs,
    /// which a browser cannot: their profiles are refused.
    #[wasm_bindgen(constructor)]
    pub fn new(
        profile: Option<String>,
        seed: Option<f64>,
        profiles: Option<String>,
    ) -> Result<Bot, JsValue> {
        let seed = self::seed(seed.unwrap_or(0.0))?;
        let all = match profiles {
            None => Profiles::builtin().clone(),
            Some(text) => Profiles::builtin().with(
                &Profiles::from_toml("profiles", &text)
                    .map_err(|refusal| error("BotError", refusal.to_string()))?,
            ),
        };
        let name = profile.as_deref().unwrap_or("medium");
        let found = all.find(name).map_err(|refusal| error("BotError", refusal.to_string()))?;
        if matches!(found.kind, BotKind::External { .. }) {
            return Err(error(
                "BotError",
                format!(
                    "profile `{name}` is an external bot, a program to run, which JavaScript cannot start"
                ),
            ));
        }
        Ok(Bot { bot: found.bot(seed) })
    }

    /// The names of the built-in profiles.
    #[wasm_bindgen(js_name = builtinNames, unchecked_return_type = "string[]")]
    pub fn builtin_names() -> Result<JsValue, JsValue> {
        to_js(&Profiles::builtin().names().collect::<Vec<_>>())
    }

    /// The profile's name.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.bot.name().into()
    }

    /// The action the player to move in `game` takes: a draw in the draw phase, else a
    /// placement or a figure action the game accepts. The game is not changed.
    #[wasm_bindgen(unchecked_return_type = "Action")]
    pub fn choose(&self, game: &Game) -> Result<JsValue, JsValue> {
        let game = game.core();
        let action = self
            .bot
            .choose(game, game.current_player())
            .map_err(|refusal| error("BotError", refusal.to_string()))?;
        to_js(&action)
    }
}
