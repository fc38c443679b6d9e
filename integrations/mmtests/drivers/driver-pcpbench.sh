# mmtests' driver for pcpbench, as drivers/driver-poundsyscall.sh is:
# bin/run-single-test.sh sources it and calls run_bench, which runs the
# bench with the configs' PCPBENCH_* settings.
run_bench() {
	$SHELLPACK_INCLUDE/shellpack-bench-pcpbench	\
		-v ${PCPBENCH_VERSION:-HEAD}		\
		--scenario $PCPBENCH_SCENARIO		\
		${PCPBENCH_RUNS:+--runs $PCPBENCH_RUNS}	\
		${PCPBENCH_QUICK:+--quick}		\
		${PCPBENCH_TIMING:+--timing $PCPBENCH_TIMING}	\
		${PCPBENCH_SET:+--set $PCPBENCH_SET}
	return $?
}
