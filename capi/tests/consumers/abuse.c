/* abuse.c: every export, fed bad handles, values and actions, answers the exact documented code. */

#include <carcassonne.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ----- The harness: named checks that count failures and say where and why ----- */

static unsigned long checks_run;
static unsigned long checks_failed;

static const char *code_name(uint32_t code)
{
    const char *name = carc_result_name(code);
    return name != NULL ? name : "(no such code)";
}

static void fail_at(const char *file, int line, const char *format, ...)
{
    va_list list;
    checks_failed++;
    printf("FAIL %s:%d: ", file, line);
    va_start(list, format);
    vprintf(format, list);
    va_end(list);
    printf("\n");
}

static int check_at(int ok, const char *file, int line, const char *text)
{
    checks_run++;
    if (!ok) {
        fail_at(file, line, "%s", text);
    }
    return ok;
}

static int check_code_at(uint32_t got, uint32_t expected, const char *file, int line,
                         const char *call)
{
    checks_run++;
    if (got != expected) {
        fail_at(file, line, "%s\n    expected %s (%u), got %s (%u)", call, code_name(expected),
                (unsigned)expected, code_name(got), (unsigned)got);
        return 0;
    }
    return 1;
}

static int check_str_at(const char *got, const char *expected, const char *file, int line,
                        const char *text)
{
    checks_run++;
    if (got == NULL || strcmp(got, expected) != 0) {
        fail_at(file, line, "%s\n    expected \"%s\", got %s%s%s", text, expected,
                got != NULL ? "\"" : "", got != NULL ? got : "NULL", got != NULL ? "\"" : "");
        return 0;
    }
    return 1;
}

static int check_size_at(size_t got, size_t expected, const char *file, int line,
                         const char *text)
{
    checks_run++;
    if (got != expected) {
        fail_at(file, line, "%s\n    expected %zu, got %zu", text, expected, got);
        return 0;
    }
    return 1;
}

#define CHECK(cond) check_at((cond) != 0, __FILE__, __LINE__, #cond)
#define CHECK_CODE(call, expected) check_code_at((call), (expected), __FILE__, __LINE__, #call)
#define CHECK_STR(got, expected) check_str_at((got), (expected), __FILE__, __LINE__, #got)
#define CHECK_SIZE(got, expected) check_size_at((got), (expected), __FILE__, __LINE__, #got)

/* Outputs are pre-filled with this byte: a failed call must leave every byte of them as it was. */
enum { SENTINEL = 0xA5 };

static void fill(void *p, size_t n) { memset(p, SENTINEL, n); }

static int untouched(const void *p, size_t n)
{
    const unsigned char *bytes = p;
    for (size_t i = 0; i < n; i++) {
        if (bytes[i] != SENTINEL) {
            return 0;
        }
    }
    return 1;
}

#define FILL(x) fill(&(x), sizeof(x))
#define CHECK_UNTOUCHED(x) \
    check_at(untouched(&(x), sizeof(x)), __FILE__, __LINE__, "output `" #x "` is untouched")

/* After a call that takes `carc_error **err` (pre-filled): on failure *err holds a live error with
 * the returned code and a message, which is freed here; on success *err is untouched. */
static void expect_error_at(uint32_t got, uint32_t expected, carc_error **err, const char *file,
                            int line, const char *call)
{
    int ok = check_code_at(got, expected, file, line, call);
    if (got == CARC_RESULT_OK) {
        check_at(untouched(err, sizeof *err), file, line, "*err is untouched on success");
        return;
    }
    if (!check_at(!untouched(err, sizeof *err) && *err != NULL, file, line,
                  "a failure fills *err")) {
        return;
    }
    const char *message = carc_error_message(*err);
    if (!ok && message != NULL) {
        printf("    its message: %s\n", message);
    }
    check_code_at(carc_error_code(*err), got, file, line, "carc_error_code(*err)");
    check_at(message != NULL && message[0] != '\0', file, line, "the error has a message");
    carc_error_free(*err);
    fill(err, sizeof *err);
}

/* `call` must fail with `expected` and fill the error variable `err` (cleared afterwards). */
#define CHECK_FAILS(call, expected, err)                                                     \
    (fill(&(err), sizeof(err)),                                                              \
     expect_error_at((call), (expected), &(err), __FILE__, __LINE__, #call))

/* `call` must succeed and leave the error variable `err` untouched. */
#define CHECK_OK_ERR(call, err) CHECK_FAILS(call, CARC_RESULT_OK, err)

static void section(const char *name) { printf("-- %s\n", name); }

/* ----- Things every test uses ----- */

/* Invalid UTF-8: a lone continuation byte and an overlong encoding. */
static const char BAD_UTF8[] = "ba\x80se\xc0\xaf";

/* A 2-player-colour tile set of plain fields and monasteries, where every tile fits anywhere:
 * the scenarios reach the abbot, supply and end-of-game refusals without edge arithmetic. */
static const char FIELDS_TOML[] =
    "[set]\n"
    "id = \"abuse_fields\"\n"
    "name = \"Abuse fields\"\n"
    "edition = 1\n"
    "\n"
    "[deck]\n"
    "start = \"F\"\n"
    "\n"
    "[figures]\n"
    "followers = 1\n"
    "colours = [\"red\", \"green\"]\n"
    "\n"
    "[[figure]]\n"
    "id = \"abbot\"\n"
    "per_player = 1\n"
    "role = \"follower\"\n"
    "stands_on = [\"monastery\", \"garden\"]\n"
    "recall = true\n"
    "option = { abbots = true }\n"
    "\n"
    "[[tile]]\n"
    "id = \"F\"\n"
    "name = \"Field\"\n"
    "count = 12\n"
    "edges = { N = \"field\", E = \"field\", S = \"field\", W = \"field\" }\n"
    "segments = [\n"
    "  { kind = \"field\", half_edges = [\"N_w\", \"N_e\", \"E_n\", \"E_s\", \"S_e\", \"S_w\", "
    "\"W_s\", \"W_n\"] },\n"
    "]\n"
    "\n"
    "[[tile]]\n"
    "id = \"M\"\n"
    "name = \"Monastery\"\n"
    "count = 2\n"
    "edges = { N = \"field\", E = \"field\", S = \"field\", W = \"field\" }\n"
    "segments = [\n"
    "  { kind = \"monastery\" },\n"
    "  { kind = \"field\", half_edges = [\"N_w\", \"N_e\", \"E_n\", \"E_s\", \"S_e\", \"S_w\", "
    "\"W_s\", \"W_n\"] },\n"
    "]\n";

/* A valid set with no start tile and no followers: what setups must refuse on their own. */
static const char PLAIN_TOML[] =
    "[set]\n"
    "id = \"abuse_plain\"\n"
    "name = \"Abuse plain\"\n"
    "edition = 1\n"
    "\n"
    "[[tile]]\n"
    "id = \"P1\"\n"
    "name = \"Field\"\n"
    "count = 3\n"
    "edges = { N = \"field\", E = \"field\", S = \"field\", W = \"field\" }\n"
    "segments = [\n"
    "  { kind = \"field\", half_edges = [\"N_w\", \"N_e\", \"E_n\", \"E_s\", \"S_e\", \"S_w\", "
    "\"W_s\", \"W_n\"] },\n"
    "]\n";

/* As PLAIN_TOML with a start tile, still without followers. */
static const char STARTED_TOML[] =
    "[set]\n"
    "id = \"abuse_started\"\n"
    "name = \"Abuse started\"\n"
    "edition = 1\n"
    "\n"
    "[deck]\n"
    "start = \"S1\"\n"
    "\n"
    "[[tile]]\n"
    "id = \"S1\"\n"
    "name = \"Field\"\n"
    "count = 3\n"
    "edges = { N = \"field\", E = \"field\", S = \"field\", W = \"field\" }\n"
    "segments = [\n"
    "  { kind = \"field\", half_edges = [\"N_w\", \"N_e\", \"E_n\", \"E_s\", \"S_e\", \"S_w\", "
    "\"W_s\", \"W_n\"] },\n"
    "]\n";

/* tests/dsl/invalid/syntax.toml: two syntax errors, at 8:22 and 10:35. */
static const char SYNTAX_TOML[] =
    "[set]\n"
    "id = \"bad\"\n"
    "name = \"Bad set\"\n"
    "edition = 1\n"
    "\n"
    "[[tile]]\n"
    "id = \"U\"\n"
    "name = \"Straight road\n"
    "count = 2\n"
    "edges = { N = \"road\", E = \"field\" S = \"road\", W = \"field\" }\n";

/* tests/dsl/invalid/unknown_half_edge.toml: one unknown half-edge, at 15:63. */
static const char HALF_EDGE_TOML[] =
    "[set]\n"
    "id = \"bad\"\n"
    "name = \"Bad set\"\n"
    "edition = 1\n"
    "\n"
    "[[tile]]\n"
    "id = \"D\"\n"
    "name = \"City cap with straight road\"\n"
    "count = 4\n"
    "edges = { N = \"city\", E = \"road\", S = \"field\", W = \"road\" }\n"
    "segments = [\n"
    "  { kind = \"city\", edges = [\"N\"] },\n"
    "  { kind = \"road\", edges = [\"E\", \"W\"] },\n"
    "  { kind = \"field\", half_edges = [\"E_n\", \"W_n\"], cities = [\"N\"] },\n"
    "  { kind = \"field\", half_edges = [\"E_s\", \"S_e\", \"S_w\", \"W_s\", \"N_x\"] },\n"
    "]\n";

static carc_catalog *builtin(const char *name)
{
    carc_catalog *catalog = NULL;
    if (carc_catalog_builtin(name, &catalog, NULL) != CARC_RESULT_OK) {
        fail_at(__FILE__, __LINE__, "cannot load the built-in tile set %s", name);
        return NULL;
    }
    return catalog;
}

static carc_catalog *from_toml(const char *text)
{
    carc_catalog *catalog = NULL;
    carc_error *err = NULL;
    if (carc_catalog_from_toml("abuse.toml", text, &catalog, &err) != CARC_RESULT_OK) {
        fail_at(__FILE__, __LINE__, "a test tile set is invalid: %s", carc_error_message(err));
        carc_error_free(err);
        return NULL;
    }
    return catalog;
}

static carc_game *game_from_json(const char *json)
{
    carc_game *game = NULL;
    carc_error *err = NULL;
    if (carc_game_new_json(json, &game, &err) != CARC_RESULT_OK) {
        fail_at(__FILE__, __LINE__, "cannot make the game %s: %s", json,
                carc_error_message(err));
        carc_error_free(err);
        return NULL;
    }
    return game;
}

static carc_game *game_of(const carc_catalog *const *catalogs, size_t count, uint8_t players,
                          uint8_t abbots)
{
    carc_setup setup;
    carc_game *game = NULL;
    carc_setup_default(&setup);
    setup.catalogs = catalogs;
    setup.catalog_count = count;
    setup.players = players;
    setup.rules.abbots = abbots;
    if (carc_game_new(&setup, &game, NULL) != CARC_RESULT_OK) {
        fail_at(__FILE__, __LINE__, "cannot make a test game");
        return NULL;
    }
    return game;
}

static uint16_t tile_id(const carc_game *game, const char *id)
{
    uint16_t tile = 0;
    if (carc_game_tile_by_id(game, id, &tile) != CARC_RESULT_OK) {
        fail_at(__FILE__, __LINE__, "no tile %s in the game", id);
    }
    return tile;
}

static carc_action action(carc_action_kind kind)
{
    carc_action a;
    memset(&a, 0, sizeof a);
    a.kind = kind;
    return a;
}

static carc_action draw_tile(unsigned tile)
{
    carc_action a = action(CARC_ACTION_KIND_DRAW_TILE);
    a.tile = (uint16_t)tile;
    return a;
}

static carc_action place(int x, int y, unsigned rotation)
{
    carc_action a = action(CARC_ACTION_KIND_PLACE);
    a.pos.x = (int16_t)x;
    a.pos.y = (int16_t)y;
    a.rotation = (uint16_t)rotation;
    return a;
}

static carc_action deploy(unsigned segment, carc_figure figure)
{
    carc_action a = action(CARC_ACTION_KIND_DEPLOY);
    a.segment = (uint8_t)segment;
    a.figure = figure;
    return a;
}

static carc_action recall(int x, int y)
{
    carc_action a = action(CARC_ACTION_KIND_RECALL_ABBOT);
    a.pos.x = (int16_t)x;
    a.pos.y = (int16_t)y;
    return a;
}

static carc_pos pos(int x, int y)
{
    carc_pos p;
    p.x = (int16_t)x;
    p.y = (int16_t)y;
    return p;
}

static int apply_at(carc_game *game, carc_action a, const char *file, int line, const char *text)
{
    carc_error *err;
    FILL(err);
    uint32_t got = carc_game_apply(game, &a, &err);
    if (got != CARC_RESULT_OK) {
        expect_error_at(got, CARC_RESULT_OK, &err, file, line, text);
        return 0;
    }
    return check_at(untouched(&err, sizeof err), file, line, "*err is untouched on success");
}

#define APPLY(game, a) apply_at((game), (a), __FILE__, __LINE__, "carc_game_apply(" #a ")")

/* A text the library writes into a caller buffer, fetched with the size query first. */
static char *save_text(const carc_game *game)
{
    size_t size = 0;
    if (carc_game_save_json(game, NULL, 0, &size) != CARC_RESULT_BUFFER_TOO_SMALL) {
        return NULL;
    }
    char *text = malloc(size);
    if (text != NULL && carc_game_save_json(game, text, size, &size) != CARC_RESULT_OK) {
        free(text);
        return NULL;
    }
    return text;
}

static int same_score(const carc_feature_score *a, const carc_feature_score *b)
{
    return a->kind == b->kind && a->pos.x == b->pos.x && a->pos.y == b->pos.y &&
           a->segment == b->segment && a->complete == b->complete && a->farmers == b->farmers &&
           a->scorers == b->scorers && a->reason == b->reason && a->modifier == b->modifier &&
           a->tiles == b->tiles && a->pennants == b->pennants && a->cities == b->cities &&
           a->points == b->points;
}

/* Field by field: structs have padding, which memcmp would read. */
static int same_event(const carc_event *a, const carc_event *b)
{
    return a->kind == b->kind && a->player == b->player && a->winners == b->winners &&
           a->tile == b->tile && a->pos.x == b->pos.x && a->pos.y == b->pos.y &&
           a->rotation == b->rotation && a->segment == b->segment && a->figure == b->figure &&
           same_score(&a->score, &b->score);
}

/* What a refused action must not change: the saved game (setup and every action, hence the
 * whole state) and the events of the last accepted action. */
struct snapshot {
    char *save;
    carc_event *events;
    size_t count;
    int ok;
};

static void take_snapshot(const carc_game *game, struct snapshot *s)
{
    s->save = save_text(game);
    s->events = NULL;
    s->count = 0;
    s->ok = s->save != NULL;
    uint32_t got = carc_game_last_events(game, NULL, 0, &s->count);
    if (got == CARC_RESULT_BUFFER_TOO_SMALL) {
        s->events = malloc(s->count * sizeof *s->events);
        s->ok = s->ok && s->events != NULL &&
                carc_game_last_events(game, s->events, s->count, &s->count) == CARC_RESULT_OK;
    } else if (got != CARC_RESULT_OK) {
        s->ok = 0;
    }
}

static int same_snapshot(const struct snapshot *a, const struct snapshot *b)
{
    if (!a->ok || !b->ok || strcmp(a->save, b->save) != 0 || a->count != b->count) {
        return 0;
    }
    for (size_t i = 0; i < a->count; i++) {
        if (!same_event(&a->events[i], &b->events[i])) {
            return 0;
        }
    }
    return 1;
}

static void free_snapshot(struct snapshot *s)
{
    free(s->save);
    free(s->events);
}

/* `a` must be refused with `expected` by carc_game_check and carc_game_apply (with and without
 * an error object), and leave the game and its last events exactly as they were. */
static void expect_refused_at(carc_game *game, carc_action a, uint32_t expected, const char *file,
                              int line, const char *text)
{
    char call[256];
    struct snapshot before, after;
    carc_error *err;
    take_snapshot(game, &before);
    check_at(before.ok, file, line, "the game can be saved before the refusal");

    snprintf(call, sizeof call, "carc_game_check(%s)", text);
    FILL(err);
    expect_error_at(carc_game_check(game, &a, &err), expected, &err, file, line, call);
    snprintf(call, sizeof call, "carc_game_apply(%s)", text);
    FILL(err);
    expect_error_at(carc_game_apply(game, &a, &err), expected, &err, file, line, call);
    snprintf(call, sizeof call, "carc_game_apply(%s) without an error object", text);
    check_code_at(carc_game_apply(game, &a, NULL), expected, file, line, call);

    take_snapshot(game, &after);
    check_at(same_snapshot(&before, &after), file, line,
             "a refused action leaves the saved game and the last events as they were");
    free_snapshot(&before);
    free_snapshot(&after);
}

#define REFUSE(game, a, expected) \
    expect_refused_at((game), (a), (expected), __FILE__, __LINE__, #a)

/* Legal action number `index` must be refused with `expected` by carc_game_apply_legal (with
 * and without an error object), leaving the game, its last events and *legal_count as they
 * were. */
static void expect_legal_refused_at(carc_game *game, size_t index, uint32_t expected,
                                    const char *file, int line)
{
    char call[256];
    struct snapshot before, after;
    carc_error *err;
    size_t count;
    take_snapshot(game, &before);
    snprintf(call, sizeof call, "carc_game_apply_legal(game, %zu, &count, &err)", index);
    FILL(err);
    FILL(count);
    expect_error_at(carc_game_apply_legal(game, index, &count, &err), expected, &err, file, line,
                    call);
    check_at(untouched(&count, sizeof count), file, line, "*legal_count is untouched");
    snprintf(call, sizeof call, "carc_game_apply_legal(game, %zu, NULL, NULL)", index);
    check_code_at(carc_game_apply_legal(game, index, NULL, NULL), expected, file, line, call);
    take_snapshot(game, &after);
    check_at(same_snapshot(&before, &after), file, line,
             "a refused action leaves the saved game and the last events as they were");
    free_snapshot(&before);
    free_snapshot(&after);
}

#define REFUSE_LEGAL(game, index, expected) \
    expect_legal_refused_at((game), (index), (expected), __FILE__, __LINE__)

/* Draws, places with the first legal placement, skips: a turn of a game where anything goes.
 * Returns 0 once the game is over. */
static int play_any_turn(carc_game *game)
{
    carc_action legal[512];
    size_t count = 0;
    uint8_t over = 1;
    if (carc_game_is_over(game, &over) != CARC_RESULT_OK || over) {
        return 0;
    }
    if (!APPLY(game, action(CARC_ACTION_KIND_DRAW))) {
        return 0;
    }
    carc_phase phase = 0;
    carc_game_phase(game, &phase);
    if (phase != CARC_PHASE_PLACE) {
        return phase != CARC_PHASE_GAME_OVER ? 1 : 0;
    }
    if (carc_game_legal_actions(game, legal, 512, &count) != CARC_RESULT_OK || count == 0) {
        fail_at(__FILE__, __LINE__, "no legal placement for a drawn tile");
        return 0;
    }
    return APPLY(game, legal[0]) && APPLY(game, action(CARC_ACTION_KIND_SKIP));
}

/* ----- Bad handles ----- */

/* Live handles of every kind, and freed ones: the raw material of bad handles. */
struct zoo {
    carc_catalog *catalog;
    carc_game *game;
    carc_error *error;
    carc_landscape_score *score;
    carc_catalog *freed_catalog;
    carc_game *freed_game;
    carc_error *freed_error;
    carc_landscape_score *freed_score;
    int local;
};

enum kind { KIND_CATALOG, KIND_GAME, KIND_ERROR, KIND_SCORE };

struct bad {
    const char *label;
    void *handle;
    uint32_t expected;
};

enum { MAX_BAD = 12 };

static const char LANDSCAPE_JSON[] =
    "{\"tiles\": [{\"tile\": \"E\", \"x\": -1, \"y\": 0, \"rotation\": 90},"
    " {\"tile\": \"F\", \"x\": 0, \"y\": 0},"
    " {\"tile\": \"E\", \"x\": 1, \"y\": 0, \"rotation\": 270}],"
    " \"figures\": [{\"player\": 1, \"x\": 0, \"y\": 0, \"segment\": 0}]}";

static carc_landscape_options default_landscape_options(void)
{
    carc_landscape_options options;
    memset(&options, 0, sizeof options);
    carc_rules_default(&options.rules);
    return options;
}

static carc_landscape_score *landscape(const char *json)
{
    carc_landscape_options options = default_landscape_options();
    carc_landscape_score *score = NULL;
    carc_error *err = NULL;
    if (carc_landscape_score_new(json, NULL, 0, &options, &score, &err) != CARC_RESULT_OK) {
        fail_at(__FILE__, __LINE__, "cannot score a test landscape: %s",
                carc_error_message(err));
        carc_error_free(err);
        return NULL;
    }
    return score;
}

static void make_zoo(struct zoo *zoo)
{
    zoo->catalog = builtin("base");
    zoo->game = game_from_json("{\"tilesets\": [\"base\"], \"players\": 2}");
    zoo->error = NULL;
    carc_catalog *none = NULL;
    CHECK_CODE(carc_catalog_builtin("no such set", &none, &zoo->error),
               CARC_RESULT_UNKNOWN_BUILTIN);
    zoo->score = landscape(LANDSCAPE_JSON);

    zoo->freed_catalog = builtin("river");
    carc_catalog_free(zoo->freed_catalog);
    zoo->freed_game = game_from_json("{\"tilesets\": [\"base\"], \"players\": 3}");
    carc_game_free(zoo->freed_game);
    zoo->freed_error = NULL;
    CHECK_CODE(carc_catalog_builtin(NULL, &none, &zoo->freed_error),
               CARC_RESULT_NULL_ARGUMENT);
    carc_error_free(zoo->freed_error);
    zoo->freed_score = landscape(LANDSCAPE_JSON);
    carc_landscape_score_free(zoo->freed_score);
    zoo->local = 0;
}

static void free_zoo(struct zoo *zoo)
{
    carc_catalog_free(zoo->catalog);
    carc_game_free(zoo->game);
    carc_error_free(zoo->error);
    carc_landscape_score_free(zoo->score);
}

/* Every value that is not a live handle of `kind`: NULL, a freed one, live handles of the
 * other kinds, made-up numbers, a real address, and a live handle with a bit flipped. */
static size_t bad_handles(struct zoo *zoo, enum kind kind, struct bad *out)
{
    void *live[4] = {zoo->catalog, zoo->game, zoo->error, zoo->score};
    void *freed[4] = {zoo->freed_catalog, zoo->freed_game, zoo->freed_error, zoo->freed_score};
    const char *live_label[4] = {"a live catalog", "a live game", "a live error",
                                 "a live landscape score"};
    size_t n = 0;
    out[n++] = (struct bad){"NULL", NULL, CARC_RESULT_NULL_ARGUMENT};
    out[n++] = (struct bad){"a freed handle", freed[kind], CARC_RESULT_INVALID_HANDLE};
    for (int other = 0; other < 4; other++) {
        if (other != (int)kind) {
            out[n++] = (struct bad){live_label[other], live[other], CARC_RESULT_INVALID_HANDLE};
        }
    }
    out[n++] = (struct bad){"(uintptr_t)1", (void *)(uintptr_t)1, CARC_RESULT_INVALID_HANDLE};
    out[n++] = (struct bad){"(uintptr_t)0xdeadbeef", (void *)(uintptr_t)0xdeadbeef,
                            CARC_RESULT_INVALID_HANDLE};
    out[n++] = (struct bad){"UINTPTR_MAX", (void *)UINTPTR_MAX, CARC_RESULT_INVALID_HANDLE};
    out[n++] = (struct bad){"the address of a local", &zoo->local, CARC_RESULT_INVALID_HANDLE};
#if UINTPTR_MAX > 0xFFFFFFFFu
    /* Bit 40 lies in the generation of a 64-bit token (bit 32 would turn the first token ever
     * made, generation 1 of slot 0, into NULL). */
    out[n++] = (struct bad){"a live handle of the kind with bit 40 flipped",
                            (void *)((uintptr_t)live[kind] ^ ((uintptr_t)1 << 40)),
                            CARC_RESULT_INVALID_HANDLE};
#endif
    return n;
}

/* ----- Generic checks of queries (handle, args -> *out) and lists (handle -> buffer) ----- */

struct args {
    uint16_t tile;
    uint8_t segment;
    uint8_t player;
    carc_pos pos;
    size_t index;
    const char *id;
};

typedef carc_result (*query_fn)(void *handle, const struct args *a, void *out);

struct query {
    const char *name;
    query_fn fn;
    size_t size;
};

#define QUERY(name, call)                                                       \
    static carc_result q_##name(void *h, const struct args *a, void *out)       \
    {                                                                           \
        (void)a;                                                                \
        return call;                                                            \
    }

QUERY(catalog_info, carc_catalog_info(h, out))
QUERY(catalog_colour, carc_catalog_colour(h, a->index, out))
QUERY(catalog_tile_info, carc_catalog_tile_info(h, a->tile, out))
QUERY(catalog_tile_segment, carc_catalog_tile_segment(h, a->tile, a->segment, out))
QUERY(catalog_tile_by_id, carc_catalog_tile_by_id(h, a->id, out))
QUERY(game_phase, carc_game_phase(h, out))
QUERY(game_drawn_tile, carc_game_drawn_tile(h, out))
QUERY(game_placed_pos, carc_game_placed_pos(h, out))
QUERY(game_players, carc_game_players(h, out))
QUERY(game_current_player, carc_game_current_player(h, out))
QUERY(game_is_over, carc_game_is_over(h, out))
QUERY(game_seed, carc_game_seed(h, out))
QUERY(game_rules, carc_game_rules(h, out))
QUERY(game_tile_type_count, carc_game_tile_type_count(h, out))
QUERY(game_catalog_count, carc_game_catalog_count(h, out))
QUERY(game_tile_info, carc_game_tile_info(h, a->tile, out))
QUERY(game_tile_segment, carc_game_tile_segment(h, a->tile, a->segment, out))
QUERY(game_tile_by_id, carc_game_tile_by_id(h, a->id, out))
QUERY(game_tiles_left, carc_game_tiles_left(h, out))
QUERY(game_discarded, carc_game_discarded(h, out))
QUERY(game_drawable, carc_game_drawable(h, a->tile, out))
QUERY(game_leaders, carc_game_leaders(h, out))
QUERY(game_supply, carc_game_supply(h, a->player, out))
QUERY(game_special_supply, carc_game_special_supply(h, a->player, out))
QUERY(game_sheep_bag, carc_game_sheep_bag(h, out))
QUERY(game_hidden_tiles, carc_game_hidden_tiles(h, out))
QUERY(game_is_second_turn, carc_game_is_second_turn(h, out))
QUERY(game_figure_count, carc_game_figure_count(h, out))
QUERY(game_figure_info, carc_game_figure_info(h, (uint8_t)a->index, out))
/* The figure is `tile`'s number: 3, the builder, which the base game lacks (0 in hand). */
QUERY(game_in_hand, carc_game_in_hand(h, a->player, (carc_figure)a->tile, out))
QUERY(game_token_kind_count, carc_game_token_kind_count(h, out))
QUERY(game_token_info, carc_game_token_info(h, (uint8_t)a->index, out))
QUERY(game_title_count, carc_game_title_count(h, out))
QUERY(game_title_info, carc_game_title_info(h, (uint8_t)a->index, out))
QUERY(game_rule_count, carc_game_rule_count(h, out))
QUERY(game_rule_info, carc_game_rule_info(h, (uint8_t)a->index, out))
QUERY(game_mark_count, carc_game_mark_count(h, out))
QUERY(game_mark_info, carc_game_mark_info(h, (uint8_t)a->index, out))
QUERY(game_tile_at, carc_game_tile_at(h, a->pos, out))
QUERY(game_segment, carc_game_segment(h, a->pos, a->segment, out))
QUERY(game_feature, carc_game_feature(h, a->pos, a->segment, out))
QUERY(game_legal_action_count, carc_game_legal_action_count(h, out))
QUERY(game_legal_action, carc_game_legal_action(h, a->index, out))
QUERY(error_diagnostic, carc_error_diagnostic(h, a->index, out))

typedef carc_result (*list_fn)(void *handle, const struct args *a, void *buf, size_t cap,
                               size_t *count);

struct list {
    const char *name;
    list_fn fn;
    size_t item;
    int text;
};

#define LIST(name, call)                                                                    \
    static carc_result l_##name(void *h, const struct args *a, void *buf, size_t cap,        \
                                size_t *count)                                              \
    {                                                                                       \
        (void)a;                                                                            \
        return call;                                                                        \
    }

LIST(catalog_to_toml, carc_catalog_to_toml(h, buf, cap, count))
LIST(game_remaining, carc_game_remaining_copies(h, buf, cap, count))
LIST(game_scores, carc_game_scores(h, buf, cap, count))
LIST(game_tokens_held, carc_game_tokens_held(h, a->player, buf, cap, count))
LIST(game_challenges, carc_game_challenges(h, buf, cap, count))
LIST(game_flocks, carc_game_flocks(h, buf, cap, count))
LIST(game_legal_actions, carc_game_legal_actions(h, buf, cap, count))
LIST(game_last_events, carc_game_last_events(h, buf, cap, count))
LIST(game_actions, carc_game_actions(h, buf, cap, count))
LIST(game_placements, carc_game_placements(h, buf, cap, count))
LIST(game_feature_segments, carc_game_feature_segments(h, a->pos, a->segment, buf, cap, count))
LIST(game_feature_marks, carc_game_feature_marks(h, a->pos, a->segment, buf, cap, count))
LIST(game_figures, carc_game_figures(h, buf, cap, count))
LIST(game_frontier, carc_game_frontier(h, buf, cap, count))
LIST(game_setup_json, carc_game_setup_json(h, buf, cap, count))
LIST(game_save_json, carc_game_save_json(h, buf, cap, count))
LIST(score_totals, carc_landscape_score_totals(h, buf, cap, count))
LIST(score_features, carc_landscape_score_features(h, buf, cap, count))
LIST(score_json, carc_landscape_score_json(h, buf, cap, count))

/* A query with every bad handle (code, *out untouched), with a NULL out, and on `good` with
 * `args`, where it must answer `good_code` (and leave *out untouched unless that is OK). */
static void check_query_at(const struct query *q, struct zoo *zoo, enum kind kind, void *good,
                           const struct args *a, uint32_t good_code, const char *file, int line)
{
    unsigned char out[512];
    char text[256];
    struct bad bad[MAX_BAD];
    size_t bads = bad_handles(zoo, kind, bad);
    for (size_t i = 0; i < bads; i++) {
        fill(out, q->size);
        snprintf(text, sizeof text, "%s(%s, ...)", q->name, bad[i].label);
        check_code_at(q->fn(bad[i].handle, a, out), bad[i].expected, file, line, text);
        check_at(untouched(out, q->size), file, line, "*out is untouched after a bad handle");
    }
    snprintf(text, sizeof text, "%s(good, ..., NULL)", q->name);
    check_code_at(q->fn(good, a, NULL), CARC_RESULT_NULL_ARGUMENT, file, line, text);
    fill(out, q->size);
    snprintf(text, sizeof text, "%s(good, ...)", q->name);
    uint32_t got = q->fn(good, a, out);
    check_code_at(got, good_code, file, line, text);
    if (got != CARC_RESULT_OK) {
        check_at(untouched(out, q->size), file, line, "*out is untouched after a failure");
    } else {
        check_at(!untouched(out, q->size), file, line, "*out is written on success");
    }
}

#define CHECK_QUERY(q, zoo, kind, good, args, code) \
    check_query_at((q), (zoo), (kind), (good), (args), (code), __FILE__, __LINE__)

/* A query with an argument out of range: `expected`, *out untouched. */
static void check_query_fails_at(const struct query *q, void *good, const struct args *a,
                                 uint32_t expected, const char *file, int line, const char *what)
{
    unsigned char out[512];
    char text[256];
    fill(out, q->size);
    snprintf(text, sizeof text, "%s(%s)", q->name, what);
    check_code_at(q->fn(good, a, out), expected, file, line, text);
    check_at(untouched(out, q->size), file, line, "*out is untouched after a failure");
}

#define CHECK_QUERY_FAILS(q, good, args, expected, what) \
    check_query_fails_at((q), (good), (args), (expected), __FILE__, __LINE__, (what))

/* The whole buffer protocol of a list on a good handle, and every bad handle; returns the
 * number of items. */
static size_t check_list_at(const struct list *l, struct zoo *zoo, enum kind kind, void *good,
                            const struct args *a, const char *file, int line)
{
    char text[256];
    size_t count, n;
    struct bad bad[MAX_BAD];
    size_t bads = bad_handles(zoo, kind, bad);

    FILL(count);
    snprintf(text, sizeof text, "%s(good, NULL, 0, &count)", l->name);
    uint32_t got = l->fn(good, a, NULL, 0, &count);
    if (got == CARC_RESULT_OK) {
        check_size_at(count, 0, file, line, "an empty list answers OK and count 0");
        n = 0;
    } else {
        check_code_at(got, CARC_RESULT_BUFFER_TOO_SMALL, file, line, text);
        check_at(count > 0 && !untouched(&count, sizeof count), file, line,
                 "BUFFER_TOO_SMALL writes the count needed");
        n = got == CARC_RESULT_BUFFER_TOO_SMALL ? count : 0;
    }
    if (l->text) {
        check_at(n > 0, file, line, "a text needs at least its NUL");
    }

    size_t bytes = (n + 2) * l->item;
    unsigned char *buf = malloc(bytes);
    if (buf == NULL) {
        fail_at(file, line, "out of memory");
        return n;
    }

    fill(buf, bytes);
    snprintf(text, sizeof text, "%s(good, buf, cap, NULL)", l->name);
    check_code_at(l->fn(good, a, buf, n + 1, NULL), CARC_RESULT_NULL_ARGUMENT, file, line, text);
    check_at(untouched(buf, bytes), file, line, "buf is untouched when count is NULL");

    FILL(count);
    snprintf(text, sizeof text, "%s(good, NULL, %zu, &count)", l->name, n + 1);
    check_code_at(l->fn(good, a, NULL, n + 1, &count), CARC_RESULT_NULL_ARGUMENT, file, line,
                  text);
    check_at(untouched(&count, sizeof count), file, line,
             "count is untouched when buf is NULL and cap is not 0");

    if (n > 0) {
        fill(buf, bytes);
        FILL(count);
        snprintf(text, sizeof text, "%s(good, buf, %zu, &count)", l->name, n - 1);
        check_code_at(l->fn(good, a, buf, n - 1, &count), CARC_RESULT_BUFFER_TOO_SMALL, file,
                      line, text);
        check_size_at(count, n, file, line, "BUFFER_TOO_SMALL writes the count needed");
        check_at(untouched(buf, bytes), file, line, "BUFFER_TOO_SMALL leaves buf untouched");

        /* cap 0 promises nothing about buf, so a made-up non-NULL pointer must not be written. */
        FILL(count);
        snprintf(text, sizeof text, "%s(good, (void *)8, 0, &count)", l->name);
        check_code_at(l->fn(good, a, (void *)(uintptr_t)8, 0, &count),
                      CARC_RESULT_BUFFER_TOO_SMALL, file, line, text);
        check_size_at(count, n, file, line, "the size query through a dangling buf");
    }

    fill(buf, bytes);
    FILL(count);
    snprintf(text, sizeof text, "%s(good, buf, %zu, &count)", l->name, n + 1);
    check_code_at(l->fn(good, a, buf, n + 1, &count), CARC_RESULT_OK, file, line, text);
    check_size_at(count, n, file, line, "count is the number of items written");
    check_at(untouched(buf + n * l->item, 2 * l->item), file, line,
             "nothing is written past the items");
    if (l->text && n > 0) {
        check_at(buf[n - 1] == '\0' && strlen((const char *)buf) == n - 1, file, line,
                 "a text is NUL-terminated and its size counts the NUL");
    }

    if (n > 0) {
        fill(buf, bytes);
        FILL(count);
        snprintf(text, sizeof text, "%s(good, buf, %zu, &count) (exact fit)", l->name, n);
        check_code_at(l->fn(good, a, buf, n, &count), CARC_RESULT_OK, file, line, text);
        check_size_at(count, n, file, line, "count after an exact fit");
    }

    for (size_t i = 0; i < bads; i++) {
        fill(buf, bytes);
        FILL(count);
        snprintf(text, sizeof text, "%s(%s, buf, cap, &count)", l->name, bad[i].label);
        check_code_at(l->fn(bad[i].handle, a, buf, n + 1, &count), bad[i].expected, file, line,
                      text);
        check_at(untouched(buf, bytes) && untouched(&count, sizeof count), file, line,
                 "buf and count are untouched after a bad handle");
    }
    free(buf);
    return n;
}

#define CHECK_LIST(l, zoo, kind, good, args) \
    check_list_at((l), (zoo), (kind), (good), (args), __FILE__, __LINE__)

/* ----- Versions and result names ----- */

struct named_code {
    uint32_t code;
    const char *name;
};

#define NAMED(code) {code, #code}

static const struct named_code RESULTS[] = {
    NAMED(CARC_RESULT_OK),
    NAMED(CARC_RESULT_NULL_ARGUMENT),
    NAMED(CARC_RESULT_INVALID_UTF8),
    NAMED(CARC_RESULT_BUFFER_TOO_SMALL),
    NAMED(CARC_RESULT_INVALID_ARGUMENT),
    NAMED(CARC_RESULT_INVALID_ENUM),
    NAMED(CARC_RESULT_OUT_OF_RANGE),
    NAMED(CARC_RESULT_NOT_AVAILABLE),
    NAMED(CARC_RESULT_INVALID_HANDLE),
    NAMED(CARC_RESULT_TOO_MANY_HANDLES),
    NAMED(CARC_RESULT_UNKNOWN_BUILTIN),
    NAMED(CARC_RESULT_TILESET_INVALID),
    NAMED(CARC_RESULT_TILESET_IO),
    NAMED(CARC_RESULT_TILESET_TOO_LARGE),
    NAMED(CARC_RESULT_NO_TILE_SET),
    NAMED(CARC_RESULT_TOO_FEW_PLAYERS),
    NAMED(CARC_RESULT_TOO_MANY_PLAYERS),
    NAMED(CARC_RESULT_DUPLICATE_TILE_ID),
    NAMED(CARC_RESULT_NO_START_TILE),
    NAMED(CARC_RESULT_TOO_MANY_TILE_TYPES),
    NAMED(CARC_RESULT_TOO_MANY_TILES),
    NAMED(CARC_RESULT_CONFLICTING_DECLARATION),
    NAMED(CARC_RESULT_TOO_MANY_DECLARATIONS),
    NAMED(CARC_RESULT_NO_FOLLOWERS),
    NAMED(CARC_RESULT_WRONG_PHASE),
    NAMED(CARC_RESULT_UNKNOWN_TILE),
    NAMED(CARC_RESULT_TILE_NOT_IN_BAG),
    NAMED(CARC_RESULT_TILE_OF_LATER_STAGE),
    NAMED(CARC_RESULT_TILE_COMES_LAST),
    NAMED(CARC_RESULT_CELL_OCCUPIED),
    NAMED(CARC_RESULT_NO_NEIGHBOUR),
    NAMED(CARC_RESULT_EDGE_MISMATCH),
    NAMED(CARC_RESULT_BOARD_FULL),
    NAMED(CARC_RESULT_OUT_OF_BOUNDS),
    NAMED(CARC_RESULT_RIVER_NOT_CONTINUED),
    NAMED(CARC_RESULT_RIVER_TURNS_BACK),
    NAMED(CARC_RESULT_NO_SUCH_SEGMENT),
    NAMED(CARC_RESULT_FIGURE_NOT_ALLOWED),
    NAMED(CARC_RESULT_FEATURE_OCCUPIED),
    NAMED(CARC_RESULT_NONE_LEFT),
    NAMED(CARC_RESULT_NO_ABBOT_THERE),
    NAMED(CARC_RESULT_ABBOT_FEATURE_COMPLETE),
    NAMED(CARC_RESULT_GAME_OVER),
    NAMED(CARC_RESULT_TOO_MANY_RIVALS),
    NAMED(CARC_RESULT_RIVER_BRANCHES_JOIN),
    NAMED(CARC_RESULT_TILES_COME_FIRST),
    NAMED(CARC_RESULT_NEEDS_OWN_FOLLOWER),
    NAMED(CARC_RESULT_FIGURE_ALREADY_THERE),
    NAMED(CARC_RESULT_SHEEP_NOT_IN_BAG),
    NAMED(CARC_RESULT_NO_WOLF_IN_BAG),
    NAMED(CARC_RESULT_FLOCK_BAG_EMPTY),
    NAMED(CARC_RESULT_JSON_SYNTAX),
    NAMED(CARC_RESULT_JSON_CONTENT),
    NAMED(CARC_RESULT_SAVE_FORMAT),
    NAMED(CARC_RESULT_SAVE_ACTION_REFUSED),
    NAMED(CARC_RESULT_JSON_TOO_LARGE),
    NAMED(CARC_RESULT_LANDSCAPE_UNKNOWN_TILE),
    NAMED(CARC_RESULT_LANDSCAPE_PLACEMENT),
    NAMED(CARC_RESULT_LANDSCAPE_NO_TILE),
    NAMED(CARC_RESULT_LANDSCAPE_NO_SUCH_SEGMENT),
    NAMED(CARC_RESULT_LANDSCAPE_FIGURE_NOT_ALLOWED),
    NAMED(CARC_RESULT_LANDSCAPE_PLAYER_OUT_OF_RANGE),
    NAMED(CARC_RESULT_UNKNOWN_PROFILE),
    NAMED(CARC_RESULT_PROFILE_INVALID),
    NAMED(CARC_RESULT_PANIC),
    NAMED(CARC_RESULT_POISONED),
};

enum { RESULT_COUNT = sizeof RESULTS / sizeof RESULTS[0] };

static void test_versions(void)
{
    section("versions");
    CHECK(carc_abi_version() ==
          (((uint32_t)CARC_ABI_VERSION_MAJOR << 16) | (uint32_t)CARC_ABI_VERSION_MINOR));
    const char *version = carc_version();
    CHECK(version != NULL && version[0] != '\0');
    CHECK(version != NULL && version == carc_version());
}

static void test_result_names(void)
{
    section("result names");
    for (size_t i = 0; i < RESULT_COUNT; i++) {
        check_str_at(carc_result_name(RESULTS[i].code), RESULTS[i].name, __FILE__, __LINE__,
                     "carc_result_name(constant) spells the constant");
    }
    size_t named = 0;
    for (uint32_t code = 0; code < 1000; code++) {
        const char *name = carc_result_name(code);
        int defined = 0;
        for (size_t i = 0; i < RESULT_COUNT; i++) {
            defined |= RESULTS[i].code == code;
        }
        if (name != NULL) {
            named++;
        }
        if ((name != NULL) != defined) {
            fail_at(__FILE__, __LINE__, "carc_result_name(%u) is %s but %u is %sa defined code",
                    (unsigned)code, name != NULL ? name : "NULL", (unsigned)code,
                    defined ? "" : "not ");
        }
        checks_run++;
    }
    CHECK_SIZE(named, (size_t)RESULT_COUNT);
    CHECK(carc_result_name(1000) == NULL);
    CHECK(carc_result_name(UINT32_MAX) == NULL);
    CHECK(carc_result_name(0x80000000u) == NULL);
}

/* ----- The error object ----- */

static void test_error_values(struct zoo *zoo)
{
    section("error values on bad handles");
    struct bad bad[MAX_BAD];
    size_t bads = bad_handles(zoo, KIND_ERROR, bad);
    for (size_t i = 0; i < bads; i++) {
        const carc_error *err = bad[i].handle;
        char text[256];
        snprintf(text, sizeof text, "carc_error_code(%s)", bad[i].label);
        check_code_at(carc_error_code(err), bad[i].expected, __FILE__, __LINE__, text);
        snprintf(text, sizeof text, "carc_error_message(%s) is NULL", bad[i].label);
        check_at(carc_error_message(err) == NULL, __FILE__, __LINE__, text);
        snprintf(text, sizeof text, "carc_error_line(%s) is 0", bad[i].label);
        check_at(carc_error_line(err) == 0, __FILE__, __LINE__, text);
        snprintf(text, sizeof text, "carc_error_column(%s) is 0", bad[i].label);
        check_at(carc_error_column(err) == 0, __FILE__, __LINE__, text);
        snprintf(text, sizeof text, "carc_error_count(%s) is 0", bad[i].label);
        check_at(carc_error_count(err) == 0, __FILE__, __LINE__, text);
    }

    section("error diagnostics");
    static const struct query diagnostic = {"carc_error_diagnostic", q_error_diagnostic,
                                            sizeof(carc_diagnostic_info)};
    struct args a;
    memset(&a, 0, sizeof a);
    /* The zoo's error (an unknown built-in) has no diagnostics: index 0 is already past them. */
    CHECK_QUERY(&diagnostic, zoo, KIND_ERROR, zoo->error, &a, CARC_RESULT_OUT_OF_RANGE);
    CHECK_CODE(carc_error_code(zoo->error), CARC_RESULT_UNKNOWN_BUILTIN);
    CHECK(carc_error_count(zoo->error) == 0);
    CHECK(carc_error_line(zoo->error) == 0);
    CHECK(carc_error_column(zoo->error) == 0);
    const char *message = carc_error_message(zoo->error);
    CHECK(message != NULL && strstr(message, "no such set") != NULL);
    CHECK(message != NULL && message == carc_error_message(zoo->error));
}

/* ----- Built-in tile sets and catalogs ----- */

static void test_builtins(void)
{
    section("built-in tile sets");
    size_t count = carc_builtin_count();
    CHECK(count >= 4);
    for (size_t i = 0; i < count; i++) {
        const char *name = carc_builtin_name(i);
        if (!CHECK(name != NULL && name[0] != '\0')) {
            continue;
        }
        carc_catalog *catalog;
        carc_error *err;
        FILL(catalog);
        CHECK_OK_ERR(carc_catalog_builtin(name, &catalog, &err), err);
        CHECK(!untouched(&catalog, sizeof catalog));
        carc_tileset_info info;
        if (CHECK_CODE(carc_catalog_info(catalog, &info), CARC_RESULT_OK)) {
            CHECK_STR(info.id, name);
        }
        carc_catalog_free(catalog);
    }
    CHECK(carc_builtin_name(count) == NULL);
    CHECK(carc_builtin_name(SIZE_MAX) == NULL);

    /* The palette: every name and shade a static string, "#rrggbb"; NULL past the end. */
    size_t colours = carc_palette_count();
    CHECK(colours >= 6);
    for (size_t i = 0; i < colours; i++) {
        const char *name = carc_palette_name(i);
        const char *shade = carc_palette_shade(i);
        CHECK(name != NULL && name[0] != '\0');
        CHECK(shade != NULL && shade[0] == '#' && strlen(shade) == 7);
    }
    CHECK(strcmp(carc_palette_name(0), "red") == 0 && strcmp(carc_palette_shade(0), "#d62828") == 0);
    CHECK(carc_palette_name(colours) == NULL && carc_palette_shade(colours) == NULL);
    CHECK(carc_palette_name(SIZE_MAX) == NULL && carc_palette_shade(SIZE_MAX) == NULL);

    carc_catalog *catalog;
    carc_error *err;
    FILL(catalog);
    CHECK_FAILS(carc_catalog_builtin(NULL, &catalog, &err), CARC_RESULT_NULL_ARGUMENT, err);
    CHECK_FAILS(carc_catalog_builtin("base", NULL, &err), CARC_RESULT_NULL_ARGUMENT, err);
    CHECK_FAILS(carc_catalog_builtin(BAD_UTF8, &catalog, &err), CARC_RESULT_INVALID_UTF8, err);
    CHECK_FAILS(carc_catalog_builtin("nope", &catalog, &err), CARC_RESULT_UNKNOWN_BUILTIN, err);
    CHECK_FAILS(carc_catalog_builtin("", &catalog, &err), CARC_RESULT_UNKNOWN_BUILTIN, err);
    CHECK_FAILS(carc_catalog_builtin("Base", &catalog, &err), CARC_RESULT_UNKNOWN_BUILTIN, err);
    CHECK_FAILS(carc_catalog_builtin("base ", &catalog, &err), CARC_RESULT_UNKNOWN_BUILTIN, err);
    /* A built-in name is a name, never a path. */
    CHECK_FAILS(carc_catalog_builtin("tilesets/base.toml", &catalog, &err),
                CARC_RESULT_UNKNOWN_BUILTIN, err);
    CHECK_UNTOUCHED(catalog);
    CHECK_CODE(carc_catalog_builtin("nope", &catalog, NULL), CARC_RESULT_UNKNOWN_BUILTIN);
    CHECK_CODE(carc_catalog_builtin(NULL, NULL, NULL), CARC_RESULT_NULL_ARGUMENT);
    CHECK_UNTOUCHED(catalog);

    /* The message names the argument that was NULL. */
    FILL(err);
    if (CHECK_CODE(carc_catalog_builtin("base", NULL, &err), CARC_RESULT_NULL_ARGUMENT)) {
        const char *message = carc_error_message(err);
        CHECK(message != NULL && strstr(message, "out") != NULL);
        CHECK(carc_error_line(err) == 0 && carc_error_column(err) == 0);
        carc_error_free(err);
    }
}

/* An invalid tile set: the error's code, its line and column (the first diagnostic's), and each
 * diagnostic in full. */
static void check_syntax_diagnostics(carc_error *err, const char *file)
{
    CHECK_CODE(carc_error_code(err), CARC_RESULT_TILESET_INVALID);
    CHECK_SIZE(carc_error_count(err), 2);
    CHECK(carc_error_line(err) == 8);
    CHECK(carc_error_column(err) == 22);
    const char *message = carc_error_message(err);
    CHECK(message != NULL && strchr(message, '\n') != NULL);
    CHECK(message != NULL && strstr(message, "dsl-syntax") != NULL);
    const uint32_t lines[2] = {8, 10};
    const uint32_t columns[2] = {22, 35};
    for (size_t i = 0; i < 2; i++) {
        carc_diagnostic_info info;
        FILL(info);
        if (!CHECK_CODE(carc_error_diagnostic(err, i, &info), CARC_RESULT_OK)) {
            continue;
        }
        CHECK_STR(info.file, file);
        CHECK(info.line == lines[i]);
        CHECK(info.column == columns[i]);
        CHECK_STR(info.code, "dsl-syntax");
        CHECK(info.code_number > 0);
        CHECK(info.message != NULL && info.message[0] != '\0');
    }
    carc_diagnostic_info info;
    FILL(info);
    CHECK_CODE(carc_error_diagnostic(err, 2, &info), CARC_RESULT_OUT_OF_RANGE);
    CHECK_CODE(carc_error_diagnostic(err, SIZE_MAX, &info), CARC_RESULT_OUT_OF_RANGE);
    CHECK_UNTOUCHED(info);
    CHECK_CODE(carc_error_diagnostic(err, 0, NULL), CARC_RESULT_NULL_ARGUMENT);
}

static void test_catalog_from_toml(void)
{
    section("carc_catalog_from_toml");
    carc_catalog *catalog;
    carc_error *err;
    FILL(catalog);
    CHECK_FAILS(carc_catalog_from_toml("x.toml", NULL, &catalog, &err), CARC_RESULT_NULL_ARGUMENT,
                err);
    CHECK_FAILS(carc_catalog_from_toml("x.toml", FIELDS_TOML, NULL, &err),
                CARC_RESULT_NULL_ARGUMENT, err);
    CHECK_FAILS(carc_catalog_from_toml(BAD_UTF8, FIELDS_TOML, &catalog, &err),
                CARC_RESULT_INVALID_UTF8, err);
    CHECK_FAILS(carc_catalog_from_toml("x.toml", BAD_UTF8, &catalog, &err),
                CARC_RESULT_INVALID_UTF8, err);
    CHECK_FAILS(carc_catalog_from_toml("x.toml", "", &catalog, &err), CARC_RESULT_TILESET_INVALID,
                err);
    CHECK_FAILS(carc_catalog_from_toml("x.toml", "[set]", &catalog, &err),
                CARC_RESULT_TILESET_INVALID, err);
    CHECK_CODE(carc_catalog_from_toml(NULL, SYNTAX_TOML, &catalog, NULL),
               CARC_RESULT_TILESET_INVALID);
    CHECK_UNTOUCHED(catalog);

    /* Every diagnostic, with the file name given. */
    FILL(err);
    if (CHECK_CODE(carc_catalog_from_toml("syntax.toml", SYNTAX_TOML, &catalog, &err),
                   CARC_RESULT_TILESET_INVALID)) {
        check_syntax_diagnostics(err, "syntax.toml");
        carc_error_free(err);
    }
    CHECK_UNTOUCHED(catalog);

    /* `file` may be NULL: the text is then named <string>. */
    FILL(err);
    if (CHECK_CODE(carc_catalog_from_toml(NULL, HALF_EDGE_TOML, &catalog, &err),
                   CARC_RESULT_TILESET_INVALID)) {
        CHECK_SIZE(carc_error_count(err), 1);
        CHECK(carc_error_line(err) == 15 && carc_error_column(err) == 63);
        carc_diagnostic_info info;
        if (CHECK_CODE(carc_error_diagnostic(err, 0, &info), CARC_RESULT_OK)) {
            CHECK_STR(info.file, "<string>");
            CHECK_STR(info.code, "dsl-unknown-half-edge");
            CHECK(info.line == 15 && info.column == 63);
            CHECK(info.message != NULL && strstr(info.message, "N_x") != NULL);
        }
        carc_error_free(err);
    }
    CHECK_UNTOUCHED(catalog);

    FILL(err);
    CHECK_OK_ERR(carc_catalog_from_toml(NULL, FIELDS_TOML, &catalog, &err), err);
    carc_catalog_free(catalog);

    /* Nesting deep enough to overflow a recursive parser's stack is refused, not a crash. */
    size_t depth = 100000;
    char *deep = malloc(2 * depth + 16);
    if (deep != NULL) {
        strcpy(deep, "a = ");
        memset(deep + 4, '[', depth);
        memset(deep + 4 + depth, ']', depth);
        deep[4 + 2 * depth] = '\0';
        CHECK_FAILS(carc_catalog_from_toml("deep.toml", deep, &catalog, &err),
                    CARC_RESULT_TILESET_INVALID, err);
        memset(deep, '[', 2 * depth);
        deep[2 * depth] = '\0';
        CHECK_FAILS(carc_catalog_from_toml("deep.toml", deep, &catalog, &err),
                    CARC_RESULT_TILESET_INVALID, err);
        free(deep);
    }
}

static int write_file(const char *path, const char *text, size_t repeat)
{
    FILE *file = fopen(path, "wb");
    if (file == NULL) {
        fail_at(__FILE__, __LINE__, "cannot write %s", path);
        return 0;
    }
    for (size_t i = 0; i < repeat; i++) {
        fputs(text, file);
    }
    fclose(file);
    return 1;
}

/* Files made in the scratch folder the Rust test passes. */
struct files {
    char missing[1024];
    char big[1024];
    char invalid[1024];
    char bad_utf8[1024];
    char fields[1024];
    char folder[1024];
};

static void make_files(const char *scratch, struct files *f)
{
    snprintf(f->missing, sizeof f->missing, "%s/no such file.toml", scratch);
    snprintf(f->big, sizeof f->big, "%s/big.toml", scratch);
    snprintf(f->invalid, sizeof f->invalid, "%s/syntax.toml", scratch);
    snprintf(f->bad_utf8, sizeof f->bad_utf8, "%s/bad_utf8.toml", scratch);
    snprintf(f->fields, sizeof f->fields, "%s/fields.toml", scratch);
    snprintf(f->folder, sizeof f->folder, "%s", scratch);
    /* 1 MiB of comment lines and a bit more: over the limit, though every line is valid. */
    write_file(f->big, "# padding padding padding padding padding padding padding padding\n",
               (1u << 20) / 64 + 64);
    write_file(f->invalid, SYNTAX_TOML, 1);
    write_file(f->bad_utf8, "# \xff\xfe\n[set]\n", 1);
    write_file(f->fields, FIELDS_TOML, 1);
}

static void test_catalog_from_path(const struct files *f)
{
    section("carc_catalog_from_path");
    carc_catalog *catalog;
    carc_error *err;
    FILL(catalog);
    CHECK_FAILS(carc_catalog_from_path(NULL, &catalog, &err), CARC_RESULT_NULL_ARGUMENT, err);
    CHECK_FAILS(carc_catalog_from_path(f->fields, NULL, &err), CARC_RESULT_NULL_ARGUMENT, err);
    CHECK_FAILS(carc_catalog_from_path(BAD_UTF8, &catalog, &err), CARC_RESULT_INVALID_UTF8, err);
    CHECK_FAILS(carc_catalog_from_path(f->missing, &catalog, &err), CARC_RESULT_TILESET_IO, err);
    CHECK_FAILS(carc_catalog_from_path("", &catalog, &err), CARC_RESULT_TILESET_IO, err);
    CHECK_FAILS(carc_catalog_from_path(f->folder, &catalog, &err), CARC_RESULT_TILESET_IO, err);
    /* A built-in name is not a path. */
    CHECK_FAILS(carc_catalog_from_path("base", &catalog, &err), CARC_RESULT_TILESET_IO, err);
    CHECK_FAILS(carc_catalog_from_path(f->big, &catalog, &err), CARC_RESULT_TILESET_TOO_LARGE,
                err);
    /* Text that is not UTF-8 cannot be read as a tile set at all. */
    CHECK_FAILS(carc_catalog_from_path(f->bad_utf8, &catalog, &err), CARC_RESULT_TILESET_IO, err);
    CHECK_CODE(carc_catalog_from_path(f->missing, &catalog, NULL), CARC_RESULT_TILESET_IO);
    CHECK_UNTOUCHED(catalog);

    FILL(err);
    if (CHECK_CODE(carc_catalog_from_path(f->invalid, &catalog, &err),
                   CARC_RESULT_TILESET_INVALID)) {
        check_syntax_diagnostics(err, f->invalid);
        carc_error_free(err);
    }
    CHECK_UNTOUCHED(catalog);

    FILL(err);
    CHECK_OK_ERR(carc_catalog_from_path(f->fields, &catalog, &err), err);
    carc_catalog_free(catalog);
    FILL(err);
    CHECK_OK_ERR(carc_catalog_from_path("tilesets/base.toml", &catalog, &err), err);
    carc_catalog_free(catalog);
}

static void test_catalog_queries(struct zoo *zoo)
{
    section("catalog queries");
    static const struct query info = {"carc_catalog_info", q_catalog_info,
                                      sizeof(carc_tileset_info)};
    static const struct query colour = {"carc_catalog_colour", q_catalog_colour,
                                        sizeof(const char *)};
    static const struct query tile_info = {"carc_catalog_tile_info", q_catalog_tile_info,
                                           sizeof(carc_tile_info)};
    static const struct query tile_segment = {"carc_catalog_tile_segment",
                                              q_catalog_tile_segment, sizeof(carc_segment_info)};
    static const struct query tile_by_id = {"carc_catalog_tile_by_id", q_catalog_tile_by_id,
                                            sizeof(uint16_t)};
    static const struct list to_toml = {"carc_catalog_to_toml", l_catalog_to_toml, 1, 1};

    struct args a;
    memset(&a, 0, sizeof a);
    a.id = "D";
    carc_tileset_info set;
    CHECK_CODE(carc_catalog_info(zoo->catalog, &set), CARC_RESULT_OK);

    CHECK_QUERY(&info, zoo, KIND_CATALOG, zoo->catalog, &a, CARC_RESULT_OK);
    CHECK_QUERY(&colour, zoo, KIND_CATALOG, zoo->catalog, &a, CARC_RESULT_OK);
    CHECK_QUERY(&tile_info, zoo, KIND_CATALOG, zoo->catalog, &a, CARC_RESULT_OK);
    CHECK_QUERY(&tile_segment, zoo, KIND_CATALOG, zoo->catalog, &a, CARC_RESULT_OK);
    CHECK_QUERY(&tile_by_id, zoo, KIND_CATALOG, zoo->catalog, &a, CARC_RESULT_OK);
    size_t size = CHECK_LIST(&to_toml, zoo, KIND_CATALOG, zoo->catalog, &a);
    CHECK(size > 1000);

    a.index = set.colours;
    CHECK_QUERY_FAILS(&colour, zoo->catalog, &a, CARC_RESULT_OUT_OF_RANGE, "index = colours");
    a.index = SIZE_MAX;
    CHECK_QUERY_FAILS(&colour, zoo->catalog, &a, CARC_RESULT_OUT_OF_RANGE, "index = SIZE_MAX");
    a.tile = (uint16_t)set.tile_types;
    CHECK_QUERY_FAILS(&tile_info, zoo->catalog, &a, CARC_RESULT_OUT_OF_RANGE, "tile = types");
    CHECK_QUERY_FAILS(&tile_segment, zoo->catalog, &a, CARC_RESULT_OUT_OF_RANGE, "tile = types");
    a.tile = UINT16_MAX;
    CHECK_QUERY_FAILS(&tile_info, zoo->catalog, &a, CARC_RESULT_OUT_OF_RANGE, "tile = 65535");
    a.tile = 3; /* D, which has 4 segments */
    a.segment = 4;
    CHECK_QUERY_FAILS(&tile_segment, zoo->catalog, &a, CARC_RESULT_OUT_OF_RANGE,
                      "segment = segment_count");
    a.segment = UINT8_MAX;
    CHECK_QUERY_FAILS(&tile_segment, zoo->catalog, &a, CARC_RESULT_OUT_OF_RANGE,
                      "segment = 255");
    a.id = "Z";
    CHECK_QUERY_FAILS(&tile_by_id, zoo->catalog, &a, CARC_RESULT_NOT_AVAILABLE, "id = Z");
    a.id = "";
    CHECK_QUERY_FAILS(&tile_by_id, zoo->catalog, &a, CARC_RESULT_NOT_AVAILABLE, "id = \"\"");
    a.id = "d";
    CHECK_QUERY_FAILS(&tile_by_id, zoo->catalog, &a, CARC_RESULT_NOT_AVAILABLE, "id = d");
    a.id = BAD_UTF8;
    CHECK_QUERY_FAILS(&tile_by_id, zoo->catalog, &a, CARC_RESULT_INVALID_UTF8, "bad UTF-8 id");
    a.id = NULL;
    CHECK_QUERY_FAILS(&tile_by_id, zoo->catalog, &a, CARC_RESULT_NULL_ARGUMENT, "id = NULL");

    section("carc_catalog_clone");
    struct bad bad[MAX_BAD];
    size_t bads = bad_handles(zoo, KIND_CATALOG, bad);
    for (size_t i = 0; i < bads; i++) {
        carc_catalog *copy;
        FILL(copy);
        char text[256];
        snprintf(text, sizeof text, "carc_catalog_clone(%s, &copy)", bad[i].label);
        check_code_at(carc_catalog_clone(bad[i].handle, &copy), bad[i].expected, __FILE__,
                      __LINE__, text);
        CHECK_UNTOUCHED(copy);
    }
    CHECK_CODE(carc_catalog_clone(zoo->catalog, NULL), CARC_RESULT_NULL_ARGUMENT);
    carc_catalog *copy;
    if (CHECK_CODE(carc_catalog_clone(zoo->catalog, &copy), CARC_RESULT_OK)) {
        CHECK(copy != zoo->catalog);
        carc_catalog_free(copy);
        /* The original lives on after its copy is freed. */
        CHECK_CODE(carc_catalog_info(zoo->catalog, &set), CARC_RESULT_OK);
    }
}

/* ----- Setups ----- */

static void check_setup_fails_at(const carc_setup *setup, uint32_t expected, const char *file,
                                 int line, const char *what)
{
    carc_game *game;
    carc_error *err;
    char text[256];
    FILL(game);
    FILL(err);
    snprintf(text, sizeof text, "carc_game_new(%s)", what);
    expect_error_at(carc_game_new(setup, &game, &err), expected, &err, file, line, text);
    check_at(untouched(&game, sizeof game), file, line, "*out is untouched after a failure");
    snprintf(text, sizeof text, "carc_game_new(%s) without an error object", what);
    check_code_at(carc_game_new(setup, &game, NULL), expected, file, line, text);
    check_at(untouched(&game, sizeof game), file, line, "*out is untouched after a failure");
}

#define CHECK_SETUP_FAILS(setup, expected, what) \
    check_setup_fails_at((setup), (expected), __FILE__, __LINE__, (what))

static void test_setups(struct zoo *zoo)
{
    section("setups");
    carc_setup setup;
    CHECK_CODE(carc_setup_default(NULL), CARC_RESULT_NULL_ARGUMENT);
    CHECK_CODE(carc_rules_default(NULL), CARC_RESULT_NULL_ARGUMENT);
    FILL(setup);
    CHECK_CODE(carc_setup_default(&setup), CARC_RESULT_OK);
    CHECK(setup.catalogs == NULL && setup.catalog_count == 0 && setup.players == 2 &&
          setup.seed == 0);
    carc_rules rules;
    FILL(rules);
    CHECK_CODE(carc_rules_default(&rules), CARC_RESULT_OK);
    CHECK(rules.farmers == 1 && rules.farm_scoring == CARC_FARM_SCORING_PER_FIELD &&
          rules.tiny_city == 0 && rules.inn_cathedral_unfinished == CARC_UNFINISHED_MARKS_ZERO &&
          rules.abbots == 0);

    carc_game *game;
    carc_error *err;
    FILL(game);
    CHECK_FAILS(carc_game_new(NULL, &game, &err), CARC_RESULT_NULL_ARGUMENT, err);
    const carc_catalog *base[1] = {zoo->catalog};
    setup.catalogs = base;
    setup.catalog_count = 1;
    CHECK_FAILS(carc_game_new(&setup, NULL, &err), CARC_RESULT_NULL_ARGUMENT, err);
    CHECK_UNTOUCHED(game);

    carc_setup bad = setup;
    bad.catalogs = NULL;
    CHECK_SETUP_FAILS(&bad, CARC_RESULT_NULL_ARGUMENT, "catalogs = NULL, catalog_count = 1");
    const carc_catalog *with_null[2] = {zoo->catalog, NULL};
    bad.catalogs = with_null;
    bad.catalog_count = 2;
    CHECK_SETUP_FAILS(&bad, CARC_RESULT_NULL_ARGUMENT, "a NULL catalog in the list");

    struct bad handles[MAX_BAD];
    size_t bads = bad_handles(zoo, KIND_CATALOG, handles);
    for (size_t i = 1; i < bads; i++) {
        const carc_catalog *list[2] = {zoo->catalog, handles[i].handle};
        char what[256];
        snprintf(what, sizeof what, "catalogs[1] = %s", handles[i].label);
        bad.catalogs = list;
        CHECK_SETUP_FAILS(&bad, CARC_RESULT_INVALID_HANDLE, what);
    }

    /* A count of 0 means the list is never read, whatever the pointer. */
    bad = setup;
    bad.catalogs = (const carc_catalog *const *)(uintptr_t)8;
    bad.catalog_count = 0;
    CHECK_SETUP_FAILS(&bad, CARC_RESULT_NO_TILE_SET, "catalog_count = 0, catalogs dangling");
    bad.catalogs = NULL;
    CHECK_SETUP_FAILS(&bad, CARC_RESULT_NO_TILE_SET, "no tile set");

    bad = setup;
    bad.rules.farm_scoring = 5;
    CHECK_SETUP_FAILS(&bad, CARC_RESULT_INVALID_ENUM, "farm_scoring = 5");
    bad.rules.farm_scoring = UINT32_MAX;
    CHECK_SETUP_FAILS(&bad, CARC_RESULT_INVALID_ENUM, "farm_scoring = UINT32_MAX");
    bad = setup;
    bad.rules.inn_cathedral_unfinished = 2;
    CHECK_SETUP_FAILS(&bad, CARC_RESULT_INVALID_ENUM, "inn_cathedral_unfinished = 2");
    bad = setup;
    bad.rules.farmers = 2;
    CHECK_SETUP_FAILS(&bad, CARC_RESULT_INVALID_ARGUMENT, "farmers = 2");
    bad = setup;
    bad.rules.tiny_city = 2;
    CHECK_SETUP_FAILS(&bad, CARC_RESULT_INVALID_ARGUMENT, "tiny_city = 2");
    bad = setup;
    bad.rules.abbots = 255;
    CHECK_SETUP_FAILS(&bad, CARC_RESULT_INVALID_ARGUMENT, "abbots = 255");

    bad = setup;
    bad.players = 1;
    CHECK_SETUP_FAILS(&bad, CARC_RESULT_TOO_FEW_PLAYERS, "1 player");
    bad.players = 0;
    CHECK_SETUP_FAILS(&bad, CARC_RESULT_TOO_FEW_PLAYERS, "0 players");
    bad.players = 6;
    CHECK_SETUP_FAILS(&bad, CARC_RESULT_TOO_MANY_PLAYERS, "6 players with base");
    bad.players = UINT8_MAX;
    CHECK_SETUP_FAILS(&bad, CARC_RESULT_TOO_MANY_PLAYERS, "255 players");

    carc_catalog *c2 = builtin("base_c2");
    carc_catalog *river = builtin("river");
    carc_catalog *plain = from_toml(PLAIN_TOML);
    carc_catalog *started = from_toml(STARTED_TOML);
    const carc_catalog *twice[2] = {zoo->catalog, c2};
    bad = setup;
    bad.catalogs = twice;
    bad.catalog_count = 2;
    CHECK_SETUP_FAILS(&bad, CARC_RESULT_DUPLICATE_TILE_ID, "base + base_c2");
    const carc_catalog *same[2] = {zoo->catalog, zoo->catalog};
    bad.catalogs = same;
    CHECK_SETUP_FAILS(&bad, CARC_RESULT_DUPLICATE_TILE_ID, "base twice");
    const carc_catalog *no_start[1] = {plain};
    bad.catalogs = no_start;
    bad.catalog_count = 1;
    CHECK_SETUP_FAILS(&bad, CARC_RESULT_NO_START_TILE, "a set without a start tile");
    const carc_catalog *no_followers[1] = {started};
    bad.catalogs = no_followers;
    CHECK_SETUP_FAILS(&bad, CARC_RESULT_NO_FOLLOWERS, "a set without followers");
    const carc_catalog *only_river[1] = {river};
    bad.catalogs = only_river;
    CHECK_SETUP_FAILS(&bad, CARC_RESULT_NO_FOLLOWERS, "the River alone");
    /* The abbot exists where a set declares it (the base sets do): the `abbots` option
       gives no abbot to a set that declares none. */
    bad.catalogs = no_followers;
    bad.rules.abbots = 1;
    CHECK_SETUP_FAILS(&bad, CARC_RESULT_NO_FOLLOWERS, "abbots on, a set declaring none");

    /* 2731 copies of the 24 types of base: 65,544 types, more than tile numbers. */
    enum { COPIES = 65535 / 24 + 1 };
    const carc_catalog **many = malloc(COPIES * sizeof *many);
    if (many != NULL) {
        for (size_t i = 0; i < COPIES; i++) {
            many[i] = zoo->catalog;
        }
        bad = setup;
        bad.catalogs = many;
        bad.catalog_count = COPIES;
        CHECK_SETUP_FAILS(&bad, CARC_RESULT_TOO_MANY_TILE_TYPES, "2731 copies of base");
        free(many);
    }

    /* The catalogs may be freed once the game is made. */
    carc_catalog *fields = from_toml(FIELDS_TOML);
    const carc_catalog *with_plain[2] = {fields, plain};
    setup.catalogs = with_plain;
    setup.catalog_count = 2;
    FILL(err);
    CHECK_OK_ERR(carc_game_new(&setup, &game, &err), err);
    carc_catalog_free(fields);
    size_t types = 0;
    CHECK_CODE(carc_game_tile_type_count(game, &types), CARC_RESULT_OK);
    CHECK_SIZE(types, 3);
    carc_game_free(game);

    carc_catalog_free(c2);
    carc_catalog_free(river);
    carc_catalog_free(plain);
    carc_catalog_free(started);
}

/* ----- Game queries and lists ----- */

static const struct query GAME_QUERIES[] = {
    {"carc_game_phase", q_game_phase, sizeof(carc_phase)},
    {"carc_game_drawn_tile", q_game_drawn_tile, sizeof(uint16_t)},
    {"carc_game_placed_pos", q_game_placed_pos, sizeof(carc_pos)},
    {"carc_game_players", q_game_players, sizeof(uint8_t)},
    {"carc_game_current_player", q_game_current_player, sizeof(uint8_t)},
    {"carc_game_is_over", q_game_is_over, sizeof(uint8_t)},
    {"carc_game_seed", q_game_seed, sizeof(uint64_t)},
    {"carc_game_rules", q_game_rules, sizeof(carc_rules)},
    {"carc_game_tile_type_count", q_game_tile_type_count, sizeof(size_t)},
    {"carc_game_catalog_count", q_game_catalog_count, sizeof(size_t)},
    {"carc_game_tile_info", q_game_tile_info, sizeof(carc_tile_info)},
    {"carc_game_tile_segment", q_game_tile_segment, sizeof(carc_segment_info)},
    {"carc_game_tile_by_id", q_game_tile_by_id, sizeof(uint16_t)},
    {"carc_game_tiles_left", q_game_tiles_left, sizeof(uint32_t)},
    {"carc_game_discarded", q_game_discarded, sizeof(uint32_t)},
    {"carc_game_drawable", q_game_drawable, sizeof(uint8_t)},
    {"carc_game_leaders", q_game_leaders, sizeof(uint8_t)},
    {"carc_game_supply", q_game_supply, sizeof(carc_supply)},
    {"carc_game_special_supply", q_game_special_supply, sizeof(carc_special_supply)},
    {"carc_game_sheep_bag", q_game_sheep_bag, sizeof(carc_sheep_bag)},
    {"carc_game_hidden_tiles", q_game_hidden_tiles, sizeof(uint32_t)},
    {"carc_game_is_second_turn", q_game_is_second_turn, sizeof(uint8_t)},
    {"carc_game_figure_count", q_game_figure_count, sizeof(size_t)},
    {"carc_game_figure_info", q_game_figure_info, sizeof(carc_figure_info)},
    {"carc_game_in_hand", q_game_in_hand, sizeof(uint8_t)},
    {"carc_game_token_kind_count", q_game_token_kind_count, sizeof(size_t)},
    {"carc_game_token_info", q_game_token_info, sizeof(carc_token_info)},
    {"carc_game_title_count", q_game_title_count, sizeof(size_t)},
    {"carc_game_title_info", q_game_title_info, sizeof(carc_title_info)},
    {"carc_game_rule_count", q_game_rule_count, sizeof(size_t)},
    {"carc_game_rule_info", q_game_rule_info, sizeof(carc_rule_info)},
    {"carc_game_mark_count", q_game_mark_count, sizeof(size_t)},
    {"carc_game_mark_info", q_game_mark_info, sizeof(carc_mark_info)},
    {"carc_game_tile_at", q_game_tile_at, sizeof(carc_placement)},
    {"carc_game_segment", q_game_segment, sizeof(carc_segment_state)},
    {"carc_game_feature", q_game_feature, sizeof(carc_feature_info)},
    {"carc_game_legal_action_count", q_game_legal_action_count, sizeof(size_t)},
    {"carc_game_legal_action", q_game_legal_action, sizeof(carc_action)},
};

enum { GAME_QUERY_COUNT = sizeof GAME_QUERIES / sizeof GAME_QUERIES[0] };

static const struct query *game_query(const char *name)
{
    for (size_t i = 0; i < GAME_QUERY_COUNT; i++) {
        if (strcmp(GAME_QUERIES[i].name, name) == 0) {
            return &GAME_QUERIES[i];
        }
    }
    fprintf(stderr, "no query %s\n", name);
    abort();
}

static const struct list GAME_LISTS[] = {
    {"carc_game_remaining_copies", l_game_remaining, sizeof(uint16_t), 0},
    {"carc_game_scores", l_game_scores, sizeof(uint32_t), 0},
    {"carc_game_tokens_held", l_game_tokens_held, sizeof(uint32_t), 0},
    {"carc_game_challenges", l_game_challenges, sizeof(carc_challenge), 0},
    {"carc_game_flocks", l_game_flocks, sizeof(carc_flock), 0},
    {"carc_game_legal_actions", l_game_legal_actions, sizeof(carc_action), 0},
    {"carc_game_last_events", l_game_last_events, sizeof(carc_event), 0},
    {"carc_game_actions", l_game_actions, sizeof(carc_action), 0},
    {"carc_game_placements", l_game_placements, sizeof(carc_placement), 0},
    {"carc_game_feature_segments", l_game_feature_segments, sizeof(carc_segment_ref), 0},
    {"carc_game_feature_marks", l_game_feature_marks, sizeof(uint32_t), 0},
    {"carc_game_figures", l_game_figures, sizeof(carc_placed_figure), 0},
    {"carc_game_frontier", l_game_frontier, sizeof(carc_pos), 0},
    {"carc_game_setup_json", l_game_setup_json, 1, 1},
    {"carc_game_save_json", l_game_save_json, 1, 1},
};

enum { GAME_LIST_COUNT = sizeof GAME_LISTS / sizeof GAME_LISTS[0] };

static void test_game_queries(struct zoo *zoo)
{
    section("game queries on a new game");
    struct args a;
    memset(&a, 0, sizeof a);
    a.id = "D";
    a.tile = 3;
    for (size_t i = 0; i < GAME_QUERY_COUNT; i++) {
        const struct query *q = &GAME_QUERIES[i];
        /* Before the first draw no tile waits to be placed and none was placed this turn. */
        int phase_bound = strcmp(q->name, "carc_game_drawn_tile") == 0 ||
                          strcmp(q->name, "carc_game_placed_pos") == 0;
        /* The base game declares no token kind or title: number 0 is past the end. */
        int no_tokens = strcmp(q->name, "carc_game_token_info") == 0 ||
                        strcmp(q->name, "carc_game_title_info") == 0;
        CHECK_QUERY(q, zoo, KIND_GAME, zoo->game, &a,
                    phase_bound ? CARC_RESULT_NOT_AVAILABLE
                    : no_tokens ? CARC_RESULT_OUT_OF_RANGE
                                : CARC_RESULT_OK);
    }

    section("game queries with arguments out of range");
    size_t types = 0;
    uint8_t players = 0;
    CHECK_CODE(carc_game_tile_type_count(zoo->game, &types), CARC_RESULT_OK);
    CHECK_CODE(carc_game_players(zoo->game, &players), CARC_RESULT_OK);
    const struct query *tile_info = game_query("carc_game_tile_info");
    const struct query *tile_segment = game_query("carc_game_tile_segment");
    const struct query *drawable = game_query("carc_game_drawable");
    const struct query *tile_by_id = game_query("carc_game_tile_by_id");
    const struct query *supply = game_query("carc_game_supply");
    const struct query *tile_at = game_query("carc_game_tile_at");
    const struct query *segment = game_query("carc_game_segment");
    const struct query *feature = game_query("carc_game_feature");
    a.tile = (uint16_t)types;
    CHECK_QUERY_FAILS(tile_info, zoo->game, &a, CARC_RESULT_OUT_OF_RANGE, "tile = types");
    CHECK_QUERY_FAILS(tile_segment, zoo->game, &a, CARC_RESULT_OUT_OF_RANGE, "tile = types");
    CHECK_QUERY_FAILS(drawable, zoo->game, &a, CARC_RESULT_OUT_OF_RANGE, "tile = types");
    a.tile = UINT16_MAX;
    CHECK_QUERY_FAILS(tile_info, zoo->game, &a, CARC_RESULT_OUT_OF_RANGE, "tile = 65535");
    CHECK_QUERY_FAILS(drawable, zoo->game, &a, CARC_RESULT_OUT_OF_RANGE, "tile = 65535");
    a.tile = 3;
    a.segment = 4;
    CHECK_QUERY_FAILS(tile_segment, zoo->game, &a, CARC_RESULT_OUT_OF_RANGE, "D, segment 4");
    a.segment = UINT8_MAX;
    CHECK_QUERY_FAILS(tile_segment, zoo->game, &a, CARC_RESULT_OUT_OF_RANGE, "D, segment 255");
    a.id = "nope";
    CHECK_QUERY_FAILS(tile_by_id, zoo->game, &a, CARC_RESULT_NOT_AVAILABLE, "id = nope");
    a.id = BAD_UTF8;
    CHECK_QUERY_FAILS(tile_by_id, zoo->game, &a, CARC_RESULT_INVALID_UTF8, "bad UTF-8 id");
    a.id = NULL;
    CHECK_QUERY_FAILS(tile_by_id, zoo->game, &a, CARC_RESULT_NULL_ARGUMENT, "id = NULL");
    a.player = players;
    CHECK_QUERY_FAILS(supply, zoo->game, &a, CARC_RESULT_OUT_OF_RANGE, "player = players");
    a.player = CARC_MAX_PLAYERS;
    CHECK_QUERY_FAILS(supply, zoo->game, &a, CARC_RESULT_OUT_OF_RANGE, "player = 8");
    a.player = UINT8_MAX;
    CHECK_QUERY_FAILS(supply, zoo->game, &a, CARC_RESULT_OUT_OF_RANGE, "player = 255");
    const struct query *special_supply = game_query("carc_game_special_supply");
    a.player = players;
    CHECK_QUERY_FAILS(special_supply, zoo->game, &a, CARC_RESULT_OUT_OF_RANGE, "player = players");
    a.player = UINT8_MAX;
    CHECK_QUERY_FAILS(special_supply, zoo->game, &a, CARC_RESULT_OUT_OF_RANGE, "player = 255");
    for (uint8_t player = players; player != 0; player = player == UINT8_MAX ? 0 : UINT8_MAX) {
        size_t held;
        FILL(held);
        CHECK_CODE(carc_game_tokens_held(zoo->game, player, NULL, 0, &held),
                   CARC_RESULT_OUT_OF_RANGE);
        CHECK_UNTOUCHED(held);
    }
    const struct query *token_info = game_query("carc_game_token_info");
    a.index = UINT8_MAX;
    CHECK_QUERY_FAILS(token_info, zoo->game, &a, CARC_RESULT_OUT_OF_RANGE, "token kind 255");
    CHECK_QUERY_FAILS(game_query("carc_game_title_info"), zoo->game, &a, CARC_RESULT_OUT_OF_RANGE,
                      "title 255");
    CHECK_QUERY_FAILS(game_query("carc_game_rule_info"), zoo->game, &a, CARC_RESULT_OUT_OF_RANGE,
                      "rule 255");
    CHECK_QUERY_FAILS(game_query("carc_game_mark_info"), zoo->game, &a, CARC_RESULT_OUT_OF_RANGE,
                      "mark 255");
    CHECK_QUERY_FAILS(game_query("carc_game_figure_info"), zoo->game, &a,
                      CARC_RESULT_OUT_OF_RANGE, "figure 255");
    const struct query *in_hand = game_query("carc_game_in_hand");
    a.player = players;
    CHECK_QUERY_FAILS(in_hand, zoo->game, &a, CARC_RESULT_OUT_OF_RANGE, "player = players");
    a.player = 0;
    /* Past the published figures, and the first declared one of a game that has none. */
    a.tile = CARC_FIGURE_SHEPHERD + 1;
    CHECK_QUERY_FAILS(in_hand, zoo->game, &a, CARC_RESULT_INVALID_ENUM, "figure 6");
    a.tile = CARC_FIGURE_DECLARED;
    CHECK_QUERY_FAILS(in_hand, zoo->game, &a, CARC_RESULT_INVALID_ENUM, "CARC_FIGURE_DECLARED");
    a.tile = 3;
    /* A new game has one legal action, the draw. */
    const struct query *legal_action = game_query("carc_game_legal_action");
    a.index = 1;
    CHECK_QUERY_FAILS(legal_action, zoo->game, &a, CARC_RESULT_OUT_OF_RANGE, "index = 1");
    a.index = SIZE_MAX;
    CHECK_QUERY_FAILS(legal_action, zoo->game, &a, CARC_RESULT_OUT_OF_RANGE, "index = SIZE_MAX");

    /* The start tile D at (0, 0) has 4 segments; every other cell is empty. */
    const carc_pos empty[] = {pos(1, 0), pos(0, -1), pos(1023, 1023), pos(INT16_MAX, INT16_MAX),
                              pos(INT16_MIN, INT16_MIN), pos(INT16_MIN, 0), pos(0, INT16_MAX)};
    a.segment = 0;
    for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "empty cell (%d, %d)", empty[i].x, empty[i].y);
        a.pos = empty[i];
        CHECK_QUERY_FAILS(tile_at, zoo->game, &a, CARC_RESULT_NOT_AVAILABLE, what);
        CHECK_QUERY_FAILS(segment, zoo->game, &a, CARC_RESULT_NOT_AVAILABLE, what);
        CHECK_QUERY_FAILS(feature, zoo->game, &a, CARC_RESULT_NOT_AVAILABLE, what);
        size_t count;
        FILL(count);
        CHECK_CODE(carc_game_feature_segments(zoo->game, a.pos, 0, NULL, 0, &count),
                   CARC_RESULT_NOT_AVAILABLE);
        CHECK_UNTOUCHED(count);
        CHECK_CODE(carc_game_feature_marks(zoo->game, a.pos, 0, NULL, 0, &count),
                   CARC_RESULT_NOT_AVAILABLE);
        CHECK_UNTOUCHED(count);
    }
    a.pos = pos(0, 0);
    a.segment = 4;
    CHECK_QUERY_FAILS(segment, zoo->game, &a, CARC_RESULT_OUT_OF_RANGE, "(0, 0), segment 4");
    CHECK_QUERY_FAILS(feature, zoo->game, &a, CARC_RESULT_OUT_OF_RANGE, "(0, 0), segment 4");
    a.segment = UINT8_MAX;
    CHECK_QUERY_FAILS(segment, zoo->game, &a, CARC_RESULT_OUT_OF_RANGE, "(0, 0), segment 255");
    CHECK_QUERY_FAILS(feature, zoo->game, &a, CARC_RESULT_OUT_OF_RANGE, "(0, 0), segment 255");
    size_t count;
    FILL(count);
    CHECK_CODE(carc_game_feature_segments(zoo->game, pos(0, 0), 4, NULL, 0, &count),
               CARC_RESULT_OUT_OF_RANGE);
    CHECK_UNTOUCHED(count);
    CHECK_CODE(carc_game_feature_marks(zoo->game, pos(0, 0), 4, NULL, 0, &count),
               CARC_RESULT_OUT_OF_RANGE);
    CHECK_UNTOUCHED(count);

    section("game lists on a new game");
    memset(&a, 0, sizeof a);
    for (size_t i = 0; i < GAME_LIST_COUNT; i++) {
        CHECK_LIST(&GAME_LISTS[i], zoo, KIND_GAME, zoo->game, &a);
    }
}

/* The lists again in every phase of a turn, where they hold more. */
static void test_game_lists_in_play(struct zoo *zoo)
{
    section("game lists during a turn");
    carc_game *game = game_from_json("{\"tilesets\": [\"base\"], \"players\": 2, \"seed\": 7}");
    struct args a;
    memset(&a, 0, sizeof a);
    uint16_t c = tile_id(game, "C");
    APPLY(game, draw_tile(c));
    for (size_t i = 0; i < GAME_LIST_COUNT; i++) {
        CHECK_LIST(&GAME_LISTS[i], zoo, KIND_GAME, game, &a);
    }
    APPLY(game, place(0, 1, 0));
    APPLY(game, deploy(0, CARC_FIGURE_FOLLOWER));
    a.pos = pos(0, 1);
    for (size_t i = 0; i < GAME_LIST_COUNT; i++) {
        CHECK_LIST(&GAME_LISTS[i], zoo, KIND_GAME, game, &a);
    }
    carc_game_free(game);
}

static void test_clone_and_restart(struct zoo *zoo)
{
    section("carc_game_clone and carc_game_restarted");
    struct bad bad[MAX_BAD];
    size_t bads = bad_handles(zoo, KIND_GAME, bad);
    for (size_t i = 0; i < bads; i++) {
        carc_game *copy;
        char text[256];
        FILL(copy);
        snprintf(text, sizeof text, "carc_game_clone(%s, &copy)", bad[i].label);
        check_code_at(carc_game_clone(bad[i].handle, &copy), bad[i].expected, __FILE__, __LINE__,
                      text);
        CHECK_UNTOUCHED(copy);
        snprintf(text, sizeof text, "carc_game_restarted(%s, 1, &copy)", bad[i].label);
        check_code_at(carc_game_restarted(bad[i].handle, 1, &copy), bad[i].expected, __FILE__,
                      __LINE__, text);
        CHECK_UNTOUCHED(copy);
    }
    CHECK_CODE(carc_game_clone(zoo->game, NULL), CARC_RESULT_NULL_ARGUMENT);
    CHECK_CODE(carc_game_restarted(zoo->game, 1, NULL), CARC_RESULT_NULL_ARGUMENT);
    carc_game *copy;
    if (CHECK_CODE(carc_game_clone(zoo->game, &copy), CARC_RESULT_OK)) {
        CHECK(copy != zoo->game);
        carc_game_free(copy);
    }
    if (CHECK_CODE(carc_game_restarted(zoo->game, UINT64_MAX, &copy), CARC_RESULT_OK)) {
        uint64_t seed = 0;
        CHECK_CODE(carc_game_seed(copy, &seed), CARC_RESULT_OK);
        CHECK(seed == UINT64_MAX);
        carc_game_free(copy);
    }
    /* The original lives on after its copies are freed. */
    carc_phase phase;
    CHECK_CODE(carc_game_phase(zoo->game, &phase), CARC_RESULT_OK);
}

static void test_game_catalogs(struct zoo *zoo)
{
    section("carc_game_catalog");
    struct bad bad[MAX_BAD];
    size_t bads = bad_handles(zoo, KIND_GAME, bad);
    for (size_t i = 0; i < bads; i++) {
        carc_catalog *set;
        char text[256];
        FILL(set);
        snprintf(text, sizeof text, "carc_game_catalog(%s, 0, &set)", bad[i].label);
        check_code_at(carc_game_catalog(bad[i].handle, 0, &set), bad[i].expected, __FILE__,
                      __LINE__, text);
        CHECK_UNTOUCHED(set);
    }
    CHECK_CODE(carc_game_catalog(zoo->game, 0, NULL), CARC_RESULT_NULL_ARGUMENT);
    size_t sets = 0;
    CHECK_CODE(carc_game_catalog_count(zoo->game, &sets), CARC_RESULT_OK);
    carc_catalog *set;
    FILL(set);
    CHECK_CODE(carc_game_catalog(zoo->game, sets, &set), CARC_RESULT_OUT_OF_RANGE);
    CHECK_UNTOUCHED(set);
    CHECK_CODE(carc_game_catalog(zoo->game, SIZE_MAX, &set), CARC_RESULT_OUT_OF_RANGE);
    CHECK_UNTOUCHED(set);
    /* Each set comes back as a catalog of its own, its tile types numbered from 0. */
    size_t first = 0;
    for (size_t index = 0; index < sets; index++) {
        if (!CHECK_CODE(carc_game_catalog(zoo->game, index, &set), CARC_RESULT_OK)) {
            continue;
        }
        carc_tileset_info info;
        carc_tile_info in_set, in_game;
        CHECK_CODE(carc_catalog_info(set, &info), CARC_RESULT_OK);
        CHECK_CODE(carc_catalog_tile_info(set, 0, &in_set), CARC_RESULT_OK);
        CHECK_CODE(carc_game_tile_info(zoo->game, (uint16_t)first, &in_game), CARC_RESULT_OK);
        CHECK(strcmp(in_set.id, in_game.id) == 0);
        first += info.tile_types;
        carc_catalog_free(set);
    }
    size_t types = 0;
    CHECK_CODE(carc_game_tile_type_count(zoo->game, &types), CARC_RESULT_OK);
    CHECK(first == types);
}

/* ----- Actions: malformed, and refused by the rules ----- */

static void test_malformed_actions(struct zoo *zoo)
{
    section("malformed actions and bad game handles");
    carc_game *game = game_from_json("{\"tilesets\": [\"base\"], \"players\": 2}");
    carc_action draw = action(CARC_ACTION_KIND_DRAW);
    carc_error *err;
    CHECK_FAILS(carc_game_check(game, NULL, &err), CARC_RESULT_NULL_ARGUMENT, err);
    CHECK_FAILS(carc_game_apply(game, NULL, &err), CARC_RESULT_NULL_ARGUMENT, err);
    CHECK_CODE(carc_game_apply(game, NULL, NULL), CARC_RESULT_NULL_ARGUMENT);

    struct bad bad[MAX_BAD];
    size_t bads = bad_handles(zoo, KIND_GAME, bad);
    for (size_t i = 0; i < bads; i++) {
        char text[256];
        snprintf(text, sizeof text, "carc_game_check(%s, &draw, &err)", bad[i].label);
        FILL(err);
        expect_error_at(carc_game_check(bad[i].handle, &draw, &err), bad[i].expected, &err,
                        __FILE__, __LINE__, text);
        snprintf(text, sizeof text, "carc_game_apply(%s, &draw, &err)", bad[i].label);
        FILL(err);
        expect_error_at(carc_game_apply(bad[i].handle, &draw, &err), bad[i].expected, &err,
                        __FILE__, __LINE__, text);
        snprintf(text, sizeof text, "carc_game_apply(%s, &draw, NULL)", bad[i].label);
        check_code_at(carc_game_apply(bad[i].handle, &draw, NULL), bad[i].expected, __FILE__,
                      __LINE__, text);
    }
    /* The live handles passed as games are still what they were. */
    carc_tileset_info info;
    CHECK_CODE(carc_catalog_info(zoo->catalog, &info), CARC_RESULT_OK);
    CHECK_CODE(carc_error_code(zoo->error), CARC_RESULT_UNKNOWN_BUILTIN);

    REFUSE(game, action(10), CARC_RESULT_INVALID_ENUM);
    REFUSE(game, action(99), CARC_RESULT_INVALID_ENUM);
    REFUSE(game, action(UINT32_MAX), CARC_RESULT_INVALID_ENUM);
    REFUSE(game, deploy(0, 6), CARC_RESULT_INVALID_ENUM);
    REFUSE(game, deploy(0, 7), CARC_RESULT_INVALID_ENUM);
    REFUSE(game, place(1, 0, 45), CARC_RESULT_INVALID_ARGUMENT);
    REFUSE(game, place(1, 0, 360), CARC_RESULT_INVALID_ARGUMENT);
    REFUSE(game, place(1, 0, UINT16_MAX), CARC_RESULT_INVALID_ARGUMENT);

    /* Fields the kind does not use are ignored, however wild. */
    carc_action wild = draw;
    wild.figure = 99;
    wild.rotation = 45;
    wild.segment = 255;
    wild.tile = UINT16_MAX;
    wild.pos = pos(INT16_MIN, INT16_MIN);
    CHECK_CODE(carc_game_check(game, &wild, NULL), CARC_RESULT_OK);
    carc_game_free(game);
}

static void test_base_refusals(void)
{
    section("refused actions in the base game");
    carc_game *game = game_from_json("{\"tilesets\": [\"base\"], \"players\": 2}");
    size_t types = 0;
    carc_game_tile_type_count(game, &types);
    uint16_t c = tile_id(game, "C");
    uint16_t e = tile_id(game, "E");
    uint16_t out16;
    carc_pos outpos;

    /* The draw phase. */
    REFUSE(game, place(1, 0, 0), CARC_RESULT_WRONG_PHASE);
    REFUSE(game, deploy(0, CARC_FIGURE_FOLLOWER), CARC_RESULT_WRONG_PHASE);
    REFUSE(game, recall(0, 0), CARC_RESULT_WRONG_PHASE);
    REFUSE(game, action(CARC_ACTION_KIND_SKIP), CARC_RESULT_WRONG_PHASE);
    REFUSE(game, draw_tile(types), CARC_RESULT_UNKNOWN_TILE);
    REFUSE(game, draw_tile(UINT16_MAX), CARC_RESULT_UNKNOWN_TILE);
    APPLY(game, draw_tile(c));

    /* The place phase: C, a city on four sides. */
    FILL(outpos);
    CHECK_CODE(carc_game_placed_pos(game, &outpos), CARC_RESULT_NOT_AVAILABLE);
    CHECK_UNTOUCHED(outpos);
    CHECK_CODE(carc_game_drawn_tile(game, &out16), CARC_RESULT_OK);
    CHECK(out16 == c);
    REFUSE(game, action(CARC_ACTION_KIND_DRAW), CARC_RESULT_WRONG_PHASE);
    REFUSE(game, draw_tile(e), CARC_RESULT_WRONG_PHASE);
    REFUSE(game, action(CARC_ACTION_KIND_SKIP), CARC_RESULT_WRONG_PHASE);
    REFUSE(game, deploy(0, CARC_FIGURE_FOLLOWER), CARC_RESULT_WRONG_PHASE);
    REFUSE(game, place(0, 0, 0), CARC_RESULT_CELL_OCCUPIED);
    REFUSE(game, place(5, 5, 0), CARC_RESULT_NO_NEIGHBOUR);
    REFUSE(game, place(1, 1, 0), CARC_RESULT_NO_NEIGHBOUR);
    REFUSE(game, place(0, -1, 0), CARC_RESULT_EDGE_MISMATCH);
    REFUSE(game, place(1, 0, 90), CARC_RESULT_EDGE_MISMATCH);
    REFUSE(game, place(1024, 0, 0), CARC_RESULT_OUT_OF_BOUNDS);
    REFUSE(game, place(0, -1024, 0), CARC_RESULT_OUT_OF_BOUNDS);
    REFUSE(game, place(-1024, 0, 0), CARC_RESULT_OUT_OF_BOUNDS);
    REFUSE(game, place(INT16_MAX, INT16_MAX, 0), CARC_RESULT_OUT_OF_BOUNDS);
    REFUSE(game, place(0, 1, 45), CARC_RESULT_INVALID_ARGUMENT);

    /* The most negative coordinates, whose absolute value does not fit an int16_t; each on a
     * copy, and freed twice. */
    const carc_action most_negative[2] = {place(INT16_MIN, 0, 0), place(0, INT16_MIN, 0)};
    const char *most_negative_text[2] = {"place(INT16_MIN, 0, 0)", "place(0, INT16_MIN, 0)"};
    for (size_t i = 0; i < 2; i++) {
        carc_game *probe = NULL;
        if (!CHECK_CODE(carc_game_clone(game, &probe), CARC_RESULT_OK)) {
            continue;
        }
        expect_refused_at(probe, most_negative[i], CARC_RESULT_OUT_OF_BOUNDS, __FILE__, __LINE__,
                          most_negative_text[i]);
        carc_game_free(probe);
        carc_game_free(probe);
    }

    CHECK_CODE(carc_game_check(game, &(carc_action){.kind = CARC_ACTION_KIND_PLACE,
                                                     .pos = {0, 1}},
                               NULL),
               CARC_RESULT_OK);
    APPLY(game, place(0, 1, 0));

    /* The figure phase, on C at (0, 1): one city segment. */
    CHECK_CODE(carc_game_placed_pos(game, &outpos), CARC_RESULT_OK);
    CHECK(outpos.x == 0 && outpos.y == 1);
    FILL(out16);
    CHECK_CODE(carc_game_drawn_tile(game, &out16), CARC_RESULT_NOT_AVAILABLE);
    CHECK_UNTOUCHED(out16);
    REFUSE(game, deploy(1, CARC_FIGURE_FOLLOWER), CARC_RESULT_NO_SUCH_SEGMENT);
    REFUSE(game, deploy(255, CARC_FIGURE_FOLLOWER), CARC_RESULT_NO_SUCH_SEGMENT);
    /* Without the abbots option the game has no abbot: none left, whatever the segment. */
    REFUSE(game, deploy(0, CARC_FIGURE_ABBOT), CARC_RESULT_NONE_LEFT);
    REFUSE(game, deploy(0, CARC_FIGURE_BIG_FOLLOWER), CARC_RESULT_NONE_LEFT);
    REFUSE(game, recall(0, 1), CARC_RESULT_NO_ABBOT_THERE);
    REFUSE(game, recall(INT16_MIN, INT16_MIN), CARC_RESULT_NO_ABBOT_THERE);
    REFUSE(game, action(CARC_ACTION_KIND_DRAW), CARC_RESULT_WRONG_PHASE);
    REFUSE(game, place(1, 1, 0), CARC_RESULT_WRONG_PHASE);
    APPLY(game, deploy(0, CARC_FIGURE_FOLLOWER));

    /* Player 1: C is gone; E joins the city player 0 holds. */
    REFUSE(game, draw_tile(c), CARC_RESULT_TILE_NOT_IN_BAG);
    uint8_t drawable = 1;
    CHECK_CODE(carc_game_drawable(game, c, &drawable), CARC_RESULT_OK);
    CHECK(drawable == 0);
    APPLY(game, draw_tile(e));
    APPLY(game, place(1, 1, 270));
    REFUSE(game, deploy(0, CARC_FIGURE_FOLLOWER), CARC_RESULT_FEATURE_OCCUPIED);
    CHECK_CODE(carc_game_check(game, &(carc_action){.kind = CARC_ACTION_KIND_DEPLOY,
                                                     .segment = 1},
                               NULL),
               CARC_RESULT_OK);
    APPLY(game, action(CARC_ACTION_KIND_SKIP));
    carc_game_free(game);
}

static void test_field_refusals(void)
{
    section("refused actions with abbots, in a set of fields");
    carc_catalog *fields = from_toml(FIELDS_TOML);
    const carc_catalog *list[1] = {fields};
    carc_game *game = game_of(list, 1, 2, 1);
    carc_catalog_free(fields);
    uint16_t f = tile_id(game, "F");
    uint16_t m = tile_id(game, "M");

    /* Player 0: a monastery east of the start, with the abbot on it. */
    APPLY(game, draw_tile(m));
    APPLY(game, place(1, 0, 0));
    REFUSE(game, deploy(1, CARC_FIGURE_ABBOT), CARC_RESULT_FIGURE_NOT_ALLOWED);
    REFUSE(game, recall(1, 0), CARC_RESULT_NO_ABBOT_THERE);
    APPLY(game, deploy(0, CARC_FIGURE_ABBOT));
    /* Player 1: a farmer on the one big field. */
    APPLY(game, draw_tile(f));
    APPLY(game, place(-1, 0, 0));
    APPLY(game, deploy(0, CARC_FIGURE_FOLLOWER));
    /* Player 0. */
    APPLY(game, draw_tile(f));
    APPLY(game, place(2, 0, 0));
    REFUSE(game, deploy(0, CARC_FIGURE_FOLLOWER), CARC_RESULT_FEATURE_OCCUPIED);
    REFUSE(game, deploy(0, CARC_FIGURE_ABBOT), CARC_RESULT_FIGURE_NOT_ALLOWED);
    REFUSE(game, deploy(0, CARC_FIGURE_BIG_FOLLOWER), CARC_RESULT_NONE_LEFT);
    REFUSE(game, recall(0, 0), CARC_RESULT_NO_ABBOT_THERE);
    CHECK_CODE(carc_game_check(game, &(carc_action){.kind = CARC_ACTION_KIND_RECALL_ABBOT,
                                                     .pos = {1, 0}},
                               NULL),
               CARC_RESULT_OK);
    APPLY(game, action(CARC_ACTION_KIND_SKIP));
    /* Player 1, whose one follower is out. */
    APPLY(game, draw_tile(f));
    APPLY(game, place(0, 1, 0));
    REFUSE(game, deploy(0, CARC_FIGURE_FOLLOWER), CARC_RESULT_NONE_LEFT);
    REFUSE(game, recall(1, 0), CARC_RESULT_NO_ABBOT_THERE);
    APPLY(game, action(CARC_ACTION_KIND_SKIP));
    /* Fill the eight cells around the monastery; player 0 lays the last. */
    const int cells[5][2] = {{1, 1}, {2, 1}, {0, -1}, {1, -1}, {2, -1}};
    for (size_t i = 0; i < 5; i++) {
        APPLY(game, draw_tile(f));
        APPLY(game, place(cells[i][0], cells[i][1], 0));
        if (i < 4) {
            APPLY(game, action(CARC_ACTION_KIND_SKIP));
        }
    }
    uint8_t player = 9;
    CHECK_CODE(carc_game_current_player(game, &player), CARC_RESULT_OK);
    CHECK(player == 0);
    REFUSE(game, recall(1, 0), CARC_RESULT_ABBOT_FEATURE_COMPLETE);
    APPLY(game, action(CARC_ACTION_KIND_SKIP));

    /* Play to the end. */
    for (int turn = 0; turn < 20 && play_any_turn(game); turn++) {
    }
    uint8_t over = 0;
    CHECK_CODE(carc_game_is_over(game, &over), CARC_RESULT_OK);
    CHECK(over == 1);
    carc_phase phase = 0;
    CHECK_CODE(carc_game_phase(game, &phase), CARC_RESULT_OK);
    CHECK(phase == CARC_PHASE_GAME_OVER);
    REFUSE(game, action(CARC_ACTION_KIND_DRAW), CARC_RESULT_GAME_OVER);
    REFUSE(game, draw_tile(f), CARC_RESULT_GAME_OVER);
    REFUSE(game, place(5, 0, 0), CARC_RESULT_GAME_OVER);
    REFUSE(game, deploy(0, CARC_FIGURE_FOLLOWER), CARC_RESULT_GAME_OVER);
    REFUSE(game, recall(1, 0), CARC_RESULT_GAME_OVER);
    REFUSE(game, action(CARC_ACTION_KIND_SKIP), CARC_RESULT_GAME_OVER);
    /* A malformed action is malformed in any phase. */
    REFUSE(game, action(99), CARC_RESULT_INVALID_ENUM);
    uint16_t out16;
    carc_pos outpos;
    FILL(out16);
    FILL(outpos);
    CHECK_CODE(carc_game_drawn_tile(game, &out16), CARC_RESULT_NOT_AVAILABLE);
    CHECK_CODE(carc_game_placed_pos(game, &outpos), CARC_RESULT_NOT_AVAILABLE);
    CHECK_UNTOUCHED(out16);
    CHECK_UNTOUCHED(outpos);
    size_t count = 99;
    CHECK_CODE(carc_game_legal_actions(game, NULL, 0, &count), CARC_RESULT_OK);
    CHECK_SIZE(count, 0);
    count = 99;
    CHECK_CODE(carc_game_legal_action_count(game, &count), CARC_RESULT_OK);
    CHECK_SIZE(count, 0);
    carc_action one;
    FILL(one);
    CHECK_CODE(carc_game_legal_action(game, 0, &one), CARC_RESULT_OUT_OF_RANGE);
    CHECK_UNTOUCHED(one);
    REFUSE_LEGAL(game, 0, CARC_RESULT_GAME_OVER);
    REFUSE_LEGAL(game, SIZE_MAX, CARC_RESULT_GAME_OVER);
    carc_game_free(game);
}

static void test_river_refusals(void)
{
    section("refused actions on the River");
    carc_game *game = game_from_json("{\"tilesets\": [\"river\", \"base\"], \"players\": 2}");
    uint16_t d = tile_id(game, "D");
    uint16_t spring = tile_id(game, "river_spring");
    uint16_t lake = tile_id(game, "river_lake");
    uint16_t straight = tile_id(game, "river_straight");
    uint16_t curve = tile_id(game, "river_curve");
    uint8_t drawable = 9;

    REFUSE(game, draw_tile(d), CARC_RESULT_TILE_OF_LATER_STAGE);
    REFUSE(game, draw_tile(lake), CARC_RESULT_TILE_COMES_LAST);
    REFUSE(game, draw_tile(spring), CARC_RESULT_TILE_NOT_IN_BAG);
    CHECK_CODE(carc_game_drawable(game, lake, &drawable), CARC_RESULT_OK);
    CHECK(drawable == 0);
    CHECK_CODE(carc_game_drawable(game, straight, &drawable), CARC_RESULT_OK);
    CHECK(drawable == 1);

    /* The spring lies at (0, 0) with its river flowing east. */
    APPLY(game, draw_tile(straight));
    REFUSE(game, place(0, 1, 0), CARC_RESULT_RIVER_NOT_CONTINUED);
    APPLY(game, place(1, 0, 0));
    APPLY(game, action(CARC_ACTION_KIND_SKIP));
    /* A bend to the right, then another right bend is refused. */
    APPLY(game, draw_tile(curve));
    APPLY(game, place(2, 0, 0));
    APPLY(game, action(CARC_ACTION_KIND_SKIP));
    APPLY(game, draw_tile(curve));
    REFUSE(game, place(2, -1, 90), CARC_RESULT_RIVER_TURNS_BACK);
    CHECK_CODE(carc_game_check(game, &(carc_action){.kind = CARC_ACTION_KIND_PLACE,
                                                     .pos = {2, -1},
                                                     .rotation = 180},
                               NULL),
               CARC_RESULT_OK);
    carc_game_free(game);
}

/* ----- Actions by number ----- */

static int same_action(const carc_action *a, const carc_action *b)
{
    return a->kind == b->kind && a->figure == b->figure && a->pos.x == b->pos.x &&
           a->pos.y == b->pos.y && a->tile == b->tile && a->rotation == b->rotation &&
           a->segment == b->segment;
}

static size_t legal_count(const carc_game *game)
{
    size_t count = 0;
    CHECK_CODE(carc_game_legal_action_count(game, &count), CARC_RESULT_OK);
    return count;
}

/* carc_game_legal_action(i) for every i agrees with the list carc_game_legal_actions writes. */
static void check_legal_agree_at(const carc_game *game, const char *file, int line)
{
    size_t count = 0;
    uint32_t got = carc_game_legal_actions(game, NULL, 0, &count);
    check_at(got == CARC_RESULT_OK || got == CARC_RESULT_BUFFER_TOO_SMALL, file, line,
             "the size query of carc_game_legal_actions");
    check_size_at(legal_count(game), count, file, line,
                  "carc_game_legal_action_count is the length of the list");
    carc_action *list = malloc((count + 1) * sizeof *list);
    if (list == NULL || carc_game_legal_actions(game, list, count + 1, &count) != CARC_RESULT_OK) {
        fail_at(file, line, "cannot list the legal actions");
        free(list);
        return;
    }
    int agree = 1;
    for (size_t i = 0; i < count; i++) {
        carc_action one;
        agree = agree && carc_game_legal_action(game, i, &one) == CARC_RESULT_OK &&
                same_action(&one, &list[i]);
    }
    check_at(agree, file, line, "carc_game_legal_action(i) is item i of the list");
    carc_action one;
    FILL(one);
    check_code_at(carc_game_legal_action(game, count, &one), CARC_RESULT_OUT_OF_RANGE, file, line,
                  "carc_game_legal_action(game, count, &one)");
    check_at(untouched(&one, sizeof one), file, line, "*out is untouched after a failure");
    free(list);
}

#define CHECK_LEGAL_AGREE(game) check_legal_agree_at((game), __FILE__, __LINE__)

static void test_apply_legal(struct zoo *zoo)
{
    section("carc_game_apply_legal and the legal actions by number");
    struct bad bad[MAX_BAD];
    size_t bads = bad_handles(zoo, KIND_GAME, bad);
    for (size_t i = 0; i < bads; i++) {
        char text[256];
        size_t count;
        carc_error *err;
        FILL(count);
        FILL(err);
        snprintf(text, sizeof text, "carc_game_apply_legal(%s, 0, &count, &err)", bad[i].label);
        expect_error_at(carc_game_apply_legal(bad[i].handle, 0, &count, &err), bad[i].expected,
                        &err, __FILE__, __LINE__, text);
        CHECK_UNTOUCHED(count);
        snprintf(text, sizeof text, "carc_game_apply_legal(%s, 0, NULL, NULL)", bad[i].label);
        check_code_at(carc_game_apply_legal(bad[i].handle, 0, NULL, NULL), bad[i].expected,
                      __FILE__, __LINE__, text);
    }
    carc_tileset_info info;
    CHECK_CODE(carc_catalog_info(zoo->catalog, &info), CARC_RESULT_OK);

    carc_game *game = game_from_json("{\"tilesets\": [\"base\"], \"players\": 2, \"seed\": 5}");
    CHECK_SIZE(legal_count(game), 1);
    CHECK_LEGAL_AGREE(game);
    REFUSE_LEGAL(game, 1, CARC_RESULT_OUT_OF_RANGE);
    REFUSE_LEGAL(game, SIZE_MAX, CARC_RESULT_OUT_OF_RANGE);
    size_t count;
    carc_error *err;
    FILL(count);
    CHECK_OK_ERR(carc_game_apply_legal(game, 0, &count, &err), err);
    CHECK_SIZE(count, legal_count(game));
    CHECK(count > 1);

    /* Applying number i is applying item i of the list. */
    CHECK_LEGAL_AGREE(game);
    carc_action last;
    carc_game *copy = NULL;
    if (CHECK_CODE(carc_game_legal_action(game, count - 1, &last), CARC_RESULT_OK) &&
        CHECK_CODE(carc_game_clone(game, &copy), CARC_RESULT_OK)) {
        REFUSE_LEGAL(game, count, CARC_RESULT_OUT_OF_RANGE);
        APPLY(copy, last);
        CHECK_CODE(carc_game_apply_legal(game, count - 1, NULL, NULL), CARC_RESULT_OK);
        char *mine = save_text(game);
        char *theirs = save_text(copy);
        CHECK(mine != NULL && theirs != NULL && strcmp(mine, theirs) == 0);
        free(mine);
        free(theirs);
        carc_game_free(copy);
    }

    /* The figure phase. Each game's actions are its own, however the calls interleave: a copy
     * in another state, a game freed and a new one made, a change through carc_game_apply. */
    CHECK_LEGAL_AGREE(game);
    size_t figure_phase = legal_count(game);
    copy = NULL;
    if (CHECK_CODE(carc_game_clone(game, &copy), CARC_RESULT_OK)) {
        CHECK_SIZE(legal_count(copy), figure_phase);
        CHECK_CODE(carc_game_apply_legal(copy, figure_phase - 1, &count, NULL), CARC_RESULT_OK);
        CHECK_SIZE(count, 1);
        CHECK_SIZE(legal_count(game), figure_phase);
        CHECK_LEGAL_AGREE(game);
        CHECK_SIZE(legal_count(copy), 1);
        carc_game_free(copy);
        CHECK_CODE(carc_game_legal_action_count(copy, &count), CARC_RESULT_INVALID_HANDLE);
        CHECK_CODE(carc_game_apply_legal(copy, 0, NULL, NULL), CARC_RESULT_INVALID_HANDLE);
    }
    carc_game *fresh = game_from_json("{\"tilesets\": [\"base\"], \"players\": 3}");
    CHECK_SIZE(legal_count(fresh), 1);
    CHECK_SIZE(legal_count(game), figure_phase);
    carc_game_free(fresh);
    REFUSE(game, action(CARC_ACTION_KIND_DRAW), CARC_RESULT_WRONG_PHASE);
    CHECK_SIZE(legal_count(game), figure_phase);
    APPLY(game, action(CARC_ACTION_KIND_SKIP));
    CHECK_SIZE(legal_count(game), 1);
    CHECK_LEGAL_AGREE(game);
    carc_game_free(game);
}

/* ----- JSON: setups and saved games ----- */

/* `json` must fail with `expected`, leave *out untouched, and put the problem at line:column
 * (0 for either when not checked). */
static void check_json_fails_at(int load, const char *json, uint32_t expected, uint32_t line_no,
                                uint32_t column, const char *file, int line)
{
    carc_game *game;
    carc_error *err;
    char text[256];
    FILL(game);
    FILL(err);
    snprintf(text, sizeof text, "%s(%.150s)", load ? "carc_game_load_json" : "carc_game_new_json",
             json);
    uint32_t got = load ? carc_game_load_json(json, &game, &err)
                        : carc_game_new_json(json, &game, &err);
    check_code_at(got, expected, file, line, text);
    check_at(untouched(&game, sizeof game), file, line, "*out is untouched after a failure");
    if (got == CARC_RESULT_OK) {
        carc_game_free(game);
        return;
    }
    if (!check_at(!untouched(&err, sizeof err) && err != NULL, file, line,
                  "a failure fills *err")) {
        return;
    }
    const char *message = carc_error_message(err);
    check_code_at(carc_error_code(err), got, file, line, "carc_error_code(err)");
    check_at(message != NULL && message[0] != '\0', file, line, "the error has a message");
    if (line_no != 0) {
        checks_run++;
        if (carc_error_line(err) != line_no) {
            fail_at(file, line, "%s: the error is on line %u, not %u (%s)", text,
                    (unsigned)carc_error_line(err), (unsigned)line_no, message);
        }
    }
    if (column != 0) {
        checks_run++;
        if (carc_error_column(err) != column) {
            fail_at(file, line, "%s: the error is at column %u, not %u (%s)", text,
                    (unsigned)carc_error_column(err), (unsigned)column, message);
        }
    }
    carc_error_free(err);
}

#define CHECK_NEW_JSON_FAILS(json, expected, line, column) \
    check_json_fails_at(0, (json), (expected), (line), (column), __FILE__, __LINE__)
#define CHECK_LOAD_JSON_FAILS(json, expected, line, column) \
    check_json_fails_at(1, (json), (expected), (line), (column), __FILE__, __LINE__)

static void test_new_json(void)
{
    section("carc_game_new_json");
    carc_game *game;
    carc_error *err;
    FILL(game);
    CHECK_FAILS(carc_game_new_json(NULL, &game, &err), CARC_RESULT_NULL_ARGUMENT, err);
    CHECK_FAILS(carc_game_new_json("{\"tilesets\": [\"base\"], \"players\": 2}", NULL, &err),
                CARC_RESULT_NULL_ARGUMENT, err);
    CHECK_FAILS(carc_game_new_json("{\"tilesets\": [\"\x80\"], \"players\": 2}", &game, &err),
                CARC_RESULT_INVALID_UTF8, err);
    CHECK_CODE(carc_game_new_json("{", &game, NULL), CARC_RESULT_JSON_SYNTAX);
    CHECK_UNTOUCHED(game);

    CHECK_NEW_JSON_FAILS("", CARC_RESULT_JSON_SYNTAX, 1, 0);
    CHECK_NEW_JSON_FAILS("{", CARC_RESULT_JSON_SYNTAX, 1, 1);
    CHECK_NEW_JSON_FAILS("{\"tilesets\": [\"base\"],\n \"players\": 2,,\n}",
                         CARC_RESULT_JSON_SYNTAX, 2, 15);
    CHECK_NEW_JSON_FAILS("{\"tilesets\": [\"base\"], \"players\": 2} trailing",
                         CARC_RESULT_JSON_SYNTAX, 1, 38);
    CHECK_NEW_JSON_FAILS("[1, 2]", CARC_RESULT_JSON_CONTENT, 1, 0);
    CHECK_NEW_JSON_FAILS("{\"players\": 2}", CARC_RESULT_JSON_CONTENT, 1, 0);
    CHECK_NEW_JSON_FAILS("{\n  \"tilesets\": [\"base\"],\n  \"players\": \"two\"\n}",
                         CARC_RESULT_JSON_CONTENT, 3, 0);
    CHECK_NEW_JSON_FAILS("{\"tilesets\": [\"base\"], \"players\": 256}", CARC_RESULT_JSON_CONTENT,
                         1, 0);
    CHECK_NEW_JSON_FAILS("{\"tilesets\": [\"base\"], \"players\": -1}", CARC_RESULT_JSON_CONTENT,
                         1, 0);
    CHECK_NEW_JSON_FAILS("{\"tilesets\": [\"base\"], \"players\": 2, \"seed\": -1}",
                         CARC_RESULT_JSON_CONTENT, 1, 0);
    CHECK_NEW_JSON_FAILS("{\"tilesets\": [\"base\"], \"players\": 2, \"colour\": 1}",
                         CARC_RESULT_JSON_CONTENT, 1, 0);
    CHECK_NEW_JSON_FAILS("{\"tilesets\": [\"nope\"], \"players\": 2}", CARC_RESULT_JSON_CONTENT,
                         1, 0);
    CHECK_NEW_JSON_FAILS("{\"tilesets\": [{\"toml\": \"[set]\"}], \"players\": 2}",
                         CARC_RESULT_JSON_CONTENT, 1, 0);
    CHECK_NEW_JSON_FAILS(
        "{\"tilesets\": [{\"builtin\": \"base\", \"toml\": \"\"}], \"players\": 2}",
        CARC_RESULT_JSON_CONTENT, 1, 0);
    CHECK_NEW_JSON_FAILS(
        "{\"tilesets\": [\"base\"], \"players\": 2, \"options\": {\"farm_scoring\": \"nope\"}}",
        CARC_RESULT_JSON_CONTENT, 1, 0);
    CHECK_NEW_JSON_FAILS(
        "{\"tilesets\": [\"base\"], \"players\": 2, \"options\": {\"farmer\": false}}",
        CARC_RESULT_JSON_CONTENT, 1, 0);
    /* Deep nesting is refused, not a stack overflow: the typed reader refuses the first
       value of the wrong shape (a list where a tile set goes), three levels in. */
    size_t depth = 100000;
    char *deep = malloc(depth + 1);
    if (deep != NULL) {
        memset(deep, '[', depth);
        deep[depth] = '\0';
        CHECK_NEW_JSON_FAILS(deep, CARC_RESULT_JSON_CONTENT, 1, 0);
        free(deep);
    }

    CHECK_NEW_JSON_FAILS("{\"tilesets\": [], \"players\": 2}", CARC_RESULT_NO_TILE_SET, 0, 0);
    CHECK_NEW_JSON_FAILS("{\"tilesets\": [\"base\"], \"players\": 1}", CARC_RESULT_TOO_FEW_PLAYERS,
                         0, 0);
    CHECK_NEW_JSON_FAILS("{\"tilesets\": [\"base\"], \"players\": 6}",
                         CARC_RESULT_TOO_MANY_PLAYERS, 0, 0);
    CHECK_NEW_JSON_FAILS("{\"tilesets\": [\"base\", \"inns_and_cathedrals\"], \"players\": 7}",
                         CARC_RESULT_TOO_MANY_PLAYERS, 0, 0);
    CHECK_NEW_JSON_FAILS("{\"tilesets\": [\"base\", \"base_c2\"], \"players\": 2}",
                         CARC_RESULT_DUPLICATE_TILE_ID, 0, 0);
    CHECK_NEW_JSON_FAILS("{\"tilesets\": [\"river\"], \"players\": 2}", CARC_RESULT_NO_FOLLOWERS,
                         0, 0);

    FILL(err);
    CHECK_OK_ERR(carc_game_new_json("{\"tilesets\": [\"base\", \"inns_and_cathedrals\"], "
                                    "\"players\": 6, \"seed\": 18446744073709551615}",
                                    &game, &err),
                 err);
    carc_game_free(game);
}

/* Builds a saved game from one made by the library, with `from` replaced by `to`. */
static char *replaced(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    if (at == NULL) {
        fail_at(__FILE__, __LINE__, "`%s` is not in %s", from, text);
        return NULL;
    }
    size_t before = (size_t)(at - text);
    char *out = malloc(strlen(text) - strlen(from) + strlen(to) + 1);
    if (out != NULL) {
        memcpy(out, text, before);
        strcpy(out + before, to);
        strcat(out, at + strlen(from));
    }
    return out;
}

static void test_saves(void)
{
    section("carc_game_load_json");
    carc_game *game = game_from_json("{\"tilesets\": [\"base\"], \"players\": 2, \"seed\": 3}");
    APPLY(game, action(CARC_ACTION_KIND_DRAW));
    char *saved = save_text(game);
    if (!CHECK(saved != NULL && strstr(saved, "\"format\":1") != NULL)) {
        carc_game_free(game);
        free(saved);
        return;
    }

    carc_game *loaded;
    carc_error *err;
    FILL(loaded);
    CHECK_FAILS(carc_game_load_json(NULL, &loaded, &err), CARC_RESULT_NULL_ARGUMENT, err);
    CHECK_FAILS(carc_game_load_json(saved, NULL, &err), CARC_RESULT_NULL_ARGUMENT, err);
    CHECK_FAILS(carc_game_load_json("{\"format\": 1, \"\xff\": 0}", &loaded, &err),
                CARC_RESULT_INVALID_UTF8, err);
    CHECK_CODE(carc_game_load_json("{\"format\": 2}", &loaded, NULL), CARC_RESULT_JSON_CONTENT);
    CHECK_UNTOUCHED(loaded);

    char *format2 = replaced(saved, "\"format\":1", "\"format\":2");
    char *format0 = replaced(saved, "\"format\":1", "\"format\":0");
    char *refused = replaced(saved, "\"actions\":[", "\"actions\":[{\"action\":\"skip\"},");
    char *unknown = replaced(saved, "\"actions\":[", "\"actions\":[{\"action\":\"fly\"},");
    char *one_player = replaced(saved, "\"players\":2", "\"players\":1");
    char *extra = replaced(saved, "\"format\":1", "\"format\":1,\"comment\":\"hi\"");
    char *no_actions = replaced(saved, ",\"actions\":[", ",\"moves\":[");
    if (format2 != NULL && format0 != NULL && refused != NULL && unknown != NULL &&
        one_player != NULL && extra != NULL && no_actions != NULL) {
        CHECK_LOAD_JSON_FAILS(format2, CARC_RESULT_SAVE_FORMAT, 0, 0);
        CHECK_LOAD_JSON_FAILS(format0, CARC_RESULT_SAVE_FORMAT, 0, 0);
        CHECK_LOAD_JSON_FAILS(refused, CARC_RESULT_SAVE_ACTION_REFUSED, 0, 0);
        FILL(err);
        if (CHECK_CODE(carc_game_load_json(refused, &loaded, &err),
                       CARC_RESULT_SAVE_ACTION_REFUSED)) {
            const char *message = carc_error_message(err);
            CHECK(message != NULL && strstr(message, "action 0") != NULL);
            carc_error_free(err);
        }
        CHECK_LOAD_JSON_FAILS(unknown, CARC_RESULT_JSON_CONTENT, 1, 0);
        CHECK_LOAD_JSON_FAILS(one_player, CARC_RESULT_TOO_FEW_PLAYERS, 0, 0);
        CHECK_LOAD_JSON_FAILS(extra, CARC_RESULT_JSON_CONTENT, 1, 0);
        CHECK_LOAD_JSON_FAILS(no_actions, CARC_RESULT_JSON_CONTENT, 1, 0);
    }
    free(format2);
    free(format0);
    free(refused);
    free(unknown);
    free(one_player);
    free(extra);
    free(no_actions);

    CHECK_LOAD_JSON_FAILS("", CARC_RESULT_JSON_SYNTAX, 1, 0);
    CHECK_LOAD_JSON_FAILS("{\"format\": 1,\n\"setup\": nul", CARC_RESULT_JSON_SYNTAX, 2, 0);
    CHECK_LOAD_JSON_FAILS("{\"format\": 1}", CARC_RESULT_JSON_CONTENT, 1, 0);
    CHECK_LOAD_JSON_FAILS("{\"format\": \"1\", \"setup\": {\"tilesets\": [\"base\"], \"players\": "
                          "2}, \"actions\": []}",
                          CARC_RESULT_JSON_CONTENT, 1, 0);
    CHECK_LOAD_JSON_FAILS("{\"format\": 1, \"setup\": {\"tilesets\": [\"base\"], \"players\": 2},"
                          "\n\"actions\": [{\"action\": \"place\", \"pos\": {\"x\": 0, \"y\": 1},"
                          " \"rotation\": 45}]}",
                          CARC_RESULT_JSON_CONTENT, 2, 0);
    CHECK_LOAD_JSON_FAILS("{\"format\": 1, \"setup\": {\"tilesets\": [\"base\", \"base_c2\"], "
                          "\"players\": 2}, \"actions\": []}",
                          CARC_RESULT_DUPLICATE_TILE_ID, 0, 0);
    CHECK_LOAD_JSON_FAILS("{\"format\": 1, \"setup\": {\"tilesets\": [\"nope\"], "
                          "\"players\": 2}, \"actions\": []}",
                          CARC_RESULT_JSON_CONTENT, 1, 0);

    /* What was saved loads back into the same game. */
    FILL(err);
    if (CHECK_CODE(carc_game_load_json(saved, &loaded, &err), CARC_RESULT_OK)) {
        CHECK_UNTOUCHED(err);
        char *again = save_text(loaded);
        CHECK(again != NULL && strcmp(again, saved) == 0);
        free(again);
        size_t count = 99;
        CHECK_CODE(carc_game_last_events(loaded, NULL, 0, &count), CARC_RESULT_OK);
        CHECK_SIZE(count, 0);
        carc_game_free(loaded);
    }
    free(saved);
    carc_game_free(game);
}

/* ----- Landscapes ----- */

/* `text` as a JSON string literal, quotes included. */
static char *json_string(const char *text)
{
    char *out = malloc(2 * strlen(text) + 3);
    if (out == NULL) {
        return NULL;
    }
    char *at = out;
    *at++ = '"';
    for (const char *c = text; *c != '\0'; c++) {
        if (*c == '"' || *c == '\\') {
            *at++ = '\\';
            *at++ = *c;
        } else if (*c == '\n') {
            *at++ = '\\';
            *at++ = 'n';
        } else {
            *at++ = *c;
        }
    }
    *at++ = '"';
    *at = '\0';
    return out;
}

static void check_landscape_fails_at(const char *json, const carc_catalog *const *catalogs,
                                     size_t count, const carc_landscape_options *options,
                                     uint32_t expected, const char *file, int line,
                                     const char *what)
{
    carc_landscape_score *score;
    carc_error *err;
    char text[256];
    FILL(score);
    FILL(err);
    snprintf(text, sizeof text, "carc_landscape_score_new(%.180s)", what);
    for (int with_err = 1; with_err >= 0; with_err--) {
        FILL(score);
        uint32_t got = carc_landscape_score_new(json, catalogs, count, options, &score,
                                                with_err ? &err : NULL);
        if (with_err) {
            expect_error_at(got, expected, &err, file, line, text);
        } else {
            check_code_at(got, expected, file, line, "... again without an error object");
        }
        if (got == CARC_RESULT_OK) {
            check_at(!untouched(&score, sizeof score), file, line, "*out is written on success");
            carc_landscape_score_free(score);
        } else {
            check_at(untouched(&score, sizeof score), file, line,
                     "*out is untouched after a failure");
        }
    }
}

#define CHECK_LANDSCAPE_FAILS(json, catalogs, count, options, expected) \
    check_landscape_fails_at((json), (catalogs), (count), (options), (expected), __FILE__, \
                             __LINE__, (json))

static void test_landscapes(struct zoo *zoo, const struct files *f)
{
    section("carc_landscape_score_new");
    carc_landscape_options options = default_landscape_options();
    carc_landscape_score *score;
    carc_error *err;
    FILL(score);
    CHECK_FAILS(carc_landscape_score_new(NULL, NULL, 0, &options, &score, &err),
                CARC_RESULT_NULL_ARGUMENT, err);
    CHECK_FAILS(carc_landscape_score_new(LANDSCAPE_JSON, NULL, 0, NULL, &score, &err),
                CARC_RESULT_NULL_ARGUMENT, err);
    CHECK_FAILS(carc_landscape_score_new(LANDSCAPE_JSON, NULL, 0, &options, NULL, &err),
                CARC_RESULT_NULL_ARGUMENT, err);
    CHECK_FAILS(carc_landscape_score_new(LANDSCAPE_JSON, NULL, 1, &options, &score, &err),
                CARC_RESULT_NULL_ARGUMENT, err);
    CHECK_FAILS(carc_landscape_score_new("{\"tiles\": [{\"tile\": \"\xc3\"}]}", NULL, 0, &options,
                                         &score, &err),
                CARC_RESULT_INVALID_UTF8, err);
    CHECK_UNTOUCHED(score);

    const char *tiles_only = "{\"tiles\": [{\"tile\": \"E\", \"x\": 0, \"y\": 0}]}";
    const carc_catalog *with_null[2] = {zoo->catalog, NULL};
    CHECK_LANDSCAPE_FAILS(tiles_only, with_null, 2, &options, CARC_RESULT_NULL_ARGUMENT);
    struct bad bad[MAX_BAD];
    size_t bads = bad_handles(zoo, KIND_CATALOG, bad);
    for (size_t i = 1; i < bads; i++) {
        const carc_catalog *list[1] = {bad[i].handle};
        check_landscape_fails_at(tiles_only, list, 1, &options, CARC_RESULT_INVALID_HANDLE,
                                 __FILE__, __LINE__, bad[i].label);
    }
    const carc_catalog *base[1] = {zoo->catalog};
    CHECK_LANDSCAPE_FAILS(LANDSCAPE_JSON, base, 0, &options, CARC_RESULT_OK);

    carc_landscape_options bad_options = options;
    bad_options.rules.farm_scoring = 5;
    CHECK_LANDSCAPE_FAILS(tiles_only, NULL, 0, &bad_options, CARC_RESULT_INVALID_ENUM);
    bad_options = options;
    bad_options.rules.inn_cathedral_unfinished = 7;
    CHECK_LANDSCAPE_FAILS(tiles_only, NULL, 0, &bad_options, CARC_RESULT_INVALID_ENUM);
    bad_options = options;
    bad_options.rules.farmers = 2;
    CHECK_LANDSCAPE_FAILS(tiles_only, NULL, 0, &bad_options, CARC_RESULT_INVALID_ARGUMENT);
    bad_options = options;
    bad_options.claim_all = 2;
    CHECK_LANDSCAPE_FAILS(tiles_only, NULL, 0, &bad_options, CARC_RESULT_INVALID_ARGUMENT);
    bad_options = options;
    bad_options.has_pennant_value = 2;
    CHECK_LANDSCAPE_FAILS(tiles_only, NULL, 0, &bad_options, CARC_RESULT_INVALID_ARGUMENT);

    CHECK_LANDSCAPE_FAILS("{\"tilesets\": [\"base\"], \"tiles\": []}", base, 1, &options,
                          CARC_RESULT_INVALID_ARGUMENT);

    /* JSON syntax and content, with line and column. */
    FILL(err);
    if (CHECK_CODE(carc_landscape_score_new("{\"tiles\": [\n  {\"tile\": \"E\" \"x\": 0}]}", NULL,
                                            0, &options, &score, &err),
                   CARC_RESULT_JSON_SYNTAX)) {
        CHECK(carc_error_line(err) == 2 && carc_error_column(err) == 16);
        carc_error_free(err);
    }
    FILL(err);
    if (CHECK_CODE(carc_landscape_score_new("{\"tiles\": [\n{\"tile\": \"E\", \"x\": 0, \"y\": 0, "
                                            "\"rotation\": 45}]}",
                                            NULL, 0, &options, &score, &err),
                   CARC_RESULT_JSON_CONTENT)) {
        CHECK(carc_error_line(err) == 2 && carc_error_column(err) > 0);
        carc_error_free(err);
    }
    CHECK_LANDSCAPE_FAILS("{}", NULL, 0, &options, CARC_RESULT_JSON_CONTENT);
    CHECK_LANDSCAPE_FAILS("{\"tiles\": [], \"extra\": 1}", NULL, 0, &options,
                          CARC_RESULT_JSON_CONTENT);
    CHECK_LANDSCAPE_FAILS("{\"tiles\": [{\"tile\": \"E\", \"x\": 40000, \"y\": 0}]}", NULL, 0,
                          &options, CARC_RESULT_JSON_CONTENT);
    CHECK_LANDSCAPE_FAILS("{\"tiles\": [{\"tile\": \"E\", \"x\": 0, \"y\": 0}], \"figures\": "
                          "[{\"player\": 300, \"x\": 0, \"y\": 0, \"segment\": 0}]}",
                          NULL, 0, &options, CARC_RESULT_JSON_CONTENT);
    /* Not a figure id at all; then an id no set declares, which no segment takes. */
    CHECK_LANDSCAPE_FAILS("{\"tiles\": [{\"tile\": \"E\", \"x\": 0, \"y\": 0}], \"figures\": "
                          "[{\"player\": 0, \"figure\": \"Wizard!\", \"x\": 0, \"y\": 0, "
                          "\"segment\": 0}]}",
                          NULL, 0, &options, CARC_RESULT_JSON_CONTENT);
    CHECK_LANDSCAPE_FAILS("{\"tiles\": [{\"tile\": \"E\", \"x\": 0, \"y\": 0}], \"figures\": "
                          "[{\"player\": 0, \"figure\": \"wizard\", \"x\": 0, \"y\": 0, "
                          "\"segment\": 0}]}",
                          NULL, 0, &options, CARC_RESULT_LANDSCAPE_FIGURE_NOT_ALLOWED);

    /* Tile sets in the JSON are read as a setup reads them: never from a file, so a path, even
     * to a valid set, is an unknown built-in name. */
    char json[2048];
    snprintf(json, sizeof json, "{\"tilesets\": [\"%s\"], \"tiles\": []}", f->fields);
    CHECK_LANDSCAPE_FAILS(json, NULL, 0, &options, CARC_RESULT_JSON_CONTENT);
    snprintf(json, sizeof json, "{\"tilesets\": [\"%s\"], \"tiles\": []}", f->missing);
    CHECK_LANDSCAPE_FAILS(json, NULL, 0, &options, CARC_RESULT_JSON_CONTENT);
    CHECK_LANDSCAPE_FAILS("{\"tilesets\": [\"tilesets/base.toml\"], \"tiles\": []}", NULL, 0,
                          &options, CARC_RESULT_JSON_CONTENT);
    CHECK_LANDSCAPE_FAILS("{\"tilesets\": [{\"file\": \"tilesets/base.toml\"}], \"tiles\": []}",
                          NULL, 0, &options, CARC_RESULT_JSON_CONTENT);
    CHECK_LANDSCAPE_FAILS("{\"tilesets\": \"base\", \"tiles\": []}", NULL, 0, &options,
                          CARC_RESULT_JSON_CONTENT);
    CHECK_LANDSCAPE_FAILS("{\"tilesets\": [{\"toml\": \"[set]\"}], \"tiles\": []}", NULL, 0,
                          &options, CARC_RESULT_JSON_CONTENT);
    char *inline_set = json_string(FIELDS_TOML);
    if (inline_set != NULL) {
        char *text = malloc(strlen(inline_set) + 128);
        if (text != NULL) {
            sprintf(text,
                    "{\"tilesets\": [{\"toml\": %s, \"file\": \"fields.toml\"}], \"tiles\": "
                    "[{\"tile\": \"M\", \"x\": 0, \"y\": 0}]}",
                    inline_set);
            check_landscape_fails_at(text, NULL, 0, &options, CARC_RESULT_OK, __FILE__, __LINE__,
                                     "a set as inline TOML");
            free(text);
        }
        free(inline_set);
    }
    FILL(err);
    if (CHECK_CODE(carc_landscape_score_new("{\"tiles\": [],\n \"tilesets\": [\"nope\"]}", NULL,
                                            0, &options, &score, &err),
                   CARC_RESULT_JSON_CONTENT)) {
        CHECK(carc_error_line(err) == 2);
        CHECK(carc_error_column(err) > 0);
        carc_error_free(err);
    }

    /* Sets from files come in as handles. */
    carc_catalog *from_file = NULL;
    if (CHECK_CODE(carc_catalog_from_path(f->fields, &from_file, NULL), CARC_RESULT_OK)) {
        const carc_catalog *list[1] = {from_file};
        check_landscape_fails_at("{\"tiles\": [{\"tile\": \"M\", \"x\": 0, \"y\": 0}]}", list, 1,
                                 &options, CARC_RESULT_OK, __FILE__, __LINE__,
                                 "a set loaded from a file");
        check_landscape_fails_at(tiles_only, list, 1, &options,
                                 CARC_RESULT_LANDSCAPE_UNKNOWN_TILE, __FILE__, __LINE__,
                                 "a base tile with only the fields set");
        carc_catalog_free(from_file);
    }
    CHECK_LANDSCAPE_FAILS("{\"tilesets\": [\"base\", \"base_c2\"], \"tiles\": []}", NULL, 0,
                          &options, CARC_RESULT_DUPLICATE_TILE_ID);
    const carc_catalog *twice[2] = {zoo->catalog, zoo->catalog};
    check_landscape_fails_at("{\"tiles\": []}", twice, 2, &options, CARC_RESULT_DUPLICATE_TILE_ID,
                             __FILE__, __LINE__, "base twice, as handles");
    enum { COPIES = 65535 / 24 + 1 };
    const carc_catalog **many = malloc(COPIES * sizeof *many);
    if (many != NULL) {
        for (size_t i = 0; i < COPIES; i++) {
            many[i] = zoo->catalog;
        }
        check_landscape_fails_at("{\"tiles\": []}", many, COPIES, &options,
                                 CARC_RESULT_TOO_MANY_TILE_TYPES, __FILE__, __LINE__,
                                 "2731 copies of base");
        free(many);
    }

    /* Each landscape error. */
    CHECK_LANDSCAPE_FAILS("{\"tiles\": [{\"tile\": \"Z\", \"x\": 0, \"y\": 0}]}", NULL, 0,
                          &options, CARC_RESULT_LANDSCAPE_UNKNOWN_TILE);
    CHECK_LANDSCAPE_FAILS("{\"tiles\": [{\"tile\": \"E\", \"x\": 0, \"y\": 0},"
                          " {\"tile\": \"E\", \"x\": 0, \"y\": 0}]}",
                          NULL, 0, &options, CARC_RESULT_LANDSCAPE_PLACEMENT);
    CHECK_LANDSCAPE_FAILS("{\"tiles\": [{\"tile\": \"E\", \"x\": 0, \"y\": 0},"
                          " {\"tile\": \"E\", \"x\": 0, \"y\": 1}]}",
                          NULL, 0, &options, CARC_RESULT_LANDSCAPE_PLACEMENT);
    CHECK_LANDSCAPE_FAILS("{\"tiles\": [{\"tile\": \"E\", \"x\": 1024, \"y\": 0}]}", NULL, 0,
                          &options, CARC_RESULT_LANDSCAPE_PLACEMENT);
    CHECK_LANDSCAPE_FAILS("{\"tiles\": [{\"tile\": \"E\", \"x\": -32768, \"y\": 0}]}", NULL, 0,
                          &options, CARC_RESULT_LANDSCAPE_PLACEMENT);
    CHECK_LANDSCAPE_FAILS("{\"tiles\": [{\"tile\": \"E\", \"x\": 0, \"y\": 0}], \"figures\": "
                          "[{\"player\": 0, \"x\": 0, \"y\": 1, \"segment\": 0}]}",
                          NULL, 0, &options, CARC_RESULT_LANDSCAPE_NO_TILE);
    CHECK_LANDSCAPE_FAILS("{\"tiles\": [{\"tile\": \"E\", \"x\": 0, \"y\": 0}], \"figures\": "
                          "[{\"player\": 0, \"x\": -32768, \"y\": -32768, \"segment\": 0}]}",
                          NULL, 0, &options, CARC_RESULT_LANDSCAPE_NO_TILE);
    CHECK_LANDSCAPE_FAILS("{\"tiles\": [{\"tile\": \"E\", \"x\": 0, \"y\": 0}], \"figures\": "
                          "[{\"player\": 0, \"x\": 0, \"y\": 0, \"segment\": 2}]}",
                          NULL, 0, &options, CARC_RESULT_LANDSCAPE_NO_SUCH_SEGMENT);
    CHECK_LANDSCAPE_FAILS("{\"tiles\": [{\"tile\": \"E\", \"x\": 0, \"y\": 0}], \"figures\": "
                          "[{\"player\": 0, \"figure\": \"abbot\", \"x\": 0, \"y\": 0, "
                          "\"segment\": 0}]}",
                          NULL, 0, &options, CARC_RESULT_LANDSCAPE_FIGURE_NOT_ALLOWED);
    CHECK_LANDSCAPE_FAILS("{\"tiles\": [{\"tile\": \"E\", \"x\": 0, \"y\": 0}], \"figures\": "
                          "[{\"player\": 8, \"x\": 0, \"y\": 0, \"segment\": 0}]}",
                          NULL, 0, &options, CARC_RESULT_LANDSCAPE_PLAYER_OUT_OF_RANGE);
    CHECK_LANDSCAPE_FAILS("{\"tiles\": [{\"tile\": \"E\", \"x\": 0, \"y\": 0}], \"figures\": "
                          "[{\"player\": 255, \"x\": 0, \"y\": 0, \"segment\": 0}]}",
                          NULL, 0, &options, CARC_RESULT_LANDSCAPE_PLAYER_OUT_OF_RANGE);

    /* A pennant worth UINT32_MAX in a completed city: the points cannot be represented. */
    carc_landscape_options huge = options;
    huge.claim_all = 1;
    huge.has_pennant_value = 1;
    huge.pennant_value = UINT32_MAX;
    carc_landscape_score *overflow = NULL;
    uint32_t got = carc_landscape_score_new(LANDSCAPE_JSON, NULL, 0, &huge, &overflow, NULL);
    /* Either answer keeps the promise: saturated points, or the value refused up front. */
    if (got != CARC_RESULT_OK) {
        check_code_at(got, CARC_RESULT_INVALID_ARGUMENT, __FILE__, __LINE__,
                      "carc_landscape_score_new(LANDSCAPE_JSON, pennant_value = UINT32_MAX)");
    } else {
        uint32_t totals[1] = {0};
        size_t count = 0;
        CHECK_CODE(carc_landscape_score_totals(overflow, totals, 1, &count), CARC_RESULT_OK);
        CHECK(totals[0] == UINT32_MAX);
        carc_landscape_score_free(overflow);
    }
}

static void test_landscape_lists(struct zoo *zoo)
{
    section("landscape score lists");
    static const struct list totals = {"carc_landscape_score_totals", l_score_totals,
                                       sizeof(uint32_t), 0};
    static const struct list features = {"carc_landscape_score_features", l_score_features,
                                         sizeof(carc_feature_score), 0};
    static const struct list json = {"carc_landscape_score_json", l_score_json, 1, 1};
    struct args a;
    memset(&a, 0, sizeof a);
    CHECK_SIZE(CHECK_LIST(&totals, zoo, KIND_SCORE, zoo->score, &a), 2);
    CHECK(CHECK_LIST(&features, zoo, KIND_SCORE, zoo->score, &a) >= 1);
    CHECK(CHECK_LIST(&json, zoo, KIND_SCORE, zoo->score, &a) > 10);

    /* Nothing scored: empty lists answer OK with count 0. */
    carc_landscape_score *empty = landscape("{\"tiles\": []}");
    CHECK_SIZE(CHECK_LIST(&features, zoo, KIND_SCORE, empty, &a), 0);
    carc_landscape_score_free(empty);
}

/* ----- Freeing ----- */

static void test_frees(struct zoo *zoo)
{
    section("_free with NULL, freed, foreign and made-up handles");
    carc_catalog_free(NULL);
    carc_game_free(NULL);
    carc_error_free(NULL);
    carc_landscape_score_free(NULL);

    struct bad bad[MAX_BAD];
    size_t bads = bad_handles(zoo, KIND_CATALOG, bad);
    for (size_t i = 0; i < bads; i++) {
        carc_catalog_free(bad[i].handle);
    }
    bads = bad_handles(zoo, KIND_GAME, bad);
    for (size_t i = 0; i < bads; i++) {
        carc_game_free(bad[i].handle);
    }
    bads = bad_handles(zoo, KIND_ERROR, bad);
    for (size_t i = 0; i < bads; i++) {
        carc_error_free(bad[i].handle);
    }
    bads = bad_handles(zoo, KIND_SCORE, bad);
    for (size_t i = 0; i < bads; i++) {
        carc_landscape_score_free(bad[i].handle);
    }

    /* Every live handle survived being passed to the _free of another kind. */
    carc_tileset_info info;
    CHECK_CODE(carc_catalog_info(zoo->catalog, &info), CARC_RESULT_OK);
    carc_phase phase;
    CHECK_CODE(carc_game_phase(zoo->game, &phase), CARC_RESULT_OK);
    CHECK_CODE(carc_error_code(zoo->error), CARC_RESULT_UNKNOWN_BUILTIN);
    CHECK(carc_error_message(zoo->error) != NULL);
    size_t count;
    CHECK_CODE(carc_landscape_score_totals(zoo->score, NULL, 0, &count),
               CARC_RESULT_BUFFER_TOO_SMALL);

    /* Double frees, and use after free, of each kind. */
    carc_catalog *catalog = builtin("river");
    carc_catalog_free(catalog);
    carc_catalog_free(catalog);
    CHECK_CODE(carc_catalog_info(catalog, &info), CARC_RESULT_INVALID_HANDLE);
    carc_game *game = game_from_json("{\"tilesets\": [\"base\"], \"players\": 2}");
    carc_game_free(game);
    carc_game_free(game);
    CHECK_CODE(carc_game_phase(game, &phase), CARC_RESULT_INVALID_HANDLE);
    carc_error *err = NULL;
    carc_catalog_builtin("nope", &catalog, &err);
    carc_error_free(err);
    carc_error_free(err);
    CHECK_CODE(carc_error_code(err), CARC_RESULT_INVALID_HANDLE);
    CHECK(carc_error_message(err) == NULL);
    carc_landscape_score *score = landscape("{\"tiles\": []}");
    carc_landscape_score_free(score);
    carc_landscape_score_free(score);
    CHECK_CODE(carc_landscape_score_totals(score, NULL, 0, &count), CARC_RESULT_INVALID_HANDLE);

    /* A freed slot is reused by the next handle, which the old value must not reach. */
    carc_game *first = game_from_json("{\"tilesets\": [\"base\"], \"players\": 2}");
    carc_game_free(first);
    carc_game *second = game_from_json("{\"tilesets\": [\"base\"], \"players\": 2}");
    CHECK(first != second);
    CHECK_CODE(carc_game_phase(first, &phase), CARC_RESULT_INVALID_HANDLE);
    carc_game_free(first);
    CHECK_CODE(carc_game_phase(second, &phase), CARC_RESULT_OK);
    carc_game_free(second);
}

/* ----- The board's capacity ----- */

/* Seven sets of ten all-field tile types, every tile fits anywhere; `copies` gives each set's
 * copies per type but the very last type's, which has `last`. Returns the game, or NULL with
 * `*code` set to why it was refused. */
static carc_game *all_field_game(const int copies[7], int last, carc_result *code)
{
    carc_catalog *sets[7] = {NULL};
    char text[4000];
    int ok = 1;
    for (int s = 0; s < 7; s++) {
        int n = snprintf(text, sizeof text,
                         "[set]\nid = \"abuse_big_%d\"\nname = \"Big %d\"\nedition = 1\n\n%s", s,
                         s,
                         s == 0 ? "[deck]\nstart = \"B0_0\"\n\n[figures]\nfollowers = 1\n"
                                  "colours = [\"red\", \"green\"]\n\n"
                                : "");
        for (int t = 0; t < 10; t++) {
            n += snprintf(text + n, sizeof text - (size_t)n,
                          "[[tile]]\nid = \"B%d_%d\"\nname = \"Field\"\ncount = %d\n"
                          "edges = { N = \"field\", E = \"field\", S = \"field\", W = \"field\" "
                          "}\nsegments = [{ kind = \"field\", half_edges = [\"N_w\", \"N_e\", "
                          "\"E_n\", \"E_s\", \"S_e\", \"S_w\", \"W_s\", \"W_n\"] }]\n\n",
                          s, t, s == 6 && t == 9 ? last : copies[s]);
        }
        sets[s] = from_toml(text);
        ok = ok && sets[s] != NULL;
    }
    carc_game *game = NULL;
    *code = CARC_RESULT_INVALID_ARGUMENT;
    if (ok) {
        carc_setup setup;
        carc_setup_default(&setup);
        setup.catalogs = (const carc_catalog *const *)sets;
        setup.catalog_count = 7;
        *code = carc_game_new(&setup, &game, NULL);
    }
    for (int s = 0; s < 7; s++) {
        carc_catalog_free(sets[s]);
    }
    return game;
}

/* A game holds at most the 65,536 tiles a board numbers (CARC_RESULT_TOO_MANY_TILES beyond),
 * and one with exactly that many fills a 256 x 256 square and ends with an empty bag. */
static void test_board_full(void)
{
    section("a board with 65,536 tiles");
    /* 7 x 10 x 1,000 = 70,000 tiles: refused, and no game is made. */
    const int too_many[7] = {1000, 1000, 1000, 1000, 1000, 1000, 1000};
    carc_result code = CARC_RESULT_OK;
    carc_game *refused = all_field_game(too_many, 1000, &code);
    CHECK_CODE(code, CARC_RESULT_TOO_MANY_TILES);
    CHECK(refused == NULL);
    carc_game_free(refused);
    /* 6 x 10 x 1,000 + 9 x 554 + 550 = 65,536 tiles: the last set's last type has 550. */
    const int exactly[7] = {1000, 1000, 1000, 1000, 1000, 1000, 554};
    carc_game *game = all_field_game(exactly, 550, &code);
    CHECK_CODE(code, CARC_RESULT_OK);
    if (game == NULL) {
        return;
    }
    /* Row by row from the start tile at (0, 0). */
    const carc_action draw = action(CARC_ACTION_KIND_DRAW);
    const carc_action skip = action(CARC_ACTION_KIND_SKIP);
    unsigned long placed = 1;
    int ok = 1;
    for (int y = 0; y < 256 && ok; y++) {
        for (int x = y == 0 ? 1 : 0; x < 256 && ok; x++) {
            carc_action at = place(x, y, 0);
            ok = carc_game_apply(game, &draw, NULL) == CARC_RESULT_OK &&
                 carc_game_apply(game, &at, NULL) == CARC_RESULT_OK &&
                 carc_game_apply(game, &skip, NULL) == CARC_RESULT_OK;
            placed += ok;
        }
    }
    if (!CHECK(ok && placed == 65536)) {
        printf("    placed %lu tiles\n", placed);
        carc_game_free(game);
        return;
    }
    carc_phase phase = CARC_PHASE_DRAW;
    uint32_t discarded = 1, left = 1;
    size_t count = 1;
    CHECK_CODE(carc_game_phase(game, &phase), CARC_RESULT_OK);
    CHECK(phase == CARC_PHASE_GAME_OVER);
    CHECK_CODE(carc_game_discarded(game, &discarded), CARC_RESULT_OK);
    CHECK(discarded == 0);
    CHECK_CODE(carc_game_tiles_left(game, &left), CARC_RESULT_OK);
    CHECK(left == 0);
    CHECK_CODE(carc_game_legal_action_count(game, &count), CARC_RESULT_OK);
    CHECK(count == 0);
    REFUSE(game, place(256, 0, 0), CARC_RESULT_GAME_OVER);
    REFUSE_LEGAL(game, 0, CARC_RESULT_GAME_OVER);
    carc_game_free(game);
}


/* ----- Landscape scoring in full (ABI 1.2) ----- */

static void test_landscape_scoring(struct zoo *zoo)
{
    section("carc_landscape_scoring_default, _solo_puzzle, carc_landscape_score_new_scoring");
    CHECK_CODE(carc_landscape_scoring_default(NULL), CARC_RESULT_NULL_ARGUMENT);
    CHECK_CODE(carc_landscape_scoring_solo_puzzle(NULL), CARC_RESULT_NULL_ARGUMENT);
    carc_landscape_scoring published, solo;
    carc_rules rules;
    carc_rules_default(&rules);
    if (CHECK_CODE(carc_landscape_scoring_default(&published), CARC_RESULT_OK)) {
        CHECK(published.claim_all == 0 && published.pennant_value == 2 &&
              published.unfinished_pennant_value == 1);
        CHECK(published.rules.farmers == 1 && published.rules.farm_scoring == rules.farm_scoring);
    }
    if (CHECK_CODE(carc_landscape_scoring_solo_puzzle(&solo), CARC_RESULT_OK)) {
        CHECK(solo.claim_all == 1 && solo.pennant_value == 0 && solo.unfinished_pennant_value == 0);
        CHECK(solo.rules.farmers == 0);
    }

    carc_landscape_score *score;
    carc_error *err;
    FILL(score);
    CHECK_FAILS(carc_landscape_score_new_scoring(NULL, NULL, 0, &solo, &score, &err),
                CARC_RESULT_NULL_ARGUMENT, err);
    CHECK_FAILS(carc_landscape_score_new_scoring(LANDSCAPE_JSON, NULL, 0, NULL, &score, &err),
                CARC_RESULT_NULL_ARGUMENT, err);
    CHECK_FAILS(carc_landscape_score_new_scoring(LANDSCAPE_JSON, NULL, 0, &solo, NULL, &err),
                CARC_RESULT_NULL_ARGUMENT, err);
    carc_landscape_scoring bad = solo;
    bad.claim_all = 2;
    CHECK_FAILS(carc_landscape_score_new_scoring(LANDSCAPE_JSON, NULL, 0, &bad, &score, &err),
                CARC_RESULT_INVALID_ARGUMENT, err);
    bad = solo;
    bad.rules.farm_scoring = 9;
    CHECK_FAILS(carc_landscape_score_new_scoring(LANDSCAPE_JSON, NULL, 0, &bad, &score, &err),
                CARC_RESULT_INVALID_ENUM, err);
    const carc_catalog *base[1] = {zoo->catalog};
    CHECK_FAILS(carc_landscape_score_new_scoring("{\"tilesets\": [\"base\"], \"tiles\": []}",
                                                 base, 1, &solo, &score, &err),
                CARC_RESULT_INVALID_ARGUMENT, err);
    CHECK_UNTOUCHED(score);

    /* LANDSCAPE_JSON: a city of three tiles with one pennant, closed, and its fields. Solo: 6
       points, no pennant, no fields. Published, claimed: 8, and 3 for each of the four fields
       around it (two beside F, one in each cap) with farmers. */
    uint32_t totals[4];
    size_t n = 0;
    const struct {
        const carc_landscape_scoring *scoring;
        uint8_t claim_all, farmers;
        uint32_t expected;
    } cases[] = {{&solo, 1, 0, 6}, {&published, 1, 0, 8}, {&published, 1, 1, 20}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        carc_landscape_scoring scoring = *cases[i].scoring;
        scoring.claim_all = cases[i].claim_all;
        scoring.rules.farmers = cases[i].farmers;
        score = NULL;
        if (CHECK_CODE(carc_landscape_score_new_scoring(LANDSCAPE_JSON, NULL, 0, &scoring, &score,
                                                        NULL),
                       CARC_RESULT_OK)) {
            CHECK_CODE(carc_landscape_score_totals(score, totals, 4, &n), CARC_RESULT_OK);
            CHECK(n == 1 && totals[0] == cases[i].expected);
            carc_landscape_score_free(score);
        }
    }
}

/* ----- Bots ----- */

static void test_bots(struct zoo *zoo)
{
    section("bots");
    carc_error *err;
    carc_bot *bot;
    carc_action action;

    FILL(bot);
    CHECK_FAILS(carc_bot_new(NULL, 1, &bot, &err), CARC_RESULT_NULL_ARGUMENT, err);
    CHECK_UNTOUCHED(bot);
    CHECK_FAILS(carc_bot_new("grandmaster", 1, &bot, &err), CARC_RESULT_UNKNOWN_PROFILE, err);
    CHECK_UNTOUCHED(bot);
    CHECK_FAILS(carc_bot_new("\xff\xfe", 1, &bot, &err), CARC_RESULT_INVALID_UTF8, err);
    CHECK_UNTOUCHED(bot);
    CHECK_FAILS(carc_bot_new("medium", 1, NULL, &err), CARC_RESULT_NULL_ARGUMENT, err);
    CHECK_FAILS(carc_bot_from_profile(NULL, NULL, "x", 1, &bot, &err), CARC_RESULT_NULL_ARGUMENT,
                err);
    CHECK_FAILS(carc_bot_from_profile(NULL, "[[profile]]\nname = 3\n", "x", 1, &bot, &err),
                CARC_RESULT_PROFILE_INVALID, err);
    CHECK_FAILS(carc_bot_from_profile("p.toml",
                                      "[[profile]]\nname = \"x\"\nkind = \"mcts\"\n"
                                      "mcts = { exploration = -1.0 }\n",
                                      "x", 1, &bot, &err),
                CARC_RESULT_PROFILE_INVALID, err);
    CHECK_FAILS(carc_bot_from_profile("p.toml", "", "x", 1, &bot, &err),
                CARC_RESULT_UNKNOWN_PROFILE, err);
    CHECK_UNTOUCHED(bot);

    carc_bot *freed = NULL;
    CHECK_OK_ERR(carc_bot_from_profile("p.toml",
                                       "[[profile]]\nname = \"q\"\nkind = \"mcts\"\n"
                                       "mcts = { iterations = 30 }\n",
                                       "q", 1, &freed, &err),
                 err);
    CHECK_STR(carc_bot_name(freed), "q");
    carc_bot_free(freed);
    CHECK(carc_bot_name(freed) == NULL);
    carc_bot_free(freed); /* a freed handle is ignored */
    carc_bot_free(NULL);

    bot = NULL;
    CHECK_OK_ERR(carc_bot_new("medium", 1, &bot, &err), err);
    CHECK_STR(carc_bot_name(bot), "medium");

    /* Every bad bot handle, then every bad game handle: refused, output untouched. */
    void *bad_bots[] = {NULL, freed, zoo->catalog, zoo->game, zoo->error, zoo->score,
                        (void *)(uintptr_t)1, (void *)UINTPTR_MAX, &zoo->local};
    for (size_t i = 0; i < sizeof bad_bots / sizeof bad_bots[0]; i++) {
        FILL(action);
        CHECK_FAILS(carc_bot_choose(bad_bots[i], zoo->game, &action, &err),
                    bad_bots[i] == NULL ? CARC_RESULT_NULL_ARGUMENT : CARC_RESULT_INVALID_HANDLE,
                    err);
        CHECK_UNTOUCHED(action);
        CHECK(carc_bot_name(bad_bots[i]) == NULL);
    }
    struct bad bad[MAX_BAD];
    size_t count = bad_handles(zoo, KIND_GAME, bad);
    for (size_t i = 0; i < count; i++) {
        FILL(action);
        CHECK_FAILS(carc_bot_choose(bot, bad[i].handle, &action, &err), bad[i].expected, err);
        CHECK_UNTOUCHED(action);
    }
    CHECK_FAILS(carc_bot_choose(bot, zoo->game, NULL, &err), CARC_RESULT_NULL_ARGUMENT, err);

    /* A whole game of the bot against itself: every answer is accepted. */
    carc_game *game = game_from_json("{\"tilesets\": [\"base\"], \"players\": 2, \"seed\": 5}");
    uint8_t over = 0;
    size_t steps = 0;
    while (CHECK_CODE(carc_game_is_over(game, &over), CARC_RESULT_OK) && !over && steps < 1000) {
        if (!CHECK_CODE(carc_bot_choose(bot, game, &action, NULL), CARC_RESULT_OK) ||
            !CHECK_CODE(carc_game_apply(game, &action, NULL), CARC_RESULT_OK)) {
            break;
        }
        steps++;
    }
    CHECK(over);
    FILL(action);
    CHECK_FAILS(carc_bot_choose(bot, game, &action, &err), CARC_RESULT_GAME_OVER, err);
    CHECK_UNTOUCHED(action);
    carc_game_free(game);
    carc_bot_free(bot);
}

static void test_pictures(struct zoo *zoo)
{
    section("pictures");
    size_t size;
    char small[16];
    carc_point points[CARC_MAX_SEGMENTS_PER_TILE];
    struct bad bad[MAX_BAD];
    size_t count = bad_handles(zoo, KIND_GAME, bad);
    for (size_t i = 0; i < count; i++) {
        FILL(size);
        CHECK_CODE(carc_game_board_svg(bad[i].handle, 0, NULL, 0, &size), bad[i].expected);
        CHECK_UNTOUCHED(size);
        CHECK_CODE(carc_game_tile_svg(bad[i].handle, 0, 0, NULL, 0, &size), bad[i].expected);
        CHECK_CODE(carc_game_tile_anchors(bad[i].handle, 0, 0, NULL, 0, &size), bad[i].expected);
        CHECK_UNTOUCHED(size);
    }
    CHECK_CODE(carc_game_board_svg(zoo->game, 0, NULL, 0, NULL), CARC_RESULT_NULL_ARGUMENT);
    CHECK_CODE(carc_game_board_svg(zoo->game, 0, NULL, 5, &size), CARC_RESULT_NULL_ARGUMENT);
    CHECK_CODE(carc_game_board_svg(zoo->game, 4, NULL, 0, &size), CARC_RESULT_INVALID_ARGUMENT);

    /* Asked for its size, then written; a buffer one byte short is left alone. */
    uint32_t flags = CARC_PICTURE_SCORE_PANEL | CARC_PICTURE_LAST_MOVE;
    CHECK_CODE(carc_game_board_svg(zoo->game, flags, NULL, 0, &size), CARC_RESULT_BUFFER_TOO_SMALL);
    CHECK(size > 200);
    char *svg = malloc(size);
    memset(svg, 'x', size);
    CHECK_CODE(carc_game_board_svg(zoo->game, flags, svg, size - 1, &size),
               CARC_RESULT_BUFFER_TOO_SMALL);
    CHECK(svg[0] == 'x');
    CHECK_CODE(carc_game_board_svg(zoo->game, flags, svg, size, &size), CARC_RESULT_OK);
    CHECK(strncmp(svg, "<svg", 4) == 0 && strlen(svg) + 1 == size);
    CHECK(strstr(svg, "score-panel") != NULL);
    free(svg);
    CHECK_CODE(carc_game_board_svg(zoo->game, 0, NULL, 0, &size), CARC_RESULT_BUFFER_TOO_SMALL);
    svg = malloc(size);
    CHECK_CODE(carc_game_board_svg(zoo->game, 0, svg, size, &size), CARC_RESULT_OK);
    CHECK(strstr(svg, "score-panel") == NULL);
    free(svg);

    CHECK_CODE(carc_game_tile_svg(zoo->game, 9999, 0, small, sizeof small, &size),
               CARC_RESULT_OUT_OF_RANGE);
    CHECK_CODE(carc_game_tile_svg(zoo->game, 0, 45, small, sizeof small, &size),
               CARC_RESULT_INVALID_ARGUMENT);
    CHECK_CODE(carc_game_tile_svg(zoo->game, 0, 90, small, sizeof small, &size),
               CARC_RESULT_BUFFER_TOO_SMALL);
    svg = malloc(size);
    CHECK_CODE(carc_game_tile_svg(zoo->game, 0, 90, svg, size, &size), CARC_RESULT_OK);
    CHECK(strstr(svg, "turned 90") != NULL);
    free(svg);

    carc_tile_info info;
    CHECK_CODE(carc_game_tile_info(zoo->game, 0, &info), CARC_RESULT_OK);
    CHECK_CODE(carc_game_tile_anchors(zoo->game, 0, 0, points, 0, &size),
               CARC_RESULT_BUFFER_TOO_SMALL);
    CHECK_CODE(carc_game_tile_anchors(zoo->game, 0, 0, NULL, 0, &size),
               CARC_RESULT_BUFFER_TOO_SMALL);
    CHECK_SIZE(size, info.segment_count);
    CHECK_CODE(carc_game_tile_anchors(zoo->game, 0, 0, NULL, 0, NULL), CARC_RESULT_NULL_ARGUMENT);
    CHECK_CODE(carc_game_tile_anchors(zoo->game, 9999, 0, points, CARC_MAX_SEGMENTS_PER_TILE, &size),
               CARC_RESULT_OUT_OF_RANGE);
    CHECK_CODE(carc_game_tile_anchors(zoo->game, 0, 1, points, CARC_MAX_SEGMENTS_PER_TILE, &size),
               CARC_RESULT_INVALID_ARGUMENT);
    CHECK_CODE(carc_game_tile_anchors(zoo->game, 0, 270, points, CARC_MAX_SEGMENTS_PER_TILE, &size),
               CARC_RESULT_OK);
    CHECK_SIZE(size, info.segment_count);
    for (size_t i = 0; i < size; i++) {
        CHECK(points[i].x > 0.0 && points[i].x < 1.0 && points[i].y > 0.0 && points[i].y < 1.0);
    }
}

struct reports {
    size_t calls;
    size_t moves;
    int32_t *cancel;
};

static void on_progress(void *user, const carc_move_stats *moves, size_t count,
                        const carc_analysis_summary *summary)
{
    struct reports *reports = user;
    reports->calls++;
    /* Every move compared is reported, best first, each played out at least once by now. */
    reports->moves = count > 0 && moves[0].rollouts > 0 ? count : 0;
    if (reports->cancel != NULL && summary->rollouts >= 200) {
        __atomic_store_n(reports->cancel, 1, __ATOMIC_RELAXED);
    }
}

static void test_analysis(struct zoo *zoo)
{
    section("analysis");
    carc_error *err;
    carc_analysis_config config;
    carc_move_stats moves[3];
    carc_analysis_summary summary;
    size_t count;

    CHECK_CODE(carc_analysis_config_default(NULL), CARC_RESULT_NULL_ARGUMENT);
    CHECK_CODE(carc_analysis_config_default(&config), CARC_RESULT_OK);
    CHECK(config.rollouts == 20000 && config.seconds == 0.0 && config.threads == 1);
    CHECK(config.continuation == CARC_CONTINUATION_RANDOM && config.keep == 5);
    config.rollouts = 600;

    carc_game *game = game_from_json("{\"tilesets\": [\"base\"], \"players\": 2, \"seed\": 5}");
    CHECK_FAILS(carc_game_analyze(game, &config, NULL, NULL, NULL, moves, 3, &count, &summary,
                                  &err),
                CARC_RESULT_WRONG_PHASE, err);
    carc_action draw = {0};
    draw.kind = CARC_ACTION_KIND_DRAW;
    CHECK_CODE(carc_game_apply(game, &draw, NULL), CARC_RESULT_OK);

    struct bad bad[MAX_BAD];
    size_t bads = bad_handles(zoo, KIND_GAME, bad);
    for (size_t i = 0; i < bads; i++) {
        FILL(count);
        CHECK_FAILS(carc_game_analyze(bad[i].handle, &config, NULL, NULL, NULL, moves, 3, &count,
                                      &summary, &err),
                    bad[i].expected, err);
        CHECK_UNTOUCHED(count);
    }
    CHECK_FAILS(carc_game_analyze(game, NULL, NULL, NULL, NULL, moves, 3, &count, NULL, &err),
                CARC_RESULT_NULL_ARGUMENT, err);
    CHECK_FAILS(carc_game_analyze(game, &config, NULL, NULL, NULL, moves, 3, NULL, NULL, &err),
                CARC_RESULT_NULL_ARGUMENT, err);
    CHECK_FAILS(carc_game_analyze(game, &config, NULL, NULL, NULL, NULL, 3, &count, NULL, &err),
                CARC_RESULT_NULL_ARGUMENT, err);
    carc_analysis_config wrong = config;
    wrong.continuation = 7;
    CHECK_FAILS(carc_game_analyze(game, &wrong, NULL, NULL, NULL, moves, 3, &count, NULL, &err),
                CARC_RESULT_INVALID_ENUM, err);
    wrong = config;
    wrong.rollouts = 0;
    CHECK_FAILS(carc_game_analyze(game, &wrong, NULL, NULL, NULL, moves, 3, &count, NULL, &err),
                CARC_RESULT_INVALID_ARGUMENT, err);
    wrong.seconds = -1.0;
    CHECK_FAILS(carc_game_analyze(game, &wrong, NULL, NULL, NULL, moves, 3, &count, NULL, &err),
                CARC_RESULT_INVALID_ARGUMENT, err);
    wrong.seconds = 0.0 / 0.0;
    CHECK_FAILS(carc_game_analyze(game, &wrong, NULL, NULL, NULL, moves, 3, &count, NULL, &err),
                CARC_RESULT_INVALID_ARGUMENT, err);

    /* The best three moves, a report after every batch; the same on two threads. */
    struct reports reports = {0, 0, NULL};
    config.report_every_ms = 0;
    CHECK_OK_ERR(carc_game_analyze(game, &config, on_progress, &reports, NULL, moves, 3, &count,
                                   &summary, &err),
                 err);
    CHECK_SIZE(count, 3);
    CHECK(reports.calls > 0 && reports.moves == summary.moves);
    CHECK(summary.rollouts == 600 && summary.stop == CARC_ANALYSIS_STOP_BUDGET);
    CHECK(summary.moves > 3 && summary.player == 0);
    CHECK(moves[0].has_place == 1 && moves[0].place.kind == CARC_ACTION_KIND_PLACE);
    CHECK(moves[0].rollouts > 0 && moves[0].win >= 0.0 && moves[0].win <= 1.0);
    carc_move_stats again[3];
    config.threads = 2;
    CHECK_OK_ERR(carc_game_analyze(game, &config, NULL, NULL, NULL, again, 3, &count, NULL, &err),
                 err);
    CHECK(memcmp(moves, again, sizeof moves) == 0);
    /* The best move is legal: placing it, then its figure action, is accepted. */
    carc_game *copy = NULL;
    CHECK_CODE(carc_game_clone(game, &copy), CARC_RESULT_OK);
    CHECK_CODE(carc_game_apply(copy, &moves[0].place, NULL), CARC_RESULT_OK);
    CHECK_CODE(carc_game_apply(copy, &moves[0].figure, NULL), CARC_RESULT_OK);
    carc_game_free(copy);

    /* A flag raised from the progress report stops a run with no rollout limit. */
    int32_t cancel = 0;
    struct reports cancelling = {0, 0, &cancel};
    config.rollouts = 0;
    config.seconds = 600.0;
    CHECK_OK_ERR(carc_game_analyze(game, &config, on_progress, &cancelling, &cancel, moves, 3,
                                   &count, &summary, &err),
                 err);
    CHECK(summary.stop == CARC_ANALYSIS_STOP_CANCELLED && summary.seconds < 60.0);
    CHECK(summary.rollouts >= 200 && count == 3);
    /* Asking for no moves is allowed: the summary alone. */
    config.rollouts = 100;
    config.seconds = 0.0;
    CHECK_OK_ERR(carc_game_analyze(game, &config, NULL, NULL, NULL, NULL, 0, &count, &summary,
                                   &err),
                 err);
    CHECK(count == 0 && summary.rollouts == 100);
    carc_game_free(game);
}

/* A figure of a set's own (ABI 1.10): the giant, a follower of strength 3 on monasteries,
 * beside FIELDS_TOML's follower. It is numbered CARC_FIGURE_DECLARED, listed with its id and
 * rules, offered and deployed by that number, and named so in events and on the board. */
static void test_declared_figures(void)
{
    section("figures of a set's own");
    static const char giant[] = "[[figure]]\nid = \"giant\"\nper_player = 1\nrole = \"follower\"\n"
                                "strength = 3\nstands_on = [\"monastery\"]\n\n";
    char text[4096];
    const char *at = strstr(FIELDS_TOML, "[[figure]]");
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - FIELDS_TOML), FIELDS_TOML, giant, at);
    carc_catalog *catalog = from_toml(text);
    const carc_catalog *sets[] = {catalog};
    carc_game *game = game_of(sets, 1, 2, 0);
    size_t kinds = 0;
    CHECK_CODE(carc_game_figure_count(game, &kinds), CARC_RESULT_OK);
    CHECK(kinds == 2);
    carc_figure_info info;
    CHECK_CODE(carc_game_figure_info(game, 0, &info), CARC_RESULT_OK);
    CHECK(strcmp(info.id, "follower") == 0 && info.figure == CARC_FIGURE_FOLLOWER);
    CHECK(info.follower == 1 && info.strength == 1 && info.per_player == 1 && info.recall == 0);
    CHECK_CODE(carc_game_figure_info(game, 1, &info), CARC_RESULT_OK);
    CHECK(strcmp(info.id, "giant") == 0 && info.figure == CARC_FIGURE_DECLARED);
    CHECK(info.follower == 1 && info.strength == 3 && info.per_player == 1 && info.recall == 0);
    CHECK_CODE(carc_game_figure_info(game, 2, &info), CARC_RESULT_OUT_OF_RANGE);
    uint8_t held = 0;
    CHECK_CODE(carc_game_in_hand(game, 0, CARC_FIGURE_DECLARED, &held), CARC_RESULT_OK);
    CHECK(held == 1);
    CHECK_CODE(carc_game_in_hand(game, 1, CARC_FIGURE_FOLLOWER, &held), CARC_RESULT_OK);
    CHECK(held == 1);
    CHECK_CODE(carc_game_in_hand(game, 0, CARC_FIGURE_DECLARED + 1, &held),
               CARC_RESULT_INVALID_ENUM);
    /* Red draws a monastery and places it east of the start: the giant may stand on it. */
    APPLY(game, draw_tile(tile_id(game, "M")));
    APPLY(game, place(1, 0, 0));
    carc_action legal[16];
    size_t count = 0;
    CHECK_CODE(carc_game_legal_actions(game, legal, 16, &count), CARC_RESULT_OK);
    int offered = 0;
    for (size_t i = 0; i < count; i++) {
        offered |= legal[i].kind == CARC_ACTION_KIND_DEPLOY &&
                   legal[i].figure == CARC_FIGURE_DECLARED && legal[i].segment == 0;
    }
    CHECK(offered);
    APPLY(game, deploy(0, CARC_FIGURE_DECLARED));
    CHECK_CODE(carc_game_in_hand(game, 0, CARC_FIGURE_DECLARED, &held), CARC_RESULT_OK);
    CHECK(held == 0);
    carc_event events[8];
    CHECK_CODE(carc_game_last_events(game, events, 8, &count), CARC_RESULT_OK);
    CHECK(count >= 1 && events[0].kind == CARC_EVENT_KIND_FIGURE_PLACED &&
          events[0].figure == CARC_FIGURE_DECLARED);
    carc_placed_figure figures[4];
    CHECK_CODE(carc_game_figures(game, figures, 4, &count), CARC_RESULT_OK);
    CHECK(count == 1 && figures[0].figure == CARC_FIGURE_DECLARED);
    /* Green, on the next monastery, has a giant of its own. */
    APPLY(game, draw_tile(tile_id(game, "M")));
    APPLY(game, place(2, 0, 0));
    CHECK_CODE(carc_game_check(game, &(carc_action){.kind = CARC_ACTION_KIND_DEPLOY,
                                                    .figure = CARC_FIGURE_DECLARED},
                               NULL),
               CARC_RESULT_OK);
    carc_game_free(game);
    carc_catalog_free(catalog);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s SCRATCH_FOLDER\n", argv[0]);
        return 2;
    }
    struct zoo zoo;
    struct files files;
    make_zoo(&zoo);
    make_files(argv[1], &files);

    test_versions();
    test_result_names();
    test_error_values(&zoo);
    test_builtins();
    test_catalog_from_toml();
    test_catalog_from_path(&files);
    test_catalog_queries(&zoo);
    test_setups(&zoo);
    test_game_queries(&zoo);
    test_game_lists_in_play(&zoo);
    test_clone_and_restart(&zoo);
    test_game_catalogs(&zoo);
    test_malformed_actions(&zoo);
    test_base_refusals();
    test_field_refusals();
    test_river_refusals();
    test_apply_legal(&zoo);
    test_declared_figures();
    test_new_json();
    test_saves();
    test_landscapes(&zoo, &files);
    test_landscape_lists(&zoo);
    test_landscape_scoring(&zoo);
    test_bots(&zoo);
    test_pictures(&zoo);
    test_analysis(&zoo);
    test_frees(&zoo);
    test_board_full();

    free_zoo(&zoo);
    /* Leak checkers cannot see a handle left live (the registry reaches it); the count can. */
    CHECK(carc_live_handles() == 0);
    printf("abuse: %lu checks, %lu failed\n", checks_run, checks_failed);
    return checks_failed == 0 ? 0 : 1;
}
