// SPDX-License-Identifier: MIT
/*
 * term.c - ncursesw under the screens: blit cells, read keys, mouse and
 * signals as one event stream, and always give the terminal back.
 *
 * The saved termios, the restore sequence and the signal pipe live in this
 * file's statics: they are the TUI's screen, and signal handlers need them
 * without any locking or allocation. Loop signals (SIGWINCH, SIGTSTP,
 * SIGCONT, SIGTERM, SIGHUP, SIGINT, SIGQUIT) only write their number into
 * the pipe, which fts_term_read polls beside the terminal (the self-pipe of
 * tmux's proc.c): no window between a flag test and a blocking read. Crash
 * signals restore with write(2)/tcsetattr(3), which are async-signal-safe,
 * and re-raise at once.
 *
 * The handlers are installed before newterm(), so ncurses installs none of
 * its own (it only takes over signals left at SIG_DFL): Ctrl+Z and fg go
 * through fts_term_suspend and the SIGCONT event, which sends again the
 * modes ftscope sets itself (button-event mouse tracking) that curses does
 * not restore on resume.
 */
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include "app/tty.h"
#include "tui/widgets/keys.h"
#include "tui/term/term.h"
#ifdef FTS_BUILTIN_TERMINFO
#include "tui/term/ti_fallback.h"
#endif

static struct termios saved_tio;
static int saved_tio_ok;
static volatile sig_atomic_t open_flag;
static volatile sig_atomic_t pending_sig;
static int sig_pipe[2] = { -1, -1 };
static SCREEN *screen;

/* colour pairs handed out on demand: (fg, bg) -> pair number */
#define MAX_PAIRS 255
static struct {
	int16_t fg, bg;
} pairs[MAX_PAIRS + 1];
static int npairs;
static int have_colors;

/* Leave the alternate screen, show the cursor, stop mouse reports, reset attributes. */
static const char restore_seq[] = "\033[?1002l\033[?1000l\033[?1006l\033[0m\033[?25h\033[?1049l\r\n";
/* The modes ftscope sets itself, beyond curses: button-event mouse tracking (drag-to-pan). */
static const char modes_on[] = "\033[?1002h";
static const char modes_off[] = "\033[?1002l";

static const int crash_sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
static const int loop_sigs[] = { SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT };
#define NLOOP (sizeof(loop_sigs) / sizeof(loop_sigs[0]))

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

/* A loop signal: its number into the pipe (a full pipe drops it: one is pending anyway). */
static void loop_handler(int sig)
{
	int saved = errno;
	unsigned char b = (unsigned char)sig;
	ssize_t r = write(sig_pipe[1], &b, 1);

	(void)r;
	errno = saved;
}

static void install_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = crash_handler;
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < sizeof(crash_sigs) / sizeof(crash_sigs[0]); i++)
		sigaction(crash_sigs[i], &sa, NULL);
	sa.sa_handler = loop_handler;
	sa.sa_flags = SA_RESTART; /* the pipe wakes poll(); nothing needs EINTR */
	for (size_t i = 0; i < NLOOP; i++)
		sigaction(loop_sigs[i], &sa, NULL);
}

static void default_handlers(void)
{
	for (size_t i = 0; i < NLOOP; i++)
		signal(loop_sigs[i], SIG_DFL);
}

static void close_pipe(void)
{
	for (int i = 0; i < 2; i++) {
		if (sig_pipe[i] >= 0)
			close(sig_pipe[i]);
		sig_pipe[i] = -1;
	}
}

static void set_modes(void)
{
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	mousemask(BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED | BUTTON5_PRESSED |
		  REPORT_MOUSE_POSITION, NULL);
	mouseinterval(0);
}

int fts_term_open(int *colors, char *why, size_t whylen)
{
	const char *term = getenv("TERM");

	if (!fts_tty_interactive()) {
		snprintf(why, whylen, "not an interactive terminal (or TERM=dumb)");
		return -ENOTTY;
	}
	if (tcgetattr(STDIN_FILENO, &saved_tio) == 0)
		saved_tio_ok = 1;
	if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK)) {
		snprintf(why, whylen, "cannot make a pipe: %s", strerror(errno));
		return -errno;
	}
	install_handlers();
	screen = newterm(NULL, stdout, stdin);
#ifdef FTS_BUILTIN_TERMINFO
	/* the static binary on a host without this entry: a built-in one (ti_fallback.c) */
	if (!screen) {
		const char *tmp = getenv("TMPDIR");

		screen = fts_ti_fallback_newterm(term, tmp && *tmp == '/' ? tmp : "/tmp", stdout, stdin, NULL);
	}
#endif
	if (!screen) {
		default_handlers();
		close_pipe();
		snprintf(why, whylen, "unknown terminal type TERM=%.200s (no terminfo entry)", term);
		return -ENOENT;
	}
	open_flag = 1;
	set_modes();
	have_colors = 0;
	if (has_colors() && start_color() == OK) {
		use_default_colors();
		have_colors = COLORS >= 256 ? 256 : COLORS >= 8 ? 8 : 0;
	}
	*colors = have_colors;
	fputs(modes_on, stdout);
	fflush(stdout);
	return 0;
}

void fts_term_close(void)
{
	if (!open_flag)
		return;
	fputs(modes_off, stdout);
	fflush(stdout);
	mousemask(0, NULL);
	curs_set(1);
	endwin();
	delscreen(screen);
	screen = NULL;
	open_flag = 0;
	default_handlers();
	close_pipe();
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

static int read_mouse(struct fts_term_mouse *m)
{
	MEVENT me;

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

/* A key curses already has (typeahead, or what poll saw), without waiting. */
static int read_key(struct fts_term_mouse *m)
{
	int ch;

	timeout(0);
	ch = getch();
	if (ch == ERR)
		return FTS_TERM_NONE;
	if (ch == KEY_RESIZE)
		return FTS_TERM_RESIZE;
	if (ch == KEY_MOUSE)
		return read_mouse(m);
	return map_key(ch);
}

/* After SIGCONT: curses' own modes, then ours, then a full repaint by the caller. */
static void resume(void)
{
	reset_prog_mode();
	set_modes();
	clearok(curscr, TRUE);
	refresh();
	fputs(modes_on, stdout);
	fflush(stdout);
}

/* What signal @sig means to the loop. */
static int signal_event(int sig)
{
	struct winsize ws;

	switch (sig) {
	case SIGWINCH:
		if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col)
			resizeterm(ws.ws_row, ws.ws_col);
		return FTS_TERM_RESIZE;
	case SIGTSTP:
		return FTS_TERM_SUSPEND;
	case SIGCONT:
		resume();
		return FTS_TERM_RESUME;
	default:
		pending_sig = sig;
		return FTS_TERM_SIGNAL;
	}
}

int fts_term_read(int timeout_ms, struct fts_term_mouse *m)
{
	struct pollfd pf[2] = { { .fd = sig_pipe[0], .events = POLLIN },
				{ .fd = STDIN_FILENO, .events = POLLIN } };
	unsigned char b;
	int k;

	for (;;) {
		if (read(sig_pipe[0], &b, 1) == 1)
			return signal_event(b);
		k = read_key(m);
		if (k != FTS_TERM_NONE)
			return k;
		if (poll(pf, 2, timeout_ms) <= 0)
			return FTS_TERM_NONE;
		if (!(pf[0].revents & POLLIN) && !(pf[1].revents & POLLIN)) {
			/* a hung-up terminal polls ready for ever: wait on the signals alone (SIGHUP follows) */
			poll(pf, 1, timeout_ms);
			pf[1].fd = -1;
		}
		/* something arrived: read it without waiting again */
		timeout_ms = 0;
	}
}

void fts_term_suspend(void)
{
	struct sigaction sa, old;

	fputs(modes_off, stdout);
	fflush(stdout);
	endwin();
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGTSTP, &sa, &old);
	kill(getpid(), SIGTSTP); /* stops here until fg */
	sigaction(SIGTSTP, &old, NULL);
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
