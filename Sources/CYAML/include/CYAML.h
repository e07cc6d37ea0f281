// CYAML: libyaml (Debian's libyaml-dev) for Swift, used to read camera calibration files.
// Everything here is libyaml's own API; the target exists to link the library and give Swift a
// module to import.
#pragma once

#include <yaml.h>
