// The text stack, from Debian's -dev packages: FreeType (glyph outlines and bitmaps,
// libfreetype-dev), fontconfig (fonts found by name and by the characters they cover,
// libfontconfig-dev), HarfBuzz (shaping: which glyphs, where; libharfbuzz-dev) and FriBidi (the
// Unicode bidirectional algorithm: the order of right-to-left text; libfribidi-dev). One module,
// because HarfBuzz's FreeType bridge (hb-ft.h) takes FreeType's own types. Only ARCompositor's
// Text/ files use it; no C type reaches a public signature.
#ifndef ARCAPTURE_CTEXT_H
#define ARCAPTURE_CTEXT_H

#include <ft2build.h>
#include FT_FREETYPE_H
#include <fontconfig/fontconfig.h>
#include <hb.h>
#include <hb-ft.h>
#include <fribidi/fribidi.h>

// Macros with casts or parentheses that Swift does not import, as constants it does.
static const long arcapture_ft_load_render = FT_LOAD_RENDER;
static const long arcapture_ft_load_target_light = FT_LOAD_TARGET_LIGHT;
static const long arcapture_ft_load_color = FT_LOAD_COLOR;
static const FriBidiParType arcapture_fribidi_par_on = FRIBIDI_PAR_ON;

#endif
