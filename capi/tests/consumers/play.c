/* play.c: a C11 consumer: plays seeded random games through the C ABI and checks its answers. */

/*
 * Usage: play [GAMES [CONFIG]]: GAMES games (seeds 1, 2, ...) of every configuration, or of
 * CONFIG alone. Each game prints
 *   config=<name> seed=<n> actions=<n> scores=<a,b,...> winners=<mask> save_fnv=<hex>
 * where the choices come from splitmix64 seeded with the game's seed, legal[next() % count]
 * at every step, so the Rust test replays the same games through the Rust API. Any failed
 * call or inconsistency prints why to stderr and exits with 1.
 */

#include <carcassonne.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Late enough that the board has features and figures, early enough that every game gets there. */
#define CLONE_AT 40
/* More figures than eight players own: 7 followers, a big follower and an abbot each. */
#define MAX_FIGURES 128
#define MAX_SETS 8

struct config {
    const char *name;
    const char *sets[MAX_SETS];
    size_t set_count;
    uint8_t players;
    uint8_t farmers;
    carc_farm_scoring farm_scoring;
    uint8_t tiny_city;
    carc_unfinished_marks unfinished;
    uint8_t abbots;
    /* When not NULL, the first game comes from this JSON setup (with `"seed": <n>}` appended)
     * instead of carc_game_new; the fields above say what it must amount to. */
    const char *setup_json_head;
};

static const struct config CONFIGS[] = {
    {"base_2p", {"base"}, 1, 2, 1, CARC_FARM_SCORING_PER_FIELD, 0, CARC_UNFINISHED_MARKS_ZERO, 0,
     NULL},
    {"base_c2_3p_abbots", {"base_c2"}, 1, 3, 1, CARC_FARM_SCORING_PER_FIELD, 0,
     CARC_UNFINISHED_MARKS_ZERO, 1, NULL},
    {"river_base_4p_city4", {"river", "base"}, 2, 4, 1, CARC_FARM_SCORING_PER_CITY_4, 0,
     CARC_UNFINISHED_MARKS_ZERO, 0, NULL},
    {"base_ic_6p_tiny_normal", {"base", "inns_and_cathedrals"}, 2, 6, 1,
     CARC_FARM_SCORING_PER_FIELD, 1, CARC_UNFINISHED_MARKS_NORMAL, 0, NULL},
    {"river_c2_ic_5p_abbots_once", {"river", "base_c2", "inns_and_cathedrals"}, 3, 5, 1,
     CARC_FARM_SCORING_PER_FIELD_ONCE, 0, CARC_UNFINISHED_MARKS_ZERO, 1, NULL},
    {"base_ic_cathars_4p_city4", {"base", "inns_and_cathedrals", "cathars"}, 3, 4, 1,
     CARC_FARM_SCORING_PER_CITY_4, 0, CARC_UNFINISHED_MARKS_ZERO, 0, NULL},
    {"base_traders_3p", {"base", "traders_and_builders"}, 2, 3, 1, CARC_FARM_SCORING_PER_FIELD,
     0, CARC_UNFINISHED_MARKS_ZERO, 0, NULL},
    {"base_c2_hills_2p_abbots", {"base_c2", "hills_and_sheep"}, 2, 2, 1,
     CARC_FARM_SCORING_PER_FIELD, 0, CARC_UNFINISHED_MARKS_ZERO, 1, NULL},
    {"base_king_robber_3p", {"base", "king_and_robber"}, 2, 3, 1, CARC_FARM_SCORING_PER_FIELD,
     0, CARC_UNFINISHED_MARKS_ZERO, 0, NULL},
    {"base_cult_2p_abbots", {"base", "cult"}, 2, 2, 1, CARC_FARM_SCORING_PER_FIELD, 0,
     CARC_UNFINISHED_MARKS_ZERO, 1, NULL},
    {"river_ii_base_ic_3p", {"river_ii", "base", "inns_and_cathedrals"}, 3, 3, 1,
     CARC_FARM_SCORING_PER_FIELD, 0, CARC_UNFINISHED_MARKS_ZERO, 0, NULL},
    {"every_set_6p_abbots",
     {"river", "base", "inns_and_cathedrals", "cathars", "traders_and_builders",
      "hills_and_sheep", "king_and_robber", "cult"},
     8, 6, 1, CARC_FARM_SCORING_PER_FIELD, 0, CARC_UNFINISHED_MARKS_ZERO, 1, NULL},
    {"ic_base_3p_no_farmers_json", {"inns_and_cathedrals", "base"}, 2, 3, 0,
     CARC_FARM_SCORING_PER_FIELD, 0, CARC_UNFINISHED_MARKS_ZERO, 0,
     "{\"tilesets\": [\"inns_and_cathedrals\", \"base\"], \"players\": 3, "
     "\"options\": {\"farmers\": false}, \"seed\": "},
};
#define CONFIG_COUNT (sizeof CONFIGS / sizeof CONFIGS[0])

/* ----- failing loudly ----- */

/* What the program is doing, so a failure names the game and step it happened in. */
static char where[128] = "start";

static void die(const char *format, ...) {
    va_list args;
    va_start(args, format);
    fprintf(stderr, "play: %s: ", where);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    exit(1);
}

#define EXPECT(cond, ...)                                                                     \
    do {                                                                                      \
        if (!(cond)) die(__VA_ARGS__);                                                        \
    } while (0)

static const char *result_name(carc_result code) {
    const char *name = carc_result_name(code);
    return name != NULL ? name : "a code carc_result_name does not know";
}

static void check(carc_result code, const char *call) {
    if (code != CARC_RESULT_OK) die("%s returned %s", call, result_name(code));
}

/* For the calls that explain themselves through a carc_error. */
static void check_err(carc_result code, carc_error *err, const char *call) {
    if (code == CARC_RESULT_OK) return;
    const char *message = carc_error_message(err);
    fprintf(stderr, "play: %s: %s returned %s: %s\n", where, call, result_name(code),
            message != NULL ? message : "(no error object)");
    carc_error_free(err);
    exit(1);
}

#define CHECK(call) check((call), #call)

/* ----- caller buffers ----- */

/* A buffer that grows to what the library asks for: calls go in a loop that retries after
 * CARC_RESULT_BUFFER_TOO_SMALL, starting from NULL/0, which is the size query. */
struct list {
    void *items;
    size_t cap;
};

static void grow(struct list *list, size_t needed, size_t item_size) {
    EXPECT(needed > list->cap, "BUFFER_TOO_SMALL asked for %zu items with room for %zu", needed,
           list->cap);
    void *items = realloc(list->items, needed * item_size);
    if (items == NULL) die("out of memory");
    list->items = items;
    list->cap = needed;
}

struct scratch {
    struct list actions, events, figures, frontier, refs, placements, remaining, scores;
};

static void scratch_free(struct scratch *s) {
    struct list *lists[] = {&s->actions,  &s->events,    &s->figures,   &s->frontier,
                            &s->refs,     &s->placements, &s->remaining, &s->scores};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) free(lists[i]->items);
}

static size_t legal_actions(const carc_game *game, struct list *list) {
    size_t count = 0;
    carc_result code;
    while ((code = carc_game_legal_actions(game, list->items, list->cap, &count)) ==
           CARC_RESULT_BUFFER_TOO_SMALL)
        grow(list, count, sizeof(carc_action));
    check(code, "carc_game_legal_actions");
    return count;
}

static size_t last_events(const carc_game *game, struct list *list) {
    size_t count = 0;
    carc_result code;
    while ((code = carc_game_last_events(game, list->items, list->cap, &count)) ==
           CARC_RESULT_BUFFER_TOO_SMALL)
        grow(list, count, sizeof(carc_event));
    check(code, "carc_game_last_events");
    return count;
}

static size_t figures(const carc_game *game, struct list *list) {
    size_t count = 0;
    carc_result code;
    while ((code = carc_game_figures(game, list->items, list->cap, &count)) ==
           CARC_RESULT_BUFFER_TOO_SMALL)
        grow(list, count, sizeof(carc_placed_figure));
    check(code, "carc_game_figures");
    return count;
}

static size_t frontier(const carc_game *game, struct list *list) {
    size_t count = 0;
    carc_result code;
    while ((code = carc_game_frontier(game, list->items, list->cap, &count)) ==
           CARC_RESULT_BUFFER_TOO_SMALL)
        grow(list, count, sizeof(carc_pos));
    check(code, "carc_game_frontier");
    return count;
}

static size_t feature_segments(const carc_game *game, carc_pos pos, uint8_t segment,
                               struct list *list) {
    size_t count = 0;
    carc_result code;
    while ((code = carc_game_feature_segments(game, pos, segment, list->items, list->cap,
                                              &count)) == CARC_RESULT_BUFFER_TOO_SMALL)
        grow(list, count, sizeof(carc_segment_ref));
    check(code, "carc_game_feature_segments");
    return count;
}

static size_t placements(const carc_game *game, struct list *list) {
    size_t count = 0;
    carc_result code;
    while ((code = carc_game_placements(game, list->items, list->cap, &count)) ==
           CARC_RESULT_BUFFER_TOO_SMALL)
        grow(list, count, sizeof(carc_placement));
    check(code, "carc_game_placements");
    return count;
}

static size_t remaining(const carc_game *game, struct list *list) {
    size_t count = 0;
    carc_result code;
    while ((code = carc_game_remaining_copies(game, list->items, list->cap, &count)) ==
           CARC_RESULT_BUFFER_TOO_SMALL)
        grow(list, count, sizeof(uint16_t));
    check(code, "carc_game_remaining_copies");
    return count;
}

static size_t scores(const carc_game *game, struct list *list) {
    size_t count = 0;
    carc_result code;
    while ((code = carc_game_scores(game, list->items, list->cap, &count)) ==
           CARC_RESULT_BUFFER_TOO_SMALL)
        grow(list, count, sizeof(uint32_t));
    check(code, "carc_game_scores");
    return count;
}

/* The saved game as a malloc'd string. The exact-size protocol is checked on the way: the size
 * query, a buffer one byte short that must come back untouched, then the real call. */
static char *save_text(const carc_game *game) {
    size_t size = 0;
    carc_result code = carc_game_save_json(game, NULL, 0, &size);
    EXPECT(code == CARC_RESULT_BUFFER_TOO_SMALL && size > 1,
           "the save size query returned %s with size %zu", result_name(code), size);
    char *text = malloc(size);
    if (text == NULL) die("out of memory");
    memset(text, 'Z', size);
    size_t short_size = 0;
    code = carc_game_save_json(game, text, size - 1, &short_size);
    EXPECT(code == CARC_RESULT_BUFFER_TOO_SMALL && short_size == size,
           "saving into %zu bytes of %zu returned %s with size %zu", size - 1, size,
           result_name(code), short_size);
    for (size_t i = 0; i < size; i++)
        EXPECT(text[i] == 'Z', "a refused save wrote byte %zu of the buffer", i);
    size_t written = 0;
    CHECK(carc_game_save_json(game, text, size, &written));
    EXPECT(written == size && text[size - 1] == '\0' && strlen(text) == size - 1,
           "the save wrote %zu bytes of %zu, or misplaced the NUL", written, size);
    return text;
}

static char *setup_text(const carc_game *game) {
    size_t size = 0;
    carc_result code = carc_game_setup_json(game, NULL, 0, &size);
    EXPECT(code == CARC_RESULT_BUFFER_TOO_SMALL, "the setup size query returned %s",
           result_name(code));
    char *text = malloc(size);
    if (text == NULL) die("out of memory");
    CHECK(carc_game_setup_json(game, text, size, &size));
    return text;
}

/* ----- small helpers ----- */

/* splitmix64: the generator the Rust test replays. */
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static uint64_t fnv1a64(const char *text) {
    uint64_t hash = 0xcbf29ce484222325u;
    for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++) {
        hash ^= *p;
        hash *= 0x100000001b3u;
    }
    return hash;
}

static int same_pos(carc_pos a, carc_pos b) { return a.x == b.x && a.y == b.y; }

static int same_score(const carc_feature_score *a, const carc_feature_score *b) {
    return a->kind == b->kind && same_pos(a->pos, b->pos) && a->segment == b->segment &&
           a->complete == b->complete && a->farmers == b->farmers && a->scorers == b->scorers &&
           a->reason == b->reason && a->modifier == b->modifier && a->tiles == b->tiles &&
           a->pennants == b->pennants && a->cities == b->cities && a->points == b->points;
}

/* Field by field: padding bytes are not part of the contract. */
static int same_event(const carc_event *a, const carc_event *b) {
    return a->kind == b->kind && a->player == b->player && a->winners == b->winners &&
           a->tile == b->tile && same_pos(a->pos, b->pos) && a->rotation == b->rotation &&
           a->segment == b->segment && a->figure == b->figure && same_score(&a->score, &b->score);
}

static int same_action(const carc_action *a, const carc_action *b) {
    return a->kind == b->kind && a->figure == b->figure && same_pos(a->pos, b->pos) &&
           a->tile == b->tile && a->rotation == b->rotation && a->segment == b->segment;
}

static int same_figure(const carc_placed_figure *a, const carc_placed_figure *b) {
    return a->player == b->player && a->figure == b->figure && same_pos(a->pos, b->pos) &&
           a->segment == b->segment;
}

static unsigned popcount8(uint8_t bits) {
    unsigned n = 0;
    for (; bits != 0; bits &= (uint8_t)(bits - 1)) n++;
    return n;
}

/* ----- what the program expects of a game, built from its events ----- */

/* The most token kinds, and titles, a game declares (the library's MAX_TOKENS, MAX_TITLES). */
#define MAX_TOKEN_KINDS 8

struct tally {
    uint8_t players;
    uint32_t scored[CARC_MAX_PLAYERS];
    uint32_t tokens[CARC_MAX_PLAYERS][MAX_TOKEN_KINDS]; /* taken, by player and kind */
    int title_holder[MAX_TOKEN_KINDS];                  /* by title: a player, or -1 */
    uint32_t title_largest[MAX_TOKEN_KINDS];
    carc_supply start_supply[CARC_MAX_PLAYERS];
    carc_special_supply start_special[CARC_MAX_PLAYERS]; /* ABI 1.9 */
    carc_sheep_bag start_bag;                             /* ABI 1.9: the flock's full bag */
    uint32_t hidden;                                      /* tiles hidden under hills */
    carc_placed_figure figures[MAX_FIGURES];
    size_t figure_count;
    uint32_t placed; /* tiles placed after the start tile */
    uint32_t drawn, discards, start_left;
    uint16_t last_drawn;
    carc_pos last_placed;
    unsigned game_overs;
    uint8_t winners;
};

/* Everything carc_game_segment, carc_game_feature and carc_game_feature_segments say about a
 * segment must agree with each other and with the tile types' printed marks. */
static void check_segment(const carc_game *game, carc_pos pos, uint8_t segment, uint16_t tile,
                          struct scratch *s) {
    carc_segment_state state;
    CHECK(carc_game_segment(game, pos, segment, &state));
    carc_segment_info printed;
    CHECK(carc_game_tile_segment(game, tile, segment, &printed));
    EXPECT(state.kind == printed.kind, "segment %u of tile %u: kind %u on the board, %u printed",
           segment, tile, state.kind, printed.kind);
    carc_feature_info feature;
    CHECK(carc_game_feature(game, pos, segment, &feature));
    EXPECT(feature.id == state.feature && feature.kind == state.kind,
           "carc_game_feature and carc_game_segment disagree at (%d,%d)/%u", pos.x, pos.y, segment);

    /* The leaders are the players with the most strength (a big follower is 2, a
     * builder, pig or shepherd 0). */
    uint32_t by_player = 0, most = 0;
    uint8_t strongest = 0;
    for (unsigned p = 0; p < CARC_MAX_PLAYERS; p++) {
        by_player += feature.figures_by_player[p];
        EXPECT(feature.strength_by_player[p] <= 2 * feature.figures_by_player[p],
               "player %u: strength %u with %u figures", p, feature.strength_by_player[p],
               feature.figures_by_player[p]);
        if (feature.strength_by_player[p] > most) {
            most = feature.strength_by_player[p];
            strongest = 0;
        }
        if (most > 0 && feature.strength_by_player[p] == most) strongest |= (uint8_t)(1u << p);
    }
    /* A declared tie-break (a follower on a hill) may narrow a tie to some of the strongest. */
    EXPECT((feature.leaders & ~strongest) == 0 && (feature.leaders != 0) == (strongest != 0),
           "leaders %#x, but the strongest are %#x", feature.leaders, strongest);
    EXPECT(by_player == feature.figures, "figures %u but %u by player", feature.figures,
           by_player);
    EXPECT(feature.leaders == 0 || feature.figures > 0, "leaders %#x with %u figures",
           feature.leaders, feature.figures);
    if (feature.kind == CARC_SEGMENT_KIND_CITY || feature.kind == CARC_SEGMENT_KIND_ROAD)
        EXPECT(feature.complete == (feature.open_edges == 0),
               "a city or road with %u open edges has complete=%u", feature.open_edges,
               feature.complete);

    size_t count = feature_segments(game, pos, segment, &s->refs);
    const carc_segment_ref *refs = s->refs.items;
    int found = 0;
    uint32_t standing = 0, pennants = 0, tiles = 0;
    uint8_t marks = 0;
    for (size_t i = 0; i < count; i++) {
        found |= same_pos(refs[i].pos, pos) && refs[i].segment == segment;
        carc_segment_state other;
        CHECK(carc_game_segment(game, refs[i].pos, refs[i].segment, &other));
        EXPECT(other.feature == feature.id, "(%d,%d)/%u is listed in feature %u but belongs to %u",
               refs[i].pos.x, refs[i].pos.y, refs[i].segment, feature.id, other.feature);
        standing += other.has_figure;
        carc_placement placement;
        CHECK(carc_game_tile_at(game, refs[i].pos, &placement));
        carc_segment_info info;
        CHECK(carc_game_tile_segment(game, placement.tile, refs[i].segment, &info));
        marks |= info.marks;
        pennants += (info.marks & CARC_MARK_PENNANT) != 0;
        int first_on_its_cell = 1;
        for (size_t j = 0; j < i && first_on_its_cell; j++)
            first_on_its_cell = !same_pos(refs[j].pos, refs[i].pos);
        tiles += (uint32_t)first_on_its_cell;
    }
    EXPECT(found, "(%d,%d)/%u is missing from its own feature's segments", pos.x, pos.y, segment);
    EXPECT(standing == feature.figures, "%u figures stand on the segments, the feature says %u",
           standing, feature.figures);
    EXPECT(feature.inn == ((marks & CARC_MARK_INN) != 0) &&
               feature.cathedral == ((marks & CARC_MARK_CATHEDRAL) != 0),
           "the feature's inn/cathedral flags disagree with its segments' marks");
    if (feature.kind == CARC_SEGMENT_KIND_CITY)
        EXPECT(pennants == feature.pennants, "a city with %u pennant segments says %u", pennants,
               feature.pennants);
    if (feature.kind != CARC_SEGMENT_KIND_MONASTERY && feature.kind != CARC_SEGMENT_KIND_GARDEN)
        EXPECT(tiles == feature.tiles, "a feature over %u cells says it covers %u tiles", tiles,
               feature.tiles);
}

static void check_placed_tile(const carc_game *game, const carc_event *event, struct tally *t,
                              struct scratch *s) {
    carc_placement placement;
    CHECK(carc_game_tile_at(game, event->pos, &placement));
    EXPECT(same_pos(placement.pos, event->pos) && placement.tile == event->tile &&
               placement.rotation == event->rotation,
           "TILE_PLACED says tile %u at (%d,%d) turned %u, carc_game_tile_at says %u turned %u",
           event->tile, event->pos.x, event->pos.y, event->rotation, placement.tile,
           placement.rotation);
    EXPECT(placement.order == t->placed, "tile placed %u-th has order %u", t->placed,
           placement.order);
    carc_tile_info info;
    CHECK(carc_game_tile_info(game, placement.tile, &info));
    for (unsigned dir = 0; dir < 4; dir++)
        EXPECT(placement.edges[dir] == info.edges[(dir + 4 - placement.rotation / 90) % 4],
               "edge %u of a tile turned %u is not its printed edge", dir, placement.rotation);

    size_t count = placements(game, &s->placements);
    const carc_placement *all = s->placements.items;
    EXPECT(count == t->placed + 1u, "%zu placements after %u tiles and the start", count,
           t->placed);
    const carc_placement *last = &all[count - 1];
    EXPECT(same_pos(last->pos, placement.pos) && last->tile == placement.tile &&
               last->rotation == placement.rotation && last->order == placement.order,
           "the last placement is not the tile just placed");

    count = frontier(game, &s->frontier);
    const carc_pos *cells = s->frontier.items;
    for (size_t i = 0; i < count; i++) {
        carc_placement there;
        carc_result code = carc_game_tile_at(game, cells[i], &there);
        EXPECT(code == CARC_RESULT_NOT_AVAILABLE, "frontier cell (%d,%d): tile_at returned %s",
               cells[i].x, cells[i].y, result_name(code));
        static const int dx[4] = {0, 1, 0, -1}, dy[4] = {1, 0, -1, 0};
        int neighbours = 0;
        for (unsigned dir = 0; dir < 4; dir++) {
            carc_pos next = {(int16_t)(cells[i].x + dx[dir]), (int16_t)(cells[i].y + dy[dir])};
            neighbours += carc_game_tile_at(game, next, &there) == CARC_RESULT_OK;
        }
        EXPECT(neighbours > 0, "frontier cell (%d,%d) has no neighbour", cells[i].x, cells[i].y);
    }

    for (uint8_t segment = 0; segment < info.segment_count; segment++)
        check_segment(game, placement.pos, segment, placement.tile, s);
}

static void take_figure_back(struct tally *t, const carc_event *event) {
    carc_placed_figure back = {event->player, event->figure, event->pos, event->segment};
    for (size_t i = 0; i < t->figure_count; i++) {
        if (same_figure(&t->figures[i], &back)) {
            memmove(&t->figures[i], &t->figures[i + 1],
                    (t->figure_count - i - 1) * sizeof t->figures[0]);
            t->figure_count--;
            return;
        }
    }
    die("FIGURE_RETURNED for a figure that is not on the board");
}

static void apply_events(const carc_game *game, const carc_event *events, size_t count,
                         struct tally *t, struct scratch *s) {
    for (size_t i = 0; i < count; i++) {
        const carc_event *e = &events[i];
        switch (e->kind) {
        case CARC_EVENT_KIND_TILE_DRAWN:
            t->drawn++;
            t->last_drawn = e->tile;
            break;
        case CARC_EVENT_KIND_TILE_DISCARDED:
            t->discards++;
            break;
        case CARC_EVENT_KIND_TILE_PLACED:
            t->placed++;
            t->last_placed = e->pos;
            check_placed_tile(game, e, t, s);
            break;
        case CARC_EVENT_KIND_FIGURE_PLACED: {
            EXPECT(t->figure_count < MAX_FIGURES, "more figures than players own");
            carc_placed_figure placed = {e->player, e->figure, e->pos, e->segment};
            t->figures[t->figure_count++] = placed;
            break;
        }
        case CARC_EVENT_KIND_ABBOT_RECALLED:
            break;
        case CARC_EVENT_KIND_FEATURE_SCORED:
            for (unsigned p = 0; p < CARC_MAX_PLAYERS; p++)
                if ((e->score.scorers >> p & 1) != 0) {
                    EXPECT(p < t->players, "player %u of %u scored", p, t->players);
                    t->scored[p] += e->score.points;
                }
            EXPECT(popcount8(e->score.scorers) > 0, "a feature scored %u points for nobody",
                   e->score.points);
            /* ABI 1.8: the declared rule that set the score, from 1; a legacy modifier is one
             * of the built-in rules, and a defeat names its rivalry. */
            if (e->declared > 0) {
                carc_rule_info rule;
                CHECK(carc_game_rule_info(game, (uint8_t)(e->declared - 1), &rule));
                EXPECT(rule.id != NULL && rule.id[0] != '\0', "rule %u has no id", e->declared - 1);
                EXPECT(e->score.reason != CARC_SCORE_REASON_DEFEATED ||
                           rule.kind == CARC_RULE_KIND_RIVAL,
                       "a defeat names rule %s", rule.id);
            } else {
                EXPECT(e->score.modifier == CARC_MODIFIER_NONE &&
                           e->score.reason != CARC_SCORE_REASON_DEFEATED,
                       "a score with a modifier or a defeat names no rule");
            }
            break;
        case CARC_EVENT_KIND_FIGURE_RETURNED:
            take_figure_back(t, e);
            break;
        case CARC_EVENT_KIND_TITLE_TAKEN:
            EXPECT(e->player < t->players && e->declared < MAX_TOKEN_KINDS &&
                       e->score.tiles > t->title_largest[e->declared],
                   "TITLE_TAKEN: player %u, title %u, %u tiles (the record was %u)", e->player,
                   e->declared, e->score.tiles, t->title_largest[e->declared]);
            t->title_holder[e->declared] = e->player;
            t->title_largest[e->declared] = e->score.tiles;
            break;
        case CARC_EVENT_KIND_TITLE_SCORED:
            EXPECT(e->declared < MAX_TOKEN_KINDS && t->title_holder[e->declared] == e->player,
                   "TITLE_SCORED: title %u for player %u, who does not hold it", e->declared,
                   e->player);
            t->scored[e->player] += e->score.points;
            break;
        case CARC_EVENT_KIND_TOKENS_TAKEN:
            EXPECT(e->player < t->players && e->declared < MAX_TOKEN_KINDS && e->score.points > 0 &&
                       e->score.scorers == 1u << e->player,
                   "TOKENS_TAKEN: player %u, kind %u, %u tokens, scorers %u", e->player, e->declared,
                   e->score.points, e->score.scorers);
            t->tokens[e->player][e->declared] += e->score.points;
            break;
        case CARC_EVENT_KIND_TOKENS_SCORED:
            EXPECT(e->declared < MAX_TOKEN_KINDS && popcount8(e->score.scorers) > 0,
                   "TOKENS_SCORED: kind %u for players %u", e->declared, e->score.scorers);
            for (unsigned p = 0; p < t->players; p++) {
                uint32_t held = t->tokens[p][e->declared];
                int scores = (e->score.scorers >> p & 1) != 0;
                EXPECT(scores ? held == e->score.tiles : held < e->score.tiles,
                       "TOKENS_SCORED: the most held is %u, player %u took %u", e->score.tiles, p,
                       held);
                if (scores) t->scored[p] += e->score.points;
            }
            break;
        case CARC_EVENT_KIND_TURN_STARTED: {
            uint8_t current = 0;
            CHECK(carc_game_current_player(game, &current));
            EXPECT(i + 1 == count && current == e->player,
                   "TURN_STARTED for player %u is not the last event, or player %u is current",
                   e->player, current);
            break;
        }
        case CARC_EVENT_KIND_TILE_HIDDEN:
            t->hidden++;
            break;
        case CARC_EVENT_KIND_SHEEP_DRAWN:
            EXPECT(e->player < t->players && e->tile >= 1 && e->tile <= 8,
                   "SHEEP_DRAWN: player %u, a token of %u sheep", e->player, e->tile);
            break;
        case CARC_EVENT_KIND_WOLF_DRAWN:
            EXPECT(e->player < t->players, "WOLF_DRAWN for player %u", e->player);
            break;
        case CARC_EVENT_KIND_EXTRA_TURN: {
            EXPECT(i + 2 == count && events[i + 1].kind == CARC_EVENT_KIND_TURN_STARTED &&
                       events[i + 1].player == e->player,
                   "EXTRA_TURN for player %u is not followed by their TURN_STARTED", e->player);
            uint8_t second = 9;
            CHECK(carc_game_is_second_turn(game, &second));
            EXPECT(second == 1, "a second turn is not reported as one");
            break;
        }
        case CARC_EVENT_KIND_GAME_OVER:
            EXPECT(i + 1 == count, "GAME_OVER is not the last event");
            t->game_overs++;
            t->winners = e->winners;
            break;
        default:
            die("an event of unknown kind %u", e->kind);
        }
    }
}

/* How many figures of kind `figure` stand on the board, every player's together. */
static size_t used_all(unsigned used[][6], uint8_t players, unsigned figure) {
    size_t total = 0;
    for (uint8_t p = 0; p < players; p++) total += used[p][figure];
    return total;
}

/* The state the library reports must be what the events so far add up to. */
static void check_state(const carc_game *game, const struct tally *t, struct scratch *s) {
    carc_phase phase;
    CHECK(carc_game_phase(game, &phase));
    if (phase == CARC_PHASE_PLACE) {
        uint16_t drawn = 0;
        CHECK(carc_game_drawn_tile(game, &drawn));
        EXPECT(drawn == t->last_drawn, "tile %u is waiting, %u was drawn", drawn, t->last_drawn);
    } else if (phase == CARC_PHASE_FIGURE) {
        carc_pos placed;
        CHECK(carc_game_placed_pos(game, &placed));
        EXPECT(same_pos(placed, t->last_placed), "the placed tile's cell is wrong");
    }

    uint32_t left = 0, discarded = 0;
    CHECK(carc_game_tiles_left(game, &left));
    CHECK(carc_game_discarded(game, &discarded));
    uint32_t hidden = 0;
    CHECK(carc_game_hidden_tiles(game, &hidden));
    EXPECT(hidden == t->hidden, "%u tiles hidden, the events hid %u", hidden, t->hidden);
    EXPECT(left + hidden + t->drawn == t->start_left && discarded == t->discards,
           "%u tiles left, %u hidden and %u discarded after %u draws and %u discards", left,
           hidden, discarded, t->drawn, t->discards);
    size_t types = remaining(game, &s->remaining);
    uint32_t in_bag = 0;
    for (size_t i = 0; i < types; i++) in_bag += ((const uint16_t *)s->remaining.items)[i];
    /* ABI 1.9: the hidden tiles are among the remaining copies, never drawn. */
    EXPECT(in_bag == left + hidden, "the remaining copies add up to %u, not %u + %u hidden",
           in_bag, left, hidden);
    if (phase == CARC_PHASE_DRAW) {
        size_t drawable_types = 0;
        for (size_t i = 0; i < types; i++) {
            uint8_t drawable = 9;
            CHECK(carc_game_drawable(game, (uint16_t)i, &drawable));
            EXPECT(drawable <= 1 && (!drawable || ((const uint16_t *)s->remaining.items)[i] > 0),
                   "tile %zu is drawable with no copy left", i);
            drawable_types += drawable;
        }
        EXPECT(drawable_types > 0, "nothing is drawable with %u tiles in the bag", left);
    }

    size_t count = figures(game, &s->figures);
    const carc_placed_figure *standing = s->figures.items;
    EXPECT(count == t->figure_count, "%zu figures on the board, the events leave %zu", count,
           t->figure_count);
    unsigned used[CARC_MAX_PLAYERS][6] = {{0}};
    for (size_t i = 0; i < count; i++) {
        EXPECT(same_figure(&standing[i], &t->figures[i]),
               "figure %zu differs from the events' (or is out of placement order)", i);
        used[standing[i].player][standing[i].figure]++;
        carc_segment_state state;
        CHECK(carc_game_segment(game, standing[i].pos, standing[i].segment, &state));
        EXPECT(state.has_figure && state.player == standing[i].player &&
                   state.figure == standing[i].figure,
               "carc_game_segment does not show figure %zu", i);
    }
    for (uint8_t p = 0; p < t->players; p++) {
        carc_supply supply;
        CHECK(carc_game_supply(game, p, &supply));
        const carc_supply *start = &t->start_supply[p];
        EXPECT(supply.followers + used[p][CARC_FIGURE_FOLLOWER] == start->followers &&
                   supply.big_followers + used[p][CARC_FIGURE_BIG_FOLLOWER] ==
                       start->big_followers &&
                   supply.abbots + used[p][CARC_FIGURE_ABBOT] == start->abbots,
               "player %u's supply does not add up with the figures on the board", p);
        carc_special_supply special;
        CHECK(carc_game_special_supply(game, p, &special));
        const carc_special_supply *had = &t->start_special[p];
        EXPECT(special.builders + used[p][CARC_FIGURE_BUILDER] == had->builders &&
                   special.pigs + used[p][CARC_FIGURE_PIG] == had->pigs &&
                   special.shepherds + used[p][CARC_FIGURE_SHEPHERD] == had->shepherds,
               "player %u's special figures do not add up with those on the board", p);
    }

    /* ABI 1.9: every sheep token is in the bag or beside a shepherd on the board. */
    carc_sheep_bag bag;
    CHECK(carc_game_sheep_bag(game, &bag));
    EXPECT(bag.wolves == t->start_bag.wolves, "%u wolves in the bag of %u", bag.wolves,
           t->start_bag.wolves);
    carc_flock flocks[MAX_FIGURES];
    size_t flock_count = 0;
    CHECK(carc_game_flocks(game, flocks, MAX_FIGURES, &flock_count));
    EXPECT(flock_count == used_all(used, t->players, CARC_FIGURE_SHEPHERD),
           "%zu flocks for the shepherds on the board", flock_count);
    for (unsigned n = 0; n < 8; n++) {
        unsigned tokens = bag.sheep[n];
        for (size_t f = 0; f < flock_count; f++) tokens += flocks[f].tokens[n];
        EXPECT(tokens == t->start_bag.sheep[n], "%u tokens of %u sheep, the bag had %u", tokens,
               n + 1, t->start_bag.sheep[n]);
    }
    for (size_t f = 0; f < flock_count; f++) {
        uint32_t sheep = 0;
        for (unsigned n = 0; n < 8; n++) sheep += (n + 1) * flocks[f].tokens[n];
        EXPECT(sheep == flocks[f].sheep, "a flock of %u sheep shows %u", flocks[f].sheep, sheep);
    }

    size_t kinds = 0;
    CHECK(carc_game_token_kind_count(game, &kinds));
    EXPECT(kinds <= MAX_TOKEN_KINDS, "%zu token kinds", kinds);
    for (uint8_t p = 0; p < t->players; p++) {
        uint32_t held[MAX_TOKEN_KINDS] = {0};
        size_t listed = 0;
        CHECK(carc_game_tokens_held(game, p, held, MAX_TOKEN_KINDS, &listed));
        EXPECT(listed == kinds, "%zu token counts for %zu kinds", listed, kinds);
        for (size_t k = 0; k < kinds; k++)
            EXPECT(held[k] == t->tokens[p][k], "player %u holds %u of kind %zu, the events give %u",
                   p, held[k], k, t->tokens[p][k]);
    }

    /* ABI 1.8: the declared marks, and the counts of a feature's marks, one per mark. */
    size_t marks = 0;
    CHECK(carc_game_mark_count(game, &marks));
    EXPECT(marks >= 1 && marks <= 16, "%zu marks (every set here declares the pennant)", marks);
    for (size_t k = 0; k < marks; k++) {
        carc_mark_info mark;
        CHECK(carc_game_mark_info(game, (uint8_t)k, &mark));
        EXPECT(mark.id != NULL && mark.id[0] != '\0' && mark.name != NULL, "mark %zu", k);
    }
    uint32_t counts[16];
    size_t listed = 0;
    CHECK(carc_game_feature_marks(game, (carc_pos){0, 0}, 0, counts, 16, &listed));
    EXPECT(listed == marks, "%zu mark counts for %zu marks", listed, marks);

    size_t titles = 0;
    CHECK(carc_game_title_count(game, &titles));
    EXPECT(titles <= MAX_TOKEN_KINDS, "%zu titles", titles);
    for (size_t k = 0; k < titles; k++) {
        carc_title_info title;
        CHECK(carc_game_title_info(game, (uint8_t)k, &title));
        int holder = title.has_holder ? title.holder : -1;
        EXPECT(holder == t->title_holder[k] && title.largest == t->title_largest[k],
               "title %zu: held by %d with %u tiles, the events say %d with %u", k, holder,
               title.largest, t->title_holder[k], t->title_largest[k]);
    }

    count = scores(game, &s->scores);
    EXPECT(count == t->players, "%zu scores for %u players", count, t->players);
    for (size_t p = 0; p < count; p++)
        EXPECT(((const uint32_t *)s->scores.items)[p] == t->scored[p],
               "player %zu has %u points, the FEATURE_SCORED events give %u", p,
               ((const uint32_t *)s->scores.items)[p], t->scored[p]);
}

/* ----- making games ----- */

static carc_catalog *builtin(const char *name) {
    carc_catalog *catalog = NULL;
    carc_error *err = NULL;
    check_err(carc_catalog_builtin(name, &catalog, &err), err, "carc_catalog_builtin");
    return catalog;
}

static carc_game *new_game(const struct config *cfg, uint64_t seed) {
    carc_game *game = NULL;
    carc_error *err = NULL;
    if (cfg->setup_json_head != NULL) {
        char json[512];
        int length = snprintf(json, sizeof json, "%s%" PRIu64 "}", cfg->setup_json_head, seed);
        EXPECT(length > 0 && (size_t)length < sizeof json, "the setup JSON is too long");
        check_err(carc_game_new_json(json, &game, &err), err, "carc_game_new_json");
    } else {
        carc_catalog *catalogs[MAX_SETS];
        for (size_t i = 0; i < cfg->set_count; i++) catalogs[i] = builtin(cfg->sets[i]);
        carc_setup setup;
        CHECK(carc_setup_default(&setup));
        /* C adds const only at the top level by itself, so the array needs the cast. */
        setup.catalogs = (const carc_catalog *const *)catalogs;
        setup.catalog_count = cfg->set_count;
        setup.players = cfg->players;
        setup.seed = seed;
        setup.rules.farmers = cfg->farmers;
        setup.rules.farm_scoring = cfg->farm_scoring;
        setup.rules.tiny_city = cfg->tiny_city;
        setup.rules.inn_cathedral_unfinished = cfg->unfinished;
        setup.rules.abbots = cfg->abbots;
        check_err(carc_game_new(&setup, &game, &err), err, "carc_game_new");
        /* The game copied what it needs: freeing the catalogs now must not matter. */
        for (size_t i = 0; i < cfg->set_count; i++) carc_catalog_free(catalogs[i]);
    }

    /* The setup JSON makes the same game again. */
    char *text = setup_text(game);
    carc_game *again = NULL;
    check_err(carc_game_new_json(text, &again, &err), err, "carc_game_new_json(setup_json)");
    char *text_again = setup_text(again);
    EXPECT(strcmp(text, text_again) == 0, "setup JSON round trip differs:\n%s\n%s", text,
           text_again);
    free(text_again);
    free(text);
    carc_game_free(again);
    return game;
}

/* A fresh game must look fresh, and be what its configuration asked for. */
static void check_fresh(const struct config *cfg, const carc_game *game, uint64_t seed,
                        struct tally *t, struct scratch *s) {
    uint8_t players = 0, current = 9, over = 9;
    uint64_t game_seed = 0;
    carc_phase phase = 9;
    carc_rules rules;
    CHECK(carc_game_players(game, &players));
    CHECK(carc_game_current_player(game, &current));
    CHECK(carc_game_is_over(game, &over));
    CHECK(carc_game_seed(game, &game_seed));
    CHECK(carc_game_phase(game, &phase));
    CHECK(carc_game_rules(game, &rules));
    EXPECT(players == cfg->players && current == 0 && over == 0 && game_seed == seed &&
               phase == CARC_PHASE_DRAW,
           "a new game: %u players, player %u to play, over %u, seed %" PRIu64 ", phase %u",
           players, current, over, game_seed, phase);
    EXPECT(rules.farmers == cfg->farmers && rules.farm_scoring == cfg->farm_scoring &&
               rules.tiny_city == cfg->tiny_city &&
               rules.inn_cathedral_unfinished == cfg->unfinished && rules.abbots == cfg->abbots,
           "the game's rules are not the configuration's");
    EXPECT(last_events(game, &s->events) == 0, "a new game has events");
    size_t actions = 99;
    CHECK(carc_game_actions(game, NULL, 0, &actions));
    EXPECT(actions == 0, "a new game has %zu actions", actions);
    EXPECT(placements(game, &s->placements) == 1, "a new game has more than the start tile");
    const carc_placement *start = s->placements.items;
    EXPECT(start->pos.x == 0 && start->pos.y == 0 && start->order == 0,
           "the start tile is not at (0,0) with order 0");

    /* Tile types are numbered across the sets in setup order. */
    size_t types = 0, expected_types = 0;
    CHECK(carc_game_tile_type_count(game, &types));
    for (size_t i = 0; i < cfg->set_count; i++) {
        carc_catalog *catalog = builtin(cfg->sets[i]);
        carc_tileset_info info;
        CHECK(carc_catalog_info(catalog, &info));
        for (uint16_t tile = 0; tile < info.tile_types; tile++) {
            carc_tile_info in_set, in_game;
            CHECK(carc_catalog_tile_info(catalog, tile, &in_set));
            CHECK(carc_game_tile_info(game, (uint16_t)(expected_types + tile), &in_game));
            EXPECT(strcmp(in_set.id, in_game.id) == 0 && in_set.count == in_game.count &&
                       in_set.segment_count == in_game.segment_count,
                   "tile %u of %s is not tile %zu of the game", tile, cfg->sets[i],
                   expected_types + tile);
            uint16_t by_id = 0;
            CHECK(carc_game_tile_by_id(game, in_game.id, &by_id));
            EXPECT(by_id == expected_types + tile, "tile id %s names tile %u, not %zu", in_game.id,
                   by_id, expected_types + tile);
        }
        expected_types += info.tile_types;
        carc_catalog_free(catalog);
    }
    EXPECT(types == expected_types, "%zu tile types, the sets have %zu", types, expected_types);
    EXPECT(remaining(game, &s->remaining) == types, "carc_game_remaining_copies is not per tile type");

    memset(t, 0, sizeof *t);
    for (size_t k = 0; k < MAX_TOKEN_KINDS; k++) t->title_holder[k] = -1;
    t->players = players;
    CHECK(carc_game_tiles_left(game, &t->start_left));
    for (uint8_t p = 0; p < players; p++) {
        CHECK(carc_game_supply(game, p, &t->start_supply[p]));
        CHECK(carc_game_special_supply(game, p, &t->start_special[p]));
    }
    CHECK(carc_game_sheep_bag(game, &t->start_bag));
    check_state(game, t, s);
}

/* ----- playing ----- */

static int belongs_to(carc_phase phase, carc_action_kind kind) {
    switch (phase) {
    case CARC_PHASE_DRAW:
        return kind == CARC_ACTION_KIND_DRAW;
    case CARC_PHASE_PLACE:
        return kind == CARC_ACTION_KIND_PLACE;
    case CARC_PHASE_FIGURE:
        return kind == CARC_ACTION_KIND_DEPLOY || kind == CARC_ACTION_KIND_RECALL_ABBOT ||
               kind == CARC_ACTION_KIND_SKIP;
    case CARC_PHASE_SHEEP: /* ABI 1.9: a token drawn for a flock */
        return kind == CARC_ACTION_KIND_DRAW;
    case CARC_PHASE_FLOCK:
        return kind == CARC_ACTION_KIND_GROW_FLOCK || kind == CARC_ACTION_KIND_DRIVE_FLOCK;
    default:
        return 0;
    }
}

/* Picks legal[next() % count] from the list, and checks that the numbered view of the same
 * list (carc_game_legal_action_count, carc_game_legal_action) agrees with it. */
static size_t choose(const carc_game *game, uint64_t *rng, struct list *actions,
                     carc_action *chosen) {
    size_t count = legal_actions(game, actions);
    EXPECT(count > 0, "no legal action in a game that is not over");
    size_t by_number = 0;
    CHECK(carc_game_legal_action_count(game, &by_number));
    EXPECT(by_number == count, "%zu legal actions listed, %zu counted", count, by_number);
    size_t index = (size_t)(next_random(rng) % count);
    *chosen = ((const carc_action *)actions->items)[index];
    carc_action numbered;
    CHECK(carc_game_legal_action(game, index, &numbered));
    EXPECT(same_action(&numbered, chosen), "legal action %zu differs from its place in the list",
           index);
    return count;
}

/* Plays to the end by number (carc_game_apply_legal), as a bot does, with the same choices
 * legal[next() % count]; returns the actions applied. */
static uint32_t play_out(carc_game *game, uint64_t *rng) {
    size_t count = 0;
    CHECK(carc_game_legal_action_count(game, &count));
    uint32_t steps = 0;
    for (; count > 0; steps++) {
        carc_error *err = NULL;
        size_t index = (size_t)(next_random(rng) % count);
        check_err(carc_game_apply_legal(game, index, &count, &err), err, "carc_game_apply_legal");
    }
    uint8_t over = 0;
    CHECK(carc_game_is_over(game, &over));
    EXPECT(over, "no legal action left in a game that is not over");
    return steps;
}

static void play_game(const struct config *cfg, carc_game *game, uint64_t seed,
                      struct scratch *s) {
    struct tally t;
    check_fresh(cfg, game, seed, &t, s);
    uint64_t rng = seed, clone_rng = 0;
    carc_game *clone = NULL;
    uint32_t steps = 0;
    for (;;) {
        snprintf(where, sizeof where, "config=%s seed=%" PRIu64 " step=%u", cfg->name, seed,
                 steps);
        carc_phase phase;
        CHECK(carc_game_phase(game, &phase));
        if (phase == CARC_PHASE_GAME_OVER) break;

        if (steps == CLONE_AT) {
            CHECK(carc_game_clone(game, &clone));
            clone_rng = rng;
            size_t count = last_events(game, &s->events);
            carc_event *mine = malloc((count + 1) * sizeof *mine); /* malloc(0) may be NULL */
            if (mine == NULL) die("out of memory");
            memcpy(mine, s->events.items, count * sizeof *mine);
            EXPECT(last_events(clone, &s->events) == count, "the clone lost the last events");
            for (size_t i = 0; i < count; i++)
                EXPECT(same_event(&mine[i], &((const carc_event *)s->events.items)[i]),
                       "event %zu of the clone differs", i);
            free(mine);
        }

        carc_action action;
        size_t count = choose(game, &rng, &s->actions, &action);
        const carc_action *legal = s->actions.items;
        for (size_t i = 0; i < count; i++)
            EXPECT(belongs_to(phase, legal[i].kind), "legal action %zu of kind %u in phase %u", i,
                   legal[i].kind, phase);
        carc_error *err = NULL;
        check_err(carc_game_check(game, &action, &err), err, "carc_game_check");
        check_err(carc_game_apply(game, &action, &err), err, "carc_game_apply");
        steps++;

        size_t event_count = last_events(game, &s->events);
        /* A skip before a flock's choice, and growing a flock, say nothing yet: the choice
         * and the token drawn next do (ABI 1.9). */
        carc_phase after;
        CHECK(carc_game_phase(game, &after));
        EXPECT(event_count > 0 || action.kind == CARC_ACTION_KIND_GROW_FLOCK ||
                   (action.kind == CARC_ACTION_KIND_SKIP && after == CARC_PHASE_FLOCK),
               "an action of kind %u without events", action.kind);
        apply_events(game, s->events.items, event_count, &t, s);
        check_state(game, &t, s);
    }

    /* The end: the GAME_OVER event, the winners, and a game that refuses to go on. */
    uint8_t over = 0, leaders = 0;
    uint32_t left = 1;
    CHECK(carc_game_is_over(game, &over));
    CHECK(carc_game_leaders(game, &leaders));
    CHECK(carc_game_tiles_left(game, &left));
    EXPECT(over == 1 && t.game_overs == 1 && t.winners == leaders && left == 0,
           "over %u after %u GAME_OVER events, winners %#x, leaders %#x, %u tiles left", over,
           t.game_overs, t.winners, leaders, left);
    EXPECT(legal_actions(game, &s->actions) == 0, "legal actions after the game is over");
    carc_action skip = {0};
    skip.kind = CARC_ACTION_KIND_SKIP;
    carc_error *err = NULL;
    carc_result code = carc_game_apply(game, &skip, &err);
    EXPECT(code == CARC_RESULT_GAME_OVER && carc_error_code(err) == code &&
               carc_error_message(err) != NULL,
           "an action after the end returned %s", result_name(code));
    carc_error_free(err);
    size_t logged = 0;
    code = carc_game_actions(game, NULL, 0, &logged);
    EXPECT(code == CARC_RESULT_BUFFER_TOO_SMALL && logged == steps,
           "carc_game_actions counts %zu of %u actions", logged, steps);

    /* Save, load, save again: the same text. */
    char *saved = save_text(game);
    carc_game *loaded = NULL;
    check_err(carc_game_load_json(saved, &loaded, &err), err, "carc_game_load_json");
    char *resaved = save_text(loaded);
    EXPECT(strcmp(saved, resaved) == 0, "saving a loaded game gives another text");
    EXPECT(last_events(loaded, &s->events) == 0, "a loaded game has events");
    carc_action *actions = malloc(steps * sizeof *actions);
    if (actions == NULL) die("out of memory");
    CHECK(carc_game_actions(game, actions, steps, &logged));
    EXPECT(legal_actions(loaded, &s->actions) == 0, "a loaded game can go on");
    while ((code = carc_game_actions(loaded, s->actions.items, s->actions.cap, &logged)) ==
           CARC_RESULT_BUFFER_TOO_SMALL)
        grow(&s->actions, logged, sizeof(carc_action));
    check(code, "carc_game_actions");
    EXPECT(logged == steps, "the loaded game has %zu actions, not %u", logged, steps);
    for (size_t i = 0; i < steps; i++)
        EXPECT(same_action(&actions[i], &((const carc_action *)s->actions.items)[i]),
               "action %zu of the loaded game differs", i);
    free(actions);
    size_t loaded_scores = scores(loaded, &s->scores);
    for (size_t p = 0; p < loaded_scores; p++)
        EXPECT(((const uint32_t *)s->scores.items)[p] == t.scored[p],
               "the loaded game scores differently");
    free(resaved);
    carc_game_free(loaded);

    /* The clone, played on by number with the same choices, ends identically. */
    EXPECT(clone != NULL, "the game ended before step %d", CLONE_AT);
    snprintf(where, sizeof where, "config=%s seed=%" PRIu64 " clone", cfg->name, seed);
    uint32_t clone_steps = play_out(clone, &clone_rng);
    char *clone_saved = save_text(clone);
    EXPECT(CLONE_AT + clone_steps == steps && strcmp(saved, clone_saved) == 0,
           "the clone played %u actions after step %d and saved %s text", clone_steps, CLONE_AT,
           strcmp(saved, clone_saved) == 0 ? "the same" : "another");
    free(clone_saved);
    carc_game_free(clone);

    printf("config=%s seed=%" PRIu64 " actions=%u scores=", cfg->name, seed, steps);
    for (uint8_t p = 0; p < t.players; p++) printf("%s%u", p == 0 ? "" : ",", t.scored[p]);
    printf(" winners=%u save_fnv=%016" PRIx64 "\n", t.winners, fnv1a64(saved));
    fflush(stdout);
    free(saved);
}

/* The first game of a configuration is made from its setup; the others restart the game
 * before them with a new seed, as a self-play loop does. */
static void play_config(const struct config *cfg, unsigned long games, struct scratch *s) {
    carc_game *previous = NULL;
    for (unsigned long i = 0; i < games; i++) {
        uint64_t seed = i + 1;
        snprintf(where, sizeof where, "config=%s seed=%" PRIu64 " setup", cfg->name, seed);
        carc_game *game = NULL;
        if (previous == NULL) {
            game = new_game(cfg, seed);
        } else {
            CHECK(carc_game_restarted(previous, seed, &game));
            carc_game_free(previous);
        }
        play_game(cfg, game, seed, s);
        previous = game;
    }
    carc_game_free(previous);
}

/* Every built-in set loads under its own name and some configuration plays it, so a set added
 * to the library fails this program until it is played here too. */
static void check_builtins(void) {
    size_t count = carc_builtin_count();
    EXPECT(count > 0 && carc_builtin_name(count) == NULL, "carc_builtin_name past the end");
    for (size_t i = 0; i < count; i++) {
        const char *name = carc_builtin_name(i);
        EXPECT(name != NULL, "built-in set %zu has no name", i);
        carc_catalog *catalog = builtin(name);
        carc_tileset_info info;
        CHECK(carc_catalog_info(catalog, &info));
        EXPECT(strcmp(info.id, name) == 0, "built-in set %s calls itself %s", name, info.id);
        carc_catalog_free(catalog);
        int played = 0;
        for (size_t c = 0; c < CONFIG_COUNT; c++)
            for (size_t j = 0; j < CONFIGS[c].set_count; j++)
                played |= strcmp(CONFIGS[c].sets[j], name) == 0;
        EXPECT(played, "no configuration plays the built-in set %s", name);
    }
}

int main(int argc, char **argv) {
    unsigned long games = 2;
    const char *only = NULL;
    if (argc > 3) {
        fprintf(stderr, "usage: %s [GAMES [CONFIG]]\n", argv[0]);
        return 2;
    }
    if (argc > 1) {
        char *end = NULL;
        games = strtoul(argv[1], &end, 10);
        if (*argv[1] == '\0' || *end != '\0' || games == 0 || games > 1000) {
            fprintf(stderr, "%s: GAMES must be a number from 1 to 1000, not %s\n", argv[0],
                    argv[1]);
            return 2;
        }
    }
    if (argc > 2) only = argv[2];

    uint32_t abi = carc_abi_version();
    EXPECT(CARC_ABI_COMPATIBLE(), "built against ABI %d.%d, linked with %" PRIu32 ".%" PRIu32,
           CARC_ABI_VERSION_MAJOR, CARC_ABI_VERSION_MINOR, abi >> 16, abi & 0xFFFF);
    check_builtins();

    struct scratch scratch;
    memset(&scratch, 0, sizeof scratch);
    int played = 0;
    for (size_t c = 0; c < CONFIG_COUNT; c++) {
        if (only != NULL && strcmp(only, CONFIGS[c].name) != 0) continue;
        play_config(&CONFIGS[c], games, &scratch);
        played = 1;
    }
    scratch_free(&scratch);
    if (!played) {
        fprintf(stderr, "%s: no configuration is called %s\n", argv[0], only);
        return 2;
    }
    /* Every handle made was freed: leak checkers cannot see a forgotten one, this count can. */
    EXPECT(carc_live_handles() == 0, "%zu handles are still live", carc_live_handles());
    return 0;
}
