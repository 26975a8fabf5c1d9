"""Answer a program's prompts on a pseudo-terminal (used by scripts/test-history.sh).

run(argv, steps, until, linger=(token, seconds), timeout=s) starts argv on a pty,
waits for each (prompt, answer) in steps and types the answer, then waits for
`until`. Returns (all prompts seen and `until` seen, output text, exit code).
"""
import os
import pty
import select
import time


def run(argv, steps, until, linger=None, timeout=20):
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(argv[0], argv)
    out = b""

    def read_until(token, seconds):
        nonlocal out
        end = time.time() + seconds
        while token not in out and time.time() < end:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    out += os.read(fd, 4096)
                except OSError:
                    break
        return token in out

    ok = True
    for prompt, answer in steps:
        if not read_until(prompt, timeout):
            ok = False
            break
        os.write(fd, answer)
    ok = ok and read_until(until, timeout)
    if linger:
        read_until(*linger)
    _, status = os.waitpid(pid, 0)
    return ok, out.decode(errors="replace"), os.waitstatus_to_exitcode(status)
