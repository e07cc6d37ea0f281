// CFileSystem: the two file-system calls Swift's Glibc module does not export (statfs's
// <sys/vfs.h> is not in it, and syncfs(2) is a GNU extension). No logic lives here: GeoAR's
// AtomicFileWriter decides when to call them and what the answers mean.
#pragma once

#include <stdbool.h>

/// Whether the file system `fd` is on is FAT (msdos or vfat: MSDOS_SUPER_MAGIC), as on a USB stick
/// or a camera's SD card. False when it cannot be told.
bool cfs_is_fat(int fd);

/// syncfs(2): writes out everything the file system `fd` is on holds in memory. Returns 0, or -1
/// with errno set.
int cfs_syncfs(int fd);
