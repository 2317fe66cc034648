#!/usr/bin/env bash
# Wraps the PyInstaller .app (dist/Portal Admin.app) in a compressed .dmg.
# Untested here (no macOS machine): run by .github/workflows/installers.yml on macos-latest.
set -euo pipefail
cd "$(dirname "$0")/../.."
version=$(python -c 'import sys; sys.path.insert(0, "src"); import portal_admin; print(portal_admin.__version__)')
stage=build/dmg
rm -rf "$stage" && mkdir -p "$stage"
cp -R "dist/Portal Admin.app" "$stage/"
ln -s /Applications "$stage/Applications"
hdiutil create -volname "Portal Admin" -srcfolder "$stage" -ov -format UDZO \
  "dist/portal-admin-${version}-macos-$(uname -m).dmg"
