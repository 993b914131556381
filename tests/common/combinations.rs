//! The combinations of built-in sets a game can be played with, shared by the game properties
//! and the action-script property of `properties/`.

/// Each combination's set names, in setup order.
pub const COMBINATIONS: &[&[&str]] = &[
    &["base"],
    &["base_c2"],
    &["base", "river"],
    &["base", "inns_and_cathedrals"],
    &["base", "river", "inns_and_cathedrals"],
    &["base_c2", "river", "inns_and_cathedrals"],
    &["base", "inns_and_cathedrals", "cathars", "traders_and_builders"],
    &["base", "hills_and_sheep", "king_and_robber", "cult"],
    &["base", "traders_and_builders", "hills_and_sheep"],
    &["base", "river_ii", "inns_and_cathedrals"],
];
