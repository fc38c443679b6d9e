# What integrations/lkp/install.sh and integrations/mmtests/install.sh
# share, sourced by both. An installer writes only in the tree it is
# given: every directory it writes in is a directory of that tree (no
# symbolic link on the way out of it), every file it reads there is a
# regular file, and every file or directory it installs is first staged
# as a temporary beside its place and renamed over it once all of them
# are staged and checked, so a symbolic link at an installed name is
# replaced, never written through. Any failure before the renames
# removes what was staged and leaves the tree as it was; a refusal exits
# with status 2, naming the path.

pcb_staged=()	# temporary, place, temporary, place, ...
pcb_unstage() {
	local i
	for ((i = 0; i < ${#pcb_staged[@]}; i += 2)); do
		rm -rf -- "${pcb_staged[i]}"
	done
	pcb_staged=()
}
trap pcb_unstage EXIT

pcb_die() {
	echo "$0: $*" >&2
	exit 2
}

# pcb_tree ARG: the tree named, absolute and resolved; a directory
pcb_tree() {
	local t
	t=$(realpath -e -- "$1" 2>/dev/null) && [ -d "$t" ] || pcb_die "$1: no such directory"
	printf '%s\n' "$t"
}

# pcb_dir TREE REL: TREE/REL, each step of REL a directory and none a symbolic link
pcb_dir() {
	local d=$1 c parts
	IFS=/ read -ra parts <<<"$2"
	for c in "${parts[@]}"; do
		d=$d/$c
		[ ! -L "$d" ] || pcb_die "$d is a symbolic link: nothing is written through it"
		[ -d "$d" ] || pcb_die "$d: not a directory"
	done
	printf '%s\n' "$d"
}

# pcb_regular FILE: 0 if FILE is a regular file, 1 if it does not exist; else refused
pcb_regular() {
	[ ! -L "$1" ] || pcb_die "$1 is a symbolic link: not read or written through"
	[ -e "$1" ] || return 1
	[ -f "$1" ] || pcb_die "$1: not a regular file"
}

# pcb_stage PLACE [dir]: a new temporary file (or directory) beside PLACE,
# in $pcb_tmp, that pcb_commit renames over PLACE
pcb_stage() {
	local place=$1 base
	base=$(dirname -- "$place")/.$(basename -- "$place").pcpbench
	[ ! -L "$place" ] || pcb_die "$place is a symbolic link: nothing is written through it"
	if [ "${2:-}" = dir ]; then
		[ ! -e "$place" ] || [ -d "$place" ] || pcb_die "$place: not a directory"
		pcb_tmp=$(mktemp -d -- "$base.XXXXXX") || pcb_die "cannot stage $place"
		chmod 755 -- "$pcb_tmp"
	else
		pcb_regular "$place" || true
		pcb_tmp=$(mktemp -- "$base.XXXXXX") || pcb_die "cannot stage $place"
		chmod 644 -- "$pcb_tmp"
	fi
	pcb_staged+=("$pcb_tmp" "$place")
}

# pcb_copy SRC PLACE: SRC (a file or a directory of ours) staged for PLACE
pcb_copy() {
	if [ -d "$1" ]; then
		pcb_stage "$2" dir
		cp -R -- "$1/." "$pcb_tmp/"
	else
		pcb_stage "$2"
		cp -- "$1" "$pcb_tmp"
		chmod --reference="$1" -- "$pcb_tmp"
	fi
}

# pcb_append FILE LINES-FILE: FILE (of the tree; made where absent) with
# each line of LINES-FILE it lacks added, on a line of its own, staged;
# nothing when none is missing
pcb_append() {
	local place=$1 line missing=()
	if pcb_regular "$place"; then
		while IFS= read -r line || [ -n "$line" ]; do
			grep -qxF -- "$line" "$place" || missing+=("$line")
		done <"$2"
		[ ${#missing[@]} -gt 0 ] || return 0
		pcb_stage "$place"
		cat -- "$place" >"$pcb_tmp"
		[ ! -s "$place" ] || [ -z "$(tail -c 1 -- "$place")" ] || echo >>"$pcb_tmp"
		chmod --reference="$place" -- "$pcb_tmp"
	else
		while IFS= read -r line || [ -n "$line" ]; do
			missing+=("$line")
		done <"$2"
		pcb_stage "$place"
	fi
	printf '%s\n' "${missing[@]}" >>"$pcb_tmp"
}

# pcb_commit: every staged temporary renamed over its place; a directory
# replaced is renamed aside first, then removed
pcb_commit() {
	local i tmp place old
	for ((i = 0; i < ${#pcb_staged[@]}; i += 2)); do
		tmp=${pcb_staged[i]} place=${pcb_staged[i + 1]}
		if [ -d "$tmp" ] && [ -d "$place" ] && [ ! -L "$place" ]; then
			old=$(mktemp -d -- "$(dirname -- "$place")/.$(basename -- "$place").old.XXXXXX")
			mv -T -- "$place" "$old"
			mv -T -- "$tmp" "$place"
			rm -rf -- "$old"
		else
			mv -fT -- "$tmp" "$place"
		fi
	done
	pcb_staged=()
}
