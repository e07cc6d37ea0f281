// CLibJPEG: libjpeg-turbo's libjpeg API (libjpeg62-turbo-dev) for what TurboJPEG 2.1 cannot do:
// encoding with given quantisation and Huffman tables (a spliced frame's re-encoded restart
// intervals keep the camera's own) and with restart markers (TurboJPEG 2.1 has no parameter for
// them). Also (CLibJPEGSplice.c) an index of a restart interval's Huffman codes, which checks that
// an interval copied byte for byte is whole, and the writing of intervals from indexed pieces.
//
// libjpeg reports errors through a callback that must not return; Swift cannot use setjmp and
// longjmp, so every libjpeg call is made here, in C, under one setjmp, and an error comes back as
// a return value with libjpeg's message.
#pragma once

#include <stddef.h>
#include <stdint.h>

/// One Huffman table as a DHT segment holds it: counts of codes of each length 1-16, then the
/// symbols in code order.
typedef struct arcj_huffman_table {
    int present;
    uint8_t bits[16];
    uint8_t values[256];
} arcj_huffman_table;

/// What arcj_compress encodes and how.
typedef struct arcj_compress_settings {
    int width, height;
    /// 1 (grey) or 3 (YCbCr).
    int components;
    int component_id[3];
    int h[3], v[3];
    int quant_index[3], dc_index[3], ac_index[3];
    /// 1-100: libjpeg's scaled standard tables, used when use_quant_tables is 0.
    int quality;
    int use_quant_tables;
    int quant_present[4];
    /// In zigzag order, as a DQT segment holds them.
    uint16_t quant[4][64];
    /// 1: the tables below; 0: the standard ones (JPEG Annex K, what MJPEG implies).
    int use_huffman_tables;
    arcj_huffman_table dc[4], ac[4];
    /// MCUs per restart interval (0: none, or restart_rows).
    int restart_interval;
    /// MCU rows per restart interval, used when restart_interval is 0 (0: no restart markers).
    int restart_rows;
} arcj_compress_settings;

/// Encodes planar samples as a baseline JPEG, as tjCompressFromYUVPlanes does: each plane's
/// `widths[i]` x `heights[i]` samples are read at `strides[i]` and its last column and row are
/// repeated out to whole blocks. `*buffer` (malloc'ed, or NULL) is reused and grown; `*capacity` is
/// its size; `*size` receives the JPEG's length. Returns 0, or -1 with libjpeg's message in `error`.
int arcj_compress(const arcj_compress_settings *settings, const uint8_t *const planes[3], const int strides[3],
    const int widths[3], const int heights[3], uint8_t **buffer, unsigned long *capacity, unsigned long *size,
    char *error, size_t error_size);

/// A Huffman table prepared for arcj_index_interval.
typedef struct arcj_walk_table {
    int32_t maxcode[18];
    int32_t offset[18];
    uint8_t values[256];
    /// For the next 9 bits: length << 8 | symbol, or 0 when the code is longer.
    uint16_t fast[512];
    /// For an AC table, the next 11 bits: bit 15 set when a code of at most 11 bits is there;
    /// bits 0-4 the bits it takes with its extra bits, bits 5-9 how many coefficients it passes
    /// (0: end of block). An index only skips AC codes, one lookup each.
    uint16_t skip[2048];
} arcj_walk_table;

/// Prepares `table` from `source`. Returns 0, or -1 when the counts are not a valid Huffman code.
int arcj_walk_table_init(arcj_walk_table *table, const arcj_huffman_table *source);

// MCU-level splicing (CLibJPEGSplice.c): an interval the overlay touches keeps the bits of every
// MCU it does not touch. Its codes are indexed (where each MCU starts, and the DC values that
// predict across MCUs), and the interval is written again from pieces, MCUs copied from the
// camera's interval and from the re-encoded ones, with only the DC difference of each piece's
// first block (per component) coded again: what lossless JPEG tools (jpegtran -drop) do with
// coefficients, here without decoding the blocks at all.

/// Where one MCU's codes lie in an indexed interval's unstuffed bits, and its DC values.
typedef struct arcj_mcu_entry {
    /// The bit where the MCU's first code starts.
    uint32_t start;
    /// The bits of the DC code (Huffman code and extra bits) of each component's first block.
    uint32_t dc_start[3], dc_end[3];
    /// The DC values (not differences) of each component's first and last block in the MCU.
    int32_t dc_first[3], dc_last[3];
} arcj_mcu_entry;

/// An indexed interval: its unstuffed entropy-coded data (followed by at least 16 readable bytes)
/// and `count` + 1 entries, the last of which starts where the MCUs' codes end.
typedef struct arcj_indexed {
    const uint8_t *bits;
    const arcj_mcu_entry *entries;
    int count;
} arcj_indexed;

/// Indexes one interval's entropy-coded data (stuffed bytes, no markers, DC predictions from 0):
/// `mcus` MCUs of `blocks_in_mcu` blocks, block i of component `component[i]` (0-2, blocks of a
/// component together, as the scan codes them) coded with dc[i] and ac[i]. Writes the unstuffed
/// bytes to `unstuffed` (room for `size` + 16) and `mcus` + 1 entries (NULL: the codes are only
/// checked). Returns 0 when the data holds exactly that many MCUs and ends with at most 7 padding
/// bits; 1 for a code no table has; 2 when it ends early (truncated); 3 when bytes are left.
int arcj_index_interval(const uint8_t *data, size_t size, int mcus, int blocks_in_mcu,
    const arcj_walk_table *const dc[], const arcj_walk_table *const ac[], const int component[],
    uint8_t *unstuffed, arcj_mcu_entry *entries);

/// A DC table's codes for the differences' categories 0-11, to code a difference again.
typedef struct arcj_dc_encoder {
    uint16_t code[12];
    uint8_t size[12];
} arcj_dc_encoder;

/// Prepares `encoder` from `source`. Returns 0, or -1 when a category 0-11 has no code (a table
/// optimised for one picture).
int arcj_dc_encoder_init(arcj_dc_encoder *encoder, const arcj_huffman_table *source);

/// A run of MCUs from one indexed interval.
typedef struct arcj_piece {
    int source;
    int first;
    int count;
} arcj_piece;

/// Writes the MCUs `pieces` name, in order, as one interval's entropy-coded data (stuffed, padded
/// to a byte with 1 bits, DC predictions from 0), appended at `*size` to `*buffer` (malloc'ed or
/// NULL, grown; `*capacity` its size). Each piece's codes are copied bit for bit, but for the DC
/// difference of each component's first block, coded again against the block before it in the
/// output with `dc[component]`. Returns 0; -1 when a difference has no baseline code (a DC value
/// out of range, which only a damaged or crafted frame holds); -2 when out of memory.
int arcj_assemble(const arcj_indexed *sources, const arcj_piece *pieces, int count, int components,
    const arcj_dc_encoder *const dc[], uint8_t **buffer, size_t *capacity, size_t *size);
