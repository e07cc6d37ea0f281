// Intentionally empty: a C target needs one source file, and everything this
// module exports is declared in include/CTurboJPEG.h or comes from libturbojpeg.
#include "CTurboJPEG.h"
