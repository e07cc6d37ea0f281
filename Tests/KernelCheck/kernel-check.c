// The raster kernels on fixed pseudo-random inputs, one line per kernel: its name and a hash of
// everything it wrote. scripts/check-kernels builds this for x86-64 (with the AVX2 variants, as
// shipped, and with the SSE2 baseline alone), aarch64 and 32-bit ARM (NEON), runs the ARM builds
// under qemu-user, and requires the same lines from all: the kernels are exact integer (or
// uncontracted float) arithmetic, so every build must write the same bytes.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CRasterKernels.h"

static uint64_t state = 0x9E3779B97F4A7C15u;
static uint32_t next(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (uint32_t)(state >> 16);
}
static int below(int n) { return (int)(next() % (uint32_t)n); }

// FNV-1a over bytes.
static uint64_t hash(uint64_t h, const void *data, size_t size) {
    const uint8_t *bytes = data;
    for (size_t i = 0; i < size; i++) h = (h ^ bytes[i]) * 0x100000001B3u;
    return h;
}
#define START 0xCBF29CE484222325u

static void fill_bytes(uint8_t *bytes, int count) {
    for (int i = 0; i < count; i++) bytes[i] = (uint8_t)next();
}

// Sparse contributions, as edges leave them: mostly zero runs, a few values that may overshoot.
static void fill_contributions(int32_t *row, int count) {
    memset(row, 0, sizeof(int32_t) * (size_t)count);
    const int edges = 1 + below(6);
    for (int e = 0; e < edges; e++) row[below(count)] += below(140000) - 70000;
}

enum { W = 301, ROWS = 40, LENGTH = W + 2 };

int main(void) {
    uint8_t luma[2 * W], cb[W], cr[W], alpha[W], value[W];
    int32_t coverage[2 * LENGTH], cells[LENGTH], accumulation[2 * LENGTH];

    uint64_t h = START;
    for (int round = 0; round < 400; round++) {
        const int count = 1 + below(W);
        fill_bytes(luma, count);
        for (int i = 0; i < count; i++) coverage[i] = below(65537);
        craster_blend(luma, coverage, count, below(256), 1 + below(256), 16 + below(3));
        h = hash(h, luma, (size_t)count);
    }
    printf("craster_blend %016llx\n", (unsigned long long)h);

    h = START;
    for (int round = 0; round < 400; round++) {
        const int count = 1 + below(W);
        fill_bytes(luma, count);
        fill_bytes(alpha, count);
        for (int i = 0; i < count; i++) value[i] = (uint8_t)(alpha[i] ? below(alpha[i] + 1) : 0);
        if (round % 2) {
            craster_composite(luma, alpha, value, count);
        } else {
            craster_composite_faded(luma, alpha, value, count, below(257));
        }
        h = hash(h, luma, (size_t)count);
    }
    printf("craster_composite %016llx\n", (unsigned long long)h);

    h = START;
    for (int round = 0; round < 400; round++) {
        fill_contributions(accumulation, LENGTH);
        const int start = below(W), end = start + 1 + below(W - start);
        craster_take_coverage(accumulation, coverage, start, end, LENGTH);
        h = hash(h, coverage + start, sizeof(int32_t) * (size_t)(end - start));
        h = hash(h, accumulation, sizeof accumulation[0] * LENGTH);
        const int factor = 1 << below(3), cellsCount = (end - start) / factor;
        craster_sum_cells(coverage, LENGTH, 1, factor, start / factor, start / factor + cellsCount / 2, cells);
        h = hash(h, cells + start / factor, sizeof(int32_t) * (size_t)(cellsCount / 2));
    }
    printf("craster_take_coverage+sum_cells %016llx\n", (unsigned long long)h);

    h = START;
    for (int round = 0; round < 400; round++) {
        const int factor = round % 3 == 0 ? 1 : 2, grey = round % 5 == 0;
        const int start = below(W - 2), end = start + 1 + below(W - 1 - start);
        for (int i = 0; i < LENGTH; i++) coverage[i] = below(65537);
        fill_bytes(luma, W);
        fill_bytes(cb, W);
        fill_bytes(cr, W);
        craster_paint_row(coverage, start, end, W - W % factor, luma, grey ? NULL : cb, grey ? NULL : cr, factor,
                          below(256), below(256), below(256), 1 + below(256), cells);
        h = hash(hash(hash(h, luma, W), cb, W), cr, W);
    }
    printf("craster_paint_row %016llx\n", (unsigned long long)h);

    h = START;
    for (int round = 0; round < 600; round++) {
        const int factor = round % 3 == 0 ? 1 : 2, grey = round % 7 == 0, width = W - W % factor;
        fill_contributions(accumulation, LENGTH);
        int start = LENGTH, end = 0;
        for (int i = 0; i < LENGTH; i++) {
            if (accumulation[i] == 0) continue;
            if (i < start) start = i;
            end = i + 1;
        }
        if (end > width) end = width;
        if (start >= end) continue;
        fill_bytes(luma, W);
        fill_bytes(cb, W);
        fill_bytes(cr, W);
        craster_fill_row(accumulation, start, end, LENGTH, width, luma, grey ? NULL : cb, grey ? NULL : cr, factor,
                         below(256), below(256), below(256), round % 4 == 0 ? 256 : 1 + below(256));
        h = hash(hash(hash(h, luma, W), cb, W), cr, W);
        h = hash(h, accumulation, sizeof accumulation[0] * LENGTH);
    }
    printf("craster_fill_row %016llx\n", (unsigned long long)h);

    h = START;
    for (int round = 0; round < 600; round++) {
        const int width = W - 1;
        int starts[2], ends[2], clears[2];
        for (int r = 0; r < 2; r++) {
            fill_contributions(accumulation + r * LENGTH, LENGTH);
            starts[r] = LENGTH;
            ends[r] = 0;
            for (int i = 0; i < LENGTH; i++) {
                if (accumulation[r * LENGTH + i] == 0) continue;
                if (i < starts[r]) starts[r] = i;
                ends[r] = i + 1;
            }
            clears[r] = ends[r] + 1 < LENGTH ? ends[r] + 1 : LENGTH;
            if (ends[r] > width) ends[r] = width;
            if (round % 9 == r + 1) starts[r] = ends[r] = 0;  // an empty row
        }
        fill_bytes(luma, 2 * W);
        fill_bytes(cb, W);
        fill_bytes(cr, W);
        craster_fill_row_pair(accumulation, LENGTH, starts, ends, clears, width, luma, W, cb, cr, below(256),
                              below(256), below(256), round % 4 == 0 ? 256 : 1 + below(256));
        h = hash(hash(hash(h, luma, 2 * W), cb, W), cr, W);
        for (int r = 0; r < 2; r++) {
            if (starts[r] < ends[r]) h = hash(h, accumulation + r * LENGTH, sizeof accumulation[0] * LENGTH);
        }
    }
    printf("craster_fill_row_pair %016llx\n", (unsigned long long)h);

    h = START;
    {
        static int32_t buffer[LENGTH * ROWS + 2];
        int32_t spanStart[ROWS], spanEnd[ROWS];
        for (int i = 0; i < ROWS; i++) spanStart[i] = LENGTH, spanEnd[i] = 0;
        for (int edge = 0; edge < 3000; edge++) {
            const double x0 = below(W * 64) / 64.0, x1 = below(W * 64) / 64.0;
            const double y0 = below((ROWS + 20) * 64) / 64.0 - 10, y1 = below((ROWS + 20) * 64) / 64.0 - 10;
            craster_accumulate_edge(buffer, LENGTH, ROWS, spanStart, spanEnd, x0, y0, x1, y1);
        }
        h = hash(hash(hash(h, buffer, sizeof buffer), spanStart, sizeof spanStart), spanEnd, sizeof spanEnd);
    }
    printf("craster_accumulate_edge %016llx\n", (unsigned long long)h);

    h = START;
    {
        enum { SW = 37, SH = 21 };
        static float a[SW * SH], y[SW * SH], u[SW * SH], v[SW * SH];
        static uint8_t mask[SW * SH], la[SW * SH], lv[SW * SH], ca[SW * SH], cbv[SW * SH], crv[SW * SH];
        for (int round = 0; round < 60; round++) {
            memset(a, 0, sizeof a);
            memset(y, 0, sizeof y);
            memset(u, 0, sizeof u);
            memset(v, 0, sizeof v);
            for (int layer = 0; layer < 3; layer++) {
                fill_bytes(mask, SW * SH);
                craster_compose_layer(a, y, u, v, SW, SH, mask, SW - below(9), SH - below(5), below(9) - 4,
                                      below(5) - 2, (float)below(256), (float)below(256), (float)below(256),
                                      (float)(1 + below(256)) / 256.0f);
            }
            const int factor = 1 + below(2), rows = 1 + below(2);
            craster_finish_sprite(a, y, u, v, SW - SW % factor, SH - SH % rows, factor, rows, la, lv, ca, cbv, crv);
            h = hash(hash(h, la, sizeof la), lv, sizeof lv);
            h = hash(hash(hash(h, ca, sizeof ca), cbv, sizeof cbv), crv, sizeof crv);
        }
    }
    printf("craster_compose_layer+finish_sprite %016llx\n", (unsigned long long)h);
    return 0;
}
