// CRasterKernels: the compositor's innermost loops, over one row of bytes each.
//
// Written in C because these loops must vectorise and Swift's generic SIMD conversions between
// lane types (bytes to 16-bit lanes and back) were measured compiling to out-of-line calls; C
// compilers vectorise these plain loops with the baseline x86-64 (SSE2) and AArch64 (NEON)
// instruction sets. No decisions live here: ARCompositor's Painter and CoverageRasterizer decide
// what to draw and call these for the arithmetic.
#pragma once

#include <stdint.h>

/// samples[i] = (samples[i] * (256 - a) + value * a + 128) >> 8, with
/// a = ((coverage[i] >> (shift - 8)) * opacity) >> 8 in 0...256 (coverage in 0...2^shift,
/// opacity in 0...256).
void craster_blend(uint8_t *samples, const int32_t *coverage, int count, int32_t value, int32_t opacity, int shift);

/// samples[i] = value[i] + samples[i] * (255 - alpha[i]) / 255, rounded (premultiplied "over").
void craster_composite(uint8_t *samples, const uint8_t *alpha, const uint8_t *value, int count);

/// The running sum of accumulation[start..<end], clamped to 0...65536 after taking its absolute
/// value, into coverage[start..<end]; the accumulation is cleared through clear_end (exclusive).
/// Runs of eight zero contributions are filled at once.
void craster_take_coverage(int32_t *accumulation, int32_t *coverage, int start, int end, int clear_end);

/// cells[c] = the sum of the coverages of the `h` x `rows` luma samples chroma cell c spans, for
/// cells first..<last (rows of `row_length` samples).
void craster_sum_cells(const int32_t *coverage, int row_length, int rows, int h, int first, int last, int32_t *cells);

/// One row of a shape or mask on a frame whose chroma has full vertical resolution (4:4:4, 4:2:2,
/// 4:1:1, grey): blends the luma over coverage[start..<end], then sums the coverage of each chroma
/// cell (h = 1, 2 or 4 samples) into cells and blends both chroma rows, in one call. luma points at
/// the row's first box column, cb and cr (NULL for grey) at its first cell.
void craster_paint_row(int32_t *coverage, int start, int end, int width, uint8_t *luma, uint8_t *cb, uint8_t *cr,
                       int h, int32_t y, int32_t cb_value, int32_t cr_value, int32_t opacity, int32_t *cells);

/// One row of a rasterised shape blended onto a frame whose chroma has full vertical resolution
/// and h = 1 or 2 (4:4:4, 4:2:2, grey): the running sum of accumulation[start..<end] (absolute,
/// clamped to 0...65536) is each luma column's coverage and each chroma cell's the sum of its
/// columns'; blends as craster_paint_row and clears the accumulation through clear_end. `width`
/// limits the last chroma cell. luma points at the row's first box column, cb and cr (NULL for
/// grey) at its first cell.
void craster_fill_row(int32_t *accumulation, int start, int end, int clear_end, int width, uint8_t *luma,
                      uint8_t *cb, uint8_t *cr, int h, int32_t y, int32_t cb_value, int32_t cr_value,
                      int32_t opacity);

/// craster_fill_row for 4:2:0 frames: rows `row_length` apart in `accumulation` (the second
/// ignored when its span is empty), the luma rows `luma_stride` apart from `luma` (the box's first
/// column), and the chroma row they share at `cb` and `cr` (the box's first cell), each cell
/// blended with the sum of its four coverages. starts, ends and clear_ends: each row's.
void craster_fill_row_pair(int32_t *accumulation, int row_length, const int *starts, const int *ends,
                           const int *clear_ends, int width, uint8_t *luma, int luma_stride, uint8_t *cb,
                           uint8_t *cr, int32_t y, int32_t cb_value, int32_t cr_value, int32_t opacity);

/// Adds one edge's signed area, from (start_x, start_y) to (end_x, end_y) in box pixels, to the
/// rows of `buffer` (`rows` rows of `row_length`; x already clamped to 0...row_length - 2) it
/// crosses, widening each row's span [span_start, span_end) to the columns it touched (font-rs's
/// `draw_line`, in 1/65536ths). A row's contributions add up exactly to its share of the edge.
void craster_accumulate_edge(int32_t *buffer, int row_length, int rows, int32_t *span_start, int32_t *span_end,
                             double start_x, double start_y, double end_x, double end_y);

/// craster_composite with the sprite faded to `opacity` (0…256): its alpha and premultiplied value
/// are both scaled first (rounded), so a faded sprite is the same sprite drawn lighter.
void craster_composite_faded(uint8_t *samples, const uint8_t *alpha, const uint8_t *value, int count, int opacity);

/// Composes one sprite layer, premultiplied, over float planes `width` wide: for each mask pixel
/// at (x + column, y + row) inside the planes, c = mask / 255 × opacity, A = A(1 − c) + c and
/// P = P(1 − c) + value × c for luma, Cb and Cr. A zero coverage leaves a pixel exactly as it was.
void craster_compose_layer(float *alpha, float *luma, float *cb, float *cr, int width, int height, const uint8_t *mask,
                           int mask_width, int mask_height, int x, int y, float luma_value, float cb_value,
                           float cr_value, float opacity);

/// A composed sprite's bytes: per luma pixel alpha × 255 and the premultiplied luma, rounded, the
/// value kept at or below the alpha byte; per chroma cell (`h`×`v` pixels) the same of the cell's means.
void craster_finish_sprite(const float *alpha, const float *luma, const float *cb, const float *cr, int width,
                           int height, int h, int v, uint8_t *luma_alpha, uint8_t *luma_value, uint8_t *chroma_alpha,
                           uint8_t *cb_value, uint8_t *cr_value);

/// An overlay drawn twice, on black and on white (GeoAR's OverlayMatte), taken apart for one row
/// of `count` luma pixels: alpha[i] = 255 - (white[i] - black[i]) clamped to 0...255, and the
/// straight luma[i] = black[i] × 255 / alpha[i] (0 where alpha is 0).
void craster_matte_row(const uint8_t *black, const uint8_t *white, int count, uint8_t *alpha, float *luma);

/// The straight chroma of one row of `cells` chroma cells, each `h` pixels wide and `rows` luma
/// rows high (the last cell and row may be cut short by `width`): the premultiplied cb and cr,
/// as offsets from 128, divided by the mean alpha of the cell's pixels (`alpha`, rows `width`
/// apart) and clamped to -128...127; 0 where the cell is transparent.
void craster_matte_cells(const uint8_t *alpha, int width, int rows, int h, const uint8_t *cb, const uint8_t *cr,
                         int cells, float *cb_out, float *cr_out);

/// One row of straight luma, alpha and cell chroma (pixel x's cell is x / h) as packed sRGB bytes
/// by BT.601's full-range inverse, 4 bytes a pixel with red, green, blue and alpha at offsets
/// `r`, `g`, `b` and `a` (RGBA: 0 1 2 3; ARGB: 1 2 3 0); transparent pixels are left as they are.
void craster_matte_rgb_row(const float *luma, const uint8_t *alpha, const float *cb, const float *cr, int count,
                           int h, int r, int g, int b, int a, uint8_t *out);

/// One row as 10-bit limited-range samples (Y 64-940, Cb and Cr 64-960, alpha 0-1023), each in a
/// 16-bit word: ProRes 4444's planes.
void craster_matte_yuva10_row(const float *luma, const uint8_t *alpha, const float *cb, const float *cr, int count,
                              int h, uint16_t *y, uint16_t *u, uint16_t *v, uint16_t *a);
