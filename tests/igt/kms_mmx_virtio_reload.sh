#!/bin/sh
# SPDX-License-Identifier: MIT
#
# kms_mmx_virtio_reload - binding, unbinding and reloading mmx on a
# virtio-gpu device, run in the test guest (busybox sh) with mmx loaded by
# the harness (backend=auto) and bound to the only virtio-gpu device, and
# mmxdemo on PATH.
#
# Subtests (printed as "Subtest NAME: SUCCESS|FAIL|SKIP"):
#   backend-auto        the loaded module bound the virtio-gpu device and
#                       created no virtual device
#   backend-bad         backend=foo refuses to load
#   backend-virtual     backend=virtual leaves the virtio-gpu device alone
#                       and creates the virtual device (eDP-1, VGA-1)
#   backend-virtio      backend=virtio binds the device
#   reload-live-client  N times (default 10): modprobe, a client (mmxdemo)
#                       lights every output and holds them, the device is
#                       unbound under it (debugfs mmx/virtio: no device, no
#                       live host resource, no host error), the client is
#                       killed, rmmod
# At the end mmx is loaded again (backend=auto) for the harness to unload.
#
# Usage: kms_mmx_virtio_reload [--cycles N] [--list]

cycles=10
failed=0

while [ $# -gt 0 ]; do
	case $1 in
	--cycles) cycles=$2; shift ;;
	--list)
		echo backend-auto; echo backend-bad; echo backend-virtual
		echo backend-virtio; echo reload-live-client
		exit 0 ;;
	-h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "kms_mmx_virtio_reload: unknown option '$1'" >&2; exit 2 ;;
	esac
	shift
done

DRV=/sys/bus/virtio/drivers/mmx
TOTALS=/sys/kernel/debug/mmx/virtio

# subtest helpers: wanted, start, result, msg
lib=$(dirname "$0")/mmx_igt_lib; [ -f "$lib" ] || lib=$lib.sh; . "$lib"

result() {
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "Subtest $1: $2 ($(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')s)"
	[ "$2" = FAIL ] && failed=1
	return 0
}

# The virtio-gpu device (virtioN), from the bus.
gpu_dev() {
	for d in /sys/bus/virtio/devices/*; do
		[ "$(cat "$d/device" 2>/dev/null)" = 0x0010 ] && basename "$d" && return
	done
}

# Value of KEY in debugfs mmx/virtio.
total() {
	sed -n "s/^$1: //p" "$TOTALS"
}

# The dri/N directory of the mmx device bound to virtio-gpu.
virtio_dri() {
	for v in /sys/kernel/debug/dri/*/virtio; do
		[ -e "$v" ] && dirname "$v" && return
	done
}

unload() {
	rmmod mmx 2>/dev/null
	! [ -e /sys/module/mmx ]
}

GPU=$(gpu_dev)
if [ -z "$GPU" ]; then
	for t in backend-auto backend-bad backend-virtual backend-virtio reload-live-client; do
		echo "Subtest $t: SKIP (no virtio-gpu device)"
	done
	exit 0
fi

start backend-auto "with backend=auto and a virtio-gpu device, mmx binds it and creates no virtual device"
ok=1
[ -e "$DRV/$GPU" ] || { msg "$GPU is not bound to mmx"; ok=0; }
[ -e /sys/bus/platform/devices/mmx ] && { msg "the virtual device exists too"; ok=0; }
[ "$(total devices)" = 1 ] || { msg "mmx/virtio says $(total devices) devices"; ok=0; }
[ -n "$(virtio_dri)" ] || { msg "no dri/N/virtio"; ok=0; }
[ $ok = 1 ] && result backend-auto SUCCESS || result backend-auto FAIL

unload || msg "cannot unload mmx"

start backend-bad "backend=foo refuses to load"
if modprobe mmx backend=foo 2>/dev/null; then
	msg "loaded"
	unload
	result backend-bad FAIL
else
	result backend-bad SUCCESS
fi

start backend-virtual "backend=virtual leaves the virtio-gpu device alone and creates the virtual device"
ok=1
if modprobe mmx backend=virtual; then
	[ -e "$DRV/$GPU" ] && { msg "$GPU bound"; ok=0; }
	[ -e /sys/bus/platform/devices/mmx ] || { msg "no virtual device"; ok=0; }
	[ -z "$(virtio_dri)" ] || { msg "a dri/N/virtio exists"; ok=0; }
	unload || { msg "rmmod failed"; ok=0; }
else
	msg "modprobe failed"
	ok=0
fi
[ $ok = 1 ] && result backend-virtual SUCCESS || result backend-virtual FAIL

start backend-virtio "backend=virtio binds the virtio-gpu device"
ok=1
if modprobe mmx backend=virtio; then
	[ -e "$DRV/$GPU" ] || { msg "$GPU not bound"; ok=0; }
	[ -e /sys/bus/platform/devices/mmx ] && { msg "a virtual device exists"; ok=0; }
	unload || { msg "rmmod failed"; ok=0; }
else
	msg "modprobe failed"
	ok=0
fi
[ $ok = 1 ] && result backend-virtio SUCCESS || result backend-virtio FAIL

start reload-live-client "$cycles times: load, light every output with a client, unbind under the client: no device, no live host resource, no host error; kill the client, unload"
ok=1
i=0
while [ $i -lt "$cycles" ] && [ $ok = 1 ]; do
	i=$((i + 1))
	if ! modprobe mmx; then
		msg "cycle $i: modprobe failed"
		ok=0
		break
	fi
	dri=$(virtio_dri)
	for f in "$dri"/DP-*/force; do
		echo on >"$f"
	done
	log=/tmp/client-$i.log
	: >"$log"
	mmxdemo -m 640x480 -H 0 >"$log" 2>&1 &
	client=$!
	n=0
	while ! grep -q holding "$log" && [ $n -lt 300 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	outputs=$(grep -c "^output " "$log")
	live=$(total live_resources)
	if ! grep -q holding "$log" || [ "$live" != "$outputs" ]; then
		msg "cycle $i: client shows $outputs outputs, $live live host resources"
		cat "$log" >&2
		ok=0
	fi
	echo "$GPU" >"$DRV/unbind"
	if [ "$(total devices)" != 0 ] || [ "$(total live_resources)" != 0 ] ||
	   [ "$(total host_errors)" != 0 ] || [ "$(total submit_errors)" != 0 ]; then
		msg "cycle $i: after unbind:"
		sed 's/^/    /' "$TOTALS" >&2
		ok=0
	fi
	kill -9 $client 2>/dev/null
	wait $client 2>/dev/null
	if ! unload; then
		msg "cycle $i: rmmod failed"
		ok=0
	fi
done
msg "$i cycle(s)"
[ $ok = 1 ] && result reload-live-client SUCCESS || result reload-live-client FAIL

# Leave mmx loaded, as the harness found it.
modprobe mmx || failed=1
exit $failed
