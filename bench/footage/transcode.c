// The limit of annotating MJPEG footage: libjpeg-turbo decoding each frame to YCbCr planes and
// encoding it again from them, one thread, nothing drawn. bench/footage.sh compares arcapture with it.
//
//   transcode IN.mjpeg OUT.mjpeg QUALITY    prints "FRAMES SECONDS"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <turbojpeg.h>

static unsigned char *read_all(const char *path, long *size) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    *size = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *data = malloc((size_t)*size);
    if (data && fread(data, 1, (size_t)*size, file) != (size_t)*size) { free(data); data = NULL; }
    fclose(file);
    return data;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: transcode IN.mjpeg OUT.mjpeg QUALITY\n"); return 64; }
    long size = 0;
    unsigned char *data = read_all(argv[1], &size);
    FILE *out = fopen(argv[2], "wb");
    if (!data || !out) { fprintf(stderr, "cannot open the files\n"); return 66; }
    tjhandle decoder = tjInitDecompress(), encoder = tjInitCompress();
    unsigned char *planes = NULL, *jpeg = NULL;
    unsigned long jpeg_size = 0;
    size_t planes_size = 0;
    int frames = 0;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    // Frames are split at SOI/EOI: the benchmark's footage (from ffmpeg) has no embedded thumbnails.
    for (long at = 0; at + 1 < size;) {
        if (!(data[at] == 0xFF && data[at + 1] == 0xD8)) { at++; continue; }
        long stop = at + 2;
        while (stop + 1 < size && !(data[stop] == 0xFF && data[stop + 1] == 0xD9)) stop++;
        unsigned long length = (unsigned long)(stop + 2 - at);
        int width, height, subsampling, colorspace;
        if (tjDecompressHeader3(decoder, data + at, length, &width, &height, &subsampling, &colorspace) == 0) {
            size_t needed = tjBufSizeYUV2(width, 1, height, subsampling);
            if (needed > planes_size) { planes = realloc(planes, needed); planes_size = needed; }
            if (tjDecompressToYUV2(decoder, data + at, length, planes, width, 1, height, 0) == 0 &&
                tjCompressFromYUV(encoder, planes, width, 1, height, subsampling, &jpeg, &jpeg_size, atoi(argv[3]), 0) == 0) {
                fwrite(jpeg, 1, jpeg_size, out);
                frames++;
            }
        }
        at = stop + 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    printf("%d %.6f\n", frames, (double)(end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9);
    fclose(out);
    tjFree(jpeg);
    free(planes);
    free(data);
    tjDestroy(decoder);
    tjDestroy(encoder);
    return 0;
}
