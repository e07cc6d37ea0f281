// Test-only C helpers: calls Swift cannot make directly (their declarations need _XOPEN_SOURCE,
// or they are variadic).
#ifndef CTESTSUPPORT_H
#define CTESTSUPPORT_H

#include <stddef.h>

/// Opens a new pseudo-terminal: returns the master descriptor and writes the slave's path into
/// `path` (at most `length` bytes), or returns -1 with errno set.
int arcapture_test_open_pty(char *path, size_t length);

#endif
