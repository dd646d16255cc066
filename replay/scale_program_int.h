/* The inside of the program model (scale_program.h), shared by its parts: step
 * signatures and loops as interned symbols (scale_sig.c), the folding of a process's
 * steps into loops (scale_fold.c), the merge of every process into one template
 * (scale_merge.c), guards and classes of processes (scale_guard.c), the walks that check
 * each recorded process against the template and gather its numbers (scale_walk.c),
 * exact and fitted forms of P (scale_form.c), the peers no recording tells
 * (scale_untold.c), the build (scale_program.c) and the synthesis (scale_synth.c). */
#ifndef PZ_SCALE_PROGRAM_INT_H
#define PZ_SCALE_PROGRAM_INT_H

#include <stddef.h>
#include <stdint.h>

#include "scale_program.h"

#define SP_NONE UINT32_MAX

/* --- symbols: a step's signature (what must be equal for two steps to be the same
 * call of the program) or a loop (a body of symbols and a trip count) */
enum sp_sym_kind { SP_STEP, SP_LOOP };

/* One event of a signature: the recorded event without its sizes (they may grow with
 * P).  A completion stays in its step's signature only in a call of one request
 * (MPI_Wait, MPI_Test: the call exists when the request does), and then names the step
 * that posted its request by that step's symbol and the index of the posting event in
 * it, not by a distance, so that steps missing in between at an edge of the grid do not
 * change it; so do the tests and cancels of a request.  In a call over many requests
 * (MPI_Waitall ...) the completions are left out (sp_reduced): how many it completes
 * varies with the neighbours a process has; they belong to their posting events, which
 * say by done_kind how their requests end, and whose step the template learns
 * (struct sp_done). */
struct sp_event {
    uint8_t kind, coll_op;
    struct pz_scale_comm comm;
    struct pz_scale_peer peer;
    uint32_t tag;
    uint32_t tag_step;         /* the tag at iteration j of the loop right around the step
                                  is tag + j * tag_step (modulo 2^32): a tag advancing
                                  with the iteration (sp_tag_loops); 0: always tag */
    uint8_t tag_after;         /* j is instead the trip count of the last loop before the
                                  step in the body or sequence it is in: a step after a
                                  loop, tagged as an iteration past its last */
    uint32_t poster_sym;       /* SP_NONE: not a completion, or its poster is unknown */
    uint32_t poster_event;
    uint8_t done_kind;         /* a posting event: the kind of the record completing its
                                  request, PZ_REC_ENTER (never an event) when none does */
};

struct sp_sym {
    uint8_t kind;              /* enum sp_sym_kind */
    uint8_t step_kind;         /* enum pz_scale_step_kind */
    const char *region;        /* interned name: equal names, equal pointers */
    uint32_t first, n;         /* STEP: table events; LOOP: table bodies */
    uint32_t count;            /* LOOP; 0: a loop whose trip count the data decide, the
                                  same symbol whatever its count (sp_table.data_trips) */
    uint16_t ends;             /* STEP: a call completing all the requests it is given
                                  (MPI_Waitall, MPI_Testall): bit k set when it completes
                                  one with a record of kind k (sp_reduced's), so that a
                                  Waitall of receives and one of sends are two steps */
    uint32_t variant;          /* STEP: which of the distinct sizes its process made the
                                  call with, in the order they came (0: the first), when
                                  the table tells sizes apart (sp_table.by_sizes) */
};

struct sp_table {
    struct sp_sym *syms;
    uint32_t nsyms, capsyms;
    struct sp_event *events;
    uint32_t nevents, capevents;
    uint32_t *bodies;
    uint32_t nbodies, capbodies;
    uint32_t *index;           /* open addressing over syms, SP_NONE empty */
    uint32_t capindex;
    const char **names;        /* interned region names, open addressing */
    uint32_t capnames, nnames;
    uint8_t by_sizes;          /* set before any step: a call made again with other sizes
                                  at a process is another step (struct sp_sym.variant), so
                                  that a loop over levels whose messages shrink is not
                                  folded into one step of one size */
    uint8_t tag_loops;         /* set before any step: sp_tag_loops rewrites runs */
    uint8_t tagged;            /* sp_tag_loops rewrote a run */
    uint8_t widest;            /* set before any step: sp_fold folds the repeat covering
                                  the most recorded steps first, not the shortest */
    uint8_t by_xor;            /* set before any step: every message on the world is a
                                  stage of a butterfly (scale_xor.c) */
    uint8_t by_tree;           /* set with by_xor: the stages are a binomial tree's
                                  (scale_tree.c), the partner of the rank's lowest set bit
                                  its parent, those of lower bits its children */
    uint8_t by_pairs;          /* set before any step: runs of steps exchanging with
                                  every member of a communicator in turn are rewritten
                                  into loops (scale_pairs.c) */
    uint8_t data_trips;        /* sp_table_loop gives a body that has a loop symbol of
                                  count 0 (sp_data_loops_mark) that symbol, whatever the
                                  count: its passes fold into one loop around them */
};

void sp_table_free(struct sp_table *t);
/* The symbols of a process's steps, into *syms (allocated, p->nsteps); their variants
 * (struct sp_sym) counted at this process when t->by_sizes.  0 or -1. */
int sp_table_steps(struct sp_table *t, const struct pz_scale_run *run,
                   const struct pz_scale_process *p, uint32_t **syms);
/* Into *map (allocated, t->nsyms): each symbol, or for a call completing all the
 * requests it is given (MPI_Waitall, MPI_Testall) that was given none, the one symbol of
 * the same call completing some, when there is one (a process without neighbours makes
 * the call the others make).  0 or -1. */
int sp_table_given_none(const struct sp_table *t, uint32_t **map);
/* The step symbol like proto (its kind, region, ends, variant) with events ev[0..n-1]
 * (proto->n of them); SP_NONE when memory runs out. */
uint32_t sp_table_step(struct sp_table *t, const struct sp_sym *proto,
                       const struct sp_event *ev);
/* The loop symbol of body[0..n-1] repeated count times (when t->data_trips and the body
 * has a loop symbol of count 0, that one); SP_NONE when memory runs out. */
uint32_t sp_table_loop(struct sp_table *t, const uint32_t *body, uint32_t n, uint32_t count);
/* A name for messages: the region of a step symbol, or "a loop". */
const char *sp_sym_name(const struct sp_table *t, uint32_t sym);

/* Pairs every completion and cancel of process p with the event that posted its request
 * (poster[event], SP_NONE: not one, or its posting was not recorded) and every posting
 * event with the record that completes its request (done[event], SP_NONE: none).  Arrays
 * of p->nevents. */
void sp_pair_requests(const struct pz_scale_process *p, uint32_t *poster, uint32_t *done);
/* Is an event of kind `kind` (poster: sp_pair_requests's) of a call to region left out of
 * its step's signature: a completion or cancel of a posted request, in a call that is not
 * of one request. */
int sp_reduced(const char *region, uint8_t kind, uint32_t poster);
/* The wait of the same form as a test (MPI_Testall: MPI_Waitall), or NULL; and the
 * test of the same form as a wait (MPI_Waitall: MPI_Testall), or NULL. */
const char *sp_wait_of_test(const char *name);
const char *sp_test_of_wait(const char *name);

/* Folds syms[0..n-1] into loops in place, the shortest repeats first, or the widest
 * (those covering the most recorded steps) when t->widest; *n becomes the folded
 * length.  A body of open steps only (sp_open, in a recording ambiguous in the
 * dimensions `ambiguous`) is not a loop: the calls to MPI_PROC_NULL at an edge, or to
 * the one neighbour of a periodic dimension of 2, are different calls of the program
 * that look alike there.  0 or -1. */
int sp_fold(struct sp_table *t, uint32_t *syms, size_t *n, uint8_t ambiguous);
/* How many times the body of loop symbol sym repeats in a process's steps raw[] (nsteps
 * of them, as folded) from pos: its count, or, for a loop whose count the data decide
 * (count 0: one symbol whatever the count), as many times as the body's steps follow
 * back to back there, as the fold found them (scale_walk.c). */
uint32_t sp_repeats_at(const struct sp_table *t, uint32_t sym, const uint32_t *raw,
                       size_t pos, size_t nsteps);

/* What sp_tag_loops learns from the processes it rewrites and uses at others: the
 * bodies of the runs of 3 iterations or more it rewrote.  Two iterations tell no
 * progression alone (any two tags are one), but two whose steps are such a body, with
 * its first tags and their steps, are that loop run twice: an odd-even transposition's
 * phases (tag = phase) are 2 pairs at 4 processes and 4 at 8, a ring's steps (tag =
 * step, P - 1 of them) 2 at 3 processes and 5 at 6.  Zeroed to begin. */
struct sp_tag_learned {
    uint32_t *bodies;          /* step symbols of the table, rewritten */
    size_t n, cap;
    uint8_t pairs;             /* set: runs of 2 iterations of learned bodies rewritten */
    uint8_t pending;           /* set by sp_tag_loops: a process has a run of 2
                                  iterations it did not rewrite */
};
void sp_tag_learned_free(struct sp_tag_learned *l);

/* Rewrites, in a process's steps syms[0..n-1], the runs of iterations that differ only
 * by tags advancing arithmetically with the iteration (a message tagged with the chunk
 * or step number) into the same symbols in every iteration, their events' tags as
 * forms of the iteration (struct sp_event.tag_step), so that sp_fold folds them into a
 * loop: runs of 3 iterations or more, whose bodies it adds to `learned`, and of 2 where
 * learned->pairs and their steps are a body learned.  A run is rewritten only when
 * folding the rewritten steps (sp_fold, ambiguous as there) puts every step whose tag
 * advances right inside a loop whose iteration gives back each tag recorded.  Nothing
 * unless t->tag_loops; t->tagged set when a run is rewritten.  0 or -1. */
int sp_tag_loops(struct sp_table *t, uint32_t *syms, size_t n, uint8_t ambiguous,
                 struct sp_tag_learned *learned);

/* --- shapes of steps (scale_shapes.c), for sp_tag_loops and the butterflies */
/* The longest body of a loop looked for, as sp_fold's. */
#define SP_MAX_PERIOD 512
/* The most events of a step rewritten (a larger step is left as recorded). */
#define SP_MAX_EVENTS 64
/* Set in the shape of a step that is its own (not a step, or of more events). */
#define SP_OWN_SHAPE 0x80000000u

/* The events of step symbol sym of t. */
/* FNV-1a, value by value: the hash steps, bodies and sizes are first compared by. */
#define SP_HASH_START 14695981039346656037u
static inline uint64_t sp_hash_mix(uint64_t h, uint64_t v)
{
    return (h ^ v) * 1099511628211u;
}

/* An open addressing table of 32-bit keys for n of them: its slots, a power of two of at
 * least twice n; and where key's probe starts in it (Fibonacci hashing). */
static inline size_t sp_slots_for(size_t n)
{
    size_t cap = 16;

    while (cap < 2 * n)
        cap *= 2;
    return cap;
}

static inline size_t sp_slot_of(uint32_t key, size_t cap)
{
    return (size_t)((key * 0x9e3779b97f4a7c15u) >> 32) & (cap - 1);
}

static inline const struct sp_event *sp_events_of(const struct sp_table *t, uint32_t sym)
{
    return &t->events[t->syms[sym].first];
}

/* The shapes of t's steps (zeroed but for t and the without_ flags to begin; sp_shapes_free
 * to end). */
struct sp_shapes {
    struct sp_table *t;
    uint8_t without_bits;      /* a stage's bit (PZ_SCALE_PEER_XOR) is no part of it */
    uint8_t without_roots;     /* nor the root of a rooted collective (a root that
                                  turns with the iteration, sp_turns_rewrite) */
    uint8_t without_offsets;   /* nor an offset peer on the world or a slice (the
                                  partner of an exchange with every member in turn) */
    uint8_t with_tags;         /* but the tags are (a skew's step is known by them) */
    struct sp_table table;     /* the shapes, as step symbols */
    uint32_t *shape_of;        /* [sym of t]: its shape, SP_NONE while not made */
    uint32_t capshape;
};
void sp_shapes_free(struct sp_shapes *h);
/* The shape of symbol sym of h->t: a step's events without their tags (tag, tag_step,
 * tag_after; with them when h->with_tags) and, when h->without_bits, their bits (h->without_roots: their roots;
 * h->without_offsets: their offsets on the world or a slice), each poster by its shape, as a
 * symbol of h->table; sym | SP_OWN_SHAPE for a loop or a step of more than
 * SP_MAX_EVENTS events; SP_NONE when memory runs out. */
uint32_t sp_shape(struct sp_shapes *h, uint32_t sym);
/* Whether the steps at body position q of `count` iterations of `period` steps from `at`
 * of syms have one shape, of a step (not SP_OWN_SHAPE): 1 with it in *shape, 0 when
 * not, -1 when memory runs out. */
int sp_same_shapes(struct sp_shapes *h, const uint32_t *syms, size_t at, size_t period,
                   size_t count, size_t q, uint32_t *shape);

/* --- posters of completions in rewritten steps (scale_posters.c) */
/* The position of the step that posted a completion's request, poster its symbol
 * (struct sp_event.poster_sym), at step x of the steps orig as recorded: the nearest
 * before x from position `from` on; SP_NONE (as a size_t) when none is, or poster is
 * SP_NONE. */
size_t sp_poster_at(const uint32_t *orig, size_t from, size_t x, uint32_t poster);
/* Into ev[i].poster_sym for each event i of step x (orig[x]'s), the symbol its poster's
 * step has in syms, the steps as rewritten (sp_poster_at from `from`; the poster as
 * recorded when none is found).  Whether any poster changed. */
int sp_repost(const struct sp_table *t, const uint32_t *orig, const uint32_t *syms,
              size_t from, size_t x, struct sp_event *ev);
/* The symbol a completion's poster (poster, its symbol as recorded) has in body position
 * q of a run from `at` being rewritten into the same symbols in every iteration (orig:
 * the steps as recorded; syms: as rewritten before the run; done[0..q-1]: the run's
 * positions rewritten so far): the rewritten symbol of a poster in the same iteration,
 * the one before the run of a poster before it, poster itself where none is found;
 * SP_UNNAMED where the poster is in an earlier iteration at q or after (a receive
 * posted one iteration ahead), which the rewritten body cannot name. */
#define SP_UNNAMED (SP_NONE - 1)
uint32_t sp_run_poster(const uint32_t *orig, const uint32_t *syms, size_t at, size_t q,
                       const uint32_t *done, uint32_t poster);

/* --- rewriting runs of steps in place (scale_rewrite.c), for sp_xor_rewrite and
 * sp_pairs_rewrite */
/* Rewrites the runs of syms[0..n-1] (orig: the steps as they were before; marked, all 0
 * to begin: set for each step a run covers, rewritten); 0 or -1 (memory). */
typedef int (*sp_run_rewriter)(void *ctx, const uint32_t *orig, uint32_t *syms, size_t n,
                               uint8_t *marked);
/* rewrite(ctx, ...) on a copy of syms[0..n-1] as they are, then every step it left (not
 * marked) whose completion names a poster it rewrote remade with the rewritten poster
 * (sp_repost; one wait per stage after a loop).  0 or -1 (memory). */
int sp_rewrite_runs(struct sp_table *t, uint32_t *syms, size_t n, sp_run_rewriter rewrite,
                    void *ctx);

/* --- the process an offset peer names (scale_partner.c), for the butterflies and the
 * exchanges with every member in turn */
/* The world rank of the process at offsets peer->off (PZ_SCALE_PEER_OFFSET) from
 * process proc of run, the offsets over the dimensions c keeps when c is a slice, else
 * over every dimension of the grid; -1 when it is outside the grid. */
int sp_offset_rank(const struct pz_scale_run *run, int proc, const struct pz_scale_comm *c,
                   const struct pz_scale_peer *peer);

/* --- butterflies (scale_xor.c): stage i of log2(P) exchanges with rank XOR 2^i */
struct sp_xor;
struct sp_xor *sp_xor_new(struct sp_table *t);
void sp_xor_free(struct sp_xor *x);
/* Whether recordings runs[0..n-1] may be of a butterfly: none has MPI_Cart_create's
 * grid, every one is of a power of two processes, 2 or more, and has messages to
 * partners in the grid, all on the world to rank XOR 2^i, but those of steps whose
 * every message at every process goes to NPB CG's transpose partner
 * (sp_transpose_step). */
int sp_xor_candidate(const struct pz_scale_run *const *runs, size_t n);
/* Takes, in process proc's steps syms[0..n-1] of recording run, every offset peer of a
 * message as its partner's bit (PZ_SCALE_PEER_XOR, the symbols replaced), or as the
 * transpose partner (PZ_SCALE_PEER_TRANSPOSE) where it is that and not rank XOR 2^i.
 * 0; 1 when a partner is neither or is on another communicator than the world, or is
 * in a step of more events than are converted (64); -1 when memory runs out. */
int sp_xor_convert(struct sp_table *t, const struct pz_scale_run *run, int proc,
                   uint32_t *syms, size_t n);
/* Learns from a process's converted steps how the tags of the runs of several stages
 * advance, for the runs of one stage elsewhere.  0 or -1. */
int sp_xor_learn(struct sp_xor *x, const uint32_t *syms, size_t n);
/* Rewrites the runs of stages of a process's converted steps into the same symbols in
 * every iteration (the bit going up or down with it, a run going down by the bit of its
 * last stage, tags advancing with it), for sp_fold; a completion names the rewritten
 * symbol of its poster, in the run (posted in the same iteration or the one before) or
 * after it (one wait per stage after the loop).  A run whose steps would be posters of
 * each other is left as converted.  0 or -1. */
int sp_xor_rewrite(struct sp_xor *x, uint32_t *syms, size_t n);
/* Replaces, in a copy syms[0..*n-1] of the steps sp_xor_rewrite rewrote last (tags
 * rewritten since: a run whose iterations differ then is left), each run of several
 * stages by its loop symbol, for sp_fold: the stages of a butterfly made again and again
 * with no other call between (a reduction by recursive doubling in a time step loop)
 * are one loop per pass, which the shortest repeat first would instead fold with the
 * time steps into one loop of every stage of every pass.  *n becomes the length.  0 or
 * -1 (memory). */
int sp_xor_enclose(struct sp_xor *x, uint32_t *syms, size_t *n);
/* Sets starts[i] (of the steps sp_xor_rewrite rewrote last) where a run of stages
 * begins: the walks make one run of them one pass of the loop around them (struct
 * sp_node.stages), however many stages follow back to back. */
void sp_xor_starts(const struct sp_xor *x, uint8_t *starts);
/* Marks the loops of m whose body has a stage right in it (struct sp_node.stages). */
void sp_xor_mark_loops(struct pz_scale_program *m);
/* Whether the model built from stages is a butterfly: every step with a stage is made by
 * every process in a loop whose trip count is log2(P) less its first bit going up, or
 * ceil(log2(P) / 2) less it (NPB CG's row sums); going down to bit 0, log2(P) or
 * ceil(log2(P) / 2) less a number (NPB CG's row sums from the row's highest bit: less
 * none), at every recorded count, the law then taken as the loop's trip count, and
 * every step with messages to the transpose partner is made by every process; then
 * notes say so, and why.  1, 0 when not, -1 when memory runs out. */
int sp_xor_law(struct pz_scale_program *m);
/* Whether every dimension of every recording's grid of m has at most 2 processes: a
 * butterfly's partners are then also the grid's neighbours. */
int sp_xor_short_grids(const struct pz_scale_program *m);
/* Whether the run at nprocs can have m's stages and transpose partners: 0, or -1 with a
 * one-line message in err (not a power of two). */
int sp_xor_check(const struct pz_scale_program *m, int nprocs, char *err, size_t errlen);

/* Into a copy syms[0..*n-1] of the steps sp_xor_rewrite rewrote last of process proc of
 * nprocs, in a model of a binomial tree (struct sp_table.by_tree), each run of stages
 * replaced by a loop symbol of count 0 (a loop whose trip count is the process's number
 * of children, struct sp_node.tree), for sp_fold.  0; 1 where a run is not as many
 * stages as the process has children (sp_tree_children), from bit 0 up or down to bit
 * 0; -1 (memory). */
int sp_tree_enclose(struct sp_xor *x, int proc, int nprocs, uint32_t *syms, size_t *n);

/* --- binomial trees (scale_tree.c): a broadcast or reduction written by hand as
 * MPICH's, root 0; the parent of rank r is r less its lowest set bit 2^t
 * (PZ_SCALE_PEER_TREE), its children r + 2^i, 2^i < 2^t (any i at rank 0), below P:
 * stages of a butterfly (PZ_SCALE_PEER_XOR) in a loop of as many iterations as the
 * process has children */
/* The children of rank among nprocs; the parent of rank, -1 for rank 0. */
int sp_tree_children(int rank, int nprocs);
int sp_tree_parent(int rank);
/* The partner rank XOR 2^bit of rank among nprocs: 1 its parent, 0 a child, -1 neither. */
int sp_tree_role(int rank, int nprocs, int bit);
/* Whether recordings runs[0..n-1] may be of a binomial tree: none has MPI_Cart_create's
 * grid, one has 4 processes or more, and every message with a peer in the grid goes, on
 * the world, to its process's parent or to a child. */
int sp_tree_candidate(const struct pz_scale_run *const *runs, size_t n);
/* Marks, in a model of a binomial tree, the loops right around a child's stage (struct
 * sp_node.tree). */
void sp_tree_mark_loops(struct pz_scale_program *m);
/* Whether step node k is in such a loop: made wherever the loop makes an iteration. */
int sp_tree_inside(const struct pz_scale_program *m, uint32_t k);
/* Whether the model built from stages of a binomial tree is one (its children's stages
 * in a loop of struct sp_node.tree): 1 with a note saying so, 0 when not, -1 (memory). */
int sp_tree_law(struct pz_scale_program *m);
/* Whether the run at nprocs can have m's tree: 0, or -1 with a one-line message in err
 * (a count not a power of two where every recording is of one). */
int sp_tree_check(const struct pz_scale_program *m, int nprocs, char *err, size_t errlen);

/* --- a butterfly's blocking send and receive ordered by the partner's bit
 * (scale_order.c) */
/* Into *copies (n of them, sp_order_free), copies of recordings runs[0..n-1] in which
 * each pair of a blocking send and receive with one partner rank XOR 2^i, in either
 * order, is made in the order of the process below its partner, both calls marked with
 * their place (struct pz_scale_step.ordered), the computation before each call at its
 * place.  1; 0 when every pair is already so (no copies); -1 (memory). */
int sp_order_copy(const struct pz_scale_run *const *runs, size_t n,
                  struct pz_scale_run **copies);
void sp_order_free(struct pz_scale_run *copies, size_t n);
/* Whether butterfly m (sp_xor_law), whose stages may be such pairs, is taken: 1, a note
 * saying so and why, where its stages go from bit 0 up or a recording's grid has a
 * dimension of more than 2 processes (no halo exchange makes the same calls), or where
 * they are no pairs; 0 where every grid has at most 2 processes per dimension and the
 * stages go from the highest bit down, as a halo exchange over the dimensions of the
 * grid from the first, ordered by the parity of the position, would make them: the
 * note for the model of the grid into kept; 0 with kept empty where the calls of a
 * pair are not side by side in one loop body (sp_ordered_beside); -1 (memory). */
int sp_order_taken(struct pz_scale_program *m, char *kept, size_t keptlen);

/* --- exchanges with every member in turn (scale_pairs.c, scale_pairs_law.c,
 * scale_pair_forms.c): at step i = 1 .. n - 1 of a communicator of n members, the
 * partner (rank + i) mod n, (rank - i) mod n, rank XOR i, or the i-th other member in
 * ascending or descending rank order (PZ_SCALE_PEER_PAIR) */
/* The distance of partner q from me among n members in form `form` (enum
 * pz_scale_pair_form; q == me gives 0 in the ring's forms); and the partner d away from
 * me, -1 when none is (d = 0 in the forms that skip the caller, rank XOR d beyond n). */
int sp_pair_distance(int form, int me, int q, int n);
int64_t sp_pair_partner(int form, int64_t me, int64_t d, int64_t n);
/* The form in words, for notes ("(rank + i) mod n or (rank - i) mod n (a ring
 * schedule)"). */
const char *sp_pair_form_text(int form);
struct sp_pairs;
/* A new learner of such exchanges in t's steps; grid_too: the recordings' grids also
 * explain them (sp_pairs_grid_too), and runs whose messages differ in size from one
 * iteration to the next, or bodies some recording of 3 processes or more lacks at some
 * process, are not taken.  NULL when memory runs out. */
struct sp_pairs *sp_pairs_new(struct sp_table *t, int grid_too);
void sp_pairs_free(struct sp_pairs *x);
/* Whether recordings runs[0..n-1] may be of such exchanges: a process of one of them, of
 * 4 processes or more, sends to or receives from every other member of the world, or of
 * a slice of 3 members or more; not where the program made its grid (MPI_Cart_create)
 * and the grid explains them too (sp_pairs_grid_too). */
int sp_pairs_candidate(const struct pz_scale_run *const *runs, size_t n);
/* Whether every dimension of every recording's grid has at most 2 processes, where
 * every process is a neighbour of every other (2 x 2 x 2) and a halo exchange cannot be
 * told from an exchange with every member by the partners alone. */
int sp_pairs_grid_too(const struct pz_scale_run *const *runs, size_t n);
/* Where sp_pairs_grid_too holds of m's recordings, a note of the exchange with every
 * member taken there rather than a halo exchange.  0, -1 when memory runs out. */
int sp_pairs_note_grid(struct pz_scale_program *m);
/* Learns from process proc of recording run (its steps syms[0..n-1], as interned) the
 * runs of 2 iterations or more whose partners follow a form, and which: the body, the
 * forms each partner fits at every process, the steps its tags advance by, the orders of
 * a blocking send and receive with one partner (a twin), whether its messages keep
 * their sizes; and the steps in no run that call rank 0 (sp_roots_learn).  0 or -1
 * (memory). */
int sp_pairs_learn(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                   const uint32_t *syms, size_t n);
/* Whether some body learned has, at every process of one recording (of every recording
 * of 3 processes or more where the grid explains the exchanges too), a run of as many
 * iterations as its communicator's members less the distance at its first (0 or 1), and
 * partners that fit one form at every process (a twin's calls one order): without one
 * no model of such exchanges can be taken (sp_pairs_law asks every process to make
 * them). */
int sp_pairs_whole(const struct sp_pairs *x);
/* Rewrites the runs of process proc's steps syms[0..n-1] whose partners follow a form
 * learned (a run of one iteration: a body learned) into the same symbols in every
 * iteration, their partners PZ_SCALE_PEER_PAIR, their tags advancing with the
 * iteration, a twin's two calls ordered by rank as the one first where the rank is
 * below the partner's and the other (struct pz_scale_peer.off[1]); completions after a
 * run name its rewritten posters; the calls to rank 0 (sp_roots_rewrite).  0 or -1
 * (memory). */
int sp_pairs_rewrite(struct sp_pairs *x, const struct pz_scale_run *run, int proc,
                     uint32_t *syms, size_t n);
/* Folds in syms[0..*n-1], a copy of the steps sp_pairs_rewrite last rewrote, each run it
 * rewrote of 2 iterations or more, or of one right before or after another, into one
 * loop of its iterations, before sp_fold folds the rest: the exchanges of a time step
 * loop that makes no other call, rewritten alike, would else fold into one loop of all
 * their iterations.  0 or -1 (memory). */
int sp_pairs_fold_runs(struct sp_pairs *x, uint32_t *syms, size_t *n);
/* The calls to rank 0 next to such exchanges (a gather or scatter by hand: scale_pairs_root.c),
 * which sp_pairs learns and rewrites in the steps that are in no run. */
struct sp_roots;
/* Whether a record of this kind is a point-to-point message (a send or receive,
 * blocking or not). */
int sp_is_message(uint8_t kind);
struct sp_roots *sp_roots_new(void);
void sp_roots_free(struct sp_roots *x);
/* Learns step sym of process proc of recording run, in no run: whether every message
 * it has goes to rank 0 of the world, and which processes of a recording of 3 or more
 * make it so.  0 or -1 (memory). */
int sp_roots_learn(struct sp_roots *x, const struct sp_table *t, const struct pz_scale_run *run,
                   int proc, uint32_t sym);
/* Step *sym of process proc (but 0), in no run, with its partners rank 0
 * (PZ_SCALE_PEER_RANK) when every process but 0 of some recording of 3 or more made it
 * so: 1 with *sym that step, 0 when it stays, -1 (memory). */
int sp_roots_rewrite(struct sp_roots *x, struct sp_table *t, const struct pz_scale_run *run,
                     int proc, uint32_t *sym);
/* Whether the model built from such runs is of exchanges with every member in turn:
 * every step with a PZ_SCALE_PEER_PAIR partner is made by every process in a loop whose
 * trip count is the communicator's members less the distance at its first iteration (0
 * or 1), at every recorded count; then the loops take that law (struct sp_node.pairs)
 * and notes say so.  1, 0 when not, -1 when memory runs out. */
int sp_pairs_law(struct pz_scale_program *m);
/* The most iterations loop node k of a model of such exchanges may run in recording r:
 * where its body (not a loop in it) has a step with a PZ_SCALE_PEER_PAIR partner, the
 * members of its communicator less that partner's first distance, as the distance stays
 * below the members (an exchange repeated with no other call between two, which the
 * walks would else take for one loop); else UINT32_MAX. */
uint32_t sp_pairs_bound(const struct pz_scale_program *m, size_t r, uint32_t k);
/* Whether the run at nprocs in grid g can have m's pairwise schedules (rank XOR i): 0,
 * or -1 with a one-line message in err (a communicator of members not a power of two). */
int sp_pairs_check(const struct pz_scale_program *m, const struct pz_scale_grid *g,
                   int nprocs, char *err, size_t errlen);

/* --- collectives whose root turns with the iteration (scale_turns.c): at iteration j
 * of a loop, the root (r + j) mod n of a communicator of n members (PZ_SCALE_PEER_TURN) */
struct sp_turns;
struct sp_turns *sp_turns_new(struct sp_table *t);
void sp_turns_free(struct sp_turns *x);
/* Learns from process proc of recording run (its steps syms[0..n-1], as interned) the
 * steps of runs of 2 iterations or more whose roots turn: each rooted collective's root
 * (r + j) mod n at iteration j, or one root throughout, some root changing.  0 or -1
 * (memory). */
int sp_turns_learn(struct sp_turns *x, const struct pz_scale_run *run, int proc,
                   const uint32_t *syms, size_t n);
/* Rewrites the runs of process proc's steps syms[0..n-1] of 2 iterations or more whose
 * collectives' roots turn where a learned one does (on a communicator of one member
 * too, where every root is 0) into the same symbols in every iteration, their roots
 * PZ_SCALE_PEER_TURN; completions after a run name its rewritten posters.  A run is
 * rewritten only when folding the rewritten steps (sp_fold, ambiguous as there) gives
 * back every root recorded (sp_turns_wrong).  Nothing when no root was learned to turn.
 * 0 or -1 (memory). */
int sp_turns_rewrite(struct sp_turns *x, const struct pz_scale_run *run, int proc,
                     uint32_t *syms, size_t n, uint8_t ambiguous);
/* The members of process proc's communicator of class c in run (of a group, its own
 * instance: a last block may be shorter); 0 when unknown. */
uint32_t sp_turns_members(const struct pz_scale_run *run, int proc, const struct pz_scale_comm *c);
/* The root of a collective's event e (its peer PZ_SCALE_PEER_RANK or _LAST) as a rank
 * from the first among n members. */
int64_t sp_turns_root(const struct sp_event *e, uint32_t n);
/* Folds a copy of process proc's steps syms[0..n-1] (orig: as interned) and walks it:
 * the first step whose root turning with the iteration of the loop right around it is
 * not the one orig records, n when every one is, SP_NONE (as a size_t) when memory runs
 * out (scale_turns_law.c). */
size_t sp_turns_wrong(struct sp_table *t, const struct pz_scale_run *run, int proc,
                      const uint32_t *orig, const uint32_t *syms, size_t n, uint8_t ambiguous);
/* Where the template has roots that turn, a note saying so, and one naming the first
 * call that turns its root on a communicator of at most 2 members in every recording
 * that made it (root j mod 2 would record the same).  While building, after the
 * template's events (scale_turns_law.c).  0, or -1 when memory runs out. */
int sp_turns_note(struct pz_scale_program *m);

/* --- skews (scale_skew.c): a message's partner at an offset along a periodic
 * dimension d of the grid equal to s (+1 or -1) times the caller's coordinate along
 * another dimension e, modulo d's extent (PZ_SCALE_PEER_SKEW: Cannon's first shifts) */
struct sp_skews;
/* A new learner of skews in t's steps, in a grid of periodicity periodic (the
 * model's); NULL when memory runs out. */
struct sp_skews *sp_skews_new(struct sp_table *t, const uint8_t *periodic);
void sp_skews_free(struct sp_skews *x);
/* Learns from every process p of recording run (its steps syms[p], as interned) which
 * skews each message of each step follows at every process that makes the step, and
 * whether the recording tells them (made at coordinates 1 and 2 along e, d of 3
 * processes or more).  0 or -1 (memory). */
int sp_skews_learn(struct sp_skews *x, const struct pz_scale_run *run, uint32_t *const *syms);
/* Takes, in a process's steps syms[0..n-1], every message whose step follows a skew at
 * every process of every recording learned, and some recording tells, as that skew
 * (the symbols replaced, completions naming their converted posters).  0 or -1. */
int sp_skews_convert(struct sp_skews *x, uint32_t *syms, size_t n);
/* A note for each message taken as a skew, saying which and why, and one for each that
 * follows a skew at every process of every recording though none tells it (its offsets
 * per class of position are taken, which may not extrapolate faithfully).  0 or -1. */
int sp_skews_note(const struct sp_skews *x, struct pz_scale_program *m);

/* Where no model of recordings runs[0..n-1] could be built, names in err, in front of
 * the reason it holds, the first call exchanging with NPB CG's transpose partner
 * (scale_transpose.c): a call that every process of a recording makes at the same
 * place, each with a message and every message to that partner, which no model gives,
 * and why: 1; 0 when there is none (err untouched). */
int sp_transpose_name(const struct pz_scale_run *const *runs, size_t n, char *err,
                      size_t errlen);
/* Process p's transpose partner among 2^l processes (PZ_SCALE_PEER_TRANSPOSE). */
int sp_transpose_partner(int p, int l);
/* Whether step s of every process of run, of 2^l processes, sends or receives every
 * message with a peer in the grid to the process's transpose partner, at least one
 * message (at 2 processes every one is its own partner). */
int sp_transpose_step(const struct pz_scale_run *run, size_t s);

/* --- steps that one process's recording cannot tell apart from others: a call to
 * MPI_PROC_NULL records no message, so it lacks the events the same call has where the
 * peer exists; and in a periodic dimension of 1 or 2 processes, offsets -1, 0 and +1
 * (resp. -1 and +1) name the same process, so the recording shows one of them.  Such a
 * step is matched with the template's step it is compatible with, the one the
 * recordings where the peer exists and the dimension is longer show. */

/* Where a recorded step was made: its recording's grid, the process's coordinates, the
 * recording's ambiguous dimensions (sp_ambiguous_dims). */
struct sp_at {
    const struct pz_scale_grid *grid;
    const int *coords;
    uint8_t ambiguous;
};

/* The dimensions of recording run whose offsets are ambiguous: periodic in the model and
 * of 1 or 2 processes in run: bit d for dimension d. */
uint8_t sp_ambiguous_dims(const struct pz_scale_program *m, const struct pz_scale_run *run);
/* The world dimension of the i-th dimension of a communicator of class c, -1 none. */
int sp_world_dim(const struct pz_scale_comm *c, int i);
/* Whether e's peer is an offset along the grid, on the world or on a slice of it. */
int sp_grid_offset(const struct sp_event *e);
/* Is step symbol sym possibly another step, as made in a recording ambiguous in the
 * dimensions `ambiguous`: a point-to-point call with fewer message events than such a
 * call makes, or an offset in an ambiguous dimension. */
int sp_open(const struct sp_table *t, uint32_t sym, uint8_t ambiguous);
/* Is recorded step symbol rsym, made at `at`, the template's step tsym: equal, or the
 * same but for events whose peers do not exist at `at` (calls to MPI_PROC_NULL) and
 * offsets in ambiguous dimensions that name the same process.  *missing (may be NULL):
 * whether events are missing. */
int sp_compatible(const struct sp_table *t, uint32_t tsym, uint32_t rsym,
                  const struct sp_at *at, int *missing);
/* The whole call of which step symbols a and b are complementary halves: a blocking
 * call with both a send and a receive (MPI_Sendrecv), made by one process with only its
 * send (the source MPI_PROC_NULL) and by another with only its receive (the destination
 * MPI_PROC_NULL), as along a dimension no recording has a process with both neighbours
 * in.  The step with a's and b's events, the send first as the call records it; SP_NONE
 * when a and b are not such halves, or memory runs out. */
uint32_t sp_union(struct sp_table *t, uint32_t a, uint32_t b);
/* The index in tsym's events of the i-th event of rsym (sp_compatible's), SP_NONE. */
uint32_t sp_map_event(const struct sp_table *t, uint32_t tsym, uint32_t rsym,
                      const struct sp_at *at, uint32_t i);

/* --- peers no recording tells (scale_untold.c): in a dimension periodic and of 1 or 2
 * processes in every recording, which neighbour a message addresses (-1 or +1) cannot be
 * told, and it matters where the dimension is longer: such runs are refused. */
struct sp_untold {
    int len;                 /* the most processes the dimension has in a recording (1
                                or 2); 0: the recordings tell every peer along it */
    char call[384];          /* the first call whose peer along it is untold, and where
                                it was recorded */
};

/* --- the template, flattened: a loop node is followed by its body, up to end */
struct sp_guard {
    uint8_t pos[PZ_SCALE_MAX_DIMS];          /* allowed positions per dimension
                                                (SP_FIRST ...), and SP_LONG: made only
                                                where the dimension has 2 or more
                                                processes */
    uint8_t not_first[PZ_SCALE_MAX_DIMS];    /* a peer at -1 must exist */
    uint8_t not_last[PZ_SCALE_MAX_DIMS];     /* a peer at +1 must exist */
    uint32_t every;                          /* not 0: the rank must be a multiple of it,
                                                a member of the leaders' communicator of
                                                every `every`-th rank */
    uint8_t nodes;                           /* every is the node size, PZ_SCALE_NODE_K as
                                                built, the machine's once followed
                                                (pz_scale_program_follow_nodes) */
    uint8_t parity;                          /* not 0: bit d for each dimension d whose
                                                coordinate is summed, and the sum must be
                                                odd when odd, else even: the processes
                                                of one colour of a red-black ordering
                                                (along one dimension, or a checkerboard) */
    uint8_t odd;
    uint32_t rank_not;                       /* not 0: the process must not be world
                                                rank rank_not - 1, the one its messages
                                                name by rank (the others send to the
                                                root of a gather written by hand,
                                                scale_pairs_root.c), */
    uint32_t rank_is;                        /* or must be world rank rank_is - 1 (the
                                                root's own calls there) */
};
#define SP_FIRST 1u
#define SP_MIDDLE 2u
#define SP_LAST 4u
#define SP_ANYWHERE 7u
#define SP_LONG 8u      /* not a position: a dimension of 2 or more processes */

/* A loop's trip count at each of its passes through a recording (the how-many-th time
 * a process comes to it, from 0), the largest of the processes that made that pass. */
struct sp_passes {
    uint32_t *count;
    uint32_t n, cap;
};

struct sp_node {
    uint8_t kind;              /* enum sp_sym_kind */
    uint32_t sym;              /* STEP */
    uint32_t end;              /* LOOP: the node after its body */
    uint32_t region;           /* STEP: the reference in the model's recording */
    uint32_t first_event;      /* STEP: its events in the model's events */
    struct sp_guard guard;     /* STEP */
    double duration;           /* STEP: s inside the call, the shortest recording mean */
    uint8_t proc_null;         /* STEP: made where its peers do not exist, without their
                                  events (a call to MPI_PROC_NULL): its events are
                                  guarded, not the step */
    uint32_t per_call;         /* STEP: of the requests it completes (struct sp_done),
                                  how many each call completes, the first posted first;
                                  0: every one posted and not yet completed */
    struct pz_scale_model count;   /* LOOP: trip count */
    uint8_t pairs;                 /* LOOP: not 0, its trip count is the members of
                                      pairs_comm less pairs - 1 (an exchange with every
                                      other member in turn: pairs 2; with itself too: 1),
                                      whatever count says (sp_pairs_law) */
    struct pz_scale_comm pairs_comm;
    struct sp_trips *trips;        /* LOOP: the trip counts of each class of position,
                                      where they differ; NULL: count everywhere */
    struct sp_passes *passes;      /* LOOP: [run], where the data decide its trip count
                                      (sp_table.data_trips) and it differs from pass to
                                      pass: each recording's counts by pass; NULL */
    uint8_t tree;                  /* LOOP: its stages are a binomial tree's children: its
                                      trip count at a process is its number of children
                                      (sp_tree_children), whatever count says */
    uint8_t stages;                /* LOOP: a butterfly's stages are steps of its body, not
                                      of a loop within (sp_xor_mark_loops): a pass makes
                                      one run of them (struct pz_scale_program.starts) */
};

/* The sizes of an event (its bytes and bytes2) as functions of P.  A rooted collective
 * moves its data out of the root or into it (docs/trace-format.md, "Bytes of
 * collectives"): its root and its other members record different sizes, each fitted
 * apart; every other event's are the same for both (the others').  A collective over
 * the other members of a communicator of n processes records n - 1 times the block each
 * of them gets: where no exact form gives the sizes recorded, one may give the size per
 * other member (per_peer), which n - 1 multiplies back at any P. */
enum sp_size_which { SP_SENT, SP_RECEIVED, SP_ROOT_SENT, SP_ROOT_RECEIVED, SP_NSIZES };
struct sp_sizes {
    struct pz_scale_model of[SP_NSIZES];
    uint8_t per_peer;          /* bit w: of[w] is the size per other member */
    uint64_t unit[SP_NSIZES];  /* not 0: of[w] is the items of a block, of unit bytes each,
                                  rounded up (sp_fit_blocks) */
    uint64_t item[SP_NSIZES];  /* not 0: of[w] is a mean of sizes that are all multiples
                                  of item bytes, rounded to the nearest multiple */
};

/* The members of a communicator of class c in a run of nprocs processes in grid g (the
 * world's, a slice's, 1 for the process alone, rank 0's of a groups class: the largest
 * of its instances); 0 when unknown. */
uint32_t sp_comm_members(const struct pz_scale_comm *c, const struct pz_scale_grid *g,
                         int nprocs);
/* The sizes z at nprocs processes, on a communicator of `members` processes, into
 * out[SP_NSIZES]. */
void sp_sizes_at(const struct sp_sizes *z, int nprocs, uint32_t members, uint64_t *out);
/* A count (a loop's trip count) at nprocs, f's value rounded to a whole number as the
 * synthesis makes it; 0 for a value of 0 or less. */
uint64_t sp_whole_at(const struct pz_scale_model *f, int nprocs);
/* Loop node k's trip count at nprocs, whose grid is g: a loop exchanging with every
 * member in turn (scale_pairs_law.c) runs its communicator's members less those it
 * leaves out, any other its fitted count (sp_whole_at); what the synthesis makes, which
 * the sampling and the memory estimate count. */
uint64_t sp_trips_at(const struct pz_scale_program *m, uint32_t k,
                     const struct pz_scale_grid *g, int nprocs);

/* The sizes of a "v" collective (Gatherv, Scatterv, Allgatherv, Alltoallv) whose
 * members move different amounts, each member's as a function of its place and P
 * (scale_vsizes.c): by the class of its position in the grid (first, middle or last in
 * each dimension), or as a block distribution of N(P) items of `unit` bytes over the n
 * members, rank i holding N / n items, one more when i < N mod n.  The root of a rooted
 * one moves the sum of what the others move.  Sizes that differ within a class (the
 * data decide them) are SPREAD: mean(P) (per other member in an Alltoallv) times a
 * ratio drawn for the member among those the members of a recording show to their mean
 * (scale_vsizes.c), each way. */
enum sp_vform { SP_V_CLASS = 1, SP_V_BLOCK, SP_V_SPREAD };
#define SP_V_KEYS 64           /* first, middle, last or alone in each of 3 dimensions */
struct sp_vsizes {
    uint8_t form;              /* enum sp_vform */
    uint8_t nkeys;
    uint16_t keys[SP_V_KEYS];  /* CLASS: the classes fitted (sp_position_key) */
    struct pz_scale_model of[SP_V_KEYS][2];   /* CLASS: the sizes sent and received by a
                                                 member of that class, not the root */
    uint64_t unit;             /* BLOCK */
    uint8_t unit_guessed;      /* BLOCK: every recording's blocks even, unit the largest
                                  of 8, 4, 2 and 1 bytes that divides every block (an
                                  item's size, which no recording shows) */
    struct pz_scale_model items;                /* BLOCK: N; SPREAD: the mean */
    uint32_t seed;             /* SPREAD: tells this event's draws from another's */
    uint32_t nruns;            /* SPREAD: the recordings, and each one's processes, */
    int procs[64];             /* their members other than a root, and where their */
    uint32_t members[64], at[64];   /* ratios begin in ratio: sent, then received */
    double ratio[];            /* SPREAD (allocated with the struct) */
};

/* The trip counts of a loop that each class of position (first, middle or last in each
 * dimension: sp_position_key) makes a different number of times: the processes at the
 * edges of a pipeline drop different iterations.  Class keys[i] makes the loop count[i]
 * times, or (fewer[i]) the loop's count (struct sp_node) less count[i] times, count[i]
 * an exact form of P; a class none was fitted for makes the loop's count. */
struct sp_trips {
    uint32_t nkeys;
    uint16_t keys[SP_V_KEYS];
    struct pz_scale_model count[SP_V_KEYS];
    uint8_t fewer[SP_V_KEYS];
};

/* A template event: the signature's, its posting slot, the slot of the request it
 * completes, its sizes as functions of P. */
struct sp_tevent {
    const struct sp_event *sig;
    int32_t slot, completes;   /* -1: none */
    uint8_t guarded;           /* of a proc_null step: made where peers holds */
    struct sp_guard peers;     /* its peer (and its request's poster's) exist */
    struct sp_sizes sizes;
    struct sp_vsizes *v;       /* NULL: sizes, the same for every member of a role */
    struct sp_nbrsizes *nbr;   /* a neighbourhood collective's sizes per offset; NULL
                                  for the other events */
    struct sp_dim_blocks *blocks;   /* a message's size by its process's block along a
                                       dimension of the grid; NULL: sizes */
};

/* The share of member i of n in a block distribution of `items` items of unit bytes
 * each: floor(items / n) items, one more for the first items mod n members. */
static inline uint64_t sp_block_share(uint64_t unit, uint32_t n, uint32_t i, uint64_t items)
{
    return unit * (items / n + (i < items % n));
}

/* The size of a point-to-point message that differs between processes as a block
 * distribution along dimension dim of the grid (scale_dim_blocks.c): the process at
 * coordinate c of the dimension's n sends (and receives) sp_block_share(unit, n, c,
 * N(P)).  Codes split N rows or columns over a dimension of their grid so, and a halo
 * carries the block of the dimension it does not cross. */
struct sp_dim_blocks {
    uint8_t dim;
    uint64_t unit;
    struct pz_scale_model items;   /* N */
};

/* Whether e is a point-to-point message (a send or a receive) to a neighbour at an offset
 * in the grid, whose size at each process the walk keeps (struct sp_seen). */
int sp_offset_message(const struct sp_event *e);
/* The size of b's message at process proc of nprocs in grid g. */
uint64_t sp_dim_blocks_at(const struct sp_dim_blocks *b, const struct pz_scale_grid *g,
                          int nprocs, int proc);

/* Is e the end of a "v" collective (struct sp_vsizes). */
int sp_v_collective(const struct sp_event *e);
/* The class of a process's position flags (sp_positions) in ndims dimensions. */
uint16_t sp_position_key(const uint8_t *flags, int ndims);
/* The sizes sent and received (out[0], out[1]) by the member of rank `rank` of a
 * communicator of n processes (members: their world ranks, NULL: 0 to n - 1) in grid g
 * at v event e; sizes: the event's sizes at P (sp_sizes_at), kept where v says
 * nothing. */
void sp_vsizes_at(const struct sp_vsizes *v, const struct sp_event *e,
                  const struct pz_scale_grid *g, const int *members, uint32_t n,
                  uint32_t rank, const uint64_t *sizes, uint64_t *out);

/* What each member of v event e on a communicator of n sends to each other,
 * pairs[i * n + j] from i to j, from the members' sizes sent[r] and received[r]
 * (sp_vsizes_at): into a Gatherv's root and out of a Scatterv's, each member's size;
 * an Allgatherv member's block (sent / (n - 1), rounded) to every member, the diagonal
 * included (the block each receives from itself: the model's list has it); an
 * Alltoallv's by sp_alltoallv_pairs; 0 elsewhere. */
void sp_vsizes_pairs(const struct sp_event *e, uint32_t n, const uint64_t *sent,
                     const uint64_t *received, uint64_t *pairs);
/* An Alltoallv's pairs from its members' totals (the margins): i sends j
 * sent[i] * received[j] / (the total received by all but i), nothing to itself, each
 * row rounded to whole bytes summing to exactly sent[i] (its running total rounded,
 * begun at member i + 1 round the communicator).  Rows keep what each sends; column j
 * sums to about received[j] scaled so that all receive what all send. */
void sp_alltoallv_pairs(const uint64_t *sent, const uint64_t *received, uint32_t n,
                        uint64_t *pairs);
/* The per-peer lists member rank of v event e carries (docs/trace-format.md): its row
 * of pairs (SP_SEND_LIST: an Alltoallv's members, a Scatterv's root) and its column
 * (SP_RECV_LIST: an Alltoallv's and an Allgatherv's members, a Gatherv's root). */
#define SP_SEND_LIST 1u
#define SP_RECV_LIST 2u
unsigned sp_vsizes_lists(const struct sp_event *e, uint32_t n, uint32_t rank);

/* The sizes of a neighbourhood collective (scale_nbrsizes.c: peer kind
 * PZ_SCALE_PEER_NEIGHBOURS): what a process sends to and receives from its neighbour at
 * each offset of the communicator's grid, one size per offset and way as a function of
 * P, fitted as point-to-point messages' are over the recordings, each recording's the
 * largest of its processes that have that neighbour; where the processes of a recording
 * moved different amounts to an offset and each position class (sp_positions' flags in
 * the fewest dimensions that tell them apart) moved one, one per class. */
struct sp_nbrclass {
    uint8_t offset;                          /* its code */
    uint8_t pos[PZ_SCALE_MAX_DIMS];          /* the class: sp_positions' flags, 0 in the
                                                dimensions the sizes do not depend on */
    struct pz_scale_model of[2];             /* sent, received */
    double share[2];           /* -1: of[] is its fit; else, recorded at one count, its
                                  share of the largest there, kept at any count */
};
struct sp_nbrsizes {
    uint32_t offsets;          /* bit o: offset code o (PZ_SCALE_OFFSETS) is a neighbour */
    uint32_t differ;           /* bit o: the processes of a recording moved different
                                  amounts to it, which no class explains: of[o] is their
                                  mean over the processes (a note) */
    uint32_t classed;          /* bit o: the sizes at it follow the position classes:
                                  classes[] has those of the classes recorded, of[o]
                                  (the largest) stands for the others */
    struct pz_scale_model of[PZ_SCALE_OFFSETS][2];   /* sent, received */
    uint64_t low, high;        /* differ: the smallest and the largest size at an offset
                                  that differs, in the recording of the most processes
                                  that shows one (procs), for the note */
    int procs;
    uint32_t nclasses;
    struct sp_nbrclass classes[];            /* in the same allocation */
};
/* The world rank of the neighbour at offset code o of the process at coords of grid g,
 * on a communicator of class c (the offset in its dimensions); -1 when there is none
 * (beyond an edge). */
int sp_neighbour(const struct pz_scale_grid *g, const struct pz_scale_comm *c,
                 const int *coords, int o);
/* Neighbourhood event e's sizes at each process (stats->seen) into *out (allocated).
 * 0, or -1 when memory runs out. */
struct sp_seen;
int sp_nbrsizes_fit(const struct pz_scale_program *m, const struct sp_event *e,
                    struct sp_seen *const *seen, struct sp_nbrsizes **out);
/* What the member at coords of grid g sends to (out[j * 2]) and receives from (out[j *
 * 2 + 1]) each member j of communicator comm (class c) at neighbourhood event z: the
 * sizes at its neighbours (its position class's where z has one), summed where two
 * offsets name one process. */
void sp_nbrsizes_row(const struct sp_nbrsizes *z, const struct pz_scale_grid *g,
                     const struct pz_scale_comm *c, const struct pz_synth_comm *comm,
                     const int *coords, uint64_t *out);

/* The per-peer lists of a synthesized run's v collectives (scale_lists.c): for each v
 * event and each instance of its communicator, every member's lists as texts
 * ("8,0,24"), each distinct text kept once and numbered, and the totals each member
 * moves (the sums of its pairs but the one with itself). */
struct sp_lists;
struct sp_lists *sp_lists_new(uint32_t nevents);
void sp_lists_free(struct sp_lists *l);
/* Adds event ev (e, whose members' sizes v gives) on the count instances of its
 * communicator comms[0..count-1] (those of a slice, or the world), the first numbered
 * first.  0, or -1 when memory runs out. */
int sp_lists_add(struct sp_lists *l, uint32_t ev, const struct sp_vsizes *v,
                 const struct sp_event *e, const struct pz_scale_grid *g,
                 const struct pz_synth_comm *comms, uint32_t first, uint32_t count,
                 const uint64_t *sizes);
/* Adds neighbourhood event ev (class c, its sizes z) on the count instances of its
 * communicator comms[0..count-1], the first numbered first, in grid g.  0, or -1 when
 * memory runs out. */
int sp_lists_add_neighbours(struct sp_lists *l, uint32_t ev, const struct sp_nbrsizes *z,
                            const struct pz_scale_comm *c, const struct pz_scale_grid *g,
                            const struct pz_synth_comm *comms, uint32_t first,
                            uint32_t count);
/* Member rank of communicator comm at event ev: its lists' numbers (list[0] sent,
 * list[1] received, PZ_NONE32 none) and totals into out[0..1]; 0 when ev has lists
 * there, else -1 (nothing written). */
int sp_lists_of(const struct sp_lists *l, uint32_t ev, uint32_t comm, uint32_t rank,
                uint32_t *list, uint64_t *out);
/* The texts, list i at [i]. */
const char *const *sp_lists_texts(const struct sp_lists *l, uint32_t *n);

/* How the request of a posting slot ends when a call over many requests completes it:
 * the step that does (the node; SP_NONE: none does), the completion's record (its
 * signature, sizes as functions of P), learned from the recordings.  by_signature: a
 * call of one request completes it (its signature names it, sp_tevent.completes). */
struct sp_done {
    uint32_t node;
    struct sp_event sig;
    struct sp_sizes sizes;
    uint8_t by_signature;
    struct sp_nbrsizes *nbr;   /* a nonblocking neighbourhood collective's, else NULL */
    struct sp_dim_blocks *blocks;   /* a received message's, as struct sp_tevent's */
};

/* The computation before a step made right after another step (prev, SP_NONE at the
 * beginning): what a class of processes too rare in the recordings falls back on.  Where
 * a step is missing (at an edge) the computation before it lands on the next step, so
 * the processes are grouped by the pair of steps around the computation, or by the step
 * before it alone, or by the step after it alone: of these groupings, the one found in
 * enough recordings whose processes' computations differ least (spread) is chosen.  A
 * pair in too few recordings takes the grouping by a single step at the pair's level:
 * that model times the mean ratio of the pair's recorded computations to it (a
 * wavefront's processes with a west neighbour, recorded at 4 and 8 only, compute
 * under a microsecond between their receives from the north and the west, not the
 * relaxation most computations after a receive from the north are). */
struct sp_pred {
    uint32_t node, prev, next;   /* next: the next of node's list, SP_NONE */
    struct pz_scale_model gap;
    uint8_t by_prev;             /* gap is the grouping by the step before alone: a model
                                    of computations before other steps too, whose
                                    variation node's ratios do not tell (scale_vary.h) */
};

/* The computations recorded before one step: while walking, those of one class of
 * processes in one recording, in seconds, each with its pass (the how-many-th time its
 * process made the step, from 0); then, merged over the classes, each one's ratio to
 * its class's mean, by pass (scale_vary.h). */
struct sp_ratios {
    double *v;
    uint32_t *pass;            /* walking: [i], v[i]'s */
    uint32_t *first;           /* merged: [pass], where its ratios begin in v; [npasses]: n */
    uint32_t n, cap, pass_cap, npasses;
    const void *last;          /* walking: the process of the last computation */
    int procs;                 /* merged: the recording's count */
};

/* One grouping's computations in one recording. */
struct sp_group {
    double sum, min, max;
    uint32_t n;
};

/* A class of processes: which conditions of the template hold at it. */
struct sp_class {
    uint64_t mask;
    char name[64];
};

struct pz_scale_program {
    const struct pz_scale_run *const *runs;
    size_t nruns, largest;
    int compute_cpu;
    struct pz_scale_grid grid;               /* the largest recording's, periodic as
                                                every recording shows */
    struct sp_table table;
    struct sp_node *nodes;
    uint32_t nnodes;
    struct sp_tevent *events;
    uint32_t nevents, nslots;
    struct sp_done *done;                    /* [slot] */
    struct sp_guard *conds;                  /* distinct conditions of guards */
    uint32_t nconds;
    int32_t *roots;                          /* world ranks that are a root: >= 0 from the
                                                first, < 0 from the last (-1 = last) */
    uint32_t nroots;
    struct sp_class *classes;
    uint32_t nclasses;
    uint32_t every;                          /* the smallest k of a leaders' communicator
                                                the template uses, 0: none (sp_trips_key) */
    struct pz_scale_model *gap;              /* [node * (nclasses + 1) + class]; class
                                                nclasses: over all processes */
    struct pz_scale_model *tail;             /* [class], the same */
    uint8_t *gap_own;                        /* [node * (nclasses + 1) + class]: the class
                                                has a fit of its own */
    struct sp_ratios *ratios;                /* [(node * nclasses + class) * nruns + r]
                                                while walking, then [node * nruns + r] */
    size_t nratios;                          /* ... of either */
    struct sp_pred *preds;
    uint32_t npreds, cappreds;
    uint32_t *pred_head;                     /* [node]: its first pred, SP_NONE */
    struct pz_scale_model *after;            /* [prev + 1]: after a step (0: the start),
                                                whatever follows */
    double *after_spread, *before_spread;    /* [prev + 1], [node]; HUGE_VAL: in too few
                                                recordings */
    struct pz_scale_compute *compute;
    size_t ncompute;
    char **notes;
    size_t nnotes;
    uint32_t *first_proc, *first_step;       /* building: [node * nruns + run], the first
                                                process making a step, SP_NONE if none */
    uint8_t *ambiguous;                      /* building: [run], sp_ambiguous_dims */
    uint8_t ***starts;                       /* building a model of butterflies: [run]
                                                [proc][step], the step begins a run of
                                                stages (sp_xor_starts); else NULL */
    char **loop_where;                       /* [node]: where each loop begins
                                                (sp_loop_where), for what is said after
                                                the build; NULL elsewhere */
    struct pz_scale_run *copies;             /* the recordings runs point to where the
                                                model was built from copies of them
                                                (sp_order_copy), owned; else NULL */
    uint32_t uneven;                         /* loops whose trip count differs within a
                                                recording, which no class of position
                                                explains (the largest is synthesized) */
    struct sp_untold untold[PZ_SCALE_MAX_DIMS];   /* of each dimension */
};

/* A process's position flags in each dimension of g. */
void sp_positions(const struct pz_scale_grid *g, const int *coords, uint8_t *flags);
/* Does gd hold at process rank, its position flags in g `flags`? */
int sp_guard_holds(const struct sp_guard *gd, const struct pz_scale_grid *g, int rank,
                   const uint8_t *flags);
/* The class mask of a process: bit i when conds[i] holds, bit nconds + j when it is the
 * j-th root. */
uint64_t sp_class_mask(const struct pz_scale_program *m, const struct pz_scale_grid *g,
                       int rank, const uint8_t *flags);
/* The class of position of process rank for the trip counts of loops (struct
 * sp_trips): its position flags in grid g (sp_position_key), and whether it is a member
 * of the leaders' communicator of every m->every-th rank (bit 9), whose members may run
 * a loop more often (the communicators they free). */
uint16_t sp_trips_key(const struct pz_scale_program *m, const struct pz_scale_grid *g,
                      const uint8_t *flags, int rank);
/* The condition that a step's own offset peers (and those of the requests it completes)
 * exist, into gd (positions anywhere). */
void sp_peer_guard(const struct pz_scale_program *m, uint32_t sym, struct sp_guard *gd);
/* The same for one event of the table. */
void sp_event_guard(const struct pz_scale_program *m, const struct sp_event *e,
                    struct sp_guard *gd);
/* Where process proc of recording run is (sp_compatible). */
struct sp_at sp_at_process(const struct pz_scale_program *m, size_t run, uint32_t proc);
/* Does recorded step rsym of process proc of recording run match node k (sp_compatible);
 * *missing as there. */
int sp_matches(const struct pz_scale_program *m, size_t run, uint32_t proc, uint32_t rsym,
               uint32_t k, int *missing);
/* Chooses every step node's guard from where it was made (made[node][run], bitmaps of
 * ranks); collects conditions, roots and classes.  0, or -1 with err. */
int sp_guards_infer(struct pz_scale_program *m, uint64_t *const *made, char *err,
                    size_t errlen);

/* Whether the run at nprocs takes a loop of steps each made by the processes of one
 * parity (a red-black ordering) a number of times that is not whole there (an odd-even
 * transposition's P phases, two an iteration, at an odd P): 0, or -1 with a one-line
 * message in err naming the loop and its trip count. */
int sp_half_check(const struct pz_scale_program *m, int nprocs, char *err, size_t errlen);

/* Why node k, whose messages go to the process itself, was made only in recordings
 * where a dimension of the grid has 1 process and in none where it has 2 (at most 2 in
 * every one: whether it wraps around no recording shows), after "; ", into why: 1; 0
 * when k is no such step (why untouched). */
int sp_itself_why(const struct pz_scale_program *m, uint32_t k, char *why, size_t len);

/* Merges the folded sequences of every process of every run into the template
 * (m->nodes).  0, or -1 with err. */
int sp_merge(struct pz_scale_program *m, uint32_t *const *const *folded,
             const size_t *const *nfolded, char *err, size_t errlen);

/* Finds, for each dimension, the first step of the template whose peer along it the
 * recordings do not tell (m->untold), with a note each; while building, after the
 * template's events.  0, or -1 when memory runs out. */
int sp_untold_find(struct pz_scale_program *m);
/* When every dimension of a grid inferred from the messages (no MPI_Cart_create) has at
 * most 2 processes in every recording, a note naming the first message along one that
 * is not periodic: sent to the neighbour in the grid or to a partner computed from the
 * rank (rank XOR 2^i), the recordings cannot tell, and the grid's neighbours are taken.
 * While building, after sp_untold_find.  0, or -1 when memory runs out. */
int sp_untold_hypercube(struct pz_scale_program *m);
/* Whether the run in grid g takes a peer the recordings do not tell (a dimension
 * longer than they have it): 0, or -1 with a one-line message in err naming the call,
 * the dimension and a count whose recording would tell. */
int sp_untold_check(const struct pz_scale_program *m, const struct pz_scale_grid *g,
                    char *err, size_t errlen);

/* What sp_fit may take from the recordings' process grid (the points' dims): the grid
 * forms in ndims dimensions (0: none), before the forms of P when first; a grid form is
 * evaluated at counts not recorded on the layout smallest side first when ascending
 * (the program's grid.ascending). */
struct sp_grid_use {
    int ndims;
    int first;
    int ascending;
};

/* What values sp_fit fits: whole amounts (counts, bytes), other amounts (a mean of
 * bytes), or a computation's time, whose work does not fall (scale_fit.h). */
enum sp_values { SP_WHOLE, SP_AMOUNT, SP_TIME };

/* Fits values at counts: exact forms first (whole values once rounded, others exactly;
 * grid: the grid forms too, NULL for none), else scale_fit.h's.  Returns 1 for an exact
 * form, 0 for scale_fit's, -1 when too few counts gave a constant. */
int sp_fit(const struct pz_scale_point *p, size_t n, enum sp_values what,
           const struct sp_grid_use *grid, struct pz_scale_model *out);

/* sp_fit of a computation's time (SP_TIME) made at every iteration of loops whose trip
 * counts grow as P^loops over the recorded counts: its falls may be as steep as
 * 1 / P^(1 + loops) (pz_scale_fit_in_loops). */
int sp_fit_time(const struct pz_scale_point *p, size_t n, double loops,
                struct pz_scale_model *out);

/* sp_fit's exact forms alone (whole values when integer, which may round to them): 1
 * and the form in out when one gives every point, else 0 (out undefined), with no fit
 * by least squares. */
int sp_fit_exact(const struct pz_scale_point *p, size_t n, int integer,
                 const struct sp_grid_use *grid, struct pz_scale_model *out);

/* The exact form of whole values p (bytes) no form of sp_fit gives: the largest block of
 * a block distribution, unit * ceil(N / d) with d = P or a dimension of the grid (grid:
 * those in its ndims, before P when first), whose rounding up the values show.  1 with
 * *items = N / d and *unit, 0 when none gives them (*items and *unit untouched). */
int sp_fit_blocks(const struct pz_scale_point *p, size_t n, const struct sp_grid_use *grid,
                  struct pz_scale_model *items, uint64_t *unit);
/* unit * ceil(items at nprocs): sp_fit_blocks's size. */
uint64_t sp_block_at(const struct pz_scale_model *items, uint64_t unit, int nprocs);

int sp_note(struct pz_scale_program *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A note placed at *at among the notes (before those of the sizes it replaces, which
 * come in the order of the template and may be many), *at then after it.  0 or -1. */
int sp_note_at(struct pz_scale_program *m, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* --- the nodes a law of a loop's trip count asks for (scale_law_nodes.c): sp_xor_law
 * and sp_pairs_law take a law only for the loop right around steps every process makes */
/* The innermost loop node around node k, SP_NONE when it is in none. */
uint32_t sp_loop_around(const struct pz_scale_program *m, uint32_t k);
/* Whether step node k is made by every process: its guard allows every position in
 * every dimension, needs no peer at -1 or +1, and asks for no leader (every) nor parity
 * of the coordinates.  A butterfly's stage has its partner at every process; a halo
 * exchange whose tags name the direction has other steps at the two ends of a
 * dimension. */
int sp_everywhere(const struct pz_scale_program *m, uint32_t k);
/* Whether guard g holds at every process (sp_everywhere's test of a guard). */
int sp_guard_anywhere(const struct sp_guard *g);
/* The first event of step node k whose peer is of kind `kind` (enum
 * pz_scale_peer_kind: a stage, PZ_SCALE_PEER_XOR, a transpose partner or a pair), NULL
 * when k is no step or has none. */
const struct sp_event *sp_peer_of(const struct pz_scale_program *m, uint32_t k, int kind);
/* Whether step node k, whose event e is one of two blocking calls with its partner
 * ordered by rank (struct pz_scale_peer.off[1]), has the other right beside it, in the
 * same loop body, with the same partner: the synthesis makes the two the other way
 * round where the rank is above the partner's.  1 too when e is of no such order. */
int sp_ordered_beside(const struct pz_scale_program *m, uint32_t k, const struct sp_event *e);
/* The loop a law of its trip count may be taken for around step node k: the loop right
 * around it, k made by every process (sp_everywhere) and the loop's trip count one
 * count at every position (no struct sp_trips); SP_NONE when there is none. */
uint32_t sp_law_loop(const struct pz_scale_program *m, uint32_t k);
/* How the trip counts of the loops around node k, multiplied, grow with P over the
 * recorded counts: log(trips at the largest count / trips at the smallest) /
 * log(largest / smallest), 0 where they do not grow or a trip count is unknown (0, the
 * data deciding it): what a computation before node k may fall by beyond 1 / P
 * (pz_scale_fit_in_loops). */
double sp_loops_growth(const struct pz_scale_program *m, uint32_t k);
/* The recorded counts of m, as "2, 4, 8", into buf (len bytes, cut there). */
void sp_recorded_counts(const struct pz_scale_program *m, char *buf, size_t len);

/* The walks: membership (made; folded: each process's folded steps, which tell the
 * steps it repeats), then the checked walk gathering the numbers and the fits.  0, or
 * -1 with err. */
int sp_walk_membership(struct pz_scale_program *m, uint32_t *const *const *raw,
                       uint32_t *const *const *folded, const size_t *const *nfolded,
                       uint64_t **made, char *err, size_t errlen);

/* How the sizes of a template event changed at one process of a recording from one
 * pass to the next (signatures alone telling calls apart, struct sp_table): the last
 * sizes, of which process (+ 1, 0: none yet), and the first change seen, of the sent
 * size (0) and of the received (1). */
struct sp_change {
    uint64_t last[2], from[2], to[2];
    uint32_t last_proc;
    uint8_t changed;           /* bit w: from[w] and to[w] are known */
};

/* The sizes of a v collective at one process: the first pass's, and whether a later
 * pass had others. */
struct sp_seen {
    uint64_t bytes, bytes2;
    uint8_t seen, varies;
    const struct pz_scale_nbr *nbr;   /* a neighbourhood collective's table, else NULL */
};

/* A v event's sizes at each process (stats->seen) as functions of its place and P, into
 * *out (allocated; NULL: none fits, or they do not differ and form no block
 * distribution).  1 when the members other
 * than a root move different amounts and no form gives them, else 0; -1 when memory
 * runs out. */
int sp_vsizes_fit(const struct pz_scale_program *m, const struct sp_event *e,
                  struct sp_seen *const *seen, struct sp_vsizes **out);

/* The block distribution along a dimension of the grid that gives every process of
 * every recording that made e (seen, as sp_vsizes_fit's) its size, into *out
 * (allocated; NULL: none does, or the sizes do not differ).  A dimension e's peer
 * crosses is not tried: the receiver's size is then the sender's block, not its own.
 * 0, or -1 when memory runs out. */
int sp_dim_blocks_fit(const struct pz_scale_program *m, const struct sp_event *e,
                      struct sp_seen *const *seen, struct sp_dim_blocks **out);

/* A loop's trip counts by class of position in each recording: keys[i]'s in run r at
 * [i * nruns + r], 0 where the class never ran it. */
struct sp_key_counts {
    uint32_t nkeys;
    uint16_t keys[SP_V_KEYS];
    uint32_t *min, *max;
};

/* An event's sizes summed over every process and pass of a run (sent, received), how
 * many, and their greatest common divisor (0: all were 0): the mean a size the data
 * decide is fitted by, and the unit it is a whole multiple of. */
struct sp_size_sums {
    double sum[2];
    uint64_t n;
    uint64_t gcd[2];
};

/* The greatest common divisor of a and b, the other when one is 0. */
uint64_t sp_gcd(uint64_t a, uint64_t b);

/* What the checked walk gathers from every recording, by run r (of nruns): */
struct sp_stats {
    double *gap;            /* [(node * nclasses + class) * nruns + r] sums, s */
    uint32_t *ngap;         /* ... and how many */
    double *tail;           /* [class * nruns + r] */
    uint32_t *ntail;
    uint32_t *count_min, *count_max;   /* [node * nruns + r], loops; 0: never run */
    struct sp_key_counts **by_key;     /* [node]: a loop's (allocated as met), NULL */
    uint32_t nby_key;
    uint64_t *bytes_min, *bytes_max, *bytes2_min, *bytes2_max;   /* [event * nruns + r],
                                          the completion of slot s at event nevents + s */
    uint8_t *has_bytes;                /* the same */
    struct sp_change *change;          /* the same */
    struct sp_size_sums *sums;         /* the same */
    struct sp_seen **seen;  /* [event * nruns + r]: a v collective's or a message's to
                               an offset (sp_offset_message) sizes at each process of
                               run r (allocated as met), NULL; a neighbourhood
                               collective's or a received message's completion of
                               slot s at event nevents + s */
    size_t nseen;
    double *duration;       /* [node * nruns + run], the sum */
    uint32_t *nduration;
    const char **intervals; /* distinct interval names, "" (the whole run) first */
    uint32_t nintervals;
    double *in_interval;    /* [(interval * nclasses + class) * nruns + r] */
    uint32_t *nin_interval;
    struct sp_group *pred;  /* [pred * nruns + r] */
    struct sp_group *after; /* [(prev + 1) * nruns + r] */
    struct sp_group *before;   /* [node * nruns + r] */
    struct sp_passes *passes;  /* [node * nruns + r], loops, where loops whose trip count
                                  the data decide are one symbol (sp_table.data_trips);
                                  else NULL */
    size_t npasses;
};
int sp_walk_check(struct pz_scale_program *m, uint32_t *const *const *raw,
                  struct sp_stats *st, char *err, size_t errlen);
void sp_stats_free(struct sp_stats *st);
/* Where loops whose trip count the data decide were folded as one (sp_table.data_trips),
 * for each loop whose trip count changes from one pass to the next in a recording
 * (st->passes): its counts by pass kept in the model (struct sp_node.passes, taken from
 * st) and a note naming it, its counts and their cause, and what is done.  0, or -1
 * when memory runs out (scale_data_trips.c). */
int sp_data_trips_note(struct pz_scale_program *m, struct sp_stats *st);
/* The trip count of the pass-th pass (from 0) of loop k whose counts differ from pass to
 * pass (struct sp_node.passes) in the run at nprocs: that pass's in the recording whose
 * count is nearest nprocs (by their ratio; the larger count of a tie), the passes taken
 * again from the first beyond its last. */
uint64_t sp_data_trips_at(const struct pz_scale_program *m, uint32_t k, int nprocs,
                          uint32_t pass);
/* The models of trip counts, sizes and computations from the gathered numbers. */
int sp_fit_all(struct pz_scale_program *m, const struct sp_stats *st);
/* Keeps the computation gap recorded before node k at process proc (any pointer that
 * tells it apart), of class cls, of recording run, the processes walked one after the
 * other; then, once the walk is done, turns them into each node's ratios per recording
 * (struct sp_ratios).  0, or -1 when memory runs out. */
int sp_ratio_add(struct pz_scale_program *m, uint32_t k, uint32_t cls, size_t run,
                 const void *proc, double gap);
int sp_ratios_finish(struct pz_scale_program *m);
/* The ratios the synthesis at nprocs draws node k's computations from: those of the
 * recording whose count is nearest nprocs (by their ratio; the larger count of a tie)
 * among those that made k; NULL when none did. */
const struct sp_ratios *sp_ratios_at(const struct pz_scale_program *m, uint32_t k,
                                     int nprocs);
void sp_ratios_free(struct pz_scale_program *m);
/* The ratio of computation number i of process proc, its pass-th before the step
 * (from 0), drawn among q's of that pass (pz_scale_draw), or among all of them when the
 * recording made fewer passes; 1 when q is NULL. */
double sp_ratio_draw(const struct sp_ratios *q, uint32_t pass, uint32_t proc, uint64_t i);
/* The records step node i makes at a process: its Enter (but at the end of an
 * interval), its events, its Leave (but at the beginning of an interval), and a
 * completion for each slot it completes whose completion is not one of its events (a
 * call over many requests, where the signature leaves them out). */
uint64_t sp_step_records(const struct pz_scale_program *m, uint32_t i);
/* Where step `step` of process proc of recording run is, for messages: "interval 'x',
 * call 3" (calls counted from the interval's beginning, 1 for the first). */
void sp_where(const struct pz_scale_program *m, size_t run, uint32_t proc, uint32_t step,
              char *buf, size_t len);
/* Keeps where each loop begins (m->loop_where) while the build's places are there.
 * 0, or -1 when memory runs out. */
int sp_keep_loop_places(struct pz_scale_program *m);
/* Into buf, where loop k begins: its first step's name and place in the first recording
 * that made it ("MPI_Send (interval 'x', call 8 at process 1 of PATH)"), or "a loop". */
void sp_loop_where(const struct pz_scale_program *m, uint32_t k, char *buf, size_t len);
/* The loops around the node a walk through the template, in its order, is at: a
 * stretch of steps in one loop's body ends where a loop begins or ends.  Zeroed, none. */
struct sp_loops {
    uint32_t stack[64];      /* the outer 64 of them */
    uint32_t depth;
};
/* Moves l to node k, the next of the walk: it leaves the loops that end before k and
 * enters k if it is a loop; 1 when a loop ended or begins there, else 0. */
int sp_loops_at(const struct pz_scale_program *m, struct sp_loops *l, uint32_t k);
/* The innermost loop around the node l is at, SP_NONE outside every loop. */
uint32_t sp_loops_innermost(const struct sp_loops *l);
/* The first step of nodes from .. end - 1 that a recording made, for messages: 1 with
 * the step's node in *node and the first recording that made it in *run; 0 if none
 * did. */
int sp_first_made(const struct pz_scale_program *m, uint32_t from, uint32_t end,
                  uint32_t *node, size_t *run);
/* When some process runs one loop of the program (the same body between the same
 * steps) a different number of times from one pass to the next (its steps raw[run][proc],
 * folded: folded[run][proc], nfolded[run][proc] of them), and err is a refusal of the
 * recordings ("recordings differ: ..."), rewrites err to name that loop (the first such
 * at the first such process: where it begins and the call it begins with), its counts
 * there and at a process of each other recording where they vary so, as a count that
 * depends on the data, the first difference kept after it (scale_data_trips.c).  1 when
 * it did, 0 when err stays, -1 when memory runs out (err unchanged). */
int sp_name_data_trips(const struct pz_scale_program *m, uint32_t *const *const *raw,
                       uint32_t *const *const *folded, const size_t *const *nfolded,
                       char *err, size_t errlen);
/* Marks, in m's table, the body of every loop that some process runs a different number
 * of times from one pass to the next (as sp_name_data_trips finds it, its steps raw,
 * folded and nfolded as there) as one whose trip count the data decide: its loop symbol
 * of count 0, which sp_table_loop then gives when m->table.data_trips.  How many bodies
 * were marked, -1 when memory runs out. */
int sp_data_loops_mark(struct pz_scale_program *m, uint32_t *const *const *raw,
                       uint32_t *const *const *folded, const size_t *const *nfolded);
/* What such a refusal says of the loop's cause, to tell it by. */
#define SP_DATA_TRIPS "as when it depends on the data (convergence, load balancing)"

#endif
