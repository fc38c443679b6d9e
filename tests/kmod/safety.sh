# The kernel backend's safety in the four-node guest (tests/kmod/guest.sh
# runs this in /pcb, busybox's sh; tests/kmod.sh judges what it writes
# to results/safety-*):
#  - a long run with the soft-lockup and RCU-stall detectors' thresholds
#    lowered, so that a worker or a coordinator that does not yield, or
#    keeps interrupts off, is reported in the kernel's log;
#  - SIGINT and SIGTERM to `pcpbench run` while the module's threads run;
#  - a step that fails (the module's parameter fail, written while the
#    session's first run runs; `check`, not run by default, breaks the
#    invariant instead);
#  - 20 loads and unloads, with the memory figures before and after.
# Every unload is said in the kernel's log with the allocations the
# module's runs made and whether each was freed (kmod/alloc.c), which
# tests/kmod.sh reads from dmesg for every session of the guest.
#
# usage: sh safety.sh [long] [signals] [faults] [check] [cycles]
# (default: all but check),
# with the module PCB_KO (default /pcb/pcpbench.ko)
ko=${PCB_KO:-/pcb/pcpbench.ko}
scn=kscn/default.scn

# kthreads of the module still there, one a line
kthreads() {
	cat /proc/[0-9]*/comm 2>/dev/null | grep -E '^pcpbench[/-]'
}

# waits (up to 60 s) until the module's kthreads run; 0 when they do
wait_kthreads() {
	i=0
	while [ $i -lt 600 ]; do
		[ -n "$(kthreads)" ] && return 0
		usleep 100000
		i=$((i + 1))
	done
	return 1
}

# what is left once a session ended: the module, its kthreads
left() {
	echo "module: $(grep -c '^pcpbench ' /proc/modules) in /proc/modules," \
		"$(ls -d /sys/module/pcpbench 2>/dev/null | wc -l) in /sys/module"
	echo "kthreads: $(kthreads | wc -l)"
}

# the long run: soft lockup after 2 * watchdog_thresh s (4 s), an RCU stall after 4 s
long_run() {
	thresh=$(cat /proc/sys/kernel/watchdog_thresh)
	stall=$(cat /sys/module/rcupdate/parameters/rcu_cpu_stall_timeout)
	echo 2 >/proc/sys/kernel/watchdog_thresh
	echo 4 >/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout
	echo "watchdog_thresh $(cat /proc/sys/kernel/watchdog_thresh)," \
		"rcu_cpu_stall_timeout $(cat /sys/module/rcupdate/parameters/rcu_cpu_stall_timeout)" \
		>results/safety-long.txt
	# drains 20000 times a second: closer than a sleep, the coordinator spins between them
	pcpbench run --backend kernel --set run.module=$ko --out results/safety --runs 1 \
		--set run.duration_ms=6000 --set run.warmup_ms=100 --set cpus.workers=1-2 \
		--set run.designs=spinlock --set drain.rate_hz=20000 $scn \
		>>results/safety-long.txt 2>results/safety-long.err
	echo $? >results/safety-long.rc
	echo "$thresh" >/proc/sys/kernel/watchdog_thresh
	echo "$stall" >/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout
}

# SIG to the session once its kthreads run; its exit status, what is left
signal() {
	sig=$1
	pcpbench run --backend kernel --set run.module=$ko --out results/safety --runs 2 \
		--set run.duration_ms=3000 --set run.warmup_ms=0 --set cpus.workers=1-2 \
		--set run.designs=spinlock $scn >results/safety-$sig.txt 2>results/safety-$sig.err &
	pid=$!
	if wait_kthreads; then
		echo "kthreads before: $(kthreads | tr '\n' ' ')" >results/safety-$sig.left
		kill -$sig $pid
	else
		echo "no kthread of the module ran" >results/safety-$sig.left
	fi
	wait $pid
	echo $? >results/safety-$sig.rc
	left >>results/safety-$sig.left
}

# the module's parameter fail set to step while the session's first run runs
fault() {
	step=$1
	pcpbench run --backend kernel --set run.module=$ko --out results/safety --runs 2 \
		--set run.duration_ms=2000 --set run.warmup_ms=0 --set cpus.workers=1-2 \
		--set run.designs=spinlock $scn >results/safety-fail-$step.txt \
		2>results/safety-fail-$step.err &
	pid=$!
	if wait_kthreads; then
		echo $step >/sys/module/pcpbench/parameters/fail
	fi
	wait $pid
	echo $? >results/safety-fail-$step.rc
	left >results/safety-fail-$step.left
}

mem() {
	grep -E '^(MemFree|Slab|SUnreclaim|Percpu|VmallocUsed):' /proc/meminfo
}

# 20 loads and unloads
cycles() {
	mem >results/safety-mem-before.txt
	ok=0
	i=0
	while [ $i -lt 20 ]; do
		insmod $ko && rmmod pcpbench && ok=$((ok + 1))
		i=$((i + 1))
	done
	echo $ok >results/safety-cycles.txt
	mem >results/safety-mem-after.txt
	left >results/safety-cycles.left
}

mkdir -p results/safety
for part in ${*:-long signals faults cycles}; do
	start=$(cut -d' ' -f1 /proc/uptime)
	case $part in
	long) long_run ;;
	signals) signal INT; signal TERM ;;
	faults) fault threads ;;
	check) fault check ;;
	cycles) cycles ;;
	esac
	echo "$part: $start s to $(cut -d' ' -f1 /proc/uptime) s" >>results/safety-times.txt
done
