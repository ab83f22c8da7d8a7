#!/bin/sh
# SPDX-License-Identifier: MIT
#
# mmxrandr_degraded - mmxrandr on a KMS driver that is not mmx (Debian's
# virtio_gpu), without mmxd: libmmx degrades as documented
# (Documentation/libmmx.rst). Needs mmxrandr on PATH and virtio_gpu bound.
#
# Subtests:
#   query             outputs named as Xorg names them (Virtual-1), with a
#                     '*' mode; --verbose has the synthetic ConnectorType
#   no-transforms     --rotate, --transform, --panning: the EOPNOTSUPP
#                     message, exit 1, no change
#   mode-set          --mode of a listed mode works (exit 0)

T=/tmp/mmxrandr_degraded.$$
failed=0
mkdir -p $T
export MMX_SOCKET=$T/none.sock

result() {
	echo "Subtest $1: $2"
	[ "$2" = FAIL ] && failed=1
}

ok=SUCCESS
mmxrandr >$T/q 2>&1 || ok=FAIL
cat $T/q
grep -q '^Screen 0: minimum' $T/q || ok=FAIL
grep -q '^Virtual-1 connected' $T/q || ok=FAIL
mmxrandr --verbose >$T/v 2>&1 || ok=FAIL
grep -q 'ConnectorType: ' $T/v || { echo "no ConnectorType"; ok=FAIL; }
result query $ok

ok=SUCCESS
mmxrandr --current >$T/before 2>&1
refuse() {
	want=$1
	shift
	if mmxrandr --output Virtual-1 "$@" 2>$T/err; then
		echo "accepted: $*"; ok=FAIL
	fi
	grep -q "$want" $T/err ||
		{ cat $T/err; echo "no message '$want' for $*"; ok=FAIL; }
}
refuse 'cannot use rotation "left"' --rotate left
refuse 'virtio_gpu driver has no CRTC transforms' \
	--transform 2,0,0,0,2,0,0,0,1
refuse 'virtio_gpu driver has no panning' --panning 2000x2000
mmxrandr --current >$T/after 2>&1
cmp -s $T/before $T/after || { diff $T/before $T/after; ok=FAIL; }
result no-transforms $ok

ok=SUCCESS
mode=$(awk '/^Virtual-1/ { getline; print $1; exit }' $T/q)
[ -n "$mode" ] || ok=FAIL
mmxrandr --output Virtual-1 --mode "$mode" || ok=FAIL
result mode-set $ok

rm -rf $T
exit $failed
