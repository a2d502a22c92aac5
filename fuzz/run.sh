#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 8: the bounded run CI does), seeded from the
# corpus (known-answer vectors, every pcap payload, every malformed case). A crash fails the run
# and leaves its input in fuzz/artifacts/TARGET/; turn it into a corpus/malformed/ case.
#
#   fuzz/run.sh            # CI: 8 s per target
#   fuzz/run.sh 3600       # a long run: an hour per target
#
# Needs cargo-fuzz (cargo install cargo-fuzz). On the stable toolchain RUSTC_BOOTSTRAP=1 lets it
# use the nightly-only sanitizer flags.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-8}
command -v cargo-fuzz >/dev/null || cargo install -q cargo-fuzz
export RUSTC_BOOTSTRAP=1
cargo fuzz build -O
(cd .. && cargo run -q -p snmpc --example fuzz_seeds -- fuzz/corpus/.seeds >/dev/null)
total=0
for target in $(cargo fuzz list); do
  mkdir -p "corpus/$target"
  if [ "$target" = mib_module ]; then
    # MIB text, not BER: the project's own modules are the seeds, and small modules of
    # seeds/mib_module (nesting past the parser's bound, an OID past 128 arcs, a table) that
    # each run in a fraction of the time a whole RFC module takes.
    for f in ../mibs/* seeds/mib_module/*; do
      case "$f" in *.md) ;; *) cp -n "$f" "corpus/$target/" ;; esac
    done
  elif [ "$target" = agentx ]; then
    # AgentX, not BER: PDUs a master sends (Get, GetNext, GetBulk, TestSet, the set phases,
    # Close), in both byte orders, from seeds/agentx.
    cp -n seeds/agentx/* "corpus/$target/" 2>/dev/null || true
  elif [ "$target" = crl ]; then
    # DER, not SNMP: a small CRL made by hand, and one made by openssl when it is there.
    (cd .. && cargo run -q -p pkix --example crl_seeds -- "fuzz/corpus/$target" >/dev/null)
  else
    cp -n corpus/.seeds/* "corpus/$target/" 2>/dev/null || true
  fi
  log=$(mktemp)
  if ! cargo fuzz run -O "$target" -- -max_total_time="$seconds" -print_final_stats=1 >"$log" 2>&1; then
    tail -40 "$log"
    echo "fuzz: $target crashed; the input is in fuzz/artifacts/$target/" >&2
    exit 1
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  echo "fuzz: $target: $runs executions in ${seconds} s, no crash"
  total=$((total + runs))
  rm -f "$log"
done
echo "fuzz: $total executions in all"
