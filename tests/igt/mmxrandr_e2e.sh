#!/bin/sh
# SPDX-License-Identifier: MIT
#
# mmxrandr_e2e - mmxd + mmxrandr end to end, run in the test guest (busybox
# sh) with mmx loaded by the harness with its default outputs (eDP-1,
# VGA-1). Needs mmxd, mmxrandr and mmx_capture_check on PATH.
#
# Subtests (printed as "Subtest NAME: SUCCESS|FAIL|SKIP"):
#   query-layout       the query is xrandr's layout: Screen line, output
#                      lines, mode lines with one '*' per lit output;
#                      --current prints the same; --verbose and --prop blocks
#   mode-placement     --mode, --right-of/--left-of/--below/--same-as and
#                      xrandr's shift to 0,0, read back from the query; the
#                      screen follows the lit outputs
#   capture-pattern    writeback captures of both outputs show the screen
#                      pattern at their positions
#   transform-capture  --transform, --scale-from and --rotate inverted:
#                      captured pixels equal the pattern mapped by the
#                      matrix (nearest); --transform none reads back as the
#                      identity
#   keystone           --keystone prints its matrix, --verbose shows it, the
#                      capture follows it
#   panning-pointer    --panning then --pointer moves give RandR 1.3's
#                      offsets (query, --verbose Panning lines, capture)
#   fb-growth          --fb grows the screen keeping the picture (captures
#                      before and after equal); the new area is black
#   set-property       --set SignalProperties round trip via --verbose; a
#                      link that cannot carry the mode is refused, unchanged
#   bad-options        bad options, names, values and requests print their
#                      message (+ the Try line for usage errors), exit 1, and
#                      mmxd keeps serving with an unchanged --verbose
#   dryrun             --dryrun prints xrandr's crtc lines, changes nothing
#   hold-mmxd          --hold with mmxd says it has no effect and returns
#   local-hold         without mmxd, --hold keeps a mode up on the device
#                      until SIGTERM (debugfs state), then it goes away
#
# Usage: mmxrandr_e2e [--list] [--subtest NAME[,NAME...]] [--keep DIR]

only=
keep=
failed=0
SOCK=/tmp/mmxd-e2e.sock
T=/tmp/mmxrandr_e2e.$$
ALL="query-layout mode-placement capture-pattern transform-capture keystone
panning-pointer fb-growth set-property bad-options dryrun hold-mmxd local-hold"

# subtest helpers: other_option, wanted, start, result, msg
lib=$(dirname "$0")/mmx_igt_lib; [ -f "$lib" ] || lib=$lib.sh; . "$lib"

while [ $# -gt 0 ]; do
	case $1 in
	--subtest) only=$2; shift ;;
	--keep) keep=$2; shift ;;
	*) other_option mmxrandr_e2e "$ALL" "$1" ;;
	esac
	shift
done

fail() {
	msg "$*"
	st=FAIL
}

mkdir -p "$T"
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	[ -n "$mmxd_pid" ] && kill "$mmxd_pid" 2>/dev/null && wait "$mmxd_pid"
	[ -n "$keep" ] && mkdir -p "$keep" && cp "$T"/* "$keep"/ 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

# Run mmxrandr, keep stdout/stderr in $T/out and $T/err; show both
# (indented, so that nothing counts as a subtest line) when it fails.
mr() {
	mmxrandr "$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc != 0 ]; then
		msg "'mmxrandr $*' exited $rc:"
		sed 's/^/    | /' "$T/out" "$T/err" | tail -n 20 >&2
	fi
	return $rc
}

# "W H X Y" of a lit output, from the query
geom() {
	mmxrandr --current | awk -v o="$1" '
		$1 == o && $2 == "connected" {
			for (i = 3; i <= NF; i++)
				if ($i ~ /^[0-9]+x[0-9]+[+-][0-9]+[+-][0-9]+$/) {
					split($i, a, /[x+]/)
					print a[1], a[2], a[3], a[4]; exit
				}
		}'
}

# "W H" of the screen
screen_size() {
	mmxrandr --current | awk 'NR == 1 { print $8, $10 }' | tr -d ,
}

expect_geom() {
	g=$(geom "$1")
	[ "$g" = "$2" ] || fail "$1 at '$g', want '$2'"
}

expect_screen() {
	s=$(screen_size)
	[ "$s" = "$1" ] || fail "screen '$s', want '$1'"
}

# The mode of an output: 640x480 if it has one, else its smallest.
small_mode() {
	mmxrandr --current | awk -v o="$1" '
		/^[^ ]/ { cur = ($1 == o) }
		cur && /^   [0-9]+x[0-9]+ / {
			split($1, a, "x"); n = a[1] * a[2]
			if ($1 == "640x480") { best = $1; bn = -1 }
			else if (bn != -1 && (best == "" || n < bn)) { best = $1; bn = n }
		}
		END { print best }'
}

capture() {
	mr --capture "$1" "$T/$2.ppm"
}

check() {
	out=$(mmx_capture_check "$@" 2>&1)
	rc=$?
	echo "$out" | sed 's/^/    /'
	[ $rc = 0 ] || fail "capture check '$1' failed"
}

# ---------------------------------------------------------------------------
mmxd --socket "$SOCK" >"$T/mmxd.log" 2>&1 &
mmxd_pid=$!
export MMX_SOCKET=$SOCK
i=0
while ! mmxrandr -d "unix:$SOCK" --current >/dev/null 2>&1; do
	i=$((i + 1))
	if [ $i -gt 50 ]; then
		echo "mmxrandr_e2e: mmxd does not answer at $SOCK" >&2
		cat "$T/mmxd.log" >&2
		exit 1
	fi
	sleep 0.2
done

VM=$(small_mode VGA-1)
VW=${VM%x*}
VH=${VM#*x}
mr --output eDP-1 --preferred --pos 0x0 --output VGA-1 --mode "$VM" \
	--right-of eDP-1 || { echo "mmxrandr_e2e: cannot set up" >&2; exit 1; }
# shellcheck disable=SC2046 # "W H X Y" split on purpose
set -- $(geom eDP-1)
EW=$1
EH=$2
# VGA-1's place in the base configuration: inside eDP-1's area
VX=$(((EW - VW) / 2))
VY=$(((EH - VH) / 2))
if [ $VX -lt 0 ] || [ $VY -lt 0 ]; then
	echo "mmxrandr_e2e: eDP-1 smaller than VGA-1" >&2
	exit 1
fi
echo "  eDP-1 ${EW}x${EH}, VGA-1 $VM"

# The base configuration: eDP-1 at 0,0, VGA-1 inside it at VX,VY, no
# transforms, the screen eDP-1's size. Pattern checks only look at the
# screen area (0,0)-(EW,EH): it has been part of the screen since mmxd drew
# its pattern (mmxd lights the outputs at their preferred modes at 0,0),
# while areas a smaller screen dropped come back black when it grows.
base() {
	mr --output eDP-1 --preferred --pos 0x0 --rotate normal --transform none \
		--panning 0x0 --output VGA-1 --mode "$VM" --pos ${VX}x$VY \
		--rotate normal --transform none --panning 0x0 --fb ${EW}x$EH ||
		fail "cannot restore the base configuration"
}

# ---------------------------------------------------------------------------
if wanted query-layout; then
	start query-layout "the query has xrandr's layout; --current prints the same; --verbose and --prop blocks"
	mr >"$T/q0" || fail "query failed"
	cp "$T/out" "$T/q"
	head -n 1 "$T/q" | grep -qE '^Screen 0: minimum [0-9]+ x [0-9]+, current [0-9]+ x [0-9]+, maximum [0-9]+ x [0-9]+$' ||
		fail "bad Screen line: $(head -n 1 "$T/q")"
	bad=$(grep -vE '^Screen 0: |^[A-Za-z]+-[0-9]+ (connected|disconnected|unknown connection)( |$)|^   [0-9]+x[0-9]+i? +( +[0-9]+\.[0-9][0-9][ *][ +])+$' "$T/q")
	[ -z "$bad" ] || fail "lines out of xrandr's layout: $bad"
	grep -qE "^eDP-1 connected ${EW}x${EH}\\+0\\+0 \\(normal left inverted right x axis y axis\\) [0-9]+mm x [0-9]+mm$" "$T/q" ||
		fail "no eDP-1 line: $(grep eDP-1 "$T/q")"
	grep -qE "^VGA-1 connected ${VM}\\+${EW}\\+0 \\(" "$T/q" ||
		fail "no VGA-1 line: $(grep VGA-1 "$T/q")"
	[ "$(grep -c '\*' "$T/q")" = 2 ] || fail "not one '*' per lit output"
	grep -qE "^   $VM +.*[0-9]\\*" "$T/q" || fail "VGA-1's current mode unmarked"
	# what scripts do with xrandr's output
	outs=$(awk '/ connected/ { printf "%s ", $1 }' "$T/q")
	[ "$outs" = "eDP-1 VGA-1 " ] || fail "connected outputs '$outs'"
	mr --current && cmp -s "$T/out" "$T/q" || fail "--current differs"
	mr --verbose || fail "--verbose failed"
	v=$T/out
	for pat in '^eDP-1 connected .* \(0x[0-9a-f]+\) normal \(normal left inverted right x axis y axis\)' \
		   '^	Identifier: 0x[0-9a-f]+$' '^	Timestamp:  [0-9]+$' \
		   '^	Subpixel:   unknown$' '^	CRTC:       [0-9]+$' \
		   '^	CRTCs:      [0-9]' '^	Transform:  1\.000000 0\.000000 0\.000000$' \
		   '^	           filter: nearest$' '^	EDID: $' \
		   '^	SignalFormat: VGA $' '^		supported: VGA$' \
		   '^	ConnectorNumber: [0-9] $' '^		range: \(0, 8\)$' \
		   '^  [0-9]+x[0-9]+ \(0x[0-9a-f]+\) +[0-9]+\.[0-9]{3}MHz.* \*current \+preferred$' \
		   '^        h: width +[0-9]+ start +[0-9]+ end +[0-9]+ total +[0-9]+ skew +[0-9]+ clock +[0-9.]+KHz$' \
		   '^        v: height +[0-9]+ start +[0-9]+ end +[0-9]+ total +[0-9]+ +clock +[0-9.]+Hz$'; do
		grep -qE "$pat" "$v" || fail "--verbose has no line like '$pat'"
	done
	# EDID: 128-byte blocks as 8 lines of 32 hex digits each
	n=$(awk '/^\tEDID: $/ { e = 1; next } e && /^\t\t[0-9a-f]{32}$/ { n++; next } { e = 0 } END { print n + 0 }' "$v")
	[ $((n % 8)) = 0 ] && [ "$n" -ge 16 ] || fail "EDID hex lines: $n"
	[ "$(grep -c '\*current' "$v")" = 2 ] || fail "*current count"
	mr --prop || fail "--prop failed"
	grep -q '^	EDID: $' "$T/out" && grep -q '^		supported: ' "$T/out" ||
		fail "--prop has no properties"
	grep -q 'h: width' "$T/out" && fail "--prop prints verbose modes"
	grep -qE "^   $VM " "$T/out" || fail "--prop lost the mode lines"
	result query-layout
fi

# ---------------------------------------------------------------------------
if wanted mode-placement; then
	start mode-placement "--mode and relative placement read back from the query, with xrandr's shift to 0,0"
	base
	expect_geom eDP-1 "$EW $EH 0 0"
	expect_geom VGA-1 "$VW $VH $VX $VY"
	expect_screen "$EW $EH"
	mr --output VGA-1 --left-of eDP-1 || fail "left-of"
	expect_geom VGA-1 "$VW $VH 0 0"
	expect_geom eDP-1 "$EW $EH $VW 0"
	mr --output VGA-1 --below eDP-1 || fail "below"
	expect_geom eDP-1 "$EW $EH 0 0"
	expect_geom VGA-1 "$VW $VH 0 $EH"
	expect_screen "$EW $((EH + VH))"
	mr --output VGA-1 --same-as eDP-1 || fail "same-as"
	expect_geom VGA-1 "$VW $VH 0 0"
	expect_screen "$EW $EH"
	mr --output VGA-1 --right-of eDP-1 || fail "right-of"
	expect_geom VGA-1 "$VW $VH $EW 0"
	expect_screen "$((EW + VW)) $EH"
	mr --output VGA-1 --off || fail "off"
	mmxrandr --current | grep -qE '^VGA-1 connected \(' ||
		fail "VGA-1 still lit: $(mmxrandr --current | grep VGA-1)"
	mr --output VGA-1 --mode "$VM" --rate 59.94 --right-of eDP-1 --primary ||
		fail "mode with rate"
	expect_geom VGA-1 "$VW $VH $EW 0"
	mmxrandr --current | grep -q '^VGA-1 connected primary ' ||
		fail "VGA-1 not primary"
	mr --noprimary || fail "noprimary"
	mmxrandr --current | grep -q ' primary ' && fail "a primary is left"
	result mode-placement
fi

# ---------------------------------------------------------------------------
if wanted capture-pattern; then
	start capture-pattern "captures of both outputs show the screen pattern at their positions"
	base
	capture eDP-1 edp && check size "$T/edp.ppm" "$EW" "$EH"
	check pattern "$T/edp.ppm" 0 0 "$EW" "$EH"
	capture VGA-1 vga && check size "$T/vga.ppm" "$VW" "$VH"
	check pattern "$T/vga.ppm" "$VX" "$VY" "$EW" "$EH"
	result capture-pattern
fi

# ---------------------------------------------------------------------------
if wanted transform-capture; then
	start transform-capture "--transform, --scale-from and --rotate captures equal the pattern mapped by the matrix"
	base
	M=0.5,0,100.1,0,0.5,50.1,0,0,1
	mr --output VGA-1 --transform $M --filter nearest || fail "transform"
	mmxrandr --verbose --current | grep -A2 '^	Transform:  0.500000 0.000000 100.100000$' |
		grep -q '0.000000 0.500000 50.100000' ||
		fail "--verbose does not show the transform"
	capture VGA-1 t1 && check transform "$T/t1.ppm" $M "$VX" "$VY"
	mr --output VGA-1 --scale-from $((VW / 2))x$((VH / 2)) --filter nearest ||
		fail "scale-from"
	capture VGA-1 t2 && check transform "$T/t2.ppm" 0.5,0,0,0,0.5,0,0,0,1 "$VX" "$VY"
	mr --output VGA-1 --transform none --rotate inverted || fail "rotate"
	mmxrandr --current | grep -qE "^VGA-1 connected ${VM}\\+${VX}\\+${VY} inverted \\(" ||
		fail "no 'inverted' in the query"
	capture VGA-1 t3 && check transform "$T/t3.ppm" "-1,0,$VW,0,-1,$VH,0,0,1" "$VX" "$VY"
	mr --output VGA-1 --rotate normal --reflect x || fail "reflect"
	capture VGA-1 t4 && check transform "$T/t4.ppm" "-1,0,$VW,0,1,0,0,0,1" "$VX" "$VY"
	mr --output VGA-1 --reflect normal --transform none || fail "none"
	mmxrandr --verbose --current | awk '/^VGA-1 /{v=1} v && /Transform:/ {print; getline; print; getline; print; exit}' >"$T/xf"
	printf '\tTransform:  1.000000 0.000000 0.000000\n\t            0.000000 1.000000 0.000000\n\t            0.000000 0.000000 1.000000\n' >"$T/id"
	cmp -s "$T/xf" "$T/id" || fail "--transform none is not the identity: $(cat "$T/xf")"
	capture VGA-1 t5 && check pattern "$T/t5.ppm" "$VX" "$VY"
	result transform-capture
fi

# ---------------------------------------------------------------------------
if wanted keystone; then
	start keystone "--keystone prints the matrix it applies; the capture follows it"
	base
	mr --output VGA-1 --keystone 20,10,$((VW - 10)),0,0,$((VH - 20)),$VW,$VH \
		--filter nearest || fail "keystone"
	K=$(sed -n 's/^keystone matrix: //p' "$T/out")
	echo "  keystone matrix: $K"
	echo "$K" | grep -qE '^([-0-9.e+]+,){8}[-0-9.e+]+$' || fail "no matrix printed"
	# --verbose shows the same matrix (%f)
	want=$(echo "$K" | awk -F, '{ printf "%f %f %f\n%f %f %f\n%f %f %f\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }')
	got=$(mmxrandr --verbose --current | awk '/^VGA-1 /{v=1} v && /Transform:/ { sub(/.*Transform: +/, ""); print; getline; sub(/^[ \t]+/, ""); print; getline; sub(/^[ \t]+/, ""); print; exit }')
	[ "$got" = "$want" ] || fail "--verbose transform '$got', want '$want'"
	mmxrandr --verbose --current | awk '/^VGA-1 /{v=1} v && /filter:/ { print; exit }' |
		grep -q 'filter: nearest$' || fail "the filter is not nearest"
	capture VGA-1 k && check transform "$T/k.ppm" "$K" "$VX" "$VY" "$EW" "$EH"
	mr --output VGA-1 --keystone 0,0,100,100,200,200,300,300 &&
		fail "a degenerate keystone was accepted"
	result keystone
fi

# ---------------------------------------------------------------------------
if wanted panning-pointer; then
	start panning-pointer "--panning then --pointer moves give RandR 1.3's offsets"
	base
	mr --output VGA-1 --same-as eDP-1 --panning ${EW}x${EH}+0+0 --fb ${EW}x${EH} ||
		fail "panning"
	mmxrandr --current | grep -qE "^VGA-1 connected ${VM}\\+0\\+0 .* panning ${EW}x${EH}\\+0\\+0$" ||
		fail "no panning in the query: $(mmxrandr --current | grep VGA-1)"
	mmxrandr --verbose --current | grep -q "^	Panning:    ${EW}x${EH}+0+0$" ||
		fail "no Panning line"
	mmxrandr --verbose --current | grep -q '^	Tracking:   0x0+0+0$' ||
		fail "no Tracking line"
	mmxrandr --verbose --current | grep -q '^	Border:     0/0/0/0$' ||
		fail "no Border line"
	# past the bottom right: the pointer ends on the CRTC's last pixel
	px=$((EW - 280))
	py=$((EH - 100))
	mr --pointer $px,$py || fail "pointer"
	ox=$((px - VW + 1))
	oy=$((py - VH + 1))
	expect_geom VGA-1 "$VW $VH $ox $oy"
	capture VGA-1 p1 && check pattern "$T/p1.ppm" $ox $oy
	# far away: clipped to the panning area
	mr --pointer 5000,5000 || fail "pointer 2"
	expect_geom VGA-1 "$VW $VH $((EW - VW)) $((EH - VH))"
	capture VGA-1 p2 && check pattern "$T/p2.ppm" $((EW - VW)) $((EH - VH))
	# back to the top left, in two moves
	mr --pointer 10,$((EH - 1)) --pointer 0,0 || fail "pointer 3"
	expect_geom VGA-1 "$VW $VH 0 0"
	# inside the CRTC: no move
	mr --pointer 100,100 || fail "pointer 4"
	expect_geom VGA-1 "$VW $VH 0 0"
	# eDP-1 has no panning and does not move
	expect_geom eDP-1 "$EW $EH 0 0"
	result panning-pointer
fi

# ---------------------------------------------------------------------------
if wanted fb-growth; then
	start fb-growth "--fb grows the screen and keeps the picture; the new area is black"
	base
	capture eDP-1 g0
	mr --fb $((2 * EW))x$((2 * EH)) || fail "fb"
	expect_screen "$((2 * EW)) $((2 * EH))"
	capture eDP-1 g1 && check same "$T/g0.ppm" "$T/g1.ppm"
	# VGA-1 wholly in the new area (x >= old width, y >= old height)
	mr --output VGA-1 --pos $((EW + VW))x$EH || fail "pos"
	capture VGA-1 g2 && check pattern "$T/g2.ppm" $((EW + VW)) "$EH" $((EW + VW)) "$EH"
	mr --fb $((EW + VW))x$((EH + VH)) --output VGA-1 --pos ${EW}x0 || fail "fb shrink"
	expect_screen "$((EW + VW)) $((EH + VH))"
	capture eDP-1 g3 && check same "$T/g0.ppm" "$T/g3.ppm"
	mr --fb 100000x10 && fail "a 100000-wide screen was accepted"
	result fb-growth
fi

# ---------------------------------------------------------------------------
if wanted set-property; then
	start set-property "--set round trips through --verbose; a value the link cannot carry changes nothing"
	base
	sp() {
		mmxrandr --verbose --current | awk -v o="$1" -v p="$2" '
			/^[^ \t]/ { cur = ($1 == o) }
			cur && $1 == p":" { sub(/^[ \t]*[^ ]+: /, ""); print; exit }'
	}
	[ "$(sp eDP-1 SignalProperties)" = "Lane4+HiSpeed " ] ||
		msg "eDP-1 SignalProperties starts as '$(sp eDP-1 SignalProperties)'"
	mr --output eDP-1 --set SignalProperties Lane2+HiSpeed || fail "set"
	[ "$(sp eDP-1 SignalProperties)" = "Lane2+HiSpeed " ] ||
		fail "SignalProperties '$(sp eDP-1 SignalProperties)'"
	# VGA has one format: its SignalFormat is immutable
	mr --output VGA-1 --set SignalFormat VGA &&
		fail "an immutable SignalFormat was set"
	[ "$(sp VGA-1 SignalFormat)" = "VGA " ] || fail "SignalFormat '$(sp VGA-1 SignalFormat)'"
	mmxrandr --verbose --current >"$T/before"
	# one lane at low speed cannot carry the panel's mode: refused
	mr --output eDP-1 --set SignalProperties Lane1+LowSpeed &&
		fail "a link too slow for the mode was accepted"
	grep -q '^mmxrandr: ' "$T/err" || fail "no message"
	grep -q "Try 'mmxrandr --help'" "$T/err" && fail "Try line for an apply error"
	mmxrandr --verbose --current >"$T/after"
	cmp -s "$T/before" "$T/after" || fail "the refused --set changed something"
	mr --output eDP-1 --set SignalProperties Lane4+HiSpeed || fail "restore"
	[ "$(sp eDP-1 SignalProperties)" = "Lane4+HiSpeed " ] || fail "restore readback"
	result set-property
fi

# ---------------------------------------------------------------------------
if wanted bad-options; then
	start bad-options "bad command lines print their message and the Try line, exit 1, change nothing; mmxd keeps serving"
	base
	mmxrandr --verbose --current >"$T/before" || fail "query"
	while IFS='|' read -r args want; do
		[ -n "$args" ] || continue
		# shellcheck disable=SC2086 # split on purpose
		mmxrandr $args >"$T/out" 2>"$T/err"
		rc=$?
		[ $rc = 1 ] || fail "'$args' exited $rc"
		first=$(head -n 1 "$T/err")
		[ "$first" = "mmxrandr: $want" ] ||
			fail "'$args': '$first', want 'mmxrandr: $want'"
		[ "$(tail -n 1 "$T/err")" = "Try 'mmxrandr --help' for more information." ] ||
			fail "'$args': no Try line"
		[ -s "$T/out" ] && fail "'$args' printed on stdout"
	done <<'EOF'
--output VGA-1 --rotate up|--rotate: invalid argument 'up'
--mode 640x480|--mode must be used after --output
--output VGA-1 --transform 1,2,3|failed to parse '1,2,3' as a transformation
--output VGA-1 --panning 10x10+1|--panning: invalid argument '10x10+1'
--output VGA-1 --filter cubic|Bad argument: cubic, for a filter
--bogus|unrecognized option '--bogus'
--output FOO --off|cannot find output "FOO"
--output VGA-1 --mode 123x45|cannot find mode 123x45
--output VGA-1 --off --output eDP-1 --left-of NOWHERE|cannot find output "NOWHERE"
--output VGA-1 --off --output eDP-1 --set NoSuchProperty 1|output eDP-1 has no property "NoSuchProperty"
--output VGA-1 --off --output eDP-1 --set ConnectorType VGA|property "ConnectorType" of output eDP-1 is immutable
--output VGA-1 --set SignalFormat TMDS|property "SignalFormat" of output VGA-1 is immutable
--output eDP-1 --set SignalProperties Lane3+HiSpeed|invalid value "Lane3+HiSpeed" for property "SignalProperties" of output eDP-1
--output VGA-1 --transform 1,0,0,0,0,0,0,0,1|output VGA-1: the transform is singular
--output eDP-1 --left-of VGA-1 --output VGA-1 --left-of eDP-1|loop in relative position specifications
--fb 100000x100000|screen cannot be larger than 16384x16384 (desired size 100000x100000)
EOF
	# an apply error (the kernel refuses a panning area narrower than
	# the CRTC): the library's message, no Try line
	mr --output VGA-1 --panning 100x100 && fail "a 100x100 panning area was accepted"
	grep -q '^mmxrandr: ' "$T/err" || fail "no apply error message"
	mmxrandr --verbose --current >"$T/after" || fail "mmxd stopped answering"
	cmp -s "$T/before" "$T/after" || { fail "configuration changed:"; diff "$T/before" "$T/after" | head -n 20 >&2; }
	kill -0 "$mmxd_pid" 2>/dev/null || fail "mmxd died"
	mr --help && grep -q -- '--keystone' "$T/out" || fail "--help"
	result bad-options
fi

# ---------------------------------------------------------------------------
if wanted dryrun; then
	start dryrun "--dryrun prints xrandr's crtc lines and changes nothing"
	base
	mmxrandr --verbose --current >"$T/before"
	mr --dryrun --output VGA-1 --off --output eDP-1 --pos 10x0 || fail "dryrun"
	grep -qE '^crtc [0-9]+: disable$' "$T/out" || fail "no disable line: $(cat "$T/out")"
	grep -qE "^crtc [0-9]+: +${EW}x${EH} +[0-9.]+ \\+0\\+0 \"eDP-1\"$" "$T/out" ||
		fail "no eDP-1 line: $(cat "$T/out")"
	mmxrandr --verbose --current >"$T/after"
	cmp -s "$T/before" "$T/after" || fail "--dryrun changed something"
	mr --dryrun --output VGA-1 --panning 100x100 && fail "dryrun accepted a bad panning"
	result dryrun
fi

# ---------------------------------------------------------------------------
if wanted hold-mmxd; then
	start hold-mmxd "--hold with mmxd says it has no effect and returns at once"
	mr --hold --output VGA-1 --pos ${EW}x0 || fail "--hold failed"
	grep -q -- '--hold has no effect with mmxd' "$T/err" || fail "no message"
	result hold-mmxd
fi

# ---------------------------------------------------------------------------
# The CRTC state of the mmx device in debugfs: "active=1" crtcs and modes.
dri_state() {
	for n in /sys/kernel/debug/dri/*/name; do
		case $(cat "$n") in
		mmx*) cat "${n%/name}/state"; return ;;
		esac
	done
}

if wanted local-hold; then
	start local-hold "without mmxd, --hold keeps a mode up until SIGTERM"
	kill "$mmxd_pid"
	wait "$mmxd_pid"
	mmxd_pid=
	unset MMX_SOCKET
	sleep 0.5
	if mmxrandr -d "unix:$SOCK" --current >/dev/null 2>&1; then
		fail "mmxd still answers"
	fi
	mmxrandr --output VGA-1 --mode "$VM" --pos 0x0 --hold >"$T/hold.out" 2>"$T/hold.err" &
	hold_pid=$!
	i=0
	until grep -q 'holding' "$T/hold.err" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 50 ] && break
		sleep 0.2
	done
	dri_state >"$T/state1"
	kill -0 $hold_pid 2>/dev/null || fail "--hold exited: $(cat "$T/hold.err")"
	grep -q "mode: \"$VM\"" "$T/state1" || fail "no CRTC with mode $VM in debugfs state"
	[ "$(grep -c 'active=1' "$T/state1")" -ge 1 ] || fail "no active CRTC"
	# what mmxrandr sees on the device meanwhile
	mmxrandr -d local --current | grep -qE "^VGA-1 connected ${VM}\\+0\\+0 " ||
		fail "VGA-1 not lit: $(mmxrandr -d local --current 2>&1 | grep VGA-1)"
	kill $hold_pid
	wait $hold_pid
	rc=$?
	[ $rc = 0 ] || fail "--hold exited $rc after SIGTERM"
	sleep 0.5
	dri_state >"$T/state2"
	grep -q "mode: \"$VM\"" "$T/state2" && fail "the mode outlived --hold"
	result local-hold
fi

exit $failed
