# SPDX-License-Identifier: MIT
#
# mmx_igt_lib - the IGT-style subtest helpers of the guest shell tests,
# sourced by them (installed next to them as build/igt/mmx_igt_lib):
#
#   lib=$(dirname "$0")/mmx_igt_lib; [ -f "$lib" ] || lib=$lib.sh; . "$lib"
#
# The sourcing script sets $only (comma-separated subtests to run, empty for
# all) and $failed (0); result() sets failed=1 on FAIL.

# wanted NAME: is subtest NAME selected by --subtest?
wanted() {
	[ -z "$only" ] && return 0
	case ",$only," in *",$1,"*) return 0 ;; esac
	return 1
}

# start NAME INTENT: a subtest begins; its status $st starts as SUCCESS.
start() {
	echo "Starting subtest: $1"
	echo "  intent: $2"
	t0=$(cut -d' ' -f1 /proc/uptime)
	st=SUCCESS
}

# result NAME [STATUS]: print the subtest's line (STATUS, else $st) with
# its duration.
result() {
	res=${2:-$st}
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "Subtest $1: $res ($(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')s)"
	[ "$res" = FAIL ] && failed=1
	return 0
}

# msg TEXT...: a detail line on stderr.
msg() {
	echo "  $*" >&2
}
