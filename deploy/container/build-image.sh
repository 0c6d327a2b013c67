#!/usr/bin/env bash
# Build the gamesweep container image from binaries already built here,
# without pulling anything: the image is FROM scratch and holds the two
# binaries, the shared libraries they link (as `ldd` lists them), a passwd
# and group file with the non-root user gamesweep (uid/gid 10001), an
# nsswitch.conf, /tmp and /data (the store's home, owned by gamesweep).
#
#   cargo build --release
#   deploy/container/build-image.sh [--bin-dir DIR] [--tag NAME:TAG] [--save FILE [--format F]]
#
#   --bin-dir DIR   where gamesweep and gamesweep-worker are (default: target/release
#                   of this checkout)
#   --tag NAME:TAG  the image's name (default: gamesweep:latest)
#   --save FILE     also write the image to FILE (for `podman load`, `docker load`
#                   or Apptainer), as --format: docker-archive (default) or
#                   oci-archive (podman and buildah only)
#
# ENGINE names the builder (default: podman): podman, docker or buildah, with
# any global options, split on spaces (ENGINE="podman --root /tmp/store").
# The image runs as uid 10001 wherever the binaries' libraries come from: the
# libraries are copied from this machine, so any glibc works (nothing is
# asked of the host that runs the image but its kernel).
set -euo pipefail

die() {
  echo "build-image.sh: $*" >&2
  exit 1
}

here=$(cd "$(dirname "$0")" && pwd)
bin_dir=$here/../../target/release
tag=gamesweep:latest
save=
format=docker-archive
while [ $# -gt 0 ]; do
  case $1 in
  --bin-dir | --tag | --save | --format)
    [ $# -ge 2 ] || die "$1 needs a value"
    case $1 in
    --bin-dir) bin_dir=$2 ;;
    --tag) tag=$2 ;;
    --save) save=$2 ;;
    --format) format=$2 ;;
    esac
    shift 2
    ;;
  -h | --help)
    sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
    exit 0
    ;;
  *) die "unknown argument '$1' (see --help)" ;;
  esac
done
case $format in
docker-archive | oci-archive) ;;
*) die "--format must be docker-archive or oci-archive (got '$format')" ;;
esac
read -r -a engine <<<"${ENGINE:-podman}"
[ "${#engine[@]}" -gt 0 ] || die "ENGINE is empty"
command -v "${engine[0]}" >/dev/null 2>&1 ||
  die "the builder '${engine[0]}' is not installed (apt-get install podman, or set ENGINE=docker)"
command -v ldd >/dev/null 2>&1 || die "ldd is not installed (it lists the libraries to copy)"

bins=(gamesweep gamesweep-worker)
for b in "${bins[@]}"; do
  [ -f "$bin_dir/$b" ] && [ -x "$bin_dir/$b" ] ||
    die "$bin_dir/$b is missing or not executable: run 'cargo build --release' first, or pass --bin-dir"
done
version=$("$bin_dir/gamesweep" --version 2>/dev/null) ||
  die "$bin_dir/gamesweep --version failed: is it a binary for this machine?"

ctx=$(mktemp -d "${TMPDIR:-/tmp}/gamesweep-image.XXXXXX")
trap 'rm -rf "$ctx"' EXIT
root=$ctx/rootfs
mkdir -p "$root/usr/local/bin" "$root/etc" "$root/tmp" "$ctx/data"
chmod 1777 "$root/tmp"
for b in "${bins[@]}"; do
  install -m 0755 "$bin_dir/$b" "$root/usr/local/bin/$b"
done

# The libraries the dynamic loader maps, and the loader itself, each at the
# path it has here (so the binaries' interpreter path and the loader's
# default search path both find them without an ld.so.cache).
libs=()
for b in "${bins[@]}"; do
  out=$(ldd "$bin_dir/$b" 2>&1) || {
    case $out in
    *"not a dynamic executable"* | *"statically linked"*) continue ;;
    *) die "ldd $bin_dir/$b failed: $out" ;;
    esac
  }
  while read -r line; do
    case $line in
    *"not found"*) die "$b needs a library this machine lacks: $line" ;;
    *"=> /"*) lib=${line#*=> } && libs+=("${lib%% (*}") ;;
    /*) libs+=("${line%% (*}") ;;
    esac
  done <<<"$out"
done
[ "${#libs[@]}" -eq 0 ] || mapfile -t libs < <(printf '%s\n' "${libs[@]}" | sort -u)
for lib in "${libs[@]}"; do
  mkdir -p "$root$(dirname "$lib")"
  cp -L "$lib" "$root$lib"
done

cat >"$root/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/usr/sbin/nologin
gamesweep:x:10001:10001:gamesweep:/data:/usr/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
EOF
cat >"$root/etc/group" <<'EOF'
root:x:0:
gamesweep:x:10001:
nogroup:x:65534:
EOF
cat >"$root/etc/nsswitch.conf" <<'EOF'
passwd: files
group: files
hosts: files dns
EOF
cp "$here/Containerfile" "$ctx/Containerfile"

"${engine[@]}" build --label "org.opencontainers.image.version=$version" \
  --label "org.opencontainers.image.title=gamesweep" \
  -f "$ctx/Containerfile" -t "$tag" "$ctx"
echo "build-image.sh: built $tag ($version; libraries: ${libs[*]})"
if [ -n "$save" ]; then
  rm -f "$save"
  case ${engine[0]} in
  docker)
    [ "$format" = docker-archive ] || die "docker saves docker-archive only"
    "${engine[@]}" save -o "$save" "$tag"
    ;;
  buildah) "${engine[@]}" push "$tag" "$format:$save:$tag" ;;
  *) "${engine[@]}" save --format "$format" -o "$save" "$tag" ;;
  esac
  echo "build-image.sh: saved $tag to $save ($format)"
fi
