// random_game.cpp: the C ABI from C++, with handles owned by std::unique_ptr and failures
// turned into exceptions; two random players, one line per turn, the final scores.
//
//   cargo build --release -p carcassonne-capi
//   g++ -std=c++17 -Wall -Wextra -Iinclude capi/examples/random_game.cpp
//       target/release/libcarcassonne_capi.a -lpthread -ldl -lm -o random_game_cpp
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
    unsigned turns = 0;
    while (count > 0) {
        carc_action action;
        const std::size_t pick = random() % count;
        check(carc_game_legal_action(game.get(), pick, &action), nullptr, "carc_game_legal_action");
        if (action.kind == CARC_ACTION_KIND_PLACE) {
            std::printf("turn %u: a tile goes to (%d, %d)\n", ++turns, action.pos.x, action.pos.y);
        }
        check(carc_game_apply_legal(game.get(), pick, &count, &err), err, "carc_game_apply_legal");
    }

    std::vector<std::uint32_t> scores(CARC_MAX_PLAYERS);
    std::size_t players = 0;
    check(carc_game_scores(game.get(), scores.data(), scores.size(), &players), nullptr, "carc_game_scores");
    for (std::size_t p = 0; p < players; ++p) {
        std::printf("player %zu: %u points\n", p, scores[p]);
    }
    return 0;
} catch (const std::exception &error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 1;
}
