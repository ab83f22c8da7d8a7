#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The guest half of `make demo` (tests/vm/demo), in the Debian 12 root
# filesystem (POSIX sh: Debian's dash) with the mmx module loaded:
#   1. mmxdemo: every output lit with the test pattern, captured through
#      its writeback connector (/out/output-N-NAME.ppm);
#   2. the RandR 1.3 view: Xorg with the modesetting driver on mmx, xrandr
#      sets a transform and panning, then `xrandr --verbose` lists outputs,
#      properties, transforms and panning (/out/xrandr-verbose.txt); then,
#      and alone without Xorg, mmxrandr --verbose (/out/mmxrandr-verbose.txt);
#   3. mmxdemo -T: the tour (rotation, keystone, panning, timed commit) into
#      /out.
# Lines starting with "summary:" are repeated by tests/vm/demo at the end.
#
# Usage: demo-guest.sh   (in the guest, from tests/vm/demo)
set -u
# xorg_start, xorg_wait (shipped next to this script)
# shellcheck source=../clients/guest/xorg_start.sh
. "$(dirname "$0")/xorg_start.sh"

CARD=
for d in /sys/kernel/debug/dri/*; do
	if [ -f "$d/name" ] && grep -q '^mmx ' "$d/name"; then
		CARD=/dev/dri/card${d##*/}
		break
	fi
done
if [ -z "$CARD" ]; then
	echo "demo-guest: no mmx device" >&2
	exit 1
fi
status=0

echo "---- mmxdemo: every output lit with the test pattern"
if ! mmxdemo -d /out; then
	status=1
fi
modetest -M mmx -c -p >/out/modetest.txt 2>&1

# ---------------------------------------------------------------------------
# RandR 1.3 as X clients see it.

x_verbose() {
	xorg_start "$CARD" /out
	if ! xorg_wait 600; then
		echo "demo-guest: Xorg did not start (see build/demo/Xorg.1.log)"
		kill "$xpid" 2>/dev/null
		return 1
	fi
	xrandr >/tmp/xrandr.txt 2>&1
	first=$(awk '/ connected/ { print $1; exit }' /tmp/xrandr.txt)
	second=$(awk '/ connected/ { n++; if (n == 2) { print $1; exit } }' /tmp/xrandr.txt)
	# The first output keystone-corrected (the tour's matrix for
	# 1280x800: its top corners show the screen 15% beyond its sides),
	# the second one panning over a 2048-pixel-wide area at its right.
	echo "\$ xrandr --output $first --pos 192x0 --transform 1.3,0.24,-192,0,1.3,0,0,0.000375,1 --filter bilinear${second:+ --output $second --mode 1024x768 --pos 1665x0 --panning 2048x768+1665+0}"
	# shellcheck disable=SC2086 # the second output's options, or none
	if ! xrandr --output "$first" --pos 192x0 \
		--transform 1.3,0.24,-192,0,1.3,0,0,0.000375,1 --filter bilinear \
		${second:+--output $second --mode 1024x768 --pos 1665x0 --panning 2048x768+1665+0}; then
		echo "demo-guest: xrandr refused the configuration"
		status=1
	fi
	xrandr --verbose >/out/xrandr-verbose.txt 2>&1
	xver=$(Xorg -version 2>&1 | awk '/X.Org X Server/ { print $4; exit }')
	echo "---- xrandr --verbose (Xorg $xver, modesetting driver on mmx; EDIDs cut to their first line, other modes' lines left out)"
	brief /out/xrandr-verbose.txt
	kill "$xpid" 2>/dev/null
	wait "$xpid" 2>/dev/null
	# The same device through libmmx, for what the X server leaves out.
	mmxrandr --verbose >/out/mmxrandr-verbose.txt 2>&1
	found=
	only=
	for p in EDID SignalFormat SignalProperties ConnectorType ConnectorNumber \
		CompatibilityList CloneList Transform Panning; do
		if grep -q "^	$p:" /out/xrandr-verbose.txt; then
			found="$found${found:+, }$p"
		elif grep -q "^	$p:" /out/mmxrandr-verbose.txt; then
			only="$only${only:+, }$p"
		fi
	done
	echo "summary: RandR 1.3: xrandr --verbose (Xorg $xver, modesetting driver) lists $found (xrandr-verbose.txt)${only:+; mmxrandr --verbose also $only (mmxrandr-verbose.txt)}"
	return 0
}

# brief FILE: an xrandr --verbose listing without the timings and the
# modes not in use, EDIDs cut to their first line.
brief() {
	awk '
		/^[^ \t]/ { edid = 0; print; next }
		/^\tEDID:/ { print; edid = 1; n = 0; next }
		edid && /^\t\t[0-9a-f]+$/ { if (n++ == 0) print $0 " ..."; next }
		{ edid = 0 }
		/^  [0-9]+x[0-9]+/ { if (/current/) print; next }
		/^        [hv]: / { next }
		{ print }
	' "$1"
}

if command -v Xorg >/dev/null 2>&1 && x_verbose; then
	:
else
	echo "---- mmxrandr --verbose (Xorg unavailable)"
	mmxrandr --verbose >/out/mmxrandr-verbose.txt 2>&1 || status=1
	brief /out/mmxrandr-verbose.txt
	echo "summary: RandR 1.3: mmxrandr --verbose lists the outputs' properties (mmxrandr-verbose.txt)"
fi

# The guest is an emulated machine on a shared host: give timed commits
# 4 frames (the default is 2) between the start of their work and their
# vblank, so that a stall of the emulator does not make them late.
lead=/sys/module/mmx_core/parameters/timed_lead_frames
if [ -w $lead ]; then
	echo 4 >$lead
fi
echo "---- mmxdemo -T: the tour (timed_lead_frames=$(cat $lead 2>/dev/null))"
if ! mmxdemo -T /out -m 1024x768; then
	status=1
fi
exit $status
