/* SPDX-License-Identifier: MIT */
/*
 * locale.h - what the environment asks of the screens: UTF-8 or ASCII
 * glyphs, colour or none (NO_COLOR).
 */
#ifndef FTS_TUI_LOCALE_H
#define FTS_TUI_LOCALE_H

/**
 * fts_locale_utf8 - set the locale from the environment and say whether it is UTF-8
 *
 * Returns 1 for UTF-8, else 0 (ASCII glyphs and borders).
 */
int fts_locale_utf8(void);

/**
 * fts_no_color - whether NO_COLOR asks for monochrome (set and not empty)
 *
 * Returns 1 or 0.
 */
int fts_no_color(void);

#endif
