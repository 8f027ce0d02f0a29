#!/usr/bin/env bash
# Same input, same bytes: the SHA-256 of every file `pnp build all --lang all` writes on A4 and
# on Letter, one line each, for comparing two versions of pnp (a refactoring must print nothing
# in `diff`). Usage:
#   scripts/hash_outputs.sh BIN ROOT OUT > hashes.txt
# BIN: the bin/ folder of a venv whose pnp is the version to hash; ROOT: the workspace built;
# OUT: a scratch folder (emptied first). The disk cache is off, so nothing is reused.
set -euo pipefail
BIN=$1; ROOT=$2; OUT=$3
rm -rf "$OUT"; mkdir -p "$OUT"
export PNP_CACHE_DIR=
for paper in a4 letter; do
  "$BIN/pnp" --root "$ROOT" -q build all --lang all --paper "$paper" --out "$OUT/$paper" --force >/dev/null 2>&1 \
    || { echo "build failed on $paper" >&2; exit 1; }
done
(cd "$OUT" && find . -type f ! -name '.pnp-build.json' | sort | xargs sha256sum)
