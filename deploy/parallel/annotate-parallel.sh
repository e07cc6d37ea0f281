#!/usr/bin/env bash
# A fleet's recordings on one machine, or several over ssh, with GNU parallel: N shards of the
# manifest, each an `arcapture annotate --batch --shard K/N` (the rows whose number mod N is K).
#
#   bash deploy/parallel/annotate-parallel.sh 4 fleet.csv --pois pois.geojson --hfov 118
#
# With parallel's --sshlogin (-S host1,host2) the shards spread over machines that see the same
# files. Each shard's report is reports/shard-K.json beside the manifest; the exit status is
# parallel's (the number of shards that failed). Needs GNU parallel (apt-get install parallel).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: annotate-parallel.sh SHARDS MANIFEST [options]" >&2; exit 64; }
shards=$1 manifest=$2
shift 2
reports="$(dirname "$manifest")/reports"
mkdir -p "$reports"
# Every annotate uses one worker: the shards are the parallelism.
seq 0 $((shards - 1)) | parallel --line-buffer --tag "${ARCAPTURE:-arcapture}" annotate --batch "$manifest" \
    --shard "{}/$shards" --report "$reports/shard-{}.json" --workers 1 "$@"
