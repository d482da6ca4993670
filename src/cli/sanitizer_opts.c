// SPDX-License-Identifier: MIT
/*
 * sanitizer_opts.c - the sanitizer runtimes' defaults for this program
 * (ThreadSanitizer and AddressSanitizer builds only; nothing otherwise).
 *
 * libtracecmd asks malloc for absurd sizes while opening some trace.dat
 * headers and copes with NULL (a flight segment in about 140 made it ask
 * for 0xc7c4b30000000001 bytes); the sanitizers abort there
 * ("allocation-size-too-big") unless told malloc may fail, as it does in a
 * release build. The trace.dat probe helper is this binary run with an empty
 * environment, so no TSAN_OPTIONS or ASAN_OPTIONS reaches it: the default is
 * compiled in. The environment's options still override it.
 */
#if defined(__SANITIZE_THREAD__)
const char *__tsan_default_options(void);

const char *__tsan_default_options(void)
{
	return "allocator_may_return_null=1";
}
#elif defined(__SANITIZE_ADDRESS__)
const char *__asan_default_options(void);

const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}
#else
typedef int fts_no_sanitizer_opts;   /* ISO C wants a declaration in every file */
#endif
