/* SPDX-License-Identifier: MIT */
/*
 * grid.h - the in-memory screen every TUI view draws into.
 *
 * A grid is W x H cells; each cell holds one Unicode code point that takes one
 * column, or the first half of a two-column one (the next cell is then a
 * continuation with ch == 0). Colours are theme colour numbers (-1: the
 * terminal's default). The terminal layer blits a grid with ncursesw;
 * `--print` writes it as text (optionally with ANSI colours).
 *
 * Every string enters the grid through fts_grid_text, the one writer, which
 * escapes what a terminal would interpret (C0 as ^X, DEL as ^?, C1 and bytes
 * that are not UTF-8 as \xNN, zero-width and unprintable code points as <U+XXXX>)
 * and never lets a wide or zero-width character misalign a column.
 */
#ifndef FTS_TUI_GRID_H
#define FTS_TUI_GRID_H

#include <stdint.h>
#include <stdio.h>

#define FTS_A_BOLD      0x01u
#define FTS_A_REVERSE   0x02u
#define FTS_A_UNDERLINE 0x04u
#define FTS_A_DIM       0x08u

struct fts_style {
	int16_t fg, bg;   /* colour numbers 0..255, -1 default */
	uint16_t attr;    /* FTS_A_* */
};

struct fts_cell {
	uint32_t ch;      /* code point; 0: right half of the wide character before */
	struct fts_style st;
};

struct fts_grid {
	int w, h;
	int utf8;         /* 0: only ASCII reaches the grid (LANG=C) */
	struct fts_cell *cells;
};

/**
 * fts_grid_resize - (re)allocate @g as @w x @h blank cells
 * @g: the grid (zeroed before the first call)
 * @w: columns, >= 1
 * @h: rows, >= 1
 * @utf8: non-zero when the terminal shows UTF-8
 *
 * Returns 0 or -ENOMEM (the grid is then unchanged).
 */
int fts_grid_resize(struct fts_grid *g, int w, int h, int utf8);

/**
 * fts_grid_copy - copy @src's cells into @dst where both have them
 * @dst: the target (its size is kept)
 * @src: the source
 */
void fts_grid_copy(struct fts_grid *dst, const struct fts_grid *src);

/**
 * fts_grid_free - release the cells of @g
 * @g: the grid
 */
void fts_grid_free(struct fts_grid *g);

/**
 * fts_grid_clear - blank every cell with style @st
 * @g: the grid
 * @st: the style
 */
void fts_grid_clear(struct fts_grid *g, struct fts_style st);

/**
 * fts_grid_at - the cell at (@x, @y), or NULL when outside
 * @g: the grid
 * @x: column
 * @y: row
 *
 * Returns a pointer into @g.
 */
struct fts_cell *fts_grid_at(struct fts_grid *g, int x, int y);

/**
 * fts_grid_put - set one single-column code point @ch at (@x, @y)
 * @g: the grid
 * @x: column (ignored outside)
 * @y: row
 * @ch: a code point the caller knows takes one column (a glyph from the theme)
 * @st: its style
 */
void fts_grid_put(struct fts_grid *g, int x, int y, uint32_t ch, struct fts_style st);

/**
 * fts_grid_fill - set @n cells from (@x, @y) to @ch with style @st
 * @g: the grid
 * @x: first column
 * @y: row
 * @n: cells (clipped to the row)
 * @ch: one-column code point
 * @st: style
 */
void fts_grid_fill(struct fts_grid *g, int x, int y, int n, uint32_t ch, struct fts_style st);

/**
 * fts_grid_style - restyle @n cells from (@x, @y), keeping their characters
 * @g: the grid
 * @x: first column
 * @y: row
 * @n: cells
 * @attr: attributes OR-ed in
 * @fg: new foreground, or -2 to keep
 * @bg: new background, or -2 to keep
 */
void fts_grid_style(struct fts_grid *g, int x, int y, int n, uint16_t attr, int fg, int bg);

/**
 * fts_grid_text - write untrusted bytes @s at (@x, @y), escaped, in at most @maxw columns
 * @g: the grid
 * @x: first column
 * @y: row
 * @maxw: columns available (further clipped by the row end); when the text
 *        is longer its last shown column becomes '~' (or '…')
 * @s: bytes, NUL-terminated, any content
 * @st: style
 *
 * Returns the columns written.
 */
int fts_grid_text(struct fts_grid *g, int x, int y, int maxw, const char *s, struct fts_style st);

/**
 * fts_grid_printf - format then write through fts_grid_text
 * @g: the grid
 * @x: first column
 * @y: row
 * @maxw: columns available
 * @st: style
 * @fmt: printf format
 *
 * Returns the columns written.
 */
int fts_grid_printf(struct fts_grid *g, int x, int y, int maxw, struct fts_style st,
		    const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/**
 * fts_text_width - the columns fts_grid_text would take for all of @s
 * @s: bytes
 * @utf8: as the grid's flag
 *
 * Returns the width.
 */
int fts_text_width(const char *s, int utf8);

/**
 * fts_grid_row_text - row @y as UTF-8 text without trailing blanks
 * @g: the grid
 * @y: row
 * @buf: output
 * @bufsz: its size (>= 4 * w + 1 holds any row)
 *
 * Returns the bytes written (excluding the NUL).
 */
size_t fts_grid_row_text(const struct fts_grid *g, int y, char *buf, size_t bufsz);

/**
 * fts_grid_write - print the whole grid to @f, one line per row
 * @g: the grid
 * @f: output stream
 * @color: non-zero: ANSI SGR sequences for styles (reset at each line end)
 *
 * Returns 0 or -EIO.
 */
int fts_grid_write(const struct fts_grid *g, FILE *f, int color);

#endif
