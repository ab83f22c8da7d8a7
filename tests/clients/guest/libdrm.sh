#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# libdrm's test tools as the distribution ships them (libdrm-tests): modetest
# lists the device and sets a mode, page-flips on it, proptest lists and sets
# a connector property, vbltest counts vblanks on the CRTC modetest lit.
#
# Usage: libdrm.sh   (in the guest; logs in /out/libdrm)
MMX_CLIENT=libdrm
export MMX_CLIENT
. "$(dirname "$0")/lib.sh"
require_mmx
status=0

fail() {
	subtest "$1" FAIL "$2"
	status=1
}

# ---------------------------------------------------------------------------
# modetest: the listing has every section and our connectors.

if modetest -M mmx >"$LOG/modetest.txt" 2>&1 &&
   grep -q '^Encoders:' "$LOG/modetest.txt" &&
   grep -q '^Connectors:' "$LOG/modetest.txt" &&
   grep -q '^CRTCs:' "$LOG/modetest.txt" &&
   grep -q '^Planes:' "$LOG/modetest.txt" &&
   grep -q '^Frame buffers:' "$LOG/modetest.txt"; then
	subtest modetest-list SUCCESS
else
	fail modetest-list "see $LOG/modetest.txt"
fi

# The first connected connector: id, name, preferred mode.
# shellcheck disable=SC2046 # three words, split on purpose
set -- $(awk '
	/^[0-9]+\t[0-9]*\tconnected/ && id == "" { id = $1; name = $4; want = 1; next }
	want && /^  #0 / { print id, name, $2; exit }
' "$LOG/modetest.txt")
conn_id=${1:-}
conn=${2:-}
mode=${3:-}
if [ -z "$mode" ]; then
	fail modetest-set-mode "no connected connector with a mode"
	exit 1
fi

# modetest holds a configuration until its stdin has a line (or ends): feed
# it from a FIFO the script controls.
hold() {
	rm -f /tmp/hold
	mkfifo /tmp/hold
	_log=$1
	shift
	stdbuf -oL modetest -M mmx "$@" </tmp/hold >"$_log" 2>&1 &
	hold_pid=$!
	exec 8>/tmp/hold
}
release() {
	echo >&8
	exec 8>&-
	wait "$hold_pid"
}

mode_is_set() {
	_c=$(crtc_of "$conn")
	[ -n "$_c" ] && [ "$(crtc_mode "$_c")" = "$mode" ]
}

# -s: a legacy modeset with modetest's pattern.
hold "$LOG/modetest-s.txt" -s "$conn_id:$mode"
if wait_alive "$hold_pid" 3000 mode_is_set; then
	subtest modetest-set-mode SUCCESS
	crtc=$(crtc_of "$conn")

	# vbltest on the lit CRTC (pipe = CRTC index; -s is pipe 1): it
	# prints a "freq:" line every 60 vblanks.
	pipe_opt=
	[ "$crtc" = 1 ] && pipe_opt=-s
	if [ "$crtc" -le 1 ]; then
		# it stops when its stdin is readable: a FIFO we hold open
		rm -f /tmp/vhold
		mkfifo /tmp/vhold
		timeout 600 stdbuf -oL vbltest -M mmx $pipe_opt </tmp/vhold \
			>"$LOG/vbltest.txt" 2>&1 &
		vpid=$!
		exec 7>/tmp/vhold
		if wait_line "$vpid" "$LOG/vbltest.txt" 'freq:'; then
			subtest vbltest SUCCESS "$(grep -m1 'freq:' "$LOG/vbltest.txt")"
		else
			fail vbltest "no 60 vblanks counted; see $LOG/vbltest.txt"
		fi
		echo >&7
		exec 7>&-
		wait "$vpid" 2>/dev/null
	else
		subtest vbltest SKIP "vbltest reaches pipes 0 and 1 only; $conn is on crtc-$crtc"
	fi
else
	fail modetest-set-mode "$conn not on a CRTC in $mode; see $LOG/modetest-s.txt"
fi
release
cp "$DRI/state" "$LOG/state-after-s.txt"

# -v: page flips on the mode; modetest prints "freq:" after 60 flips... per
# second of flips, and the flip count comes from its page-flip events.
hold "$LOG/modetest-v.txt" -s "$conn_id:$mode" -v
if wait_line "$hold_pid" "$LOG/modetest-v.txt" 'freq:'; then
	subtest modetest-page-flip SUCCESS "$(grep -m1 'freq:' "$LOG/modetest-v.txt")"
else
	fail modetest-page-flip "no flip rate printed; see $LOG/modetest-v.txt"
fi
release

# -a -P: an atomic commit through modetest (primary plane with -P).
plane=$(awk '/^Planes:/ { on = 1; next } on && /^[0-9]+\t/ { print $1; exit }' "$LOG/modetest.txt")
crtc_id=$(awk '/^CRTCs:/ { on = 1; next } on && /^[0-9]+\t/ { print $1; exit }' "$LOG/modetest.txt")
hold "$LOG/modetest-a.txt" -a -s "$conn_id@$crtc_id:$mode" -P "$plane@$crtc_id:${mode}"
if wait_alive "$hold_pid" 3000 mode_is_set; then
	subtest modetest-atomic SUCCESS
else
	fail modetest-atomic "$conn not lit by the atomic commit; see $LOG/modetest-a.txt"
fi
release

# ---------------------------------------------------------------------------
# proptest: lists every object's properties; sets one on a connector.

if proptest -M mmx >"$LOG/proptest.txt" 2>&1 &&
   grep -q 'Connector' "$LOG/proptest.txt" &&
   grep -q 'ConnectorType' "$LOG/proptest.txt"; then
	subtest proptest-list SUCCESS
else
	fail proptest-list "see $LOG/proptest.txt"
fi

# A mutable enum property with at least two values on some connector:
# "CONNECTOR_ID PROP_ID CURRENT OTHER NAME".
# shellcheck disable=SC2046 # five words, split on purpose
set -- $(awk '
	/^[0-9]+\t[0-9]*\t(connected|disconnected)/ { conn = $1; next }
	/^(CRTCs|Planes):/ { conn = "" }
	conn != "" && /^\t[0-9]+ [A-Za-z-]+:$/ { pid = $1; name = $2; sub(/:$/, "", name); flags = ""; enums = ""; next }
	conn != "" && /^\t\tflags:/ { flags = $0 }
	conn != "" && /^\t\tenums:/ { enums = $0 }
	conn != "" && /^\t\tvalue: / && name == "SignalFormat" && flags ~ /enum/ && flags !~ /immutable/ {
		n = split(enums, e, /[ =]+/)
		for (i = 3; i <= n; i += 2) if (e[i] != $2) { print conn, pid, $2, e[i], name; exit }
	}
' "$LOG/modetest.txt")
if [ $# -lt 5 ]; then
	subtest proptest-set SKIP "no connector with a mutable SignalFormat"
else
	pc=$1 pp=$2 old=$3 new=$4
	proptest -M mmx "$pc" connector "$pp" "$new" >"$LOG/proptest-set.txt" 2>&1
	modetest -M mmx -c >"$LOG/modetest-after-set.txt" 2>&1
	got=$(awk -v c="$pc" -v p="$pp" '
		/^[0-9]+\t/ { on = ($1 == c) }
		on && $1 == p && /^\t[0-9]+ / { want = 1; next }
		want && /^\t\tvalue: / { print $2; exit }
	' "$LOG/modetest-after-set.txt")
	if [ "$got" = "$new" ]; then
		subtest proptest-set SUCCESS "SignalFormat $old -> $new"
	else
		fail proptest-set "SignalFormat is '$got' after setting $new (was $old); see $LOG"
	fi
	proptest -M mmx "$pc" connector "$pp" "$old" >>"$LOG/proptest-set.txt" 2>&1
fi
exit $status
