#!/usr/bin/env bash
# Boots one machine shape of tests/guest/shapes/ with the project's programs and writes the guest's console
# (every check of that shape, in one boot) to OUT_DIR/SHAPE.console — what tests/guest/guest_test.cpp reads.
#   scripts/guest/run-shape.sh SHAPE BUILD_DIR OUT_DIR
# The image holds BUILD_DIR/bin's cosched and stream_bench, or, for a shape with cosched.deb=1, the ones of the
# Debian package (cpack -G DEB in BUILD_DIR, unpacked with dpkg-deb -x), plus the test programs page_nodes and
# memory_probe and tests/guest/files/. Images are rebuilt only when an input is newer.
# Exit 77 with one line on stderr when QEMU, busybox-static or a kernel cannot be had.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 SHAPE BUILD_DIR OUT_DIR" >&2; exit 2; }
shape="$1" build="$(cd "$2" && pwd)" out="$3"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source_dir="$(cd "$here/../.." && pwd)"
guest_dir="$source_dir/tests/guest"
shape_file="$guest_dir/shapes/$shape.sh"
[ -f "$shape_file" ] || { echo "guest: no shape $shape ($shape_file)" >&2; exit 2; }
qemu="${COSCHED_GUEST_QEMU:-qemu-system-x86_64}"  # another QEMU to boot with (a path or a name)
command -v "$qemu" >/dev/null ||
  { echo "no $qemu (apt-get install qemu-system-x86, or scripts/setup.sh)" >&2; exit 77; }
kernel=$("$here/kernel.sh") || exit $?
mkdir -p "$out"

# Programs for the image: the build's, or the package's.
bin="$build/bin"
variant=build
if grep -q 'cosched.deb=1' "$shape_file"; then
  variant=deb
  package_root="$out/deb-root"
  if [ ! -x "$package_root/usr/bin/cosched" ] || [ "$bin/cosched" -nt "$package_root/usr/bin/cosched" ] ||
     [ "$bin/stream_bench" -nt "$package_root/usr/bin/stream_bench" ]; then
    rm -rf "$out/deb" "$package_root"
    (cd "$build" && cpack -G DEB -B "$out/deb" >"$out/cpack.log" 2>&1) ||
      { echo "guest: cpack -G DEB failed (log: $out/cpack.log)" >&2; exit 1; }
    dpkg-deb -x "$(ls -1 "$out"/deb/cosched_*.deb | head -n 1)" "$package_root"
  fi
  programs=("$package_root/usr/bin/cosched" "$package_root/usr/bin/stream_bench")
else
  programs=("$bin/cosched" "$bin/stream_bench")
fi
programs+=("$bin/page_nodes" "$bin/memory_probe")
files=()
for file in "$guest_dir"/files/*; do files+=(--file "$file=/guest/$(basename "$file")"); done

initramfs="$out/initramfs-$variant.cpio"
stale=0
[ -f "$initramfs" ] || stale=1
for input in "${programs[@]}" "$guest_dir"/guest_init.sh "$guest_dir"/files/* "$here/initramfs.sh"; do
  [ "$input" -nt "$initramfs" ] && stale=1
done
if [ "$stale" -eq 1 ]; then
  "$here/initramfs.sh" "$initramfs" "$guest_dir/guest_init.sh" "${files[@]}" "${programs[@]}"
fi
"$here/boot.sh" "$shape_file" "$kernel" "$initramfs" "$out/$shape.console" "${COSCHED_GUEST_TIMEOUT:-420}"
