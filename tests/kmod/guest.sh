# The kernel backend in the four-node guest (tests/kmod.sh runs this in
# /pcb there, busybox's sh): each refusal as printed, every plan the
# models' rules refuse handed to the module itself, scenarios run with
# pcpbench.ko (the RCU drain's designs among them, the sheaves model's
# flush, drains from the charge path at memory.max), reproduce --backend
# kernel, then safety.sh's long run, signals, failures and 20 sessions.
# Every output goes to results/, which comes back to the host.
# The guest's clock is emulated: the runs are short, and their figures
# are checked for what they say, never for their size.
ko=/pcb/pcpbench.ko
run() {
	name=$1
	shift
	pcpbench run --backend kernel --set run.module=$ko --out results "$@" \
		>results/$name.txt 2>results/$name.err
	echo $? >results/$name.rc
}
short="--runs 1 --set run.duration_ms=40 --set run.warmup_ms=10"

# the refusals: a design with no kernel meaning, per-call counters
run refuse-rseq $short --set run.designs=local_lock,rseq kscn/default.scn
run refuse-ck $short --set run.designs=spinlock_cas kscn/default.scn
run refuse-per-call $short --set run.timing=call --set counters.per_call=on \
	kscn/default.scn
# nothing of a refused run is loaded
grep -c '^pcpbench ' /proc/modules >results/refused-loaded.txt

# every plan the models' rules refuse, handed to the module past the
# harness's check (plan_rules feed, tests/plan_rules.c): each refused
if insmod $ko; then
	./plan_rules feed >results/plan-rules.txt 2>results/plan-rules.err
	echo $? >results/plan-rules.rc
	rmmod pcpbench
else
	echo "insmod $ko failed" >results/plan-rules.err
fi
grep -c '^pcpbench ' /proc/modules >results/plan-rules-loaded.txt

run default $short kscn/default.scn
run cover-letter $short kscn/cover-letter-2.2.scn
run drain-scaling $short --set run.duration_ms=300 --set drain.count=3 \
	kscn/drain-scaling.scn
run pcp-designs $short --set run.designs=local_lock,spinlock,pcp_trylock,qpw \
	kscn/pcp-designs.scn
# 7.3's stocks beside v6.2's: the kernel's own local_trylock_t where it has
# one, both stocks' drain work on the kernel's workqueue; and under the
# series' spinlock_t (the kernel's), drained from the calling CPU
run memcg-7.3 $short --set drain.count=2 kscn/memcg-7.3.scn
grep -c '^pcpbench ' /proc/modules >results/after-runs-loaded.txt

# perf counters: a software event each kthread counts, a hardware one
# this guest has no PMU for; the userspace backend's run beside it
mkdir -p results/ctr results/us-ctr
ctr="--set run.designs=local_lock --set drain.count=2 --events task-clock,cycles"
pcpbench run --backend kernel --set run.module=$ko --out results/ctr $short $ctr \
	kscn/default.scn >results/ctr.txt 2>results/ctr.err
echo $? >results/ctr.rc
pcpbench run --out results/us-ctr $short $ctr kscn/default.scn >results/us-ctr.txt 2>&1

# the RCU drain over the kernel's own RCU: memcg's qsbr and pcp's rcu,
# each drain a synchronize_rcu(), every invariant checked
mkdir -p results/rcu
for m in drain-scaling pcp-drain-scaling; do
	pcpbench run --backend kernel --set run.module=$ko --out results/rcu $short \
		--set run.designs=$([ $m = drain-scaling ] && echo qsbr || echo rcu) \
		--set run.duration_ms=300 --set drain.count=3 kscn/$m.scn \
		>results/rcu-$m.txt 2>results/rcu-$m.err
	echo $? >results/rcu-$m.rc
done

# drains from the charge path at memory.max (limit-drains.scn's lowest):
# the workers' kthreads drain one another's stocks from try_charge_memcg(),
# the work queued to each other's CPUs, taken remotely, or swapped under
# the kernel's RCU outside the worker's reader
mkdir -p results/limit
pcpbench run --backend kernel --set run.module=$ko --out results/limit $short \
	--set run.duration_ms=200 --set run.designs=local_lock,spinlock,qsbr,local_trylock_7_3 \
	--set memcg.max=200 kscn/limit-drains.scn >results/limit.txt 2>results/limit.err
echo $? >results/limit.rc

# the sheaves model: each design, kmem_cache_shrink()'s flush queued on
# the kernel's workqueue (local_trylock, kmem_cache_cpu, qpw's housekeeping
# CPUs), taken from the caller (spinlock) or an RCU swap (rcu), every
# invariant checked, every row flushed
mkdir -p results/sheaves
pcpbench run --backend kernel --set run.module=$ko --out results/sheaves $short \
	--set run.duration_ms=300 --set drain.count=3 kscn/sheaves-flush-scaling.scn \
	>results/sheaves.txt 2>results/sheaves.err
echo $? >results/sheaves.rc
grep -c '^pcpbench ' /proc/modules >results/after-sheaves-loaded.txt

# reproduce --backend kernel on tests/claims/kernel.ini: the module found
# where a release's extra modules are, the claims' scenarios in scenarios/
mkdir -p /lib/modules/$(uname -r)/extra results/repro
cp $ko /lib/modules/$(uname -r)/extra/pcpbench.ko
ln -s kscn scenarios
pcpbench reproduce --quick --backend kernel --claims kclaims.ini --out results/repro \
	>results/repro.txt 2>results/repro.err
echo $? >results/repro.rc
rm -f scenarios /lib/modules/$(uname -r)/extra/pcpbench.ko
grep -c '^pcpbench ' /proc/modules >results/after-repro-loaded.txt

# the userspace backend on two of them, for compare
mkdir -p results/us
pcpbench run $short --out results/us kscn/cover-letter-2.2.scn \
	>results/us-cover-letter.txt 2>&1
pcpbench run $short --set run.duration_ms=300 --set drain.count=3 --out results/us \
	kscn/drain-scaling.scn \
	>results/us-drain-scaling.txt 2>&1

# the long run, signals, failures, 20 sessions (tests/kmod/safety.sh)
sh /pcb/safety.sh
dmesg >results/dmesg.txt
exit 0
