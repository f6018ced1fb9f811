#!/bin/sh
# Installs the rienda binary of a release for this machine:
#
#   curl -fsSL https://github.com/rienda/rienda/releases/latest/download/install.sh | sh
#
# It downloads rienda-<target> and SHA256SUMS, checks the binary's SHA-256
# against SHA256SUMS (a mismatch installs nothing), checks that it runs, then
# moves it into place in one rename. Settings, by environment:
#
#   RIENDA_VERSION       the release, e.g. 0.2.0 (default: the latest)
#   RIENDA_INSTALL_DIR   where `rienda` goes (default: ~/.local/bin)
#   RIENDA_DOWNLOAD_URL  the base under which v<VERSION>/rienda-<target> and
#                        v<VERSION>/SHA256SUMS are found (latest/ for the latest);
#                        default: the GitHub release downloads
#
# POSIX sh: no bash needed. Needs curl or wget, and sha256sum, shasum or openssl.
set -eu

# The GitHub repository of the releases (the release workflow writes its own here).
REPO="rienda/rienda"

say() {
  printf 'rienda install: %s\n' "$*"
}

fail() {
  printf 'rienda install: %s\n' "$*" >&2
  exit 1
}

download() { # URL FILE
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL -o "$2" "$1" || fail "cannot download $1"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1" || fail "cannot download $1"
  else
    fail "needs curl or wget to download $1"
  fi
}

sha256() { # FILE
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  elif command -v openssl >/dev/null 2>&1; then
    openssl dgst -sha256 "$1" | sed 's/^.*= *//'
  else
    fail "needs sha256sum, shasum or openssl to check the download"
  fi
}

target() {
  os=$(uname -s)
  arch=$(uname -m)
  case "$arch" in
    x86_64 | amd64) arch=x86_64 ;;
    aarch64 | arm64) arch=aarch64 ;;
    *) fail "no rienda binary for the $arch processor (build from source: see the README)" ;;
  esac
  case "$os" in
    Linux)
      if ldd --version 2>&1 | grep -qi musl; then
        fail "the rienda binaries need glibc; on musl (Alpine) install the npm package instead"
      fi
      echo "$arch-unknown-linux-gnu"
      ;;
    Darwin)
      # A shell under Rosetta reports x86_64 on Apple silicon: take the native binary.
      if [ "$arch" = x86_64 ] && [ "$(sysctl -n hw.optional.arm64 2>/dev/null || true)" = 1 ]; then
        arch=aarch64
      fi
      echo "$arch-apple-darwin"
      ;;
    MINGW* | MSYS* | CYGWIN*)
      [ "$arch" = x86_64 ] || fail "no rienda binary for Windows on $arch"
      echo "x86_64-pc-windows-msvc"
      ;;
    *) fail "no rienda binary for $os (build from source: see the README)" ;;
  esac
}

target=$(target)
exe=""
case "$target" in *windows*) exe=".exe" ;; esac
asset="rienda-$target$exe"

version="${RIENDA_VERSION:-latest}"
version="${version#v}"
if [ -n "${RIENDA_DOWNLOAD_URL:-}" ]; then
  base="${RIENDA_DOWNLOAD_URL%/}"
  if [ "$version" = latest ]; then release="$base/latest"; else release="$base/v$version"; fi
elif [ "$version" = latest ]; then
  release="https://github.com/$REPO/releases/latest/download"
else
  release="https://github.com/$REPO/releases/download/v$version"
fi

if [ -n "${RIENDA_INSTALL_DIR:-}" ]; then
  dir="$RIENDA_INSTALL_DIR"
else
  [ -n "${HOME:-}" ] || fail "HOME is not set: set RIENDA_INSTALL_DIR to the folder to install into"
  dir="$HOME/.local/bin"
fi

work=$(mktemp -d 2>/dev/null || mktemp -d -t rienda)
staged=""
cleanup() {
  rm -rf "$work"
  if [ -n "$staged" ]; then rm -f "$staged"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say "downloading $asset ($version) from $release"
download "$release/SHA256SUMS" "$work/SHA256SUMS"
download "$release/$asset" "$work/$asset"

expected=$(awk -v name="$asset" '$2 == name || $2 == "*" name { print $1; exit }' "$work/SHA256SUMS")
[ -n "$expected" ] || fail "$release/SHA256SUMS lists no checksum for $asset; nothing was installed"
actual=$(sha256 "$work/$asset")
if [ "$actual" != "$expected" ]; then
  fail "checksum mismatch for $asset: SHA256SUMS says $expected, the download is $actual; nothing was installed"
fi

mkdir -p "$dir" || fail "cannot create $dir: set RIENDA_INSTALL_DIR to a folder you can write"
# Staged beside its final name, so the last step is one rename on the same file system.
staged="$dir/.rienda-install.$$$exe"
cp "$work/$asset" "$staged" || fail "cannot write into $dir: set RIENDA_INSTALL_DIR to a folder you can write"
chmod 755 "$staged"
installed=$("$staged" --version 2>/dev/null) ||
  fail "the downloaded $asset does not run on this machine; nothing was installed"
mv -f "$staged" "$dir/rienda$exe"
staged=""

say "installed $installed as $dir/rienda$exe"
case ":${PATH:-}:" in
  *":$dir:"*) say "$dir is on your PATH: run rienda --help" ;;
  *) say "$dir is not on your PATH: add it (e.g. export PATH=\"$dir:\$PATH\" in your shell profile)" ;;
esac
