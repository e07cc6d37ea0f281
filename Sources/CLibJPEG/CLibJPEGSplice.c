// MCU-level splicing: indexing an interval's Huffman codes and writing an interval again from
// pieces of indexed ones. libjpeg has no API for this (jpeg_read_coefficients decodes every block
// and jpeg_write_coefficients codes every block again, which is most of a transcode's entropy
// work), so it is written here, small: a bit reader over unstuffed bytes, the Huffman decode of
// arcj_walk_interval, a bit writer that stuffs.
#include "CLibJPEG.h"

#include <stdlib.h>
#include <string.h>

// The 32 bits at bit `position` of an indexed interval's bits, most significant first: a copy
// reads only bits the index found codes in, so 8 bytes from there are within the 16 of padding.
static inline uint32_t arcj_peek32(const uint8_t *bits, uint64_t position) {
    const uint8_t *p = bits + (position >> 3);
    uint64_t word;
    memcpy(&word, p, 8);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    word = __builtin_bswap64(word);
#endif
    return (uint32_t)((word << (position & 7)) >> 32);
}

// Unstuffed bits, most significant first, in a 64-bit window refilled 32 bits at a time (a load
// per symbol took the index twice the walk's time). Past `end` zero bits are supplied and
// `overrun` set, so a damaged interval never reads past its padding.
typedef struct arcj_reader {
    const uint8_t *base, *next, *end;
    uint64_t window;
    int count;
    int overrun;
} arcj_reader;

// At least 33 bits in the window: a code (16) and its extra bits (15) at most.
static inline void arcj_refill(arcj_reader *reader) {
    if (reader->count > 32) return;
    uint32_t word = 0;
    if (reader->next < reader->end) {
        memcpy(&word, reader->next, 4);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        word = __builtin_bswap32(word);
#endif
    } else {
        reader->overrun = 1;
    }
    reader->next += 4;
    reader->window |= (uint64_t)word << (32 - reader->count);
    reader->count += 32;
}

// The bit the reader is at.
static inline uint64_t arcj_position(const arcj_reader *reader) {
    return (uint64_t)(reader->next - reader->base) * 8 - (uint64_t)reader->count;
}

// The next `count` bits (1-16); the window refilled.
static inline uint32_t arcj_take(arcj_reader *reader, int count) {
    uint32_t value = (uint32_t)(reader->window >> (64 - count));
    reader->window <<= count;
    reader->count -= count;
    return value;
}

// The next Huffman symbol, or -1 for a code the table does not have; the window refilled.
static inline int arcj_decode_symbol(arcj_reader *reader, const arcj_walk_table *table) {
    uint16_t fast = table->fast[reader->window >> 55];
    if (fast) {
        int length = fast >> 8;
        reader->window <<= length;
        reader->count -= length;
        return fast & 0xFF;
    }
    for (int length = 10; length <= 16; length++) {
        int32_t code = (int32_t)(reader->window >> (64 - length));
        if (code <= table->maxcode[length]) {
            reader->window <<= length;
            reader->count -= length;
            int index = code + table->offset[length];
            return index >= 0 && index < 256 ? table->values[index] : -1;
        }
    }
    return -1;
}

// Bytes unstuffed (0xFF 0x00 is 0xFF); a marker ends the data. The length written.
static size_t arcj_unstuff(const uint8_t *data, size_t size, uint8_t *out) {
    size_t read = 0, written = 0;
    while (read < size) {
        const uint8_t *found = memchr(data + read, 0xFF, size - read);
        size_t run = found ? (size_t)(found - (data + read)) : size - read;
        memcpy(out + written, data + read, run);
        written += run;
        read += run;
        if (!found) break;
        if (read + 1 < size && data[read + 1] == 0x00) {
            out[written++] = 0xFF;
            read += 2;
        } else {
            break;  // a marker, which an interval does not hold: its data ends here
        }
    }
    memset(out + written, 0, 16);
    return written;
}

int arcj_index_interval(const uint8_t *data, size_t size, int mcus, int blocks_in_mcu,
    const arcj_walk_table *const dc[], const arcj_walk_table *const ac[], const int component[],
    uint8_t *unstuffed, arcj_mcu_entry *entries) {
    size_t length = arcj_unstuff(data, size, unstuffed);
    uint64_t total = (uint64_t)length * 8;
    // Loads of 4 bytes start at most 8 bytes past the data (the padding is 16).
    arcj_reader reader = {unstuffed, unstuffed, unstuffed + length + 8, 0, 0, 0};
    int32_t predictor[3] = {0, 0, 0};
    arcj_mcu_entry scratch;
    for (int mcu = 0; mcu < mcus; mcu++) {
        arcj_mcu_entry *entry = entries ? entries + mcu : &scratch;
        arcj_refill(&reader);
        entry->start = (uint32_t)arcj_position(&reader);
        int previous = -1;
        for (int block = 0; block < blocks_in_mcu; block++) {
            int c = component[block];
            int first = c != previous;
            previous = c;
            arcj_refill(&reader);
            if (first) entry->dc_start[c] = (uint32_t)arcj_position(&reader);
            int s = arcj_decode_symbol(&reader, dc[block]);
            if (s < 0 || s > 11) return 1;
            int32_t difference = 0;
            if (s) {
                uint32_t raw = arcj_take(&reader, s);
                // A leading 0 bit: a negative difference, coded as value - 1 in s bits.
                difference = raw >> (s - 1) ? (int32_t)raw : (int32_t)raw - (int32_t)((1u << s) - 1);
            }
            predictor[c] += difference;
            if (first) {
                entry->dc_end[c] = (uint32_t)arcj_position(&reader);
                entry->dc_first[c] = predictor[c];
            }
            entry->dc_last[c] = predictor[c];
            // The AC codes are only passed over: one lookup for a code and its extra bits.
            const arcj_walk_table *table = ac[block];
            for (int k = 1; k < 64;) {
                arcj_refill(&reader);
                uint16_t skip = table->skip[reader.window >> 53];
                int passes;
                if (skip) {
                    int bits = skip & 31;
                    reader.window <<= bits;
                    reader.count -= bits;
                    passes = (skip >> 5) & 31;
                } else {
                    int rs = arcj_decode_symbol(&reader, table);
                    if (rs < 0) return 1;
                    int run = rs >> 4, magnitude = rs & 15;
                    if (magnitude) arcj_take(&reader, magnitude);
                    passes = magnitude ? run + 1 : run == 15 ? 16 : 0;
                }
                if (passes == 0) break;
                k += passes;
            }
            if (reader.overrun || arcj_position(&reader) > total) return 2;
        }
    }
    uint64_t position = arcj_position(&reader);
    if (entries) entries[mcus].start = (uint32_t)position;
    return total - position >= 8 ? 3 : 0;
}

int arcj_dc_encoder_init(arcj_dc_encoder *encoder, const arcj_huffman_table *source) {
    memset(encoder, 0, sizeof *encoder);
    int code = 0, index = 0;
    for (int length = 1; length <= 16; length++) {
        for (int i = 0; i < source->bits[length - 1]; i++, code++, index++) {
            if (index >= 256) return -1;
            int symbol = source->values[index];
            if (symbol < 12 && encoder->size[symbol] == 0) {
                encoder->code[symbol] = (uint16_t)code;
                encoder->size[symbol] = (uint8_t)length;
            }
        }
        code <<= 1;
    }
    for (int s = 0; s < 12; s++) {
        if (encoder->size[s] == 0) return -1;
    }
    return 0;
}

// Bits written most significant first, 0xFF stuffed with 0x00, into a growing buffer.
typedef struct arcj_writer {
    uint8_t *out;
    size_t size, capacity;
    uint64_t pending;
    int count;
} arcj_writer;

// Room for `bits` more bits, stuffed (every byte may be 0xFF), and a few to spare.
static int arcj_reserve(arcj_writer *writer, uint64_t bits) {
    size_t needed = writer->size + (size_t)(bits / 8) * 2 + 32;
    if (needed <= writer->capacity) return 0;
    size_t capacity = writer->capacity ? writer->capacity : 4096;
    while (capacity < needed) capacity *= 2;
    uint8_t *grown = realloc(writer->out, capacity);
    if (!grown) return -1;
    writer->out = grown;
    writer->capacity = capacity;
    return 0;
}

// Writes the low `count` (at most 32) bits of `value`; room reserved.
static inline void arcj_put(arcj_writer *writer, uint32_t value, int count) {
    if (count == 0) return;
    writer->pending = (writer->pending << count) | (value & (uint32_t)((1ull << count) - 1));
    writer->count += count;
    while (writer->count >= 8) {
        uint8_t byte = (uint8_t)(writer->pending >> (writer->count - 8));
        writer->out[writer->size++] = byte;
        if (byte == 0xFF) writer->out[writer->size++] = 0x00;
        writer->count -= 8;
    }
}

// The 56 bits at bit `position` of an indexed interval's bits, in the low 56 bits (as
// arcj_peek32, from the 8 bytes there: at most 7 bits of the first are skipped).
static inline uint64_t arcj_peek56(const uint8_t *bits, uint64_t position) {
    uint64_t word;
    memcpy(&word, bits + (position >> 3), 8);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    word = __builtin_bswap64(word);
#endif
    return (word << (position & 7)) >> 8;
}

// Copies bits [from, to) of `bits`; room reserved. A frame without restart markers is one
// interval, written again whole: 56 bits at a time, which with fewer than 8 bits pending are 7
// whole bytes, stored at once unless one is 0xFF (then stuffed byte by byte, as arcj_put does).
static void arcj_copy(arcj_writer *writer, const uint8_t *bits, uint64_t from, uint64_t to) {
    while (from + 56 <= to) {
        uint64_t value = arcj_peek56(bits, from);
        int count = writer->count;  // fewer than 8
        uint64_t bytes = ((writer->pending << 56) | value) >> count & 0x00FFFFFFFFFFFFFFull;
        uint64_t inverted = ~bytes;  // a 0xFF byte is 0x00 here; the top byte is 0xFF
        if (((inverted - 0x0101010101010101ull) & ~inverted & 0x8080808080808080ull) == 0) {
            uint64_t out = bytes << 8;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            out = __builtin_bswap64(out);
#endif
            memcpy(writer->out + writer->size, &out, 8);  // the 8th byte is written over next
            writer->size += 7;
        } else {
            for (int shift = 48; shift >= 0; shift -= 8) {
                uint8_t byte = (uint8_t)(bytes >> shift);
                writer->out[writer->size++] = byte;
                if (byte == 0xFF) writer->out[writer->size++] = 0x00;
            }
        }
        writer->pending = value;  // its low `count` bits are what is left pending
        from += 56;
    }
    while (from < to) {
        int take = to - from >= 32 ? 32 : (int)(to - from);
        arcj_put(writer, arcj_peek32(bits, from) >> (32 - take), take);
        from += (uint64_t)take;
    }
}

int arcj_assemble(const arcj_indexed *sources, const arcj_piece *pieces, int count, int components,
    const arcj_dc_encoder *const dc[], uint8_t **buffer, size_t *capacity, size_t *size) {
    arcj_writer writer = {*buffer, *size, *capacity, 0, 0};
    int32_t predictor[3] = {0, 0, 0};
    int result = 0;
    for (int p = 0; p < count && result == 0; p++) {
        const arcj_indexed *source = sources + pieces[p].source;
        const arcj_mcu_entry *first = source->entries + pieces[p].first;
        const arcj_mcu_entry *end = first + pieces[p].count;
        if (arcj_reserve(&writer, (uint64_t)(end->start - first->start) + 64 * (uint64_t)components) != 0) {
            result = -2;
            break;
        }
        uint64_t cursor = first->start;
        for (int c = 0; c < components; c++) {
            arcj_copy(&writer, source->bits, cursor, first->dc_start[c]);
            int32_t difference = first->dc_first[c] - predictor[c];
            uint32_t magnitude = (uint32_t)(difference < 0 ? -(int64_t)difference : difference);
            int s = 0;
            while (s < 32 && (magnitude >> s) != 0) s++;
            // Baseline codes categories 0-11 (the encoder has codes for those alone). A camera's
            // samples never differ by more; a damaged or crafted frame's DC values can (found by
            // fuzzing: a category 12 read past the code arrays and wrote a frame no decoder reads).
            if (s > 11) {
                result = -1;
                break;
            }
            arcj_put(&writer, dc[c]->code[s], dc[c]->size[s]);
            arcj_put(&writer, (uint32_t)(difference < 0 ? difference - 1 : difference), s);
            cursor = first->dc_end[c];
        }
        if (result != 0) break;
        arcj_copy(&writer, source->bits, cursor, end->start);
        for (int c = 0; c < components; c++) predictor[c] = (end - 1)->dc_last[c];
    }
    if (result == 0 && writer.count > 0) arcj_put(&writer, 0xFF, 8 - writer.count);
    *buffer = writer.out;
    *capacity = writer.capacity;
    if (result == 0) *size = writer.size;
    return result;
}
