// SPDX-License-Identifier: MIT
/*
 * The static build's JSON tree (core/util/json_dom.c) held to cJSON's
 * answers, in the dynamic build where both link: the same inputs parse or
 * fail alike into the same trees, print to the same text (the pid map file)
 * and compare alike.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <cjson/cJSON.h>

#include "core/util/json_dom.h"

static const char *const inputs[] = {
	"{\"a\":1}", "{\"a\":1,}", "[1,2,3]", "[]", "{}", " \n\t{\"k\" : \"v\"}",
	"{\"k\":\"\\u00e9\\ud83d\\ude00\\n\\t\\\"\\\\\\/\"}", "\"\\ud800\"", "\"\\udc00x\"",
	"{\"a\":1} trailing", "\xEF\xBB\xBF{\"bom\":true}", "{\"a\":\"x\\q\"}", "1e400", "-0", "1.5e3",
	"-", "-x", "tru", "nul", "null", "false", "true", "", "{\"a\" 1}", "{1:2}", "[,]", "[1 2]",
	"{\"a\":1,\"a\":2}", "{\"a\":{\"b\":[1,{\"c\":null}]}}", "\"unterminated", "[\"a\",",
	"{\"n\":123456789012345678}", "{\"n\":0.1}", "{\"n\":-1.25e-7}", "{\"s\":\"\x01raw\"}",
	"{\"u\":\"\\u12G4\"}", "{\"u\":\"\\u0000x\"}", "2147483648", "-2147483649", "[[[]]]",
	"{\"clockMonotonicRaw\":\"1\",\"clockMonotonicRaw\":\"1\"}",
};

/* The same tree: kinds, keys, strings and numbers at every node. */
static void same_tree(const cJSON *c, const struct fts_jd *o)
{
	for (; c || o; c = c->next, o = o->next) {
		assert_non_null(c);
		assert_non_null(o);
		assert_int_equal(c->type & 0xFF, o->type);
		if (c->string || o->string)
			assert_string_equal(c->string, o->string);
		if (cJSON_IsString(c))
			assert_string_equal(c->valuestring, o->valuestring);
		if (cJSON_IsNumber(c)) {
			assert_memory_equal(&c->valuedouble, &o->valuedouble, sizeof(double));
			assert_int_equal(c->valueint, o->valueint);
		}
		same_tree(c->child, o->child);
	}
}

static void parse_alike(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		cJSON *c = cJSON_ParseWithLength(inputs[i], strlen(inputs[i]));
		struct fts_jd *o = fts_jd_parse(inputs[i], strlen(inputs[i]));

		print_message("input %zu: %s\n", i, inputs[i]);
		assert_int_equal(!c, !o);
		if (c) {
			char *pc = cJSON_Print(c), *po = fts_jd_print(o);

			same_tree(c, o);
			assert_string_equal(pc, po);
			free(pc);
			free(po);
		}
		cJSON_Delete(c);
		fts_jd_delete(o);
	}
}

/* Nesting: cJSON refuses past 1000 levels, so must we (and not overflow the stack). */
static void nesting_alike(void **state)
{
	static const int depths[] = { 999, 1000, 1001, 100000 };

	(void)state;
	for (size_t k = 0; k < sizeof(depths) / sizeof(depths[0]); k++) {
		size_t n = (size_t)depths[k];
		char *s = malloc(2 * n + 1);
		cJSON *c;
		struct fts_jd *o;

		assert_non_null(s);
		memset(s, '[', n);
		memset(s + n, ']', n);
		s[2 * n] = '\0';
		c = cJSON_ParseWithLength(s, 2 * n);
		o = fts_jd_parse(s, 2 * n);
		assert_int_equal(!c, !o);
		cJSON_Delete(c);
		fts_jd_delete(o);
		free(s);
	}
}

/* The pid map as pidscan.c builds it: the printed text is the file's bytes. */
static void print_alike(void **state)
{
	static const char *const names[] = { "python3", "a\"b\\c", "tab\there", "nl\nx", "\x7f\x01",
					     "\xe4\xb8\xad\xe6\x96\x87", "", "}{" };
	cJSON *c = cJSON_CreateObject();
	struct fts_jd *o = fts_jd_object();
	char *pc, *po;

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		cJSON *ci = cJSON_CreateObject();
		struct fts_jd *oi = fts_jd_object();
		char key[16];

		snprintf(key, sizeof(key), "%zu", 100 + i);
		cJSON_AddItemToObject(c, key, ci);
		assert_true(fts_jd_add(o, key, oi));
		cJSON_AddStringToObject(ci, "NSpid", "7");
		assert_non_null(fts_jd_add_string(oi, "NSpid", "7"));
		cJSON_AddStringToObject(ci, "name", names[i]);
		assert_non_null(fts_jd_add_string(oi, "name", names[i]));
	}
	pc = cJSON_Print(c);
	po = fts_jd_print(o);
	assert_string_equal(pc, po);
	free(pc);
	free(po);
	cJSON_Delete(c);
	fts_jd_delete(o);
	c = cJSON_CreateObject();
	o = fts_jd_object();
	pc = cJSON_Print(c);
	po = fts_jd_print(o);
	assert_string_equal(pc, po);   /* the empty map */
	free(pc);
	free(po);
	cJSON_Delete(c);
	fts_jd_delete(o);
}

static void compare_alike(void **state)
{
	static const char *const vals[] = { "1", "1.0", "2", "\"1\"", "[1,2]", "[2,1]", "{\"a\":1,\"b\":2}",
					    "{\"b\":2,\"a\":1}", "{\"a\":1}", "null", "true", "{\"A\":1}" };
	size_t n = sizeof(vals) / sizeof(vals[0]);

	(void)state;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			for (int cs = 0; cs < 2; cs++) {
				cJSON *a = cJSON_Parse(vals[i]), *b = cJSON_Parse(vals[j]);
				struct fts_jd *x = fts_jd_parse(vals[i], strlen(vals[i]));
				struct fts_jd *y = fts_jd_parse(vals[j], strlen(vals[j]));

				assert_int_equal(!!cJSON_Compare(a, b, cs), fts_jd_equal(x, y, cs));
				cJSON_Delete(a);
				cJSON_Delete(b);
				fts_jd_delete(x);
				fts_jd_delete(y);
			}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_alike),
		cmocka_unit_test(nesting_alike),
		cmocka_unit_test(print_alike),
		cmocka_unit_test(compare_alike),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
