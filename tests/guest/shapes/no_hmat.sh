# knl_flat_quadrant.sh as KNL's firmware really reports it: no HMAT at all, only the SLIT (31). hwloc then has no
# bandwidth; the fast tier is found by the vote of signs (CPU-less, size, SLIT: docs/platform.md), and memkind,
# which needs bandwidth attributes or a Xeon Phi CPU, sees no high-bandwidth node (cosched.hbw names it for it).
# The CPU has no AVX-512 (QEMU's Haswell model: AVX2 + FMA), and the programs are the Debian package's (cpack -G
# DEB, unpacked with dpkg-deb -x; cosched.deb=1 asks scripts/guest/run-shape.sh for them): the package built on
# an AVX-512 machine runs where AVX-512 is missing.
cpus 2
cpu_model Haswell-noTSX
node 0 1536M 0-1 0
node 1 256M "" 0
distance 0 1 31
kernel_args cosched.threads=2 cosched.mib=16 cosched.hbw=1 cosched.deb=1
