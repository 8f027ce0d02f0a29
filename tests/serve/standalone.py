"""A preview server in a process of its own, over a workspace's preview root as it is (no
build, no refresh): for tests that starve that process of descriptors or measure its memory.

``python -m tests.serve.standalone WORKSPACE GAME [--files N] [--balance-games N]`` prints
``serving URL`` and serves until killed. ``--files N`` first lowers the process's limit on open
files to N (the default soft limit on macOS is 256); ``--balance-games`` is pnp serve's.
"""

from __future__ import annotations

import argparse
import resource
import threading
from pathlib import Path

from pnp.core.workspace import Workspace
from pnp.serve.preview import Preview
from pnp.serve.server import PreviewServer


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("workspace", type=Path)
    parser.add_argument("game")
    parser.add_argument("--files", type=int, default=0)
    parser.add_argument("--balance-games", type=int, default=200)
    args = parser.parse_args()
    if args.files:
        resource.setrlimit(resource.RLIMIT_NOFILE, (args.files, args.files))
    preview = Preview(Workspace(args.workspace), args.game, balance_games=args.balance_games)
    with PreviewServer(preview, "127.0.0.1", 0) as server:
        print(f"serving {server.url}", flush=True)
        threading.Event().wait()


if __name__ == "__main__":
    main()
