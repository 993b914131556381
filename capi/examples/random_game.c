/* random_game.c: a whole Carcassonne game through the C ABI, two random players, every move
 * and score printed. The README's "Using from C/C++" section builds and runs it.
 *
 *   cargo build --release -p carcassonne-capi
 *   gcc -std=c11 -Wall -Wextra -Iinclude capi/examples/random_game.c \
 *       "${CARGO_TARGET_DIR:-target}/release/libcarcassonne_capi.a" -lpthread -ldl -lm -o random_game
 *   ./random_game [seed]
 */
#include <stdio.h>
#include <stdlib.h>

#include "carcassonne.h"

/* Prints why a call failed and leaves: an example has nothing better to do. */
static void check(carc_result code, carc_error *err, const char *what) {
    if (code == CARC_RESULT_OK) {
        return;
    }
    fprintf(stderr, "%s failed: %s: %s\n", what, carc_result_name(code),
            err != NULL ? carc_error_message(err) : "(no details)");
    carc_error_free(err);
    exit(1);
}

/* Small seeded generator, so the same seed plays the same game. */
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static const char *tile_id(const carc_game *game, uint16_t tile) {
    carc_tile_info info;
    check(carc_game_tile_info(game, tile, &info), NULL, "carc_game_tile_info");
    return info.id;
}

static const char *kind_name(carc_segment_kind kind) {
    static const char *const names[] = {"city", "road", "field", "river", "monastery", "garden"};
    return kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

static void print_events(const carc_game *game) {
    /* Ask for the count first: the last turn's final scoring has many events. */
    size_t count = 0;
    carc_result code = carc_game_last_events(game, NULL, 0, &count);
    if (code != CARC_RESULT_BUFFER_TOO_SMALL) {
        check(code, NULL, "carc_game_last_events");
        return; /* no events */
    }
    carc_event *events = malloc(count * sizeof *events);
    if (events == NULL) {
        exit(1);
    }
    check(carc_game_last_events(game, events, count, &count), NULL, "carc_game_last_events");
    for (size_t i = 0; i < count; i++) {
        const carc_event *event = &events[i];
        switch (event->kind) {
        case CARC_EVENT_KIND_TILE_PLACED:
            printf("player %u places %s at (%d, %d) turned %u\n", event->player,
                   tile_id(game, event->tile), event->pos.x, event->pos.y, event->rotation);
            break;
        case CARC_EVENT_KIND_FIGURE_PLACED:
            printf("  and puts a %s on segment %u\n",
                   event->figure == CARC_FIGURE_ABBOT ? "abbot" : "follower", event->segment);
            break;
        case CARC_EVENT_KIND_FEATURE_SCORED: {
            const carc_feature_score *score = &event->score;
            int unfinished = !score->complete && score->kind != CARC_SEGMENT_KIND_FIELD;
            printf("  %s%s: %u point%s to player", unfinished ? "unfinished " : "",
                   kind_name(score->kind), score->points, score->points == 1 ? "" : "s");
            for (unsigned p = 0; p < CARC_MAX_PLAYERS; p++) { /* scorers is a bitmask */
                if ((score->scorers >> p) & 1) {
                    printf(" %u", p);
                }
            }
            printf("\n");
            break;
        }
        case CARC_EVENT_KIND_TILE_DISCARDED:
            printf("player %u discards %s: it fits nowhere\n", event->player, tile_id(game, event->tile));
            break;
        default:
            break;
        }
    }
    free(events);
}

int main(int argc, char **argv) {
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
    carc_error *err = NULL;

    carc_catalog *base = NULL;
    check(carc_catalog_builtin("base", &base, &err), err, "carc_catalog_builtin");

    carc_setup setup;
    check(carc_setup_default(&setup), NULL, "carc_setup_default");
    const carc_catalog *catalogs[] = {base};
    setup.catalogs = catalogs;
    setup.catalog_count = 1;
    setup.players = 2;
    setup.seed = seed;

    carc_game *game = NULL;
    check(carc_game_new(&setup, &game, &err), err, "carc_game_new");
    carc_catalog_free(base); /* the game keeps what it needs */

    /* List the legal actions, pick one at random, apply it, print what happened. */
    carc_action *actions = NULL;
    size_t capacity = 0, count = 0;
    uint64_t random = seed;
    for (;;) {
        carc_result code = carc_game_legal_actions(game, actions, capacity, &count);
        if (code == CARC_RESULT_BUFFER_TOO_SMALL) { /* count holds what is needed */
            capacity = count;
            actions = realloc(actions, capacity * sizeof *actions);
            if (actions == NULL) {
                return 1;
            }
            continue;
        }
        check(code, NULL, "carc_game_legal_actions");
        if (count == 0) {
            break; /* the game is over */
        }
        const carc_action *action = &actions[next_random(&random) % count];
        check(carc_game_apply(game, action, &err), err, "carc_game_apply");
        print_events(game);
    }
    free(actions);

    uint32_t scores[CARC_MAX_PLAYERS];
    size_t players = 0;
    uint8_t winners = 0;
    check(carc_game_scores(game, scores, CARC_MAX_PLAYERS, &players), NULL, "carc_game_scores");
    check(carc_game_leaders(game, &winners), NULL, "carc_game_leaders");
    for (size_t p = 0; p < players; p++) {
        printf("player %zu: %u point%s%s\n", p, scores[p], scores[p] == 1 ? "" : "s",
               (winners >> p) & 1 ? " (winner)" : "");
    }
    carc_game_free(game);
    return 0;
}
