#define _GNU_SOURCE  // posix_openpt, grantpt, unlockpt, ptsname_r
#include "CTestSupport.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int arcapture_test_open_pty(char *path, size_t length) {
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0) return -1;
    if (grantpt(master) != 0 || unlockpt(master) != 0 || ptsname_r(master, path, length) != 0) {
        close(master);
        return -1;
    }
    return master;
}
