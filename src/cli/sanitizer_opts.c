// SPDX-License-Identifier: MIT
/*
 * sanitizer_opts.c - the ThreadSanitizer runtime's defaults for this program
 * (TSan builds only; nothing otherwise).
 *
 * libtracecmd asks malloc for absurd sizes while opening some trace.dat
 * headers and copes with NULL; TSan aborts there ("allocation-size-too-big")
 * unless told malloc may fail. The trace.dat probe helper is this binary run
 * with an empty environment, so no TSAN_OPTIONS reaches it: the default is
 * compiled in. TSAN_OPTIONS still overrides it.
 */
#if defined(__SANITIZE_THREAD__)
const char *__tsan_default_options(void);

const char *__tsan_default_options(void)
{
	return "allocator_may_return_null=1";
}
#else
typedef int fts_no_sanitizer_opts;   /* ISO C wants a declaration in every file */
#endif
