#!/usr/bin/env bash
# The README's quick start on a machine without the HiGHS build tools. A fresh clone of this
# repository's current branch runs the two commands (`cargo xtask pair instances/open-250.trf`,
# `cargo xtask test`) in a private mount namespace where g++, cmake and libclang-dev are not
# installed: /usr, /etc and /var are overlays in which the packages' files are deleted and
# dpkg's records of them dropped. The commands must install them (apt-get, as root) and pass.
# Other processes on the machine still see the tools. First, a plain `cargo build --release`
# must fail there (the tools really are gone).
#
# Needs root (unshare, overlay mounts), Debian/Ubuntu and a Rust toolchain. HiGHS builds from
# scratch, then the test suite: see README for the time measured. Usage:
#     scripts/fresh-machine-check.sh [+TOOLCHAIN]
# `+1.89` builds with that rustup toolchain (Cargo.toml's rust-version), checking it too.
set -euo pipefail

if [ "${1:-}" != --inside ]; then
  [ "$(id -u)" -eq 0 ] || { echo "error: needs root (unshare, mount)" >&2; exit 1; }
  repo=$(git -C "$(dirname "${BASH_SOURCE[0]}")/.." rev-parse --show-toplevel)
  branch=$(git -C "$repo" rev-parse --abbrev-ref HEAD)
  work=$(mktemp -d "${TMPDIR:-/tmp}/optipair-fresh.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  git clone --quiet --branch "$branch" "$repo" "$work/optipair"
  echo "== fresh clone of $branch ($(git -C "$work/optipair" rev-parse --short HEAD)) in $work"
  unshare --mount --propagation private bash "${BASH_SOURCE[0]}" --inside "$work" "${1:-}"
  echo "== fresh-machine check passed"
  exit 0
fi

work=$2
if [ -n "${3:-}" ]; then export RUSTUP_TOOLCHAIN=${3#+}; fi
for d in usr etc var; do
  mkdir -p "$work/overlay/$d/upper" "$work/overlay/$d/work"
  mount -t overlay overlay \
    -o "lowerdir=/$d,upperdir=$work/overlay/$d/upper,workdir=$work/overlay/$d/work" "/$d"
done

# The packages that give the HiGHS build its tools, with the versioned ones they pull in and,
# as a removal would take them, the packages that depend on them (build-essential).
mapfile -t base < <(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' 'g++' 'g++-[0-9]*' \
  cmake cmake-data libclang-dev 'libclang-[0-9]*-dev' 'libclang1-[0-9]*' \
  'libclang-common-[0-9]*-dev' 2>/dev/null | awk '$1 == "ii" { print $2 }')
mapfile -t pkgs < <(apt-get -s remove "${base[@]}" | awk '/^Remv / { sub(/:.*/, "", $2); print $2 }')
echo "== hiding: ${pkgs[*]}"
# Deleted only through the overlays: /usr, /etc, /var, and /bin, /lib… where they link into /usr.
files=()
for p in "${pkgs[@]}"; do
  while IFS= read -r f; do
    case "$f" in
      /usr/* | /etc/* | /var/*) ;;
      /bin/* | /sbin/* | /lib/* | /lib64/*)
        top=${f#/}
        [ -L "/${top%%/*}" ] || continue
        ;;
      *) continue ;;
    esac
    if [ -L "$f" ] || [ -f "$f" ]; then files+=("$f"); fi
  done < <(dpkg-query -L "$p")
done
rm -f -- "${files[@]}"
for p in "${pkgs[@]}"; do rm -f /var/lib/dpkg/info/"$p".* /var/lib/dpkg/info/"$p":*.*; done
awk -v list=" ${pkgs[*]} " 'BEGIN { RS = ""; ORS = "\n\n" }
  { split($0, l, "\n"); sub(/^Package: /, "", l[1]); if (index(list, " " l[1] " ") == 0) print }' \
  /var/lib/dpkg/status > "$work/status" && cat "$work/status" > /var/lib/dpkg/status
for p in "${pkgs[@]}"; do
  ! dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^ii' \
    || { echo "error: $p still installed" >&2; exit 1; }
done
! command -v cmake >/dev/null || { echo "error: cmake still found" >&2; exit 1; }

cd "$work/optipair"
export CARGO_TARGET_DIR="$work/target" CARGO_TERM_COLOR=never
unset CI CXX CMAKE LIBCLANG_PATH
echo "== $(rustc --version), $(cargo --version)"
echo "== plain cargo build --release (must fail: no cmake, no libclang)"
if cargo build --release >"$work/plain.log" 2>&1; then
  echo "error: the build passed without the tools" >&2
  exit 1
fi
grep -m 1 -E "is .cmake. not installed|libclang" "$work/plain.log" \
  || { tail -n 20 "$work/plain.log" >&2; echo "error: it failed for another reason" >&2; exit 1; }

echo "== cargo xtask pair instances/open-250.trf"
start=$(date +%s)
cargo xtask pair instances/open-250.trf | tee "$work/pair.txt" | tail -n 3
grep -q 'Verifier: no rule broken.' "$work/pair.txt"
echo "== pair: $(( $(date +%s) - start )) s (installs, first build with HiGHS, the pairing)"

echo "== cargo xtask test"
start=$(date +%s)
cargo xtask test 2>&1 | tee "$work/test.txt" | grep -E '^test result|passed|failed' | tail -n 3
[ "${PIPESTATUS[0]}" -eq 0 ]
echo "== test: $(( $(date +%s) - start )) s (build of the tests, the whole suite)"
