/* layout.c: prints the size and field offsets of every struct and the value of every constant in
 * include/carcassonne.h, for comparison with what Layout.cs prints of the C# binding. */

#include <stddef.h>
#include <stdio.h>

#include "carcassonne.h"

#define SIZE(type) printf("size %s %zu\n", #type, sizeof(type))
#define FIELD(type, field) printf("offset %s.%s %zu\n", #type, #field, offsetof(type, field))
#define CONST(name) printf("const %s %llu\n", #name, (unsigned long long)(name))

int main(void) {
    SIZE(carc_diagnostic_info);
    FIELD(carc_diagnostic_info, file);
    FIELD(carc_diagnostic_info, line);
    FIELD(carc_diagnostic_info, column);
    FIELD(carc_diagnostic_info, code);
    FIELD(carc_diagnostic_info, code_number);
    FIELD(carc_diagnostic_info, message);

    SIZE(carc_rules);
    FIELD(carc_rules, farmers);
    FIELD(carc_rules, farm_scoring);
    FIELD(carc_rules, tiny_city);
    FIELD(carc_rules, inn_cathedral_unfinished);
    FIELD(carc_rules, abbots);

    SIZE(carc_tileset_info);
    FIELD(carc_tileset_info, id);
    FIELD(carc_tileset_info, name);
    FIELD(carc_tileset_info, edition);
    FIELD(carc_tileset_info, followers);
    FIELD(carc_tileset_info, big_followers);
    FIELD(carc_tileset_info, has_start_tile);
    FIELD(carc_tileset_info, start_tile);
    FIELD(carc_tileset_info, stage);
    FIELD(carc_tileset_info, colours);
    FIELD(carc_tileset_info, tile_types);
    FIELD(carc_tileset_info, tile_count);

    SIZE(carc_tile_info);
    FIELD(carc_tile_info, id);
    FIELD(carc_tile_info, name);
    FIELD(carc_tile_info, count);
    FIELD(carc_tile_info, segment_count);
    FIELD(carc_tile_info, edges[0]);
    FIELD(carc_tile_info, edges[1]);
    FIELD(carc_tile_info, edges[2]);
    FIELD(carc_tile_info, edges[3]);

    SIZE(carc_segment_info);
    FIELD(carc_segment_info, kind);
    FIELD(carc_segment_info, edges);
    FIELD(carc_segment_info, half_edges);
    FIELD(carc_segment_info, marks);
    FIELD(carc_segment_info, cities);

    SIZE(carc_setup);
    FIELD(carc_setup, catalogs);
    FIELD(carc_setup, catalog_count);
    FIELD(carc_setup, players);
    FIELD(carc_setup, seed);
    FIELD(carc_setup, rules);

    SIZE(carc_pos);
    FIELD(carc_pos, x);
    FIELD(carc_pos, y);

    SIZE(carc_figure_info);
    FIELD(carc_figure_info, id);
    FIELD(carc_figure_info, figure);
    FIELD(carc_figure_info, follower);
    FIELD(carc_figure_info, strength);
    FIELD(carc_figure_info, per_player);
    FIELD(carc_figure_info, recall);
    SIZE(carc_token_info);
    FIELD(carc_token_info, id);
    FIELD(carc_token_info, name);
    FIELD(carc_token_info, taken_by);
    FIELD(carc_token_info, majority);

    SIZE(carc_title_info);
    FIELD(carc_title_info, id);
    FIELD(carc_title_info, name);
    FIELD(carc_title_info, feature);
    FIELD(carc_title_info, per_feature);
    FIELD(carc_title_info, holding);
    FIELD(carc_title_info, has_holder);
    FIELD(carc_title_info, holder);
    FIELD(carc_title_info, largest);
    FIELD(carc_title_info, completed);

    SIZE(carc_supply);
    FIELD(carc_supply, followers);
    FIELD(carc_supply, big_followers);
    FIELD(carc_supply, abbots);

    SIZE(carc_special_supply);
    FIELD(carc_special_supply, builders);
    FIELD(carc_special_supply, pigs);
    FIELD(carc_special_supply, shepherds);

    SIZE(carc_sheep_bag);
    FIELD(carc_sheep_bag, sheep[0]);
    FIELD(carc_sheep_bag, sheep[1]);
    FIELD(carc_sheep_bag, sheep[2]);
    FIELD(carc_sheep_bag, sheep[3]);
    FIELD(carc_sheep_bag, sheep[4]);
    FIELD(carc_sheep_bag, sheep[5]);
    FIELD(carc_sheep_bag, sheep[6]);
    FIELD(carc_sheep_bag, sheep[7]);
    FIELD(carc_sheep_bag, wolves);

    SIZE(carc_flock);
    FIELD(carc_flock, pos);
    FIELD(carc_flock, player);
    FIELD(carc_flock, segment);
    FIELD(carc_flock, sheep);
    FIELD(carc_flock, tokens[0]);
    FIELD(carc_flock, tokens[1]);
    FIELD(carc_flock, tokens[2]);
    FIELD(carc_flock, tokens[3]);
    FIELD(carc_flock, tokens[4]);
    FIELD(carc_flock, tokens[5]);
    FIELD(carc_flock, tokens[6]);
    FIELD(carc_flock, tokens[7]);

    SIZE(carc_action);
    FIELD(carc_action, kind);
    FIELD(carc_action, figure);
    FIELD(carc_action, pos);
    FIELD(carc_action, tile);
    FIELD(carc_action, rotation);
    FIELD(carc_action, segment);

    SIZE(carc_feature_score);
    FIELD(carc_feature_score, kind);
    FIELD(carc_feature_score, pos);
    FIELD(carc_feature_score, segment);
    FIELD(carc_feature_score, complete);
    FIELD(carc_feature_score, farmers);
    FIELD(carc_feature_score, scorers);
    FIELD(carc_feature_score, reason);
    FIELD(carc_feature_score, modifier);
    FIELD(carc_feature_score, tiles);
    FIELD(carc_feature_score, pennants);
    FIELD(carc_feature_score, cities);
    FIELD(carc_feature_score, points);

    SIZE(carc_event);
    FIELD(carc_event, kind);
    FIELD(carc_event, player);
    FIELD(carc_event, winners);
    FIELD(carc_event, tile);
    FIELD(carc_event, pos);
    FIELD(carc_event, rotation);
    FIELD(carc_event, segment);
    FIELD(carc_event, declared);
    FIELD(carc_event, figure);
    FIELD(carc_event, score);

    SIZE(carc_placement);
    FIELD(carc_placement, pos);
    FIELD(carc_placement, tile);
    FIELD(carc_placement, rotation);
    FIELD(carc_placement, order);
    FIELD(carc_placement, edges[0]);
    FIELD(carc_placement, edges[1]);
    FIELD(carc_placement, edges[2]);
    FIELD(carc_placement, edges[3]);

    SIZE(carc_segment_state);
    FIELD(carc_segment_state, kind);
    FIELD(carc_segment_state, feature);
    FIELD(carc_segment_state, has_figure);
    FIELD(carc_segment_state, player);
    FIELD(carc_segment_state, figure);

    SIZE(carc_feature_info);
    FIELD(carc_feature_info, id);
    FIELD(carc_feature_info, kind);
    FIELD(carc_feature_info, complete);
    FIELD(carc_feature_info, inn);
    FIELD(carc_feature_info, cathedral);
    FIELD(carc_feature_info, leaders);
    FIELD(carc_feature_info, tiles);
    FIELD(carc_feature_info, open_edges);
    FIELD(carc_feature_info, pennants);
    FIELD(carc_feature_info, figures);
    FIELD(carc_feature_info, figures_by_player[0]);
    FIELD(carc_feature_info, figures_by_player[1]);
    FIELD(carc_feature_info, figures_by_player[2]);
    FIELD(carc_feature_info, figures_by_player[3]);
    FIELD(carc_feature_info, figures_by_player[4]);
    FIELD(carc_feature_info, figures_by_player[5]);
    FIELD(carc_feature_info, figures_by_player[6]);
    FIELD(carc_feature_info, figures_by_player[7]);
    FIELD(carc_feature_info, strength_by_player[0]);
    FIELD(carc_feature_info, strength_by_player[1]);
    FIELD(carc_feature_info, strength_by_player[2]);
    FIELD(carc_feature_info, strength_by_player[3]);
    FIELD(carc_feature_info, strength_by_player[4]);
    FIELD(carc_feature_info, strength_by_player[5]);
    FIELD(carc_feature_info, strength_by_player[6]);
    FIELD(carc_feature_info, strength_by_player[7]);

    SIZE(carc_segment_ref);
    FIELD(carc_segment_ref, pos);
    FIELD(carc_segment_ref, segment);

    SIZE(carc_rule_info);
    FIELD(carc_rule_info, id);
    FIELD(carc_rule_info, kind);

    SIZE(carc_mark_info);
    FIELD(carc_mark_info, id);
    FIELD(carc_mark_info, name);
    FIELD(carc_mark_info, on_tiles);

    SIZE(carc_challenge);
    FIELD(carc_challenge, marked);
    FIELD(carc_challenge, plain);
    FIELD(carc_challenge, marked_player);
    FIELD(carc_challenge, plain_player);
    FIELD(carc_challenge, rule);

    SIZE(carc_placed_figure);
    FIELD(carc_placed_figure, player);
    FIELD(carc_placed_figure, figure);
    FIELD(carc_placed_figure, pos);
    FIELD(carc_placed_figure, segment);

    SIZE(carc_landscape_options);
    FIELD(carc_landscape_options, rules);
    FIELD(carc_landscape_options, claim_all);
    FIELD(carc_landscape_options, has_pennant_value);
    FIELD(carc_landscape_options, pennant_value);

    SIZE(carc_landscape_scoring);
    FIELD(carc_landscape_scoring, rules);
    FIELD(carc_landscape_scoring, claim_all);
    FIELD(carc_landscape_scoring, pennant_value);
    FIELD(carc_landscape_scoring, unfinished_pennant_value);

    CONST(CARC_ABI_VERSION_MAJOR);
    CONST(CARC_ABI_VERSION_MINOR);
    CONST(CARC_MAX_PLAYERS);
    CONST(CARC_MAX_SEGMENTS_PER_TILE);

    CONST(CARC_DIR_N);
    CONST(CARC_DIR_E);
    CONST(CARC_DIR_S);
    CONST(CARC_DIR_W);

    CONST(CARC_HALF_EDGE_N_W);
    CONST(CARC_HALF_EDGE_N_E);
    CONST(CARC_HALF_EDGE_E_N);
    CONST(CARC_HALF_EDGE_E_S);
    CONST(CARC_HALF_EDGE_S_E);
    CONST(CARC_HALF_EDGE_S_W);
    CONST(CARC_HALF_EDGE_W_S);
    CONST(CARC_HALF_EDGE_W_N);

    CONST(CARC_MARK_PENNANT);
    CONST(CARC_MARK_CATHEDRAL);
    CONST(CARC_MARK_INN);

    CONST(CARC_RESULT_OK);
    CONST(CARC_RESULT_NULL_ARGUMENT);
    CONST(CARC_RESULT_INVALID_UTF8);
    CONST(CARC_RESULT_BUFFER_TOO_SMALL);
    CONST(CARC_RESULT_INVALID_ARGUMENT);
    CONST(CARC_RESULT_INVALID_ENUM);
    CONST(CARC_RESULT_OUT_OF_RANGE);
    CONST(CARC_RESULT_NOT_AVAILABLE);
    CONST(CARC_RESULT_INVALID_HANDLE);
    CONST(CARC_RESULT_TOO_MANY_HANDLES);
    CONST(CARC_RESULT_UNKNOWN_BUILTIN);
    CONST(CARC_RESULT_TILESET_INVALID);
    CONST(CARC_RESULT_TILESET_IO);
    CONST(CARC_RESULT_TILESET_TOO_LARGE);
    CONST(CARC_RESULT_NO_TILE_SET);
    CONST(CARC_RESULT_TOO_FEW_PLAYERS);
    CONST(CARC_RESULT_TOO_MANY_PLAYERS);
    CONST(CARC_RESULT_DUPLICATE_TILE_ID);
    CONST(CARC_RESULT_NO_START_TILE);
    CONST(CARC_RESULT_TOO_MANY_TILE_TYPES);
    CONST(CARC_RESULT_TOO_MANY_TILES);
    CONST(CARC_RESULT_CONFLICTING_DECLARATION);
    CONST(CARC_RESULT_TOO_MANY_DECLARATIONS);
    CONST(CARC_RESULT_NO_FOLLOWERS);
    CONST(CARC_RESULT_WRONG_PHASE);
    CONST(CARC_RESULT_UNKNOWN_TILE);
    CONST(CARC_RESULT_TILE_NOT_IN_BAG);
    CONST(CARC_RESULT_TILE_OF_LATER_STAGE);
    CONST(CARC_RESULT_TILE_COMES_LAST);
    CONST(CARC_RESULT_CELL_OCCUPIED);
    CONST(CARC_RESULT_NO_NEIGHBOUR);
    CONST(CARC_RESULT_EDGE_MISMATCH);
    CONST(CARC_RESULT_BOARD_FULL);
    CONST(CARC_RESULT_OUT_OF_BOUNDS);
    CONST(CARC_RESULT_RIVER_NOT_CONTINUED);
    CONST(CARC_RESULT_RIVER_TURNS_BACK);
    CONST(CARC_RESULT_NO_SUCH_SEGMENT);
    CONST(CARC_RESULT_FIGURE_NOT_ALLOWED);
    CONST(CARC_RESULT_FEATURE_OCCUPIED);
    CONST(CARC_RESULT_NONE_LEFT);
    CONST(CARC_RESULT_NO_ABBOT_THERE);
    CONST(CARC_RESULT_ABBOT_FEATURE_COMPLETE);
    CONST(CARC_RESULT_GAME_OVER);
    CONST(CARC_RESULT_TOO_MANY_RIVALS);
    CONST(CARC_RESULT_RIVER_BRANCHES_JOIN);
    CONST(CARC_RESULT_TILES_COME_FIRST);
    CONST(CARC_RESULT_NEEDS_OWN_FOLLOWER);
    CONST(CARC_RESULT_FIGURE_ALREADY_THERE);
    CONST(CARC_RESULT_SHEEP_NOT_IN_BAG);
    CONST(CARC_RESULT_NO_WOLF_IN_BAG);
    CONST(CARC_RESULT_FLOCK_BAG_EMPTY);
    CONST(CARC_RESULT_JSON_SYNTAX);
    CONST(CARC_RESULT_JSON_CONTENT);
    CONST(CARC_RESULT_SAVE_FORMAT);
    CONST(CARC_RESULT_SAVE_ACTION_REFUSED);
    CONST(CARC_RESULT_JSON_TOO_LARGE);
    CONST(CARC_RESULT_LANDSCAPE_UNKNOWN_TILE);
    CONST(CARC_RESULT_LANDSCAPE_PLACEMENT);
    CONST(CARC_RESULT_LANDSCAPE_NO_TILE);
    CONST(CARC_RESULT_LANDSCAPE_NO_SUCH_SEGMENT);
    CONST(CARC_RESULT_LANDSCAPE_FIGURE_NOT_ALLOWED);
    CONST(CARC_RESULT_LANDSCAPE_PLAYER_OUT_OF_RANGE);
    CONST(CARC_RESULT_UNKNOWN_PROFILE);
    CONST(CARC_RESULT_PROFILE_INVALID);
    CONST(CARC_RESULT_PANIC);
    CONST(CARC_RESULT_POISONED);

    CONST(CARC_PHASE_DRAW);
    CONST(CARC_PHASE_PLACE);
    CONST(CARC_PHASE_FIGURE);
    CONST(CARC_PHASE_GAME_OVER);
    CONST(CARC_PHASE_SHEEP);
    CONST(CARC_PHASE_FLOCK);

    CONST(CARC_ACTION_KIND_DRAW);
    CONST(CARC_ACTION_KIND_DRAW_TILE);
    CONST(CARC_ACTION_KIND_PLACE);
    CONST(CARC_ACTION_KIND_DEPLOY);
    CONST(CARC_ACTION_KIND_RECALL_ABBOT);
    CONST(CARC_ACTION_KIND_SKIP);
    CONST(CARC_ACTION_KIND_DRAW_SHEEP);
    CONST(CARC_ACTION_KIND_DRAW_WOLF);
    CONST(CARC_ACTION_KIND_GROW_FLOCK);
    CONST(CARC_ACTION_KIND_DRIVE_FLOCK);

    CONST(CARC_FIGURE_FOLLOWER);
    CONST(CARC_FIGURE_BIG_FOLLOWER);
    CONST(CARC_FIGURE_ABBOT);
    CONST(CARC_FIGURE_BUILDER);
    CONST(CARC_FIGURE_PIG);
    CONST(CARC_FIGURE_SHEPHERD);
    CONST(CARC_FIGURE_DECLARED);

    CONST(CARC_SEGMENT_KIND_CITY);
    CONST(CARC_SEGMENT_KIND_ROAD);
    CONST(CARC_SEGMENT_KIND_FIELD);
    CONST(CARC_SEGMENT_KIND_RIVER);
    CONST(CARC_SEGMENT_KIND_MONASTERY);
    CONST(CARC_SEGMENT_KIND_GARDEN);

    CONST(CARC_EDGE_KIND_CITY);
    CONST(CARC_EDGE_KIND_ROAD);
    CONST(CARC_EDGE_KIND_FIELD);
    CONST(CARC_EDGE_KIND_RIVER);

    CONST(CARC_EVENT_KIND_TILE_DRAWN);
    CONST(CARC_EVENT_KIND_TILE_DISCARDED);
    CONST(CARC_EVENT_KIND_TILE_PLACED);
    CONST(CARC_EVENT_KIND_FIGURE_PLACED);
    CONST(CARC_EVENT_KIND_ABBOT_RECALLED);
    CONST(CARC_EVENT_KIND_FEATURE_SCORED);
    CONST(CARC_EVENT_KIND_FIGURE_RETURNED);
    CONST(CARC_EVENT_KIND_TURN_STARTED);
    CONST(CARC_EVENT_KIND_GAME_OVER);
    CONST(CARC_EVENT_KIND_TOKENS_TAKEN);
    CONST(CARC_EVENT_KIND_TOKENS_SCORED);
    CONST(CARC_EVENT_KIND_TITLE_TAKEN);
    CONST(CARC_EVENT_KIND_TITLE_SCORED);
    CONST(CARC_EVENT_KIND_TILE_HIDDEN);
    CONST(CARC_EVENT_KIND_SHEEP_DRAWN);
    CONST(CARC_EVENT_KIND_WOLF_DRAWN);
    CONST(CARC_EVENT_KIND_EXTRA_TURN);

    CONST(CARC_TOKEN_TAKER_COMPLETER);
    CONST(CARC_TOKEN_TAKER_SCORERS);

    CONST(CARC_RULE_KIND_VALUE);
    CONST(CARC_RULE_KIND_FARM);
    CONST(CARC_RULE_KIND_NEIGHBOURS);
    CONST(CARC_RULE_KIND_TIEBREAK);
    CONST(CARC_RULE_KIND_RIVAL);
    CONST(CARC_RULE_KIND_CHAIN);
    CONST(CARC_RULE_KIND_OCCUPANTS);
    CONST(CARC_RULE_KIND_PIG);
    CONST(CARC_RULE_KIND_FLOCK);
    CONST(CARC_RULE_KIND_HIDE);

    CONST(CARC_SCORE_REASON_COMPLETED);
    CONST(CARC_SCORE_REASON_ABBOT_RECALLED);
    CONST(CARC_SCORE_REASON_GAME_END);
    CONST(CARC_SCORE_REASON_DEFEATED);
    CONST(CARC_SCORE_REASON_MARKET);

    CONST(CARC_MODIFIER_NONE);
    CONST(CARC_MODIFIER_INN);
    CONST(CARC_MODIFIER_CATHEDRAL);
    CONST(CARC_MODIFIER_UNFINISHED_INN);
    CONST(CARC_MODIFIER_UNFINISHED_CATHEDRAL);
    CONST(CARC_MODIFIER_TINY_CITY);

    CONST(CARC_FARM_SCORING_PER_FIELD);
    CONST(CARC_FARM_SCORING_PER_FIELD_ONCE);
    CONST(CARC_FARM_SCORING_PER_CITY_4);

    CONST(CARC_UNFINISHED_MARKS_ZERO);
    CONST(CARC_UNFINISHED_MARKS_NORMAL);

    SIZE(carc_point);
    FIELD(carc_point, x);
    FIELD(carc_point, y);

    SIZE(carc_analysis_config);
    FIELD(carc_analysis_config, rollouts);
    FIELD(carc_analysis_config, seconds);
    FIELD(carc_analysis_config, seed);
    FIELD(carc_analysis_config, threads);
    FIELD(carc_analysis_config, continuation);
    FIELD(carc_analysis_config, keep);
    FIELD(carc_analysis_config, report_every_ms);

    SIZE(carc_move_stats);
    FIELD(carc_move_stats, place);
    FIELD(carc_move_stats, figure);
    FIELD(carc_move_stats, has_place);
    FIELD(carc_move_stats, rollouts);
    FIELD(carc_move_stats, margin);
    FIELD(carc_move_stats, margin_se);
    FIELD(carc_move_stats, win);
    FIELD(carc_move_stats, win_se);
    FIELD(carc_move_stats, score);

    SIZE(carc_analysis_summary);
    FIELD(carc_analysis_summary, rollouts);
    FIELD(carc_analysis_summary, seconds);
    FIELD(carc_analysis_summary, moves);
    FIELD(carc_analysis_summary, stop);
    FIELD(carc_analysis_summary, tile);
    FIELD(carc_analysis_summary, player);

    CONST(CARC_PICTURE_SCORE_PANEL);
    CONST(CARC_PICTURE_LAST_MOVE);
    CONST(CARC_CONTINUATION_RANDOM);
    CONST(CARC_CONTINUATION_GREEDY);
    CONST(CARC_ANALYSIS_STOP_RUNNING);
    CONST(CARC_ANALYSIS_STOP_BUDGET);
    CONST(CARC_ANALYSIS_STOP_TIME);
    CONST(CARC_ANALYSIS_STOP_CANCELLED);
    CONST(CARC_ANALYSIS_STOP_FORCED);
    return 0;
}
