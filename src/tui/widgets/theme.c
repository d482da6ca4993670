// SPDX-License-Identifier: MIT
/*
 * theme.c - the one table of colours and glyphs (see theme.h).
 *
 * Colours are xterm numbers: 0-7 are the eight every colour terminal has,
 * 8-255 only exist on 256-colour terminals, so each role names both.
 */
#include "tui/widgets/theme.h"

#include <stddef.h>

struct role_def {
	int16_t fg256, bg256, fg8, bg8;
	uint16_t attr;       /* with colours */
	uint16_t mono_attr;  /* without */
};

/* black 0, red 1, green 2, yellow 3, blue 4, magenta 5, cyan 6, white 7 */
static const struct role_def roles[FTS_R__COUNT] = {
	[FTS_R_NORMAL]    = { -1, -1, -1, -1, 0, 0 },
	[FTS_R_TITLE]     = { 255, 24, 7, 4, FTS_A_BOLD, FTS_A_REVERSE },
	[FTS_R_STATUS]    = { 255, 238, 0, 6, 0, FTS_A_REVERSE },
	[FTS_R_AXIS]      = { 250, -1, 7, -1, 0, 0 },
	[FTS_R_HEADER]    = { 117, -1, 6, -1, FTS_A_BOLD, FTS_A_BOLD },
	[FTS_R_LABEL]     = { 252, -1, 7, -1, 0, 0 },
	[FTS_R_LABEL_SEL] = { 0, 117, 0, 6, 0, FTS_A_REVERSE },
	[FTS_R_MATCH]     = { 0, 220, 0, 3, FTS_A_BOLD, FTS_A_BOLD | FTS_A_UNDERLINE },
	[FTS_R_IDLE]      = { -1, -1, -1, -1, 0, 0 },
	[FTS_R_IRQ]       = { 208, -1, 3, -1, FTS_A_BOLD, FTS_A_BOLD },
	[FTS_R_LOST]      = { 231, 160, 7, 1, FTS_A_BOLD, FTS_A_BOLD | FTS_A_REVERSE },
	[FTS_R_RUNNING]   = { 40, -1, 2, -1, 0, 0 },
	[FTS_R_RUNNABLE]  = { 214, -1, 3, -1, FTS_A_BOLD, FTS_A_BOLD },
	[FTS_R_SLEEPING]  = { 242, -1, 4, -1, 0, FTS_A_DIM },
	[FTS_R_BLOCKED]   = { 201, -1, 5, -1, FTS_A_BOLD, FTS_A_BOLD },
	[FTS_R_OVERVIEW]  = { 75, 235, 6, -1, 0, 0 },
	[FTS_R_VIEWPORT]  = { 231, 25, 7, 4, FTS_A_BOLD, FTS_A_REVERSE },
	[FTS_R_WINDOW]    = { 120, -1, 2, -1, 0, 0 },
	[FTS_R_CURSOR]    = { 0, 231, 0, 7, FTS_A_BOLD, FTS_A_REVERSE },
	[FTS_R_MARKER]    = { 0, 213, 0, 5, FTS_A_BOLD, FTS_A_REVERSE | FTS_A_UNDERLINE },
	[FTS_R_DETAILS]   = { 253, 236, 7, -1, 0, 0 },
	[FTS_R_DIM]       = { 245, -1, 7, -1, 0, FTS_A_DIM },
	[FTS_R_ERROR]     = { 231, 160, 7, 1, FTS_A_BOLD, FTS_A_BOLD | FTS_A_REVERSE },
	/* grey on purple: unlike any state, task colour or the red of lost */
	[FTS_R_NODATA]    = { 252, 54, 7, 5, 0, FTS_A_DIM | FTS_A_UNDERLINE },
};

struct glyph_def {
	uint32_t utf8, ascii;
};

static const struct glyph_def glyphs[FTS_G__COUNT] = {
	[FTS_G_RUNNING]  = { 0x2588, '#' },  /* █ */
	[FTS_G_RUNNING_WAIT] = { 0x2593, '%' }, /* ▓ */
	[FTS_G_RUNNABLE] = { 0x2592, '=' },  /* ▒ */
	[FTS_G_SLEEPING] = { 0x00b7, '.' },  /* · */
	[FTS_G_SLEEPING_WAIT] = { 0x2591, ':' }, /* ░ */
	[FTS_G_BLOCKED]  = { 'D', 'D' },
	[FTS_G_IRQ]      = { '^', '^' },
	[FTS_G_LOST]     = { '!', '!' },
	[FTS_G_BRIEF]    = { 0x2595, '\'' }, /* ▕ */
	[FTS_G_HLINE]    = { 0x2500, '-' },  /* ─ */
	[FTS_G_VLINE]    = { 0x2502, '|' },  /* │ */
	[FTS_G_CURSOR]   = { 0x25bc, 'v' },  /* ▼ */
	[FTS_G_MARKER]   = { 'M', 'M' },
	[FTS_G_TICK]     = { 0x2575, '|' },  /* ╵ */
	[FTS_G_WINDOW]   = { 0x2550, '=' },  /* ═ */
	/* "unknown": no state glyph, task letter (they fall back to '*') or mark uses '?' */
	[FTS_G_NODATA]   = { '?', '?' },
};

/* Task colours: distinct, readable with black text (256) / the 8 basic ones. */
static const int16_t task256[] = { 75, 114, 179, 175, 80, 216, 147, 186, 110, 209, 151, 183 };
static const int16_t task8[] = { 6, 2, 3, 5, 4, 7 };

void fts_theme_init(struct fts_theme *t, int utf8, int colors, int no_color)
{
	t->utf8 = utf8 != 0;
	if (no_color || colors < 8)
		t->colors = 0;
	else
		t->colors = colors >= 256 ? 256 : 8;
}

struct fts_style fts_theme_style(const struct fts_theme *t, enum fts_role role)
{
	const struct role_def *r = &roles[role];
	struct fts_style s = { -1, -1, r->mono_attr };

	if (t->colors == 256)
		s = (struct fts_style){ r->fg256, r->bg256, r->attr };
	else if (t->colors == 8)
		s = (struct fts_style){ r->fg8, r->bg8, r->attr };
	return s;
}

uint32_t fts_theme_glyph(const struct fts_theme *t, enum fts_glyph g)
{
	return t->utf8 ? glyphs[g].utf8 : glyphs[g].ascii;
}

struct fts_style fts_theme_task(const struct fts_theme *t, uint32_t key)
{
	/* spread neighbouring ids (comm:pid interned in order) over the palette */
	uint32_t h = key * 2654435761u;

	if (t->colors == 256)
		return (struct fts_style){ 16, task256[(h >> 16) % (sizeof(task256) / sizeof(task256[0]))], 0 };
	if (t->colors == 8)
		return (struct fts_style){ 0, task8[(h >> 16) % (sizeof(task8) / sizeof(task8[0]))], 0 };
	return (struct fts_style){ -1, -1, 0 };
}

uint32_t fts_theme_level(const struct fts_theme *t, double frac)
{
	static const uint32_t blocks[] = { 0x2581, 0x2582, 0x2583, 0x2584, 0x2585, 0x2586, 0x2587, 0x2588 };
	static const char ascii[] = ".:-=+*#";
	int n;

	if (frac <= 0)
		return ' ';
	if (frac > 1)
		frac = 1;
	if (t->utf8) {
		n = (int)(frac * 8);
		return blocks[n > 7 ? 7 : n];
	}
	n = (int)(frac * 7);
	return (unsigned char)ascii[n > 6 ? 6 : n];
}
