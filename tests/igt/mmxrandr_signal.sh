#!/bin/sh
# SPDX-License-Identifier: MIT
#
# mmxrandr_signal - `mmxrandr --set SignalFormat` round trip on an output
# with a choice of signals, through mmxd. Boot: mmx connectors=DVI-I,VGA
# (DVI-I-1 carries TMDS or VGA). Needs mmxd and mmxrandr on PATH.
#
# Subtests:
#   signal-format-round-trip  TMDS -> VGA -> TMDS, each read back with
#                             --verbose; the other output untouched
#   signal-format-refused     a format the output cannot carry and an
#                             immutable property: message, exit 1, unchanged
#   signal-properties         SignalProperties (an enum of attribute sets)
#                             shows in --verbose with its supported values,
#                             follows the format (SingleLink, none with VGA),
#                             round trips DualLink; "none" with TMDS and a
#                             single-format SignalFormat (VGA-1) are refused

SOCK=/tmp/mmxd-signal.sock
T=/tmp/mmxrandr_signal.$$
failed=0
export MMX_SOCKET=$SOCK

result() {
	echo "Subtest $1: $2"
	[ "$2" = FAIL ] && failed=1
}

# value of property $2 of output $1 in `mmxrandr --verbose`
prop() {
	mmxrandr --verbose | awk -v out="$1" -v p="$2" '
		/^[^ \t]/ { cur = $1 }
		cur == out && $1 == p ":" { print $2; exit }'
}

# the "supported:" line under property $2 of output $1
supported() {
	mmxrandr --verbose | awk -v out="$1" -v p="$2" '
		/^[^ \t]/ { cur = $1 }
		cur == out && $1 == p ":" { getline; sub(/^[ \t]*supported: /, ""); print; exit }'
}

# refused MESSAGE ARG...: `mmxrandr ARG...` must fail (its stderr in
# $T/err); if it succeeds, say MESSAGE and fail the subtest
refused() {
	m=$1
	shift
	if mmxrandr "$@" 2>$T/err; then
		echo "$m"; ok=FAIL
	fi
}

# unchanged: `mmxrandr --verbose` says what it said into $T/before,
# timestamps aside
unchanged() {
	mmxrandr --verbose >$T/after
	grep -v Timestamp $T/before >$T/b
	grep -v Timestamp $T/after >$T/a
	cmp -s $T/b $T/a || { diff $T/b $T/a; ok=FAIL; }
}

mkdir -p $T
mmxd --socket $SOCK >$T/mmxd.log 2>&1 &
pid=$!
i=0
while [ ! -S $SOCK ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
if [ ! -S $SOCK ]; then
	cat $T/mmxd.log
	result signal-format-round-trip FAIL
	result signal-format-refused FAIL
	result signal-properties FAIL
	exit 1
fi

ok=SUCCESS
vga0=$(prop VGA-1 SignalFormat)
[ "$(prop DVI-I-1 SignalFormat)" = TMDS ] || { echo "start: not TMDS"; ok=FAIL; }
mmxrandr --output DVI-I-1 --set SignalFormat VGA || ok=FAIL
[ "$(prop DVI-I-1 SignalFormat)" = VGA ] || { echo "VGA not read back"; ok=FAIL; }
mmxrandr --output DVI-I-1 --set SignalFormat TMDS || ok=FAIL
[ "$(prop DVI-I-1 SignalFormat)" = TMDS ] || { echo "TMDS not read back"; ok=FAIL; }
[ "$(prop VGA-1 SignalFormat)" = "$vga0" ] || { echo "VGA-1 changed"; ok=FAIL; }
result signal-format-round-trip $ok

ok=SUCCESS
mmxrandr --verbose >$T/before
refused "Composite on DVI-I accepted" \
	--output DVI-I-1 --set SignalFormat Composite
grep -q SignalFormat $T/err || { cat $T/err; echo "no message"; ok=FAIL; }
refused "immutable ConnectorType changed" \
	--output DVI-I-1 --set ConnectorType VGA
grep -q ConnectorType $T/err || { cat $T/err; echo "no message"; ok=FAIL; }
unchanged
result signal-format-refused $ok

ok=SUCCESS
[ "$(prop DVI-I-1 SignalProperties)" = SingleLink ] ||
	{ echo "TMDS: SignalProperties '$(prop DVI-I-1 SignalProperties)'"; ok=FAIL; }
sup=$(supported DVI-I-1 SignalProperties)
[ "$sup" = "none, SingleLink, DualLink" ] || { echo "supported: '$sup'"; ok=FAIL; }
mmxrandr --output DVI-I-1 --set SignalProperties DualLink || ok=FAIL
[ "$(prop DVI-I-1 SignalProperties)" = DualLink ] || { echo "DualLink not read back"; ok=FAIL; }
mmxrandr --output DVI-I-1 --set SignalFormat VGA || ok=FAIL
[ "$(prop DVI-I-1 SignalProperties)" = none ] || { echo "VGA: not none"; ok=FAIL; }
mmxrandr --output DVI-I-1 --set SignalFormat TMDS || ok=FAIL
[ "$(prop DVI-I-1 SignalProperties)" = SingleLink ] || { echo "TMDS default not back"; ok=FAIL; }
mmxrandr --verbose >$T/before
refused "none with TMDS accepted" \
	--output DVI-I-1 --set SignalProperties none
refused "VGA-1's single-format SignalFormat was set" \
	--output VGA-1 --set SignalFormat VGA
grep -q immutable $T/err || { cat $T/err; echo "no message"; ok=FAIL; }
unchanged
result signal-properties $ok

kill -TERM $pid
wait $pid || failed=1
rm -rf $T
exit $failed
