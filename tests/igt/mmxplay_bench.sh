#!/bin/sh
# SPDX-License-Identifier: MIT
#
# mmxplay_bench - mmxplay's figures in the test guest (a benchmark,
# not a test: it prints figures and fails only when playback fails).
# Needs mmxd, mmxplay and mmx_test_media (the test media) on PATH; a sound
# card (QEMU intel-hda, see tests/vm/README.md) for the audio clock, else
# the runs are video only on the monotonic clock and say so.
#
#   sync      60 s of 320x240 MJPEG at 10 fps + 8 kHz mono PCM (about
#             75 KB/s) over TCP loopback, audio as the clock: the A/V
#             offset |stream clock at presentation - pts| (median, p99,
#             max, in ms and frame periods; targets: median under one
#             frame period, p99 under two), frames on time/late/expired,
#             protocol overhead (target: under 2% of payload), bitrate,
#             send -> presented latency (about --ahead, by design)
#   latency   10 s over the UNIX socket with --ahead 150: the end-to-end
#             latency from sending a frame to its presentation when frames
#             are sent as late as mmxd allows
#
# Prints "MMXPLAY-BENCH name key=value ..." lines, then the mmxplay
# output of each run.
#
# Usage: mmxplay_bench [--seconds S]

seconds=60
while [ $# -gt 0 ]; do
	case $1 in
	--seconds) seconds=$2; shift ;;
	-h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "mmxplay_bench: unknown option '$1'" >&2; exit 2 ;;
	esac
	shift
done

sock=/run/mmx/mmxd.sock
port=7418
dir=/tmp/mmxplay_bench
log=$dir/mmxd.log
mkdir -p $dir
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up 2>/dev/null

audio=0
noaudio=--no-audio
if [ -e /proc/asound/cards ] && grep -q '^ *[0-9]' /proc/asound/cards; then
	audio=1
	noaudio=
	mmxd --listen tcp:127.0.0.1:$port --audio-device plughw:0,0 >$log 2>&1 &
else
	echo "mmxplay_bench: no sound card: video only, monotonic clock"
	mmxd --listen tcp:127.0.0.1:$port --no-audio >$log 2>&1 &
fi
pid=$!
i=0
while [ ! -S $sock ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -S $sock ] || { echo "mmxplay_bench: mmxd did not start" >&2; cat $log >&2; exit 1; }

rc=0
stat_of() {
	sed -n 's/^mmxplay-stats: //p' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# bench NAME ARGS...: one run, its figures on one line
bench() {
	name=$1
	shift
	mmxplay --stats "$@" >$dir/$name.out 2>&1 || rc=1
	o=$dir/$name.out
	line="MMXPLAY-BENCH $name audio=$audio"
	for k in frames presented on_time late expired failed decode_failed \
		 missing audio_sent audio_played frame_ms off_median_ms \
		 off_p99_ms off_max_ms off_median_frames off_p99_frames \
		 off_mean_ms lat_median_ms lat_p99_ms bytes_sent payload \
		 overhead_pct payload_kBps stalls stall_max_ms; do
		line="$line $k=$(stat_of $o $k)"
	done
	echo "$line"
}

mmx_test_media $dir/sync.avi --seconds "$seconds" || exit 1
mmx_test_media $dir/short.avi --seconds 10 || exit 1

bench sync --display tcp:127.0.0.1:$port $noaudio $dir/sync.avi
bench latency --display unix:$sock --ahead 150 $noaudio $dir/short.avi

o=$dir/sync.out
awk -v med="$(stat_of $o off_median_frames)" -v p99="$(stat_of $o off_p99_frames)" \
    -v ov="$(stat_of $o overhead_pct)" -v kb="$(stat_of $o payload_kBps)" 'BEGIN {
	printf "MMXPLAY-BENCH targets: A/V median %.2f frame periods (< 1: %s), p99 %.2f (< 2: %s), overhead %.3f%% at %.1f KB/s (< 2%%: %s)\n",
		med, med < 1 ? "met" : "MISSED", p99, p99 < 2 ? "met" : "MISSED",
		ov, kb, ov < 2 ? "met" : "MISSED" }'
for n in sync latency; do
	echo "---- $n"
	cat $dir/$n.out
done

kill -TERM $pid 2>/dev/null
wait $pid
exit $rc
