#!/bin/sh
# SPDX-License-Identifier: MIT
#
# kms_mmx_configfs - devices built at run time through configfs, run in the
# test guest (busybox sh) with mmx loaded with default_device=0.
#
# Subtests (printed as "Subtest NAME: SUCCESS|FAIL|SKIP" like the C tests):
#   no-default-device   default_device=0 creates no card; /sys/kernel/config/mmx
#                       exists once configfs is mounted
#   build-enable        a device of 3 CRTCs (HDMI-A, DP and VGA connectors,
#                       one overlay, one writeback) is enabled: its card has
#                       those connectors, encoders, CRTCs and 4 planes
#                       (modetest, /sys/class/drm)
#   status-hotplug      connector status disconnected/unknown/connected while
#                       enabled: the connector reports it and an HPD
#                       connector sends a hotplug uevent
#   refuse-bad-values   unknown plane and connector types, statuses and
#                       booleans: EINVAL, value unchanged
#   refuse-links        links across devices or to the wrong kind: EINVAL
#   refuse-incomplete   enabling a CRTC without primary plane, a plane
#                       without CRTC, a connector without encoder, 9 CRTCs:
#                       EINVAL, a kernel message naming what is wrong,
#                       still disabled; the 33rd plane: ENOSPC
#   refuse-enabled      while enabled: mkdir, rmdir, ln, type writes: EBUSY;
#                       rmdir of the device: ENOTEMPTY
#   two-devices         two devices enabled at once, each its own card
#   disable-open        enabled=0 with a client holding the card: the card
#                       goes away (unplugged), nothing oopses
#   unload              rmmod refused while devices are configured; after
#                       rmdir of everything it works, with no warning in
#                       the kernel log; the default device and a configfs
#                       device coexist after reloading with default devices
# At the end mmx is loaded again with default_device=0, so that the harness
# can unload it.
#
# Usage: kms_mmx_configfs [--list] [--subtest NAME[,NAME...]]

only=
failed=0
all="no-default-device build-enable status-hotplug refuse-bad-values
refuse-links refuse-incomplete refuse-enabled two-devices disable-open unload"

# subtest helpers: other_option, wanted, start, result, msg
lib=$(dirname "$0")/mmx_igt_lib; [ -f "$lib" ] || lib=$lib.sh; . "$lib"

while [ $# -gt 0 ]; do
	case $1 in
	--subtest) only=$2; shift ;;
	*) other_option kms_mmx_configfs "$all" "$1" ;;
	esac
	shift
done

CFS=/sys/kernel/config
M=$CFS/mmx

# fail TEXT: the subtest fails with a message.
fail() {
	msg "$*"
	st=FAIL
}

# cards: the DRM cards, one a line.
cards() {
	for c in /sys/class/drm/card*; do
		case ${c##*/} in *-*) continue ;; esac
		[ -e "$c" ] && echo "${c##*/}"
	done
}

# new_card BEFORE: the card not in BEFORE (a list of cards).
new_card() {
	for c in $(cards); do
		case " $1 " in *" $c "*) ;; *) echo "$c"; return ;; esac
	done
}

# refused ERRNO-TEXT CMD...: CMD fails with the strerror text ERRNO-TEXT.
refused() {
	want=$1
	shift
	out=$("$@" 2>&1) && { fail "'$*' succeeded"; return 1; }
	case $out in
	*"$want"*) return 0 ;;
	esac
	fail "'$*': '$out', expected '$want'"
	return 1
}

# write VALUE FILE: write VALUE to attribute FILE (in a subshell, so that a
# failed write is a status, not the end of the script).
write() {
	sh -c 'echo "$1" > "$2"' sh "$1" "$2"
}

# expect FILE VALUE: FILE reads VALUE.
expect() {
	v=$(cat "$1" 2>/dev/null)
	[ "$v" = "$2" ] || fail "$1 reads '$v', expected '$2'"
}

# mkobj DEV KIND NAME [TARGET...]: make object NAME of KIND (planes,
# crtcs, encoders, connectors) in DEV, linked to the TARGETs (paths
# relative to DEV).
mkobj() {
	d=$M/$1/$2/$3
	mkdir "$d" || { fail "mkdir $d"; return 1; }
	shift 3
	for tgt in "$@"; do
		case $d in
		*/connectors/*) ln -s "${d%/connectors/*}/$tgt" "$d/possible_encoders/" ;;
		*) ln -s "${d%/*/*}/$tgt" "$d/possible_crtcs/" ;;
		esac || fail "link $d -> $tgt"
	done
}

# pipeline DEV N KIND: CRTC cN with primary plane pN, encoder eN, connector
# kN of KIND.
pipeline() {
	mkobj "$1" crtcs "c$2" &&
	mkobj "$1" planes "p$2" "crtcs/c$2" &&
	write primary "$M/$1/planes/p$2/type" &&
	mkobj "$1" encoders "e$2" "crtcs/c$2" &&
	mkobj "$1" connectors "k$2" "encoders/e$2" &&
	write "$3" "$M/$1/connectors/k$2/type"
}

# teardown DEV: disable DEV and remove everything in it.
teardown() {
	[ -d "$M/$1" ] || return 0
	write 0 "$M/$1/enabled"
	for l in "$M/$1"/*/*/possible_*/*; do
		[ -L "$l" ] && rm "$l"
	done
	for k in connectors encoders planes crtcs; do
		for o in "$M/$1/$k"/*; do
			[ -d "$o" ] && rmdir "$o"
		done
	done
	rmdir "$M/$1"
}

# first PATH...: the first PATH that exists (of a glob).
first() {
	for p in "$@"; do
		[ -e "$p" ] && { echo "$p"; return; }
	done
}

# mt CARD ARGS...: modetest on CARD (libdrm opens a device by its bus id).
mt() {
	busid=$(readlink "/sys/class/drm/$1/device")
	shift
	modetest -M mmx -D "${busid##*/}" "$@"
}

# oopses: warnings, oopses and leaks in the kernel log.
oopses() {
	dmesg | grep -cE 'WARNING:|BUG:|Oops|kmemleak|refcount_t'
}

# enable_dev DEV: enable DEV; print its new card.
enable_dev() {
	before=$(cards | tr '\n' ' ')
	write 1 "$M/$1/enabled" || { fail "enabling $1 failed"; return 1; }
	card=$(new_card "$before")
	[ -n "$card" ] || { fail "no new card for $1"; return 1; }
	echo "$card"
}

if [ ! -d /sys/module/mmx ]; then
	modprobe mmx default_device=0 || { echo "kms_mmx_configfs: cannot load mmx" >&2; exit 1; }
fi
grep -q " $CFS configfs" /proc/mounts || mount -t configfs none "$CFS" || {
	echo "kms_mmx_configfs: cannot mount configfs" >&2
	exit 77
}
oops0=$(oopses)

# ---------------------------------------------------------------------------
if wanted no-default-device; then
	start no-default-device "default_device=0 creates no card; the configfs tree of mmx is there"
	[ -z "$(cards)" ] || fail "cards present: $(cards | tr '\n' ' ')"
	[ -d "$M" ] || fail "$M missing"
	result no-default-device
fi

# ---------------------------------------------------------------------------
card_a=
if wanted build-enable || wanted status-hotplug || wanted refuse-enabled ||
   wanted two-devices || wanted disable-open; then
	start build-enable "a 3-output device of mixed kinds with an overlay and a writeback: its card has exactly those objects"
	mkdir "$M/a" || fail "mkdir $M/a"
	for d in planes crtcs encoders connectors; do
		[ -d "$M/a/$d" ] || fail "$M/a/$d missing"
	done
	expect "$M/a/enabled" 0
	pipeline a 0 HDMI-A && pipeline a 1 DP && pipeline a 2 VGA &&
		mkobj a planes o0 crtcs/c0 && write 1 "$M/a/crtcs/c0/writeback"
	expect "$M/a/planes/o0/type" overlay
	expect "$M/a/connectors/k1/type" DP
	expect "$M/a/connectors/k0/status" connected
	card_a=$(enable_dev a)
	[ -n "$card_a" ] || fail "enabling a made no card"
	expect "$M/a/enabled" 1
	if [ -n "$card_a" ]; then
		n=${card_a#card}
		for c in HDMI-A DP VGA Writeback; do
			ls -d /sys/class/drm/"$card_a"-"$c"-* >/dev/null 2>&1 ||
				fail "no $c connector on $card_a"
		done
		# shellcheck disable=SC2012 # counting entries only
		nconn=$(ls -d /sys/class/drm/"$card_a"-* | wc -l)
		[ "$nconn" = 4 ] || fail "$card_a has $nconn connectors, expected 4"
		mt "$card_a" -c -e -p >/tmp/cfs.modetest 2>&1 ||
			fail "modetest on $card_a failed: $(head -n 3 /tmp/cfs.modetest)"
		# Lines "id<TAB>..." in each section: connectors, encoders, planes.
		awk '/^Encoders:/ { s = "enc" } /^Connectors:/ { s = "conn" }
		     /^Planes:/ { s = "plane" } /^CRTCs:/ { s = "crtc" }
		     /^[0-9]+\t/ { n[s]++ }
		     END { printf "%d %d %d\n", n["enc"], n["conn"], n["plane"] }' \
			/tmp/cfs.modetest >/tmp/cfs.counts
		read -r ne nc np </tmp/cfs.counts
		[ "$ne" = 4 ] || fail "modetest: $ne encoders, expected 4 (3 and the writeback's)"
		[ "$nc" = 3 ] || fail "modetest: $nc connectors, expected 3"
		[ "$np" = 4 ] || fail "modetest: $np planes, expected 4 (3 primary, 1 overlay)"
		grep -q "connected	HDMI-A-" /tmp/cfs.modetest ||
			fail "modetest shows no connected HDMI-A connector"
		[ "$(cut -d' ' -f1 /sys/kernel/debug/dri/"$n"/name 2>/dev/null)" = mmx ] ||
			fail "debugfs dri/$n is not mmx"
	fi
	result build-enable
fi

# ---------------------------------------------------------------------------
if wanted status-hotplug; then
	start status-hotplug "connector status changes while enabled: the connector reports it, HPD sends a uevent"
	hdmi=$(first /sys/class/drm/"$card_a"-HDMI-A-*)
	vga=$(first /sys/class/drm/"$card_a"-VGA-*)
	if [ -z "$hdmi" ] || [ -z "$vga" ]; then
		fail "no HDMI-A or VGA connector on '$card_a'"
	else
		cat >/tmp/cfs.uevent.sh <<'EOF'
#!/bin/sh
[ "$HOTPLUG" = 1 ] && echo "$DEVNAME" >>/tmp/cfs.uevents
exit 0
EOF
		chmod +x /tmp/cfs.uevent.sh
		: >/tmp/cfs.uevents
		uevent /tmp/cfs.uevent.sh &
		upid=$!
		sleep 1
		for s in disconnected unknown connected; do
			: >/tmp/cfs.uevents
			write $s "$M/a/connectors/k0/status" || fail "status $s refused"
			expect "$M/a/connectors/k0/status" $s
			sleep 1
			grep -q "dri/$card_a" /tmp/cfs.uevents ||
				fail "no hotplug uevent for $card_a after status $s"
			expect "$hdmi/status" $s
		done
		# A polled connector reports it when probed (sysfs status reads
		# what the last probe found).
		write disconnected "$M/a/connectors/k2/status" || fail "VGA status refused"
		write detect "$vga/status"
		expect "$vga/status" disconnected
		write connected "$M/a/connectors/k2/status"
		write detect "$vga/status"
		expect "$vga/status" connected
		mt "$card_a" -c >/tmp/cfs.modetest 2>&1
		grep -q "	connected	VGA-" /tmp/cfs.modetest ||
			fail "modetest: VGA not connected again"
		kill "$upid" 2>/dev/null
		wait "$upid" 2>/dev/null
	fi
	result status-hotplug
fi

# ---------------------------------------------------------------------------
if wanted refuse-bad-values; then
	start refuse-bad-values "unknown types, statuses and booleans: EINVAL, the value unchanged"
	mkdir -p "$M/v/planes/p" "$M/v/crtcs/c" "$M/v/connectors/k"
	refused "Invalid argument" write sprite "$M/v/planes/p/type"
	expect "$M/v/planes/p/type" overlay
	refused "Invalid argument" write HDMI-Z "$M/v/connectors/k/type"
	expect "$M/v/connectors/k/type" HDMI-A
	write SCART "$M/v/connectors/k/type" || fail "SCART refused"
	expect "$M/v/connectors/k/type" SCART
	refused "Invalid argument" write plugged "$M/v/connectors/k/status"
	expect "$M/v/connectors/k/status" connected
	refused "Invalid argument" write maybe "$M/v/crtcs/c/writeback"
	expect "$M/v/crtcs/c/writeback" 0
	refused "Invalid argument" write 2x "$M/v/enabled"
	expect "$M/v/enabled" 0
	teardown v
	result refuse-bad-values
fi

# ---------------------------------------------------------------------------
if wanted refuse-links; then
	start refuse-links "links across devices or to the wrong kind of object: EINVAL"
	mkdir -p "$M/l1/planes/p" "$M/l1/crtcs/c" "$M/l1/connectors/k" \
		"$M/l2/crtcs/c" "$M/l2/encoders/e"
	refused "Invalid argument" ln -s "$M/l2/crtcs/c" "$M/l1/planes/p/possible_crtcs/"
	refused "Invalid argument" ln -s "$M/l2/encoders/e" "$M/l1/connectors/k/possible_encoders/"
	refused "Invalid argument" ln -s "$M/l1/planes/p" "$M/l1/planes/p/possible_crtcs/"
	refused "Invalid argument" ln -s "$M/l1/crtcs/c" "$M/l1/connectors/k/possible_encoders/"
	# shellcheck disable=SC2012 # counting entries only
	[ "$(ls "$M/l1/planes/p/possible_crtcs" | wc -l)" = 0 ] || fail "a refused link stayed"
	ln -s "$M/l1/crtcs/c" "$M/l1/planes/p/possible_crtcs/" || fail "a good link refused"
	teardown l1
	teardown l2
	result refuse-links
fi

# ---------------------------------------------------------------------------
# incomplete DEV TEXT: enabling DEV fails with EINVAL and the log says TEXT.
incomplete() {
	lines=$(dmesg | wc -l)
	refused "Invalid argument" write 1 "$M/$1/enabled"
	expect "$M/$1/enabled" 0
	dmesg | tail -n +$((lines + 1)) | grep -q "mmx: $1: $2" ||
		fail "no kernel message 'mmx: $1: $2'"
}

if wanted refuse-incomplete; then
	start refuse-incomplete "enabling an incomplete device: EINVAL, a message saying what is missing, still disabled"
	mkdir "$M/i"
	incomplete i "0 CRTCs"
	pipeline i 0 DP
	rm "$M/i/planes/p0/possible_crtcs/c0"
	incomplete i "plane p0 has 0 possible CRTCs"
	write overlay "$M/i/planes/p0/type"
	ln -s "$M/i/crtcs/c0" "$M/i/planes/p0/possible_crtcs/"
	incomplete i "CRTC c0 has 0 primary planes"
	write primary "$M/i/planes/p0/type"
	rm "$M/i/connectors/k0/possible_encoders/e0"
	incomplete i "connector k0 has 0 possible encoders"
	ln -s "$M/i/encoders/e0" "$M/i/connectors/k0/possible_encoders/"
	for c in 1 2 3 4 5 6 7 8; do
		pipeline i "$c" VGA
	done
	incomplete i "9 CRTCs: must be 1 to 8"
	teardown i
	mkdir "$M/i"
	for p in $(seq 1 32); do mkdir "$M/i/planes/p$p" || fail "plane $p refused"; done
	refused "No space left" mkdir "$M/i/planes/p33"
	teardown i
	result refuse-incomplete
fi

# ---------------------------------------------------------------------------
if wanted refuse-enabled; then
	start refuse-enabled "objects of an enabled device are fixed: EBUSY; the device cannot be removed"
	refused "busy" mkdir "$M/a/planes/o1"
	refused "busy" rmdir "$M/a/planes/o0"
	refused "busy" rmdir "$M/a/crtcs/c2"
	refused "busy" rmdir "$M/a/connectors/k1"
	refused "not empty" rmdir "$M/a"
	refused "busy" ln -s "$M/a/crtcs/c1" "$M/a/planes/o0/possible_crtcs/"
	refused "busy" write cursor "$M/a/planes/o0/type"
	refused "busy" write DVI-D "$M/a/connectors/k1/type"
	refused "busy" write 0 "$M/a/crtcs/c0/writeback"
	expect "$M/a/planes/o0/type" overlay
	expect "$M/a/connectors/k1/type" DP
	expect "$M/a/enabled" 1
	[ -e "/sys/class/drm/$card_a" ] || fail "$card_a went away"
	result refuse-enabled
fi

# ---------------------------------------------------------------------------
if wanted two-devices; then
	start two-devices "two devices enabled at once, each its own card"
	mkdir "$M/b"
	pipeline b 0 DVI-I && pipeline b 1 Composite
	card_b=$(enable_dev b)
	[ -n "$card_b" ] || fail "enabling b made no card"
	if [ -n "$card_b" ] && [ -n "$card_a" ]; then
		[ "$card_a" != "$card_b" ] || fail "same card $card_a"
		for c in DVI-I Composite; do
			ls -d /sys/class/drm/"$card_b"-"$c"-* >/dev/null 2>&1 ||
				fail "no $c connector on $card_b"
		done
		ls -d /sys/class/drm/"$card_b"-Writeback-* >/dev/null 2>&1 &&
			fail "$card_b has a writeback connector"
		[ -e "/sys/class/drm/$card_a" ] || fail "$card_a went away"
		mt "$card_b" -c >/dev/null 2>&1 || fail "modetest on $card_b"
	fi
	write 0 "$M/b/enabled"
	[ -n "$card_b" ] && [ -e "/sys/class/drm/$card_b" ] && fail "$card_b still there"
	teardown b
	result two-devices
fi

# ---------------------------------------------------------------------------
if wanted disable-open; then
	start disable-open "enabled=0 with a client holding the card: it is unplugged; the client closes it later"
	if [ -n "$card_a" ]; then
		exec 3<>"/dev/dri/$card_a"
		write 0 "$M/a/enabled" || fail "enabled=0 refused"
		expect "$M/a/enabled" 0
		[ -e "/sys/class/drm/$card_a" ] && fail "$card_a still there"
		exec 3>&-
		# and again: the same topology makes a working card
		card_a=$(enable_dev a)
		[ -n "$card_a" ] && { mt "$card_a" -c >/dev/null 2>&1 ||
			fail "modetest on the re-enabled $card_a"; }
	fi
	result disable-open
fi

# ---------------------------------------------------------------------------
if wanted unload; then
	start unload "rmmod refused while devices are configured, clean after rmdir; the default device and configfs coexist"
	[ -d "$M/a" ] || { mkdir "$M/a"; pipeline a 0 eDP; }
	rmmod mmx 2>/dev/null && fail "rmmod mmx succeeded with $M/a configured"
	[ -d /sys/module/mmx ] || fail "mmx unloaded"
	teardown a
	rmmod mmx || fail "rmmod mmx failed"
	[ -d /sys/module/mmx ] && fail "mmx still loaded"
	[ -z "$(cards)" ] || fail "cards left: $(cards | tr '\n' ' ')"
	if modprobe mmx outputs=1; then
		[ "$(cards | wc -l)" = 1 ] || fail "outputs=1: $(cards | wc -l) cards"
		mkdir "$M/d"
		pipeline d 0 LVDS
		enable_dev d >/dev/null
		[ "$(cards | wc -l)" = 2 ] || fail "default + configfs: $(cards | wc -l) cards"
		teardown d
		rmmod mmx || fail "rmmod mmx failed"
	else
		fail "modprobe mmx outputs=1 failed"
	fi
	modprobe mmx default_device=0 || fail "modprobe mmx default_device=0 failed"
	[ "$(oopses)" = "$oops0" ] || { dmesg | grep -E -A5 'WARNING:|BUG:|Oops' | head -n 40 >&2; fail "warnings in the kernel log"; }
	result unload
fi

for d in a b; do teardown $d 2>/dev/null; done
exit $failed
