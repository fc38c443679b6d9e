#!/bin/busybox sh
# /init of scripts/vm.sh's guest: mount what pcpbench reads, run
# /rig/cmd in /pcb with its output kept (and shown on the console), end
# whatever it left running, then write rig/ (status, stdout, stderr) and
# pcb/results/ as a tar to the results disk (virtio's vda; a User-mode
# Linux kernel's ubda) and power off. A command still running at pcb.timeout=
# seconds (the kernel's command line) has its threads' states printed,
# is killed, and ends with status 124, its results still brought back.
/bin/busybox mount -t proc proc /proc
/bin/busybox --install -s
# the data directory: the checkout's scenarios/ copied into /pcb
export PATH=/pcb/bin:/bin:/sbin:/usr/bin:/usr/sbin HOME=/root PCPBENCH_DATADIR=/pcb
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
# where a system mounts them: the kernel's debugfs files (the rig's
# instrument among them) and cgroup v2, where the kernel has them
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
up=$(cut -d' ' -f1 /proc/uptime)

say() { echo "pcpbench-vm: $*" >/dev/console; }

for m in $(cat /rig/modules); do
	insmod "/lib/modules/$m.ko" || say "insmod $m failed"
done
disk=/dev/vda
grep -q 'pcb\.accel=uml' /proc/cmdline && disk=/dev/ubda
i=0
while [ ! -b $disk ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -b $disk ] || say "no $disk: the results cannot come back"

# every thread but the kernel's: its state, CPU, wait channel and kernel stack
threads() {
	for t in /proc/[0-9]*/task/[0-9]*; do
		[ -e "$t/exe" ] && s=$(cat "$t/stat" 2>/dev/null) || continue
		echo "$(cat "$t/comm") ${t#/proc/}: state $(echo "$s" | cut -d' ' -f3)," \
			"CPU $(echo "$s" | cut -d' ' -f39), wchan $(cat "$t/wchan" 2>/dev/null)"
		sed 's/^/    /' "$t/stack" 2>/dev/null
	done
}

# perf's static keys enabled once, before the command (scripts/vm-perf-hold.c)
[ ! -x /rig/perf-hold ] || say "$(/rig/perf-hold 2>&1)"
echo "$up" >/rig/boot_s
say "up after $up s, running $(tail -n 1 /rig/cmd)"
limit=$(sed -n 's/.*pcb\.timeout=\([0-9]*\).*/\1/p' /proc/cmdline)
mkfifo /tmp/stdout /tmp/stderr
tee /rig/stdout </tmp/stdout >/dev/console &
tees=$!
tee /rig/stderr </tmp/stderr >/dev/console &
tees="$tees $!"
cd /pcb || say "no /pcb"
# the command in a session and process group of its own, which goes with it
setsid sh /rig/cmd >/tmp/stdout 2>/tmp/stderr </dev/null &
cmd=$!
if [ -n "$limit" ]; then
	(
		sleep "$limit"
		touch /tmp/timed_out
		say "the command runs past $limit s; its threads:"
		threads >/dev/console 2>/dev/null
		# the command's group, never the writing of the results below; a
		# leftover that left the group is ended by the drain and poweroff
		kill -TERM -"$cmd"
		sleep 5
		kill -KILL -"$cmd"
	) &
	watchdog=$!
fi
wait "$cmd"
status=$?
[ ! -e /tmp/timed_out ] || { status=124; touch /rig/timed_out; }
# what the command left running in its group ends with it; the tees then
# drain, given 5 s where a leftover that left the group holds their FIFOs.
# Not a bare wait: this is init, the parent of every orphan
kill -KILL -"$cmd" 2>/dev/null
( sleep 5; kill -KILL $tees 2>/dev/null ) &
drain=$!
wait $tees
kill "$drain" 2>/dev/null
echo "$status" >/rig/status
say "exit $status"

tar -c -f $disk -C / rig pcb/results || say "cannot write the results disk"
sync
# the watchdog held until the results are written
[ -z "${watchdog:-}" ] || kill "$watchdog" 2>/dev/null
poweroff -f
