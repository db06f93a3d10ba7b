#!/bin/bash
# One shard of a `dirac sweep` per task of a Slurm job array (issue 12). Task K of an array of N
# runs `dirac sweep ... --shard K/N`; every task writes into the same OUT folder (run files are
# named by run index, tables by shard), and a last job merges the tables:
#
#   jobid=$(sbatch --parsable --array=1-8 scripts/slurm-sweep.sh OUT scenarios/heisenberg.yaml \
#             --vary kx=0.5:2:40 --vary ky=0.5:4:50)
#   sbatch --dependency=afterok:$jobid --wrap "dirac sweep --merge OUT --out OUT"
#
# OUT/summary.csv is then the table one process would have written (row for row; only the
# wall_time_s column differs). Each task uses the CPUs Slurm gives it (--cpus-per-task) as
# threads. A task stopped by its time limit (SIGTERM) writes the table of the runs it completed
# as summary-shard-K-of-N-interrupted.csv, which the merge refuses to take for a whole shard:
# rerun that task (sbatch --array=K ...).
#
# The array must be a contiguous range (1-8, or 0-7): K = SLURM_ARRAY_TASK_ID - min + 1.
# DIRAC names the executable (default: dirac on PATH).
#
# Not run on the development machine (no Slurm there); the unit test
# SweepCli.SlurmArrayScriptShardsMergeIntoTheSingleProcessTable runs this script with the
# variables Slurm sets and checks the merge against a single-process sweep.
#
#SBATCH --job-name=dirac-sweep
#SBATCH --cpus-per-task=2
#SBATCH --time=01:00:00
#SBATCH --output=dirac-sweep-%A_%a.log
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: sbatch --array=1-N $0 OUT SCENARIO [dirac sweep options: --vary ...]" >&2
  exit 2
fi
: "${SLURM_ARRAY_TASK_ID:?not a task of a job array: submit with sbatch --array=1-N}"
: "${SLURM_ARRAY_TASK_COUNT:?SLURM_ARRAY_TASK_COUNT is not set}"
min=${SLURM_ARRAY_TASK_MIN:-1}
max=${SLURM_ARRAY_TASK_MAX:-$SLURM_ARRAY_TASK_COUNT}
if [ $((max - min + 1)) -ne "$SLURM_ARRAY_TASK_COUNT" ]; then
  echo "slurm-sweep: the array $min-$max has gaps or a step; use a contiguous --array range" >&2
  exit 2
fi
out=$1
scenario=$2
shift 2
k=$((SLURM_ARRAY_TASK_ID - min + 1))
n=$SLURM_ARRAY_TASK_COUNT
exec "${DIRAC:-dirac}" sweep "$scenario" "$@" --shard "$k/$n" --jobs "${SLURM_CPUS_PER_TASK:-1}" \
  --out "$out"
