#!/usr/bin/env bash
# Install the system tools Boneyard's two commands need, only those that are missing.
#   tools/ensure-tools.sh node       # Node.js and npm (to install the pinned PyScript/Pyodide packages)
#   tools/ensure-tools.sh python     # python3 with venv
#   tools/ensure-tools.sh chromium   # Debian's Chromium for the browser tests
# Uses apt-get (as root, or through sudo). Where /usr/bin/chromium is missing and apt cannot be used,
# falls back to Playwright's own browser download (machines with the internet only).
set -euo pipefail

SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo"; else SUDO="none"; fi
fi

apt_install() {
  if [ "$SUDO" = none ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-tools: cannot install $* (no apt-get, or not root and no sudo)" >&2
    return 1
  fi
  if [ ! -f /tmp/.boneyard-apt-updated ]; then
    $SUDO apt-get update -qq && touch /tmp/.boneyard-apt-updated
  fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

case "${1:-}" in
  node)
    command -v npm >/dev/null 2>&1 || apt_install nodejs npm
    ;;
  python)
    command -v python3 >/dev/null 2>&1 || apt_install python3 python3-venv
    python3 -c "import venv, ensurepip" 2>/dev/null || apt_install python3-venv
    ;;
  chromium)
    if [ -x /usr/bin/chromium ]; then exit 0; fi
    if apt_install chromium; then exit 0; fi
    echo "ensure-tools: falling back to Playwright's own Chromium download" >&2
    "${2:-.venv/bin/python}" -m playwright install chromium
    ;;
  *)
    echo "usage: tools/ensure-tools.sh node|python|chromium [venv-python]" >&2
    exit 2
    ;;
esac
