#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Run the real clients one after the other in one guest, each under a
# timeout, and say which ran: the tests/clients driver boots one guest per
# release and backend with this.
#
# Usage: all.sh [CLIENT...]   (default: libdrm xorg weston kmscube)
dir=$(dirname "$0")
status=0
[ $# -gt 0 ] || set -- libdrm xorg weston kmscube

# QEMU without a display reports only its first head connected: force the
# others on so every client sees every output (virtio backend).
MMX_CLIENT=all
export MMX_CLIENT
. "$dir/lib.sh"
if [ "$BACKEND" = virtio ]; then
	for f in "$DRI"/*/force; do
		case ${f%/force} in
		*/Writeback-*) continue ;;
		esac
		echo on >"$f" && echo "forced ${f%/force} on"
	done
fi
for client in "$@"; do
	echo "==== $client"
	# generous: TCG on a loaded 2-core machine; only a hang reaches it.
	# timeout leads its own process group: whatever the client left
	# running there (a server it started) goes with it afterwards.
	sh -c 'echo $$ >/tmp/client.pgid; exec timeout -k 10 900 sh "$1"' \
		sh "$dir/$client.sh"
	rc=$?
	# the client's CRC readers are gone with it: a crc/data left open
	# keeps mmx computing CRCs for nobody
	left=
	for pid in $(find /proc/[0-9]*/fd -lname '*/crc/data' 2>/dev/null |
		cut -d/ -f3 | sort -u); do
		left="$left $pid ($(cat "/proc/$pid/comm" 2>/dev/null))"
	done
	if [ -n "$left" ]; then
		echo "Subtest $client-crc-closed: FAIL (crc/data still open in$left)"
		status=1
	else
		echo "Subtest $client-crc-closed: SUCCESS"
	fi
	kill -KILL -- "-$(cat /tmp/client.pgid)" 2>/dev/null
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		echo "Subtest $client: TIMEOUT (killed after 900 s)"
		status=1
	elif [ $rc -ne 0 ]; then
		status=1
	fi
	echo "==== $client: exit $rc"
done
exit $status
