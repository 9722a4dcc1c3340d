#ifndef BUFFER_H
#define BUFFER_H

#include <stdio.h>
#include <stdlib.h>
#include "list.h"

#define BUF_SIZE 1024
#define MIN(a, b) ((a) < (b) ? (a) : (b))

/* A growable buffer. */
typedef struct buffer {
    char *data;
    size_t len;
    size_t cap;
} buffer_t;

struct node {
    int value;
    struct node *next;
};

enum color { RED, GREEN, BLUE };

union value {
    int i;
    double d;
};

static int counter = 0;

/* Create a buffer. */
buffer_t *buffer_new(size_t cap) {
    buffer_t *b = malloc(sizeof(buffer_t));
    b->data = calloc(cap, 1);
    list_init(&b->items);
    return b;
}

// Append bytes.
int buffer_append(buffer_t *b,
                  const char *s, size_t n)
{
    if (b->len + n > b->cap) {
        buffer_grow(b, n);
    }
    b->ops->write(b, s, n);
    return 0;
}

static inline void *xalloc(size_t n) { return malloc(n); }

typedef struct {
    int x, y;
} point_t;

int buffer_len(const buffer_t *b);

struct outer {
    struct inner { int a; } in;
    int b;
};

#endif
