/*
 * loopback-writer: feeds a v4l2loopback device's output side with frames, the way a camera's
 * driver would hand them to a reader, so the VM tests capture MJPEG (and YUYV) from a real driver.
 * It is the tests' independent producer: it shares no code with arcapture.
 *
 * Usage: loopback-writer DEVICE FOURCC WIDTH HEIGHT FPS FRAMES [REPEAT]
 *        loopback-writer DEVICE YUYV WIDTH HEIGHT FPS --stamped LOG
 *   DEVICE  the loopback node (/dev/video10)
 *   FOURCC  MJPG or YUYV: what the output format says
 *   FPS     frames written a second (paced with CLOCK_MONOTONIC, absolute deadlines)
 *   FRAMES  a file of frames, each a 4-byte little-endian length and then that many bytes (what
 *           Tests/VM/make-loopback-frames.py writes: real frames and deliberately damaged ones)
 *   REPEAT  passes through FRAMES (default 0: until SIGTERM or SIGINT)
 *   --stamped LOG  instead of FRAMES, numbered frames made here, for the serve benchmark's latency
 *           on one clock (bench/serve/compare-ustreamer.sh): mid grey, with the frame's number (16
 *           bits) in the bottom eighth as 16 cells, white for a 1 and black for a 0, over the same
 *           cells inverted (so a reader can tell a number from damage); LOG gets "NUMBER SECONDS"
 *           a frame, CLOCK_MONOTONIC read once its write() returned, the clock the benchmark's
 *           client reads when the frame's last byte arrives.
 *
 * Sets the output format (VIDIOC_S_FMT on VIDEO_OUTPUT) and the rate (VIDIOC_S_PARM), then calls
 * VIDIOC_STREAMON(OUTPUT) before writing: v4l2loopback 0.12.7 with exclusive_caps=1 is left
 * unusable after a write()-only producer closes (v4l2loopback#470), and the call avoids it. Each
 * frame is one write(); the driver copies at most its buffer size (a longer frame is cut there).
 * Prints "ready" to stderr once the format is set, then one line per pass, and exits 0 when asked
 * to stop or when its passes are done.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stopping = 0;
static void on_signal(int signal_number) { (void)signal_number; stopping = 1; }

static int xioctl(int fd, unsigned long request, void *argument) {
    int result;
    do { result = ioctl(fd, request, argument); } while (result == -1 && errno == EINTR);
    return result;
}

struct frame { unsigned char *bytes; size_t length; };

static struct frame *read_frames(const char *path, size_t *count) {
    FILE *file = fopen(path, "rb");
    if (!file) { fprintf(stderr, "loopback-writer: %s: %s\n", path, strerror(errno)); exit(2); }
    struct frame *frames = NULL;
    size_t used = 0, capacity = 0;
    unsigned char header[4];
    while (fread(header, 1, 4, file) == 4) {
        size_t length = (size_t)header[0] | (size_t)header[1] << 8 | (size_t)header[2] << 16 |
                        (size_t)header[3] << 24;
        if (used == capacity) {
            capacity = capacity ? capacity * 2 : 16;
            frames = realloc(frames, capacity * sizeof *frames);
            if (!frames) { fprintf(stderr, "loopback-writer: out of memory\n"); exit(2); }
        }
        frames[used].bytes = malloc(length ? length : 1);
        frames[used].length = length;
        if (!frames[used].bytes || fread(frames[used].bytes, 1, length, file) != length) {
            fprintf(stderr, "loopback-writer: %s: frame %zu is cut short\n", path, used);
            exit(2);
        }
        used++;
    }
    fclose(file);
    if (used == 0) { fprintf(stderr, "loopback-writer: %s holds no frames\n", path); exit(2); }
    *count = used;
    return frames;
}

/* A stamped frame: grey, with `number` in the code cells of the bottom eighth (see Usage). */
static void draw_number(unsigned char *frame, unsigned width, unsigned height, unsigned number) {
    for (size_t at = 0; at < (size_t)width * height * 2; at += 2) { frame[at] = 128; frame[at + 1] = 128; }
    unsigned band = height / 8, top = height - band, cell = width / 16;
    for (unsigned y = top; y < height; y++) {
        int inverted = y >= top + band / 2;
        for (unsigned x = 0; x < cell * 16; x++) {
            int bit = (number >> (15 - x / cell)) & 1;
            frame[((size_t)y * width + x) * 2] = (bit ^ inverted) ? 235 : 16;
        }
    }
}

int main(int argc, char **argv) {
    if (argc != 7 && argc != 8) {
        fprintf(stderr, "usage: %s DEVICE FOURCC WIDTH HEIGHT FPS FRAMES [REPEAT]\n", argv[0]);
        fprintf(stderr, "       %s DEVICE YUYV WIDTH HEIGHT FPS --stamped LOG\n", argv[0]);
        return 2;
    }
    const char *device = argv[1], *fourcc = argv[2];
    unsigned width = (unsigned)atoi(argv[3]), height = (unsigned)atoi(argv[4]), fps = (unsigned)atoi(argv[5]);
    int stamped = strcmp(argv[6], "--stamped") == 0;
    long repeat = argc == 8 && !stamped ? atol(argv[7]) : 0;
    if (strlen(fourcc) != 4 || width == 0 || height == 0 || fps == 0) {
        fprintf(stderr, "loopback-writer: bad format arguments\n");
        return 2;
    }
    size_t count = 1;
    struct frame *frames;
    FILE *log = NULL;
    if (stamped) {
        if (argc != 8 || strcmp(fourcc, "YUYV") != 0 || width < 64 || height < 64 || width % 16 != 0) {
            fprintf(stderr, "loopback-writer: --stamped LOG writes YUYV of at least 64x64, a width divisible by 16\n");
            return 2;
        }
        log = fopen(argv[7], "w");
        frames = calloc(1, sizeof *frames);
        if (!log || !frames) { fprintf(stderr, "loopback-writer: %s: %s\n", argv[7], strerror(errno)); return 1; }
        frames[0].length = (size_t)width * height * 2;
        frames[0].bytes = malloc(frames[0].length);
        if (!frames[0].bytes) { fprintf(stderr, "loopback-writer: out of memory\n"); return 2; }
    } else {
        frames = read_frames(argv[6], &count);
    }

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);

    int fd = open(device, O_RDWR);
    if (fd < 0) { fprintf(stderr, "loopback-writer: open %s: %s\n", device, strerror(errno)); return 1; }
    struct v4l2_format format;
    memset(&format, 0, sizeof format);
    format.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
    format.fmt.pix.width = width;
    format.fmt.pix.height = height;
    format.fmt.pix.pixelformat = v4l2_fourcc(fourcc[0], fourcc[1], fourcc[2], fourcc[3]);
    format.fmt.pix.field = V4L2_FIELD_NONE;
    format.fmt.pix.colorspace = V4L2_COLORSPACE_SRGB;
    if (format.fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV) {
        format.fmt.pix.bytesperline = width * 2;
        format.fmt.pix.sizeimage = width * height * 2;
    }
    if (xioctl(fd, VIDIOC_S_FMT, &format) < 0) {
        fprintf(stderr, "loopback-writer: VIDIOC_S_FMT: %s\n", strerror(errno));
        return 1;
    }
    struct v4l2_streamparm parameters;
    memset(&parameters, 0, sizeof parameters);
    parameters.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
    parameters.parm.output.timeperframe.numerator = 1;
    parameters.parm.output.timeperframe.denominator = fps;
    if (xioctl(fd, VIDIOC_S_PARM, &parameters) < 0)
        fprintf(stderr, "loopback-writer: VIDIOC_S_PARM: %s (going on)\n", strerror(errno));
    int type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
    if (xioctl(fd, VIDIOC_STREAMON, &type) < 0) {
        fprintf(stderr, "loopback-writer: VIDIOC_STREAMON: %s\n", strerror(errno));
        return 1;
    }
    fprintf(stderr, "ready %s %ux%u %u fps, %zu frames a pass\n", fourcc, width, height, fps, count);

    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    const long period = 1000000000L / fps;
    unsigned long written = 0;
    for (long pass = 0; !stopping && (repeat == 0 || pass < repeat); pass++) {
        for (size_t index = 0; index < count && !stopping; index++) {
            unsigned number = (unsigned)((written + 1) & 0xFFFF);
            if (stamped) draw_number(frames[index].bytes, width, height, number);
            ssize_t result;
            do { result = write(fd, frames[index].bytes, frames[index].length); } while (result < 0 && errno == EINTR);
            if (result < 0) { fprintf(stderr, "loopback-writer: write: %s\n", strerror(errno)); return 1; }
            written++;
            if (log) {
                struct timespec done;
                clock_gettime(CLOCK_MONOTONIC, &done);
                fprintf(log, "%u %.6f\n", number, (double)done.tv_sec + (double)done.tv_nsec / 1e9);
                fflush(log);
            }
            next.tv_nsec += period;
            while (next.tv_nsec >= 1000000000L) { next.tv_nsec -= 1000000000L; next.tv_sec++; }
            while (!stopping && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR) {}
        }
        if (!stamped) fprintf(stderr, "pass %ld done, %lu frames written\n", pass + 1, written);
    }
    xioctl(fd, VIDIOC_STREAMOFF, &type);
    close(fd);
    if (log) fclose(log);
    return 0;
}
