# SPDX-License-Identifier: MIT
#
# mmx_igt_lib - the IGT-style subtest helpers of the guest shell tests and
# the helpers they share (other_option, run, mmx_dri, mmxd_fbs, alive,
# wait_socket, stat_of), sourced by them (installed next to them as
# build/igt/mmx_igt_lib):
#
#   lib=$(dirname "$0")/mmx_igt_lib; [ -f "$lib" ] || lib=$lib.sh; . "$lib"
#
# The sourcing script sets $only (comma-separated subtests to run, empty for
# all) and $failed (0); result() sets failed=1 on FAIL.

# other_option NAME SUBTESTS OPTION: the options every script takes but
# --subtest, last in its option loop: --list prints SUBTESTS one a line
# (a script with none takes no --list), -h/--help the script's header
# comment, each exiting 0; anything else is an unknown option of script
# NAME: exit 2.
other_option() {
	case $3 in
	--list)
		if [ -n "$2" ]; then
			for t in $2; do echo "$t"; done
			exit 0
		fi ;;
	-h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	esac
	echo "$1: unknown option '$3'" >&2
	exit 2
}

# wanted NAME: is subtest NAME selected by --subtest?
wanted() {
	[ -z "$only" ] && return 0
	case ",$only," in *",$1,"*) return 0 ;; esac
	return 1
}

# start NAME INTENT: a subtest begins; its status $st starts as SUCCESS.
start() {
	echo "Starting subtest: $1"
	echo "  intent: $2"
	t0=$(cut -d' ' -f1 /proc/uptime)
	st=SUCCESS
}

# result NAME [STATUS]: print the subtest's line (STATUS, else $st) with
# its duration.
result() {
	res=${2:-$st}
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "Subtest $1: $res ($(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')s)"
	[ "$res" = FAIL ] && failed=1
	return 0
}

# msg TEXT...: a detail line on stderr.
msg() {
	echo "  $*" >&2
}

# run CMD...: run a command; show the last 30 lines of its output indented
# on stderr, and say when it fails. Returns its exit status.
run() {
	run_out=/tmp/mmx_igt_run.$$
	"$@" >"$run_out" 2>&1
	rc=$?
	sed 's/^/    | /' "$run_out" | tail -n 30 >&2
	rm -f "$run_out"
	[ $rc = 0 ] || msg "'$*' failed ($rc)"
	return $rc
}

# mmx_dri: the debugfs directory of the mmx device (empty if none).
mmx_dri() {
	for n in /sys/kernel/debug/dri/*/name; do
		[ -e "$n" ] || continue
		case $(cat "$n") in
		mmx*) echo "${n%/name}"; return ;;
		esac
	done
}

# mmxd_fbs: framebuffers allocated by mmxd (debugfs "allocated by = mmxd").
mmxd_fbs() {
	d=$(mmx_dri)
	n=0
	[ -n "$d" ] && n=$(grep -c "allocated by = mmxd" "$d/framebuffer" 2>/dev/null)
	echo "${n:-0}"
}

# alive: is the daemon the script started ($daemon_pid) still running?
alive() {
	[ -n "$daemon_pid" ] && kill -0 "$daemon_pid" 2>/dev/null
}

# wait_socket PATH: wait up to 20 s, while the daemon is alive, for it to
# make the socket PATH; $i is then the number of 0.2 s waits. Fails when
# there is no socket.
wait_socket() {
	i=0
	while [ ! -S "$1" ] && [ $i -lt 100 ] && alive; do
		sleep 0.2
		i=$((i + 1))
	done
	[ -S "$1" ]
}

# stat_of FILE KEY: KEY's value on mmxplay's "mmxplay-stats:" line in FILE.
stat_of() {
	sed -n 's/^mmxplay-stats: //p' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}
