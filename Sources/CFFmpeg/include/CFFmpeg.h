// FFmpeg's libraries (Debian's libavformat-dev, libavcodec-dev, libavutil-dev): containers and
// codecs for footage as people have it (MP4, MOV, MKV). Only CaptureKit's Footage/Media files use
// them; no C type reaches a public signature. FFmpeg spells its error codes and "no timestamp" as
// macros Swift cannot import: they are named once here. Its log, which it prints on stderr by
// default, is kept instead (CFFmpeg.c), so that an error names the file and says what FFmpeg
// found ("moov atom not found") in one line of ours.
#ifndef ARCAPTURE_CFFMPEG_H
#define ARCAPTURE_CFFMPEG_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/pixdesc.h>
#include <libavutil/display.h>
#include <libavutil/opt.h>

/// The end of the file, as av_read_frame reports it.
static const int arcapture_av_eof = AVERROR_EOF;
/// "Try again" (a decoder that wants more input).
static const int arcapture_av_again = AVERROR(EAGAIN);
/// A packet or stream without a timestamp.
static const int64_t arcapture_av_no_timestamp = AV_NOPTS_VALUE;

/// FFmpeg's sentence for `error` (an AVERROR), in `buffer`.
static inline void arcapture_av_error_text(int error, char *buffer, size_t size) {
    if (av_strerror(error, buffer, size) < 0) snprintf(buffer, size, "FFmpeg error %d", error);
}

/// Routes FFmpeg's log into this thread's last-message buffer instead of stderr (once per
/// process; later calls do nothing).
void arcapture_av_keep_log(void);

/// The last message of error level FFmpeg logged on this thread since
/// arcapture_av_clear_log, without its trailing newline; empty when none.
const char *arcapture_av_last_error(void);

/// Forgets this thread's last message.
void arcapture_av_clear_log(void);

/// The first "Error parsing option '…'" warning this thread logged since arcapture_av_clear_log
/// (an x264 parameter libx264 cannot use), or empty.
const char *arcapture_av_parameter_error(void);

/// A stream's codec tag as four characters (`gpmd` for GoPro's telemetry), NUL-terminated.
static inline void arcapture_av_codec_tag(const AVStream *stream, char tag[5]) {
    uint32_t value = stream->codecpar->codec_tag;
    for (int i = 0; i < 4; i++) tag[i] = (char)((value >> (8 * i)) & 0xFF);
    tag[4] = 0;
}

/// A stream's metadata value for `key` (such as `handler_name`), or NULL.
static inline const char *arcapture_av_stream_tag(const AVStream *stream, const char *key) {
    const AVDictionaryEntry *entry = av_dict_get(stream->metadata, key, NULL, 0);
    return entry == NULL ? NULL : entry->value;
}

/// The container's metadata value for `key` (such as `creation_time`), or NULL.
static inline const char *arcapture_av_format_tag(const AVFormatContext *context, const char *key) {
    const AVDictionaryEntry *entry = av_dict_get(context->metadata, key, NULL, 0);
    return entry == NULL ? NULL : entry->value;
}

/// An encoder flag: codec headers once in the container (MP4's avcC), not before every keyframe.
static const int arcapture_av_codec_flag_global_header = AV_CODEC_FLAG_GLOBAL_HEADER;

/// "Invalid argument", FFmpeg's code for what a muxer or encoder refuses.
static const int arcapture_av_invalid = AVERROR(EINVAL);

/// How many degrees anticlockwise a stream's display matrix turns its picture to show it (0, 90,
/// 180 or 270, rounded; 0 without one), and in `mirrored` whether it also flips it.
/// FFmpeg before 6.1 keeps the matrix among the stream's side data, later in its parameters'.
static inline int arcapture_av_rotation(const AVStream *stream, int *mirrored) {
    const int32_t *matrix = NULL;
#if LIBAVFORMAT_VERSION_INT >= AV_VERSION_INT(60, 15, 100)
    const AVPacketSideData *found = av_packet_side_data_get(
        stream->codecpar->coded_side_data, stream->codecpar->nb_coded_side_data, AV_PKT_DATA_DISPLAYMATRIX);
    if (found != NULL && found->size >= 9 * sizeof(int32_t)) matrix = (const int32_t *)found->data;
#else
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (data != NULL && size >= 9 * sizeof(int32_t)) matrix = (const int32_t *)data;
#endif
    *mirrored = 0;
    if (matrix == NULL) return 0;
    // A mirrored picture's matrix has a negative determinant.
    *mirrored = ((int64_t)matrix[0] * matrix[4] - (int64_t)matrix[1] * matrix[3]) < 0;
    double degrees = av_display_rotation_get(matrix);
    if (degrees != degrees) return 0;  // NaN: a matrix that is no rotation
    int quarter = (int)((degrees < 0 ? degrees - 45 : degrees + 45) / 90);
    return ((quarter % 4) + 4) % 4 * 90;
}

/// Copies a stream's side data other than its display matrix from `from` to `to` (FFmpeg before
/// 6.1 keeps it on the stream; later versions in the parameters, which avcodec_parameters_copy
/// copies, so there the matrix is taken out of `to`'s parameters instead). 0, or an AVERROR.
static inline int arcapture_av_copy_side_data(AVStream *to, const AVStream *from, int keep_display_matrix) {
#if LIBAVFORMAT_VERSION_INT >= AV_VERSION_INT(60, 15, 100)
    (void)from;
    if (!keep_display_matrix)
        av_packet_side_data_remove(to->codecpar->coded_side_data, &to->codecpar->nb_coded_side_data,
                                   AV_PKT_DATA_DISPLAYMATRIX);
    return 0;
#else
    for (int i = 0; i < from->nb_side_data; i++) {
        const AVPacketSideData *item = &from->side_data[i];
        if (item->type == AV_PKT_DATA_DISPLAYMATRIX && !keep_display_matrix) continue;
        uint8_t *copy = av_stream_new_side_data(to, item->type, item->size);
        if (copy == NULL) return AVERROR(ENOMEM);
        memcpy(copy, item->data, item->size);
    }
    return 0;
#endif
}

#endif
