#include "CRasterKernels.h"

#include <stdlib.h>
#include <string.h>

// No fused multiply-adds anywhere in this file: the edge walk must give exactly what the Swift one
// it replaced gave, and with every float product rounded on its own, ARM builds (where the
// compiler would fuse them) write the same bytes as x86-64 (scripts/check-kernels checks it).
#pragma clang fp contract(off)

// On x86-64 each kernel is also compiled for AVX2 and chosen when the processor has it (an ifunc
// resolved once at load): twice the lanes per instruction. The baseline (SSE2) version runs
// everywhere else; ARM builds use NEON through the same vector types. (CRASTER_BASELINE_ONLY
// builds the baseline alone: scripts/check-kernels tests it that way.)
// Under ThreadSanitizer the baseline alone: the ifunc's resolver runs while the dynamic loader
// relocates, before TSan's runtime has a thread to record into, and its instrumented entry crashes.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CRASTER_BASELINE_ONLY 1
#endif
#endif
#if defined(__x86_64__) && defined(__linux__) && !defined(CRASTER_BASELINE_ONLY)
#define KERNEL __attribute__((target_clones("avx2", "default")))
#else
#define KERNEL
#endif

// Sixteen lanes of 16 bits (clang's portable vector extensions: two SSE2 or NEON registers, one
// AVX2 register). Plain loops were measured staying in 32-bit lanes: the compiler does not narrow
// them by itself.
typedef uint16_t u16x16 __attribute__((ext_vector_type(16)));
typedef int32_t i32x16 __attribute__((ext_vector_type(16)));
typedef uint8_t u8x16 __attribute__((ext_vector_type(16)));
typedef int32_t i32x8 __attribute__((ext_vector_type(8)));
typedef uint16_t u16x8 __attribute__((ext_vector_type(8)));
typedef uint8_t u8x8 __attribute__((ext_vector_type(8)));

// Macros rather than functions: a 256-bit vector may not cross a function boundary in code
// compiled for the SSE2 baseline.
#define LOAD_BYTES(p)                                                                              \
    ({                                                                                             \
        u8x16 loaded_;                                                                             \
        memcpy(&loaded_, (p), sizeof loaded_);                                                     \
        __builtin_convertvector(loaded_, u16x16);                                                  \
    })
#define STORE_BYTES(p, v)                                                                          \
    do {                                                                                           \
        u8x16 stored_ = __builtin_convertvector((v), u8x16);                                       \
        memcpy((p), &stored_, sizeof stored_);                                                     \
    } while (0)

KERNEL void craster_blend(uint8_t *samples, const int32_t *coverage, int count, int32_t value, int32_t opacity, int shift) {
    // Everything after the coverage's narrowing fits 16 bits: the weight a is at most 256, a
    // translucent colour's c × opacity at most 256 × 255, and old × (256 − a) + target × a, a
    // convex combination of bytes times 256, at most 65280.
    const int down = shift - 8;
    const uint16_t target = (uint16_t)value;
    const uint16_t op = (uint16_t)opacity;
    const int opaque = opacity >= 256;
    int i = 0;
    for (; i + 16 <= count; i += 16) {
        i32x16 cover;
        memcpy(&cover, coverage + i, sizeof cover);
        u16x16 a = __builtin_convertvector(cover >> down, u16x16);
        if (!opaque) a = (a * op) >> 8;
        const u16x16 old = LOAD_BYTES(samples + i);
        STORE_BYTES(samples + i, (old * (uint16_t)256 - old * a + target * a + (uint16_t)128) >> 8);
    }
    for (; i < count; i++) {
        uint16_t a = (uint16_t)(coverage[i] >> down);
        if (!opaque) a = (uint16_t)((uint16_t)(a * op) >> 8);
        const uint16_t old = samples[i];
        samples[i] = (uint8_t)((uint16_t)(old * (uint16_t)(256 - a) + target * a + 128) >> 8);
    }
}

KERNEL void craster_composite(uint8_t *samples, const uint8_t *alpha, const uint8_t *value, int count) {
    // x / 255 as (t + (t >> 8)) >> 8 with t = x + 128: exact for x <= 65025.
    int i = 0;
    for (; i + 16 <= count; i += 16) {
        const u16x16 old = LOAD_BYTES(samples + i);
        const u16x16 a = LOAD_BYTES(alpha + i);
        const u16x16 v = LOAD_BYTES(value + i);
        const u16x16 t = old * ((uint16_t)255 - a) + (uint16_t)128;
        STORE_BYTES(samples + i, v + ((t + (t >> 8)) >> 8));
    }
    for (; i < count; i++) {
        const uint16_t t = (uint16_t)(samples[i] * (uint16_t)(255 - alpha[i]) + 128);
        samples[i] = (uint8_t)(value[i] + ((t + (t >> 8)) >> 8));
    }
}

KERNEL void craster_composite_faded(uint8_t *samples, const uint8_t *alpha, const uint8_t *value, int count,
                                    int opacity) {
    const uint16_t o = (uint16_t)opacity;
    int i = 0;
    for (; i + 16 <= count; i += 16) {
        const u16x16 old = LOAD_BYTES(samples + i);
        const u16x16 a = (LOAD_BYTES(alpha + i) * o + (uint16_t)128) >> 8;
        const u16x16 v = (LOAD_BYTES(value + i) * o + (uint16_t)128) >> 8;
        const u16x16 t = old * ((uint16_t)255 - a) + (uint16_t)128;
        STORE_BYTES(samples + i, v + ((t + (t >> 8)) >> 8));
    }
    for (; i < count; i++) {
        const uint16_t a = (uint16_t)((alpha[i] * o + 128) >> 8);
        const uint16_t v = (uint16_t)((value[i] * o + 128) >> 8);
        const uint16_t t = (uint16_t)(samples[i] * (uint16_t)(255 - a) + 128);
        samples[i] = (uint8_t)(v + ((t + (t >> 8)) >> 8));
    }
}

KERNEL void craster_take_coverage(int32_t *accumulation, int32_t *coverage, int start, int end, int clear_end) {
    int32_t sum = 0;
    int column = start;
    while (column < end) {
        if (column + 8 <= end) {
            int32_t any = 0;
            for (int k = 0; k < 8; k++) any |= accumulation[column + k];
            if (any == 0) {
                int32_t value = abs(sum);
                if (value > 65536) value = 65536;
                for (int k = 0; k < 8; k++) coverage[column + k] = value;
                column += 8;
                continue;
            }
        }
        sum += accumulation[column];
        accumulation[column] = 0;
        int32_t value = abs(sum);
        coverage[column] = value > 65536 ? 65536 : value;
        column++;
    }
    for (int k = end; k < clear_end; k++) accumulation[k] = 0;
}

KERNEL void craster_sum_cells(const int32_t *coverage, int row_length, int rows, int h, int first, int last, int32_t *cells) {
    if (h == 1 && rows == 1) {
        for (int c = first; c < last; c++) cells[c] = coverage[c];
    } else if (h == 2 && rows == 1) {
        for (int c = first; c < last; c++) cells[c] = coverage[2 * c] + coverage[2 * c + 1];
    } else if (h == 2 && rows == 2) {
        const int32_t *below = coverage + row_length;
        for (int c = first; c < last; c++) {
            cells[c] = coverage[2 * c] + coverage[2 * c + 1] + below[2 * c] + below[2 * c + 1];
        }
    } else {
        for (int c = first; c < last; c++) {
            int32_t sum = 0;
            for (int r = 0; r < rows; r++) {
                for (int d = 0; d < h; d++) sum += coverage[r * row_length + c * h + d];
            }
            cells[c] = sum;
        }
    }
}

KERNEL void craster_paint_row(int32_t *coverage, int start, int end, int width, uint8_t *luma, uint8_t *cb, uint8_t *cr,
                       int h, int32_t y, int32_t cb_value, int32_t cr_value, int32_t opacity, int32_t *cells) {
    craster_blend(luma + start, coverage + start, end - start, y, opacity, 16);
    if (cb == NULL || cr == NULL) return;
    // Whole cells: the columns of the first and last cell outside the span are uncovered.
    const int from = start / h * h;
    int to = (end + h - 1) / h * h;
    if (to > width) to = width;
    for (int k = from; k < start; k++) coverage[k] = 0;
    for (int k = end; k < to; k++) coverage[k] = 0;
    const int first = from / h;
    const int last = (to + h - 1) / h;
    craster_sum_cells(coverage, width, 1, h, first, last, cells);
    // Cell sums reach 65536 × h: divide by h inside the shift.
    const int shift = 16 + (h == 2 ? 1 : h == 4 ? 2 : 0);
    craster_blend(cb + first, cells + first, last - first, cb_value, opacity, shift);
    craster_blend(cr + first, cells + first, last - first, cr_value, opacity, shift);
}

// Shifts a 16-lane vector up by k lanes, zeros coming in (the steps of an in-register prefix sum).
#define SHIFT_UP(x, ...) __builtin_shufflevector((x), (i32x16)0, __VA_ARGS__)
#define SHIFT1(x) SHIFT_UP(x, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)
#define SHIFT2(x) SHIFT_UP(x, 16, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)
#define SHIFT4(x) SHIFT_UP(x, 16, 16, 16, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
#define SHIFT8(x) SHIFT_UP(x, 16, 16, 16, 16, 16, 16, 16, 16, 0, 1, 2, 3, 4, 5, 6, 7)

// The coverage of 16 columns of one accumulation row from `column` on (absolute running sum,
// clamped to 65536, columns from `end` on uncovered), carrying the running sum in `sum`; clears
// what it read. A block without contributions has the running sum's value throughout; one with
// contributions takes an in-register prefix sum.
#define ROW_COVER(cover, accumulation, column, end, sum)                                           \
    do {                                                                                           \
        i32x16 contributions_;                                                                     \
        memcpy(&contributions_, (accumulation) + (column), sizeof contributions_);                 \
        if (__builtin_reduce_or(contributions_) == 0) {                                            \
            int32_t value_ = (sum) < 0 ? -(sum) : (sum);                                           \
            (cover) = (i32x16)(value_ > 65536 ? 65536 : value_);                                   \
        } else {                                                                                   \
            memset((accumulation) + (column), 0, sizeof contributions_);                           \
            contributions_ += SHIFT1(contributions_);                                              \
            contributions_ += SHIFT2(contributions_);                                              \
            contributions_ += SHIFT4(contributions_);                                              \
            contributions_ += SHIFT8(contributions_);                                              \
            contributions_ += (sum);                                                               \
            (sum) = contributions_[15];                                                            \
            (cover) = __builtin_elementwise_min(__builtin_elementwise_abs(contributions_), (i32x16)65536); \
        }                                                                                          \
        if ((column) + 16 > (end)) (cover) &= (LANES < ((end) - (column)));                        \
    } while (0)
#define LANES ((i32x16){0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})

// samples = (samples × (256 − a) + target × a + 128) >> 8 over 16 or 8 bytes, a in 0…256.
#define BLEND16(samples, a, target)                                                                \
    do {                                                                                           \
        const u16x16 old_ = LOAD_BYTES(samples);                                                   \
        STORE_BYTES((samples), (old_ * (uint16_t)256 - old_ * (a) + (target) * (a) + (uint16_t)128) >> 8); \
    } while (0)
#define BLEND8(samples, a, target)                                                                 \
    do {                                                                                           \
        u8x8 bytes_;                                                                               \
        memcpy(&bytes_, (samples), sizeof bytes_);                                                 \
        const u16x8 old_ = __builtin_convertvector(bytes_, u16x8);                                 \
        bytes_ = __builtin_convertvector((old_ * (uint16_t)256 - old_ * (a) + (target) * (a) + (uint16_t)128) >> 8, u8x8); \
        memcpy((samples), &bytes_, sizeof bytes_);                                                 \
    } while (0)
#define EVEN_LANES(x) __builtin_shufflevector((x), (x), 0, 2, 4, 6, 8, 10, 12, 14)
#define ODD_LANES(x) __builtin_shufflevector((x), (x), 1, 3, 5, 7, 9, 11, 13, 15)

// One sample's blend, as the vector macros compute it.
static inline uint8_t blend_one(uint8_t old, uint16_t a, uint16_t target) {
    return (uint8_t)((uint16_t)(old * (uint16_t)(256 - a) + target * a + 128) >> 8);
}

// The next column's coverage in a scalar tail (as ROW_COVER's), the accumulation cleared.
static inline int32_t next_cover(int32_t *accumulation, int column, int end, int32_t *sum) {
    *sum += accumulation[column];
    accumulation[column] = 0;
    int32_t value = *sum < 0 ? -*sum : *sum;
    if (value > 65536) value = 65536;
    return column >= end ? 0 : value;
}

KERNEL void craster_fill_row(int32_t *accumulation, int start, int end, int clear_end, int width, uint8_t *luma,
                             uint8_t *cb, uint8_t *cr, int h, int32_t y, int32_t cb_value, int32_t cr_value,
                             int32_t opacity) {
    // craster_take_coverage, craster_blend and craster_sum_cells in one pass, the coverage never
    // leaving registers: a shape as large as the route's ribbon (a third of a 720p frame) took
    // five passes over int32 rows. Columns from the first whole chroma cell on, so chroma cells
    // are whole; the running sum is 0 before `start`.
    const int from = start / h * h;
    int to = (end + h - 1) / h * h;
    if (to > width) to = width;
    const int opaque = opacity >= 256;
    const uint16_t op = (uint16_t)opacity;
    const uint16_t ty = (uint16_t)y, tcb = (uint16_t)cb_value, tcr = (uint16_t)cr_value;
    int32_t sum = 0;
    int column = from;
    for (; column + 16 <= to; column += 16) {
        i32x16 cover;
        ROW_COVER(cover, accumulation, column, end, sum);
        if (__builtin_reduce_or(cover) == 0) continue;  // outside the shape: nothing to blend
        u16x16 a = __builtin_convertvector(cover >> 8, u16x16);
        if (!opaque) a = (a * op) >> 8;
        BLEND16(luma + column, a, ty);
        if (cb == NULL || cr == NULL) continue;
        if (h == 1) {
            BLEND16(cb + column, a, tcb);
            BLEND16(cr + column, a, tcr);
        } else {
            // h == 2: eight cells, each the sum of two columns (up to 131072: shift by 9).
            u16x8 c = __builtin_convertvector((EVEN_LANES(cover) + ODD_LANES(cover)) >> 9, u16x8);
            if (!opaque) c = (c * op) >> 8;
            BLEND8(cb + column / 2, c, tcb);
            BLEND8(cr + column / 2, c, tcr);
        }
    }
    // The last columns, one chroma cell at a time, with the same arithmetic.
    for (; column < to; column += h) {
        int32_t cell = 0;
        for (int k = 0; k < h; k++) {
            const int32_t value = next_cover(accumulation, column + k, end, &sum);
            cell += value;
            uint16_t a = (uint16_t)(value >> 8);
            if (!opaque) a = (uint16_t)((uint16_t)(a * op) >> 8);
            luma[column + k] = blend_one(luma[column + k], a, ty);
        }
        if (cb == NULL || cr == NULL) continue;
        uint16_t c = (uint16_t)(cell >> (h == 2 ? 9 : 8));
        if (!opaque) c = (uint16_t)((uint16_t)(c * op) >> 8);
        cb[column / h] = blend_one(cb[column / h], c, tcb);
        cr[column / h] = blend_one(cr[column / h], c, tcr);
    }
    for (int k = column; k < clear_end; k++) accumulation[k] = 0;
}

KERNEL void craster_fill_row_pair(int32_t *accumulation, int row_length, const int *starts, const int *ends,
                                  const int *clear_ends, int width, uint8_t *luma, int luma_stride, uint8_t *cb,
                                  uint8_t *cr, int32_t y, int32_t cb_value, int32_t cr_value, int32_t opacity) {
    // craster_fill_row for 4:2:0: two luma rows and the chroma row they share, each 2x2 cell
    // blended with the sum of its four coverages (up to 262144: shift by 10). Columns over the
    // union of the rows' spans; a row's running sum is 0 before its own start, and its columns
    // from its own end on are uncovered.
    int32_t *const rows[2] = {accumulation, accumulation + row_length};
    uint8_t *const lumaRows[2] = {luma, luma + luma_stride};
    int from = width, to = 0;
    for (int r = 0; r < 2; r++) {
        if (starts[r] >= ends[r]) continue;
        if (starts[r] < from) from = starts[r];
        if (ends[r] > to) to = ends[r];
    }
    from = from / 2 * 2;
    to = (to + 1) / 2 * 2;
    if (to > width) to = width;
    const int opaque = opacity >= 256;
    const uint16_t op = (uint16_t)opacity;
    const uint16_t ty = (uint16_t)y, tcb = (uint16_t)cb_value, tcr = (uint16_t)cr_value;
    int32_t sums[2] = {0, 0};
    int column = from;
    for (; column + 16 <= to; column += 16) {
        i32x16 total = (i32x16)0;
        for (int r = 0; r < 2; r++) {
            if (starts[r] >= ends[r]) continue;
            i32x16 cover;
            ROW_COVER(cover, rows[r], column, ends[r], sums[r]);
            if (__builtin_reduce_or(cover) == 0) continue;
            total += cover;
            u16x16 a = __builtin_convertvector(cover >> 8, u16x16);
            if (!opaque) a = (a * op) >> 8;
            BLEND16(lumaRows[r] + column, a, ty);
        }
        if (cb == NULL || cr == NULL || __builtin_reduce_or(total) == 0) continue;
        u16x8 c = __builtin_convertvector((EVEN_LANES(total) + ODD_LANES(total)) >> 10, u16x8);
        if (!opaque) c = (c * op) >> 8;
        BLEND8(cb + column / 2, c, tcb);
        BLEND8(cr + column / 2, c, tcr);
    }
    for (; column < to; column += 2) {
        int32_t cell = 0;
        for (int r = 0; r < 2; r++) {
            if (starts[r] >= ends[r]) continue;
            for (int k = 0; k < 2; k++) {
                const int32_t value = next_cover(rows[r], column + k, ends[r], &sums[r]);
                cell += value;
                uint16_t a = (uint16_t)(value >> 8);
                if (!opaque) a = (uint16_t)((uint16_t)(a * op) >> 8);
                lumaRows[r][column + k] = blend_one(lumaRows[r][column + k], a, ty);
            }
        }
        if (cb == NULL || cr == NULL) continue;
        uint16_t c = (uint16_t)(cell >> 10);
        if (!opaque) c = (uint16_t)((uint16_t)(c * op) >> 8);
        cb[column / 2] = blend_one(cb[column / 2], c, tcb);
        cr[column / 2] = blend_one(cr[column / 2], c, tcr);
    }
    // What is left of each row: the columns after the union's end, or the whole of an empty row's.
    for (int r = 0; r < 2; r++) {
        const int first = starts[r] >= ends[r] ? starts[r] : column;
        for (int k = first; k < clear_ends[r]; k++) rows[r][k] = 0;
    }
}

// Swift's min and max for Double, exactly (a NaN second argument gives the first back).
static inline double swift_min(double x, double y) { return y < x ? y : x; }
static inline double swift_max(double x, double y) { return y >= x ? y : x; }
// Rounded to the nearest integer, halves away from zero (CoverageRasterizer.nearest).
static inline int32_t nearest(double value) { return (int32_t)(value >= 0 ? value + 0.5 : value - 0.5); }

// The edge walk in double precision, the arithmetic written out in the Swift version's order (and
// unfused, as the whole file), so every contribution is the one it computed.
void craster_accumulate_edge(int32_t *buffer, int row_length, int rows, int32_t *span_start, int32_t *span_end,
                             double start_x, double start_y, double end_x, double end_y) {
    if (start_y == end_y) return;
    const int down = start_y < end_y;
    const double p0x = down ? start_x : end_x, p0y = down ? start_y : end_y;
    const double p1x = down ? end_x : start_x, p1y = down ? end_y : start_y;
    const double direction = down ? 1 : -1;
    const double slope = (p1x - p0x) / (p1y - p0y);
    double x = p0x;
    double top = p0y;
    if (top < 0) {
        x -= top * slope;
        top = 0;
    }
    const double bottom = swift_min(p1y, (double)rows);
    if (!(top < bottom)) return;  // NaN too
    const double limit = (double)(row_length - 2);
    for (int row = (int)top; (double)row < bottom; row++) {
        int32_t *const line = buffer + (size_t)row * row_length;
        const double dy = swift_min((double)(row + 1), bottom) - swift_max((double)row, top);
        const double x_next = x + slope * dy;
        const double d = dy * direction * 65536;
        const int32_t total = nearest(d);
        // Clamped: stepping x down the rows can drift a hair outside the box (a NaN becomes the limit).
        const double left = swift_max(0, swift_min(limit, swift_min(x, x_next)));
        const double right = swift_max(0, swift_min(limit, swift_max(x, x_next)));
        const int left_index = (int)left;
        const double left_floor = (double)left_index;
        const int right_index = (int)right + ((double)(int)right < right ? 1 : 0);
        const double right_ceil = (double)right_index;
        if (left_index < span_start[row]) span_start[row] = left_index;
        if (right_index + 1 > span_end[row]) span_end[row] = right_index + 1;
        // Each row's contributions add up to exactly `total`: the last one takes the rest. Sums in
        // unsigned arithmetic, which wraps as Swift's &+ does.
        uint32_t added = 0;
#define ADD(column, value)                                                                         \
    do {                                                                                           \
        const int32_t amount_ = nearest(value);                                                    \
        line[column] = (int32_t)((uint32_t)line[column] + (uint32_t)amount_);                      \
        added += (uint32_t)amount_;                                                                \
    } while (0)
        if (right_index <= left_index + 1) {
            const double middle = 0.5 * (left + right) - left_floor;
            ADD(left_index, d - d * middle);
        } else {
            const double s = 1 / (right - left);
            const double left_fraction = left - left_floor;
            const double a0 = 0.5 * s * (1 - left_fraction) * (1 - left_fraction);
            const double right_fraction = right - right_ceil + 1;
            const double am = 0.5 * s * right_fraction * right_fraction;
            ADD(left_index, d * a0);
            if (right_index == left_index + 2) {
                ADD(left_index + 1, d * (1 - a0 - am));
            } else {
                const double a1 = s * (1.5 - left_fraction);
                ADD(left_index + 1, d * (a1 - a0));
                const int32_t step = nearest(d * s);
                for (int column = left_index + 2; column < right_index - 1; column++) {
                    line[column] = (int32_t)((uint32_t)line[column] + (uint32_t)step);
                }
                added += (uint32_t)step * (uint32_t)(right_index - 1 - (left_index + 2));
                const double a2 = a1 + (double)(right_index - left_index - 3) * s;
                ADD(right_index - 1, d * (1 - a2 - am));
            }
        }
#undef ADD
        const int last = right_index <= left_index + 1 ? left_index + 1 : right_index;
        line[last] = (int32_t)((uint32_t)line[last] + ((uint32_t)total - added));
        x = x_next;
    }
}

KERNEL void craster_compose_layer(float *alpha, float *luma, float *cb, float *cr, int width, int height,
                                  const uint8_t *mask, int mask_width, int mask_height, int x, int y, float luma_value,
                                  float cb_value, float cr_value, float opacity) {
    const int first_row = y < 0 ? -y : 0;
    const int last_row = mask_height < height - y ? mask_height : height - y;
    const int first_column = x < 0 ? -x : 0;
    const int last_column = mask_width < width - x ? mask_width : width - x;
    for (int row = first_row; row < last_row; row++) {
        const uint8_t *source = mask + (size_t)row * mask_width;
        const size_t target = (size_t)(y + row) * width + x;
        for (int column = first_column; column < last_column; column++) {
            const float coverage = (float)source[column] / 255.0f * opacity;
            const float keep = 1.0f - coverage;
            const size_t index = target + column;
            alpha[index] = alpha[index] * keep + coverage;
            luma[index] = luma[index] * keep + luma_value * coverage;
            cb[index] = cb[index] * keep + cb_value * coverage;
            cr[index] = cr[index] * keep + cr_value * coverage;
        }
    }
}

static inline uint8_t quantised(float value) {
    const float rounded = __builtin_roundf(value);
    return (uint8_t)(rounded < 0 ? 0 : rounded > 255 ? 255 : rounded);
}

static inline uint8_t quantised_below(float value, float alpha) {
    const uint8_t sample = quantised(value);
    const uint8_t limit = quantised(alpha * 255.0f);
    return sample < limit ? sample : limit;
}

KERNEL void craster_finish_sprite(const float *alpha, const float *luma, const float *cb, const float *cr, int width,
                                  int height, int h, int v, uint8_t *luma_alpha, uint8_t *luma_value,
                                  uint8_t *chroma_alpha, uint8_t *cb_value, uint8_t *cr_value) {
    const size_t count = (size_t)width * height;
    for (size_t i = 0; i < count; i++) {
        luma_alpha[i] = quantised(alpha[i] * 255.0f);
        luma_value[i] = quantised_below(luma[i], alpha[i]);
    }
    const int chroma_width = width / h;
    const int chroma_height = height / v;
    const float area = (float)(h * v);
    for (int row = 0; row < chroma_height; row++) {
        for (int column = 0; column < chroma_width; column++) {
            float sum_alpha = 0, sum_cb = 0, sum_cr = 0;
            for (int dy = 0; dy < v; dy++) {
                for (int dx = 0; dx < h; dx++) {
                    const size_t index = (size_t)(row * v + dy) * width + column * h + dx;
                    sum_alpha += alpha[index];
                    sum_cb += cb[index];
                    sum_cr += cr[index];
                }
            }
            const size_t cell = (size_t)row * chroma_width + column;
            chroma_alpha[cell] = quantised(sum_alpha / area * 255.0f);
            cb_value[cell] = quantised_below(sum_cb / area, sum_alpha / area);
            cr_value[cell] = quantised_below(sum_cr / area, sum_alpha / area);
        }
    }
}

// MARK: - Overlay matte

static inline float clamp_float(float value, float low, float high) {
    return value < low ? low : value > high ? high : value;
}

static inline uint8_t rounded_byte(float value) { return (uint8_t)(clamp_float(value, 0, 255) + 0.5f); }

static inline uint16_t rounded_10(float value) { return (uint16_t)(clamp_float(value, 0, 1023) + 0.5f); }

void craster_matte_row(const uint8_t *black, const uint8_t *white, int count, uint8_t *alpha, float *luma) {
    for (int i = 0; i < count; i++) {
        int a = 255 - ((int)white[i] - (int)black[i]);
        a = a < 0 ? 0 : a > 255 ? 255 : a;
        alpha[i] = (uint8_t)a;
        luma[i] = a > 0 ? clamp_float((float)black[i] * 255.0f / (float)a, 0, 255) : 0;
    }
}

void craster_matte_cells(const uint8_t *alpha, int width, int rows, int h, const uint8_t *cb, const uint8_t *cr,
                         int cells, float *cb_out, float *cr_out) {
    for (int c = 0; c < cells; c++) {
        int sum = 0, count = 0;
        for (int row = 0; row < rows; row++) {
            for (int x = c * h; x < c * h + h && x < width; x++) {
                sum += alpha[row * width + x];
                count++;
            }
        }
        if (sum == 0) {
            cb_out[c] = 0;
            cr_out[c] = 0;
            continue;
        }
        float gain = 255.0f * (float)count / (float)sum;
        cb_out[c] = clamp_float(((float)cb[c] - 128) * gain, -128, 127);
        cr_out[c] = clamp_float(((float)cr[c] - 128) * gain, -128, 127);
    }
}

void craster_matte_rgb_row(const float *luma, const uint8_t *alpha, const float *cb, const float *cr, int count,
                           int h, int r, int g, int b, int a, uint8_t *out) {
    for (int x = 0; x < count; x++) {
        if (alpha[x] == 0) continue;
        float l = luma[x], u = cb[x / h], v = cr[x / h];
        uint8_t *pixel = out + x * 4;
        pixel[r] = rounded_byte(l + 1.402f * v);
        pixel[g] = rounded_byte(l - 0.344136f * u - 0.714136f * v);
        pixel[b] = rounded_byte(l + 1.772f * u);
        pixel[a] = alpha[x];
    }
}

void craster_matte_yuva10_row(const float *luma, const uint8_t *alpha, const float *cb, const float *cr, int count,
                              int h, uint16_t *y, uint16_t *u, uint16_t *v, uint16_t *a) {
    for (int x = 0; x < count; x++) {
        y[x] = rounded_10(64 + luma[x] * 876.0f / 255.0f);
        u[x] = rounded_10(512 + cb[x / h] * 896.0f / 255.0f);
        v[x] = rounded_10(512 + cr[x / h] * 896.0f / 255.0f);
        a[x] = rounded_10((float)alpha[x] * 1023.0f / 255.0f);
    }
}
