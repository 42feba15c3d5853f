#!/usr/bin/env bash
# Create (or reuse) the virtual environment green_nlp runs in, and install green_nlp into it.
#
# The venv lives outside the clone, keyed by a hash of the requirement files, so a second clone
# (or CI on the same machine) reuses it; `.venv` in the repo is a symlink to it.
# Override the location with GREEN_NLP_VENV=/some/dir.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
python=${PYTHON:-python3}
# Hash with Python, not sha256sum: macOS has shasum instead.
lock_hash=$(cat requirements/*.txt setup.py | "$python" -c 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest()[:12])')
venv=${GREEN_NLP_VENV:-$HOME/.cache/green_nlp/venv-$lock_hash}

pip_install() {  # quiet pip; drop the harmless notes about local index folders that do not exist
  local target=$1; shift
  "$target/bin/python" -m pip install -q "$@" 2>&1 | { grep -v "is ignored: it is neither a file nor a directory" || true; }
  return "${PIPESTATUS[0]}"
}

# One set-up at a time per venv: two clones (or a test run and CI) setting up at once would race in
# pip and lose the editable install's .pth file. flock waits for the other to finish.
# Where flock is missing (macOS), a lock directory does the same: mkdir is atomic.
mkdir -p "$(dirname "$venv")"
if command -v flock >/dev/null 2>&1; then
  exec 9>"$venv.setup-lock"
  flock 9
else
  until mkdir "$venv.setup-lock.d" 2>/dev/null; do
    echo "[setup] waiting for another set-up of $venv"; sleep 5
  done
  trap 'rmdir "$venv.setup-lock.d"' EXIT
fi
if [ -x "$venv/bin/python" ] && [ -f "$venv/.green_nlp_lock" ] && [ "$(cat "$venv/.green_nlp_lock")" = "$lock_hash" ]; then
  echo "[setup] reusing $venv (lock $lock_hash)"
else
  echo "[setup] creating $venv (lock $lock_hash); this takes a few minutes"
  rm -rf "$venv"
  "$python" -m venv "$venv"
  pip_install "$venv" --upgrade pip wheel
  pip_install "$venv" -r requirements/base.txt -c requirements/constraints.txt
  pip_install "$venv" --no-deps -r requirements/allennlp.txt
  echo "$lock_hash" > "$venv/.green_nlp_lock"
fi
# green_nlp itself: editable, no deps (they are all above). A venv shared by clones has one editable
# install: say so when it moves from another clone that is still there.
before=$("$venv/bin/python" -I - <<'PY' 2>/dev/null || true
import json
from importlib import metadata
from urllib.parse import unquote, urlparse

try:
    url = json.loads(metadata.distribution("green_nlp").read_text("direct_url.json") or "{}").get("url", "")
except metadata.PackageNotFoundError:
    url = ""
print(unquote(urlparse(url).path) if url.startswith("file://") else "")
PY
)
if [ -n "$before" ] && [ "$before" != "$repo" ] && [ -d "$before/green_nlp" ]; then
  echo "[setup] note: this venv's green_nlp was the clone at $before; it is now this one, for both clones'"
  echo "[setup]   commands (outside a clone's root, import green_nlp loads this clone's code)."
  echo "[setup]   For a venv of this clone's own: GREEN_NLP_VENV=/some/dir bash scripts/setup_env.sh"
fi
log=$(mktemp)
"$venv/bin/python" -m pip install -q --no-deps --no-build-isolation -e . >"$log" 2>&1 || { cat "$log"; exit 1; }
rm -f "$log"
ln -sfn "$venv" .venv
echo "[setup] ready: source .venv/bin/activate"
