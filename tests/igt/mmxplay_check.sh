#!/bin/sh
# SPDX-License-Identifier: MIT
#
# mmxplay_check - mmxplay through mmxd in the test guest (busybox sh), with
# mmx loaded by the harness. Needs mmxd, mmxplay, mmx_test_media and
# mmxrandr on PATH and mmx_igt_lib next to this script. With a sound card
# (QEMU intel-hda, see tests/vm/README.md) mmxd plays the audio through
# plughw:0,0 and the audio is the stream clock; without one the clips play
# video only on the monotonic clock (the line "audio: none" says so).
#
# The media is made here by the test helper mmx_test_media: 320x240 MJPEG
# at 10 fps with 8 kHz mono PCM (about 75 KB/s), a frame number drawn in
# each picture that --capture-check reads back from writeback captures.
#
# Subtests (printed as "Subtest NAME: SUCCESS|FAIL|SKIP"):
#   play-unix       a 5 s clip over the UNIX socket: every frame presented,
#                   none expired or failed, every audio chunk played, A/V
#                   offset median under one frame period, p99 within two
#   play-tcp        the same over tcp:127.0.0.1 (mmxd --listen, cookie)
#   captures        the clip again with 3 writeback captures through mmxd
#                   while it plays: each shows the test picture with the
#                   frame due at its time (within a second), every frame is
#                   presented; the A/V offset is not judged (a capture
#                   occupies mmxd: frames near one were seen 2.9 frame
#                   periods off)
#   play-mpeg       the clip with MPEG-1/2 Layer II audio (SKIP when
#                   libtwolame cannot be loaded to make it, or mmxd cannot
#                   decode MPEG)
#   play-no-audio   --no-audio: the video alone on the monotonic clock
#   corrupt-avi     truncated, garbage, a chunk size past its list, a
#                   missing file: exit 1 with a message saying what is wrong
#                   and no connection; mmxd keeps serving
#   corrupt-frames  every 5th JPEG undecodable: exactly those frames fail
#                   (decode failed), the others are presented, exit 1;
#                   mmxd keeps serving the next clip
# Timing checks (expired frames, the A/V offset) turn into SKIP when
# mmxplay saw the guest stall longer than a frame period (TCG pauses), as
# kms_mmx_flip does.
#
# Usage: mmxplay_check [--seconds S] [--subtest NAME[,NAME...]] [--list]

seconds=5
only=
failed=0
sock=/run/mmx/mmxd.sock
port=7417
log=/tmp/mmxplay_mmxd.log
dir=/tmp/mmxplay_check
all="play-unix play-tcp captures play-mpeg play-no-audio corrupt-avi corrupt-frames"

lib=$(dirname "$0")/mmx_igt_lib; [ -f "$lib" ] || lib=$lib.sh; . "$lib"

while [ $# -gt 0 ]; do
	case $1 in
	--seconds) seconds=$2; shift ;;
	--subtest) only=$2; shift ;;
	*) other_option mmxplay_check "$all" "$1" ;;
	esac
	shift
done

for p in mmxd mmxplay mmx_test_media; do
	command -v $p >/dev/null || { echo "mmxplay_check: $p not on PATH" >&2; exit 2; }
done
mkdir -p $dir

# the value of KEY in the mmxplay-stats line of file $1
# awk comparison: fcmp A OP B
fcmp() {
	awk -v a="$1" -v b="$3" "BEGIN { exit !(a $2 b) }"
}

# A loopback interface for TCP (the guest's init leaves it down).
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up 2>/dev/null

audio=0
if [ -e /proc/asound/cards ] && grep -q '^ *[0-9]' /proc/asound/cards; then
	audio=1
	echo "audio: $(sed -n 's/^ *0 \[[^]]*\]: //p' /proc/asound/cards | head -n 1) (plughw:0,0), the stream clock"
	mmxd -v --listen tcp:127.0.0.1:$port --audio-device plughw:0,0 \
		>$log 2>&1 &
else
	echo "audio: none (no sound card): video only, monotonic clock"
	mmxd -v --listen tcp:127.0.0.1:$port --no-audio >$log 2>&1 &
fi
daemon_pid=$!
if ! wait_socket $sock || ! alive; then
	echo "mmxplay_check: mmxd did not start" >&2
	sed 's/^/    | /' $log >&2
	for t in $all; do wanted $t && echo "Subtest $t: FAIL"; done
	exit 1
fi

noaudio=
[ $audio = 1 ] || noaudio=--no-audio

mmx_test_media $dir/clip.avi --seconds "$seconds" >$dir/make.log 2>&1 ||
	{ cat $dir/make.log >&2; echo "mmxplay_check: cannot make the test media" >&2; }

# play NAME ARGS...: run mmxplay --stats ARGS, keep its output in
# $dir/NAME.out, show it indented; sets $rc.
play() {
	name=$1
	shift
	mmxplay --stats "$@" >$dir/$name.out 2>&1
	rc=$?
	sed 's/^/    | /' $dir/$name.out >&2
	msg "exit status $rc"
}

# judge NAME FRAMES: the checks of a clean play of $dir/NAME.out; sets st
judge() {
	out=$dir/$1.out
	want=$2
	if [ $rc != 0 ]; then
		msg "mmxplay exited $rc"
		st=FAIL
	fi
	if ! grep -q '^mmxplay-stats:' $out; then
		msg "no figures"
		st=FAIL
		return
	fi
	for k in failed decode_failed missing; do
		v=$(stat_of $out $k)
		[ "$v" = 0 ] || { msg "$k=$v (want 0)"; st=FAIL; }
	done
	v=$(stat_of $out sent)
	[ "$v" = "$want" ] || { msg "sent=$v (want $want)"; st=FAIL; }
	as=$(stat_of $out audio_sent)
	ap=$(stat_of $out audio_played)
	af=$(stat_of $out audio_failed)
	if [ -n "$3" ]; then
		{ [ "$as" -gt 0 ] && [ "$as" = "$ap" ] && [ "$af" = 0 ]; } ||
			{ msg "audio: $as sent, $ap played, $af failed"; st=FAIL; }
	fi
	# the timing checks: SKIP rather than FAIL after a guest stall
	tfail=0
	pres=$(stat_of $out presented)
	exp=$(stat_of $out expired)
	p99=$(stat_of $out off_p99_frames)
	med=$(stat_of $out off_median_frames)
	[ "$pres" = "$want" ] || { msg "presented=$pres (want $want)"; tfail=1; }
	[ "$exp" = 0 ] || { msg "expired=$exp"; tfail=1; }
	fcmp "$p99" '<=' 2 || { msg "A/V offset p99 $p99 frame periods (want <= 2)"; tfail=1; }
	fcmp "$med" '<' 1 || { msg "A/V offset median $med frame periods (want < 1)"; tfail=1; }
	if [ $tfail = 1 ]; then
		stalls=$(stat_of $out stalls)
		smax=$(stat_of $out stall_max_ms)
		fms=$(stat_of $out frame_ms)
		if [ "$st" != FAIL ] && [ "${stalls:-0}" -gt 0 ] &&
		   fcmp "$smax" '>=' "$fms"; then
			msg "the guest stalled ($stalls pauses, the longest $smax ms): timing not judged"
			st=SKIP
		else
			st=FAIL
		fi
	fi
	msg "A/V offset median $med, p99 $p99 frame periods; overhead $(stat_of $out overhead_pct)%"
}

frames=$(awk -v s="$seconds" 'BEGIN { printf "%d", s * 10 + 0.5 }')

if wanted play-unix; then
	start play-unix "a clip over the UNIX socket: every frame on time, audio played, captures show it"
	play play-unix --display unix:$sock $noaudio $dir/clip.avi
	judge play-unix $frames $([ $audio = 1 ] && echo audio)
	result play-unix
fi

if wanted play-tcp; then
	start play-tcp "the same clip over TCP loopback with the cookie"
	play play-tcp --display tcp:127.0.0.1:$port $noaudio $dir/clip.avi
	judge play-tcp $frames $([ $audio = 1 ] && echo audio)
	result play-tcp
fi

if wanted captures; then
	start captures "writeback captures while playing show the frame due"
	# --expire 0: frames held up by a capture are shown late, not dropped
	play captures --display unix:$sock --capture-check 3 --expire 0 \
		$noaudio $dir/clip.avi
	[ $rc = 0 ] || { msg "mmxplay exited $rc"; st=FAIL; }
	grep -q '^captures: 3 of 3 checked$' $dir/captures.out ||
		{ msg "captures did not all show the clip"; st=FAIL; }
	[ "$(grep -c '^capture [0-9]*: frame' $dir/captures.out)" = 3 ] ||
		{ msg "not 3 frame numbers read"; st=FAIL; }
	v=$(stat_of $dir/captures.out presented)
	e=$(stat_of $dir/captures.out expired)
	if [ "$v" != "$frames" ]; then
		msg "presented=$v (want $frames), expired=$e"
		[ "$st" = FAIL ] || st=SKIP
		[ "$(stat_of $dir/captures.out stalls)" -gt 0 ] || st=FAIL
	fi
	result captures
fi

if wanted play-mpeg; then
	start play-mpeg "a clip with MPEG Layer II audio, decoded by mmxd's pool"
	if [ $audio = 0 ]; then
		msg "no sound card"
		result play-mpeg SKIP
	elif ! mmx_test_media $dir/mpeg.avi --seconds 3 --audio mpeg \
			>$dir/mpeg-make.out 2>&1; then
		sed 's/^/    | /' $dir/mpeg-make.out >&2
		result play-mpeg SKIP
	else
		play play-mpeg --display unix:$sock $dir/mpeg.avi
		if [ $rc != 0 ] && grep -q 'cannot decode this audio' $dir/play-mpeg.out; then
			result play-mpeg SKIP
		else
			judge play-mpeg 30 audio
			result play-mpeg
		fi
	fi
fi

if wanted play-no-audio; then
	start play-no-audio "the video alone on the monotonic clock"
	play play-no-audio --no-audio --clock monotonic $dir/clip.avi
	judge play-no-audio $frames
	v=$(stat_of $dir/play-no-audio.out audio_sent)
	[ "$v" = 0 ] || { msg "audio_sent=$v with --no-audio"; st=FAIL; }
	result play-no-audio
fi

if wanted corrupt-avi; then
	start corrupt-avi "broken files: exit 1 with a clear message, no connection, mmxd serving"
	before=$(grep -c 'connected' $log)
	head -c 20000 $dir/clip.avi >$dir/trunc.avi
	dd if=/dev/urandom of=$dir/garbage.avi bs=1k count=64 2>/dev/null
	# the 'movi' list's size (4 bytes after "LIST" before "movi") made huge
	cp $dir/clip.avi $dir/bigchunk.avi
	off=$(od -A n -v -t x1 -N 4096 $dir/bigchunk.avi | tr -s ' ' '\n' |
	      awk 'NF { b[n++] = $1 } END { for (i = 0; i + 3 < n; i++)
		if (b[i] b[i+1] b[i+2] b[i+3] == "6d6f7669") { print i; exit } }')
	printf '\377\377\377\177' |
		dd of=$dir/bigchunk.avi bs=1 seek=$((off - 4)) conv=notrunc 2>/dev/null
	for c in "trunc.avi:truncated" "garbage.avi:not an AVI" \
		 "bigchunk.avi:run past" "missing.avi:No such file"; do
		f=${c%%:*}
		words=${c#*:}
		mmxplay $dir/$f >$dir/corrupt.out 2>&1
		rc=$?
		sed 's/^/    | /' $dir/corrupt.out >&2
		[ $rc = 1 ] || { msg "$f: exit $rc (want 1)"; st=FAIL; }
		grep -q "mmxplay: .*$words" $dir/corrupt.out ||
			{ msg "$f: no message with '$words'"; st=FAIL; }
	done
	after=$(grep -c 'connected' $log)
	[ "$before" = "$after" ] || { msg "mmxplay connected to mmxd with a broken file"; st=FAIL; }
	alive || { msg "mmxd died"; st=FAIL; }
	if command -v mmxrandr >/dev/null; then
		MMX_SOCKET=$sock mmxrandr -q >$dir/q.out 2>&1 ||
			{ msg "mmxrandr -q through mmxd failed"; sed 's/^/    | /' $dir/q.out >&2; st=FAIL; }
	fi
	result corrupt-avi
fi

if wanted corrupt-frames; then
	start corrupt-frames "undecodable JPEGs fail alone; mmxd keeps serving"
	if ! mmx_test_media $dir/bad.avi --seconds 3 --corrupt-every 5 \
			>$dir/bad-make.out 2>&1; then
		sed 's/^/    | /' $dir/bad-make.out >&2
		st=FAIL
	else
		play corrupt-frames $noaudio $dir/bad.avi
		[ $rc = 1 ] || { msg "exit $rc (want 1)"; st=FAIL; }
		d=$(stat_of $dir/corrupt-frames.out decode_failed)
		p=$(stat_of $dir/corrupt-frames.out presented)
		e=$(stat_of $dir/corrupt-frames.out expired)
		f=$(stat_of $dir/corrupt-frames.out failed)
		[ "$d" = 6 ] || { msg "decode_failed=$d (want 6 of 30)"; st=FAIL; }
		[ "$f" = 0 ] || { msg "failed=$f"; st=FAIL; }
		if [ "$p" != 24 ]; then
			msg "presented=$p (want 24), expired=$e"
			stalls=$(stat_of $dir/corrupt-frames.out stalls)
			if [ "$st" != FAIL ] && [ "${e:-0}" -gt 0 ] &&
			   [ "$((p + e))" = 24 ] && [ "${stalls:-0}" -gt 0 ]; then
				st=SKIP
			else
				st=FAIL
			fi
		fi
		grep -q 'decode failed' $dir/corrupt-frames.out ||
			{ msg "no message about the bad frames"; st=FAIL; }
		alive || { msg "mmxd died"; st=FAIL; }
		# the next clip plays
		play after-bad --display unix:$sock --no-audio --clock monotonic $dir/clip.avi
		[ $rc = 0 ] || { msg "the next clip failed ($rc)"; st=FAIL; }
	fi
	result corrupt-frames
fi

kill -TERM "$daemon_pid" 2>/dev/null
wait "$daemon_pid"
drc=$?
[ $drc = 0 ] || { echo "mmxplay_check: mmxd exited $drc" >&2; sed 's/^/    | /' $log | tail -n 20 >&2; failed=1; }
exit $failed
