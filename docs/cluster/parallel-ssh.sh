#!/usr/bin/env bash
# An SPRT spread over machines reached by SSH, with GNU parallel as the executor: 64 shards, each
# run on whichever machine has a free slot, its PGN file copied back when it ends, then merged.
#
#   docs/cluster/parallel-ssh.sh hosts.txt
#
# hosts.txt: one SSH login a line, with the number of shards it runs at once, as GNU parallel
# reads them (`2/user@box1`); the line `:` is this machine. Each machine needs `alea` and the two
# engines at the same paths (relative paths are taken from the login's home directory).
# Run it again after an interruption: finished shards are skipped (--resume-failed keeps the
# joblog), and a shard that was cut short resumes its own pairs from its file.
set -euo pipefail

HOSTS=${1:?usage: parallel-ssh.sh HOSTS_FILE}
ALEA=${ALEA:-alea}
NEW=${NEW:-cmd=./alea-new name=new}
BASE=${BASE:-cmd=./alea-base name=base}
VARIANT=${VARIANT:-freedom}
PAIRS=${PAIRS:-20000}
MOVETIME=${MOVETIME:-100}
SEED=${SEED:-2026}
SHARDS=${SHARDS:-64}
RESULTS=${RESULTS:-results}

HOSTS=$(realpath "$HOSTS")
mkdir -p "$RESULTS"
cd "$RESULTS"
# Each shard's file goes to the machine that plays it (--transferfile; empty the first time), so
# that a shard started again resumes from it, and comes back when the shard ends (--return).
for i in $(seq 0 $((SHARDS - 1))); do touch "shard-$i.pgn"; done
seq 0 $((SHARDS - 1)) | parallel --will-cite --sshloginfile "$HOSTS" --joblog joblog --resume-failed \
    --transferfile 'shard-{}.pgn' --return 'shard-{}.pgn' --cleanup \
    "$ALEA match --engine '$NEW' --engine '$BASE' --variant $VARIANT --pairs $PAIRS \
     --movetime $MOVETIME --seed $SEED --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 \
     --shard {}/$SHARDS --resume --pgn shard-{}.pgn"
"$ALEA" match merge shard-*.pgn
