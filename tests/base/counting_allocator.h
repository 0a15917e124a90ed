/* A counting allocator for sw_set_allocator (sinew/base.h): it counts
   allocations, reallocations and frees, and the blocks and bytes alive,
   and it can refuse allocations after a number of them, to walk every
   out-of-memory path of a call.

       counting_allocator c;
       counting_begin(&c);          // installed; counts from zero
       ... sinew calls, everything freed ...
       counting_end(&c);            // malloc/realloc/free again
       SW_CHECK(c.live_blocks == 0 && c.allocations > 0 && c.foreign == 0);

   Each block carries a header with its size (so that a free knows how
   many bytes leave). Every pointer handed out is also kept in a table of
   live blocks: a pointer sinew gives back that did not come from here (a
   block from libc's malloc, freed through sinew's allocator) is counted in
   `foreign` and never read, instead of corrupting the heap. The table
   itself uses libc's malloc, outside the counts. A mutex makes it safe for
   any thread. */
#ifndef SINEW_TEST_COUNTING_ALLOCATOR_H
#define SINEW_TEST_COUNTING_ALLOCATOR_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/base.h"

/* The header in front of each block, as big as the strictest alignment, so
   that the memory after it is aligned for any type (as malloc's). */
typedef union counting_header {
    struct {
        size_t size;
        uint64_t canary;
    } info;
    max_align_t align;
} counting_header;

#define COUNTING_CANARY 0x5357616c6c6f6321ull /* "SWalloc!" */
#define COUNTING_NEVER SIZE_MAX

typedef struct counting_allocator {
    pthread_mutex_t lock;
    size_t allocations;    /* blocks handed out by allocate (and by reallocate of NULL) */
    size_t reallocations;  /* blocks resized by reallocate */
    size_t frees;          /* blocks given back by deallocate */
    size_t live_blocks, live_bytes, peak_bytes;
    size_t foreign;        /* pointers given to deallocate/reallocate that did not come from here */
    /* Refusals: calls number fail_from .. fail_from + fail_count − 1
       (counting every allocate and reallocate from 0) answer NULL. */
    size_t calls;
    size_t fail_from;      /* COUNTING_NEVER: never refuse */
    size_t fail_count;     /* COUNTING_NEVER: refuse every call from fail_from on */
    size_t refused;
    /* The live set: open addressing on the block's address (0 empty, 1 gone). */
    uintptr_t* table;
    size_t table_cap, table_used;
} counting_allocator;

static inline size_t counting_slot(uintptr_t p, size_t cap) {
    uint64_t h = (uint64_t)p * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 17) & (cap - 1);
}

/* Index of p in the table, or of the empty slot where it would go. */
static inline size_t counting_find(const counting_allocator* c, uintptr_t p) {
    size_t i = counting_slot(p, c->table_cap);
    while (c->table[i] != 0 && c->table[i] != p) i = (i + 1) & (c->table_cap - 1);
    return i;
}

static inline int counting_table_add(counting_allocator* c, uintptr_t p) {
    if ((c->table_used + 1) * 2 > c->table_cap) {
        /* Rebuilt without the gone slots, at most a quarter full. */
        size_t cap = 1024;
        while ((c->live_blocks + 1) * 4 > cap) cap *= 2;
        uintptr_t* old = c->table;
        size_t old_cap = c->table_cap;
        c->table = calloc(cap, sizeof *c->table);
        if (!c->table) {
            c->table = old;
            return 0;
        }
        c->table_cap = cap;
        c->table_used = 0;
        for (size_t i = 0; i < old_cap; i++)
            if (old[i] > 1) c->table[counting_find(c, old[i])] = old[i], c->table_used++;
        free(old);
    }
    size_t i = counting_find(c, p);
    c->table[i] = p;
    c->table_used++;
    return 1;
}

static inline int counting_table_remove(counting_allocator* c, uintptr_t p) {
    if (!c->table_cap) return 0;
    size_t i = counting_slot(p, c->table_cap);
    while (c->table[i] != 0) {
        if (c->table[i] == p) {
            c->table[i] = 1; /* gone: the probe chain goes on past it */
            return 1;
        }
        i = (i + 1) & (c->table_cap - 1);
    }
    return 0;
}

/* Whether this call is refused (called with the lock held). */
static inline int counting_refuse(counting_allocator* c) {
    size_t call = c->calls++;
    if (call < c->fail_from) return 0;
    if (c->fail_count != COUNTING_NEVER && call - c->fail_from >= c->fail_count) return 0;
    c->refused++;
    return 1;
}

static inline void* counting_allocate(void* user, size_t size) {
    counting_allocator* c = (counting_allocator*)user;
    pthread_mutex_lock(&c->lock);
    void* out = NULL;
    counting_header* h = NULL;
    if (!counting_refuse(c) && size <= SIZE_MAX - sizeof *h) h = malloc(sizeof *h + size);
    if (h && counting_table_add(c, (uintptr_t)(h + 1))) {
        h->info.size = size;
        h->info.canary = COUNTING_CANARY;
        c->allocations++;
        c->live_blocks++;
        c->live_bytes += size;
        if (c->live_bytes > c->peak_bytes) c->peak_bytes = c->live_bytes;
        out = h + 1;
    } else {
        free(h);
    }
    pthread_mutex_unlock(&c->lock);
    return out;
}

static inline void counting_deallocate(void* user, void* ptr) {
    if (!ptr) return;
    counting_allocator* c = (counting_allocator*)user;
    pthread_mutex_lock(&c->lock);
    if (!counting_table_remove(c, (uintptr_t)ptr)) {
        c->foreign++;
        fprintf(stderr, "  counting allocator: deallocate(%p): not a block of this allocator\n", ptr);
        pthread_mutex_unlock(&c->lock);
        return;
    }
    counting_header* h = (counting_header*)ptr - 1;
    if (h->info.canary != COUNTING_CANARY) fprintf(stderr, "  counting allocator: header of %p overwritten\n", ptr);
    c->frees++;
    c->live_blocks--;
    c->live_bytes -= h->info.size;
    h->info.canary = 0;
    free(h);
    pthread_mutex_unlock(&c->lock);
}

static inline void* counting_reallocate(void* user, void* ptr, size_t size) {
    if (!ptr) return counting_allocate(user, size);
    counting_allocator* c = (counting_allocator*)user;
    pthread_mutex_lock(&c->lock);
    void* out = NULL;
    if (!counting_table_remove(c, (uintptr_t)ptr)) {
        c->foreign++;
        fprintf(stderr, "  counting allocator: reallocate(%p): not a block of this allocator\n", ptr);
    } else if (counting_refuse(c) || size > SIZE_MAX - sizeof(counting_header)) {
        counting_table_add(c, (uintptr_t)ptr); /* refused: the block stays as it was */
    } else {
        counting_header* h = (counting_header*)ptr - 1;
        size_t old_size = h->info.size;
        counting_header* grown = realloc(h, sizeof *grown + size);
        if (!grown) {
            counting_table_add(c, (uintptr_t)ptr);
        } else {
            grown->info.size = size;
            counting_table_add(c, (uintptr_t)(grown + 1));
            c->reallocations++;
            c->live_bytes = c->live_bytes - old_size + size;
            if (c->live_bytes > c->peak_bytes) c->peak_bytes = c->live_bytes;
            out = grown + 1;
        }
    }
    pthread_mutex_unlock(&c->lock);
    return out;
}

/* Zeroes the counts, refuses nothing, and installs c. */
static inline void counting_begin(counting_allocator* c) {
    memset(c, 0, sizeof *c);
    pthread_mutex_init(&c->lock, NULL);
    c->fail_from = COUNTING_NEVER;
    c->fail_count = COUNTING_NEVER;
    sw_set_allocator(&(sw_allocator){counting_allocate, counting_reallocate, counting_deallocate, c});
}

/* Puts malloc/realloc/free back and frees the live set (blocks still alive
   are reported by the counts, then leaked to ASan's report). */
static inline void counting_end(counting_allocator* c) {
    sw_set_allocator(NULL);
    free(c->table);
    c->table = NULL;
    c->table_cap = c->table_used = 0;
    pthread_mutex_destroy(&c->lock);
}

/* Refuse calls fail_from .. fail_from + fail_count − 1, counted from now. */
static inline void counting_fail(counting_allocator* c, size_t fail_from, size_t fail_count) {
    pthread_mutex_lock(&c->lock);
    c->calls = 0;
    c->refused = 0;
    c->fail_from = fail_from;
    c->fail_count = fail_count;
    pthread_mutex_unlock(&c->lock);
}

static inline void counting_print(const counting_allocator* c, const char* what) {
    fprintf(stderr,
            "  %s: %zu allocations, %zu reallocations, %zu frees, peak %zu bytes, %zu blocks (%zu bytes) alive%s\n", what,
            c->allocations, c->reallocations, c->frees, c->peak_bytes, c->live_blocks, c->live_bytes,
            c->foreign ? ", FOREIGN POINTERS SEEN" : "");
}

#endif
