#!/bin/sh
# SPDX-License-Identifier: MIT
#
# mmxd_media_check - media streams through mmxd in the test guest (busybox
# sh), mmx loaded by the harness. Needs mmxd, mmx-jpegd and
# mmx_stream_check on PATH (mmx-jpegd next to mmxd).
#
# Subtests (printed as "Subtest NAME: SUCCESS|FAIL|SKIP"):
#   start            mmxd starts with --listen tcp:127.0.0.1:PORT, writes its
#                    cookie file 0600, its decoder processes run
#   unix-*           mmx_stream_check over the UNIX socket (its subtests:
#                    local-refused, open-bad, present-capture, retract,
#                    expire, corrupt, replace, clock)
#   tcp-stream       the same stream (present, corrupt) over
#                    tcp:127.0.0.1:PORT with the cookie
#   tcp-refused      no cookie file, a wrong cookie: refused; mmxd serves on
#   cycles           20 open/stream/close cycles (half closing the stream,
#                    half the connection): no framebuffer of mmxd's left
#                    beyond the screen's, the same decoder processes
#   audio            (with --audio-device) a stream with S16LE audio as its
#                    clock: chunks play out, video follows the audio
#                    position within 2 vblanks
#   daemon-alive     mmxd still answers and logged no crash
#
# Usage: mmxd_media_check [--subtest NAME[,NAME...]] [--cycles N]
#                         [--audio-device PCM]

only=
failed=0
cycles=20
sock=/run/mmx/mmxd.sock
port=7301
cookie=/run/mmx/cookie
audio=
log=/tmp/mmxd.log

# subtest helpers: other_option, wanted, start, result, msg, alive, wait_socket
lib=$(dirname "$0")/mmx_igt_lib; [ -f "$lib" ] || lib=$lib.sh; . "$lib"

while [ $# -gt 0 ]; do
	case $1 in
	--subtest) only=$2; shift ;;
	--cycles) cycles=$2; shift ;;
	--audio-device) audio=$2; shift ;;
	*) other_option mmxd_media_check "" "$1" ;;
	esac
	shift
done

# pids of mmx-jpegd processes, sorted, on one line
decoders() {
	for p in /proc/[0-9]*; do
		[ "$(cat "$p/comm" 2>/dev/null)" = mmx-jpegd ] && echo "${p#/proc/}"
	done | sort -n | tr '\n' ' '
}

daemon_pid=
# Run mmx_stream_check; its Subtest lines get PREFIX-, the rest indented.
stream_check() {
	prefix=$1
	shift
	mmx_stream_check "$@" 2>&1 | while IFS= read -r line; do
		case $line in
		"Subtest "*) echo "Subtest $prefix-${line#Subtest }" ;;
		*) echo "    $line" ;;
		esac
	done
}

# the guest boots without networking: TCP needs the loopback interface
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up 2>/dev/null

# ---------------------------------------------------------------------------
start start "mmxd with --listen tcp:127.0.0.1:$port: socket, cookie file 0600, decoders"
rm -rf /run/mmx
if [ -n "$audio" ]; then
	set -- --audio-device "$audio"
else
	set -- --no-audio
fi
mmxd --socket $sock --listen tcp:127.0.0.1:$port --auth-file $cookie \
	--decoders 2 "$@" --verbose >$log 2>&1 &
daemon_pid=$!
if ! wait_socket $sock; then
	# shellcheck disable=SC2154 # i: wait_socket's count
	msg "no socket after $((i / 5)) s"
	st=FAIL
else
	[ "$(stat -c %a $cookie 2>/dev/null)" = 600 ] ||
		{ msg "cookie file mode '$(stat -c %a $cookie 2>/dev/null)'"; st=FAIL; }
	[ "$(stat -c %s $cookie 2>/dev/null)" = 32 ] ||
		{ msg "cookie file size '$(stat -c %s $cookie 2>/dev/null)'"; st=FAIL; }
	dec=$(decoders)
	echo "  decoder processes: $dec"
	[ -n "$dec" ] || { msg "no mmx-jpegd process"; st=FAIL; }
	grep -q "no media streams" $log && { msg "mmxd has no streams"; st=FAIL; }
fi
sed 's/^/    | /' $log
result start
if [ $st = FAIL ]; then
	kill "$daemon_pid" 2>/dev/null
	exit 1
fi
fbs0=$(mmxd_fbs)
echo "  framebuffers of mmxd at start: $fbs0"

# ---------------------------------------------------------------------------
unix_tests=local-refused,open-bad,present-capture,retract,expire,corrupt,replace,clock
sel=
for t in $(echo $unix_tests | tr ',' ' '); do
	wanted "unix-$t" || continue
	case $t in
	present-capture) sel="$sel,present,capture" ;;
	*) sel="$sel,$t" ;;
	esac
done
if [ -n "$sel" ]; then
	out=$(stream_check unix --spec unix:$sock --subtest "${sel#,}")
	echo "$out"
	echo "$out" | grep -q "^Subtest .*: FAIL" && failed=1
fi

# ---------------------------------------------------------------------------
if wanted tcp-stream; then
	out=$(MMX_AUTH_FILE=$cookie stream_check tcp --spec tcp:127.0.0.1:$port \
		--subtest present,corrupt)
	echo "$out"
	echo "$out" | grep -q "^Subtest .*: FAIL" && failed=1
fi

# ---------------------------------------------------------------------------
if wanted tcp-refused; then
	start tcp-refused "TCP without the cookie file or with a wrong cookie is refused; mmxd serves on"
	MMX_AUTH_FILE=/nonexistent mmx_stream_check --expect-refused tcp:127.0.0.1:$port ||
		{ msg "no cookie file: not refused"; st=FAIL; }
	head -c 32 /dev/urandom >/tmp/wrong-cookie
	MMX_AUTH_FILE=/tmp/wrong-cookie mmx_stream_check --expect-refused tcp:127.0.0.1:$port ||
		{ msg "wrong cookie: not refused"; st=FAIL; }
	grep -q "refused: wrong cookie" $log || { msg "no refusal in mmxd's log"; st=FAIL; }
	MMX_AUTH_FILE=$cookie mmx_stream_check --spec tcp:127.0.0.1:$port \
		--subtest clock >/tmp/tcp-ok 2>&1 ||
		{ msg "the right cookie no longer works"; sed 's/^/    /' /tmp/tcp-ok; st=FAIL; }
	result tcp-refused
fi

# ---------------------------------------------------------------------------
if wanted cycles; then
	start cycles "$cycles open/stream/close cycles leave no framebuffer and no decoder process behind"
	dec0=$(decoders)
	out=$(mmx_stream_check --spec unix:$sock --subtest cycles --cycles "$cycles" 2>&1)
	echo "$out" | sed 's/^/    /'
	echo "$out" | grep -q "Subtest cycles: SUCCESS" || st=FAIL
	sleep 0.5
	fbs=$(mmxd_fbs)
	dec=$(decoders)
	echo "  framebuffers of mmxd: $fbs (at start $fbs0); decoders: $dec (before: $dec0)"
	[ "$fbs" = "$fbs0" ] || { msg "framebuffers left behind"; st=FAIL; }
	[ "$dec" = "$dec0" ] || { msg "decoder processes changed"; st=FAIL; }
	result cycles
fi

# ---------------------------------------------------------------------------
if [ -n "$audio" ] && wanted audio; then
	out=$(stream_check unix --spec unix:$sock --subtest audio)
	echo "$out"
	echo "$out" | grep -q "^Subtest .*: FAIL" && failed=1
fi

# ---------------------------------------------------------------------------
start daemon-alive "mmxd still serves after all that"
alive || { msg "mmxd died"; st=FAIL; }
mmx_stream_check --spec unix:$sock --subtest local-refused >/dev/null 2>&1 ||
	{ msg "mmxd does not answer"; st=FAIL; }
kill "$daemon_pid" 2>/dev/null
wait "$daemon_pid" 2>/dev/null
[ -e $cookie ] && { msg "cookie file left after SIGTERM"; st=FAIL; }
grep -E "reply while one is pending|Segmentation|Assertion" $log >&2 && st=FAIL
grep -E "stream|client" $log | tail -n 20 | sed 's/^/    | /'
result daemon-alive
exit $failed
