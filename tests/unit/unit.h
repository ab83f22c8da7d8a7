/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A tiny unit-test harness printing IGT-style lines:
 *   Subtest NAME: SUCCESS|FAIL
 * and a closing "N passed, N failed" line.
 */
#ifndef MMX_UNIT_H
#define MMX_UNIT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct unit_case {
	const char *name;
	const char *description;
	int (*fn)(void);
};

static int unit_failed_checks;

#define UNIT_CHECK(cond, ...)                                                \
	do {                                                                  \
		if (!(cond)) {                                                \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, \
				__LINE__, #cond);                             \
			fprintf(stderr, __VA_ARGS__);                         \
			fputc('\n', stderr);                                  \
			unit_failed_checks++;                                 \
			return -1;                                            \
		}                                                             \
	} while (0)

/* UNIT_CHECK that the int @expr is @want (an errno, usually). */
#define CHECK_ERR(expr, want)						\
	do {								\
		int _r = (expr);					\
		UNIT_CHECK(_r == (want), "%s: %d, expected %d", #expr,	\
			   _r, (int)(want));				\
	} while (0)

static inline int unit_run(const struct unit_case *cases, size_t n, int argc,
			   char **argv)
{
	unsigned int passed = 0, failed = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (argc > 1 && strcmp(argv[1], cases[i].name))
			continue;
		if (cases[i].fn() == 0) {
			printf("Subtest %s: SUCCESS\n", cases[i].name);
			passed++;
		} else {
			printf("Subtest %s: FAIL (%s)\n", cases[i].name,
			       cases[i].description);
			failed++;
		}
	}
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}

/*
 * Marsaglia's xorshift generators, 32 bits (13, 17, 5) and 64 bits
 * (13, 7, 17): the next value of the state *@s, which each test seeds
 * with a constant so that a failure reproduces.
 */
static inline uint32_t unit_xorshift32(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static inline uint64_t unit_xorshift64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* The number of elements of the array @a. */
#define UNIT_N(a) (sizeof(a) / sizeof((a)[0]))

/* unit_run() of the array @cases. */
#define UNIT_RUN(cases, argc, argv) unit_run((cases), UNIT_N(cases), (argc), (argv))

/* A main() that runs the array @cases and does nothing else. */
#define UNIT_MAIN(cases)						\
	int main(int argc, char **argv)					\
	{								\
		return UNIT_RUN(cases, argc, argv);			\
	}

#endif
