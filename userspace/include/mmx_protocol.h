/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The mmxd protocol: what libmmx's remote backend and mmxd say to each
 * other over a stream socket. Documentation/mmxd-protocol.rst is the full
 * description; this header has the numbers and layouts.
 *
 * Every message is a struct mmx_proto_header followed by its payload.
 * The header is little-endian (convert with le32toh()/le16toh()). The
 * state and the configuration travel as records whose size follows their
 * content (GET_STATE's reply, APPLY's payload; their encoding is
 * lib/mmx_wire_state.c and Documentation/mmxd-protocol.rst); the other
 * payloads are the small structures below, every field an explicit
 * width, little-endian, with no implicit padding. A big-endian peer must
 * byte-swap every field; this implementation refuses to build on one.
 * No libmmx.h structure travels as it is laid out in memory.
 *
 * The client speaks first: HELLO, then any number of requests, each
 * answered by exactly one REPLY carrying the request's sequence number, in
 * request order. The server may also send EVENT messages at any time
 * between messages (media stream and schedule completions; clients skip
 * the events they do not know). A TCP connection starts with AUTH.
 *
 * Protocol 2.0 dropped 1.x's fixed-struct GET_STATE and APPLY: its
 * GET_STATE and APPLY are 1.4's GET_STATE_RECORDS and APPLY_RECORDS, and
 * HELLO refuses a peer of another major.
 */

#ifndef MMX_PROTOCOL_H
#define MMX_PROTOCOL_H

#include <stdint.h>
#include "libmmx.h"
#include "libmmx_media.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Protocol version: a different major is refused, minors only add. */
#define MMX_PROTO_MAJOR		2
#define MMX_PROTO_MINOR		0

/**
 * struct mmx_proto_header - the start of every message (little-endian)
 * @length: total length of the message in bytes, this header included
 * @type: enum mmx_proto_type
 * @flags: 0 (anything else is refused with -EINVAL)
 * @sequence: chosen by the client for a request; a REPLY carries the
 *	sequence of the request it answers; 0 in an EVENT and in an
 *	unsolicited REPLY (connection refused)
 */
struct mmx_proto_header {
	uint32_t length;
	uint16_t type;
	uint16_t flags;
	uint32_t sequence;
};

#define MMX_PROTO_HEADER_SIZE	12u

/* The fixed name fields of HELLO and its reply, NUL included. */
#define MMX_PROTO_NAME_LEN	32

/*
 * Largest request (header included): an APPLY's config records must fit
 * (a change of one output with a transform, a panning and a few
 * properties is a few hundred bytes).
 */
#define MMX_PROTO_MAX_REQUEST	(64u * 1024)
/*
 * Largest media request (STREAM_VIDEO, STREAM_REPLACE, STREAM_AUDIO;
 * header included): its data may be up to MMX_STREAM_MAX_CHUNK bytes.
 * Every other request is at most MMX_PROTO_MAX_REQUEST.
 */
#define MMX_PROTO_MAX_MEDIA_REQUEST	(MMX_PROTO_HEADER_SIZE + 32u + \
					 MMX_STREAM_MAX_CHUNK)
/* Largest capture: MMX_PROTO_MAX_CAPTURE_DIM squared XRGB8888 pixels. */
#define MMX_PROTO_MAX_CAPTURE_DIM	8192u
/*
 * Largest reply (header included): a capture of the largest mode. A
 * GET_STATE reply (records: a few KiB per output) is far below it.
 */
#define MMX_PROTO_MAX_REPLY						\
	(MMX_PROTO_HEADER_SIZE + 264u + 8u +				\
	 MMX_PROTO_MAX_CAPTURE_DIM * MMX_PROTO_MAX_CAPTURE_DIM * 4u)

/**
 * enum mmx_proto_type - message types
 *
 * Requests (client to server) are below 0x8000, messages from the server
 * 0x8000 and above. The ranges marked reserved are kept for later
 * protocol minors; a request of a reserved or unknown type is answered
 * with -ENOSYS and the connection goes on.
 *
 * @MMX_MSG_HELLO: struct mmx_proto_hello; reply: struct
 *	mmx_proto_hello_reply. Must be the first request, once.
 * @MMX_MSG_PING: no payload; reply: no payload (always allowed, even
 *	before HELLO)
 * @MMX_MSG_AUTH: struct mmx_proto_auth (the cookie); reply: no payload.
 *	On TCP it must come first (before HELLO; only PING may precede it),
 *	once; on a UNIX socket it is accepted and ignored (peer credentials
 *	decide)
 * @MMX_MSG_SUBSCRIBE: reserved: ask for EVENT messages
 * @MMX_MSG_GET_STATE: struct mmx_proto_get_state; reply: the state
 *	records (mmx_wire_decode_state(); the layout is in
 *	Documentation/mmxd-protocol.rst)
 * @MMX_MSG_APPLY: the config records (mmx_wire_decode_config(); the
 *	layout is in Documentation/mmxd-protocol.rst); reply: no payload
 *	(the reply's error and message are mmx_apply()'s)
 * @MMX_MSG_POINTER: struct mmx_proto_pointer; reply: no payload
 * @MMX_MSG_CAPTURE: struct mmx_proto_capture; reply: struct
 *	mmx_proto_capture_reply then width * height XRGB8888 pixels
 * @MMX_MSG_CLOCK_QUERY: struct mmx_proto_stream_ref; reply: struct
 *	mmx_stream_clock (the stream clock now)
 * @MMX_MSG_STREAM_AUDIO: struct mmx_proto_stream_audio then the audio
 *	data; reply: no payload
 * @MMX_MSG_STREAM_OPEN: struct mmx_stream_config; reply: struct
 *	mmx_proto_stream_open_reply
 * @MMX_MSG_STREAM_CLOSE: struct mmx_proto_stream_ref; reply: no payload
 * @MMX_MSG_STREAM_START: struct mmx_proto_stream_start; reply: no payload
 * @MMX_MSG_STREAM_VIDEO: struct mmx_proto_stream_video then the JPEG;
 *	reply: no payload
 * @MMX_MSG_STREAM_RETRACT: struct mmx_proto_stream_retract; reply: no
 *	payload
 * @MMX_MSG_STREAM_REPLACE: as STREAM_VIDEO, for a pending id
 * @MMX_MSG_CLOCK_CREATE: struct mmx_proto_clock_create; reply:
 *	struct mmx_proto_clock_ref (the new clock's id)
 * @MMX_MSG_CLOCK_START: struct mmx_proto_clock_at; reply: no payload
 * @MMX_MSG_CLOCK_STOP: struct mmx_proto_clock_at; reply: no payload
 * @MMX_MSG_CLOCK_SET_RATE: struct mmx_proto_clock_rate; reply: no
 *	payload
 * @MMX_MSG_CLOCK_READ: struct mmx_proto_clock_ref; reply: struct
 *	mmx_remote_clock_state
 * @MMX_MSG_CLOCK_DESTROY: struct mmx_proto_clock_ref; reply: no
 *	payload
 * @MMX_MSG_SCHEDULE_SUBMIT: struct mmx_schedule_request; reply: no
 *	payload
 * @MMX_MSG_SCHEDULE_RETRACT: struct mmx_proto_schedule_ref; reply:
 *	no payload
 * @MMX_MSG_SCHEDULE_REPLACE: struct mmx_proto_schedule_replace;
 *	reply: no payload
 * @MMX_MSG_TIME_FIRST: first of the range for TIME (clocks, scheduled
 *	commits)
 * @MMX_MSG_TIME_LAST: last of it
 * @MMX_MSG_AUDIO_FIRST: first of the range reserved for AUDIO
 * @MMX_MSG_AUDIO_LAST: last of it
 * @MMX_MSG_COMPRESS_FIRST: first of the range reserved for COMPRESS
 * @MMX_MSG_COMPRESS_LAST: last of it
 * @MMX_MSG_REPLY: server: struct mmx_proto_reply then the request's data
 * @MMX_MSG_EVENT: server: struct mmx_proto_event then its data
 */
enum mmx_proto_type {
	MMX_MSG_HELLO = 0x0001,
	MMX_MSG_PING = 0x0002,
	MMX_MSG_AUTH = 0x0003,
	MMX_MSG_SUBSCRIBE = 0x0004,

	MMX_MSG_GET_STATE = 0x0010,
	MMX_MSG_APPLY = 0x0011,
	MMX_MSG_POINTER = 0x0012,
	MMX_MSG_CAPTURE = 0x0013,

	MMX_MSG_TIME_FIRST = 0x0100,
	MMX_MSG_CLOCK_QUERY = 0x0100,
	MMX_MSG_CLOCK_CREATE = 0x0101,
	MMX_MSG_CLOCK_START = 0x0102,
	MMX_MSG_CLOCK_STOP = 0x0103,
	MMX_MSG_CLOCK_SET_RATE = 0x0104,
	MMX_MSG_CLOCK_READ = 0x0105,
	MMX_MSG_CLOCK_DESTROY = 0x0106,
	MMX_MSG_SCHEDULE_SUBMIT = 0x0110,
	MMX_MSG_SCHEDULE_RETRACT = 0x0111,
	MMX_MSG_SCHEDULE_REPLACE = 0x0112,
	MMX_MSG_TIME_LAST = 0x01ff,
	MMX_MSG_AUDIO_FIRST = 0x0200,
	MMX_MSG_STREAM_AUDIO = 0x0200,
	MMX_MSG_AUDIO_LAST = 0x02ff,
	MMX_MSG_COMPRESS_FIRST = 0x0300,
	MMX_MSG_STREAM_OPEN = 0x0300,
	MMX_MSG_STREAM_CLOSE = 0x0301,
	MMX_MSG_STREAM_START = 0x0302,
	MMX_MSG_STREAM_VIDEO = 0x0303,
	MMX_MSG_STREAM_RETRACT = 0x0304,
	MMX_MSG_STREAM_REPLACE = 0x0305,
	MMX_MSG_COMPRESS_LAST = 0x03ff,

	MMX_MSG_REPLY = 0x8000,
	MMX_MSG_EVENT = 0x8001,
};

/* struct mmx_proto_hello_reply.caps: requests the server serves */
#define MMX_PROTO_CAP_STATE	(1u << 0)	/* GET_STATE */
#define MMX_PROTO_CAP_APPLY	(1u << 1)	/* APPLY */
#define MMX_PROTO_CAP_POINTER	(1u << 2)	/* POINTER (transforms) */
#define MMX_PROTO_CAP_CAPTURE	(1u << 3)	/* CAPTURE (writeback) */
#define MMX_PROTO_CAP_STREAM	(1u << 4)	/* STREAM_* video */
#define MMX_PROTO_CAP_AUDIO	(1u << 5)	/* streams with S16LE audio */
#define MMX_PROTO_CAP_MPEG	(1u << 6)	/* streams with MPEG audio */
#define MMX_PROTO_CAP_TIME	(1u << 7)	/* CLOCK_* and SCHEDULE_* */

/**
 * struct mmx_proto_hello - HELLO request
 * @major: MMX_PROTO_MAJOR of the client
 * @minor: MMX_PROTO_MINOR of the client
 * @flags: 0
 * @reserved: 0 (1.x: the sizes of its fixed structs; the server reads
 *	@major first and refuses another one)
 * @client: the client's name for the server's log, NUL-terminated
 */
struct mmx_proto_hello {
	uint16_t major;
	uint16_t minor;
	uint32_t flags;
	uint32_t reserved[2];
	char client[MMX_PROTO_NAME_LEN];
};

/**
 * struct mmx_proto_hello_reply - the data of HELLO's reply (sent with
 * the error too, so that a refused client learns the server's version)
 * @major: MMX_PROTO_MAJOR of the server
 * @minor: MMX_PROTO_MINOR of the server
 * @caps: MMX_PROTO_CAP_*
 * @state_flags: mmx_state_flags() of the server's display
 * @reserved: 0 (1.x: the sizes of its fixed structs)
 * @max_request: MMX_PROTO_MAX_REQUEST of the server
 * @max_reply: MMX_PROTO_MAX_REPLY of the server
 * @pad: 0
 * @driver: KMS driver name
 * @server: server name and version ("mmxd 0.1.0")
 */
struct mmx_proto_hello_reply {
	uint16_t major;
	uint16_t minor;
	uint32_t caps;
	uint32_t state_flags;
	uint32_t reserved[2];
	uint32_t max_request;
	uint32_t max_reply;
	uint32_t pad;
	char driver[MMX_PROTO_NAME_LEN];
	char server[MMX_PROTO_NAME_LEN];
};

/**
 * struct mmx_proto_reply - start of every REPLY's payload
 * @request: type of the request answered (0 in an unsolicited reply)
 * @pad: 0
 * @error: 0 or a negative errno (Linux numbers)
 * @message: NUL-terminated text for a human, "" on success
 */
struct mmx_proto_reply {
	uint16_t request;
	uint16_t pad;
	int32_t error;
	char message[256];
};

#define MMX_PROTO_REPLY_SIZE	264u

/**
 * struct mmx_proto_get_state - GET_STATE request
 * @probe: 1: probe the outputs (RandR GetScreenResources), 0: cached
 *	(GetScreenResourcesCurrent); anything else is -EINVAL
 * @pad: 0
 */
struct mmx_proto_get_state {
	uint32_t probe;
	uint32_t pad;
};

/**
 * struct mmx_proto_pointer - POINTER request (mmx_pointer_moved())
 * @x: screen point
 * @y: see @x
 */
struct mmx_proto_pointer {
	int32_t x;
	int32_t y;
};

/**
 * struct mmx_proto_capture - CAPTURE request (mmx_capture())
 * @crtc: CRTC id
 * @pad: 0
 */
struct mmx_proto_capture {
	uint32_t crtc;
	uint32_t pad;
};

/**
 * struct mmx_proto_capture_reply - start of a CAPTURE reply's data,
 * followed by @width * @height XRGB8888 pixels (u32, row after row)
 * @width: pixels per row
 * @height: rows
 */
struct mmx_proto_capture_reply {
	uint32_t width;
	uint32_t height;
};

/**
 * struct mmx_proto_auth - AUTH request
 * @cookie: the MMX_AUTH_COOKIE_LEN bytes of mmxd's auth file
 */
struct mmx_proto_auth {
	uint8_t cookie[MMX_AUTH_COOKIE_LEN];
};

/**
 * struct mmx_proto_stream_open_reply - the data of STREAM_OPEN's reply
 * @stream: the stream's id on this connection (non-zero)
 * @crtc: the CRTC showing it
 * @plane: the plane showing it
 * @max_frames: frames that may be pending at once
 * @x: position of the frame on the CRTC (centring resolved)
 * @y: see @x
 * @audio_rate: the audio device's rate (0 without audio)
 * @audio_channels: its channels
 */
struct mmx_proto_stream_open_reply {
	uint32_t stream;
	uint32_t crtc;
	uint32_t plane;
	uint32_t max_frames;
	int32_t x;
	int32_t y;
	uint32_t audio_rate;
	uint32_t audio_channels;
};

/**
 * struct mmx_proto_stream_ref - STREAM_CLOSE and CLOCK_QUERY request
 * @stream: a stream id of this connection
 * @pad: 0
 */
struct mmx_proto_stream_ref {
	uint32_t stream;
	uint32_t pad;
};

/**
 * struct mmx_proto_stream_start - STREAM_START request
 * @stream: the stream
 * @pad: 0
 * @delay_ns: stream time 0 is this long from now, >= 0 (at most 60 s)
 */
struct mmx_proto_stream_start {
	uint32_t stream;
	uint32_t pad;
	int64_t delay_ns;
};

/**
 * struct mmx_proto_stream_video - STREAM_VIDEO and STREAM_REPLACE
 *	request, followed by 1..MMX_STREAM_MAX_CHUNK bytes of JPEG
 * @stream: the stream
 * @flags: 0
 * @id: frame id, non-zero
 * @pts_ns: stream time to show it at
 * @expire_ns: latest stream time to show it at, >= @pts_ns
 */
struct mmx_proto_stream_video {
	uint32_t stream;
	uint32_t flags;
	uint64_t id;
	int64_t pts_ns;
	int64_t expire_ns;
};

/**
 * struct mmx_proto_stream_retract - STREAM_RETRACT request
 * @stream: the stream
 * @pad: 0
 * @id: the pending frame
 */
struct mmx_proto_stream_retract {
	uint32_t stream;
	uint32_t pad;
	uint64_t id;
};

/**
 * struct mmx_proto_stream_audio - STREAM_AUDIO request, followed by
 *	1..MMX_STREAM_MAX_CHUNK bytes of audio (whole S16LE frames, or MPEG
 *	frames)
 * @stream: the stream
 * @flags: 0
 * @pts_ns: stream time of its first sample
 */
struct mmx_proto_stream_audio {
	uint32_t stream;
	uint32_t flags;
	int64_t pts_ns;
};

/* struct mmx_proto_event.event */
#define MMX_PROTO_EVENT_STREAM	1	/* struct mmx_proto_stream_event */
#define MMX_PROTO_EVENT_SCHEDULE 2	/* struct mmx_schedule_event */

/**
 * struct mmx_proto_event - start of an EVENT payload; the event's data
 *	follows
 * @event: MMX_PROTO_EVENT_*
 * @pad: 0
 * @timestamp: CLOCK_MONOTONIC ns when the server sent it
 */
struct mmx_proto_event {
	uint32_t event;
	uint32_t pad;
	uint64_t timestamp;
};

/**
 * struct mmx_proto_stream_event - MMX_PROTO_EVENT_STREAM data
 * @stream: the stream
 * @pad: 0
 * @ev: the completion
 */
struct mmx_proto_stream_event {
	uint32_t stream;
	uint32_t pad;
	struct mmx_stream_event ev;
};

/**
 * struct mmx_proto_clock_create - CLOCK_CREATE request
 * @kind: MMX_REMOTE_CLOCK_* (libmmx_media.h)
 * @target: VBLANK: an output (connector) id whose CRTC is lit; AUDIO: a
 *	stream id of this connection; MONOTONIC: 0
 */
struct mmx_proto_clock_create {
	uint32_t kind;
	uint32_t target;
};

/**
 * struct mmx_proto_clock_ref - CLOCK_READ, CLOCK_DESTROY request and
 *	CLOCK_CREATE's reply
 * @clock: a clock id of this connection (non-zero)
 * @pad: 0
 */
struct mmx_proto_clock_ref {
	uint32_t clock;
	uint32_t pad;
};

/* struct mmx_proto_clock_at.flags */
#define MMX_PROTO_CLOCK_NOW	(1u << 0)	/* now, @mono_ns ignored */

/**
 * struct mmx_proto_clock_at - CLOCK_START and CLOCK_STOP request
 * @clock: the clock
 * @flags: MMX_PROTO_CLOCK_NOW or 0
 * @mono_ns: the CLOCK_MONOTONIC time it starts (stops) at, as if it had
 *	been done then; at most 60 s away from now
 */
struct mmx_proto_clock_at {
	uint32_t clock;
	uint32_t flags;
	int64_t mono_ns;
};

/**
 * struct mmx_proto_clock_rate - CLOCK_SET_RATE request
 * @clock: the clock
 * @num: rate numerator, -1000..1000
 * @den: rate denominator, 1..1000
 * @pad: 0
 */
struct mmx_proto_clock_rate {
	uint32_t clock;
	int32_t num;
	uint32_t den;
	uint32_t pad;
};

/**
 * struct mmx_proto_schedule_ref - SCHEDULE_RETRACT request
 * @id: a pending schedule id of this connection
 */
struct mmx_proto_schedule_ref {
	uint64_t id;
};

/**
 * struct mmx_proto_schedule_replace - SCHEDULE_REPLACE request
 * @old_id: the pending schedule to replace (it completes REPLACED)
 * @req: the new one (its own id)
 */
struct mmx_proto_schedule_replace {
	uint64_t old_id;
	struct mmx_schedule_request req;
};

#ifdef __cplusplus
}
#endif

#endif /* MMX_PROTOCOL_H */
