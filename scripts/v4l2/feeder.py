#!/usr/bin/python3
"""Feeds raw frames to v4l2-ctl through a named pipe (runs inside the guest).

Usage: feeder.py FIFO A.yuyv B.yuyv SWITCH_FILE
Writes whole A frames until SIGUSR1, then whole B frames; writes the guest's
monotonic time (/proc/uptime, seconds) to SWITCH_FILE when the first B frame
is written. The pipe blocks at the output node's pace, so the switch lands
within the output queue's depth (3 buffers) of that time.
"""
import signal
import sys

fifo, a_path, b_path, switch_file = sys.argv[1:5]
frames = [open(a_path, "rb").read(), open(b_path, "rb").read()]
state = {"want": 0}
signal.signal(signal.SIGUSR1, lambda *_: state.update(want=1))
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))


def uptime():
    with open("/proc/uptime") as f:
        return f.read().split()[0]


current = 0
signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # the reader going away ends the feeder quietly
with open(fifo, "wb", buffering=0) as out:
    while True:
        if state["want"] != current:
            current = state["want"]
            with open(switch_file, "w") as f:
                f.write(uptime() + "\n")
        view = memoryview(frames[current])
        while view:
            n = out.write(view)
            view = view[n:]
