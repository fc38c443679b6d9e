#!/bin/bash
# The plans the models' rules refuse (tests/plan_rules.c), generated from
# the rules: every rule a model has that values within its keys' ranges
# can break is broken by at least one (the list below, by model, timing
# and the key a refusal names), and the first plan of each is refused by
# pcpbench run as the rules say, so that what the kmod test's guest feeds
# pcpbench.ko (plan_rules feed) is what the harness refuses.
set -u
plan_rules=$1
pcpbench=$2
. "$(dirname "$0")/lib.sh"

expect_rc 0 "$plan_rules" list
list=$tmp/list
cp "$tmp/out" "$list"
# sheaves' one rule (slab.pool_mib holds 64 slabs) no value in range breaks
for want in \
	"memcg call run.accounting" "memcg call stock.offset" "memcg call stock.slots" \
	"memcg call workload.burst" \
	"memcg call workload.clear_pages" "memcg call workload.hold" \
	"memcg call workload.memcgs" "memcg call workload.obj_share" \
	"memcg call workload.queues" "memcg call workload.softirq_share" \
	"memcg batch run.accounting" "memcg batch run.timing" "memcg batch run.workload" \
	"memcg batch stock.offset" "memcg batch stock.slots" "memcg batch workload.between" \
	"memcg batch workload.burst" \
	"memcg batch workload.clear_pages" "memcg batch workload.hold" \
	"memcg batch workload.memcgs" "memcg batch workload.nr_pages" \
	"memcg batch workload.obj_share" "memcg batch workload.queues" \
	"memcg batch workload.softirq_share" "memcg batch workload.think_ns" \
	"pcp call pcp.high" "pcp call run.accounting" "pcp call workload.burst" \
	"pcp call workload.clear" "pcp call workload.map_pages" \
	"pcp batch pcp.high" "pcp batch workload.map_pages"; do
	set -- $want
	if grep -q "^$1 [a-z_]* $2:.*: $3: " "$list"; then ok; else bad "no $2 plan of $1 that $3 refuses"; fi
done

# the first plan of each model, timing and key, as pcpbench run reads it
printf '[scenario]\nname = rules\n' >"$tmp/rules.scn"
seen=
while IFS= read -r line; do
	head=${line%%:*}
	rest=${line#*:}
	settings=${rest%%: *}
	want=${rest#*: }
	key=${want%%:*}
	set -- $head
	group="$1 $3 $key"
	case "$seen" in *"|$group|"*) continue ;; esac
	seen="$seen|$group|"
	args=(--set "run.model=$1" --set "run.designs=$2" --set "run.timing=$3")
	for s in $settings; do args+=(--set "$s"); done
	expect_rc 2 "$pcpbench" run --dry-run "${args[@]}" "$tmp/rules.scn"
	# batch timing's workloads are named at run.timing where it is written
	grep -qF -- "${want#*: }" "$tmp/err" && ok || bad "$line: pcpbench says $(cat "$tmp/err")"
done <"$list"
[ "$(echo "$seen" | tr -s '|' '\n' | grep -c .)" -ge 33 ] && ok ||
	bad "$(echo "$seen" | tr -s '|' '\n' | grep -c .) groups of refusals, not 33"
summary plan-rules
