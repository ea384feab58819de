#!/usr/bin/env bash
# Packs an initramfs for the QEMU guests of the test suite (tests/guest/, docs/guest.md): a static busybox, the
# given programs under /usr/bin with every shared library they load (as ldd finds them on this machine, which runs
# the same Debian as the guest kernel), any extra files, and INIT as /init.
#   scripts/guest/initramfs.sh OUTPUT INIT [--file SRC=DEST]... PROGRAM...
# Exit 77 with one line on stderr when there is no static busybox (Debian's busybox-static; scripts/setup.sh).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 OUTPUT INIT [--file SRC=DEST]... PROGRAM..." >&2; exit 2; }
output="$1" init="$2"
shift 2
busybox=$(command -v busybox || true)
if [ -z "$busybox" ] || ! file -L "$busybox" | grep -q 'statically linked'; then
  echo "guest initramfs: no static busybox (apt-get install busybox-static, or scripts/setup.sh)" >&2
  exit 77
fi
root=$(mktemp -d "${TMPDIR:-/tmp}/cosched-initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,root,etc}
cp "$busybox" "$root/bin/busybox"
for applet in $("$busybox" --list); do
  [ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done
install -m 755 "$init" "$root/init"

copy_with_libraries() {  # $1: a file; its libraries (and the loader) keep their paths
  local library
  for library in $(ldd "$1" 2>/dev/null | grep -o '/[^ ]*' || true); do
    [ -e "$root$library" ] && continue
    mkdir -p "$root$(dirname "$library")"
    cp -L "$library" "$root$library"
  done
}
while [ $# -gt 0 ]; do
  case "$1" in
    --file)
      source_path="${2%%=*}" destination="${2#*=}"
      mkdir -p "$root$(dirname "$destination")"
      cp -L "$source_path" "$root$destination"
      shift 2
      ;;
    *)
      cp -L "$1" "$root/usr/bin/"
      copy_with_libraries "$1"
      shift
      ;;
  esac
done
# Debian's libraries carry their symbols; the guest needs none of them (a third of the image's size).
find "$root/usr/bin" "$root/lib" "$root/usr/lib" -type f \( -name '*.so*' -o -perm -u+x \) 2>/dev/null |
  xargs -r strip --strip-unneeded 2>/dev/null || true
mkdir -p "$(dirname "$output")"
# Uncompressed: the guest then skips inflating ~100 MB under TCG (boot to /init 4.9 s instead of 8.2 s).
(cd "$root" && find . | "$busybox" cpio -o -H newc 2>/dev/null) > "$output.tmp"
mv "$output.tmp" "$output"
