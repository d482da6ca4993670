// SPDX-License-Identifier: MIT
/*
 * term.c - ncursesw under the view: blit cells, read keys and mouse, and
 * always give the terminal back.
 *
 * The saved termios and the restore sequence live in this file's statics:
 * they are the TUI's screen, and crash handlers need them without any
 * locking or allocation. SIGTERM, SIGHUP and SIGINT only set a flag that
 * the loop sees within one read timeout (restore, then re-raise); crash
 * signals restore with write(2)/tcsetattr(3), which are async-signal-safe,
 * and re-raise at once.
 */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include "tui/kit/keys.h"
#include "tui/term/term.h"

static struct termios saved_tio;
static int saved_tio_ok;
static volatile sig_atomic_t open_flag;
static volatile sig_atomic_t pending_sig;

/* colour pairs handed out on demand: (fg, bg) -> pair number */
#define MAX_PAIRS 255
static struct {
	int16_t fg, bg;
} pairs[MAX_PAIRS + 1];
static int npairs;
static int have_colors;

/* Leave the alternate screen, show the cursor, stop mouse reports, reset attributes. */
static const char restore_seq[] = "\033[?1002l\033[?1000l\033[?1006l\033[0m\033[?25h\033[?1049l\r\n";

static void crash_handler(int sig)
{
	if (open_flag) {
		ssize_t r = write(STDOUT_FILENO, restore_seq, sizeof(restore_seq) - 1);

		(void)r;
		if (saved_tio_ok)
			tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tio);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void quit_handler(int sig)
{
	pending_sig = sig;
}

int fts_term_usable(void)
{
	const char *term = getenv("TERM");

	return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) && term && *term &&
	       strcmp(term, "dumb") != 0;
}

static void install_handlers(void)
{
	static const int crash[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
	static const int quit[] = { SIGTERM, SIGHUP, SIGINT, SIGQUIT };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = crash_handler;
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < sizeof(crash) / sizeof(crash[0]); i++)
		sigaction(crash[i], &sa, NULL);
	sa.sa_handler = quit_handler;
	sa.sa_flags = 0; /* no SA_RESTART: a blocking read returns and the loop sees the flag */
	for (size_t i = 0; i < sizeof(quit) / sizeof(quit[0]); i++)
		sigaction(quit[i], &sa, NULL);
}

int fts_term_open(int *colors)
{
	if (!fts_term_usable())
		return -ENOTTY;
	if (tcgetattr(STDIN_FILENO, &saved_tio) == 0)
		saved_tio_ok = 1;
	install_handlers();
	if (!initscr())
		return -ENOTTY;
	open_flag = 1;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	have_colors = 0;
	if (has_colors() && start_color() == OK) {
		use_default_colors();
		have_colors = COLORS >= 256 ? 256 : COLORS >= 8 ? 8 : 0;
	}
	*colors = have_colors;
	mousemask(BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED | BUTTON5_PRESSED |
		  REPORT_MOUSE_POSITION, NULL);
	mouseinterval(0);
	/* button-event tracking: motion while a button is held, for drag-to-pan */
	fputs("\033[?1002h", stdout);
	fflush(stdout);
	return 0;
}

void fts_term_close(void)
{
	if (!open_flag)
		return;
	fputs("\033[?1002l", stdout);
	fflush(stdout);
	mousemask(0, NULL);
	curs_set(1);
	endwin();
	open_flag = 0;
}

void fts_term_size(int *w, int *h)
{
	*w = COLS;
	*h = LINES;
}

static int pair_of(int16_t fg, int16_t bg)
{
	if (!have_colors || (fg < 0 && bg < 0))
		return 0;
	for (int i = 1; i <= npairs; i++) {
		if (pairs[i].fg == fg && pairs[i].bg == bg)
			return i;
	}
	if (npairs >= MAX_PAIRS || npairs + 1 >= COLOR_PAIRS)
		return 0;
	npairs++;
	pairs[npairs].fg = fg;
	pairs[npairs].bg = bg;
	init_pair((short)npairs, fg, bg);
	return npairs;
}

static attr_t attrs_of(uint16_t a)
{
	attr_t r = A_NORMAL;

	if (a & FTS_A_BOLD)
		r |= A_BOLD;
	if (a & FTS_A_REVERSE)
		r |= A_REVERSE;
	if (a & FTS_A_UNDERLINE)
		r |= A_UNDERLINE;
	if (a & FTS_A_DIM)
		r |= A_DIM;
	return r;
}

void fts_term_blit(const struct fts_grid *g, int clear)
{
	if (clear)
		clearok(curscr, TRUE);
	for (int y = 0; y < g->h && y < LINES; y++) {
		for (int x = 0; x < g->w && x < COLS; x++) {
			const struct fts_cell *c = &g->cells[(size_t)y * (size_t)g->w + (size_t)x];
			wchar_t wc[2] = { (wchar_t)c->ch, 0 };
			cchar_t cc;

			if (c->ch == 0)
				continue; /* right half of a wide character */
			/* the grid holds only printable code points; ASCII when not UTF-8 */
			setcchar(&cc, wc, attrs_of(c->st.attr), (short)pair_of(c->st.fg, c->st.bg), NULL);
			mvadd_wch(y, x, &cc);
		}
	}
	wnoutrefresh(stdscr);
	doupdate();
}

static int map_key(int ch)
{
	switch (ch) {
	case KEY_UP: return FTS_KEY_UP;
	case KEY_DOWN: return FTS_KEY_DOWN;
	case KEY_LEFT: return FTS_KEY_LEFT;
	case KEY_RIGHT: return FTS_KEY_RIGHT;
	case KEY_SLEFT: return FTS_KEY_SLEFT;
	case KEY_SRIGHT: return FTS_KEY_SRIGHT;
	case KEY_PPAGE: return FTS_KEY_PGUP;
	case KEY_NPAGE: return FTS_KEY_PGDN;
	case KEY_HOME: return FTS_KEY_HOME;
	case KEY_END: return FTS_KEY_END;
	case KEY_BTAB: return FTS_KEY_BTAB;
	case KEY_BACKSPACE: return FTS_KEY_BACKSPACE;
	case KEY_ENTER: case '\r': return FTS_KEY_ENTER;
	default: break;
	}
	if (ch >= 0 && ch < 0x80)
		return ch;
	return FTS_TERM_NONE;
}

int fts_term_read(int timeout_ms, struct fts_term_mouse *m)
{
	MEVENT me;
	int ch;

	if (pending_sig)
		return FTS_TERM_SIGNAL;
	timeout(timeout_ms);
	ch = getch();
	if (pending_sig)
		return FTS_TERM_SIGNAL;
	if (ch == ERR)
		return FTS_TERM_NONE;
	if (ch == KEY_RESIZE)
		return FTS_TERM_RESIZE;
	if (ch != KEY_MOUSE)
		return map_key(ch);
	if (getmouse(&me) != OK)
		return FTS_TERM_NONE;
	m->x = me.x;
	m->y = me.y;
	if (me.bstate & BUTTON4_PRESSED)
		m->ev = FTS_MOUSE_WHEEL_UP;
	else if (me.bstate & BUTTON5_PRESSED)
		m->ev = FTS_MOUSE_WHEEL_DOWN;
	else if (me.bstate & BUTTON1_PRESSED)
		m->ev = FTS_MOUSE_CLICK;
	else if (me.bstate & BUTTON1_RELEASED)
		m->ev = FTS_MOUSE_RELEASE;
	else if (me.bstate & REPORT_MOUSE_POSITION)
		m->ev = FTS_MOUSE_DRAG;
	else
		return FTS_TERM_NONE;
	return FTS_TERM_MOUSE;
}

int fts_term_pending_signal(void)
{
	return pending_sig;
}

void fts_term_reraise(int sig)
{
	fts_term_close();
	signal(sig, SIG_DFL);
	raise(sig);
	_exit(128 + sig);
}
