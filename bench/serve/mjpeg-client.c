// An MJPEG stream client for the serve benchmark (bench/serve/compare-ustreamer.sh), the same for
// both servers: it reads GET /stream over HTTP/1.0 for SECONDS after a 2-second warm-up and prints
// the frames it received whole, their bytes, and for each frame the time from its X-Timestamp
// (when the frame was captured) to its last byte received: median and 99th percentile, in ms.
// The timestamp is wall-clock time from arcapture and monotonic time from uStreamer; which one is
// told by its size (a wall-clock time is past 2001). Built statically on the host, run in the VM.
//
// With ARRIVALS, it also decodes each frame (libjpeg-turbo, to grey) and reads the number
// loopback-writer --stamped drew in it, and writes "NUMBER SECONDS" a frame to ARRIVALS: when its last byte
// came, on CLOCK_MONOTONIC, the clock the writer logs its writes on. Frames whose number cannot
// be read (its cells and their inverted twins disagree) are counted as "unreadable".
//
// Usage: mjpeg-client PORT SECONDS [ARRIVALS]
#define _GNU_SOURCE  // memmem
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <turbojpeg.h>
#include <unistd.h>

static double now(clockid_t clock) {
    struct timespec time;
    clock_gettime(clock, &time);
    return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// The number loopback-writer --stamped drew in the bottom eighth of the frame: 16 cells, each a bit, over
// their inverted twins; -1 when any cell does not read as one bit over its opposite.
static long frame_number(tjhandle decoder, const unsigned char *jpeg, size_t size, unsigned char **grey,
    size_t *capacity) {
    int width, height, subsampling, colorspace;
    if (tjDecompressHeader3(decoder, jpeg, (unsigned long)size, &width, &height, &subsampling, &colorspace) != 0)
        return -1;
    if ((size_t)width * (size_t)height > *capacity) {
        *capacity = (size_t)width * (size_t)height;
        *grey = realloc(*grey, *capacity);
        if (*grey == NULL) return -1;
    }
    if (tjDecompress2(decoder, jpeg, (unsigned long)size, *grey, width, width, height, TJPF_GRAY, 0) != 0) return -1;
    int band = height / 8, top = height - band, cell = width / 16;
    long number = 0;
    for (int bit = 0; bit < 16; bit++) {
        int x = bit * cell + cell / 2;
        int upper = (*grey)[(size_t)(top + band / 4) * (size_t)width + (size_t)x];
        int lower = (*grey)[(size_t)(top + band * 3 / 4) * (size_t)width + (size_t)x];
        if (abs(upper - lower) < 100) return -1;
        number = number << 1 | (upper > lower);
    }
    return number;
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 4) { fprintf(stderr, "usage: %s PORT SECONDS [ARRIVALS]\n", argv[0]); return 2; }
    FILE *arrivals = NULL;
    tjhandle decoder = NULL;
    unsigned char *grey = NULL;
    size_t grey_capacity = 0, unreadable = 0;
    if (argc == 4) {
        arrivals = fopen(argv[3], "w");
        decoder = tjInitDecompress();
        if (arrivals == NULL || decoder == NULL) { fprintf(stderr, "mjpeg-client: cannot open %s\n", argv[3]); return 1; }
    }
    int port = atoi(argv[1]);
    double seconds = atof(argv[2]);
    int descriptor = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((unsigned short)port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (descriptor < 0 || connect(descriptor, (struct sockaddr *)&address, sizeof address) != 0) {
        fprintf(stderr, "mjpeg-client: connect to port %d: %s\n", port, strerror(errno));
        return 1;
    }
    const char *request = "GET /stream HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n";
    if (send(descriptor, request, strlen(request), 0) < 0) return 1;
    size_t capacity = 16 << 20, length = 0;
    char *buffer = malloc(capacity);
    double *latencies = malloc(sizeof(double) * 100000);
    if (buffer == NULL || latencies == NULL) return 1;
    size_t frames = 0, bytes = 0, measured = 0;
    double start = now(CLOCK_MONOTONIC), warm = start + 2, end = warm + seconds;
    int head_done = 0;
    while (now(CLOCK_MONOTONIC) < end) {
        if (length == capacity) return 1;  // a part larger than 16 MB: not a camera frame
        ssize_t count = recv(descriptor, buffer + length, capacity - length, 0);
        if (count <= 0) break;
        length += (size_t)count;
        for (;;) {
            if (!head_done) {
                char *blank = memmem(buffer, length, "\r\n\r\n", 4);
                if (blank == NULL) break;
                size_t used = (size_t)(blank + 4 - buffer);
                memmove(buffer, buffer + used, length - used);
                length -= used;
                head_done = 1;
            }
            char *part = memmem(buffer, length, "Content-Length:", 15);
            char *blank = part ? memmem(part, length - (size_t)(part - buffer), "\r\n\r\n", 4) : NULL;
            if (blank == NULL) break;
            size_t size = strtoul(part + 15, NULL, 10);
            size_t body = (size_t)(blank + 4 - buffer);
            if (length < body + size) break;
            double stamp = 0;
            char *header = memmem(buffer, body, "X-Timestamp:", 12);
            if (header != NULL) stamp = strtod(header + 12, NULL);
            double received = now(stamp > 1e9 ? CLOCK_REALTIME : CLOCK_MONOTONIC);
            double arrived = now(CLOCK_MONOTONIC);
            if (arrived >= warm) {
                frames++;
                bytes += size;
                if (stamp > 0 && measured < 100000) latencies[measured++] = (received - stamp) * 1000;
                if (arrivals != NULL) {
                    long number = frame_number(decoder, (const unsigned char *)buffer + body, size, &grey, &grey_capacity);
                    if (number < 0) unreadable++; else fprintf(arrivals, "%ld %.6f\n", number, arrived);
                }
            }
            memmove(buffer, buffer + body + size, length - body - size);
            length -= body + size;
        }
    }
    qsort(latencies, measured, sizeof(double), compare);
    double median = measured ? latencies[measured / 2] : -1;
    size_t at99 = (size_t)((double)measured * 0.99);
    double p99 = measured ? latencies[at99 < measured ? at99 : measured - 1] : -1;
    printf("frames %zu bytes %zu seconds %.3f latency_median_ms %.2f latency_p99_ms %.2f", frames, bytes, seconds,
        median, p99);
    if (arrivals != NULL) {
        printf(" unreadable %zu", unreadable);
        fclose(arrivals);
        tjDestroy(decoder);
    }
    printf("\n");
    return 0;
}
