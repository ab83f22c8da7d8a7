# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# Shared by the real-client guest scripts (sourced; POSIX sh: Debian's dash).
# They run in the Debian guest's root filesystem as root, with the mmx module
# loaded, the debugfs mounted, and /out going back to the host.
#
# Variables the scripts may set before sourcing: NONE. Provided:
#   LOG       per-client log directory under /out (created)
#   DRI       /sys/kernel/debug/dri/N of mmx, CARD /dev/dri/cardN
#   BACKEND   virtual or virtio (from /sys/kernel/debug/dri/N/virtio)

LOG=/out/${MMX_CLIENT:-client}
mkdir -p "$LOG"

# subtest NAME SUCCESS|FAIL|SKIP [WHY]: the result line tests/vm/run counts.
subtest() {
	if [ -n "${3:-}" ]; then
		echo "Subtest $1: $2 ($3)"
	else
		echo "Subtest $1: $2"
	fi
}

# check NAME CMD...: SUCCESS when CMD exits 0, else FAIL.
check() {
	_name=$1
	shift
	if "$@"; then
		subtest "$_name" SUCCESS
		return 0
	fi
	subtest "$_name" FAIL
	return 1
}

# wait_for TRIES CMD...: run CMD every 0.2 s until it succeeds, at most TRIES
# times. The bound is a safety net for a hung client, never a verdict on
# speed: keep it generous.
wait_for() {
	_tries=$1
	shift
	while [ "$_tries" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		_tries=$((_tries - 1))
		sleep 0.2
	done
	return 1
}

# wait_alive PID TRIES CMD...: like wait_for, but gives up once process PID
# is gone (and CMD still fails).
wait_alive() {
	_pid=$1 _tries=$2
	shift 2
	while [ "$_tries" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		kill -0 "$_pid" 2>/dev/null || break
		_tries=$((_tries - 1))
		sleep 0.2
	done
	"$@" >/dev/null 2>&1
}

# wait_line PID FILE REGEX: wait until FILE has a line matching REGEX (grep
# -E) while process PID lives, at most 3000 polls.
wait_line() {
	_tries=3000
	while [ "$_tries" -gt 0 ]; do
		grep -qE "$3" "$2" 2>/dev/null && return 0
		kill -0 "$1" 2>/dev/null || break
		_tries=$((_tries - 1))
		sleep 0.2
	done
	grep -qE "$3" "$2" 2>/dev/null
}

# Find mmx among the DRM devices.
DRI=
CARD=
# The primary minors only (dri/N, N < 64): 6.12 also names each device's
# directory after the device, with dri/N a link to it.
for _n in /sys/kernel/debug/dri/[0-9]/name /sys/kernel/debug/dri/[0-9][0-9]/name; do
	[ -e "$_n" ] || continue
	_m=${_n%/name}
	_m=${_m##*/}
	[ "$_m" -lt 64 ] || continue
	_line=$(cat "$_n")
	case $_line in
	mmx*)
		DRI=${_n%/name}
		CARD=/dev/dri/card$_m
		;;
	esac
done
BACKEND=virtual
[ -n "$DRI" ] && [ -e "$DRI/virtio" ] && BACKEND=virtio
export DRI CARD BACKEND

# require_mmx: fail the whole script when mmx has no DRM device.
require_mmx() {
	if [ -z "$DRI" ] || [ ! -c "$CARD" ]; then
		subtest "${MMX_CLIENT:-client}-device" FAIL "no mmx DRM device"
		exit 1
	fi
}

# crtc_of CONNECTOR: the index of the CRTC the connector is on (from the
# atomic state in debugfs), nothing when it is off.
crtc_of() {
	awk -v c="$1" '
		/^connector\[/ { on = ($0 ~ ": " c "$") }
		on && /^\tcrtc=/ { sub(/^\tcrtc=/, ""); if ($0 ~ /^crtc-/) { sub(/^crtc-/, ""); print } ; exit }
	' "$DRI/state"
}

# crtc_mode INDEX: "WxH" of the mode of CRTC crtc-INDEX when it is active.
crtc_mode() {
	awk -v c="crtc-$1" '
		/^crtc\[/ { on = ($0 ~ ": " c "$"); next }
		/^[a-z]/ { on = 0 }
		on && /^\tactive=/ { active = ($0 == "\tactive=1") }
		on && /^\tmode: / && active { print $5 "x" $9; exit }
	' "$DRI/state"
}

# plane_src INDEX: "X Y" of the source position of the first plane on CRTC
# crtc-INDEX (its primary plane), in whole pixels.
plane_src() {
	awk -v c="crtc-$1" '
		/^plane\[/ { on = 0; next }
		/^\tcrtc=/ { on = ($0 == "\tcrtc=" c) }
		on && /^\tsrc-pos=/ {
			sub(/^\tsrc-pos=[0-9.]+x[0-9.]+/, "")
			split($0, a, /[+]/); printf "%d %d\n", a[2], a[3]; exit
		}
	' "$DRI/state"
}

# crc_watch INDEX FILE SECONDS CMD...: collect the CRCs of CRTC INDEX
# ("FRAME CRC" lines) into FILE until CMD succeeds (run every 0.2 s, and
# once more after the last CRC came), the reader stops (the file reads fail
# with EIO while the CRTC is off) or SECONDS pass; then end the reader,
# which closes the CRC source. 0 when CMD succeeded.
#
# The reader writes to a file, never into a pipe: a pipe's writer only
# learns that its reader is done at its next write, after whatever the
# reader reads ahead (Debian 13's mawk reads on to about 256 KiB after
# `exit`: minutes of CRCs at 60 a second), and the open data file keeps the
# driver computing CRCs all that time. The CRC file wants whole-entry
# reads: cat's large buffer, not a shell's byte by byte `read`.
crc_watch() {
	_w_i=$1
	_w_d=$DRI/crtc-$1/crc
	_w_file=$2
	_w_end=$(($(date +%s) + $3))
	shift 3
	: >"$_w_file"
	: >"$LOG/crc-read.err"
	if ! echo auto 2>>"$LOG/crc-read.err" >"$_w_d/control"; then
		# EBUSY (shown as EIO) while another process has crc/data open
		echo "crtc-$_w_i/crc/control refused 'auto'" >>"$LOG/crc-read.err"
		return 1
	fi
	cat "$_w_d/data" >"$_w_file" 2>>"$LOG/crc-read.err" &
	_w_pid=$!
	_w_rc=1
	while :; do
		_w_alive=0
		kill -0 "$_w_pid" 2>/dev/null && _w_alive=1
		if "$@"; then
			_w_rc=0
			break
		fi
		[ "$_w_alive" = 1 ] || break
		[ "$(date +%s)" -lt "$_w_end" ] || break
		sleep 0.2
	done
	kill "$_w_pid" 2>/dev/null
	wait "$_w_pid" 2>/dev/null
	return $_w_rc
}

# crc_lines FILE N: FILE has at least N CRC lines.
crc_lines() {
	[ "$(wc -l <"$1")" -ge "$2" ]
}

# crc_match FILE CRC FRAMES: stop watching once one of the first FRAMES CRCs
# of FILE equals CRC or there are FRAMES of them; 0 only for the former.
# The last CRC looked at goes to $LOG/last-crc, and "found" or "bound" to
# $LOG/crc-match once the answer is known.
crc_match() {
	awk -v want="0x$2" -v max="$3" -v last="$LOG/last-crc" -v res="$LOG/crc-match" '
		{ seen = $2; n++ }
		seen == want { found = 1; exit }
		n >= max { exit }
		END {
			print seen >last
			if (found) print "found" >res
			else if (n >= max) print "bound" >res
			exit !(found || n >= max)
		}
	' "$1"
}

# wait_crc INDEX CRC [FRAMES]: read the CRCs of CRTC INDEX until one equals
# CRC (8 hex digits), at most FRAMES frames (default 3000: a client that
# has drawn may still need many frames on a loaded TCG host to get its
# picture out; only a wrong picture reaches the bound) and at most 1200 s.
# The last CRC seen goes to $LOG/last-crc.
wait_crc() {
	: >"$LOG/last-crc"
	rm -f "$LOG/crc-match"
	if crc_watch "$1" "$LOG/crc.txt" 1200 crc_match "$LOG/crc.txt" "$2" "${3:-3000}"; then
		[ "$(cat "$LOG/crc-match")" = found ] && return 0
	fi
	# no CRC read at all: say why
	[ -n "$(cat "$LOG/last-crc")" ] ||
		echo "none ($(tr '\n' ' ' <"$LOG/crc-read.err"))" >"$LOG/last-crc"
	return 1
}

# QEMU's picture (virtio backend): when the host gave the guest a
# virtio-serial port named mmx.sync, `screendump TAG HEAD [solid=RRGGBB]`
# asks the host to screendump that head (a line it watches for on the
# console) and waits for its answer on the port, so the picture cannot
# change under the dump. After the run the host compares the dump with
# /out/CLIENT/TAG.want.ppm, or with a frame of the colour given. Returns 1
# when there is no such port (nothing asked) or no answer came.
sync_port_named() {
	for _p in /sys/class/virtio-ports/*/name; do
		[ -e "$_p" ] || continue
		if [ "$(cat "$_p")" = mmx.sync ]; then
			_d=${_p%/name}
			echo "/dev/${_d##*/}"
			return 0
		fi
	done
	return 1
}
sync_port() {
	sync_port_named && return 0
	# no virtio console device (virtio ID 3): no port to wait for
	grep -qx 0x0003 /sys/bus/virtio/devices/*/device 2>/dev/null || return 1
	modprobe virtio_console 2>/dev/null
	# the ports and their names come from the host after the driver's
	# probe has returned: wait for ours rather than miss the first
	# picture's screendump
	_t=50
	while [ "$_t" -gt 0 ]; do
		sync_port_named && return 0
		_t=$((_t - 1))
		sleep 0.2
	done
	echo "no virtio port named mmx.sync: $(cat /sys/class/virtio-ports/*/name 2>/dev/null | tr '\n' ' ')" >&2
	return 1
}
# host_has_frame HEAD: mmx has nothing pending for scanout HEAD (no damage
# waiting, no command unanswered): the host has the last composed frame.
host_has_frame() {
	grep -qE "^scanout $1: .*, damage 0, inflight 0\$" "$DRI/virtio"
}
screendump() {
	[ "$BACKEND" = virtio ] || return 1
	_port=$(sync_port) || return 1
	_tag=$1
	shift
	if ! wait_for 1500 host_has_frame "$1"; then
		echo "scanout $1 never settled: $(grep "^scanout $1:" "$DRI/virtio")"
	fi
	echo "mmx-clients-screendump: ${MMX_CLIENT:-client} $_tag $*"
	# the host answers one line per request
	_ack=$(timeout 300 head -n 1 "$_port")
	[ "$_ack" = "done $_tag" ]
}

# head_of CONNECTOR: the virtio-gpu scanout (QEMU head) of a connector:
# DP-1 is head 0 (mmx names the virtio outputs DP-N in scanout order).
head_of() {
	_n=${1##*-}
	echo $((_n - 1))
}
