/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wire_fuzz.h - random mmx protocol requests in batches, for the fuzzers of
 * mmxd's framing (tests/igt/mmxd_fuzz.c against a live mmxd,
 * tests/unit/test_mmxd_server.c against the in-process server): known and
 * random types, plausible and random sizes, random flags now and then,
 * and a length no stream can resynchronise after. Needs mmx_wire.h.
 */
#ifndef MMX_TEST_WIRE_FUZZ_H
#define MMX_TEST_WIRE_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "mmx_wire.h"

/* xorshift64*: the next number of the sequence in *@state (never 0). */
static inline uint32_t wire_fuzz_next(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return (uint32_t)((*state * 0x2545f4914f6cdd1dull) >> 32);
}

/* The records of an empty config (APPLY): its six u32, flags first. */
#define WIRE_FUZZ_CONFIG_LEN	24

/*
 * Write @n random requests at @batch (a payload is at most 200 bytes),
 * their sequence numbers in @expect, then with @unsync a header whose
 * length no stream can follow (the server answers it and closes). A
 * GET_STATE is mostly a PING (keeps it quick); with @apply_test_only, an
 * APPLY of config records' size is TEST_ONLY (a live screen must not
 * change).
 * Returns the bytes written. @rnd draws the numbers, in a fixed order.
 */
static inline size_t wire_fuzz_batch(uint32_t (*rnd)(void), uint8_t *batch,
				     unsigned int n, uint32_t *expect,
				     int unsync, int apply_test_only)
{
	static const uint16_t types[] = {
		MMX_MSG_HELLO, MMX_MSG_PING, MMX_MSG_AUTH, MMX_MSG_GET_STATE,
		MMX_MSG_APPLY, MMX_MSG_POINTER, MMX_MSG_CAPTURE,
		MMX_MSG_TIME_FIRST, MMX_MSG_AUDIO_LAST, MMX_MSG_REPLY,
		MMX_MSG_EVENT, 0, 0xffff,
	};
	static const size_t sizes[] = {
		0, 8, sizeof(struct mmx_proto_hello), WIRE_FUZZ_CONFIG_LEN,
	};
	size_t off = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint16_t type = rnd() % 4 ? types[rnd() % 13] :
			       (uint16_t)rnd();
		size_t len = rnd() % 3 ? sizes[rnd() % 4] : rnd() % 200;
		uint32_t seq = rnd();
		size_t k;

		if (type == MMX_MSG_GET_STATE && rnd() % 8)
			type = MMX_MSG_PING;
		mmx_wire_put_header(batch + off,
				    (uint32_t)(MMX_PROTO_HEADER_SIZE + len),
				    type, seq);
		if (rnd() % 16 == 0)
			batch[off + 6] = (uint8_t)rnd();
		off += MMX_PROTO_HEADER_SIZE;
		for (k = 0; k < len; k++)
			batch[off + k] = rnd() % 4 ? 0 : (uint8_t)rnd();
		if (type == MMX_MSG_GET_STATE && len == 8) {
			batch[off] &= 1;
			batch[off + 4] = 0;
		}
		if (apply_test_only && type == MMX_MSG_APPLY &&
		    len == WIRE_FUZZ_CONFIG_LEN)
			batch[off] |= MMX_CONFIG_TEST_ONLY;
		off += len;
		expect[i] = seq;
	}
	if (unsync) {
		mmx_wire_put_header(batch + off, rnd() % 2 ? 3 :
				    MMX_PROTO_MAX_REQUEST + 1 + rnd() % 1000,
				    MMX_MSG_PING, 7);
		off += MMX_PROTO_HEADER_SIZE;
	}
	return off;
}

#endif /* MMX_TEST_WIRE_FUZZ_H */
