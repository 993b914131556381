/* threads.c: eight threads hammer one game handle at once (apply, list, save, events,
 * queries, free), the mistake Unity and C++ programs make, and everything stays sound: every
 * call answers a documented code, a free lands between calls, and every save any thread took
 * loads back into a game that saves the same text.
 *
 * usage: threads ROUNDS
 * Prints a summary line and exits with 1 if any check failed. Run with AddressSanitizer,
 * ThreadSanitizer (the library's Rust code and std instrumented too) and plainly. */

/* nanosleep */
#define _POSIX_C_SOURCE 200809L

#include <carcassonne.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { THREADS = 8, STEPS = 120, SAVE_CAP = 1 << 16, ACTION_CAP = 1024, EVENT_CAP = 256 };

static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long failures;

static void fail(const char *what, uint32_t code)
{
    pthread_mutex_lock(&report_lock);
    failures++;
    const char *name = carc_result_name(code);
    printf("FAIL %s: %s (%u)\n", what, name != NULL ? name : "?", (unsigned)code);
    pthread_mutex_unlock(&report_lock);
}

/* Codes a call may answer when other threads change or free the game under it: its answer
 * reflects the game as it stood when its turn came. */
static int acceptable(uint32_t code)
{
    return code == CARC_RESULT_OK || code == CARC_RESULT_BUFFER_TOO_SMALL ||
           code == CARC_RESULT_INVALID_HANDLE || code == CARC_RESULT_OUT_OF_RANGE ||
           code == CARC_RESULT_GAME_OVER || code == CARC_RESULT_NOT_AVAILABLE;
}

static void expect(uint32_t code, const char *what)
{
    if (!acceptable(code)) {
        fail(what, code);
    }
}

struct worker {
    carc_game *game;      /* shared by every worker */
    uint64_t seed;
    int frees_it;         /* frees the game after its steps */
    char *save;           /* the last save it took, NUL-terminated, or empty */
    unsigned long saved;  /* saves taken */
    unsigned long refused_after_free;
};

static uint64_t next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void *hammer(void *arg)
{
    struct worker *w = arg;
    carc_action *actions = malloc(ACTION_CAP * sizeof *actions);
    carc_event *events = malloc(EVENT_CAP * sizeof *events);
    char *text = malloc(SAVE_CAP);
    if (actions == NULL || events == NULL || text == NULL) {
        fail("out of memory", 0);
        return NULL;
    }
    uint64_t state = w->seed;
    for (int step = 0; step < STEPS; step++) {
        size_t count = 0, size = 0;
        uint32_t code = 0;
        switch (next(&state) % 6) {
        case 0:
        case 1: /* a step by number, as bots do */
            code = carc_game_legal_action_count(w->game, &count);
            expect(code, "carc_game_legal_action_count");
            if (code == CARC_RESULT_OK && count > 0) {
                expect(carc_game_apply_legal(w->game, next(&state) % count, &count, NULL),
                       "carc_game_apply_legal");
            }
            break;
        case 2: /* list the actions, apply one of them */
            code = carc_game_legal_actions(w->game, actions, ACTION_CAP, &count);
            expect(code, "carc_game_legal_actions");
            if (code == CARC_RESULT_OK && count > 0) {
                carc_action action = actions[next(&state) % count];
                code = carc_game_apply(w->game, &action, NULL);
                /* Another thread may have moved the game on: the action may be refused now. */
                if (!acceptable(code) && (code < 400 || code >= 500)) {
                    fail("carc_game_apply", code);
                }
            }
            break;
        case 3: /* save */
            code = carc_game_save_json(w->game, text, SAVE_CAP, &size);
            expect(code, "carc_game_save_json");
            if (code == CARC_RESULT_OK) {
                memcpy(w->save, text, size);
                w->saved++;
            }
            break;
        case 4: /* the last events and the board */
            expect(carc_game_last_events(w->game, events, EVENT_CAP, &count),
                   "carc_game_last_events");
            expect(carc_game_figures(w->game, NULL, 0, &count), "carc_game_figures");
            break;
        default: { /* queries */
            carc_phase phase;
            uint32_t scores[8];
            expect(carc_game_phase(w->game, &phase), "carc_game_phase");
            expect(carc_game_scores(w->game, scores, 8, &count), "carc_game_scores");
            break;
        }
        }
        if (code == CARC_RESULT_INVALID_HANDLE) {
            w->refused_after_free++;
        }
        if (w->frees_it && step == STEPS / 2) {
            carc_game_free(w->game);
        }
    }
    free(actions);
    free(events);
    free(text);
    return NULL;
}

/* A save loads into a game that saves the same text. */
static void check_reloads(const char *save)
{
    carc_game *loaded = NULL;
    uint32_t code = carc_game_load_json(save, &loaded, NULL);
    if (code != CARC_RESULT_OK) {
        fail("a save taken under contention does not load", code);
        return;
    }
    char *again = malloc(SAVE_CAP);
    size_t size = 0;
    if (again != NULL) {
        code = carc_game_save_json(loaded, again, SAVE_CAP, &size);
        if (code != CARC_RESULT_OK || strcmp(again, save) != 0) {
            fail("a reloaded save saves differently", code);
        }
        free(again);
    }
    carc_game_free(loaded);
}

struct analysis_run {
    carc_game *game;
    int32_t cancel;
    uint32_t code;
    carc_analysis_summary summary;
};

static void *analyse(void *arg)
{
    struct analysis_run *run = arg;
    carc_analysis_config config;
    carc_analysis_config_default(&config);
    config.rollouts = 0;
    config.seconds = 600.0;
    config.threads = 2;
    carc_move_stats best[3];
    size_t count = 0;
    run->code = carc_game_analyze(run->game, &config, NULL, NULL, &run->cancel, best, 3, &count,
                                  &run->summary, NULL);
    return NULL;
}

/* A ten-minute analysis on one thread, cancelled from another with an atomic store, while
 * the game it analyses answers other calls: it stops at once with what it has. */
static void check_cancel_from_another_thread(void)
{
    struct analysis_run run = {NULL, 0, 0, {0}};
    expect(carc_game_new_json("{\"tilesets\": [\"base\"], \"players\": 2, \"seed\": 9}", &run.game,
                              NULL),
           "carc_game_new_json");
    carc_action draw = {0};
    draw.kind = CARC_ACTION_KIND_DRAW;
    expect(carc_game_apply(run.game, &draw, NULL), "draw");
    pthread_t thread;
    pthread_create(&thread, NULL, analyse, &run);
    for (int i = 0; i < 50; i++) {
        carc_phase phase;
        expect(carc_game_phase(run.game, &phase), "the analysed game answers meanwhile");
        struct timespec pause = {0, 2000000};
        nanosleep(&pause, NULL);
    }
    __atomic_store_n(&run.cancel, 1, __ATOMIC_RELAXED);
    pthread_join(thread, NULL);
    if (run.code != CARC_RESULT_OK || run.summary.stop != CARC_ANALYSIS_STOP_CANCELLED) {
        fail("a cancelled analysis", run.code);
    }
    if (run.summary.seconds > 60.0) {
        fail("a cancelled analysis ran on", 0);
    }
    carc_game_free(run.game);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 20;
    unsigned long saves = 0, refused = 0, freed_rounds = 0;
    for (int round = 0; round < rounds; round++) {
        char setup[160];
        snprintf(setup, sizeof setup,
                 "{\"tilesets\": [\"base\", \"inns_and_cathedrals\"], \"players\": 4, "
                 "\"seed\": %d, \"options\": {\"abbots\": true}}",
                 round);
        carc_game *game = NULL;
        uint32_t code = carc_game_new_json(setup, &game, NULL);
        if (code != CARC_RESULT_OK) {
            fail("carc_game_new_json", code);
            break;
        }
        /* Every other round, one thread frees the game midway while the others go on. */
        int frees = round % 2 == 1;
        struct worker workers[THREADS];
        pthread_t threads[THREADS];
        for (int i = 0; i < THREADS; i++) {
            workers[i] = (struct worker){game, (uint64_t)round * 100 + (uint64_t)i,
                                         frees && i == 0, malloc(SAVE_CAP), 0, 0};
            if (workers[i].save == NULL) {
                fail("out of memory", 0);
                return 1;
            }
            workers[i].save[0] = '\0';
        }
        for (int i = 0; i < THREADS; i++) {
            pthread_create(&threads[i], NULL, hammer, &workers[i]);
        }
        for (int i = 0; i < THREADS; i++) {
            pthread_join(threads[i], NULL);
        }
        for (int i = 0; i < THREADS; i++) {
            if (workers[i].save[0] != '\0') {
                check_reloads(workers[i].save);
            }
            saves += workers[i].saved;
            refused += workers[i].refused_after_free;
            free(workers[i].save);
        }
        if (frees) {
            freed_rounds++;
            carc_phase phase;
            code = carc_game_phase(game, &phase);
            if (code != CARC_RESULT_INVALID_HANDLE) {
                fail("a freed game still answers", code);
            }
        } else {
            /* The game that survived saves, and reloads from its save. */
            char *text = malloc(SAVE_CAP);
            size_t size = 0;
            if (text != NULL && carc_game_save_json(game, text, SAVE_CAP, &size) == CARC_RESULT_OK) {
                check_reloads(text);
            } else {
                fail("the surviving game does not save", 0);
            }
            free(text);
            carc_game_free(game);
        }
    }
    check_cancel_from_another_thread();
    if (carc_live_handles() != 0) {
        fail("handles left live", (uint32_t)carc_live_handles());
    }
    printf("threads: %d rounds of %d threads, %lu saves reloaded, %lu calls refused after a free "
           "in %lu rounds, %lu failed\n",
           rounds, THREADS, saves, refused, freed_rounds, failures);
    return failures == 0 ? 0 : 1;
}
