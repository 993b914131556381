"""The tile set combinations the tests play: every set, alone or with the others."""

SET_COMBINATIONS = [
    ["base"],
    ["base", "river"],
    ["base", "inns_and_cathedrals"],
    ["base", "river", "inns_and_cathedrals"],
    ["base_c2"],
    ["base", "inns_and_cathedrals", "cathars", "traders_and_builders"],
    ["base", "hills_and_sheep", "king_and_robber"],
    ["base", "traders_and_builders", "hills_and_sheep"],
    ["base", "cult"],
    ["river_ii", "base", "inns_and_cathedrals"],
]
