#!/bin/sh
# SPDX-License-Identifier: MIT
#
# mmxd_check - the mmx display daemon in the test guest (busybox sh), with
# mmx loaded by the harness and no other DRM client. Needs mmxd and
# mmxd_fuzz on PATH.
#
# Subtests (printed as "Subtest NAME: SUCCESS|FAIL" like the C tests):
#   start               mmxd starts, creates /run/mmx (0755) and its socket
#                       (0660), writes its pidfile
#   lit-at-start        every connected output is lit at its preferred
#                       mode, left to right, on an FB mmxd allocated (what
#                       fbcon had lit is replaced)
#   unprivileged-refused  uid 65534 cannot open the 0660 socket; with the
#                       socket opened up to 0666 the daemon itself refuses
#                       it (SO_PEERCRED, -EACCES reply, closed); a member of
#                       the socket's group is accepted
#   public-api          libmmx over "unix:PATH": REMOTE snapshot, TEST_ONLY
#                       apply of the current configuration, a bad config's
#                       error message, captures equal to the screen pattern
#   many-clients        32 clients at once, each served
#   fuzz                N random protocol messages (fixed seed) each get
#                       their reply, bad lengths close their stream; then
#                       GET_STATE works and the configuration is unchanged
#   disconnect-mid-request  clients leaving mid-request or before reading
#                       their reply; the others are served, nothing changed
#   mmxrandr-remote     mmxrandr (when on PATH) through the daemon: query,
#                       --off, --auto --right-of: the configuration follows
#                       (SKIP without mmxrandr)
#   second-instance     a second mmxd fails and leaves the first serving
#   sigterm             SIGTERM: exit 0, socket and pidfile removed, mmxd's
#                       framebuffers gone from debugfs
#
# Usage: mmxd_check [--messages N] [--subtest NAME[,NAME...]] [--list]

messages=20000
only=
failed=0
sock=/run/mmx/mmxd.sock
pidfile=/run/mmxd.pid
log=/tmp/mmxd.log

all="start lit-at-start unprivileged-refused public-api many-clients fuzz
disconnect-mid-request mmxrandr-remote second-instance sigterm"

# subtest helpers: other_option, wanted, start, result, msg, run, mmx_dri,
# mmxd_fbs, alive, wait_socket
lib=$(dirname "$0")/mmx_igt_lib; [ -f "$lib" ] || lib=$lib.sh; . "$lib"

while [ $# -gt 0 ]; do
	case $1 in
	--messages) messages=$2; shift ;;
	--subtest) only=$2; shift ;;
	*) other_option mmxd_check "$all" "$1" ;;
	esac
	shift
done

mode_of() {
	stat -c %a "$1" 2>/dev/null
}

config() {
	mmxd_fuzz --socket $sock config 2>&1
}

daemon_pid=
# ---------------------------------------------------------------------------
# The daemon runs for every subtest but sigterm's end.
start start "mmxd starts, creates /run/mmx 0755 and its socket 0660, writes its pidfile"
st=SUCCESS
rm -rf /run/mmx
mmxd --socket $sock --pidfile $pidfile --verbose >$log 2>&1 &
daemon_pid=$!
if ! wait_socket $sock; then
	msg "no socket at $sock after $((i / 5)) s"
	sed 's/^/    | /' $log >&2
	st=FAIL
else
	[ "$(mode_of /run/mmx)" = 755 ] || { msg "/run/mmx mode $(mode_of /run/mmx)"; st=FAIL; }
	[ "$(mode_of $sock)" = 660 ] || { msg "socket mode $(mode_of $sock)"; st=FAIL; }
	[ "$(cat $pidfile 2>/dev/null)" = "$daemon_pid" ] ||
		{ msg "pidfile says '$(cat $pidfile 2>/dev/null)', pid $daemon_pid"; st=FAIL; }
fi
sed 's/^/    | /' $log
if ! alive; then
	msg "mmxd is not running"
	st=FAIL
fi
wanted start && result start $st
if [ $st = FAIL ]; then
	echo "mmxd_check: mmxd did not start; giving up" >&2
	exit 1
fi

# ---------------------------------------------------------------------------
if wanted lit-at-start; then
	start lit-at-start "every connected output lit at its preferred mode, left to right, on an FB mmxd allocated"
	st=SUCCESS
	cfg=$(config)
	echo "  $cfg"
	ncrtc=$(echo "$cfg" | grep -o "; crtc" | wc -l)
	nconn=0
	for f in /sys/class/drm/card*-*/status; do
		case $f in *-Writeback-*) continue ;; esac
		[ "$(cat "$f")" = connected ] && nconn=$((nconn + 1))
	done
	[ "$ncrtc" -ge 1 ] || { msg "no CRTC lit"; st=FAIL; }
	[ "$ncrtc" = "$nconn" ] || { msg "$ncrtc CRTCs lit for $nconn connected outputs"; st=FAIL; }
	# left to right: each CRTC's x is the sum of the widths before it
	echo "$cfg" | tr ';' '\n' | awk '
		/crtc/ { split($3, m, "@"); split(m[1], wh, "x");
			 split($4, p, "+");
			 if (p[2] != x || p[3] != 0) { print "  crtc " $2 " at +" p[2] "+" p[3] ", expected +" x "+0"; bad = 1 }
			 x += wh[1] }
		END { exit bad }' >&2 || st=FAIL
	[ "$(mmxd_fbs)" -ge 1 ] || { msg "no framebuffer allocated by mmxd in debugfs"; st=FAIL; }
	result lit-at-start $st
fi

# ---------------------------------------------------------------------------
if wanted unprivileged-refused; then
	start unprivileged-refused "uid 65534: refused by the 0660 socket, then by the daemon's SO_PEERCRED check; the socket group is accepted"
	st=SUCCESS
	out=$(mmxd_fuzz --socket $sock --uid 65534 --gid 65534 hello 13 2>&1)
	rc=$?
	echo "  0660: $out"
	# shellcheck disable=SC2015 # fail when either does
	[ $rc = 0 ] && echo "$out" | grep -q "connect: -13" ||
		{ msg "uid 65534 was not refused by the socket's mode"; st=FAIL; }
	chmod 0666 $sock
	out=$(mmxd_fuzz --socket $sock --uid 65534 --gid 65534 hello 13 2>&1)
	rc=$?
	chmod 0660 $sock
	echo "  0666: $out"
	# shellcheck disable=SC2015
	[ $rc = 0 ] && echo "$out" | grep -q "^hello: -13 .*not allowed.* seq 0" ||
		{ msg "uid 65534 was not refused by mmxd"; st=FAIL; }
	grep -q "refused: uid 65534" $log || { msg "no refusal in mmxd's log"; st=FAIL; }
	# gid 0 is the socket's group (mmxd runs as root without --group)
	out=$(mmxd_fuzz --socket $sock --uid 65534 --gid 0 hello 0 2>&1)
	rc=$?
	echo "  group: $out"
	[ $rc = 0 ] || { msg "a member of the socket's group was refused"; st=FAIL; }
	alive || { msg "mmxd died"; st=FAIL; }
	result unprivileged-refused $st
fi

# ---------------------------------------------------------------------------
if wanted public-api; then
	start public-api "libmmx over unix:PATH: REMOTE snapshot, TEST_ONLY apply, a bad config's message, captures equal the screen pattern; GET_STATE's records round-trip"
	st=SUCCESS
	run mmxd_fuzz --socket $sock api || st=FAIL
	run mmxd_fuzz --socket $sock state-records || st=FAIL
	MMX_SOCKET=$sock run mmxd_fuzz config || st=FAIL
	result public-api $st
fi

# ---------------------------------------------------------------------------
if wanted many-clients; then
	start many-clients "32 clients connected at once each get their state"
	st=SUCCESS
	run mmxd_fuzz --socket $sock many 32 || st=FAIL
	alive || { msg "mmxd died"; st=FAIL; }
	result many-clients $st
fi

# ---------------------------------------------------------------------------
if wanted fuzz; then
	start fuzz "$messages random messages each get their reply; bad lengths close only their stream; the configuration is unchanged"
	st=SUCCESS
	before=$(config)
	run mmxd_fuzz --socket $sock fuzz "$messages" 1 || st=FAIL
	after=$(config)
	echo "  before: $before"
	echo "  after:  $after"
	[ "$before" = "$after" ] || { msg "the configuration changed"; st=FAIL; }
	case $after in screen*) ;; *) msg "GET_STATE failed after the fuzz"; st=FAIL ;; esac
	alive || { msg "mmxd died"; st=FAIL; }
	result fuzz $st
fi

# ---------------------------------------------------------------------------
if wanted disconnect-mid-request; then
	start disconnect-mid-request "clients leaving mid-request or before their reply lose only their request"
	st=SUCCESS
	before=$(config)
	run mmxd_fuzz --socket $sock midreq || st=FAIL
	after=$(config)
	[ "$before" = "$after" ] || { msg "the configuration changed: $after"; st=FAIL; }
	alive || { msg "mmxd died"; st=FAIL; }
	result disconnect-mid-request $st
fi

# ---------------------------------------------------------------------------
if wanted mmxrandr-remote; then
	start mmxrandr-remote "mmxrandr through the daemon: query, turn an output off, back on to the right: the daemon's configuration follows"
	if ! command -v mmxrandr >/dev/null; then
		echo "  no mmxrandr on PATH"
		result mmxrandr-remote SKIP
	else
		st=SUCCESS
		before=$(config)
		MMX_SOCKET=$sock mmxrandr --current >/tmp/randr.out 2>&1 ||
			{ msg "mmxrandr --current failed"; st=FAIL; }
		sed 's/^/    | /' /tmp/randr.out | head -n 8
		grep -q "^eDP-1 connected" /tmp/randr.out ||
			{ msg "no 'eDP-1 connected' line"; st=FAIL; }
		MMX_SOCKET=$sock run mmxrandr --output VGA-1 --off || st=FAIL
		mid=$(config)
		echo "  off:   $mid"
		[ "$(echo "$mid" | grep -o "; crtc" | wc -l)" = 1 ] ||
			{ msg "VGA-1 still lit"; st=FAIL; }
		MMX_SOCKET=$sock run mmxrandr --output VGA-1 --auto --right-of eDP-1 ||
			st=FAIL
		after=$(config)
		echo "  back:  $after"
		[ "$before" = "$after" ] ||
			{ msg "not back to: $before"; st=FAIL; }
		result mmxrandr-remote $st
	fi
fi

# ---------------------------------------------------------------------------
if wanted second-instance; then
	start second-instance "a second mmxd exits non-zero and the first keeps serving"
	st=SUCCESS
	mmxd --socket $sock --no-light-up >/tmp/mmxd2.log 2>&1 &
	p2=$!
	i=0
	while kill -0 $p2 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	if kill -0 $p2 2>/dev/null; then
		msg "the second mmxd still runs"
		kill $p2
		st=FAIL
	fi
	wait $p2
	rc=$?
	sed 's/^/    | /' /tmp/mmxd2.log
	[ $rc != 0 ] || { msg "the second mmxd exited 0"; st=FAIL; }
	[ -S $sock ] || { msg "the socket is gone"; st=FAIL; }
	run mmxd_fuzz --socket $sock hello || st=FAIL
	result second-instance $st
fi

# ---------------------------------------------------------------------------
start sigterm "SIGTERM: exit 0, socket and pidfile removed, mmxd's framebuffers gone"
st=SUCCESS
fbs=$(mmxd_fbs)
echo "  framebuffers of mmxd before: $fbs"
[ "$fbs" -ge 1 ] || { msg "mmxd owned no framebuffer"; st=FAIL; }
kill -TERM "$daemon_pid"
wait "$daemon_pid"
rc=$?
sed 's/^/    | /' $log | tail -n 5
[ $rc = 0 ] || { msg "mmxd exited $rc"; st=FAIL; }
[ -e $sock ] && { msg "the socket is still there"; st=FAIL; }
[ -e $pidfile ] && { msg "the pidfile is still there"; st=FAIL; }
fbs=$(mmxd_fbs)
echo "  framebuffers of mmxd after: $fbs"
[ "$fbs" = 0 ] || { msg "$fbs framebuffers of mmxd remain"; st=FAIL; }
modetest -M mmx -c >/tmp/modetest.out 2>&1 ||
	{ msg "modetest -M mmx -c failed"; st=FAIL; }
grep -q "^Connectors:" /tmp/modetest.out || { msg "modetest printed no connectors"; st=FAIL; }
wanted sigterm && result sigterm $st

exit $failed
