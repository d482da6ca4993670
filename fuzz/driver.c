// SPDX-License-Identifier: MIT
/*
 * driver.c - runs a fuzz target over files named on the command line, for
 * builds without libFuzzer: ctest replays the corpus through every target
 * (under ASan/UBSan in the sanitizer build).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	int n = 0;

	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf;
		long len;

		if (!f) {
			fprintf(stderr, "%s: cannot open\n", argv[i]);
			return 1;
		}
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		fseek(f, 0, SEEK_SET);
		buf = malloc(len > 0 ? (size_t)len : 1);
		if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
			fclose(f);
			free(buf);
			return 1;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, (size_t)len);
		free(buf);
		n++;
	}
	printf("%d inputs replayed\n", n);
	return 0;
}
