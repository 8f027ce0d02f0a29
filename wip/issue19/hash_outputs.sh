#!/usr/bin/env bash
# hash every build output: $1 = venv bin dir, $2 = workspace root, $3 = out dir; prints sha256 list
set -euo pipefail
V=$1; ROOT=$2; OUT=$3
rm -rf "$OUT"; mkdir -p "$OUT"
export PNP_CACHE_DIR=
for paper in a4 letter; do
  "$V/pnp" --root "$ROOT" -q build all --lang all --paper "$paper" --out "$OUT/$paper" --force >/dev/null 2>&1 || { echo "build failed $paper"; exit 1; }
done
(cd "$OUT" && find . -type f ! -name '.pnp-build.json' | sort | xargs sha256sum)
