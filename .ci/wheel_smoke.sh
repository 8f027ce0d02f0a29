#!/usr/bin/env bash
# A new designer's first hour, as CI: build the wheel once, install it (not editable) into a
# fresh venv, and in an empty folder outside the checkout run pnp new -> build -> check, with a
# Traditional and a Simplified source; every step must exit 0 and every PDF must embed the
# faces installed with the wheel (read back with pdffonts). Then the engine kit's starter:
# pnp new --engine, pip install -e of the engine package it writes, check, sample and simulate,
# and the designer's mypy --strict against the installed pnp's types (py.typed).
# Usage: .ci/wheel_smoke.sh [PYTHON] (a Python with mypy, as .ci/run's)
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${1:-python}
work=$(mktemp -d "${TMPDIR:-/tmp}/pnp-wheel-smoke.XXXXXX")
trap 'rm -rf "$work"' EXIT
export PNP_CACHE_DIR="$work/cache"

"$PYTHON" -m pip wheel --quiet --no-deps -w "$work/dist" .
wheel=$(ls "$work"/dist/pnp_zh-*.whl)
bytes=$(stat -c %s "$wheel")
echo "wheel: $(basename "$wheel"), $bytes bytes"
if [ "$bytes" -ge $((100 * 1024 * 1024)) ]; then echo "FAIL: the wheel is 100 MB or more" >&2; exit 1; fi
contents=$("$PYTHON" -m zipfile -l "$wheel")
for member in pnp/py.typed pnp/scaffold/files/kit/engine/game.py pnp/scaffold/files/kit/engine/gitignore; do
    grep -q "^$member " <<< "$contents" || { echo "FAIL: the wheel has no $member" >&2; exit 1; }
done

"$PYTHON" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet "$wheel"
pnp="$work/venv/bin/pnp"
version=$("$pnp" --version)
expected=$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' pnp/__init__.py)
[ "$version" = "pnp, version $expected" ] || { echo "FAIL: pnp --version says '$version'" >&2; exit 1; }
# The package must come from the venv, not from this checkout.
location=$(cd "$work" && "$work/venv/bin/python" -c 'import pnp; print(pnp.__file__)')
case "$location" in "$work/venv/"*) ;; *) echo "FAIL: pnp imported from $location" >&2; exit 1 ;; esac

embeds() {  # embeds PDF FAMILY: every font of the PDF is an embedded subset of a FAMILY face
    local listing line fields
    listing=$(pdffonts "$1" | tail -n +3)
    [ -n "$listing" ] || { echo "FAIL: $1 has no fonts" >&2; return 1; }
    while read -r line; do
        read -ra fields <<< "$line"  # name type encoding emb sub uni object generation
        if ! [[ ${fields[0]} =~ ^[A-Z]{6}\+$2-(Regular|Bold)$ && ${fields[3]} == yes ]]; then
            echo "FAIL: $1 does not embed only $2 faces:" >&2; echo "$listing" >&2; return 1
        fi
    done <<< "$listing"
}

checked=0
for source in zh-Hant zh-Hans; do
    folder="$work/designs-$source"
    mkdir "$folder"
    (
        cd "$folder"
        if [ "$source" = zh-Hant ]; then "$pnp" new mygame; else "$pnp" new mygame --source-lang "$source"; fi
        "$pnp" build mygame
        "$pnp" check mygame
    )
    [ -f "$folder/pnp.toml" ] && [ -f "$folder/.gitignore" ] || { echo "FAIL: no workspace files" >&2; exit 1; }
    for lang_family in zh-Hant:PnpSansTC zh-Hans:PnpSansSC; do
        lang=${lang_family%%:*}; family=${lang_family#*:}
        for pdf in "$folder/output/mygame/$lang"/*.pdf; do
            embeds "$pdf" "$family"
            checked=$((checked + 1))
        done
    done
done
[ "$checked" -ge 8 ] || { echo "FAIL: only $checked PDFs read back" >&2; exit 1; }

# A title face from the system's fonts (AR PL UKai, Debian's fonts-arphic-ukai, found through
# fontconfig): the rulebook's headings print in a UKai subset beside the bundled body face.
folder="$work/designs-zh-Hant"
printf '\nfonts:\n  title: AR PL UKai TW\n' >> "$folder/card_data/mygame/game.yaml"
(cd "$folder" && "$pnp" build mygame --lang zh-Hant && "$pnp" check mygame)
for pdf in "$folder/output/mygame/zh-Hant/rulebook.pdf"; do
    listing=$(pdffonts "$pdf" | tail -n +3)
    grep -Eq '^[A-Z]{6}\+UKai[A-Za-z]*-[0-9]+ .* yes +yes ' <<< "$listing" \
        || { echo "FAIL: $pdf embeds no UKai subset:" >&2; echo "$listing" >&2; exit 1; }
    grep -Eq '^[A-Z]{6}\+PnpSansTC-Regular ' <<< "$listing" \
        || { echo "FAIL: $pdf lost the bundled body face:" >&2; echo "$listing" >&2; exit 1; }
done
# The engine kit's starter, as docs/engine-kit.md tells a designer to begin: the game's data
# and its engine package, installed editable; then pnp plays it.
folder="$work/designs-kit"
mkdir "$folder"
(
    cd "$folder"
    "$pnp" new secret --engine
    "$work/venv/bin/python" -m pip install --quiet -e engines/secret
    "$pnp" check secret
    "$pnp" build secret --lang zh-Hant
    "$pnp" sample secret --seed 3 --players 3 > sample.md
    tail -n 1 sample.md | grep -q '得分：阿明 ' || { echo "FAIL: the sample ends without scores" >&2; exit 1; }
    "$pnp" simulate secret --games 20 --bots ismcts,random --players 2 --budget 10 --jobs 1 > /dev/null
    # The designer's type check sees pnp's types in the installed wheel (py.typed), not Any.
    "$PYTHON" -m mypy --strict --no-incremental --python-executable "$work/venv/bin/python" engines/secret/pnp_secret.py
)
echo "wheel smoke: new, build and check passed for both source scripts; $checked PDFs embed the bundled faces; a UKai title face embeds beside them; the engine kit's starter installs, checks, plays and type-checks"
