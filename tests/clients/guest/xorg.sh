#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Xorg with the modesetting driver on mmx, driven by xrandr: the server
# starts and stays up; `xrandr --verbose` shows the RandR 1.3 connector
# properties with the values KMS has (modetest); mode, rotation, transform,
# panning, framebuffer size, off/on and SignalFormat changes succeed, and
# the composed frame's CRC equals the CRC of the X server's own picture of
# the screen (xwd -root) cut, mirrored and turned the way RandR says; on the
# virtio backend QEMU's screendump of the head must be that picture too.
#
# Usage: xorg.sh   (in the guest; logs in /out/xorg)
MMX_CLIENT=xorg
export MMX_CLIENT
. "$(dirname "$0")/lib.sh"
# shellcheck source=xorg_start.sh
. "$(dirname "$0")/xorg_start.sh"
require_mmx

PIC=mmx-clients-pic
status=0

x_alive() {
	kill -0 "$xpid" 2>/dev/null && xdpyinfo >/dev/null 2>&1
}

# Xorg :1 on vt2 (xorg_start.sh); -nocursor: no cursor plane in the
# pictures compared. A timeout that ends this script ends the server too,
# as does the trap.
xorg_start "$CARD" "$LOG" -nocursor
trap 'kill "$xpid" 2>/dev/null; exit 143' TERM INT
if ! xorg_wait 900; then
	subtest xorg-start FAIL "server not answering; see $LOG"
	tail -n 30 "$LOG/Xorg.1.log" 2>/dev/null
	kill "$xpid" 2>/dev/null
	exit 1
fi
subtest xorg-start SUCCESS

# ---------------------------------------------------------------------------
# Properties: what xrandr --verbose shows equals what KMS has.

xrandr --verbose >"$LOG/xrandr-verbose.txt" 2>&1
modetest -M mmx -c >"$LOG/modetest-c.txt" 2>&1

# NAME=VALUE lines for the RandR 1.3 properties of every connector, from
# modetest (enum values turned into their names) and from xrandr.
props_modetest() {
	awk '
		/^[0-9]+\t[0-9]*\t(connected|disconnected|unknown)/ { conn = $4; next }
		/^(CRTCs|Planes|Encoders):/ { conn = "" }
		conn != "" && /^\t[0-9]+ [A-Za-z-]+:$/ {
			name = $2; sub(/:$/, "", name); split("", en); next
		}
		conn != "" && /^\t\tenums:/ {
			for (i = 2; i <= NF; i++) { k = $i; v = k; sub(/=.*/, "", k); sub(/.*=/, "", v); en[v] = k }
		}
		conn != "" && /^\t\tvalue: / && name ~ /^(ConnectorType|ConnectorNumber|SignalFormat|SignalProperties)$/ {
			v = $2; if (v in en) v = en[v]
			print conn " " name "=" v
		}
	' "$1"
}
props_xrandr() {
	awk '
		/^[^ \t].* (connected|disconnected|unknown connection)/ { conn = $1; next }
		/^[^ \t]/ { conn = "" }
		conn != "" && /^\t(ConnectorType|ConnectorNumber|SignalFormat|SignalProperties): / {
			name = $1; sub(/:$/, "", name); sub(/^\t/, "", name)
			print conn " " name "=" $2
		}
	' "$1"
}
props_modetest "$LOG/modetest-c.txt" | sort >"$LOG/props-kms.txt"
props_xrandr "$LOG/xrandr-verbose.txt" | sort >"$LOG/props-randr.txt"
for p in ConnectorType ConnectorNumber SignalFormat SignalProperties; do
	if ! grep -q " $p=" "$LOG/props-kms.txt"; then
		subtest "xrandr-prop-$p" SKIP "mmx has no $p"
	elif ! grep -q " $p=" "$LOG/props-randr.txt"; then
		subtest "xrandr-prop-$p" FAIL "xrandr --verbose does not list it"
		status=1
	elif grep " $p=" "$LOG/props-kms.txt" >"$LOG/want.txt" &&
	     grep " $p=" "$LOG/props-randr.txt" >"$LOG/got.txt" &&
	     cmp -s "$LOG/want.txt" "$LOG/got.txt"; then
		subtest "xrandr-prop-$p" SUCCESS
	else
		subtest "xrandr-prop-$p" FAIL "KMS: $(tr '\n' ' ' <"$LOG/want.txt")RandR: $(tr '\n' ' ' <"$LOG/got.txt")"
		status=1
	fi
done

# ---------------------------------------------------------------------------
# Pictures. The screen: a tile that looks different in every orientation.

cat >/tmp/tile.xbm <<'EOF'
#define tile_width 16
#define tile_height 16
static unsigned char tile_bits[] = {
   0xff, 0x01, 0x01, 0x00, 0x01, 0x00, 0x3d, 0x00, 0x05, 0x00, 0x09, 0x00,
   0x11, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x0c,
   0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 };
EOF
xsetroot -bitmap /tmp/tile.xbm -fg '#d02010' -bg '#1040c0'

# The first connected output (modesetting names match the kernel's).
out=$(awk '/^[^ \t].* connected/ { print $1; exit }' "$LOG/xrandr-verbose.txt")
if [ -z "$out" ]; then
	subtest xrandr-output FAIL "no connected output in xrandr"
	kill "$xpid"
	exit 1
fi

# geometry OUTPUT: "W H X Y" of the output's CRTC in screen coordinates.
geometry() {
	xrandr >/tmp/xrandr.txt 2>&1
	awk -v o="$1" '$1 == o {
		for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+x[0-9]+\+[0-9]+\+[0-9]+$/) {
			split($i, a, /[x+]/); print a[1], a[2], a[3], a[4]; exit
		}
	}' /tmp/xrandr.txt
}

# picture_check NAME OUTPUT [--reflect-x] [--rotate R]: the CRTC of OUTPUT
# shows the X screen's part under it, transformed as given.
n=0
picture_check() {
	_name=$1 _out=$2
	shift 2
	n=$((n + 1))
	# shellcheck disable=SC2046 # words, split on purpose
	set -- $(geometry "$_out") "$@"
	if [ $# -lt 4 ]; then
		subtest "$_name" FAIL "$_out has no CRTC in xrandr"
		status=1
		return 1
	fi
	_geom=$3,$4,$1,$2
	shift 4
	_crtc=$(crtc_of "$_out")
	if [ -z "$_crtc" ]; then
		subtest "$_name" FAIL "$_out has no CRTC in the KMS state"
		status=1
		return 1
	fi
	# the CRTC's viewport when panning: KMS's source position, mode size
	if [ "${1:-}" = --panned ]; then
		shift
		# shellcheck disable=SC2046 # words, split on purpose
		set -- $(plane_src "$_crtc") $(crtc_mode "$_crtc" | tr x ' ') "$@"
		_geom=$1,$2,$3,$4
		shift 4
	fi
	_xwd=/tmp/$n-$_name.xwd
	xwd -root -silent >"$_xwd"
	_want=$($PIC crc "$_xwd" --crop "$_geom" "$@") || {
		subtest "$_name" FAIL "cannot compute the expected CRC"
		status=1
		return 1
	}
	if wait_crc "$_crtc" "$_want"; then
		subtest "$_name" SUCCESS
		# virtio: QEMU's picture of the head is that frame as well.
		# Not when rotated: modesetting draws a rotated CRTC into a
		# shadow framebuffer and sends no DirtyFB for it, so a device
		# that is told what changed (virtio-gpu, with any driver)
		# keeps the picture of the modeset; the CRC above judges mmx.
		_dump=$BACKEND
		case " $* " in
		*" --rotate left "*|*" --rotate inverted "*|*" --rotate right "*)
			_dump=no
			;;
		esac
		if [ "$_dump" = virtio ] &&
		   $PIC ppm "$_xwd" "$LOG/$_name.want.ppm" --crop "$_geom" "$@"; then
			screendump "$_name" "$(head_of "$_out")" ||
				rm -f "$LOG/$_name.want.ppm"
		fi
		rm -f "$_xwd"
		return 0
	fi
	mv "$_xwd" "$LOG/"
	subtest "$_name" FAIL "crtc-$_crtc CRC $(cat "$LOG/last-crc"), want 0x$_want for $_geom $*"
	status=1
	return 1
}

# xr NAME ARGS...: run `xrandr ARGS`; the server must survive it.
xr() {
	_name=$1
	shift
	if ! xrandr "$@" >"$LOG/xrandr-$_name.txt" 2>&1; then
		subtest "$_name" FAIL "xrandr $* failed: $(head -c 300 "$LOG/xrandr-$_name.txt")"
		status=1
		return 1
	fi
	if ! x_alive; then
		subtest "$_name" FAIL "the server died after xrandr $*"
		status=1
		return 1
	fi
	return 0
}

picture_check xrandr-initial "$out"

# --mode: another mode of the output's list.
mode=$(awk -v o="$out" '
	$1 == o { on = 1; next }
	/^[^ \t]/ { on = 0 }
	on && $1 ~ /^[0-9]+x[0-9]+$/ && $0 !~ /current/ && $1 == "800x600" { m = $1 }
	on && $1 ~ /^[0-9]+x[0-9]+$/ && $0 !~ /current/ && other == "" { other = $1 }
	END { print (m != "" ? m : other) }' "$LOG/xrandr-verbose.txt")
if [ -z "$mode" ]; then
	subtest xrandr-mode SKIP "$out has a single mode"
elif xr xrandr-mode --output "$out" --mode "$mode"; then
	crtc=$(crtc_of "$out")
	got=$(crtc_mode "$crtc")
	cp "$DRI/state" "$LOG/state-mode.txt"
	if [ "$got" != "$mode" ]; then
		subtest xrandr-mode FAIL "KMS mode '$got', want $mode"
		status=1
	else
		picture_check xrandr-mode "$out"
	fi
fi

for r in left inverted right normal; do
	xr "xrandr-rotate-$r" --output "$out" --rotate "$r" &&
		picture_check "xrandr-rotate-$r" "$out" --rotate "$r"
done

# shellcheck disable=SC2046 # words, split on purpose
set -- $(geometry "$out")
w=${1:-0}
if xr xrandr-transform --output "$out" --transform "-1,0,$w,0,1,0,0,0,1"; then
	picture_check xrandr-transform "$out" --reflect-x
	xr xrandr-transform-none --output "$out" --transform none
fi

# shellcheck disable=SC2046 # words, split on purpose
set -- $(geometry "$out")
pw=$((${1:-0} + 256))
ph=$((${2:-0} + 128))
if xr xrandr-panning --output "$out" --panning "${pw}x${ph}"; then
	xsetroot -bitmap /tmp/tile.xbm -fg '#d02010' -bg '#1040c0'
	picture_check xrandr-panning "$out" --panned
	xr xrandr-panning-off --output "$out" --panning 0x0
fi

# shellcheck disable=SC2046 # words, split on purpose
set -- $(geometry "$out")
fw=$((${1:-0} + 320))
fh=$((${2:-0} + 200))
if xr xrandr-fb --fb "${fw}x${fh}"; then
	xsetroot -bitmap /tmp/tile.xbm -fg '#d02010' -bg '#1040c0'
	picture_check xrandr-fb "$out"
fi

# --off: the connector leaves its CRTC, which goes inactive; --auto brings
# it back.
if xr xrandr-off --output "$out" --off; then
	if [ -z "$(crtc_of "$out")" ]; then
		subtest xrandr-off SUCCESS
	else
		subtest xrandr-off FAIL "$out still on crtc-$(crtc_of "$out") in KMS"
		status=1
	fi
	xr xrandr-auto --output "$out" --auto && picture_check xrandr-auto "$out"
fi

# --set SignalFormat: every value the output offers, one after the other;
# RandR and KMS agree and the picture stays.
formats=$(awk -v o="$out" '
	$1 == o { on = 1; next }
	/^[^ \t]/ { on = 0 }
	on && /^\tSignalFormat:/ { getline; if ($1 == "supported:") { $1 = ""; gsub(/,/, " "); print } ; exit }
' "$LOG/xrandr-verbose.txt")
count=$(echo $formats | wc -w)
if [ "$count" -lt 2 ]; then
	subtest xrandr-set-SignalFormat SKIP "$out offers '${formats:-no}' SignalFormat"
else
	for f in $formats $(echo $formats | cut -d' ' -f1); do
		xr "xrandr-set-SignalFormat-$f" --output "$out" --set SignalFormat "$f" || continue
		xrandr --verbose >"$LOG/xrandr-verbose-$f.txt" 2>&1
		modetest -M mmx -c >"$LOG/modetest-c-$f.txt" 2>&1
		randr=$(props_xrandr "$LOG/xrandr-verbose-$f.txt" | grep "^$out SignalFormat=")
		kms=$(props_modetest "$LOG/modetest-c-$f.txt" | grep "^$out SignalFormat=")
		if [ "$randr" = "$out SignalFormat=$f" ] && [ "$kms" = "$randr" ]; then
			picture_check "xrandr-set-SignalFormat-$f" "$out"
		else
			subtest "xrandr-set-SignalFormat-$f" FAIL "RandR '$randr', KMS '$kms'"
			status=1
		fi
	done
fi

# ---------------------------------------------------------------------------
# The server is still up, and goes down cleanly.

if x_alive; then
	subtest xorg-still-up SUCCESS
else
	subtest xorg-still-up FAIL "see $LOG/Xorg.1.log"
	status=1
fi
kill "$xpid" 2>/dev/null
wait "$xpid"
xstatus=$?
if grep -qE 'Segmentation fault|Backtrace|Fatal server error' "$LOG/Xorg.1.log"; then
	subtest xorg-exit FAIL "$(grep -m1 -E 'Segmentation fault|Backtrace|Fatal server error' "$LOG/Xorg.1.log")"
	status=1
else
	subtest xorg-exit SUCCESS "exit $xstatus"
fi
exit $status
