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
