# Knights Landing in flat memory mode, SNC-4 cluster mode: four DDR4 nodes, one per cluster with its cores, and
# four CPU-less MCDRAM nodes, one per cluster. SLIT as KNL reports it: 10 local, 21 another cluster's DDR, 31 the
# cluster's own MCDRAM, 41 another cluster's MCDRAM. Bandwidth: a quarter of hwloc's KNL figures per cluster
# (22500 and 90000 MiB/s); latencies as in knl_flat_quadrant.sh. HMAT entries for each node's own cluster only.
# Scaled down: 384 MiB DDR per cluster (24 GiB real), 64 MiB MCDRAM (4 GiB).
cpus 4
for cluster in 0 1 2 3; do
  node "$cluster" 384M "$cluster" "$cluster"
  node $((cluster + 4)) 64M "" "$cluster"
  hmat "$cluster" "$cluster" 130 22500M
  hmat "$cluster" $((cluster + 4)) 154 90000M
done
for a in 0 1 2 3 4 5 6 7; do
  for b in 0 1 2 3 4 5 6 7; do
    [ "$a" -lt "$b" ] || continue
    if [ "$a" -lt 4 ] && [ "$b" -lt 4 ]; then distance "$a" "$b" 21
    elif [ "$a" -lt 4 ] && [ $((b - 4)) -eq "$a" ]; then distance "$a" "$b" 31
    else distance "$a" "$b" 41; fi
  done
done
kernel_args cosched.threads=4 cosched.mib=16 cosched.hbw=4-7
