#include "CRasterKernels.h"

#include <stdlib.h>
#include <string.h>

// Eight lanes of 16 bits, one 128-bit register (clang's portable vector extensions: SSE2 on
// x86-64, NEON on ARM). Plain loops were measured staying in 32-bit lanes: the compiler does not
// narrow them by itself.
typedef uint16_t u16x8 __attribute__((ext_vector_type(8)));
typedef int32_t i32x8 __attribute__((ext_vector_type(8)));
typedef uint8_t u8x8 __attribute__((ext_vector_type(8)));

static inline u16x8 load_bytes(const uint8_t *p) {
    u8x8 v;
    memcpy(&v, p, sizeof v);
    return __builtin_convertvector(v, u16x8);
}

static inline void store_bytes(uint8_t *p, u16x8 v) {
    u8x8 bytes = __builtin_convertvector(v, u8x8);
    memcpy(p, &bytes, sizeof bytes);
}

void craster_blend(uint8_t *samples, const int32_t *coverage, int count, int32_t value, int32_t opacity, int shift) {
    // Everything after the coverage's narrowing fits 16 bits: the weight a is at most 256, a
    // translucent colour's c × opacity at most 256 × 255, and old × (256 − a) + target × a, a
    // convex combination of bytes times 256, at most 65280.
    const int down = shift - 8;
    const uint16_t target = (uint16_t)value;
    const uint16_t op = (uint16_t)opacity;
    const int opaque = opacity >= 256;
    int i = 0;
    for (; i + 8 <= count; i += 8) {
        i32x8 cover;
        memcpy(&cover, coverage + i, sizeof cover);
        u16x8 a = __builtin_convertvector(cover >> down, u16x8);
        if (!opaque) a = (a * op) >> 8;
        const u16x8 old = load_bytes(samples + i);
        store_bytes(samples + i, (old * (uint16_t)256 - old * a + target * a + (uint16_t)128) >> 8);
    }
    for (; i < count; i++) {
        uint16_t a = (uint16_t)(coverage[i] >> down);
        if (!opaque) a = (uint16_t)((uint16_t)(a * op) >> 8);
        const uint16_t old = samples[i];
        samples[i] = (uint8_t)((uint16_t)(old * (uint16_t)(256 - a) + target * a + 128) >> 8);
    }
}

void craster_composite(uint8_t *samples, const uint8_t *alpha, const uint8_t *value, int count) {
    // x / 255 as (t + (t >> 8)) >> 8 with t = x + 128: exact for x <= 65025.
    int i = 0;
    for (; i + 8 <= count; i += 8) {
        const u16x8 old = load_bytes(samples + i);
        const u16x8 a = load_bytes(alpha + i);
        const u16x8 v = load_bytes(value + i);
        const u16x8 t = old * ((uint16_t)255 - a) + (uint16_t)128;
        store_bytes(samples + i, v + ((t + (t >> 8)) >> 8));
    }
    for (; i < count; i++) {
        const uint16_t t = (uint16_t)(samples[i] * (uint16_t)(255 - alpha[i]) + 128);
        samples[i] = (uint8_t)(value[i] + ((t + (t >> 8)) >> 8));
    }
}

void craster_take_coverage(int32_t *accumulation, int32_t *coverage, int start, int end, int clear_end) {
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

void craster_sum_cells(const int32_t *coverage, int row_length, int rows, int h, int first, int last, int32_t *cells) {
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
