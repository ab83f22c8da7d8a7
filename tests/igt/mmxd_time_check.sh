#!/bin/sh
# SPDX-License-Identifier: MIT
#
# mmxd_time_check - mmx_time_check (TIME clocks and schedules through
# mmxd's protocol) against an mmxd started here. Run by tests/vm/media-check
# in a guest with a sound card (the audio schedules need one; without it
# mmx_time_check skips them).
#
# Usage: mmxd_time_check [--audio-device DEV]   (default: no audio)

audio="--no-audio"
[ "${1:-}" = --audio-device ] && audio="--audio-device $2"
sock=/run/mmx/mmxd-time.sock
mkdir -p /run/mmx
# shellcheck disable=SC2086
mmxd --socket $sock --decoders 1 $audio >/tmp/mmxd-time.log 2>&1 &
pid=$!
i=0
while [ ! -S $sock ] && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
if [ ! -S $sock ]; then
	cat /tmp/mmxd-time.log
	echo "mmxd_time_check: mmxd did not start"
	exit 1
fi
mmx_time_check --spec unix:$sock
rc=$?
kill -TERM $pid
wait $pid || { cat /tmp/mmxd-time.log; rc=1; }
exit $rc
