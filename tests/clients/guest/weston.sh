#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# weston's DRM backend with the pixman renderer on mmx: it lights every
# connected output, and each shows desktop-shell's background, one solid
# colour (the CRC of the composed frame equals that of a frame of that
# colour, and on the virtio backend so does QEMU's screendump of the head);
# weston-simple-shm draws (the CRC of its output changes) and once
# it is gone the background is back. Weston 10 (Debian 12) runs as root on
# a VT; later ones open the device through libseat, with seatd.
#
# Usage: weston.sh   (in the guest; logs in /out/weston)
MMX_CLIENT=weston
export MMX_CLIENT
. "$(dirname "$0")/lib.sh"
require_mmx
status=0

BG=2040c0
XDG_RUNTIME_DIR=/tmp/xdg-runtime
export XDG_RUNTIME_DIR
rm -rf "$XDG_RUNTIME_DIR"
mkdir -p "$XDG_RUNTIME_DIR"
chmod 0700 "$XDG_RUNTIME_DIR"

cat >/tmp/weston.ini <<EOF
[core]
idle-time=0
require-input=false

[shell]
background-color=0xff$BG
panel-position=none
locking=false
animation=none
startup-animation=none
close-animation=none
focus-animation=none
EOF

version=$(weston --version 2>&1 | awk '{ print $2 }')
major=${version%%.*}
echo "weston $version"

# The connected connectors and their preferred modes: "NAME WxH" lines.
modetest -M mmx -c >"$LOG/modetest-c.txt" 2>&1
awk '
	/^[0-9]+\t[0-9]*\tconnected/ { name = $4; want = 1; next }
	want && /^  #0 / { print name, $2; want = 0 }
' "$LOG/modetest-c.txt" >"$LOG/outputs.txt"

card=${CARD#/dev/dri/}
seatd_pid=
if [ "${major:-0}" -le 10 ]; then
	set -- --backend=drm-backend.so --tty=3 --drm-device="$card" \
		--use-pixman --continue-without-input
else
	seatd -g root >"$LOG/seatd.txt" 2>&1 &
	seatd_pid=$!
	LIBSEAT_BACKEND=seatd
	export LIBSEAT_BACKEND
	wait_for 300 test -S /run/seatd.sock
	set -- --backend=drm --drm-device="$card" --renderer=pixman \
		--continue-without-input
fi
weston --config=/tmp/weston.ini --log="$LOG/weston.log" --socket=wayland-1 \
	--idle-time=0 "$@" >"$LOG/weston.out" 2>&1 &
wpid=$!
trap 'kill "$wpid" ${seatd_pid:+"$seatd_pid"} 2>/dev/null; exit 143' TERM INT

# crc_changed FILE CRC N: FILE has N CRCs other than CRC.
crc_changed() {
	[ "$(awk -v was="$2" '$2 != was { n++ } END { print n + 0 }' "$1")" -ge "$3" ]
}

# output_lit CONNECTOR: the connector is on an active CRTC.
output_lit() {
	_c=$(crtc_of "$1")
	[ -n "$_c" ] && [ -n "$(crtc_mode "$_c")" ]
}

tries=1500
while [ $tries -gt 0 ] && kill -0 "$wpid" 2>/dev/null && [ ! -S "$XDG_RUNTIME_DIR/wayland-1" ]; do
	tries=$((tries - 1))
	sleep 0.2
done
if ! kill -0 "$wpid" 2>/dev/null || [ ! -S "$XDG_RUNTIME_DIR/wayland-1" ]; then
	subtest weston-start FAIL "no Wayland socket; see $LOG/weston.log"
	tail -n 30 "$LOG/weston.log" 2>/dev/null
	kill "$wpid" 2>/dev/null
	[ -n "$seatd_pid" ] && kill "$seatd_pid"
	exit 1
fi
subtest weston-start SUCCESS "weston $version"

# Every connected output lit, in its preferred mode, with the background.
while read -r name _; do
	if ! wait_for 1500 output_lit "$name"; then
		subtest "weston-output-$name" FAIL "$name not lit"
		status=1
		continue
	fi
	crtc=$(crtc_of "$name")
	mode=$(crtc_mode "$crtc")
	want=$(mmx-clients-pic crc-solid "${mode%x*}" "${mode#*x}" "$BG")
	# weston draws the background once its shell client has started:
	# on a loaded TCG host that takes minutes
	if wait_crc "$crtc" "$want" 30000; then
		subtest "weston-output-$name" SUCCESS "$mode, background"
		# what QEMU shows must be the background too
		screendump "background-$name" "$(head_of "$name")" "solid=$BG"
	else
		subtest "weston-output-$name" FAIL "crtc-$crtc ($mode) CRC $(cat "$LOG/last-crc"), background is 0x$want"
		status=1
	fi
done <"$LOG/outputs.txt"

# A client draws on the first output: its CRC changes from the one before.
# shellcheck disable=SC2046 # two words, split on purpose
set -- $(head -n 1 "$LOG/outputs.txt")
first=${1:-}
crtc=$(crtc_of "$first")
if [ -z "$crtc" ]; then
	subtest weston-client-draws SKIP "no lit output"
else
	mode=$(crtc_mode "$crtc")
	bgcrc=$(mmx-clients-pic crc-solid "${mode%x*}" "${mode#*x}" "$BG")
	# the picture before the client: one CRC
	crc_watch "$crtc" "$LOG/before-client-crc.txt" 600 \
		crc_lines "$LOG/before-client-crc.txt" 1
	before=$(awk '{ print $2; exit }' "$LOG/before-client-crc.txt")
	WAYLAND_DISPLAY=wayland-1 weston-simple-shm >"$LOG/simple-shm.txt" 2>&1 &
	cpid=$!
	# then three frames that differ from it
	crc_watch "$crtc" "$LOG/client-crc.txt" 1200 \
		crc_changed "$LOG/client-crc.txt" "$before" 3
	drew=$(awk -v was="$before" '$2 != was { n++ } END { print n + 0 }' "$LOG/client-crc.txt")
	if kill -0 "$cpid" 2>/dev/null && [ -n "$before" ] && [ "$drew" -ge 3 ]; then
		subtest weston-client-draws SUCCESS
	else
		subtest weston-client-draws FAIL "client $(kill -0 "$cpid" 2>/dev/null && echo running || echo gone), $drew frames changed from ${before:-nothing}; see $LOG"
		status=1
	fi
fi
kill "$cpid" 2>/dev/null
wait "$cpid" 2>/dev/null
if [ -n "$crtc" ]; then
	if wait_crc "$crtc" "$bgcrc" 30000; then
		subtest weston-client-gone SUCCESS
	else
		subtest weston-client-gone FAIL "CRC $(cat "$LOG/last-crc") after the client quit, background 0x$bgcrc"
		status=1
	fi
fi

if kill -0 "$wpid" 2>/dev/null; then
	kill "$wpid"
	wait "$wpid"
	subtest weston-exit SUCCESS "exit $?"
else
	wait "$wpid"
	subtest weston-exit FAIL "weston died (exit $?); see $LOG/weston.log"
	status=1
fi
[ -n "$seatd_pid" ] && kill "$seatd_pid"
exit $status
