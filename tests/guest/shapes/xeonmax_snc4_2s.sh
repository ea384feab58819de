# Two Xeon Max 9462 sockets in flat HBM mode, SNC-4: per socket four DDR5 nodes with the cores (nodes 0-3 and
# 4-7) and four CPU-less HBM2e nodes (8-11 and 12-15). The SLIT is the one a real machine reports
# (tests/data/topologies/xeonmax-9462-2s-flat-hbm.xml: 12 another cluster's DDR, 13 the cluster's own HBM, 14 another
# cluster's HBM, 21/23 the other socket). HMAT per cluster: 2 DDR5-4800 channels (76.8 GB/s: 72 GiB/s, ~110 ns)
# and one HBM2e stack (409.6 GB/s: 381 GiB/s, ~130 ns); entries for each node's own cluster only.
# Scaled down: 256 MiB DDR per cluster (~126 GiB real), 128 MiB HBM (16 GiB).
cpus 8 2
slit=(
  "10 12 12 12 21 21 21 21 13 14 14 14 23 23 23 23"
  "12 10 12 12 21 21 21 21 14 13 14 14 23 23 23 23"
  "12 12 10 12 21 21 21 21 14 14 13 14 23 23 23 23"
  "12 12 12 10 21 21 21 21 14 14 14 13 23 23 23 23"
  "21 21 21 21 10 12 12 12 23 23 23 23 13 14 14 14"
  "21 21 21 21 12 10 12 12 23 23 23 23 14 13 14 14"
  "21 21 21 21 12 12 10 12 23 23 23 23 14 14 13 14"
  "21 21 21 21 12 12 12 10 23 23 23 23 14 14 14 13"
  "13 14 14 14 23 23 23 23 10 14 14 14 23 23 23 23"
  "14 13 14 14 23 23 23 23 14 10 14 14 23 23 23 23"
  "14 14 13 14 23 23 23 23 14 14 10 14 23 23 23 23"
  "14 14 14 13 23 23 23 23 14 14 14 10 23 23 23 23"
  "23 23 23 23 13 14 14 14 23 23 23 23 10 14 14 14"
  "23 23 23 23 14 13 14 14 23 23 23 23 14 10 14 14"
  "23 23 23 23 14 14 13 14 23 23 23 23 14 14 10 14"
  "23 23 23 23 14 14 14 13 23 23 23 23 14 14 14 10"
)
for cluster in 0 1 2 3 4 5 6 7; do
  node "$cluster" 256M "$cluster" "$cluster"
  node $((cluster + 8)) 128M "" "$cluster"
  hmat "$cluster" "$cluster" 110 72G
  hmat "$cluster" $((cluster + 8)) 130 381G
done
for a in $(seq 0 15); do
  read -r -a row <<<"${slit[$a]}"
  for b in $(seq $((a + 1)) 15); do distance "$a" "$b" "${row[$b]}"; done
done
kernel_args cosched.threads=8 cosched.mib=16 cosched.hbw=8-15
