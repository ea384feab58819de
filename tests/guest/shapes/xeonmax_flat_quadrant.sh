# One Xeon Max socket in flat HBM mode, quadrant: a DDR5 node with the cores and one CPU-less HBM node of 64 GiB,
# too large for the size sign of docs/platform.md's vote (at most 17 GiB). The HMAT gives the kernel, and so
# hwloc, the bandwidths (8 DDR5-4800 channels, 307.2 GB/s: 286 GiB/s, ~110 ns; four HBM2e stacks, 1638.4 GB/s:
# 1526 GiB/s, ~130 ns), which decide. SLIT 13 (a real socket's HBM distance). Scaled down: 2 GiB
# DDR (128 GiB real) and 18 GiB HBM, still beyond the size sign (the guest touches only what it uses).
cpus 2
node 0 2G 0-1 0
node 1 18G "" 0
distance 0 1 13
hmat 0 0 110 286G
hmat 0 1 130 1526G
kernel_args cosched.threads=2 cosched.mib=16 cosched.hbw=1
