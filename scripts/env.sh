# Shared by scripts/setup, scripts/start and scripts/test (sourced, not run).
# Tools live outside the checkout so every clone on this machine shares them.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="${REGISTRY_CHAT_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/registry-chat/tools}"
DATA_DIR="${REGISTRY_CHAT_DATA_DIR:-$ROOT/data}"
export PATH="$TOOLS/bin:$HOME/.cargo/bin:$PATH"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-auto}"

now() { date +%s; }
say() { printf '%s\n' "$*" >&2; }
