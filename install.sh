#!/bin/sh
# Installs the tracker CLI:  curl -fsSL <release-url>/latest/download/install.sh | sh
#
#   sh install.sh [--version <v>] [--no-modify-path] [--no-agent-skills]
#
# Detects the OS and CPU (musl libc, Rosetta, CPUs without AVX2), downloads the matching binary
# into a temp dir, verifies it against the release's SHA256SUMS, checks that it runs, then moves it
# into $TRACKER_INSTALL_DIR (default ~/.tracker/bin) with one rename and runs `tracker cli setup`.
# Every failure happens before that rename, so an existing install is never left half-replaced.
#
# Environment: TRACKER_RELEASE_URL (release location or mirror), TRACKER_INSTALL_DIR.
set -eu

DEFAULT_RELEASE_URL="https://github.com/tracker-cli/tracker/releases"
RELEASE_URL="${TRACKER_RELEASE_URL:-$DEFAULT_RELEASE_URL}"
RELEASE_URL="${RELEASE_URL%/}"
INSTALL_DIR="${TRACKER_INSTALL_DIR:-${HOME:?HOME is not set}/.tracker/bin}"
INSTALL_DIR="${INSTALL_DIR%/}"

version=""
setup_flags=""

say() { printf '%s\n' "$*" >&2; }
fail() {
  say "error: $*"
  exit 1
}
usage() {
  cat >&2 <<'EOF'
Usage: install.sh [--version <v>] [--no-modify-path] [--no-agent-skills]

  --version <v>       install this version (default: the latest release)
  --no-modify-path    do not add the install directory to PATH in shell startup files
  --no-agent-skills   do not install the agent skill file into ~/.claude or ~/.agents

Environment: TRACKER_INSTALL_DIR (default ~/.tracker/bin), TRACKER_RELEASE_URL (mirror).
EOF
}

while [ $# -gt 0 ]; do
  case "$1" in
    --version)
      [ $# -ge 2 ] || fail "--version needs a value, e.g. --version 1.2.3"
      version="$2"
      shift 2
      ;;
    --version=*)
      version="${1#--version=}"
      shift
      ;;
    --no-modify-path | --no-agent-skills)
      setup_flags="$setup_flags $1"
      shift
      ;;
    -h | --help)
      usage
      exit 0
      ;;
    *)
      usage
      fail "unknown option: $1"
      ;;
  esac
done

version="${version#v}"
if [ -n "$version" ]; then
  case "$version" in
    [0-9]*.[0-9]*.[0-9]*) ;;
    *) fail "--version must look like 1.2.3, got '$version'" ;;
  esac
fi

# The binary is run right after download: only https, or plain http on this machine (a local
# mirror or test server), as `tracker upgrade` requires. Redirects may not leave https either.
# The whole authority is checked, not a prefix: `http://127.0.0.1:x@other-host/` is other-host.
loopback_http() {
  authority="${1#http://}"
  authority="${authority%%[/?#]*}"
  case "$authority" in
    127.0.0.1 | localhost | "[::1]") return 0 ;;
    127.0.0.1:*) port="${authority#127.0.0.1:}" ;;
    localhost:*) port="${authority#localhost:}" ;;
    "[::1]:"*) port="${authority#\[::1\]:}" ;;
    *) return 1 ;;
  esac
  case "$port" in
    "" | *[!0-9]*) return 1 ;;
  esac
  return 0
}

case "$RELEASE_URL" in
  https://*) curl_proto="=https" ;;
  http://*) loopback_http "$RELEASE_URL" && curl_proto="=http,https" ;;
esac
[ -n "${curl_proto:-}" ] ||
  fail "TRACKER_RELEASE_URL must use https (plain http only on 127.0.0.1, localhost or [::1]), got '$RELEASE_URL'"

if command -v curl >/dev/null 2>&1; then
  fetch() { curl -fsSL --proto "$curl_proto" --proto-redir "$curl_proto" --retry 2 -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  fetch() { wget -q -O "$2" "$1"; }
else
  fail "curl or wget is required"
fi

if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1" | cut -d ' ' -f 1; }
elif command -v shasum >/dev/null 2>&1; then
  sha256() { shasum -a 256 "$1" | cut -d ' ' -f 1; }
else
  fail "sha256sum or shasum is required to verify the download"
fi

os_name="$(uname -s)"
arch_name="$(uname -m)"
case "$os_name" in
  Linux) os="linux" ;;
  Darwin) os="darwin" ;;
  MINGW* | MSYS* | CYGWIN*) os="windows" ;;
  *) fail "unsupported operating system: $os_name (tracker ships binaries for Linux, macOS and Windows)" ;;
esac
case "$arch_name" in
  x86_64 | amd64) arch="x64" ;;
  aarch64 | arm64) arch="arm64" ;;
  *) fail "unsupported CPU architecture: $arch_name (tracker ships binaries for x64 and arm64)" ;;
esac
if [ "$os" = "windows" ] && [ "$arch" != "x64" ]; then
  fail "unsupported platform: Windows on $arch_name (only x64)"
fi

# An x64 shell on Apple silicon runs under Rosetta: the native arm64 binary is the better choice.
if [ "$os" = "darwin" ] && [ "$arch" = "x64" ]; then
  if [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = "1" ]; then
    arch="arm64"
  fi
fi

variant=""
if [ "$os" = "linux" ]; then
  if ls /lib/ld-musl-*.so.1 >/dev/null 2>&1 || ldd --version 2>&1 | grep -qi musl; then
    variant="-musl"
  fi
fi
# The default x64 builds need AVX2; older or emulated CPUs get the baseline build.
if [ "$arch" = "x64" ]; then
  case "$os" in
    linux)
      if [ -r /proc/cpuinfo ] && ! grep -qi avx2 /proc/cpuinfo; then variant="$variant-baseline"; fi
      ;;
    darwin)
      if ! sysctl -n machdep.cpu.leaf7_features 2>/dev/null | grep -qi avx2; then variant="$variant-baseline"; fi
      ;;
  esac
fi

exe=""
[ "$os" = "windows" ] && exe=".exe"
asset="tracker-$os-$arch$variant$exe"
binary="tracker$exe"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/tracker-install.XXXXXX")" || fail "could not create a temp directory"
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 130' INT TERM

if [ -z "$version" ]; then
  fetch "$RELEASE_URL/latest/download/manifest.json" "$tmp/manifest.json" ||
    fail "could not read the latest release from $RELEASE_URL (network problem, or set TRACKER_RELEASE_URL)"
  version="$(tr -d ' \n\r\t' <"$tmp/manifest.json" | sed -n 's/.*"version":"v\{0,1\}\([^"]*\)".*/\1/p')"
  [ -n "$version" ] || fail "the release manifest at $RELEASE_URL/latest/download/manifest.json has no version"
fi

base="$RELEASE_URL/download/v$version"
say "Installing tracker $version ($asset) into $INSTALL_DIR"
fetch "$base/SHA256SUMS" "$tmp/SHA256SUMS" ||
  fail "could not download $base/SHA256SUMS (is $version a released version?)"
expected="$(awk -v name="$asset" '$2 == name || $2 == "*" name { print $1 }' "$tmp/SHA256SUMS")"
[ -n "$expected" ] || fail "release $version has no $asset binary"
fetch "$base/$asset" "$tmp/$binary" || fail "could not download $base/$asset"
actual="$(sha256 "$tmp/$binary")"
if [ "$actual" != "$expected" ]; then
  fail "checksum mismatch for $asset: expected $expected, got $actual. Nothing was installed."
fi
chmod 755 "$tmp/$binary"
reported="$("$tmp/$binary" --version 2>/dev/null || true)"
[ "$reported" = "$version" ] ||
  fail "the downloaded binary does not run on this machine (reported '${reported}'). Nothing was installed."

mkdir -p "$INSTALL_DIR" || fail "could not create $INSTALL_DIR"
# Copy next to the target first, then rename: the rename is atomic on one file system.
staged="$INSTALL_DIR/.$binary.install.$$"
cp "$tmp/$binary" "$staged" || {
  rm -f "$staged"
  fail "could not write to $INSTALL_DIR"
}
chmod 755 "$staged"
mv -f "$staged" "$INSTALL_DIR/$binary" || {
  rm -f "$staged"
  fail "could not move the binary into $INSTALL_DIR"
}

# shellcheck disable=SC2086 # setup_flags is a list of fixed words
"$INSTALL_DIR/$binary" cli setup --method curl $setup_flags ||
  say "warning: 'tracker cli setup' failed; the binary is installed at $INSTALL_DIR/$binary"

say ""
say "tracker $version is installed at $INSTALL_DIR/$binary"
say "Next: tracker auth login   (in CI, set TRACKER_AUTH_TOKEN instead)"
