#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Unload with kmod's `modprobe -r` while the root filesystem is on a virtio
# disk: each MODULE goes, the modules kmod takes along are listed, and the
# disk still works (a file written, synced, dropped from the page cache and
# read back) with no WARNING, BUG, Oops or EXT4 error in the kernel log.
#
# Usage: unload.sh [--reference] [--udev-leaves MODULE] MODULE...
#   --reference   Debian's own driver: report what kmod did, never fail on
#                 the disk (the verdict on mmx is the point, not on Debian)
#   --udev-leaves MODULE  udev (started by the harness) must NOT have loaded
#                 MODULE for the device: mmx_virtio declares no modalias, so
#                 it never races Debian's virtio_gpu for a virtio-gpu device;
#                 it is then loaded by hand, as documented
# mmx_core, when loaded, must go with the last module that uses it.
# Output goes to the console only: /out is a virtio disk too.
LOG=/tmp/unload
mkdir -p "$LOG"

subtest() {
	echo "Subtest $1: $2${3:+ ($3)}"
}
reference=0
udev_module=
while [ $# -gt 0 ]; do
	case $1 in
	--reference) reference=1 ;;
	--udev-leaves) udev_module=$2; shift ;;
	*) break ;;
	esac
	shift
done
status=0

# Once the disk is gone no program starts: what judges the unload uses
# shell builtins only (read, echo, test).

# loaded NAME: the module is in /proc/modules.
loaded() {
	while read -r _m _rest; do
		[ "$_m" = "$1" ] && return 0
	done </proc/modules
	return 1
}

# modules_loaded: the loaded modules' names on one line.
modules_loaded() {
	_all=
	while read -r _m _rest; do
		_all="$_all $_m "
	done </proc/modules
	echo "$_all"
}

# disk_works TAG: a file on the root disk written, synced, dropped from the
# page cache and read back.
disk_works() {
	_f=/var/tmp/mmx-unload-$1
	_want="mmx unload check $1 $$"
	[ -b "$root_dev" ] || return 1
	{ echo "$_want" >"$_f"; } 2>/dev/null || return 1
	sync 2>/dev/null || return 1
	{ echo 3 >/proc/sys/vm/drop_caches; } 2>/dev/null
	_got=
	{ read -r _got <"$_f"; } 2>/dev/null
	[ "$_got" = "$_want" ] || return 1
	rm -f "$_f" 2>/dev/null && sync 2>/dev/null
}

# bad_log: the kernel log's bad lines (dmesg must still start).
bad_log() {
	dmesg >"$LOG/dmesg.txt" 2>&1 || { echo "dmesg does not run"; return; }
	grep -E 'WARNING:|BUG:|Oops|EXT4-fs error|I/O error' "$LOG/dmesg.txt" ||
		true
}

if [ -n "$udev_module" ]; then
	udevadm settle --timeout=300 2>/dev/null
	if loaded "$udev_module"; then
		subtest "udev-leaves-$udev_module" FAIL "udev loaded it for the virtio-gpu device"
		status=1
	else
		subtest "udev-leaves-$udev_module" SUCCESS "not loaded by udev; loading it by hand"
		modprobe "$udev_module" || exit 1
	fi
fi

root_dev=$(awk '$2 == "/" { d = $1 } END { print d }' /proc/mounts)
echo "root filesystem on ${root_dev:-?} ($(readlink -f /sys/block/vda/device/driver 2>/dev/null))"
if ! disk_works before; then
	subtest unload-disk-before FAIL "the disk does not work before any unload"
	exit 1
fi

for m in "$@"; do
	name=$m
	before=$(modules_loaded)
	if ! loaded "$name"; then
		subtest "modprobe-r-$name" SKIP "$name is not loaded"
		continue
	fi
	dmesg -c >/dev/null
	modprobe -r "$name" >"$LOG/modprobe.txt" 2>&1
	rc=$?
	after=$(modules_loaded)
	gone=
	for _m in $before; do
		case $after in
		*" $_m "*) ;;
		*) gone="$gone$_m " ;;
		esac
	done
	echo "modprobe -r $name: exit $rc; unloaded: $gone"
	while read -r _line; do echo "  $_line"; done <"$LOG/modprobe.txt"
	took_transport=no
	case $before in *" virtio_pci "*)
		loaded virtio_pci || took_transport=yes ;;
	esac
	disk=ok
	disk_works "$name" || disk=broken
	bad=$(bad_log)
	echo "  virtio_pci unloaded: $took_transport; disk: $disk"
	if [ $reference = 1 ]; then
		subtest "reference-modprobe-r-$name" SUCCESS "exit $rc, virtio_pci unloaded: $took_transport, disk $disk"
		continue
	fi
	if [ $rc -ne 0 ]; then
		subtest "modprobe-r-$name" FAIL "exit $rc"
		status=1
	elif loaded "$name"; then
		subtest "modprobe-r-$name" FAIL "$name still loaded"
		status=1
	else
		subtest "modprobe-r-$name" SUCCESS "unloaded: $gone"
	fi
	case $before in
	*" mmx_core "*)
		if [ "$name" != mmx_core ] && loaded mmx_core; then
			subtest "modprobe-r-$name-takes-core" FAIL "mmx_core still loaded"
			status=1
		elif [ "$name" != mmx_core ]; then
			subtest "modprobe-r-$name-takes-core" SUCCESS
		fi
		;;
	esac
	if [ "$took_transport" = yes ]; then
		subtest "modprobe-r-$name-keeps-virtio" FAIL "virtio_pci went with it"
		status=1
	else
		subtest "modprobe-r-$name-keeps-virtio" SUCCESS
	fi
	if [ $disk != ok ]; then
		subtest "modprobe-r-$name-disk-works" FAIL "disk $disk; ${bad%%
*}"
		# nothing else can run now
		exit 1
	fi
	if [ -z "$bad" ]; then
		subtest "modprobe-r-$name-disk-works" SUCCESS
	else
		subtest "modprobe-r-$name-disk-works" FAIL "disk $disk; ${bad%%
*}"
		status=1
	fi
done
exit $status
