# Knights Landing (7210/7250) in flat memory mode, quadrant cluster mode: one DDR4 node with the cores and one
# CPU-less MCDRAM node, SLIT 31 between them (as KNL's firmware reports it). KNL's firmware has no HMAT; these
# bandwidths are the ones hwloc's KNL quirk gives a live KNL (90000 and 360000 MiB/s, i.e. 4x) and the latencies
# measured idle ones (DDR ~130 ns, MCDRAM ~154 ns). Scaled down: 1.5 GiB DDR (96 GiB real), 256 MiB MCDRAM (16 GiB).
cpus 2
node 0 1536M 0-1 0
node 1 256M "" 0
distance 0 1 31
hmat 0 0 130 90000M
hmat 0 1 154 360000M
kernel_args cosched.threads=2 cosched.mib=16 cosched.hbw=1
