#!/usr/bin/env bash
# Fetches the pinned Apache ECharts release with npm, checks the package tarball against
# the pinned integrity (sha512, as in a package-lock) and the file against the pinned
# sha256, and copies dist/echarts.min.js, LICENSE and NOTICE here. Needs npm and network
# access to the npm registry; the build itself never does.
#
#   third_party/echarts/update.sh
set -euo pipefail
cd "$(dirname "$0")"
version="6.1.0"
integrity="sha512-q0yaFPggC9FUdsWH4blavRWFmxdrIodbkoKNAjJudAI6CA9gNPxHtV2RcZNEepZVlk4yvBYkOkbk6HIVpIyHZA=="
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
(cd "$scratch" && npm pack --silent "echarts@$version" >/dev/null)
tarball="$scratch/echarts-$version.tgz"
actual="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
if [ "$actual" != "$integrity" ]; then
  echo "update.sh: echarts-$version.tgz has integrity $actual, expected $integrity" >&2
  exit 1
fi
tar -xzf "$tarball" -C "$scratch" package/dist/echarts.min.js package/LICENSE package/NOTICE
cp "$scratch/package/dist/echarts.min.js" "$scratch/package/LICENSE" "$scratch/package/NOTICE" .
./check_pinned.sh echarts.min.js
echo "third_party/echarts: echarts $version in place"
