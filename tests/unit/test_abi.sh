#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# test_abi - libmmx's ABI against its committed reference,
# userspace/lib/libmmx.abi (installed as build/unit/test_abi with the
# source tree's and the build's paths filled in; run with the host unit
# tests):
#
#   abi-symbols  the names libmmx.so.1 exports, each with its version node
#                ("symbol NAME NODE"), are the reference's: none removed,
#                renamed, moved to another node, or added without it
#   abi-layout   the size of every public struct of libmmx.h and
#                libmmx_media.h and the offset and size of each of its
#                members ("struct NAME SIZE", "member NAME.MEMBER OFFSET
#                SIZE", from a small program compiled against the
#                headers) are the reference's
#   abi-documented  every function libmmx.so.1 exports is named
#                ("``NAME()``") in Documentation/libmmx.rst
#
# A difference is printed as a diff (- the reference, + the build) with
# what to do. Libmmx's rule (Documentation/libmmx.rst, "ABI and SONAME"):
# a new function goes into a new version node, a struct handed out by
# libmmx only gains members at its end; then `test_abi --update` writes the
# new reference, to commit with the change. Anything else breaks the ABI
# and needs a new SONAME.
#
# Prints "Subtest NAME: SUCCESS|FAIL" lines and "N passed, N failed".
#
# Usage: test_abi [--update] [SOURCE-TREE [BUILD-DIR]]
#        (default: the tree and the build it was installed from)
update=0
if [ "${1:-}" = --update ]; then
	update=1
	shift
fi
SRC=${1:-@SRC@}
BUILD=${2:-@BUILD@}
REF=$SRC/userspace/lib/libmmx.abi
LIB=$BUILD/lib/libmmx.so.1
INC=$SRC/userspace/include
passed=0
failed=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

result() {
	if [ "$2" = 0 ]; then
		echo "Subtest $1: SUCCESS"
		passed=$((passed + 1))
	else
		echo "Subtest $1: FAIL"
		failed=$((failed + 1))
	fi
}

# "symbol NAME NODE" for every function libmmx.so.1 defines, sorted
symbols() {
	nm -D --defined-only --with-symbol-versions "$LIB" |
		awk '$2 == "T" { split($3, v, "@@");
				 print "symbol " v[1] " " v[2] }' | sort
}

# The members of every top-level struct of the public headers: a line
# "NAME" opens a struct, "NAME MEMBER" lines follow (one member a line, as
# the headers declare them)
members() {
	awk '/^struct [a-z_0-9]+ \{/ { name = $2; print name; inside = 1;
				       next }
	     inside && /^\};/ { inside = 0; next }
	     inside && /^\t[^\/ *]/ {
		line = $0
		sub(/;.*/, "", line)
		sub(/\[.*/, "", line)
		n = split(line, w, /[ \t*]+/)
		print name " " w[n]
	     }' "$INC/libmmx.h" "$INC/libmmx_media.h"
}

# "struct NAME SIZE" and "member NAME.MEMBER OFFSET SIZE" lines, in the
# headers' order, from a program built against them
layout() {
	{
		cat <<'END'
#include <stddef.h>
#include <stdio.h>
#include "libmmx.h"
#include "libmmx_media.h"
#define M(s, m) printf("member %s.%s %zu %zu\n", #s, #m, \
	offsetof(struct s, m), sizeof(((struct s *)0)->m))
#define S(s) printf("struct %s %zu\n", #s, sizeof(struct s))
int main(void)
{
END
		members | awk 'NF == 1 { print "\tS(" $1 ");" }
			       NF == 2 { print "\tM(" $1 ", " $2 ");" }'
		printf '\treturn 0;\n}\n'
	} >"$tmp/layout.c"
	cc -std=gnu11 -Wall -Werror -I"$INC" -o "$tmp/layout" \
		"$tmp/layout.c" || return 1
	"$tmp/layout"
}

if [ ! -e "$LIB" ]; then
	echo "test_abi: no $LIB (build userspace first)" >&2
	echo "0 passed, 1 failed"
	exit 1
fi

symbols >"$tmp/symbols" || exit 1
layout >"$tmp/layout.out" || { echo "0 passed, 1 failed"; exit 1; }

if [ $update = 1 ]; then
	{
		echo "# libmmx's ABI, checked by tests/unit/test_abi.sh: what"
		echo "# libmmx.so.1 exports (symbol NAME NODE) and the layout of the"
		echo "# public structs (struct NAME SIZE, member NAME.MEMBER OFFSET"
		echo "# SIZE) on x86-64. Regenerate with build/unit/test_abi --update"
		echo "# only for a change Documentation/libmmx.rst's \"ABI and SONAME\""
		echo "# allows."
		cat "$tmp/symbols" "$tmp/layout.out"
	} >"$REF"
	echo "test_abi: wrote $REF"
	exit 0
fi

# Subtest $1: the reference's lines matching $2 against file $3; on a
# difference the diff, then $4 (what differs) and $5 (what to do)
compare() {
	grep -E "$2" "$REF" >"$tmp/ref"
	diff -u "$tmp/ref" "$3" >"$tmp/diff"
	rc=$?
	[ $rc = 0 ] || printf '%s differ from %s:\n%s\n%s\n' "$4" "$REF" \
		"$(cat "$tmp/diff")" "$5" >&2
	result "$1" $rc
}

compare abi-symbols '^symbol ' "$tmp/symbols" "libmmx.so.1's exports" \
	"a removed or renamed function, or one moved to another node, breaks the ABI; a new one goes into a new version node (lib/libmmx.map), then test_abi --update"
compare abi-layout '^(struct|member) ' "$tmp/layout.out" \
	"the public structs' layouts" \
	"a struct libmmx hands out may only gain members at its end (then test_abi --update); the frozen value types (struct mmx_mode, mmx_transform_info, mmx_panning_info, mmx_error and libmmx_media.h's) never change"

rc=0
for name in $(awk '{ print $2 }' "$tmp/symbols"); do
	grep -q "\`\`$name()\`\`" "$SRC/Documentation/libmmx.rst" || {
		echo "$name: not in Documentation/libmmx.rst (its Function index)" >&2
		rc=1
	}
done
result abi-documented $rc

echo "$passed passed, $failed failed"
[ $failed = 0 ]
