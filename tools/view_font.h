/* tools/view_font.h — the bitmap font of `sinew view`'s overlay.

   tools/font_gen.c holds the glyphs as text (5 × 7 cells of '#' and '.',
   one string per printable ASCII character) and, at build time, rasterises
   them into the atlas below (generated/view_font.c): one byte per pixel,
   255 where a glyph is inked, 0 elsewhere. Character c (32..126) sits in
   the cell at column (c − 32) % VIEW_FONT_COLUMNS and row
   (c − 32) / VIEW_FONT_COLUMNS, its 5 × 7 glyph at the cell's top left; the
   last cell (127) is a box drawn for every character the font lacks. Rows
   go top to bottom. */
#ifndef SINEW_TOOLS_VIEW_FONT_H
#define SINEW_TOOLS_VIEW_FONT_H

#define VIEW_FONT_FIRST 32   /* ' ' */
#define VIEW_FONT_COUNT 96   /* 32..127 (127: the missing-character box) */
#define VIEW_FONT_GLYPH_W 5
#define VIEW_FONT_GLYPH_H 7
#define VIEW_FONT_CELL_W 6   /* glyph and one column of spacing */
#define VIEW_FONT_CELL_H 9   /* glyph and two rows of spacing */
#define VIEW_FONT_COLUMNS 16
#define VIEW_FONT_ROWS (VIEW_FONT_COUNT / VIEW_FONT_COLUMNS)
#define VIEW_FONT_ATLAS_W (VIEW_FONT_COLUMNS * VIEW_FONT_CELL_W)
#define VIEW_FONT_ATLAS_H (VIEW_FONT_ROWS * VIEW_FONT_CELL_H)

extern const unsigned char view_font_atlas[VIEW_FONT_ATLAS_H][VIEW_FONT_ATLAS_W];

#endif
