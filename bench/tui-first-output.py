#!/usr/bin/env python3
"""tui-first-output.py GULLY [ARGS...]: starts the explorer on a pseudo-terminal
and prints how long it took to write its first byte and to start its screen
(the alternate screen's escape), in ms. Issue 12: a 4096x4096 map must show
something within 100 ms. Example:
    bench/tui-first-output.py build/gully --paused --size 4096x4096
"""
import os, pty, select, sys, time

def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    t0 = time.monotonic()
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.execv(args[0], args)
    buf, first = b"", None
    while time.monotonic() - t0 < 60:
        r, _, _ = select.select([fd], [], [], 0.05)
        if not r:
            continue
        try:
            d = os.read(fd, 65536)
        except OSError:
            break
        if not d:
            break
        if first is None:
            first = time.monotonic() - t0
        buf += d
        if b"\x1b[?1049h" in buf:
            break
    screen = time.monotonic() - t0
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    print("first byte %.1f ms, screen %.0f ms" % ((first or screen) * 1000, screen * 1000))

main()
