# SPDX-License-Identifier: GPL-2.0-only
#
# Suites in lanes, sourced by tests/run-all and tests/run-debug: run a suite
# (a command that closes with "N passed, N failed, N skipped"), print its
# output whole when it ends (never interleaved with another lane's), keep
# its counts, and close the run with what failed and the grand total.
#
# The sourcing script sets `args` (its own arguments: "-k PATTERN" or
# nothing) before calling `wanted`, runs its lanes as background functions,
# and ends with `suites_summary NAME`, whose status is the run's.

# the lines that say what failed: a subtest and its assertion, a timing
# attempt, a guest run, a suite, a checker of the debug kernel
FAILURE_LINES='Subtest [^:]+: (FAIL|CRASH|TIMEOUT)|\[last errno: |missed the timing criteria|mmx-vm: FAIL|mmx-check: FAIL|^not ok|: FAIL\b|FAILED|BUG: KASAN|WARNING: |UBSAN: |unreferenced object'

suites_out=$(mktemp -d)
trap 'rm -rf "$suites_out"' EXIT
: >"$suites_out/results"
: >"$suites_out/failures"
suites_start=$SECONDS

# wanted KEYWORDS: true without -k, else when PATTERN matches a keyword
wanted() {
	(($# >= 1)) || return 0
	((${#args[@]} < 2)) || [[ ${args[0]} != -k ]] || grep -qE -- "${args[1]}" <<<"$1"
}

# suite NAME CMD...: run one suite, print its output when it ends, record
# its closing counts (a suite without them, or with a non-zero exit
# status, counts as one failure).
suite() {
	local name=$1 log rc line p=0 f=0 s=0 t0=$SECONDS
	shift
	log=$(mktemp "$suites_out/suite.XXXXXX")
	"$@" >"$log" 2>&1
	rc=$?
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	if [[ -n $line ]]; then
		p=$(sed -E 's/^([0-9]+) passed.*/\1/' <<<"$line")
		f=$(sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/' <<<"$line")
		[[ $line =~ ([0-9]+)\ skipped ]] && s=${BASH_REMATCH[1]}
	fi
	((rc != 0 && f == 0)) && f=1
	[[ -z $line ]] && f=1
	printf '%s\t%s\t%s\t%s\t%s\n' "$p" "$f" "$s" "$((SECONDS - t0))" "$name" \
		>>"$suites_out/results"
	{
		flock 9
		if ((f)); then
			echo "  $name:"
			grep -E "$FAILURE_LINES" "$log" | head -n 20 | sed 's/^/    /'
		fi >>"$suites_out/failures"
		echo "==== $name"
		cat "$log"
		[[ -n $line ]] || echo "==== $name: no summary line (exit $rc)"
		((rc == 0)) || echo "==== $name: exit status $rc"
		echo "==== $name: $((SECONDS - t0)) s (at $((SECONDS - suites_start)) s)"
	} 9>"$suites_out/print.lock"
	rm -f "$log"
}

# suites_summary NAME: the failed suites and their failure lines, the time,
# the grand total; false when anything failed.
suites_summary() {
	local passed failed skipped
	read -r passed failed skipped < <(awk -F'\t' \
		'{ p += $1; f += $2; s += $3 } END { print p + 0, f + 0, s + 0 }' \
		"$suites_out/results")
	echo
	if ((failed)); then
		echo "failed suites:"
		awk -F'\t' '$2 > 0 { print "  " $5 " (" $2 " failed)" }' \
			"$suites_out/results"
		echo "what failed:"
		cat "$suites_out/failures"
	fi
	echo "$1: $((SECONDS - suites_start)) s"
	echo "$passed passed, $failed failed, $skipped skipped"
	((failed == 0))
}
