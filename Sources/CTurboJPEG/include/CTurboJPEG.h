// CTurboJPEG: libjpeg-turbo's TurboJPEG API for Swift.
//
// TurboJPEG reports errors as return values (no exit(), no setjmp), which is
// why CaptureKit uses it rather than the libjpeg API: libjpeg's default error
// handler calls exit(), and Swift cannot use setjmp/longjmp.
#pragma once

#include <turbojpeg.h>
