#!/bin/sh
# Many more random lives than the test run takes (test/differential-random.test.ts), one seed
# after another: each seed runs DIFF_RUNS cases and stops at its first difference (printed with
# the seed and fast-check's path; replay it with DIFF_SEED=<seed> DIFF_PATH=<path> DIFF_KEEP=1).
#
#   scripts/differential-long.sh [FIRST_SEED] [SEEDS] [RUNS_PER_SEED]
first=${1:-1}
seeds=${2:-20}
runs=${3:-50}
cd "$(dirname "$0")/.." || exit 2
seed=$first
failed=0
while [ "$seed" -lt $((first + seeds)) ]; do
  if DIFF_SEED=$seed DIFF_RUNS=$runs DIFF_LOG=1 npx vitest run test/differential-random.test.ts >".differential-$seed.log" 2>&1; then
    echo "seed $seed: $runs cases, no difference"
    rm -f ".differential-$seed.log"
  else
    failed=$((failed + 1))
    echo "seed $seed: DIFFERENCE (see .differential-$seed.log)"
    grep -E "path:|Property failed" ".differential-$seed.log" | head -2
  fi
  seed=$((seed + 1))
done
echo "seeds $first..$((first + seeds - 1)), $runs cases each: $failed with a difference"
[ "$failed" -eq 0 ]
