#include "CLibJPEG.h"

#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

// Where coefficient k of a block in zigzag order (a DQT segment's order) sits in natural order.
static const int natural_order[64] = {
    0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48,
    41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
    30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

typedef struct arcj_error {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
} arcj_error;

static void arcj_error_exit(j_common_ptr cinfo) {
    arcj_error *error = (arcj_error *)cinfo->err;
    longjmp(error->jump, 1);
}

// Warnings are not printed: a library does not write to stderr behind its caller's back.
static void arcj_output_message(j_common_ptr cinfo) { (void)cinfo; }

// A destination that writes into the caller's buffer and grows it, so that a stream of frames
// reuses one buffer (jpeg_mem_dest would leave the caller's first buffer behind when it grows).
typedef struct arcj_destination {
    struct jpeg_destination_mgr pub;
    uint8_t **buffer;
    unsigned long *capacity;
} arcj_destination;

static void arcj_init_destination(j_compress_ptr cinfo) {
    arcj_destination *destination = (arcj_destination *)cinfo->dest;
    if (*destination->buffer == NULL || *destination->capacity < 65536) {
        uint8_t *grown = realloc(*destination->buffer, 65536);
        if (grown == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 1);
        *destination->buffer = grown;
        *destination->capacity = 65536;
    }
    destination->pub.next_output_byte = *destination->buffer;
    destination->pub.free_in_buffer = *destination->capacity;
}

static boolean arcj_empty_output_buffer(j_compress_ptr cinfo) {
    arcj_destination *destination = (arcj_destination *)cinfo->dest;
    unsigned long used = *destination->capacity;
    uint8_t *grown = realloc(*destination->buffer, used * 2);
    if (grown == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 2);
    *destination->buffer = grown;
    *destination->capacity = used * 2;
    destination->pub.next_output_byte = grown + used;
    destination->pub.free_in_buffer = used;
    return TRUE;
}

static void arcj_term_destination(j_compress_ptr cinfo) { (void)cinfo; }

static void arcj_message(j_common_ptr cinfo, char *error, size_t error_size) {
    char message[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, message);
    if (error_size > 0) snprintf(error, error_size, "%s", message);
}

static int arcj_set_huffman(j_compress_ptr cinfo, JHUFF_TBL **slot, const arcj_huffman_table *source) {
    int count = 0;
    for (int length = 0; length < 16; length++) count += source->bits[length];
    if (count == 0 || count > 256) return -1;
    if (*slot == NULL) *slot = jpeg_alloc_huff_table((j_common_ptr)cinfo);
    (*slot)->bits[0] = 0;
    memcpy(&(*slot)->bits[1], source->bits, 16);
    memcpy((*slot)->huffval, source->values, (size_t)count);
    (*slot)->sent_table = FALSE;
    return 0;
}

int arcj_compress(const arcj_compress_settings *settings, const uint8_t *const planes[3], const int strides[3],
    const int widths[3], const int heights[3], uint8_t **buffer, unsigned long *capacity, unsigned long *size,
    char *error, size_t error_size) {
    const int components = settings->components;
    if (components != 1 && components != 3) {
        snprintf(error, error_size, "%d components (1 or 3 are encoded)", components);
        return -1;
    }
    int max_h = 1, max_v = 1;
    for (int i = 0; i < components; i++) {
        if (settings->h[i] > max_h) max_h = settings->h[i];
        if (settings->v[i] > max_v) max_v = settings->v[i];
    }
    // Each component's rows for one MCU row, whole blocks wide: the samples repeated out to the
    // block edges, as tjCompressFromYUVPlanes does, so that its frames and these are the same.
    int padded_width[3] = {0, 0, 0}, block_rows[3] = {0, 0, 0};
    JSAMPLE *rows_buffer[3] = {NULL, NULL, NULL};
    JSAMPROW *row_pointers[3] = {NULL, NULL, NULL};
    int result = -1;
    for (int i = 0; i < components; i++) {
        int h = components == 1 ? 1 : settings->h[i], v = components == 1 ? 1 : settings->v[i];
        int hmax = components == 1 ? 1 : max_h;
        long blocks = ((long)settings->width * h + (long)hmax * DCTSIZE - 1) / ((long)hmax * DCTSIZE);
        padded_width[i] = (int)blocks * DCTSIZE;
        block_rows[i] = v * DCTSIZE;
        rows_buffer[i] = malloc((size_t)padded_width[i] * (size_t)block_rows[i]);
        row_pointers[i] = malloc(sizeof(JSAMPROW) * (size_t)block_rows[i]);
        if (rows_buffer[i] == NULL || row_pointers[i] == NULL || widths[i] <= 0 || heights[i] <= 0 ||
            widths[i] > padded_width[i]) {
            snprintf(error, error_size, "component %d: no memory or a bad plane size", i);
            goto release;
        }
    }

    struct jpeg_compress_struct cinfo;
    arcj_error failure;
    arcj_destination destination;
    cinfo.err = jpeg_std_error(&failure.pub);
    failure.pub.error_exit = arcj_error_exit;
    failure.pub.output_message = arcj_output_message;
    if (setjmp(failure.jump)) {
        arcj_message((j_common_ptr)&cinfo, error, error_size);
        jpeg_destroy_compress(&cinfo);
        goto release;
    }
    jpeg_create_compress(&cinfo);
    destination.pub.init_destination = arcj_init_destination;
    destination.pub.empty_output_buffer = arcj_empty_output_buffer;
    destination.pub.term_destination = arcj_term_destination;
    destination.buffer = buffer;
    destination.capacity = capacity;
    cinfo.dest = &destination.pub;

    cinfo.image_width = (JDIMENSION)settings->width;
    cinfo.image_height = (JDIMENSION)settings->height;
    cinfo.input_components = components;
    cinfo.in_color_space = components == 1 ? JCS_GRAYSCALE : JCS_YCbCr;
    jpeg_set_defaults(&cinfo);
    jpeg_set_colorspace(&cinfo, components == 1 ? JCS_GRAYSCALE : JCS_YCbCr);
    if (settings->use_quant_tables) {
        for (int t = 0; t < 4; t++) {
            if (!settings->quant_present[t]) continue;
            if (cinfo.quant_tbl_ptrs[t] == NULL) cinfo.quant_tbl_ptrs[t] = jpeg_alloc_quant_table((j_common_ptr)&cinfo);
            for (int k = 0; k < 64; k++) {
                cinfo.quant_tbl_ptrs[t]->quantval[natural_order[k]] = settings->quant[t][k] ? settings->quant[t][k] : 1;
            }
            cinfo.quant_tbl_ptrs[t]->sent_table = FALSE;
        }
        // The fast integer transform, which TurboJPEG (so the full transcode) uses below quality 96.
        cinfo.dct_method = JDCT_IFAST;
    } else {
        jpeg_set_quality(&cinfo, settings->quality, TRUE);
        cinfo.dct_method = settings->quality >= 96 ? JDCT_ISLOW : JDCT_IFAST;
    }
    if (settings->use_huffman_tables) {
        for (int t = 0; t < 4; t++) {
            if ((settings->dc[t].present && arcj_set_huffman(&cinfo, &cinfo.dc_huff_tbl_ptrs[t], &settings->dc[t])) ||
                (settings->ac[t].present && arcj_set_huffman(&cinfo, &cinfo.ac_huff_tbl_ptrs[t], &settings->ac[t]))) {
                ERREXIT(&cinfo, JERR_BAD_HUFF_TABLE);
            }
        }
    }
    for (int i = 0; i < components; i++) {
        jpeg_component_info *component = &cinfo.comp_info[i];
        component->component_id = settings->component_id[i];
        component->h_samp_factor = components == 1 ? 1 : settings->h[i];
        component->v_samp_factor = components == 1 ? 1 : settings->v[i];
        component->quant_tbl_no = settings->quant_index[i];
        component->dc_tbl_no = settings->dc_index[i];
        component->ac_tbl_no = settings->ac_index[i];
    }
    cinfo.raw_data_in = TRUE;
    cinfo.optimize_coding = FALSE;
    cinfo.restart_interval = (unsigned int)settings->restart_interval;
    cinfo.restart_in_rows = settings->restart_interval ? 0 : settings->restart_rows;
    jpeg_start_compress(&cinfo, TRUE);

    const int rows_per_call = (components == 1 ? 1 : max_v) * DCTSIZE;
    for (int top = 0; top < settings->height; top += rows_per_call) {
        JSAMPARRAY data[3];
        for (int i = 0; i < components; i++) {
            int v = components == 1 ? 1 : settings->v[i];
            int first = top / rows_per_call * v * DCTSIZE;
            for (int j = 0; j < block_rows[i]; j++) {
                int row = first + j < heights[i] ? first + j : heights[i] - 1;
                const uint8_t *source = planes[i] + (size_t)row * (size_t)strides[i];
                if (widths[i] == padded_width[i]) {
                    row_pointers[i][j] = (JSAMPROW)source;  // read only: libjpeg does not write its input
                } else {
                    JSAMPLE *target = rows_buffer[i] + (size_t)j * (size_t)padded_width[i];
                    memcpy(target, source, (size_t)widths[i]);
                    memset(target + widths[i], source[widths[i] - 1], (size_t)(padded_width[i] - widths[i]));
                    row_pointers[i][j] = target;
                }
            }
            data[i] = row_pointers[i];
        }
        jpeg_write_raw_data(&cinfo, data, (JDIMENSION)rows_per_call);
    }
    jpeg_finish_compress(&cinfo);
    *size = *capacity - destination.pub.free_in_buffer;
    jpeg_destroy_compress(&cinfo);
    result = 0;

release:
    for (int i = 0; i < 3; i++) {
        free(rows_buffer[i]);
        free(row_pointers[i]);
    }
    return result;
}

int arcj_walk_table_init(arcj_walk_table *table, const arcj_huffman_table *source) {
    int code = 0, index = 0;
    memset(table->fast, 0, sizeof table->fast);
    memset(table->skip, 0, sizeof table->skip);
    for (int length = 1; length <= 16; length++) {
        int count = source->bits[length - 1];
        table->offset[length] = index - code;
        table->maxcode[length] = count ? code + count - 1 : -1;
        for (int i = 0; i < count; i++, code++, index++) {
            if (index >= 256 || code >= (1 << length)) return -1;
            int symbol = source->values[index];
            if (length <= 9) {
                int shift = 9 - length;
                for (int look = code << shift; look < (code + 1) << shift; look++) {
                    table->fast[look] = (uint16_t)(length << 8 | symbol);
                }
            }
            if (length <= 11) {
                // As an AC symbol: a run of zeros (high nibble) and the size of the coefficient's
                // extra bits (low nibble); 0xF0 passes 16 zeros, and any other of size 0 ends the
                // block (as libjpeg-turbo takes them).
                int run = symbol >> 4, size = symbol & 15;
                int passes = size ? run + 1 : run == 15 ? 16 : 0;
                int shift = 11 - length;
                for (int look = code << shift; look < (code + 1) << shift; look++) {
                    table->skip[look] = (uint16_t)(0x8000 | passes << 5 | (length + size));
                }
            }
        }
        code <<= 1;
    }
    table->maxcode[0] = -1;
    table->maxcode[17] = INT32_MAX;
    memcpy(table->values, source->values, (size_t)index);
    return 0;
}
