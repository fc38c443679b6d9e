#!/bin/bash
# One licence: LICENSE at the top is the MIT licence, and meson.build,
# LKP's PKGBUILD and every source's SPDX tag say the same; meson install
# installs LICENSE.
set -u
pcpbench=$(realpath "$1")
src=$2
. "$(dirname "$0")/../lib.sh"
cd "$src" || exit 1

[ "$(head -1 LICENSE 2>/dev/null)" = "MIT License" ] &&
	grep -q '^Permission is hereby granted, free of charge, to any person obtaining a copy$' LICENSE &&
	ok || bad "LICENSE is not the MIT licence: $(head -1 LICENSE 2>&1)"
grep -q "^  license : 'MIT',\$" meson.build && ok || bad "meson.build: $(grep license meson.build)"
pkg=integrations/lkp/programs/pcpbench/pkg/PKGBUILD
grep -q "^license=('MIT')\$" "$pkg" && ok || bad "$pkg: $(grep license= "$pkg")"
other=$(grep -rhoI --exclude=licence.sh 'SPDX-License-Identifier: *[^ */]*' harness kernels tests scripts fuzz integrations \
	2>/dev/null | sort -u | grep -v ': *MIT$')
[ -z "$other" ] && ok || bad "sources under another licence: $other"
meson introspect "$(dirname "$pcpbench")" --installed >"$tmp/installed" &&
	python3 - "$tmp/installed" "$src/LICENSE" <<'PY' && ok || bad "meson install does not install LICENSE"
import json, os, sys
inst = json.load(open(sys.argv[1]))
src = os.path.realpath(sys.argv[2])
sys.exit(0 if any(os.path.realpath(k) == src and v.endswith("/LICENSE") for k, v in inst.items()) else 1)
PY

summary licence
