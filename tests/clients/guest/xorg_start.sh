# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# xorg_start.sh - start Xorg with the modesetting driver on mmx as display
# :1 (sourced; POSIX sh), for the real-client test (xorg.sh) and the demo
# (tests/vm/demo-guest.sh, which ships this file next to itself).
#
#   xorg_start CARD LOGDIR [XORG-OPTION...]
#       write /tmp/xorg.conf for /dev/dri/cardN CARD and start Xorg :1 on
#       vt2 in the background (its pid in $xpid, its logs in LOGDIR:
#       Xorg.1.log, Xorg.out). -keeptty: Xorg stays in our process group
#       (it would call setsid()), so whatever ends the caller ends it.
#   xorg_wait TRIES
#       wait until the server answers (xdpyinfo), every 0.2 s at most TRIES
#       times while it runs: 0 when it answers, 1 if not. The bound is a
#       safety net for a hung server, never a verdict on speed.

xorg_start() {
	_card=$1
	_logdir=$2
	shift 2
	cat >/tmp/xorg.conf <<XORG_CONF
Section "ServerFlags"
	Option "AutoAddDevices" "false"
	Option "AutoEnableDevices" "false"
	Option "DontVTSwitch" "true"
EndSection
Section "Device"
	Identifier "mmx"
	Driver "modesetting"
	Option "kmsdev" "$_card"
	Option "AccelMethod" "none"
EndSection
Section "Screen"
	Identifier "screen"
	Device "mmx"
EndSection
XORG_CONF
	DISPLAY=:1
	export DISPLAY
	Xorg :1 vt2 -config /tmp/xorg.conf -logfile "$_logdir/Xorg.1.log" \
		-nolisten tcp -noreset -keeptty "$@" >"$_logdir/Xorg.out" 2>&1 &
	xpid=$!
}

xorg_wait() {
	_tries=$1
	while [ "$_tries" -gt 0 ] && kill -0 "$xpid" 2>/dev/null; do
		xdpyinfo >/dev/null 2>&1 && return 0
		_tries=$((_tries - 1))
		sleep 0.2
	done
	return 1
}
