// random_game.cpp: the C ABI from C++, with handles owned by std::unique_ptr and failures
// turned into exceptions; three random players on the River, the base game and Inns &
// Cathedrals: every tile, figure and score as it happens, then the scores and the winners.
//
//   cargo build --release -p carcassonne-capi
//   g++ -std=c++17 -Wall -Wextra -Iinclude capi/examples/random_game.cpp
//       "${CARGO_TARGET_DIR:-target}/release/libcarcassonne_capi.a" -lpthread -ldl -lm -o random_game_cpp
//   ./random_game_cpp [seed]
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "carcassonne.h"

namespace {

// Each handle type with the function that frees it.
struct CatalogFree {
    void operator()(carc_catalog *catalog) const { carc_catalog_free(catalog); }
};
struct GameFree {
    void operator()(carc_game *game) const { carc_game_free(game); }
};
struct ErrorFree {
    void operator()(carc_error *error) const { carc_error_free(error); }
};
using Catalog = std::unique_ptr<carc_catalog, CatalogFree>;
using Game = std::unique_ptr<carc_game, GameFree>;
using Error = std::unique_ptr<carc_error, ErrorFree>;

// Throws with the library's message when a call fails; `err` is the call's error object.
void check(carc_result code, carc_error *err, const char *what) {
    Error owned(err);
    if (code != CARC_RESULT_OK) {
        throw std::runtime_error(std::string(what) + ": " + carc_result_name(code) + ": " +
                                 (owned ? carc_error_message(owned.get()) : "(no details)"));
    }
}

Catalog builtin(const char *name) {
    carc_catalog *catalog = nullptr;
    carc_error *err = nullptr;
    check(carc_catalog_builtin(name, &catalog, &err), err, "carc_catalog_builtin");
    return Catalog(catalog);
}

std::string tile_id(const carc_game *game, std::uint16_t tile) {
    carc_tile_info info;
    check(carc_game_tile_info(game, tile, &info), nullptr, "carc_game_tile_info");
    return info.id;
}

const char *kind_name(carc_segment_kind kind) {
    static const char *const names[] = {"city", "road", "field", "river", "monastery", "garden"};
    return kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

const char *figure_name(carc_figure figure) {
    switch (figure) {
    case CARC_FIGURE_BIG_FOLLOWER:
        return "big follower";
    case CARC_FIGURE_ABBOT:
        return "abbot";
    default:
        return "follower";
    }
}

// "players 0 and 2" from a bitmask of players (bit p for player p).
std::string players_in(std::uint8_t mask) {
    std::vector<std::string> names;
    for (unsigned p = 0; p < CARC_MAX_PLAYERS; ++p) {
        if ((mask >> p) & 1) {
            names.push_back(std::to_string(p));
        }
    }
    std::string text = names.size() == 1 ? "player " : "players ";
    for (std::size_t i = 0; i < names.size(); ++i) {
        text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    }
    return text;
}

// Prints what the last action did: tiles, figures, scores.
void print_events(const carc_game *game) {
    std::size_t count = 0;
    carc_result code = carc_game_last_events(game, nullptr, 0, &count);
    if (code != CARC_RESULT_BUFFER_TOO_SMALL) {
        check(code, nullptr, "carc_game_last_events");
        return;  // no events
    }
    std::vector<carc_event> events(count);
    check(carc_game_last_events(game, events.data(), events.size(), &count), nullptr,
          "carc_game_last_events");
    for (const carc_event &event : events) {
        switch (event.kind) {
        case CARC_EVENT_KIND_TILE_PLACED:
            std::printf("player %u places %s at (%d, %d) turned %u\n", event.player,
                        tile_id(game, event.tile).c_str(), event.pos.x, event.pos.y, event.rotation);
            break;
        case CARC_EVENT_KIND_FIGURE_PLACED:
            std::printf("  and puts a %s on segment %u\n", figure_name(event.figure), event.segment);
            break;
        case CARC_EVENT_KIND_FEATURE_SCORED: {
            const carc_feature_score &score = event.score;
            const bool unfinished = !score.complete && score.kind != CARC_SEGMENT_KIND_FIELD;
            std::printf("  %s%s: %u point%s to %s\n", unfinished ? "unfinished " : "",
                        kind_name(score.kind), score.points, score.points == 1 ? "" : "s",
                        players_in(score.scorers).c_str());
            break;
        }
        case CARC_EVENT_KIND_TILE_DISCARDED:
            std::printf("player %u discards %s: it fits nowhere\n", event.player,
                        tile_id(game, event.tile).c_str());
            break;
        default:
            break;
        }
    }
}

}  // namespace

int main(int argc, char **argv) try {
    const std::uint64_t seed = argc > 1 ? std::stoull(argv[1]) : 1;
    // Any sets whose tile ids differ can play together; the River comes first.
    const Catalog river = builtin("river"), base = builtin("base"), inns = builtin("inns_and_cathedrals");
    const carc_catalog *catalogs[] = {river.get(), base.get(), inns.get()};

    carc_setup setup;
    check(carc_setup_default(&setup), nullptr, "carc_setup_default");
    setup.catalogs = catalogs;
    setup.catalog_count = 3;
    setup.players = 3;
    setup.seed = seed;
    setup.rules.abbots = 1;

    carc_game *raw = nullptr;
    carc_error *err = nullptr;
    check(carc_game_new(&setup, &raw, &err), err, "carc_game_new");
    const Game game(raw);

    // A bot that picks by number needs only the count: apply_legal answers the next one.
    std::mt19937_64 random(seed);
    std::size_t count = 0;
    check(carc_game_legal_action_count(game.get(), &count), nullptr, "carc_game_legal_action_count");
    while (count > 0) {
        const std::size_t pick = random() % count;
        check(carc_game_apply_legal(game.get(), pick, &count, &err), err, "carc_game_apply_legal");
        print_events(game.get());
    }

    std::vector<std::uint32_t> scores(CARC_MAX_PLAYERS);
    std::size_t players = 0;
    check(carc_game_scores(game.get(), scores.data(), scores.size(), &players), nullptr, "carc_game_scores");
    std::uint8_t winners = 0;
    check(carc_game_leaders(game.get(), &winners), nullptr, "carc_game_leaders");
    for (std::size_t p = 0; p < players; ++p) {
        std::printf("player %zu: %u point%s%s\n", p, scores[p], scores[p] == 1 ? "" : "s",
                    (winners >> p) & 1 ? " (winner)" : "");
    }
    return 0;
} catch (const std::exception &error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 1;
}
