"""A ``notation`` on a shell's PATH that runs in a child forked from the suite's process,
its modules and grammars loaded: for tests that run commands through a shell (the
handbook's examples), where ``run_cli`` cannot reach.

The ``notation`` the shell finds is a small client (the interpreter without its site,
about a tenth of the command's own start). It hands the test process its arguments,
folder, environment and its three standard streams themselves (``SCM_RIGHTS``), and exits
with the status the command ended with. The test process serves while the shell runs:
for each client it forks, and the child becomes the command as ``run_cli``'s children
do (``conftest.command_in_child``). Pipes, redirections and terminals behave as for the
console script: the command writes to the very descriptors the shell gave the client.
``NOTATION_TEST_EXEC=1``, or a Dask loop running in the test process, puts the console
script back on the PATH.
"""
from __future__ import annotations

import array
import json
import os
import selectors
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from conftest import HANG_BREAKER, command_in_child, dask_running, warm_once

#: The client: the command's request, its streams passed along, its status awaited.
CLIENT = """\
import array, json, os, socket, sys
peer = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
peer.connect(os.environ["NOTATION_WARM_SOCKET"])
asked = json.dumps({"argv": sys.argv[1:], "cwd": os.getcwd(), "env": dict(os.environ)})
data = asked.encode("utf-8", "surrogateescape")
peer.sendmsg([len(data).to_bytes(4, "big") + data],
             [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [0, 1, 2]))])
status = b""
while len(status) < 4:
    piece = peer.recv(4 - len(status))
    if not piece:
        sys.exit(70)
    status += piece
sys.exit(int.from_bytes(status, "big"))
"""


def wanted() -> bool:
    """Whether commands may run warm here."""
    return not os.environ.get("NOTATION_TEST_EXEC") and hasattr(os, "fork") and not dask_running()


def write_client(path: Path) -> None:
    """The client, as an executable file at ``path``."""
    path.write_text(f"#!{sys.executable} -SE\n{CLIENT}", encoding="utf-8")
    path.chmod(0o755)


def run(args: list[str], cwd: Path, env: dict[str, str]) -> bytes:
    """``args`` run (a shell, say) with stdin closed and stderr on stdout, serving its
    warm commands while it runs; what it wrote."""
    warm_once()
    folder = tempfile.mkdtemp(prefix="notation-warm-")
    address = os.path.join(folder, "socket")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(address)
    listener.listen(16)
    process = subprocess.Popen(args, cwd=cwd, env={**env, "NOTATION_WARM_SOCKET": address},
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
    assert process.stdout is not None
    out = process.stdout.fileno()
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, "accept")
    selector.register(out, selectors.EVENT_READ, "out")
    written: list[bytes] = []
    running: dict[int, tuple[int, socket.socket]] = {}  # pidfd: (pid, client)
    try:
        reading = True
        while reading or running:
            for key, _events in selector.select():
                if key.data == "accept":
                    client, _ = listener.accept()
                    pid = _started(client, listener, out)
                    if pid is None:
                        client.close()
                        continue
                    pidfd = os.pidfd_open(pid)
                    running[pidfd] = (pid, client)
                    selector.register(pidfd, selectors.EVENT_READ, "ended")
                elif key.data == "out":
                    piece = os.read(out, 1 << 16)
                    if piece:
                        written.append(piece)
                    else:
                        selector.unregister(out)
                        reading = False
                else:
                    pidfd = key.fd
                    pid, client = running.pop(pidfd)
                    selector.unregister(pidfd)
                    os.close(pidfd)
                    _, status = os.waitpid(pid, 0)
                    code = os.waitstatus_to_exitcode(status)
                    try:
                        client.sendall((code if code >= 0 else 128 - code).to_bytes(4, "big"))
                    except OSError:
                        pass
                    client.close()
        process.wait(timeout=HANG_BREAKER)
    finally:
        selector.close()
        listener.close()
        process.stdout.close()
        if process.poll() is None:
            process.kill()
            process.wait()
        for pid, client in running.values():
            client.close()
        os.unlink(address)
        os.rmdir(folder)
    return b"".join(written)


def _started(client: socket.socket, listener: socket.socket, out: int) -> int | None:
    """The child running one client's command (None: a request that is none)."""
    head, fds = _received(client, 4)
    if len(head) < 4:
        _close(fds)
        return None
    size = int.from_bytes(head, "big")
    body, more = _received(client, size)
    fds += more
    if len(body) < size or len(fds) != 3:
        _close(fds)
        return None
    asked: dict[str, Any] = json.loads(body.decode("utf-8", "surrogateescape"))
    pid = os.fork()
    if pid == 0:
        def set_up() -> None:
            listener.close()
            client.close()
            os.close(out)
            for at, fd in enumerate(fds):
                os.dup2(fd, at)
            _close(fds)
            os.chdir(asked["cwd"])
            os.environ.clear()
            os.environ.update(asked["env"])
        command_in_child(list(asked["argv"]), set_up)
    _close(fds)
    return pid


def _received(client: socket.socket, size: int) -> tuple[bytes, list[int]]:
    """Up to ``size`` bytes from the client, with any descriptors passed along."""
    data = b""
    fds: list[int] = []
    while len(data) < size:
        piece, ancillary, _flags, _address = client.recvmsg(
            size - len(data), socket.CMSG_SPACE(3 * array.array("i").itemsize))
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                found = array.array("i")
                found.frombytes(payload[:len(payload) - len(payload) % found.itemsize])
                fds.extend(found)
        if not piece:
            break
        data += piece
    return data, fds


def _close(fds: list[int]) -> None:
    for fd in fds:
        os.close(fd)


__all__ = ["CLIENT", "run", "wanted", "write_client"]
