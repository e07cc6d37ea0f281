#include "CV4L2.h"

#include <fcntl.h>
#include <libv4l2.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

int cv4l2_open(const char *path, int flags) { return open(path, flags); }

int cv4l2_enable_libv4l2(int fd) { return v4l2_fd_open(fd, 0); }

int cv4l2_ioctl(int fd, unsigned long request, void *argument, int use_libv4l2) {
    return use_libv4l2 ? v4l2_ioctl(fd, request, argument) : ioctl(fd, request, argument);
}

void *cv4l2_mmap(int fd, size_t length, int64_t offset, int use_libv4l2) {
    void *start = use_libv4l2
        ? v4l2_mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset)
        : mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
    return start == MAP_FAILED ? NULL : start;
}

int cv4l2_munmap(void *start, size_t length, int use_libv4l2) {
    return use_libv4l2 ? v4l2_munmap(start, length) : munmap(start, length);
}

int cv4l2_close(int fd, int use_libv4l2) { return use_libv4l2 ? v4l2_close(fd) : close(fd); }
