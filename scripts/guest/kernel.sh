#!/usr/bin/env bash
# Prints the path of a Debian kernel (vmlinuz) for the QEMU guests of the test suite (tests/guest/, docs/guest.md),
# fetching it once into a cache folder: the kernel package that Debian's linux-image-amd64 depends on, downloaded
# with `apt-get download` and unpacked with `dpkg-deb -x`. Nothing is installed on this machine.
#   scripts/guest/kernel.sh [CACHE_DIR]     default: ${XDG_CACHE_HOME:-~/.cache}/cosched/guest-kernel
# Exit 77 with one line on stderr when no kernel can be had (no apt, no package lists, no network).
set -euo pipefail
cache="${1:-${COSCHED_GUEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cosched}/guest-kernel}"
skip() { echo "guest kernel: $*" >&2; exit 77; }

existing=$(ls -1 "$cache"/boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1 || true)
if [ -n "$existing" ] && [ -z "${COSCHED_GUEST_KERNEL_REFRESH:-}" ]; then
  echo "$existing"
  exit 0
fi
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null || skip "no apt-get/dpkg-deb to fetch a Debian kernel"
# The flavour's current package, e.g. linux-image-6.1.0-56-amd64 (a query of the package lists, no download).
package=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[^ ]*-amd64\)$/\1/p' |
          head -n 1)
[ -n "$package" ] || skip "apt knows no linux-image-amd64 (run apt-get update, or scripts/setup.sh)"
mkdir -p "$cache"
work=$(mktemp -d "$cache/.fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
# apt-get download writes into the current folder; as root it warns that _apt cannot write there (harmless).
(cd "$work" && apt-get download -q "$package" >/dev/null 2>"$work/apt.err") ||
  skip "apt-get download $package failed: $(tail -n 1 "$work/apt.err")"
dpkg-deb -x "$work"/"$package"_*.deb "$work/root"
kernel=$(ls -1 "$work"/root/boot/vmlinuz-* | head -n 1)
mkdir -p "$cache/boot"
cp "$kernel" "$work/root/boot/config-"* "$cache/boot/"
echo "$cache/boot/$(basename "$kernel")"
