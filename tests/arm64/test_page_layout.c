// SPDX-License-Identifier: MIT
/*
 * test_page_layout.c - ring-buffer pages are read the way the kernel's
 * events/header_page describes them, not by this build's sizeof(long) or
 * page size (issue 19: an arm64 build, a 32-bit kernel, a 64K-page kernel).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/trace/dat_pages.h"

/* x86_64 and arm64 with 4K pages (this machine's, verbatim) */
static const char hp_64[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
/* a 32-bit kernel (armhf, i386): local_t is 4 bytes, records start at 12 */
static const char hp_32[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:12;\tsize:4084;\tsigned:0;\n";
/* arm64 with 64K pages (CONFIG_ARM64_64K_PAGES, as some Kunpeng distributions ship) */
static const char hp_64k[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:65520;\tsigned:0;";   /* no last newline */

static int parse(const char *text, struct dat_header_page *hp)
{
	memset(hp, 0, sizeof(*hp));
	return fts_dat_header_page_parse(text, strlen(text), hp);
}

static void test_header_page_64(void **state)
{
	struct dat_header_page hp;

	(void)state;
	assert_int_equal(parse(hp_64, &hp), 0);
	assert_int_equal(hp.commit_size, 8);
	assert_int_equal(hp.data_offset, 16);
	assert_int_equal(hp.subbuf_size, 4096);
}

static void test_header_page_32(void **state)
{
	struct dat_header_page hp;

	(void)state;
	assert_int_equal(parse(hp_32, &hp), 0);
	assert_int_equal(hp.commit_size, 4);
	assert_int_equal(hp.data_offset, 12);
	assert_int_equal(hp.subbuf_size, 4096);
}

static void test_header_page_64k(void **state)
{
	struct dat_header_page hp;

	(void)state;
	assert_int_equal(parse(hp_64k, &hp), 0);
	assert_int_equal(hp.commit_size, 8);
	assert_int_equal(hp.subbuf_size, 65536);
}

/* Only the bytes given are read: a cut text misses the data field. */
static void test_header_page_length_bound(void **state)
{
	struct dat_header_page hp;

	(void)state;
	assert_int_equal(fts_dat_header_page_parse(hp_64, strlen(hp_64) - 30, &hp), -1);
	assert_int_equal(fts_dat_header_page_parse(hp_64, 0, &hp), -1);
}

static void test_header_page_refused(void **state)
{
	static const char *const bad[] = {
		"",
		"garbage\n",
		/* no data field */
		"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n",
		/* no commit field */
		"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n",
		/* a 2-byte commit word */
		"\tfield: local_t commit;\toffset:8;\tsize:2;\tsigned:1;\n"
		"\tfield: char data;\toffset:10;\tsize:4086;\tsigned:0;\n",
		/* records not right after the commit word: kbuffer would misread them */
		"\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n",
		/* a sub-buffer beyond what readers accept */
		"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		"\tfield: char data;\toffset:16;\tsize:4294967280;\tsigned:0;\n",
		/* "commit" only as part of another name */
		"\tfield: local_t nocommit;\toffset:8;\tsize:8;\tsigned:1;\n"
		"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n",
	};
	struct dat_header_page hp;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse(bad[i], &hp), -1);
}

/*
 * A page of a 32-bit kernel: u64 time stamp, u32 commit = 16 bytes of data,
 * a 12-byte record (type_len 3) and a 4-byte one (type_len 1), little endian.
 */
static void page32(unsigned char *page, size_t size, uint32_t commit)
{
	memset(page, 0, size);
	page[0] = 1;                       /* time stamp */
	memcpy(page + 8, &(uint32_t){ commit }, 4);
	page[12] = 3;                      /* type_len 3: 12 data bytes */
	page[12 + 16] = 1;                 /* type_len 1: 4 data bytes */
}

static void test_page_commit4(void **state)
{
	struct dat_page_fmt f4 = { .page_size = 4096, .commit_size = 4 };
	struct dat_page_fmt f8 = { .page_size = 4096, .commit_size = 8 };
	unsigned char page[4096];

	(void)state;
	page32(page, sizeof(page), 24);
	assert_null(fts_dat_page_check(&f4, page, sizeof(page)));
	/* 28 bytes committed: the last 4 cut a record header */
	page32(page, sizeof(page), 28);
	assert_non_null(fts_dat_page_check(&f4, page, sizeof(page)));
	/* one byte more than a 4K page of a 32-bit kernel holds (4096 - 12) */
	page32(page, sizeof(page), 4085);
	assert_non_null(fts_dat_page_check(&f4, page, sizeof(page)));
	/*
	 * Read with an 8-byte commit word (a build that assumed its own
	 * sizeof(long)), the same page's records start 4 bytes late: the first
	 * record header is read from the middle of a record.
	 */
	page32(page, sizeof(page), 24);
	page[16] = 0x1d;                   /* inside the first record: padding, length 0 */
	assert_null(fts_dat_page_check(&f4, page, sizeof(page)));
	assert_non_null(fts_dat_page_check(&f8, page, sizeof(page)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_page_64),
		cmocka_unit_test(test_header_page_32),
		cmocka_unit_test(test_header_page_64k),
		cmocka_unit_test(test_header_page_length_bound),
		cmocka_unit_test(test_header_page_refused),
		cmocka_unit_test(test_page_commit4),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
