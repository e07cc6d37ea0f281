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
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/pixdesc.h>

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

#endif
