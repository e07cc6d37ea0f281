// FreeType (glyph rendering) and fontconfig (finding fonts by name and by the characters they
// cover), from Debian's libfreetype-dev and libfontconfig-dev. Only ARCompositor's Text/ files
// use them; no C type reaches a public signature.
#ifndef ARCAPTURE_CFREETYPE_H
#define ARCAPTURE_CFREETYPE_H

#include <ft2build.h>
#include FT_FREETYPE_H
#include <fontconfig/fontconfig.h>

// Macros with casts or parentheses that Swift does not import, as constants it does.
static const long arcapture_ft_load_render = FT_LOAD_RENDER;
static const long arcapture_ft_load_target_light = FT_LOAD_TARGET_LIGHT;
static const unsigned int arcapture_ft_kerning_default = FT_KERNING_DEFAULT;

#endif
