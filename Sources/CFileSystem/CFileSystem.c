#define _GNU_SOURCE
#include "CFileSystem.h"

#include <linux/magic.h>
#include <sys/vfs.h>
#include <unistd.h>

bool cfs_is_fat(int fd) {
    struct statfs info;
    return fstatfs(fd, &info) == 0 && info.f_type == MSDOS_SUPER_MAGIC;
}

int cfs_syncfs(int fd) { return syncfs(fd); }
