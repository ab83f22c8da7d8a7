#!/bin/sh
# SPDX-License-Identifier: MIT
#
# kms_mmx_virtio_reload - binding, unbinding and reloading mmx's virtio-gpu
# backend, run in the test guest (busybox sh) with mmx_virtio loaded by the
# harness and bound to the only virtio-gpu device, and mmxdemo on PATH.
#
# Subtests (printed as "Subtest NAME: SUCCESS|FAIL|SKIP"):
#   virtio-bound        mmx_virtio bound the virtio-gpu device; the virtual
#                       backend (module mmx) is not loaded and no virtual
#                       device exists
#   virtual-alone       with mmx_virtio gone, `modprobe mmx` creates the
#                       virtual device (eDP-1, VGA-1), leaves the
#                       virtio-gpu device alone and loads no virtio backend
#   both-backends       mmx and mmx_virtio loaded together: two devices;
#                       removing mmx leaves the virtio device working
#   reload-live-client  N times (default 10): modprobe, a client (mmxdemo)
#                       lights every output and holds them, the device is
#                       unbound under it (debugfs mmx/virtio: no device, no
#                       live host resource, no host error), the client is
#                       killed, rmmod
# At the end mmx_virtio is loaded again for the harness to unload.
#
# Usage: kms_mmx_virtio_reload [--cycles N] [--list]

cycles=10
failed=0

while [ $# -gt 0 ]; do
	case $1 in
	--cycles) cycles=$2; shift ;;
	--list)
		echo virtio-bound; echo virtual-alone; echo both-backends
		echo reload-live-client
		exit 0 ;;
	-h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "kms_mmx_virtio_reload: unknown option '$1'" >&2; exit 2 ;;
	esac
	shift
done

DRV=/sys/bus/virtio/drivers/mmx_virtio
TOTALS=/sys/kernel/debug/mmx/virtio

# subtest helpers: wanted, start, result, msg
lib=$(dirname "$0")/mmx_igt_lib; [ -f "$lib" ] || lib=$lib.sh; . "$lib"

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

# Remove the backend module $1 and then the core it loaded.
unload() {
	rmmod "$1" 2>/dev/null
	[ -e /sys/module/mmx ] || [ -e /sys/module/mmx_virtio ] ||
		rmmod mmx_core 2>/dev/null
	! [ -e "/sys/module/$1" ]
}

GPU=$(gpu_dev)
if [ -z "$GPU" ]; then
	for t in virtio-bound virtual-alone both-backends reload-live-client; do
		echo "Subtest $t: SKIP (no virtio-gpu device)"
	done
	exit 0
fi

start virtio-bound "mmx_virtio binds the virtio-gpu device; no virtual device, no module mmx"
ok=1
[ -e "$DRV/$GPU" ] || { msg "$GPU is not bound to mmx_virtio"; ok=0; }
[ -e /sys/bus/platform/devices/mmx ] && { msg "the virtual device exists too"; ok=0; }
[ -e /sys/module/mmx ] && { msg "module mmx is loaded"; ok=0; }
[ "$(total devices)" = 1 ] || { msg "mmx/virtio says $(total devices) devices"; ok=0; }
[ -n "$(virtio_dri)" ] || { msg "no dri/N/virtio"; ok=0; }
[ $ok = 1 ] && result virtio-bound SUCCESS || result virtio-bound FAIL

unload mmx_virtio || msg "cannot unload mmx_virtio"

start virtual-alone "modprobe mmx creates the virtual device, leaves the virtio-gpu device alone, loads no virtio backend"
ok=1
if modprobe mmx; then
	[ -e "$DRV/$GPU" ] && { msg "$GPU bound"; ok=0; }
	[ -e /sys/module/mmx_virtio ] && { msg "mmx_virtio loaded"; ok=0; }
	[ -e /sys/bus/platform/devices/mmx ] || { msg "no virtual device"; ok=0; }
	[ -z "$(virtio_dri)" ] || { msg "a dri/N/virtio exists"; ok=0; }
	grep -q '^mmx_core .*virtio' /proc/modules && { msg "mmx_core uses virtio"; ok=0; }
	unload mmx || { msg "rmmod failed"; ok=0; }
	[ -e /sys/module/mmx_core ] && { msg "mmx_core still loaded"; ok=0; }
else
	msg "modprobe failed"
	ok=0
fi
[ $ok = 1 ] && result virtual-alone SUCCESS || result virtual-alone FAIL

start both-backends "mmx and mmx_virtio together: two devices; removing mmx leaves the virtio device"
ok=1
if modprobe mmx_virtio && modprobe mmx; then
	[ -e "$DRV/$GPU" ] || { msg "$GPU not bound"; ok=0; }
	[ -e /sys/bus/platform/devices/mmx ] || { msg "no virtual device"; ok=0; }
	rmmod mmx || { msg "rmmod mmx failed"; ok=0; }
	[ -e "$DRV/$GPU" ] || { msg "$GPU unbound by rmmod mmx"; ok=0; }
	if ! modetest -M mmx -c >/tmp/both.txt 2>&1 || ! grep -q "DP-1" /tmp/both.txt; then
		msg "the virtio device does not answer after rmmod mmx"
		ok=0
	fi
	unload mmx_virtio || { msg "rmmod mmx_virtio failed"; ok=0; }
else
	msg "modprobe failed"
	ok=0
fi
[ $ok = 1 ] && result both-backends SUCCESS || result both-backends FAIL

start reload-live-client "$cycles times: load, light every output with a client, unbind under the client: no device, no live host resource, no host error; kill the client, unload"
ok=1
i=0
while [ $i -lt "$cycles" ] && [ $ok = 1 ]; do
	i=$((i + 1))
	if ! modprobe mmx_virtio; then
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
	if ! unload mmx_virtio; then
		msg "cycle $i: rmmod failed"
		ok=0
	fi
done
msg "$i cycle(s)"
[ $ok = 1 ] && result reload-live-client SUCCESS || result reload-live-client FAIL

# Leave mmx_virtio loaded, as the harness found it.
modprobe mmx_virtio || failed=1
exit $failed
