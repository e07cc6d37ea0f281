// zlib: gzip-compressed track files (.gpx.gz, .nmea.gz) read by Positioning.
#include <zlib.h>
