// SPDX-License-Identifier: MIT
/*
 * grid.c - the cell grid and its one text writer (see grid.h).
 *
 * Untrusted text is cut into tokens: a printable code point with its column
 * width (wcwidth), or an escape spelled in ASCII. Width is decided here, once,
 * so a name can never shift the columns after it.
 */
#include "tui/widgets/grid.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "core/internal.h"

/* One unit of output: either @cp (width @w: 1 or 2) or the ASCII escape @esc. */
struct token {
	uint32_t cp;
	int w;
	char esc[16];
};

/* Cut the next token from @p; returns the bytes consumed (>= 1). */
static int next_token(const unsigned char *p, int utf8, struct token *t)
{
	uint32_t cp;
	int n;

	t->esc[0] = 0;
	t->cp = 0;
	t->w = 1;
	if (*p >= 0x20 && *p < 0x7f) {
		t->cp = *p;
		return 1;
	}
	if (*p < 0x20 || *p == 0x7f) {
		t->esc[0] = '^';
		t->esc[1] = *p == 0x7f ? '?' : (char)(*p + 0x40);
		t->esc[2] = 0;
		return 1;
	}
	if (!utf8 || (n = fts__utf8_decode(p, &cp)) == 0) {
		snprintf(t->esc, sizeof(t->esc), "\\x%02x", *p);
		return 1;
	}
	if (cp < 0xa0) {
		snprintf(t->esc, sizeof(t->esc), "\\x%02x", cp); /* C1 control, e.g. CSI */
		return n;
	}
	int w = wcwidth((wchar_t)cp);

	if (w == 1 || w == 2) {
		t->cp = cp;
		t->w = w;
	} else {
		/* zero-width (combining, ZWJ) or unprintable: visible, one column per char */
		snprintf(t->esc, sizeof(t->esc), "<U+%04X>", (unsigned)cp);
	}
	return n;
}

static int token_width(const struct token *t)
{
	return t->esc[0] ? (int)strlen(t->esc) : t->w;
}

int fts_grid_resize(struct fts_grid *g, int w, int h, int utf8)
{
	struct fts_cell *c;

	if (w < 1 || h < 1)
		return -EINVAL;
	c = calloc((size_t)w * (size_t)h, sizeof(*c));
	if (!c)
		return -ENOMEM;
	free(g->cells);
	g->cells = c;
	g->w = w;
	g->h = h;
	g->utf8 = utf8;
	fts_grid_clear(g, (struct fts_style){ -1, -1, 0 });
	return 0;
}

void fts_grid_free(struct fts_grid *g)
{
	free(g->cells);
	g->cells = NULL;
	g->w = g->h = 0;
}

void fts_grid_clear(struct fts_grid *g, struct fts_style st)
{
	size_t n = (size_t)g->w * (size_t)g->h;

	for (size_t i = 0; i < n; i++) {
		g->cells[i].ch = ' ';
		g->cells[i].st = st;
	}
}

struct fts_cell *fts_grid_at(struct fts_grid *g, int x, int y)
{
	if (x < 0 || y < 0 || x >= g->w || y >= g->h)
		return NULL;
	return &g->cells[(size_t)y * (size_t)g->w + (size_t)x];
}

/* Overwriting half of a wide character blanks its other half. */
static void unpair(struct fts_grid *g, int x, int y)
{
	struct fts_cell *c = fts_grid_at(g, x, y), *o;

	if (!c)
		return;
	if (c->ch == 0 && (o = fts_grid_at(g, x - 1, y)))
		o->ch = ' ';
	if ((o = fts_grid_at(g, x + 1, y)) && o->ch == 0)
		o->ch = ' ';
}

void fts_grid_put(struct fts_grid *g, int x, int y, uint32_t ch, struct fts_style st)
{
	struct fts_cell *c = fts_grid_at(g, x, y);

	if (!c)
		return;
	unpair(g, x, y);
	c->ch = ch;
	c->st = st;
}

void fts_grid_fill(struct fts_grid *g, int x, int y, int n, uint32_t ch, struct fts_style st)
{
	for (int i = 0; i < n; i++)
		fts_grid_put(g, x + i, y, ch, st);
}

void fts_grid_style(struct fts_grid *g, int x, int y, int n, uint16_t attr, int fg, int bg)
{
	for (int i = 0; i < n; i++) {
		struct fts_cell *c = fts_grid_at(g, x + i, y);

		if (!c)
			continue;
		c->st.attr |= attr;
		if (fg != -2)
			c->st.fg = (int16_t)fg;
		if (bg != -2)
			c->st.bg = (int16_t)bg;
	}
}

int fts_text_width(const char *s, int utf8)
{
	const unsigned char *p = (const unsigned char *)s;
	struct token t;
	int w = 0;

	while (*p) {
		p += next_token(p, utf8, &t);
		w += token_width(&t);
	}
	return w;
}

int fts_grid_text(struct fts_grid *g, int x, int y, int maxw, const char *s, struct fts_style st)
{
	const unsigned char *p = (const unsigned char *)s;
	struct token t;
	int col = 0, limit, total;

	if (y < 0 || y >= g->h || x >= g->w)
		return 0;
	if (maxw > g->w - x)
		maxw = g->w - x;
	if (maxw <= 0)
		return 0;
	total = fts_text_width(s, g->utf8);
	/* too long: keep one column for the cut mark */
	limit = total > maxw ? maxw - 1 : maxw;
	while (*p) {
		p += next_token(p, g->utf8, &t);
		if (col + token_width(&t) > limit)
			break;
		if (t.esc[0]) {
			for (const char *e = t.esc; *e; e++)
				fts_grid_put(g, x + col++, y, (unsigned char)*e, st);
		} else {
			fts_grid_put(g, x + col, y, t.cp, st);
			if (t.w == 2) {
				unpair(g, x + col + 1, y);
				fts_grid_at(g, x + col + 1, y)->ch = 0;
				fts_grid_at(g, x + col + 1, y)->st = st;
			}
			col += t.w;
		}
	}
	if (total > maxw) {
		/* pad a wide character cut short, then the mark */
		while (col < maxw - 1)
			fts_grid_put(g, x + col++, y, ' ', st);
		fts_grid_put(g, x + col++, y, g->utf8 ? 0x2026 : '~', st);
	}
	return col;
}

int fts_grid_printf(struct fts_grid *g, int x, int y, int maxw, struct fts_style st,
		    const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return fts_grid_text(g, x, y, maxw, buf, st);
}

static size_t put_utf8(char *o, uint32_t c)
{
	if (c < 0x80) {
		o[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		o[0] = (char)(0xc0 | (c >> 6));
		o[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xe0 | (c >> 12));
		o[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		o[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (c >> 18));
	o[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	o[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

size_t fts_grid_row_text(const struct fts_grid *g, int y, char *buf, size_t bufsz)
{
	size_t n = 0, keep = 0;

	if (!bufsz)
		return 0;
	for (int x = 0; x < g->w && y >= 0 && y < g->h; x++) {
		uint32_t c = g->cells[(size_t)y * (size_t)g->w + (size_t)x].ch;

		if (c == 0)
			continue;
		if (n + 5 > bufsz)
			break;
		n += put_utf8(buf + n, c);
		if (c != ' ')
			keep = n;
	}
	buf[keep] = 0;
	return keep;
}

static int same_style(struct fts_style a, struct fts_style b)
{
	return a.fg == b.fg && a.bg == b.bg && a.attr == b.attr;
}

static void sgr(FILE *f, struct fts_style s)
{
	fputs("\033[0", f);
	if (s.attr & FTS_A_BOLD)
		fputs(";1", f);
	if (s.attr & FTS_A_DIM)
		fputs(";2", f);
	if (s.attr & FTS_A_UNDERLINE)
		fputs(";4", f);
	if (s.attr & FTS_A_REVERSE)
		fputs(";7", f);
	if (s.fg >= 0)
		fprintf(f, s.fg < 8 ? ";%d" : ";38;5;%d", s.fg < 8 ? 30 + s.fg : s.fg);
	if (s.bg >= 0)
		fprintf(f, s.bg < 8 ? ";%d" : ";48;5;%d", s.bg < 8 ? 40 + s.bg : s.bg);
	fputc('m', f);
}

int fts_grid_write(const struct fts_grid *g, FILE *f, int color)
{
	char *line = malloc((size_t)g->w * 4 + 1);

	if (!line)
		return -ENOMEM;
	for (int y = 0; y < g->h; y++) {
		if (!color) {
			fts_grid_row_text(g, y, line, (size_t)g->w * 4 + 1);
			fputs(line, f);
		} else {
			struct fts_style cur = { -1, -1, 0 };

			for (int x = 0; x < g->w; x++) {
				const struct fts_cell *c = &g->cells[(size_t)y * (size_t)g->w + (size_t)x];
				char u[4];

				if (c->ch == 0)
					continue;
				if (!same_style(cur, c->st)) {
					sgr(f, c->st);
					cur = c->st;
				}
				fwrite(u, 1, put_utf8(u, c->ch), f);
			}
			fputs("\033[0m", f);
		}
		fputc('\n', f);
	}
	free(line);
	return ferror(f) ? -EIO : 0;
}

void fts_grid_copy(struct fts_grid *dst, const struct fts_grid *src)
{
	int w = dst->w < src->w ? dst->w : src->w;

	for (int y = 0; y < dst->h && y < src->h; y++)
		memcpy(&dst->cells[(size_t)y * (size_t)dst->w], &src->cells[(size_t)y * (size_t)src->w],
		       (size_t)w * sizeof(*dst->cells));
}
