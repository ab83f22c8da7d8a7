#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# test_layers - the layering of Documentation/architecture.rst, checked on
# the sources' includes and calls (installed as build/unit/test_layers with
# the source tree's path filled in; run with the host unit tests):
#
#   pure-no-drm          the pure files (pixel_geometry/, shared with
#                        libmmx, the host tests and the benchmark, and the
#                        RandR property, sink preset and EDID building
#                        files the host tests compile) include no DRM
#                        header and no core header
#   pixel-geometry-apart the files of pixel_geometry/ include only each
#                        other (and system headers): the folder builds
#                        anywhere
#   core-no-backend      the KMS core (mmx_core.ko's sources and headers
#                        but the pure ones) calls no backend-named
#                        function and includes no backend header:
#                        backends are reached through struct
#                        mmx_backend_funcs only
#   backends-apart       the virtual backend and the virtio-gpu backend do
#                        not reach into each other
#   userspace-pure-only  userspace takes from the driver only the
#                        transform maths' headers (mmx_transform.h,
#                        mmx_fixed.h, mmx_pure.h: what libmmx compiles;
#                        never the rasteriser or its SIMD tables), and the
#                        uAPI header
#   libmmx-apart         libmmx (userspace/lib) includes nothing of mmxd or
#                        of its private library (userspace/private)
#   private-public-only  the private library (userspace/private) includes
#                        libmmx's public headers (userspace/include) and
#                        its own only, never a header of libmmx's insides
#   mmxd-services-below  mmxd's services (media.c, time.c and their
#                        headers mmxd_media.h, mmxd_service.h) include
#                        neither the server's header (mmxd_server.h) nor
#                        mmxd.h, and call nothing of the server's (its
#                        mmxd_server_*, mmxd_conn_*, mmxd_reply*,
#                        mmxd_handle, mmxd_request_*, mmxd_log, nor the
#                        log lines under it): they answer and log through
#                        the event sink the server gives them
#   mmxd-media-below-time  media.c names nothing of TIME (time.c is above
#                        it and is told through struct mmxd_media_listener)
#   mmxd-backend-below   mmxd's media backend (media_kms.c, mmxd_backend.h)
#                        and the log lines (log.c, mmxd_log.h) include no
#                        header of the server or the services and call
#                        none of their functions
#   tools-public-api     mmxrandr and mmxplay include libmmx's public
#                        headers only (besides their own)
#   state-opaque         libmmx's clients (the tools, mmxdemo, the IGT
#                        tests but the wire fuzzer, tests/clients) include
#                        no header that lays out struct mmx_state or
#                        struct mmx_config (mmx_state.h, mmx_config.h, or
#                        the internal headers that include them): they
#                        read a snapshot through accessors and fill a
#                        config through setters
#
# Prints "Subtest NAME: SUCCESS|FAIL" lines, the offending lines on stderr,
# and "N passed, N failed".
#
# Usage: test_layers [SOURCE-TREE]   (default: the tree it was installed from)
SRC=${1:-@SRC@}
DRV=$SRC/drivers/gpu/drm/mmx
US=$SRC/userspace
passed=0
failed=0

if [ ! -f "$DRV/mmx_drv.h" ]; then
	echo "test_layers: no driver sources in '$SRC'" >&2
	exit 2
fi

# result NAME OFFENDERS: SUCCESS when OFFENDERS is empty.
result() {
	if [ -z "$2" ]; then
		echo "Subtest $1: SUCCESS"
		passed=$((passed + 1))
	else
		printf '%s\n' "$2" | sed 's/^/  /' >&2
		echo "Subtest $1: FAIL"
		failed=$((failed + 1))
	fi
}

# code FILE...: their lines but comments (grep -n style, FILE:LINE:TEXT);
# a line that opens a block comment or continues one is a comment line.
code() {
	awk '
		FNR == 1 { inc = 0 }
		{
			line = $0
			if (inc) {
				if (line ~ /\*\//) { inc = 0; sub(/.*\*\//, "", line) }
				else next
			}
			gsub(/\/\*([^*]|\*[^\/])*\*\//, "", line)
			if (line ~ /\/\*/) { inc = 1; sub(/\/\*.*/, "", line) }
			sub(/\/\/.*/, "", line)
			if (line ~ /[^ \t]/) print FILENAME ":" FNR ":" line
		}' "$@"
}

cd "$DRV" || exit 2
PURE=$(echo pixel_geometry/*.[ch] mmx_randr_props.[ch] mmx_edid.[ch] \
	mmx_sink_presets.c)
# what libmmx compiles of the driver: the transform maths
LIBMMX_PURE="mmx_transform.h mmx_fixed.h mmx_pure.h"
CORE=
for f in mmx_*.[ch]; do
	case " $PURE " in *" $f "*) continue ;; esac
	case $f in mmx_virtual* | mmx_virtio*) continue ;; esac
	CORE="$CORE $f"
done
VIRTIO=$(echo mmx_virtio*.[ch])

# shellcheck disable=SC2086 # file lists
result pure-no-drm "$(code $PURE | grep -E \
	'#[ \t]*include[ \t]*[<"](drm/|mmx_drv\.h|mmx_virtio\.h|mmx_compat\.h|linux/virtio)')"
# shellcheck disable=SC2086
result pixel-geometry-apart "$(code pixel_geometry/*.[ch] | grep -E \
	'#[ \t]*include[ \t]*"' | grep -vE '#[ \t]*include[ \t]*"mmx_[a-z0-9_]+\.h"' ;
	for f in pixel_geometry/*.[ch]; do
		code "$f" | sed -n 's/.*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' |
		while read -r h; do
			[ -f "pixel_geometry/$h" ] || echo "$f: $h"
		done
	done)"
# shellcheck disable=SC2086
result core-no-backend "$(code $CORE | grep -E \
	'\bmmx_virt(io|ual)_[a-z0-9_]+[ \t]*\(|#[ \t]*include[ \t]*[<"](mmx_virtio\.h|linux/virtio)')"
# shellcheck disable=SC2086
result backends-apart "$( (code mmx_virtual*.[ch] | grep -E \
	'\bmmx_virtio_[a-z0-9_]+[ \t]*\(|#[ \t]*include[ \t]*"mmx_virtio\.h"'
	code $VIRTIO | grep -E '\bmmx_virtual_[a-z0-9_]+[ \t]*\(') )"

cd "$US" || exit 2
# the driver's headers userspace may use: the transform maths'
offenders=
for h in "$DRV"/mmx_*.h "$DRV"/pixel_geometry/mmx_*.h; do
	h=${h##*/}
	case " $LIBMMX_PURE " in *" $h "*) continue ;; esac
	offenders="$offenders$(grep -rnE "#[ \t]*include[ \t]*[<\"]${h}[\">]" . \
		--include='*.[ch]')
"
done
offenders="$offenders$(grep -rnE '#[ \t]*include[ \t]*<drm/(drm_|mmx_)' . \
	--include='*.[ch]' | grep -v 'drm/mmx_drm\.h')"
result userspace-pure-only "$(printf '%s\n' "$offenders" | sed '/^$/d')"
result libmmx-apart "$(grep -nE \
	'#[ \t]*include[ \t]*"(mmxd\.h|mmx_decode\.h|mmx_audio\.h|mmx_clock\.h|jpegd\.h)"' \
	lib/*.[ch] include/*.h)"
result private-public-only "$(code private/*.[ch] |
	grep -E '#[ \t]*include[ \t]*[<"]' | while IFS= read -r line; do
		h=$(printf '%s\n' "$line" | sed -E 's/.*include[ \t]*[<"]([^>"]*)[>"].*/\1/')
		case $line in
		*'"'*) [ -f "include/$h" ] || [ -f "private/$h" ] ||
			printf '%s\n' "$line" ;;
		*) [ -f "lib/$h" ] && printf '%s\n' "$line" ;;
		esac
	done)"
# mmxd's layers: server -> services (time -> media) -> backend
MMXD_SERVER_CALLS='\bmmxd_((server|conn|reply|handle|request)[a-z0-9_]*|log)[ \t]*\('
result mmxd-services-below "$(code mmxd/media.c mmxd/time.c \
	mmxd/mmxd_media.h mmxd/mmxd_service.h | grep -E \
	"#[ \t]*include[ \t]*\"(mmxd|mmxd_server)\.h\"|$MMXD_SERVER_CALLS|\\bmmxd_(log_va|say)[ \t]*\\(")"
result mmxd-media-below-time "$(code mmxd/media.c | grep -E \
	'\bmmxd_time_[a-z0-9_]*[ \t]*\(|\bMMXD_TIME_|\bstruct[ \t]+mmxd_time\b')"
result mmxd-backend-below "$(code mmxd/media_kms.c mmxd/mmxd_backend.h \
	mmxd/log.c mmxd/mmxd_log.h | grep -E \
	"#[ \t]*include[ \t]*\"(mmxd|mmxd_server|mmxd_service|mmxd_media)\.h\"|$MMXD_SERVER_CALLS|\\bmmxd_(media|time)_[a-z0-9_]*[ \t]*\\(")"
result tools-public-api "$(grep -nE '#[ \t]*include[ \t]*"' \
	mmxrandr/*.[ch] mmxplay/*.[ch] |
	grep -vE '"(libmmx|libmmx_media|mmxrandr|mmxplay|avi|avi_riff)\.h"')"
# the wire fuzzer speaks the protocol itself: it may know the layout
clients=
for f in mmxrandr/*.[ch] mmxplay/*.[ch] demo/*.[ch] "$SRC"/tests/igt/*.[ch] \
	"$SRC"/tests/igt/lib/*.[ch] "$SRC"/tests/clients/*.c; do
	case $f in */mmxd_fuzz.c) continue ;; esac
	[ -f "$f" ] && clients="$clients $f"
done
# shellcheck disable=SC2086 # file list
result state-opaque "$(grep -nE \
	'#[ \t]*include[ \t]*"(mmx_state|mmx_config|mmx_internal|mmx_display_ops|mmx_wire|mmx_kms|mmxd)\.h"' \
	$clients)"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
