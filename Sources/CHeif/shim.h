// libheif (Debian's libheif-dev): HEIF and HEIC images, the format of every iPhone's photos
// since 2017, read with their EXIF, XMP and colour profile. Only Footage's Photos/ files use it;
// no C type reaches a public signature.
#ifndef ARCAPTURE_CHEIF_H
#define ARCAPTURE_CHEIF_H

#include <libheif/heif.h>

#endif
