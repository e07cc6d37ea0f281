// Intentionally empty: a C target needs one source file; the API is libyaml's, from CYAML.h.
#include "CYAML.h"
