// SPDX-License-Identifier: MIT
/* sigcleanup.c - remove partial outputs, then die by the signal (see sigcleanup.h). */
#include "app/sigcleanup.h"

#include <ftscope/cleanup.h>

#include <signal.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#define FTS_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define FTS_SANITIZED 1
#endif
#endif

static void on_signal(int sig)
{
	fts_remove_partial_outputs();
	/* SA_RESETHAND restored the default action; SA_NODEFER lets it act now */
	raise(sig);
}

void fts_front_cleanup_on_signals(void)
{
	static const int sigs[] = {
		SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGALRM, SIGUSR2,
		SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
#ifndef FTS_SANITIZED
		/* a crash still removes the half-written file (ASan reports crashes itself) */
		SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS, SIGTRAP,
#endif
	};

	fts_front_catch(sigs, sizeof(sigs) / sizeof(sigs[0]), on_signal, SA_RESETHAND | SA_NODEFER);
}

void fts_front_catch(const int *sigs, size_t n, void (*fn)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < n; i++) {
		struct sigaction old;

		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

/* Nothing: SIGUSR1 only asks a flight recorder for a snapshot, which installs its own handler. */
static void on_usr1(int sig)
{
	(void)sig;
}

void fts_front_harmless_usr1(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
}
