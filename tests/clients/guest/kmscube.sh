#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# kmscube: Mesa renders through GBM into mmx's dumb buffers (software
# rendering, kms_swrast/llvmpipe) and flips them, legacy and atomic. It must
# render its frame count and exit 0, and the CRTC's CRC must change while it
# runs (the cube turns).
#
# Usage: kmscube.sh   (in the guest; logs in /out/kmscube)
MMX_CLIENT=kmscube
export MMX_CLIENT
. "$(dirname "$0")/lib.sh"
require_mmx
status=0

# The first connected connector's name.
modetest -M mmx -c >"$LOG/modetest-c.txt" 2>&1
conn=$(awk '/^[0-9]+\t[0-9]*\tconnected/ { print $4; exit }' "$LOG/modetest-c.txt")

crtc_active() {
	_c=$(crtc_of "$conn")
	[ -n "$_c" ] && [ -n "$(crtc_mode "$_c")" ]
}

# crc_moved FILE [print]: among the first 1200 CRCs of FILE one differs
# from the first, or there are 1200 (the watch is over). With print: the
# line of the first that differs, nothing when none does.
crc_moved() {
	awk -v show="${2:-}" '
		NR == 1 { first = $2 }
		NR > 1200 { exit }
		$2 != first { moved = NR; exit }
		END {
			if (show != "") { if (moved) print moved; exit 0 }
			exit !(moved || NR >= 1200)
		}
	' "$1"
}

# kmscube_run NAME FRAMES ARGS...: run kmscube for FRAMES frames. Its
# atomic loop stops ("user interrupted!") as soon as its standard input is
# readable, which /dev/null always is: it reads a FIFO that this shell holds
# open and never writes.
kmscube_run() {
	_name=$1 _frames=$2
	shift 2
	rm -f "$LOG/$_name.stdin"
	mkfifo "$LOG/$_name.stdin"
	exec 7<>"$LOG/$_name.stdin"
	timeout 900 kmscube -D "$CARD" -c "$_frames" "$@" <&7 >"$LOG/$_name.txt" 2>&1 &
	_pid=$!
	if [ "$_name" = kmscube-legacy ] && wait_for 1500 crtc_active; then
		# CRCs while it runs until two differ (at most 1200 frames,
		# kmscube draws far slower than the vblank rate under TCG):
		# the picture moves.
		_crtc=$(crtc_of "$conn")
		crc_watch "$_crtc" "$LOG/$_name-crc.txt" 300 \
			crc_moved "$LOG/$_name-crc.txt"
		_moved=$(crc_moved "$LOG/$_name-crc.txt" print)
		_seen=$(wc -l <"$LOG/$_name-crc.txt")
		[ "$_seen" -le 1200 ] || _seen=1200
		if [ -n "$_moved" ]; then
			subtest kmscube-picture-moves SUCCESS "a new picture after $_moved frames"
		else
			subtest kmscube-picture-moves FAIL "one picture in $_seen frames"
			status=1
		fi
	fi
	wait "$_pid"
	_rc=$?
	exec 7<&-
	rm -f "$LOG/$_name.stdin"
	if [ $_rc -ne 0 ] && [ "$_name" = kmscube-atomic ] &&
	   grep -q 'no eglDupNativeFenceFDANDROID' "$LOG/$_name.txt"; then
		# kmscube -A needs EGL native fences, which Mesa's software
		# rasteriser does not have: nothing mmx could provide
		subtest "$_name" SKIP "Mesa's software EGL has no EGL_ANDROID_native_fence_sync"
		return
	fi
	if [ $_rc -ne 0 ]; then
		subtest "$_name" FAIL "exit $_rc; see $LOG/$_name.txt"
		status=1
		return
	fi
	# it exits 0 when it stops early, too
	if grep -q 'user interrupted' "$LOG/$_name.txt"; then
		subtest "$_name" FAIL "stopped before $_frames frames; see $LOG/$_name.txt"
		status=1
		return
	fi
	# "Rendered N frames in S sec (F fps)", every 2 s where kmscube has
	# it (the first may count 0 when the first frame took that long): the
	# last must count some
	_done=$(grep -E 'Rendered [0-9]+ frames' "$LOG/$_name.txt" | tail -n 1)
	case $_done in
	"Rendered 0 frames"*)
		subtest "$_name" FAIL "$_done; see $LOG/$_name.txt"
		status=1
		return
		;;
	esac
	_renderer=$(grep -m1 -iE 'renderer' "$LOG/$_name.txt" | tr -s ' \t' ' ')
	subtest "$_name" SUCCESS "${_done:-$_frames frames}; ${_renderer:-renderer not printed}"
}

kmscube_run kmscube-legacy 120
kmscube_run kmscube-atomic 60 -A
exit $status
