#!/usr/bin/env bash
# Counts heap allocations per annotated frame in the steady state: runs the benchmark scene
# (`arcapture-bench --annotate-only N`) for two frame counts under a malloc/realloc/posix_memalign
# counter preloaded into the process, and prints the difference per frame, so the
# start-up (fonts, caches, the first frame's sprites) cancels out. Swift allocates through malloc
# and posix_memalign; calloc is left alone (dlsym itself calls it).
#
#   bash bench/count-allocations.sh          (from the package root; builds in release mode)
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/count.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
static atomic_long calls;
void *malloc(size_t n) {
    static void *(*real)(size_t);
    if (!real) real = dlsym(RTLD_NEXT, "malloc");
    atomic_fetch_add(&calls, 1);
    return real(n);
}
void *realloc(void *p, size_t n) {
    static void *(*real)(void *, size_t);
    if (!real) real = dlsym(RTLD_NEXT, "realloc");
    atomic_fetch_add(&calls, 1);
    return real(p, n);
}
int posix_memalign(void **p, size_t alignment, size_t n) {
    static int (*real)(void **, size_t, size_t);
    if (!real) real = dlsym(RTLD_NEXT, "posix_memalign");
    atomic_fetch_add(&calls, 1);
    return real(p, alignment, n);
}
__attribute__((destructor)) static void report(void) { fprintf(stderr, "%ld\n", (long)calls); }
C
clang -shared -fPIC -O2 -o "$work/count.so" "$work/count.c" -ldl  # the Swift toolchain's clang
swift build -c release --product arcapture-bench >/dev/null
bench=$(swift build -c release --show-bin-path)/arcapture-bench
few=$(LD_PRELOAD="$work/count.so" "$bench" --annotate-only 100 2>&1 >/dev/null | tail -1)
many=$(LD_PRELOAD="$work/count.so" "$bench" --annotate-only 300 2>&1 >/dev/null | tail -1)
echo "allocations per annotated frame (steady state): $(( (many - few) / 200 ))  ($few for 100 frames, $many for 300)"
