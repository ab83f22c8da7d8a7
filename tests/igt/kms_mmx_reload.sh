#!/bin/sh
# SPDX-License-Identifier: MIT
#
# kms_mmx_reload - module load/unload checks, run in the test guest (busybox
# sh) with mmx loaded by the harness and no client holding it open.
#
# Subtests (printed as "Subtest NAME: SUCCESS|FAIL|SKIP" like the C tests):
#   rmmod-busy          rmmod fails while a client holds the card open
#   rmmod-idle          rmmod works with no client; card, debugfs and
#                       /sys/module/mmx disappear
#   load-bad-params     outputs=0/9/-1/abc, unknown kinds, too many kinds and
#                       an outputs/connectors mismatch refuse to load
#   load-connector-kinds  connectors= without outputs= (the four kinds the
#                       default list lacks) gives that many outputs of those
#                       types with their modes (checked by kms_mmx_basic)
#   reload-cycles       N times (default 20): modprobe, a client that modesets
#                       every output at its preferred mode and exits, rmmod
#   reload-no-leak      after the cycles: the same DRM debugfs/sysfs entries,
#                       at most 64 MiB less MemAvailable (noise is ~10 MiB,
#                       one leaked 1080p FB per cycle would be 160 MiB) and
#                       2 MiB more unreclaimable slab
# At the end mmx is loaded again with the parameters of --params (default:
# none), so that the harness can unload it.
#
# Usage: kms_mmx_reload [--cycles N] [--params 'P=V ...'] [--list]
#                       [--subtest NAME[,NAME...]]

cycles=20
params=
only=
failed=0
all="rmmod-busy rmmod-idle load-bad-params load-connector-kinds reload-cycles
reload-no-leak"

# subtest helpers: other_option, wanted, start, result, msg
lib=$(dirname "$0")/mmx_igt_lib; [ -f "$lib" ] || lib=$lib.sh; . "$lib"

while [ $# -gt 0 ]; do
	case $1 in
	--cycles) cycles=$2; shift ;;
	--params) params=$2; shift ;;
	--subtest) only=$2; shift ;;
	*) other_option kms_mmx_reload "$all" "$1" ;;
	esac
	shift
done

loaded() {
	[ -e /sys/module/mmx ]
}

# The /dev/dri/cardN of mmx (empty if none).
mmx_card() {
	for n in /sys/kernel/debug/dri/*/name; do
		[ -e "$n" ] || continue
		case $(cat "$n") in
		mmx*) m=${n%/name}; m=${m##*/}
		      [ -e "/dev/dri/card$m" ] && echo "/dev/dri/card$m" && return ;;
		esac
	done
}

# Run a command, show its output indented (so that its Subtest lines do not
# count as ours) only when it fails.
quiet() {
	out=/tmp/kms_mmx_reload.$$
	"$@" >"$out" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		rm -f "$out"
		return 0
	fi
	msg "'$*' failed ($rc):"
	sed 's/^/    | /' "$out" | tail -n 40 >&2
	rm -f "$out"
	return $rc
}

# shellcheck disable=SC2012 # counting entries only
dri_entries() {
	ls /sys/kernel/debug/dri 2>/dev/null | wc -l
}

# shellcheck disable=SC2012
drm_class_entries() {
	ls /sys/class/drm 2>/dev/null | wc -l
}

meminfo() {
	awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo
}

if ! loaded; then
	echo "kms_mmx_reload: mmx is not loaded; loading it with '$params'" >&2
	# shellcheck disable=SC2086 # parameters are split on purpose
	modprobe mmx $params || { echo "kms_mmx_reload: cannot load mmx" >&2; exit 1; }
fi

# ---------------------------------------------------------------------------
if wanted rmmod-busy; then
	start rmmod-busy "rmmod fails while a client holds the card open, and the module stays usable"
	st=SUCCESS
	card=$(mmx_card)
	if [ -z "$card" ]; then
		msg "no mmx card found"
		st=FAIL
	else
		exec 3<>"$card"
		if rmmod mmx 2>/dev/null; then
			msg "rmmod mmx succeeded with $card open"
			st=FAIL
		fi
		loaded || { msg "/sys/module/mmx vanished"; st=FAIL; }
		exec 3>&-
		if loaded; then
			quiet kms_mmx_basic --subtest driver-name || st=FAIL
		else
			# shellcheck disable=SC2086
			modprobe mmx $params
		fi
	fi
	result rmmod-busy $st
fi

# ---------------------------------------------------------------------------
if wanted rmmod-idle; then
	start rmmod-idle "rmmod works with no client; the card, its debugfs directory and /sys/module/mmx disappear"
	st=SUCCESS
	card=$(mmx_card)
	dbg=
	[ -n "$card" ] && dbg=/sys/kernel/debug/dri/${card#/dev/dri/card}
	if ! rmmod mmx; then
		msg "rmmod mmx failed"
		st=FAIL
	fi
	loaded && { msg "/sys/module/mmx still there"; st=FAIL; }
	[ -n "$card" ] && [ -e "$card" ] && { msg "$card still there"; st=FAIL; }
	[ -n "$dbg" ] && [ -e "$dbg/name" ] && { msg "$dbg still there"; st=FAIL; }
	[ -n "$(mmx_card)" ] && { msg "an mmx card is still listed"; st=FAIL; }
	# and it comes back
	# shellcheck disable=SC2086
	if ! modprobe mmx $params || [ -z "$(mmx_card)" ]; then
		msg "reloading mmx failed"
		st=FAIL
	fi
	result rmmod-idle $st
fi

# ---------------------------------------------------------------------------
if wanted load-bad-params; then
	start load-bad-params "bad outputs=/connectors= values and mismatches refuse to load and leave nothing behind"
	st=SUCCESS
	loaded && rmmod mmx
	before=$(drm_class_entries)
	for p in "outputs=0" "outputs=9" "outputs=-1" "outputs=abc" \
		 "connectors=FOO" "connectors=VGA,HDMI" "connectors=vga-x" \
		 "connectors=VGA,DP outputs=3" "connectors=VGA outputs=2" \
		 "connectors=eDP,VGA,HDMI-A,DP,DVI-I,DVI-D,Composite,SVIDEO,TV"; do
		# shellcheck disable=SC2086
		if modprobe mmx $p 2>/dev/null; then
			msg "modprobe mmx $p succeeded"
			st=FAIL
			rmmod mmx
		fi
		if loaded; then
			msg "mmx is loaded after a failed 'modprobe mmx $p'"
			st=FAIL
			rmmod mmx
		fi
	done
	[ "$(drm_class_entries)" = "$before" ] ||
		{ msg "/sys/class/drm changed: $before -> $(drm_class_entries) entries"; st=FAIL; }
	# a matching pair loads
	if ! modprobe mmx connectors=HDMI-A outputs=1; then
		msg "modprobe mmx connectors=HDMI-A outputs=1 failed"
		st=FAIL
	else
		quiet kms_mmx_basic --outputs 1 --connectors HDMI-A \
			--subtest resource-counts,connector-types || st=FAIL
		rmmod mmx || st=FAIL
	fi
	# shellcheck disable=SC2086
	modprobe mmx $params || st=FAIL
	result load-bad-params $st
fi

# ---------------------------------------------------------------------------
if wanted load-connector-kinds; then
	start load-connector-kinds "connectors=DVI-A,LVDS,Component,TV alone gives four outputs of exactly those kinds, with the modes of their kinds"
	st=SUCCESS
	loaded && rmmod mmx
	kinds=DVI-A,LVDS,Component,TV
	if ! modprobe mmx connectors=$kinds; then
		msg "modprobe mmx connectors=$kinds failed"
		st=FAIL
	else
		quiet kms_mmx_basic --outputs 4 --connectors $kinds \
			--subtest driver-name,resource-counts,connector-types,connector-modes,writeback-connectors,plane-layout ||
			st=FAIL
		# the sysfs parameters tell the same (what the C tests read)
		quiet kms_mmx_basic --subtest resource-counts,connector-types ||
			st=FAIL
		rmmod mmx || st=FAIL
	fi
	# shellcheck disable=SC2086
	modprobe mmx $params || st=FAIL
	result load-connector-kinds $st
fi

# ---------------------------------------------------------------------------
one_cycle() {
	# shellcheck disable=SC2086
	modprobe mmx $params || { msg "cycle $1: modprobe mmx $params failed"; return 1; }
	quiet kms_mmx_basic --subtest modeset-preferred ||
		{ msg "cycle $1: the modeset client failed"; rmmod mmx; return 1; }
	rmmod mmx || { msg "cycle $1: rmmod mmx failed"; return 1; }
	if loaded; then
		msg "cycle $1: /sys/module/mmx still there"
		return 1
	fi
	return 0
}

# snapshot: with the caches dropped, what reload-no-leak compares, on one
# line: debugfs dri entries, /sys/class/drm entries, MemAvailable and
# SUnreclaim (kB)
snapshot() {
	sync
	echo 3 >/proc/sys/vm/drop_caches 2>/dev/null
	echo "$(dri_entries) $(drm_class_entries) $(meminfo MemAvailable)" \
	     "$(meminfo SUnreclaim)"
}

leak_ok=
if wanted reload-cycles || wanted reload-no-leak; then
	start reload-cycles "$cycles x (modprobe, a client modesets every output at its preferred mode and exits, rmmod)"
	st=SUCCESS
	loaded && rmmod mmx
	# two warm-up cycles, then the baseline
	one_cycle 0 || st=FAIL
	one_cycle 0 || st=FAIL
	read -r dri0 cls0 avail0 slab0 <<EOF
$(snapshot)
EOF
	i=1
	while [ $i -le "$cycles" ] && [ $st = SUCCESS ]; do
		one_cycle $i || st=FAIL
		i=$((i + 1))
	done
	echo "  $((i - 1)) cycles done"
	read -r dri1 cls1 avail1 slab1 <<EOF
$(snapshot)
EOF
	leak_ok=$st
	result reload-cycles $st
fi

if wanted reload-no-leak; then
	start reload-no-leak "after the cycles the same DRM debugfs and sysfs entries exist and at most 64 MiB of memory (2 MiB of unreclaimable slab) is gone"
	st=SUCCESS
	if [ "$leak_ok" != SUCCESS ]; then
		msg "the cycles failed: nothing to compare"
		st=FAIL
	else
		echo "  debugfs dri entries $dri0 -> $dri1, /sys/class/drm $cls0 -> $cls1"
		echo "  MemAvailable $avail0 -> $avail1 kB, SUnreclaim $slab0 -> $slab1 kB"
		[ "$dri0" = "$dri1" ] || { msg "debugfs dri entries changed"; st=FAIL; }
		[ "$cls0" = "$cls1" ] || { msg "/sys/class/drm entries changed"; st=FAIL; }
		# MemAvailable moves by +-10 MiB between identical cycles; a
		# leaked FB (8 MiB at 1920x1080) per cycle would show as 160 MiB
		[ $((avail0 - avail1)) -le 65536 ] ||
			{ msg "$((avail0 - avail1)) kB less available memory"; st=FAIL; }
		[ $((slab1 - slab0)) -le 2048 ] ||
			{ msg "$((slab1 - slab0)) kB more unreclaimable slab"; st=FAIL; }
	fi
	result reload-no-leak $st
fi

# leave mmx loaded as the harness expects
if ! loaded; then
	# shellcheck disable=SC2086
	modprobe mmx $params || failed=1
fi
exit $failed
