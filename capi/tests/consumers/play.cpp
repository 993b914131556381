// play.cpp: the C++17 twin of play.c, with RAII handles: the same games, checks and lines.

// Usage: play [GAMES [CONFIG]], as play.c: GAMES games (seeds 1, 2, ...) of every
// configuration, or of CONFIG alone; one line per game, choices by splitmix64 seeded with the
// game's seed. A failed call or an inconsistency throws; main prints it and exits with 1.

#include <carcassonne.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

// Field by field, at global scope so that ADL finds them for these C types (std::find
// included): padding bytes are not part of the contract.
static bool operator==(const carc_pos& a, const carc_pos& b) { return a.x == b.x && a.y == b.y; }

static bool operator!=(const carc_pos& a, const carc_pos& b) { return !(a == b); }

static bool operator==(const carc_segment_ref& a, const carc_segment_ref& b) {
  return a.pos == b.pos && a.segment == b.segment;
}

static bool operator==(const carc_placed_figure& a, const carc_placed_figure& b) {
  return a.player == b.player && a.figure == b.figure && a.pos == b.pos &&
         a.segment == b.segment;
}

static bool operator==(const carc_action& a, const carc_action& b) {
  return a.kind == b.kind && a.figure == b.figure && a.pos == b.pos && a.tile == b.tile &&
         a.rotation == b.rotation && a.segment == b.segment;
}

static bool operator==(const carc_feature_score& a, const carc_feature_score& b) {
  return a.kind == b.kind && a.pos == b.pos && a.segment == b.segment &&
         a.complete == b.complete && a.farmers == b.farmers && a.scorers == b.scorers &&
         a.reason == b.reason && a.modifier == b.modifier && a.tiles == b.tiles &&
         a.pennants == b.pennants && a.cities == b.cities && a.points == b.points;
}

static bool operator==(const carc_event& a, const carc_event& b) {
  return a.kind == b.kind && a.player == b.player && a.winners == b.winners &&
         a.tile == b.tile && a.pos == b.pos && a.rotation == b.rotation &&
         a.segment == b.segment && a.figure == b.figure && a.score == b.score;
}

namespace {

// Late enough that the board has features and figures, early enough that every game gets there.
constexpr uint32_t kCloneAt = 40;

struct Config {
  std::string name;
  std::vector<std::string> sets;
  uint8_t players;
  carc_rules rules;
  // When set, the first game comes from this JSON setup (with `<seed>}` appended) instead of
  // carc_game_new; the fields above say what it must amount to.
  const char* setup_json_head;
};

const std::vector<Config>& configs() {
  static const std::vector<Config> all = {
      {"base_2p",
       {"base"},
       2,
       {1, CARC_FARM_SCORING_PER_FIELD, 0, CARC_UNFINISHED_MARKS_ZERO, 0},
       nullptr},
      {"base_c2_3p_abbots",
       {"base_c2"},
       3,
       {1, CARC_FARM_SCORING_PER_FIELD, 0, CARC_UNFINISHED_MARKS_ZERO, 1},
       nullptr},
      {"river_base_4p_city4",
       {"river", "base"},
       4,
       {1, CARC_FARM_SCORING_PER_CITY_4, 0, CARC_UNFINISHED_MARKS_ZERO, 0},
       nullptr},
      {"base_ic_6p_tiny_normal",
       {"base", "inns_and_cathedrals"},
       6,
       {1, CARC_FARM_SCORING_PER_FIELD, 1, CARC_UNFINISHED_MARKS_NORMAL, 0},
       nullptr},
      {"river_c2_ic_5p_abbots_once",
       {"river", "base_c2", "inns_and_cathedrals"},
       5,
       {1, CARC_FARM_SCORING_PER_FIELD_ONCE, 0, CARC_UNFINISHED_MARKS_ZERO, 1},
       nullptr},
      {"base_ic_cathars_4p_city4",
       {"base", "inns_and_cathedrals", "cathars"},
       4,
       {1, CARC_FARM_SCORING_PER_CITY_4, 0, CARC_UNFINISHED_MARKS_ZERO, 0},
       nullptr},
      {"base_traders_3p",
       {"base", "traders_and_builders"},
       3,
       {1, CARC_FARM_SCORING_PER_FIELD, 0, CARC_UNFINISHED_MARKS_ZERO, 0},
       nullptr},
      {"base_c2_hills_2p_abbots",
       {"base_c2", "hills_and_sheep"},
       2,
       {1, CARC_FARM_SCORING_PER_FIELD, 0, CARC_UNFINISHED_MARKS_ZERO, 1},
       nullptr},
      {"base_king_robber_3p",
       {"base", "king_and_robber"},
       3,
       {1, CARC_FARM_SCORING_PER_FIELD, 0, CARC_UNFINISHED_MARKS_ZERO, 0},
       nullptr},
      {"base_cult_2p_abbots",
       {"base", "cult"},
       2,
       {1, CARC_FARM_SCORING_PER_FIELD, 0, CARC_UNFINISHED_MARKS_ZERO, 1},
       nullptr},
      {"river_ii_base_ic_3p",
       {"river_ii", "base", "inns_and_cathedrals"},
       3,
       {1, CARC_FARM_SCORING_PER_FIELD, 0, CARC_UNFINISHED_MARKS_ZERO, 0},
       nullptr},
      {"every_set_6p_abbots",
       {"river", "base", "inns_and_cathedrals", "cathars", "traders_and_builders",
        "hills_and_sheep", "king_and_robber", "cult"},
       6,
       {1, CARC_FARM_SCORING_PER_FIELD, 0, CARC_UNFINISHED_MARKS_ZERO, 1},
       nullptr},
      {"ic_base_3p_no_farmers_json",
       {"inns_and_cathedrals", "base"},
       3,
       {0, CARC_FARM_SCORING_PER_FIELD, 0, CARC_UNFINISHED_MARKS_ZERO, 0},
       R"({"tilesets": ["inns_and_cathedrals", "base"], "players": 3, )"
       R"("options": {"farmers": false}, "seed": )"},
  };
  return all;
}

// ----- failing loudly -----

class Failure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What the program is doing, so a failure names the game and step it happened in.
std::string where = "start";

template <typename... Parts>
std::string str(const Parts&... parts) {
  std::ostringstream out;
  (out << ... << parts);
  return out.str();
}

[[noreturn]] void fail(const std::string& why) { throw Failure(where + ": " + why); }

void expect(bool ok, const char* why) {
  if (!ok) fail(why);
}

std::string result_name(uint32_t code) {
  const char* name = carc_result_name(code);
  return name != nullptr ? name : "unknown result code " + std::to_string(code);
}

void check(carc_result code, const char* call) {
  if (code != CARC_RESULT_OK) fail(str(call, " returned ", result_name(code)));
}

struct Free {
  void operator()(carc_game* game) const noexcept { carc_game_free(game); }
  void operator()(carc_catalog* catalog) const noexcept { carc_catalog_free(catalog); }
  void operator()(carc_error* err) const noexcept { carc_error_free(err); }
};

using GamePtr = std::unique_ptr<carc_game, Free>;
using CatalogPtr = std::unique_ptr<carc_catalog, Free>;
using ErrorPtr = std::unique_ptr<carc_error, Free>;

// Runs a call that explains its failures through a carc_error, which is freed either way.
template <typename Call>
void check_err(const char* call, Call&& run) {
  carc_error* raw = nullptr;
  const carc_result code = run(&raw);
  const ErrorPtr err(raw);
  if (code != CARC_RESULT_OK) {
    const char* message = carc_error_message(err.get());
    fail(str(call, " returned ", result_name(code), ": ",
             message != nullptr ? message : "(no error object)"));
  }
}

// ----- caller buffers -----

// Lists into `items`, reusing its allocation: the call with the room it has (none the first
// time, which is the size query) and, after BUFFER_TOO_SMALL, once more with the room asked for.
template <typename T, typename Call>
void fill(std::vector<T>& items, const char* call, Call&& run) {
  items.resize(items.capacity());
  size_t count = 0;
  carc_result code = run(items.empty() ? nullptr : items.data(), items.size(), &count);
  if (code == CARC_RESULT_BUFFER_TOO_SMALL) {
    if (count <= items.size())
      fail(str(call, ": BUFFER_TOO_SMALL asked for ", count, " items with room for ",
               items.size()));
    items.resize(count);
    code = run(items.data(), items.size(), &count);
  }
  check(code, call);
  items.resize(count);
}

template <typename T, typename Call>
std::vector<T> list(const char* call, Call&& run) {
  std::vector<T> items;
  fill(items, call, std::forward<Call>(run));
  return items;
}

// Text by its size query, then into a string of that size; the NUL is dropped.
template <typename Call>
std::string text(const char* call, Call&& run) {
  size_t size = 0;
  const carc_result code = run(nullptr, 0, &size);
  if (code != CARC_RESULT_BUFFER_TOO_SMALL || size == 0)
    fail(str(call, ": the size query returned ", result_name(code)));
  std::string out(size, 'Z');
  size_t written = 0;
  check(run(out.data(), out.size(), &written), call);
  if (written != size || out.back() != '\0' || std::strlen(out.c_str()) != size - 1)
    fail(str(call, " wrote ", written, " bytes of ", size, " or misplaced the NUL"));
  out.pop_back();
  return out;
}

// ----- handles -----

CatalogPtr builtin(const std::string& name) {
  carc_catalog* raw = nullptr;
  check_err("carc_catalog_builtin",
            [&](carc_error** err) { return carc_catalog_builtin(name.c_str(), &raw, err); });
  return CatalogPtr(raw);
}

class Game {
 public:
  static Game create(const carc_setup& setup) {
    return make("carc_game_new", [&](carc_game** out, carc_error** err) {
      return carc_game_new(&setup, out, err);
    });
  }

  static Game from_json(const std::string& json) {
    return make("carc_game_new_json", [&](carc_game** out, carc_error** err) {
      return carc_game_new_json(json.c_str(), out, err);
    });
  }

  static Game load(const std::string& json) {
    return make("carc_game_load_json", [&](carc_game** out, carc_error** err) {
      return carc_game_load_json(json.c_str(), out, err);
    });
  }

  Game clone() const {
    carc_game* raw = nullptr;
    check(carc_game_clone(get(), &raw), "carc_game_clone");
    return Game(GamePtr(raw));
  }

  Game restarted(uint64_t seed) const {
    carc_game* raw = nullptr;
    check(carc_game_restarted(get(), seed, &raw), "carc_game_restarted");
    return Game(GamePtr(raw));
  }

  carc_phase phase() const { return value<carc_phase>("carc_game_phase", carc_game_phase); }
  uint16_t drawn_tile() const {
    return value<uint16_t>("carc_game_drawn_tile", carc_game_drawn_tile);
  }
  carc_pos placed_pos() const {
    return value<carc_pos>("carc_game_placed_pos", carc_game_placed_pos);
  }
  uint8_t players() const { return value<uint8_t>("carc_game_players", carc_game_players); }
  uint8_t current_player() const {
    return value<uint8_t>("carc_game_current_player", carc_game_current_player);
  }
  bool is_over() const { return value<uint8_t>("carc_game_is_over", carc_game_is_over) != 0; }
  uint64_t seed() const { return value<uint64_t>("carc_game_seed", carc_game_seed); }
  carc_rules rules() const { return value<carc_rules>("carc_game_rules", carc_game_rules); }
  size_t tile_type_count() const {
    return value<size_t>("carc_game_tile_type_count", carc_game_tile_type_count);
  }
  carc_tile_info tile_info(uint16_t tile) const {
    return value<carc_tile_info>("carc_game_tile_info", carc_game_tile_info, tile);
  }
  carc_segment_info tile_segment(uint16_t tile, uint8_t segment) const {
    return value<carc_segment_info>("carc_game_tile_segment", carc_game_tile_segment, tile,
                                    segment);
  }
  uint16_t tile_by_id(const char* id) const {
    return value<uint16_t>("carc_game_tile_by_id", carc_game_tile_by_id, id);
  }
  uint32_t tiles_left() const {
    return value<uint32_t>("carc_game_tiles_left", carc_game_tiles_left);
  }
  uint32_t discarded() const {
    return value<uint32_t>("carc_game_discarded", carc_game_discarded);
  }
  bool drawable(uint16_t tile) const {
    const auto flag = value<uint8_t>("carc_game_drawable", carc_game_drawable, tile);
    expect(flag <= 1, "a flag that is neither 0 nor 1");
    return flag != 0;
  }
  uint8_t leaders() const { return value<uint8_t>("carc_game_leaders", carc_game_leaders); }
  carc_supply supply(uint8_t player) const {
    return value<carc_supply>("carc_game_supply", carc_game_supply, player);
  }
  // ABI 1.9: builders, pigs and shepherds in hand; the flock's bag; the tiles under hills.
  carc_special_supply special_supply(uint8_t player) const {
    return value<carc_special_supply>("carc_game_special_supply", carc_game_special_supply,
                                      player);
  }
  carc_sheep_bag sheep_bag() const {
    return value<carc_sheep_bag>("carc_game_sheep_bag", carc_game_sheep_bag);
  }
  uint32_t hidden_tiles() const {
    return value<uint32_t>("carc_game_hidden_tiles", carc_game_hidden_tiles);
  }
  bool is_second_turn() const {
    const auto flag = value<uint8_t>("carc_game_is_second_turn", carc_game_is_second_turn);
    expect(flag <= 1, "a flag that is neither 0 nor 1");
    return flag != 0;
  }
  carc_segment_state segment(carc_pos pos, uint8_t segment) const {
    return value<carc_segment_state>("carc_game_segment", carc_game_segment, pos, segment);
  }
  carc_feature_info feature(carc_pos pos, uint8_t segment) const {
    return value<carc_feature_info>("carc_game_feature", carc_game_feature, pos, segment);
  }

  // The tile at `pos`, or none for an empty cell; any other failure throws.
  std::optional<carc_placement> tile_at(carc_pos pos) const {
    carc_placement out{};
    const carc_result code = carc_game_tile_at(get(), pos, &out);
    if (code == CARC_RESULT_NOT_AVAILABLE) return std::nullopt;
    check(code, "carc_game_tile_at");
    return out;
  }

  // The two lists read at every step fill the caller's vectors, so their room is reused.
  void legal_actions(std::vector<carc_action>& into) const {
    fill(into, "carc_game_legal_actions", [&](carc_action* buf, size_t cap, size_t* count) {
      return carc_game_legal_actions(get(), buf, cap, count);
    });
  }
  void last_events(std::vector<carc_event>& into) const {
    fill(into, "carc_game_last_events", [&](carc_event* buf, size_t cap, size_t* count) {
      return carc_game_last_events(get(), buf, cap, count);
    });
  }

  std::vector<carc_action> actions() const {
    return list<carc_action>("carc_game_actions", [&](carc_action* buf, size_t cap, size_t* n) {
      return carc_game_actions(get(), buf, cap, n);
    });
  }
  std::vector<carc_placement> placements() const {
    return list<carc_placement>("carc_game_placements",
                                [&](carc_placement* buf, size_t cap, size_t* n) {
                                  return carc_game_placements(get(), buf, cap, n);
                                });
  }
  std::vector<carc_placed_figure> figures() const {
    return list<carc_placed_figure>("carc_game_figures",
                                    [&](carc_placed_figure* buf, size_t cap, size_t* n) {
                                      return carc_game_figures(get(), buf, cap, n);
                                    });
  }
  std::vector<carc_flock> flocks() const {
    return list<carc_flock>("carc_game_flocks", [&](carc_flock* buf, size_t cap, size_t* n) {
      return carc_game_flocks(get(), buf, cap, n);
    });
  }
  std::vector<carc_pos> frontier() const {
    return list<carc_pos>("carc_game_frontier", [&](carc_pos* buf, size_t cap, size_t* n) {
      return carc_game_frontier(get(), buf, cap, n);
    });
  }
  std::vector<uint16_t> remaining() const {
    return list<uint16_t>("carc_game_remaining_copies", [&](uint16_t* buf, size_t cap, size_t* n) {
      return carc_game_remaining_copies(get(), buf, cap, n);
    });
  }
  size_t title_count() const {
    size_t count = 0;
    check(carc_game_title_count(get(), &count), "carc_game_title_count");
    return count;
  }
  carc_title_info title_info(uint8_t title) const {
    carc_title_info info{};
    check(carc_game_title_info(get(), title, &info), "carc_game_title_info");
    return info;
  }
  size_t token_kind_count() const {
    size_t count = 0;
    check(carc_game_token_kind_count(get(), &count), "carc_game_token_kind_count");
    return count;
  }
  std::vector<uint32_t> tokens_held(uint8_t player) const {
    return list<uint32_t>("carc_game_tokens_held", [&](uint32_t* buf, size_t cap, size_t* n) {
      return carc_game_tokens_held(get(), player, buf, cap, n);
    });
  }
  std::vector<uint32_t> scores() const {
    return list<uint32_t>("carc_game_scores", [&](uint32_t* buf, size_t cap, size_t* n) {
      return carc_game_scores(get(), buf, cap, n);
    });
  }
  std::vector<carc_segment_ref> feature_segments(carc_pos pos, uint8_t segment) const {
    return list<carc_segment_ref>(
        "carc_game_feature_segments", [&](carc_segment_ref* buf, size_t cap, size_t* n) {
          return carc_game_feature_segments(get(), pos, segment, buf, cap, n);
        });
  }

  std::string setup_json() const {
    return text("carc_game_setup_json", [&](char* buf, size_t cap, size_t* size) {
      return carc_game_setup_json(get(), buf, cap, size);
    });
  }
  std::string save_json() const {
    return text("carc_game_save_json", [&](char* buf, size_t cap, size_t* size) {
      return carc_game_save_json(get(), buf, cap, size);
    });
  }

  size_t legal_action_count() const {
    return value<size_t>("carc_game_legal_action_count", carc_game_legal_action_count);
  }
  carc_action legal_action(size_t index) const {
    return value<carc_action>("carc_game_legal_action", carc_game_legal_action, index);
  }
  // Applies legal action number `index`; returns how many legal actions follow.
  size_t apply_legal(size_t index) {
    size_t next = 0;
    check_err("carc_game_apply_legal", [&](carc_error** err) {
      return carc_game_apply_legal(get(), index, &next, err);
    });
    return next;
  }

  void check_action(const carc_action& action) const {
    check_err("carc_game_check",
              [&](carc_error** err) { return carc_game_check(get(), &action, err); });
  }
  void apply(const carc_action& action) {
    check_err("carc_game_apply",
              [&](carc_error** err) { return carc_game_apply(get(), &action, err); });
  }

  // The result code and error of an action expected to be refused.
  std::pair<carc_result, ErrorPtr> try_apply(const carc_action& action) {
    carc_error* raw = nullptr;
    const carc_result code = carc_game_apply(get(), &action, &raw);
    return {code, ErrorPtr(raw)};
  }

  carc_game* get() const { return handle_.get(); }

 private:
  explicit Game(GamePtr handle) : handle_(std::move(handle)) {}

  template <typename Make>
  static Game make(const char* call, Make&& run) {
    carc_game* raw = nullptr;
    check_err(call, [&](carc_error** err) { return run(&raw, err); });
    return Game(GamePtr(raw));
  }

  template <typename T, typename Fn, typename... Args>
  T value(const char* call, Fn fn, Args... args) const {
    T out{};
    check(fn(get(), args..., &out), call);
    return out;
  }

  GamePtr handle_;
};

// ----- small helpers -----

// splitmix64: the generator the Rust test replays.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
  }

 private:
  uint64_t state_;
};

uint64_t fnv1a64(const std::string& text) {
  uint64_t hash = 0xcbf29ce484222325u;
  for (const unsigned char byte : text) {
    hash ^= byte;
    hash *= 0x100000001b3u;
  }
  return hash;
}

std::string describe(carc_pos pos) { return str("(", pos.x, ",", pos.y, ")"); }

// ----- what the program expects of a game, built from its events -----

// The most token kinds a game declares (the library's MAX_TOKENS).
constexpr size_t kMaxTokenKinds = 8;

struct Tally {
  uint8_t players = 0;
  std::array<uint32_t, CARC_MAX_PLAYERS> scored{};
  // Tokens taken, by player and kind.
  std::array<std::array<uint32_t, kMaxTokenKinds>, CARC_MAX_PLAYERS> tokens{};
  // By title: its holder (-1: nobody) and the tiles of the feature that won it.
  std::array<int, kMaxTokenKinds> title_holder = [] {
    std::array<int, kMaxTokenKinds> none{};
    none.fill(-1);
    return none;
  }();
  std::array<uint32_t, kMaxTokenKinds> title_largest{};
  std::vector<carc_supply> start_supply;
  std::vector<carc_special_supply> start_special;  // ABI 1.9
  carc_sheep_bag start_bag{};                      // the flock's full bag
  uint32_t hidden = 0;                             // tiles hidden under hills
  std::vector<carc_placed_figure> figures;         // in placement order
  uint32_t placed = 0;                      // tiles placed after the start tile
  uint32_t drawn = 0, discards = 0, start_left = 0;
  uint16_t last_drawn = 0;
  carc_pos last_placed{};
  unsigned game_overs = 0;
  uint8_t winners = 0;
};

// Everything carc_game_segment, carc_game_feature and carc_game_feature_segments say about a
// segment must agree with each other and with the tile types' printed marks.
void check_segment(const Game& game, carc_pos pos, uint8_t segment, uint16_t tile) {
  const carc_segment_state state = game.segment(pos, segment);
  const carc_segment_info printed = game.tile_segment(tile, segment);
  if (state.kind != printed.kind)
    fail(str("segment ", unsigned(segment), " of tile ", tile, " has kind ", state.kind,
             " on the board, ", printed.kind, " printed"));
  const carc_feature_info feature = game.feature(pos, segment);
  expect(feature.id == state.feature && feature.kind == state.kind,
         "carc_game_feature and carc_game_segment disagree");

  // The leaders are the players with the most strength (a big follower is 2, a
  // builder, pig or shepherd 0).
  uint32_t by_player = 0;
  const uint32_t most = *std::max_element(std::begin(feature.strength_by_player),
                                          std::end(feature.strength_by_player));
  uint8_t strongest = 0;
  for (unsigned p = 0; p < CARC_MAX_PLAYERS; p++) {
    by_player += feature.figures_by_player[p];
    expect(feature.strength_by_player[p] <= 2 * feature.figures_by_player[p],
           "a player's strength does not match their figures");
    if (most > 0 && feature.strength_by_player[p] == most) strongest |= uint8_t(1u << p);
  }
  // A declared tie-break (a follower on a hill) may narrow a tie to some of the strongest.
  expect((feature.leaders & ~strongest) == 0 && (feature.leaders != 0) == (strongest != 0),
         "a feature's leaders are not among its strongest players");
  expect(by_player == feature.figures, "a feature's figures do not add up by player");
  expect(feature.leaders == 0 || feature.figures > 0, "a feature has leaders without figures");
  if (feature.kind == CARC_SEGMENT_KIND_CITY || feature.kind == CARC_SEGMENT_KIND_ROAD)
    expect(feature.complete == (feature.open_edges == 0),
           "a city or road is complete with open edges, or open without");

  const std::vector<carc_segment_ref> refs = game.feature_segments(pos, segment);
  const carc_segment_ref self{pos, segment};
  expect(std::find(refs.begin(), refs.end(), self) != refs.end(),
         "a segment is missing from its own feature's segments");
  uint32_t standing = 0, pennants = 0;
  uint8_t marks = 0;
  std::vector<carc_pos> cells;
  for (const carc_segment_ref& ref : refs) {
    const carc_segment_state other = game.segment(ref.pos, ref.segment);
    if (other.feature != feature.id)
      fail(str(describe(ref.pos), "/", unsigned(ref.segment), " is listed in feature ",
               feature.id, " but belongs to ", other.feature));
    standing += other.has_figure;
    const std::optional<carc_placement> placement = game.tile_at(ref.pos);
    expect(placement.has_value(), "a feature segment lies on an empty cell");
    const uint8_t segment_marks = game.tile_segment(placement->tile, ref.segment).marks;
    marks |= segment_marks;
    pennants += (segment_marks & CARC_MARK_PENNANT) != 0;
    if (std::find(cells.begin(), cells.end(), ref.pos) == cells.end()) cells.push_back(ref.pos);
  }
  expect(standing == feature.figures, "the figures on a feature's segments are not its figures");
  expect(feature.inn == ((marks & CARC_MARK_INN) != 0) &&
             feature.cathedral == ((marks & CARC_MARK_CATHEDRAL) != 0),
         "a feature's inn or cathedral flag disagrees with its segments' marks");
  if (feature.kind == CARC_SEGMENT_KIND_CITY)
    expect(pennants == feature.pennants, "a city's pennants disagree with its segments' marks");
  if (feature.kind != CARC_SEGMENT_KIND_MONASTERY && feature.kind != CARC_SEGMENT_KIND_GARDEN)
    expect(cells.size() == feature.tiles, "a feature's tiles are not the cells it lies on");
}

void check_placed_tile(const Game& game, const carc_event& event, const Tally& tally) {
  const std::optional<carc_placement> placement = game.tile_at(event.pos);
  expect(placement.has_value(), "carc_game_tile_at finds no tile where TILE_PLACED put one");
  if (placement->pos != event.pos || placement->tile != event.tile ||
      placement->rotation != event.rotation)
    fail(str("TILE_PLACED says tile ", event.tile, " at ", describe(event.pos), " turned ",
             event.rotation, ", carc_game_tile_at says ", placement->tile, " turned ",
             placement->rotation));
  expect(placement->order == tally.placed, "a placed tile's order is not its turn");
  const carc_tile_info info = game.tile_info(placement->tile);
  for (unsigned dir = 0; dir < 4; dir++)
    expect(placement->edges[dir] == info.edges[(dir + 4 - placement->rotation / 90) % 4],
           "a placed tile's edges are not its printed edges turned");

  const std::vector<carc_placement> all = game.placements();
  expect(all.size() == tally.placed + 1u, "the placements are not the tiles placed");
  expect(all.back().pos == placement->pos && all.back().tile == placement->tile &&
             all.back().rotation == placement->rotation && all.back().order == placement->order,
         "the last placement is not the tile just placed");

  for (const carc_pos cell : game.frontier()) {
    expect(!game.tile_at(cell).has_value(), "a frontier cell holds a tile");
    const std::array<carc_pos, 4> around = {{{cell.x, int16_t(cell.y + 1)},
                                             {int16_t(cell.x + 1), cell.y},
                                             {cell.x, int16_t(cell.y - 1)},
                                             {int16_t(cell.x - 1), cell.y}}};
    expect(std::any_of(around.begin(), around.end(),
                       [&](carc_pos next) { return game.tile_at(next).has_value(); }),
           "a frontier cell has no neighbour");
  }

  for (uint8_t segment = 0; segment < info.segment_count; segment++)
    check_segment(game, placement->pos, segment, placement->tile);
}

void apply_events(const Game& game, const std::vector<carc_event>& events, Tally& tally) {
  for (size_t i = 0; i < events.size(); i++) {
    const carc_event& e = events[i];
    const bool last = i + 1 == events.size();
    switch (e.kind) {
      case CARC_EVENT_KIND_TILE_DRAWN:
        tally.drawn++;
        tally.last_drawn = e.tile;
        break;
      case CARC_EVENT_KIND_TILE_DISCARDED:
        tally.discards++;
        break;
      case CARC_EVENT_KIND_TILE_PLACED:
        tally.placed++;
        tally.last_placed = e.pos;
        check_placed_tile(game, e, tally);
        break;
      case CARC_EVENT_KIND_FIGURE_PLACED:
        tally.figures.push_back({e.player, e.figure, e.pos, e.segment});
        break;
      case CARC_EVENT_KIND_ABBOT_RECALLED:
        break;
      case CARC_EVENT_KIND_FEATURE_SCORED:
        expect(e.score.scorers != 0, "a feature scored for nobody");
        for (unsigned p = 0; p < CARC_MAX_PLAYERS; p++) {
          if ((e.score.scorers >> p & 1) == 0) continue;
          expect(p < tally.players, "a player who is not at the table scored");
          tally.scored[p] += e.score.points;
        }
        break;
      case CARC_EVENT_KIND_FIGURE_RETURNED: {
        const carc_placed_figure back{e.player, e.figure, e.pos, e.segment};
        const auto found = std::find(tally.figures.begin(), tally.figures.end(), back);
        expect(found != tally.figures.end(), "FIGURE_RETURNED for a figure not on the board");
        tally.figures.erase(found);
        break;
      }
      case CARC_EVENT_KIND_TOKENS_TAKEN:
        expect(e.player < tally.players && e.declared < kMaxTokenKinds && e.score.points > 0 &&
                   e.score.scorers == 1u << e.player,
               "TOKENS_TAKEN names no player at the table, no kind, no token or other scorers");
        tally.tokens.at(e.player).at(e.declared) += e.score.points;
        break;
      case CARC_EVENT_KIND_TOKENS_SCORED:
        expect(e.declared < kMaxTokenKinds && e.score.scorers != 0,
               "TOKENS_SCORED names no kind or nobody");
        for (unsigned p = 0; p < tally.players; p++) {
          const uint32_t held = tally.tokens.at(p).at(e.declared);
          const bool scores = (e.score.scorers >> p & 1) != 0;
          expect(scores ? held == e.score.tiles : held < e.score.tiles,
                 "TOKENS_SCORED: the scorers do not hold the most tokens");
          if (scores) tally.scored[p] += e.score.points;
        }
        break;
      case CARC_EVENT_KIND_TITLE_TAKEN:
        expect(e.player < tally.players && e.declared < kMaxTokenKinds &&
                   e.score.tiles > tally.title_largest.at(e.declared),
               "TITLE_TAKEN names no player or title, or a feature no larger than the record");
        tally.title_holder.at(e.declared) = e.player;
        tally.title_largest.at(e.declared) = e.score.tiles;
        break;
      case CARC_EVENT_KIND_TITLE_SCORED:
        expect(e.declared < kMaxTokenKinds && tally.title_holder.at(e.declared) == e.player,
               "TITLE_SCORED for a player who does not hold the title");
        tally.scored.at(e.player) += e.score.points;
        break;
      case CARC_EVENT_KIND_TURN_STARTED:
        expect(last && game.current_player() == e.player,
               "TURN_STARTED is not the last event, or not for the current player");
        break;
      case CARC_EVENT_KIND_TILE_HIDDEN:
        tally.hidden++;
        break;
      case CARC_EVENT_KIND_SHEEP_DRAWN:
        expect(e.player < tally.players && e.tile >= 1 && e.tile <= 8,
               "SHEEP_DRAWN names no player at the table or a token of no sheep");
        break;
      case CARC_EVENT_KIND_WOLF_DRAWN:
        expect(e.player < tally.players, "WOLF_DRAWN names no player at the table");
        break;
      case CARC_EVENT_KIND_EXTRA_TURN:
        expect(i + 2 == events.size() && events[i + 1].kind == CARC_EVENT_KIND_TURN_STARTED &&
                   events[i + 1].player == e.player && game.is_second_turn(),
               "EXTRA_TURN is not followed by the same player's TURN_STARTED of a second turn");
        break;
      case CARC_EVENT_KIND_GAME_OVER:
        expect(last, "GAME_OVER is not the last event");
        tally.game_overs++;
        tally.winners = e.winners;
        break;
      default:
        fail(str("an event of unknown kind ", e.kind));
    }
  }
}

// The state the library reports must be what the events so far add up to.
void check_state(const Game& game, const Tally& tally) {
  const carc_phase phase = game.phase();
  if (phase == CARC_PHASE_PLACE)
    expect(game.drawn_tile() == tally.last_drawn, "the waiting tile is not the one drawn");
  else if (phase == CARC_PHASE_FIGURE)
    expect(game.placed_pos() == tally.last_placed, "the placed tile's cell is wrong");

  const uint32_t left = game.tiles_left();
  const uint32_t hidden = game.hidden_tiles();
  expect(hidden == tally.hidden, "the hidden tiles are not the TILE_HIDDEN events");
  expect(left + hidden + tally.drawn == tally.start_left && game.discarded() == tally.discards,
         "the tiles left, hidden or discarded do not match the draws and discards");
  const std::vector<uint16_t> copies = game.remaining();
  uint32_t in_bag = 0;
  for (const uint16_t n : copies) in_bag += n;
  // ABI 1.9: the hidden tiles are among the remaining copies, never drawn.
  expect(in_bag == left + hidden, "the remaining copies do not add up to the tiles left");
  if (phase == CARC_PHASE_DRAW) {
    bool any = false;
    for (size_t tile = 0; tile < copies.size(); tile++) {
      const bool drawable = game.drawable(static_cast<uint16_t>(tile));
      expect(!drawable || copies[tile] > 0, "a tile is drawable with no copy left");
      any = any || drawable;
    }
    expect(any, "nothing is drawable with tiles in the bag");
  }

  const std::vector<carc_placed_figure> standing = game.figures();
  expect(standing == tally.figures,
         "the figures on the board are not the events' (or not in placement order)");
  std::array<std::array<unsigned, 6>, CARC_MAX_PLAYERS> used{};
  for (const carc_placed_figure& figure : standing) {
    used.at(figure.player).at(figure.figure)++;
    const carc_segment_state state = game.segment(figure.pos, figure.segment);
    expect(state.has_figure && state.player == figure.player && state.figure == figure.figure,
           "carc_game_segment does not show a figure on the board");
  }
  for (uint8_t p = 0; p < tally.players; p++) {
    const carc_supply supply = game.supply(p);
    const carc_supply& start = tally.start_supply.at(p);
    expect(supply.followers + used[p][CARC_FIGURE_FOLLOWER] == start.followers &&
               supply.big_followers + used[p][CARC_FIGURE_BIG_FOLLOWER] == start.big_followers &&
               supply.abbots + used[p][CARC_FIGURE_ABBOT] == start.abbots,
           "a supply does not add up with the figures on the board");
    const carc_special_supply special = game.special_supply(p);
    const carc_special_supply& had = tally.start_special.at(p);
    expect(special.builders + used[p][CARC_FIGURE_BUILDER] == had.builders &&
               special.pigs + used[p][CARC_FIGURE_PIG] == had.pigs &&
               special.shepherds + used[p][CARC_FIGURE_SHEPHERD] == had.shepherds,
           "the special figures do not add up with those on the board");
  }

  // ABI 1.9: every sheep token is in the bag or beside a shepherd on the board.
  const carc_sheep_bag bag = game.sheep_bag();
  expect(bag.wolves == tally.start_bag.wolves, "a wolf left the bag");
  const std::vector<carc_flock> flocks = game.flocks();
  size_t shepherds = 0;
  for (uint8_t p = 0; p < tally.players; p++) shepherds += used[p][CARC_FIGURE_SHEPHERD];
  expect(flocks.size() == shepherds, "not one flock per shepherd on the board");
  for (size_t n = 0; n < 8; n++) {
    unsigned tokens = bag.sheep[n];
    for (const carc_flock& flock : flocks) tokens += flock.tokens[n];
    expect(tokens == tally.start_bag.sheep[n], "a sheep token is neither in the bag nor a flock");
  }
  for (const carc_flock& flock : flocks) {
    uint32_t sheep = 0;
    for (uint32_t n = 0; n < 8; n++) sheep += (n + 1) * flock.tokens[n];
    expect(sheep == flock.sheep, "a flock's sheep are not its tokens'");
  }

  const size_t kinds = game.token_kind_count();
  expect(kinds <= kMaxTokenKinds, "more token kinds than a game holds");
  for (uint8_t p = 0; p < tally.players; p++) {
    const std::vector<uint32_t> held = game.tokens_held(p);
    expect(held.size() == kinds, "not one token count per kind");
    expect(std::equal(held.begin(), held.end(), tally.tokens.at(p).begin()),
           "the tokens held are not the sum of the TOKENS_TAKEN events");
  }

  const size_t titles = game.title_count();
  expect(titles <= kMaxTokenKinds, "more titles than a game holds");
  for (size_t k = 0; k < titles; k++) {
    const carc_title_info title = game.title_info(static_cast<uint8_t>(k));
    const int holder = title.has_holder != 0 ? title.holder : -1;
    expect(holder == tally.title_holder.at(k) && title.largest == tally.title_largest.at(k),
           "a title's holder or record is not what the events say");
  }

  const std::vector<uint32_t> points = game.scores();
  expect(points.size() == tally.players, "not one score per player");
  expect(std::equal(points.begin(), points.end(), tally.scored.begin()),
         "the scores are not the sum of the FEATURE_SCORED events");
}

// ----- making games -----

Game new_game(const Config& config, uint64_t seed) {
  std::optional<Game> made;
  if (config.setup_json_head != nullptr) {
    made = Game::from_json(config.setup_json_head + std::to_string(seed) + "}");
  } else {
    std::vector<CatalogPtr> owned;
    std::vector<const carc_catalog*> catalogs;
    for (const std::string& name : config.sets) {
      owned.push_back(builtin(name));
      catalogs.push_back(owned.back().get());
    }
    carc_setup setup{};
    check(carc_setup_default(&setup), "carc_setup_default");
    setup.catalogs = catalogs.data();
    setup.catalog_count = catalogs.size();
    setup.players = config.players;
    setup.seed = seed;
    setup.rules = config.rules;
    made = Game::create(setup);
    // The game copied what it needs: `owned` frees the catalogs here, and that must not matter.
  }
  // The setup JSON makes the same game again.
  const std::string setup = made->setup_json();
  expect(Game::from_json(setup).setup_json() == setup, "the setup JSON round trip differs");
  return std::move(*made);
}

// A fresh game must look fresh, and be what its configuration asked for.
Tally check_fresh(const Config& config, const Game& game, uint64_t seed) {
  expect(game.players() == config.players && game.current_player() == 0 && !game.is_over() &&
             game.seed() == seed && game.phase() == CARC_PHASE_DRAW,
         "a new game is not at its start");
  const carc_rules rules = game.rules();
  expect(rules.farmers == config.rules.farmers &&
             rules.farm_scoring == config.rules.farm_scoring &&
             rules.tiny_city == config.rules.tiny_city &&
             rules.inn_cathedral_unfinished == config.rules.inn_cathedral_unfinished &&
             rules.abbots == config.rules.abbots,
         "the game's rules are not the configuration's");
  std::vector<carc_event> events;
  game.last_events(events);
  expect(events.empty() && game.actions().empty(), "a new game has events or actions");
  const std::vector<carc_placement> start = game.placements();
  expect(start.size() == 1 && start[0].pos == carc_pos{0, 0} && start[0].order == 0,
         "a new game is not its start tile at (0,0)");

  // Tile types are numbered across the sets in setup order.
  size_t first = 0;
  for (const std::string& name : config.sets) {
    const CatalogPtr catalog = builtin(name);
    carc_tileset_info info{};
    check(carc_catalog_info(catalog.get(), &info), "carc_catalog_info");
    for (uint16_t tile = 0; tile < info.tile_types; tile++) {
      carc_tile_info in_set{};
      check(carc_catalog_tile_info(catalog.get(), tile, &in_set), "carc_catalog_tile_info");
      const auto number = static_cast<uint16_t>(first + tile);
      const carc_tile_info in_game = game.tile_info(number);
      expect(std::strcmp(in_set.id, in_game.id) == 0 && in_set.count == in_game.count &&
                 in_set.segment_count == in_game.segment_count,
             "a set's tile is not the game's tile of that number");
      expect(game.tile_by_id(in_game.id) == number, "a tile id names another tile");
    }
    first += info.tile_types;
  }
  expect(game.tile_type_count() == first, "the game's tile types are not its sets'");
  expect(game.remaining().size() == first, "carc_game_remaining_copies is not per tile type");

  Tally tally;
  tally.players = game.players();
  tally.start_left = game.tiles_left();
  for (uint8_t p = 0; p < tally.players; p++) {
    tally.start_supply.push_back(game.supply(p));
    tally.start_special.push_back(game.special_supply(p));
  }
  tally.start_bag = game.sheep_bag();
  check_state(game, tally);
  return tally;
}

// ----- playing -----

bool belongs_to(carc_phase phase, carc_action_kind kind) {
  switch (phase) {
    case CARC_PHASE_DRAW:
      return kind == CARC_ACTION_KIND_DRAW;
    case CARC_PHASE_PLACE:
      return kind == CARC_ACTION_KIND_PLACE;
    case CARC_PHASE_FIGURE:
      return kind == CARC_ACTION_KIND_DEPLOY || kind == CARC_ACTION_KIND_RECALL_ABBOT ||
             kind == CARC_ACTION_KIND_SKIP;
    case CARC_PHASE_SHEEP:  // ABI 1.9: a token drawn for a flock
      return kind == CARC_ACTION_KIND_DRAW;
    case CARC_PHASE_FLOCK:
      return kind == CARC_ACTION_KIND_GROW_FLOCK || kind == CARC_ACTION_KIND_DRIVE_FLOCK;
    default:
      return false;
  }
}

// Picks legal[next() % count] from the list, and checks that the numbered view of the same
// list (carc_game_legal_action_count, carc_game_legal_action) agrees with it.
carc_action choose(const Game& game, SplitMix64& rng, std::vector<carc_action>& legal) {
  game.legal_actions(legal);
  expect(!legal.empty(), "no legal action in a game that is not over");
  expect(game.legal_action_count() == legal.size(), "the legal actions listed are not counted");
  const auto index = static_cast<size_t>(rng.next() % legal.size());
  expect(game.legal_action(index) == legal[index], "a legal action differs from its list entry");
  return legal[index];
}

// Plays to the end by number (carc_game_apply_legal), as a bot does, with the same choices
// legal[next() % count]; returns the actions applied.
uint32_t play_out(Game& game, SplitMix64& rng) {
  uint32_t steps = 0;
  for (size_t count = game.legal_action_count(); count > 0; steps++)
    count = game.apply_legal(static_cast<size_t>(rng.next() % count));
  expect(game.is_over(), "no legal action left in a game that is not over");
  return steps;
}

std::string play_game(const Config& config, Game& game, uint64_t seed) {
  Tally tally = check_fresh(config, game, seed);
  SplitMix64 rng(seed);
  std::optional<std::pair<Game, SplitMix64>> clone;
  std::vector<carc_action> legal;
  std::vector<carc_event> events;
  uint32_t steps = 0;
  for (;; steps++) {
    where = str("config=", config.name, " seed=", seed, " step=", steps);
    const carc_phase phase = game.phase();
    if (phase == CARC_PHASE_GAME_OVER) break;

    if (steps == kCloneAt) {
      clone.emplace(game.clone(), rng);
      std::vector<carc_event> theirs;
      game.last_events(events);
      clone->first.last_events(theirs);
      expect(events == theirs, "the clone's last events differ");
    }

    const carc_action action = choose(game, rng, legal);
    expect(std::all_of(legal.begin(), legal.end(),
                       [&](const carc_action& each) { return belongs_to(phase, each.kind); }),
           "a legal action of another phase");
    game.check_action(action);
    game.apply(action);

    game.last_events(events);
    // A skip before a flock's choice, and growing a flock, say nothing yet: the choice and the
    // token drawn next do (ABI 1.9).
    expect(!events.empty() || action.kind == CARC_ACTION_KIND_GROW_FLOCK ||
               (action.kind == CARC_ACTION_KIND_SKIP && game.phase() == CARC_PHASE_FLOCK),
           "an action without events");
    apply_events(game, events, tally);
    check_state(game, tally);
  }

  // The end: the GAME_OVER event, the winners, and a game that refuses to go on.
  expect(game.is_over() && tally.game_overs == 1 && tally.winners == game.leaders() &&
             game.tiles_left() == 0,
         "the game ended without one GAME_OVER naming the leaders, or with tiles left");
  game.legal_actions(legal);
  expect(legal.empty(), "legal actions after the game is over");
  carc_action skip{};
  skip.kind = CARC_ACTION_KIND_SKIP;
  const auto [code, err] = game.try_apply(skip);
  expect(code == CARC_RESULT_GAME_OVER && carc_error_code(err.get()) == code &&
             carc_error_message(err.get()) != nullptr,
         "an action after the end is not refused with GAME_OVER and a message");
  const std::vector<carc_action> actions = game.actions();
  expect(actions.size() == steps, "carc_game_actions does not count the actions applied");

  // Save, load, save again: the same text.
  const std::string saved = game.save_json();
  {
    const Game loaded = Game::load(saved);
    expect(loaded.save_json() == saved, "saving a loaded game gives another text");
    std::vector<carc_event> none;
    loaded.last_events(none);
    expect(none.empty(), "a loaded game has events");
    expect(loaded.actions() == actions, "the loaded game's actions differ");
    expect(loaded.scores() == game.scores(), "the loaded game scores differently");
  }

  // The clone, played on by number with the same choices, ends identically.
  expect(clone.has_value(), "the game ended before the clone was taken");
  where = str("config=", config.name, " seed=", seed, " clone");
  const uint32_t clone_steps = play_out(clone->first, clone->second);
  expect(kCloneAt + clone_steps == steps && clone->first.save_json() == saved,
         "the clone played on to another end");

  std::ostringstream line;
  line << "config=" << config.name << " seed=" << seed << " actions=" << steps << " scores=";
  for (uint8_t p = 0; p < tally.players; p++) line << (p == 0 ? "" : ",") << tally.scored[p];
  line << " winners=" << unsigned(tally.winners) << " save_fnv=" << std::hex << std::setw(16)
       << std::setfill('0') << fnv1a64(saved);
  return line.str();
}

// The first game of a configuration is made from its setup; the others restart the game
// before them with a new seed, as a self-play loop does.
void play_config(const Config& config, unsigned long games) {
  std::optional<Game> previous;
  for (unsigned long i = 0; i < games; i++) {
    const uint64_t seed = i + 1;
    where = str("config=", config.name, " seed=", seed, " setup");
    Game game = previous ? previous->restarted(seed) : new_game(config, seed);
    std::cout << play_game(config, game, seed) << std::endl;
    previous = std::move(game);
  }
}

// Every built-in set loads under its own name and some configuration plays it, so a set added
// to the library fails this program until it is played here too.
void check_builtins() {
  const size_t count = carc_builtin_count();
  expect(count > 0 && carc_builtin_name(count) == nullptr, "carc_builtin_name past the end");
  for (size_t i = 0; i < count; i++) {
    const char* name = carc_builtin_name(i);
    expect(name != nullptr, "a built-in set has no name");
    const CatalogPtr catalog = builtin(name);
    carc_tileset_info info{};
    check(carc_catalog_info(catalog.get(), &info), "carc_catalog_info");
    if (std::strcmp(info.id, name) != 0)
      fail(str("built-in set ", name, " calls itself ", info.id));
    const bool played = std::any_of(configs().begin(), configs().end(), [&](const Config& c) {
      return std::find(c.sets.begin(), c.sets.end(), name) != c.sets.end();
    });
    if (!played) fail(str("no configuration plays the built-in set ", name));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 3) {
    std::cerr << "usage: " << argv[0] << " [GAMES [CONFIG]]\n";
    return 2;
  }
  unsigned long games = 2;
  if (argc > 1) {
    char* end = nullptr;
    games = std::strtoul(argv[1], &end, 10);
    if (*argv[1] == '\0' || *end != '\0' || games == 0 || games > 1000) {
      std::cerr << argv[0] << ": GAMES must be a number from 1 to 1000, not " << argv[1] << "\n";
      return 2;
    }
  }
  const std::string only = argc > 2 ? argv[2] : "";
  try {
    expect(CARC_ABI_COMPATIBLE(), "the linked library's ABI is not the header's");
    check_builtins();
    bool played = false;
    for (const Config& config : configs()) {
      if (!only.empty() && only != config.name) continue;
      play_config(config, games);
      played = true;
    }
    if (!played) {
      std::cerr << argv[0] << ": no configuration is called " << only << "\n";
      return 2;
    }
    // Every handle made was freed: leak checkers cannot see a forgotten one, this count can.
    expect(carc_live_handles() == 0, "handles are still live at exit");
  } catch (const std::exception& error) {
    std::cout.flush();
    std::cerr << "play: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
