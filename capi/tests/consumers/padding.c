/* padding.c: every byte of every struct the library writes is written, padding bytes as 0,
 * so a caller may hash structs or compare them with memcmp. Run under valgrind, which reports
 * a comparison of bytes the library left uninitialised, and with the sanitizers.
 * Prints one line per check that failed and exits with 1 if any did. */

#include <carcassonne.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static unsigned long checks_run;
static unsigned long checks_failed;

static int check_at(int ok, const char *file, int line, const char *text)
{
    checks_run++;
    if (!ok) {
        checks_failed++;
        printf("FAIL %s:%d: %s\n", file, line, text);
    }
    return ok;
}

static int check_code_at(uint32_t got, uint32_t expected, const char *file, int line,
                         const char *call)
{
    checks_run++;
    if (got != expected) {
        checks_failed++;
        const char *name = carc_result_name(got);
        printf("FAIL %s:%d: %s\n    expected %u, got %s (%u)\n", file, line, call,
               (unsigned)expected, name != NULL ? name : "?", (unsigned)got);
        return 0;
    }
    return 1;
}

#define CHECK(cond) check_at((cond) != 0, __FILE__, __LINE__, #cond)
#define CHECK_CODE(call, expected) check_code_at((call), (expected), __FILE__, __LINE__, #call)

/* A closed city of three tiles with a pennant, and its fields. */
static const char LANDSCAPE_JSON[] =
    "{\"tiles\": [{\"tile\": \"E\", \"x\": -1, \"y\": 0, \"rotation\": 90},"
    " {\"tile\": \"F\", \"x\": 0, \"y\": 0},"
    " {\"tile\": \"E\", \"x\": 1, \"y\": 0, \"rotation\": 270}]}";

static carc_game *game_from_json(const char *json)
{
    carc_game *game = NULL;
    CHECK_CODE(carc_game_new_json(json, &game, NULL), CARC_RESULT_OK);
    return game;
}

/* Runs `call` twice, with `out_` pointing at `cap` items of `type` filled with 0xAA the
   first time and 0x55 the second, and compares the first `*written` items (1 for a single
   struct; a list call sets its count): a byte that differs between the two was never written
   (a padding byte left as the caller's garbage, which breaks hashing and memcmp). */
#define CHECK_WRITTEN_BYTES(type, cap, written, call)                                         \
    do {                                                                                      \
        type first_[cap], second_[cap];                                                      \
        type *out_ = first_;                                                                  \
        memset(first_, 0xAA, sizeof first_);                                                  \
        uint32_t code_ = (call);                                                              \
        out_ = second_;                                                                       \
        memset(second_, 0x55, sizeof second_);                                                \
        check_code_at((call), code_, __FILE__, __LINE__, #call " (again)");                   \
        if (check_code_at(code_, CARC_RESULT_OK, __FILE__, __LINE__, #call)) {                \
            check_at(*(written) > 0 && memcmp(first_, second_, *(written) * sizeof(type)) == 0, \
                     __FILE__, __LINE__, "every byte of " #type " is written, padding as 0: " #call); \
        }                                                                                     \
    } while (0)
#define CHECK_EVERY_BYTE(type, call) CHECK_WRITTEN_BYTES(type, 1, &one, call)
#define CHECK_EVERY_LISTED_BYTE(type, cap, call) CHECK_WRITTEN_BYTES(type, cap, &n, call)

static void test_every_byte_written(void)
{
    carc_game *game = game_from_json("{\"tilesets\": [\"base\", \"inns_and_cathedrals\"], "
                                     "\"players\": 3, \"seed\": 5, \"options\": {\"abbots\": true}}");
    carc_catalog *catalog = NULL;
    carc_catalog_builtin("inns_and_cathedrals", &catalog, NULL);
    if (game == NULL || catalog == NULL) {
        return;
    }
    size_t count = 0, n = 0, one = 1;
    carc_game_legal_action_count(game, &count);
    /* A whole game, choosing the middle action: figures go down and features score. */
    int placed_checked = 0;
    for (size_t step = 0; count > 0 && step < 1000; step++) {
        carc_game_apply_legal(game, count / 2, &count, NULL);
        carc_pos placed;
        if (step > 100 && !placed_checked && carc_game_placed_pos(game, &placed) == CARC_RESULT_OK) {
            placed_checked = 1;
            CHECK_EVERY_BYTE(carc_pos, carc_game_placed_pos(game, out_));
        }
        if (step == 200) {
            carc_pos pos = {0, 0};
            CHECK_EVERY_BYTE(carc_placement, carc_game_tile_at(game, pos, out_));
            CHECK_EVERY_BYTE(carc_segment_state, carc_game_segment(game, pos, 0, out_));
            CHECK_EVERY_BYTE(carc_feature_info, carc_game_feature(game, pos, 0, out_));
            CHECK_EVERY_LISTED_BYTE(carc_segment_ref, 256,
                                    carc_game_feature_segments(game, pos, 0, out_, 256, &n));
            CHECK_EVERY_LISTED_BYTE(carc_placed_figure, 64, carc_game_figures(game, out_, 64, &n));
            CHECK_EVERY_LISTED_BYTE(carc_pos, 256, carc_game_frontier(game, out_, 256, &n));
            CHECK_EVERY_LISTED_BYTE(carc_placement, 256, carc_game_placements(game, out_, 256, &n));
            CHECK_EVERY_LISTED_BYTE(carc_action, 512, carc_game_legal_actions(game, out_, 512, &n));
            CHECK_EVERY_BYTE(carc_action, carc_game_legal_action(game, 0, out_));
        }
    }
    CHECK(placed_checked);
    CHECK(count == 0);
    CHECK_EVERY_LISTED_BYTE(carc_event, 256, carc_game_last_events(game, out_, 256, &n));
    CHECK(n > 3);
    CHECK_EVERY_LISTED_BYTE(carc_action, 1024, carc_game_actions(game, out_, 1024, &n));
    CHECK_EVERY_BYTE(carc_rules, carc_game_rules(game, out_));
    CHECK_EVERY_BYTE(carc_supply, carc_game_supply(game, 1, out_));
    CHECK_EVERY_BYTE(carc_tile_info, carc_game_tile_info(game, 3, out_));
    CHECK_EVERY_BYTE(carc_segment_info, carc_game_tile_segment(game, 3, 1, out_));
    CHECK_EVERY_BYTE(carc_rules, carc_rules_default(out_));
    CHECK_EVERY_BYTE(carc_setup, carc_setup_default(out_));
    CHECK_EVERY_BYTE(carc_tileset_info, carc_catalog_info(catalog, out_));
    CHECK_EVERY_BYTE(carc_tile_info, carc_catalog_tile_info(catalog, 0, out_));
    CHECK_EVERY_BYTE(carc_segment_info, carc_catalog_tile_segment(catalog, 0, 0, out_));
    CHECK_EVERY_BYTE(carc_landscape_scoring, carc_landscape_scoring_default(out_));
    carc_landscape_scoring published;
    carc_landscape_scoring_default(&published);
    published.claim_all = 1;
    CHECK_EVERY_BYTE(carc_landscape_scoring, carc_landscape_scoring_solo_puzzle(out_));
    carc_landscape_score *score = NULL;
    if (CHECK_CODE(carc_landscape_score_new_scoring(LANDSCAPE_JSON, NULL, 0, &published, &score,
                                                    NULL),
                   CARC_RESULT_OK)) {
        CHECK_EVERY_LISTED_BYTE(carc_feature_score, 16,
                                carc_landscape_score_features(score, out_, 16, &n));
        carc_landscape_score_free(score);
    }
    carc_error *err = NULL;
    carc_catalog *none = NULL;
    if (CHECK_CODE(carc_catalog_from_toml("bad.toml", "[set]\nid = 3\n", &none, &err),
                   CARC_RESULT_TILESET_INVALID)) {
        CHECK_EVERY_BYTE(carc_diagnostic_info, carc_error_diagnostic(err, 0, out_));
        carc_error_free(err);
    }
    carc_catalog_free(catalog);
    carc_game_free(game);
}

int main(void)
{
    test_every_byte_written();
    CHECK(carc_live_handles() == 0);
    printf("padding: %lu checks, %lu failed\n", checks_run, checks_failed);
    return checks_failed == 0 ? 0 : 1;
}
