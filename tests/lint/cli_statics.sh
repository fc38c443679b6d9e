#!/bin/bash
# cli/ and session/ keep no mutable static storage: a command's state is
# in its own struct and a session's in struct session, so no object of
# the command line's library has a symbol in a writable data section (.data, .bss,
# their thread-local kin, a common symbol). Read-only data (.rodata, and
# .data.rel.ro, which holds tables of pointers) is what it may have.
set -u
lib=$1
src=$2
. "$(dirname "$0")/../lib.sh"

if ! command -v objdump >/dev/null; then
	echo "SKIP: no objdump (Debian: binutils)"
	exit 77
fi
objdump -t "$lib" >"$tmp/symbols" 2>"$tmp/err" || { bad "objdump -t $lib: $(cat "$tmp/err")"; summary; exit; }

# object: symbol (section) for each writable one; the number of objects read
awk -F'\t' '
/file format/ { obj = $1; sub(/:.*/, "", obj); objects++; next }
NF >= 2 {
	n = split($1, w, " ")
	sec = w[n]
	name = $2
	sub(/^[0-9a-f]+ +/, "", name)
	# __odr_asan.X: the one-byte ODR indicator AddressSanitizer emits
	# beside each global X, not state of the program
	if (name == sec || $1 ~ / df / || name ~ /^__odr_asan\./)
		next
	if ((sec ~ /^\.(data|bss|tdata|tbss)(\.|$)/ && sec !~ /^\.data\.rel\.ro/) || sec == "*COM*")
		printf "%s: %s (%s)\n", obj, name, sec
}
END { print objects > "/dev/stderr" }
' "$tmp/symbols" >"$tmp/writable" 2>"$tmp/objects"

sources=$(ls "$src"/harness/cli/*.c "$src"/harness/session/*.c | wc -l)
objects=$(cat "$tmp/objects")
[ "$objects" -eq "$sources" ] && ok ||
	bad "$lib holds $objects objects, harness/cli/ and session/ $sources sources"
if [ -s "$tmp/writable" ]; then
	bad "mutable static storage in cli/ or session/ (a command's state goes in its struct):"
	cat "$tmp/writable" >&2
else
	ok
fi
summary cli_statics
