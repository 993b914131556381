/*
 * c_floor_bench.c: the C placement floor, the least work a compiled program can do to play a
 * random game of Carcassonne's tiles.
 *
 * What it plays. The 72 tiles of the base game (first edition, tilesets/base.toml, types A to
 * X): the start tile D lies at the centre of an empty board and the other 71 are shuffled.
 * Each tile in turn goes to a uniformly random legal placement, a (cell, rotation) pair where
 * the cell is empty, touches the board, and every edge equals the facing edge of its
 * neighbour; rotations that give the same edges count once. A tile that fits nowhere is left
 * out. There are no features, figures, scores, players or phases: only the edges.
 *
 * Why it is the floor. Any engine that plays random games of this deck must at least shuffle
 * the deck, find each tile's legal placements, pick one and record it. The `masked` loop does
 * that as cheaply as we know how: every empty cell beside the board keeps one byte saying what
 * each of its four sides must be, a table built once gives the rotations of each tile type
 * that fit each such byte, and a tile's placements are read from the cells beside the board
 * alone. Its time per game is what placement by itself costs, so an engine's time per whole
 * game (rules, features, figures and scoring included) divided into it says how close the
 * engine comes to the bare loop: benches/against-c-floor.sh reports that ratio.
 *
 * Three figures, each the median of REPEATS timed runs of GAMES games:
 *   shuffle72            shuffling a 71-tile deck and reading it (randomness alone; run for
 *                        100 times as many games, as it is fast)
 *   edges_random_fast    the game, reading the four neighbours for each cell and rotation
 *   edges_random_masked  the game with the per-cell byte and the fit table: the floor
 *
 * Build: cc -O2 -Wall -Wextra -o c_floor_bench benches/c_floor_bench.c
 * Run:   ./c_floor_bench [GAMES [REPEATS]]     (defaults 20000 and 7; REPEATS is 1 to 64)
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* What a side of a tile is, in two bits; 0 means "no tile there" in a cell's requirements. */
enum { NONE = 0, CITY = 1, ROAD = 2, FIELD = 3 };

/* Directions in the order the edges are written: north, east, south, west. */
enum { NORTH, EAST, SOUTH, WEST };

struct tile_type {
    char id;
    const char *edges; /* N, E, S, W: C city, R road, F field (tilesets/base.toml) */
    int count;         /* copies in the deck, the start tile's included */
};

static const struct tile_type BASE[] = {
    {'A', "FFRF", 2}, {'B', "FFFF", 4}, {'C', "CCCC", 1}, {'D', "CRFR", 4}, {'E', "CFFF", 5},
    {'F', "FCFC", 2}, {'G', "CFCF", 1}, {'H', "FCFC", 3}, {'I', "FCCF", 2}, {'J', "CRRF", 3},
    {'K', "CFRR", 3}, {'L', "CRRR", 3}, {'M', "CFFC", 2}, {'N', "CFFC", 3}, {'O', "CRRC", 2},
    {'P', "CRRC", 3}, {'Q', "CCFC", 1}, {'R', "CCFC", 3}, {'S', "CCRC", 2}, {'T', "CCRC", 1},
    {'U', "RFRF", 8}, {'V', "FFRR", 9}, {'W', "FRRR", 4}, {'X', "RRRR", 1},
};
#define TYPES ((int)(sizeof BASE / sizeof BASE[0]))
#define START_ID 'D'
#define SHUFFLED 71 /* 72 tiles less the start tile */

/* The board is a square of cells; the start lies at its centre, and 71 tiles can reach at
 * most 71 cells from it, so no cell beside the board is ever off the array. */
#define SIDE 160
#define CENTRE ((SIDE / 2) * SIDE + SIDE / 2)
_Static_assert(SIDE / 2 > SHUFFLED + 1, "the board holds every game");

static const int STEP[4] = {-SIDE, 1, SIDE, -1}; /* to the neighbour in each direction */

/* A tile as placed: the code of each side, side d in bits 2d and 2d+1. Never 0. */
typedef uint8_t sides_t;

static sides_t turned[TYPES][4]; /* the distinct rotations of each type */
static int rotations[TYPES];
static uint8_t fits[TYPES][256]; /* bit r: rotation r fits a cell with these requirements */
static int start_type;

/* The board of the game being played, cleared cell by cell between games. */
static sides_t board[SIDE * SIDE]; /* 0: empty */
static uint8_t needs[SIDE * SIDE];  /* an empty cell's requirements, as sides_t */
static uint8_t listed[SIDE * SIDE]; /* whether the cell is in the frontier */
static int slot[SIDE * SIDE];       /* where the cell is in the frontier */
static int frontier[4 * SHUFFLED + 4], frontier_size; /* the empty cells beside the board */
static int filled[SHUFFLED + 1], fills;               /* the cells with a tile */

/* Candidates of the current tile: cell and rotation (or the placed sides). */
static int cand_cell[4 * (4 * SHUFFLED + 4)];
static sides_t cand_sides[4 * (4 * SHUFFLED + 4)];

static uint64_t state;

static uint64_t next_random(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

/* A uniformly random number below n (n > 0), by multiplying rather than dividing. */
static int below(int n) { return (int)(((next_random() >> 32) * (uint64_t)n) >> 32); }

static int side_code(char c) { return c == 'C' ? CITY : c == 'R' ? ROAD : FIELD; }

static int side(sides_t tile, int dir) { return (tile >> (2 * dir)) & 3; }

static void prepare(void) {
    for (int t = 0; t < TYPES; t++) {
        if (BASE[t].id == START_ID) start_type = t;
        rotations[t] = 0;
        for (int r = 0; r < 4; r++) {
            /* Turned clockwise r quarter turns, side d shows what side d - r showed. */
            sides_t s = 0;
            for (int d = 0; d < 4; d++) s |= (sides_t)(side_code(BASE[t].edges[(d + 4 - r) % 4]) << (2 * d));
            int seen = 0;
            for (int q = 0; q < rotations[t]; q++) seen |= turned[t][q] == s;
            if (!seen) turned[t][rotations[t]++] = s;
        }
        for (int need = 0; need < 256; need++) {
            uint8_t mask = 0;
            for (int r = 0; r < rotations[t]; r++) {
                int ok = 1;
                for (int d = 0; d < 4; d++) {
                    int want = side((sides_t)need, d);
                    if (want != NONE && want != side(turned[t][r], d)) ok = 0;
                }
                mask |= (uint8_t)(ok << r);
            }
            fits[t][need] = mask;
        }
    }
}

static void shuffle(int *deck) {
    int n = 0;
    for (int t = 0; t < TYPES; t++)
        for (int k = 0; k < BASE[t].count - (t == start_type); k++) deck[n++] = t;
    for (int i = SHUFFLED - 1; i > 0; i--) {
        int j = below(i + 1), x = deck[i];
        deck[i] = deck[j];
        deck[j] = x;
    }
}

/* Forgets the last game: only the cells it touched. */
static void clear_board(void) {
    for (int i = 0; i < frontier_size; i++) {
        listed[frontier[i]] = 0;
        needs[frontier[i]] = 0;
    }
    for (int i = 0; i < fills; i++) board[filled[i]] = 0;
    frontier_size = fills = 0;
}

/* Puts `tile` on `cell`: the cell leaves the frontier, its empty neighbours join it, each told what the
 * side facing the tile must be. */
static void put(int cell, sides_t tile) {
    if (listed[cell]) {
        int last = frontier[--frontier_size];
        frontier[slot[cell]] = last;
        slot[last] = slot[cell];
        listed[cell] = 0;
        needs[cell] = 0;
    }
    board[cell] = tile;
    filled[fills++] = cell;
    for (int d = 0; d < 4; d++) {
        int next = cell + STEP[d];
        if (board[next]) continue;
        if (!listed[next]) {
            listed[next] = 1;
            slot[next] = frontier_size;
            frontier[frontier_size++] = next;
        }
        needs[next] |= (uint8_t)(side(tile, d) << (2 * ((d + 2) % 4)));
    }
}

/* One game, placements found by reading the neighbours. Returns the tiles placed. */
static int game_by_neighbours(long *legal) {
    int deck[SHUFFLED];
    shuffle(deck);
    clear_board();
    put(CENTRE, turned[start_type][0]);
    for (int i = 0; i < SHUFFLED; i++) {
        int t = deck[i], n = 0;
        for (int f = 0; f < frontier_size; f++) {
            int cell = frontier[f];
            /* What each side must be, and which sides have a neighbour at all. */
            unsigned want = 0, care = 0;
            for (int d = 0; d < 4; d++) {
                sides_t next = board[cell + STEP[d]];
                if (!next) continue;
                want |= (unsigned)side(next, (d + 2) % 4) << (2 * d);
                care |= 3u << (2 * d);
            }
            for (int r = 0; r < rotations[t]; r++) {
                sides_t s = turned[t][r];
                if ((s & care) == want) {
                    cand_cell[n] = cell;
                    cand_sides[n] = s;
                    n++;
                }
            }
        }
        *legal += n;
        if (n == 0) continue;
        int k = below(n);
        put(cand_cell[k], cand_sides[k]);
    }
    return fills;
}

/* One game, placements read from each frontier cell's requirements and the fit table: the floor.
 * Returns the tiles placed. */
static int game_by_table(long *legal) {
    int deck[SHUFFLED];
    shuffle(deck);
    clear_board();
    put(CENTRE, turned[start_type][0]);
    for (int i = 0; i < SHUFFLED; i++) {
        int t = deck[i], n = 0;
        for (int f = 0; f < frontier_size; f++) {
            int cell = frontier[f];
            unsigned mask = fits[t][needs[cell]];
            while (mask) {
                cand_cell[n] = cell;
                cand_sides[n] = turned[t][__builtin_ctz(mask)];
                n++;
                mask &= mask - 1;
            }
        }
        *legal += n;
        if (n == 0) continue;
        int k = below(n);
        put(cand_cell[k], cand_sides[k]);
    }
    return fills;
}

/* The shuffle alone: a checksum of the shuffled deck's order. */
static long shuffle_only(void) {
    int deck[SHUFFLED];
    long sum = 0;
    shuffle(deck);
    for (int i = 0; i < SHUFFLED; i++) sum += (long)deck[i] * (i + 1);
    return sum;
}

static double seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of `n` sorted rates. */
static double median(double *rates, int n) {
    qsort(rates, (size_t)n, sizeof *rates, by_value);
    return n % 2 ? rates[n / 2] : (rates[n / 2 - 1] + rates[n / 2]) / 2;
}

/* Times `repeats` runs of `games` games of `play`, prints the line named `name`. */
static void measure(const char *name, int (*play)(long *), int games, int repeats) {
    double rates[64];
    long placed = 0, legal = 0;
    for (int r = 0; r < repeats; r++) {
        state = 0x9E3779B97F4A7C15ull + (uint64_t)r;
        double began = seconds();
        for (int g = 0; g < games; g++) placed += play(&legal);
        rates[r] = games / (seconds() - began);
    }
    double runs = (double)games * repeats, m = median(rates, repeats);
    printf("C %s: games/s median %.0f (min %.0f max %.0f) = %.2f us/game; placed/game %.2f; "
           "legal placements per tile %.2f\n",
           name, m, rates[0], rates[repeats - 1], 1e6 / m, placed / runs,
           legal / (runs * SHUFFLED));
}

int main(int argc, char **argv) {
    int games = argc > 1 ? atoi(argv[1]) : 20000;
    int repeats = argc > 2 ? atoi(argv[2]) : 7;
    if (games < 1) games = 1;
    if (repeats < 1) repeats = 1;
    if (repeats > 64) repeats = 64;
    prepare();

    double rates[64];
    long sink = 0;
    int shuffles = games * 100;
    for (int r = 0; r < repeats; r++) {
        state = 12345 + (uint64_t)r;
        double began = seconds();
        for (int g = 0; g < shuffles; g++) sink += shuffle_only();
        rates[r] = shuffles / (seconds() - began);
    }
    double m = median(rates, repeats);
    printf("C shuffle72: games/s median %.0f (min %.0f max %.0f) = %.3f us/game (sink %ld)\n", m,
           rates[0], rates[repeats - 1], 1e6 / m, sink & 1);

    measure("edges_random_fast", game_by_neighbours, games, repeats);
    measure("edges_random_masked", game_by_table, games, repeats);
    return 0;
}
