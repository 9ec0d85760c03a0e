#!/usr/bin/env bash
# Builds the seed corpus of every fuzz harness (docs/fuzzing.md) from files the
# repository and ../shared already hold, so no copy of them is committed:
#   make_seeds.sh OUT_DIR [AI8XSIM_BINARY]
# With the ai8xsim binary, a recorded trace and a run JSON of the bundled
# example are added (the firmware build cache makes that a few seconds).
set -euo pipefail

out="$1"
ai8xsim="${2:-}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
shared="${AI8XSIM_SHARED:-$repo/../shared}"
rm -rf "$out"
mkdir -p "$out"/{fuzz_trace,fuzz_word_image,fuzz_device_config,fuzz_elf,fuzz_run_report,fuzz_vector_catalog,fuzz_arguments}

# Fenced blocks of a Markdown file that contain WORD, one file each: OUT_PREFIX-N.
fenced_blocks() {  # fenced_blocks FILE WORD OUT_PREFIX
  awk -v word="$2" -v prefix="$3" '
    /^```/ { if (inside) { if (block ~ word) { n++; printf "%s", block > (prefix "-" n); close(prefix "-" n) }
                           inside = 0; block = "" } else inside = 1; next }
    inside { block = block $0 "\n" }' "$1"
}

# Traces: the documented examples; a recorded run; the parser's own test inputs.
fenced_blocks "$repo/docs/trace-format.md" "write32" "$out/fuzz_trace/doc"
# Memory images: both formats, from words of a golden vector's expected output.
if [ -f "$shared/vectors/demo-mnist-extrasmall/sampleoutput.h" ]; then
  grep -oE '0x[0-9a-fA-F]{8}' "$shared/vectors/demo-mnist-extrasmall/sampleoutput.h" | head -n 64 |
    paste -d ' ' - - - - > "$out/fuzz_word_image/sampleoutput.hex"
  grep -oE '0x[0-9a-fA-F]{8}' "$shared/vectors/demo-mnist-extrasmall/sampleoutput.h" | head -n 16 |
    while read -r w; do printf "\\x${w:8:2}\\x${w:6:2}\\x${w:4:2}\\x${w:2:2}"; done > "$out/fuzz_word_image/sampleoutput.bin"
fi

# Device descriptions.
cp "$repo"/configs/*.yaml "$out/fuzz_device_config/"

# ELF: small firmware images of both cores, linked from a few lines of C by
# the toolchains the firmware builder uses, plus small images from its cache.
elf_src='int counter = 3; const char name[] = "fuzz"; int step(int x) { return x + counter; } void _start(void) { for (;;) counter = step(counter); }'
if command -v arm-none-eabi-gcc > /dev/null; then
  echo "$elf_src" | arm-none-eabi-gcc -mthumb -mcpu=cortex-m4 -Os -nostdlib -x c - -o "$out/fuzz_elf/tiny-arm.elf"
fi
if command -v riscv64-unknown-elf-gcc > /dev/null; then
  echo "$elf_src" | riscv64-unknown-elf-gcc -march=rv32imc -mabi=ilp32 -Os -nostdlib -x c - -o "$out/fuzz_elf/tiny-riscv.elf"
fi
cache="${XDG_CACHE_HOME:-$HOME/.cache}/ai8xsim"
# The first two of each name, sorted; collected whole first, because `find |
# head` kills find with SIGPIPE once the cache is large, and pipefail then
# fails the script.
first_two_cached() {
  local -a found
  mapfile -t found < <(find "$cache" -name "$1" -size -48k | sort)
  [ "${#found[@]}" -eq 0 ] || printf '%s\n' "${found[@]:0:2}"
}
if [ -d "$cache" ]; then
  for f in $(first_two_cached firmware.elf) $(first_two_cached riscv.elf); do
    cp "$f" "$out/fuzz_elf/cache-$(basename "$(dirname "$f")")-$(basename "$f")"
  done
fi

# meta.json and INDEX.md of the golden-vector folders (every 20th meta.json).
for d in "$shared"/vectors*; do
  [ -f "$d/INDEX.md" ] && cp "$d/INDEX.md" "$out/fuzz_vector_catalog/INDEX-$(basename "$d").md"
  find "$d" -mindepth 2 -maxdepth 2 -name meta.json | sort | awk 'NR % 20 == 1' | while read -r f; do
    cp "$f" "$out/fuzz_vector_catalog/meta-$(basename "$(dirname "$f")").json"
  done
done

# --set, --grid, --grid-field arguments as the documentation and tests write them.
grep -rhoE -- '--(set|grid|grid-field)[ =]"?[0-9A-Za-z_+:=,.]+' "$repo/README.md" "$repo/docs" "$repo/testbench/unit/app" |
  sed -E 's/^--[a-z-]+[ =]"?//' | sort -u | awk '{ n++; print > ("'"$out"'/fuzz_arguments/arg-" n) }'

if [ -n "$ai8xsim" ]; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  if SC_COPYRIGHT_MESSAGE=DISABLE "$ai8xsim" run --quiet --json "$tmp/run.json" --trace-out "$tmp/run.trace" > /dev/null; then
    cp "$tmp/run.json" "$out/fuzz_run_report/bundled-example.json"
    head -n 200 "$tmp/run.trace" > "$out/fuzz_trace/recorded-head.trace"
    tail -n 50 "$tmp/run.trace" > "$out/fuzz_trace/recorded-tail.trace"
  else
    echo "make_seeds: $ai8xsim run failed; no recorded trace or run JSON seeds" >&2
  fi
fi
for d in "$out"/*; do echo "$(basename "$d"): $(ls "$d" | wc -l) seed(s)"; done
