/* SPDX-License-Identifier: MIT */
/*
 * env.h - the programs' environment, read here and nowhere in the library
 * (DESIGN: a Python host's environment is not the library's business): the
 * user settings become options, the FTSCOPE_TEST_* hooks become
 * fts__test_control calls. docs/record.md and docs/robustness.md list the
 * variables.
 */
#ifndef FTS_APP_ENV_H
#define FTS_APP_ENV_H

#include <stddef.h>

#include <ftscope/ftscope.h>

/**
 * fts_front_env_test_hooks - FTSCOPE_TEST_READER_DELAY_MS, _SETUP_DELAY_MS,
 * _LOAD_PACE_MS and _MEMINFO into the library's test control
 *
 * Called once at startup, before any library thread runs.
 */
void fts_front_env_test_hooks(void);

/**
 * fts_front_env_record - the recorder's settings from the environment
 * @o: the options; gets FTSCOPE_READERS (the reader pool) and PATH (where
 *     trace-cmd is looked for); the strings are the environment's own
 */
void fts_front_env_record(struct fts_record_opts *o);

/**
 * fts_front_env_store - the store cache's settings from the environment
 * @so: the options; FTSCOPE_NO_CACHE (not "0") turns the cache off, and
 *      the cache goes under $XDG_CACHE_HOME, else $HOME/.cache
 * @dir: room for that directory's name, which @so->cache_dir then points to
 * @len: its size
 */
void fts_front_env_store(struct fts_store_open_opts *so, char *dir, size_t len);

#endif
