#!/usr/bin/env bash
# Re-takes docs/images/bridge-tray.png, the screenshot of the desktop bridge's tray menu in the docs
# (docs/bridge.md). It runs the tray test (src/connectors/bridge/tray.test.ts): a real server, a
# signed-in `switchboard bridge`, and xfce4-panel's Status Tray under Xvfb; the test opens the menu
# with xdotool, and with TRAY_SCREENSHOT set also writes the screen's top-left 480×200 there as PNG.
# Needs what `.ci/run` installs (xvfb dbus-daemon dbus-bin dunst xfce4-panel xdotool x11-apps) and
# PostgreSQL and Redis (defaults: the local ones on 127.0.0.1).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p docs/images
DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}" \
REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}" \
TRAY_SCREENSHOT="$PWD/docs/images/bridge-tray.png" \
  npm test -- src/connectors/bridge/tray.test.ts
echo "wrote docs/images/bridge-tray.png"
