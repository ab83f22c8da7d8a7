#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Unload with kmod's `modprobe -r` while the root filesystem is on a virtio
# disk: each MODULE goes, the modules kmod takes along are listed, and the
# disk still works (a file written, synced, dropped from the page cache and
# read back) with no WARNING, BUG, Oops or EXT4 error in the kernel log.
#
# Usage: unload.sh [--reference] MODULE...
#   --reference   Debian's own driver: report what kmod did, never fail on
#                 the disk (the verdict on mmx is the point, not on Debian)
# Output goes to the console only: /out is a virtio disk too.
LOG=/tmp/unload
mkdir -p "$LOG"

subtest() {
	echo "Subtest $1: $2${3:+ ($3)}"
}
reference=0
if [ "${1:-}" = --reference ]; then
	reference=1
	shift
fi
status=0

modules_loaded() {
	awk 'NR > 1 { print $1 }' /proc/modules | sort
}

disk_works() {
	_f=/var/tmp/mmx-unload-$1
	_want="mmx unload check $1 $$"
	echo "$_want" >"$_f" 2>/dev/null || return 1
	sync || return 1
	echo 3 >/proc/sys/vm/drop_caches
	[ "$(cat "$_f" 2>/dev/null)" = "$_want" ] || return 1
	rm -f "$_f"
	sync
}

bad_log() {
	dmesg | grep -E 'WARNING:|BUG:|Oops|EXT4-fs error|EXT4-fs \(.*\): I/O error|Buffer I/O error|blk_update_request|I/O error'
}

root_dev=$(awk '$2 == "/" { d = $1 } END { print d }' /proc/mounts)
echo "root filesystem on ${root_dev:-?} ($(readlink -f /sys/block/vda/device/driver 2>/dev/null))"
if ! disk_works before; then
	subtest unload-disk-before FAIL "the disk does not work before any unload"
	exit 1
fi

for m in "$@"; do
	name=$(echo "$m" | tr - _)
	modules_loaded >"$LOG/before"
	if ! grep -qx "$name" "$LOG/before"; then
		subtest "modprobe-r-$name" SKIP "$name is not loaded"
		continue
	fi
	dmesg -c >/dev/null
	modprobe -r "$name" >"$LOG/modprobe.txt" 2>&1
	rc=$?
	modules_loaded >"$LOG/after"
	gone=$(comm -23 "$LOG/before" "$LOG/after" | tr '\n' ' ')
	echo "modprobe -r $name: exit $rc; unloaded: $gone"
	cat "$LOG/modprobe.txt"
	took_transport=no
	if grep -qx virtio_pci "$LOG/before" && ! grep -qx virtio_pci "$LOG/after"; then
		took_transport=yes
	fi
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
	elif grep -qx "$name" "$LOG/after"; then
		subtest "modprobe-r-$name" FAIL "$name still loaded"
		status=1
	else
		subtest "modprobe-r-$name" SUCCESS "unloaded: $gone"
	fi
	if [ "$took_transport" = yes ]; then
		subtest "modprobe-r-$name-keeps-virtio" FAIL "virtio_pci went with it"
		status=1
	else
		subtest "modprobe-r-$name-keeps-virtio" SUCCESS
	fi
	if [ $disk = ok ] && [ -z "$bad" ]; then
		subtest "modprobe-r-$name-disk-works" SUCCESS
	else
		subtest "modprobe-r-$name-disk-works" FAIL "disk $disk; $(echo "$bad" | head -n 3)"
		status=1
	fi
done
exit $status
