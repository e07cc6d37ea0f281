#include "CFFmpeg.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

// One buffer per thread: every reader of a file runs on one thread, and an error read back right
// after the call that failed is that call's.
static __thread char last_error[512];
// The first "Error parsing option" libavcodec's libx264 wrapper logged: FFmpeg 5.1 only warns of
// an x264 parameter it cannot use and encodes without it, which would be silent wrong output.
static __thread char parameter_error[512];

static void keep(void *context, int level, const char *format, va_list arguments) {
    (void)context;
    if (level > AV_LOG_WARNING) return;
    char line[sizeof last_error];
    vsnprintf(line, sizeof line, format, arguments);
    if (level == AV_LOG_WARNING) {
        if (parameter_error[0] == 0 && strncmp(line, "Error parsing option", 20) == 0) {
            size_t length = strlen(line);
            while (length > 0 && line[length - 1] == '\n') line[--length] = 0;
            memcpy(parameter_error, line, length + 1);
        }
        return;
    }
    size_t length = strlen(line);
    while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == ' ')) line[--length] = 0;
    if (length > 0) memcpy(last_error, line, length + 1);
}

static void install(void) { av_log_set_callback(keep); }

void arcapture_av_keep_log(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, install);
}

const char *arcapture_av_last_error(void) { return last_error; }

const char *arcapture_av_parameter_error(void) { return parameter_error; }

void arcapture_av_clear_log(void) {
    last_error[0] = 0;
    parameter_error[0] = 0;
}
