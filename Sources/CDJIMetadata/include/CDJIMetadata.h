// DJI's djmd metadata track: the C code protoc-c wrote from the schemas in ../proto/ (see
// scripts/generate-dji-metadata), decoding on libprotobuf-c. One product schema per camera
// family whose frames carry GPS: the Osmo Action 4/5 (ac203's, which ac204 repeats), the
// Avata 2 (wa530) and the Osmo 360 (oq101); they share dvtm_library's messages. XTRA's Edge and
// Edge Pro (their xtmd track) are read through arcapture_xtra_frame_gps, their GPS path alone.
#ifndef CDJIMETADATA_H
#define CDJIMETADATA_H

#include "dvtm_library.pb-c.h"
#include "dvtm_ac203.pb-c.h"
#include "dvtm_eagle4_wa530.pb-c.h"
#include "dvtm_oq101.pb-c.h"
#include "arcapture_clip_header.pb-c.h"
#include "arcapture_xtra_frame_gps.pb-c.h"

#endif
