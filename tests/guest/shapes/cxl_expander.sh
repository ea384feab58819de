# A DDR5 node with the cores and a CXL type-3 memory expander: a large CPU-less node that is slower, not faster
# (an x16 PCIe 5 link, ~64 GB/s: 60 GiB/s, ~250 ns, against 12 DDR5-4800 channels, 460.8 GB/s: 429 GiB/s,
# ~110 ns), SLIT 20. The DDR node is the fast tier here, the expander the slow one. Scaled down: 1 GiB DDR, 2 GiB CXL.
# The CPU is QEMU's qemu64: baseline x86-64, no AVX (the STREAM loops run their x86-64 variant).
cpus 2
cpu_model qemu64
node 0 1G 0-1 0
node 1 2G "" 0
distance 0 1 20
hmat 0 0 110 429G
hmat 0 1 250 60G
kernel_args cosched.threads=2 cosched.mib=16 cosched.hbw=0
