// CLibJPEG: libjpeg-turbo's libjpeg API (libjpeg62-turbo-dev) for what TurboJPEG 2.1 cannot do:
// encoding with given quantisation and Huffman tables (a spliced frame's re-encoded restart
// intervals keep the camera's own) and with restart markers (TurboJPEG 2.1 has no parameter for
// them). Also a Huffman walk that checks a restart interval's entropy-coded data without decoding
// it, so that an interval copied byte for byte is known whole.
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

/// Huffman tables prepared for arcj_walk_interval.
typedef struct arcj_walk_table {
    int32_t maxcode[18];
    int32_t offset[18];
    uint8_t values[256];
    /// For the next 9 bits: length << 8 | symbol, or 0 when the code is longer.
    uint16_t fast[512];
} arcj_walk_table;

/// Prepares `table` from `source`. Returns 0, or -1 when the counts are not a valid Huffman code.
int arcj_walk_table_init(arcj_walk_table *table, const arcj_huffman_table *source);

/// Walks one restart interval's entropy-coded data (stuffed bytes, no markers): `mcus` MCUs of
/// `blocks_in_mcu` blocks, block i coded with dc[i] and ac[i]. Returns 0 when it holds exactly that
/// many and ends with at most 7 padding bits; 1 for a code no table has; 2 when it ends early
/// (truncated); 3 when bytes are left after the last MCU.
int arcj_walk_interval(const uint8_t *data, size_t size, int mcus, int blocks_in_mcu,
    const arcj_walk_table *const dc[], const arcj_walk_table *const ac[]);
