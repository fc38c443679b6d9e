# The kernel rig's guest (tests/rig.sh runs this in /pcb there, busybox's
# sh, on a kernel scripts/kernel.sh built): the instrumented backend on the
# kernel's own functions (seed 000's 2.2 workload, its drain table, the
# seeds' claims), and on the upstream kernel the kernel backend's model in
# the same booted kernel beside it. ROLE is upstream or series (6.1), or
# 7.3, or 7.3-um or 7.3-um+spinlock (7.3 as User-mode Linux, where
# pcpbench.ko does not build); on the series' kernel, up/ holds the
# upstream guest's results. On 7.3 the model beside it is
# local_trylock_7_3, and the seeds' claims, which compare 6.1's designs,
# are not reproduced. Every output goes to results/, which comes back to
# the host. The guest's clock is emulated: the runs are short and no
# figure's size is checked.
short="--runs 2 --set run.duration_ms=40 --set run.warmup_ms=10"
instr="--set run.runs=2 --set run.warmup_ms=0"
cat /sys/kernel/debug/pcpbench/build >results/build.txt 2>&1
head -n 1 /sys/kernel/debug/pcpbench/memcg_stock >results/header.txt 2>&1
mkdir -p results/instr results/repro

# seed 000, 2.2: the five functions, then drain_all_stock() against the stocks
pcpbench run --out results/instr $instr --set run.ops=20 scenarios/seed-000-kernel.scn \
	>results/fn.txt 2>results/fn.err
echo $? >results/fn.rc
pcpbench run --out results/instr $instr --set run.ops=8 --set drain.count=2 \
	scenarios/seed-000-kernel-drain.scn >results/drain.txt 2>results/drain.err
echo $? >results/drain.rc

# the seeds' claims on the kernel's own code, upstream's results merged on the series'
if [ "${ROLE#7.3}" = "$ROLE" ]; then
	pcpbench reproduce --backend instrumented --quick --set run.ops=20 --out results/repro \
		$([ "$ROLE" = series ] && echo "--with up/repro") >results/repro.txt 2>results/repro.err
	echo $? >results/repro.rc
fi

# a refusal: the instrumented backend times memcg's functions alone
pcpbench run --dry-run --backend instrumented --set run.model=pcp scenarios/pcp-designs.scn \
	>results/refuse-model.txt 2>&1
echo $? >results/refuse-model.rc

if [ "$ROLE" = 7.3 ]; then
	# 7.3's model in the same booted kernel, pcpbench.ko built against the same tree
	mkdir -p results/kb
	pcpbench run --backend kernel --set run.module=/pcb/pcpbench.ko --out results/kb $short \
		--set run.designs=local_trylock_7_3 scenarios/cover-letter-2.2.scn \
		>results/kb-cover-letter-2.2.txt 2>results/kb-cover-letter-2.2.err
	echo $? >results/kb-cover-letter-2.2.rc
	grep -c '^pcpbench ' /proc/modules >results/loaded.txt
fi
if [ "$ROLE" = upstream ]; then
	# the model in the same booted kernel: pcpbench.ko built against the same tree
	mkdir -p results/kb results/us
	for s in cover-letter-2.2 drain-scaling; do
		pcpbench run --backend kernel --set run.module=/pcb/pcpbench.ko --out results/kb \
			$short $([ $s = drain-scaling ] && echo "--set run.duration_ms=300 --set drain.count=2") \
			scenarios/$s.scn >results/kb-$s.txt 2>results/kb-$s.err
		echo $? >results/kb-$s.rc
	done
	pcpbench run --out results/us $short scenarios/cover-letter-2.2.scn \
		>results/us.txt 2>&1
	echo $? >results/us.rc
	grep -c '^pcpbench ' /proc/modules >results/loaded.txt
fi
dmesg >results/dmesg.txt
exit 0
