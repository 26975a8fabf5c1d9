#!/bin/sh
# End-to-end test of pricecam's V4L2 path on a real kernel driver: boots a
# Linux guest (virtme-ng, QEMU software emulation) with the host filesystem,
# loads vivid as a loopback camera, injects frames showing known prices into
# its output node and runs `pricecam devices` / `pricecam live` on its capture
# node. Checks: prices reported and converted; switching the frame changes the
# prices within the latency bound; output node, missing node, busy node and a
# device unbound mid-stream give their documented errors (exit 3, no hang);
# latency stats present and within the bound.
#
# Exits 0 when every check passes, 1 otherwise; prints a summary.
# Needs root for apt-get on first run. Environment:
#   PRICECAM_CACHE   where the virtme-ng venv lives (default /var/cache/pricecam)
#   PRICECAM_SCRATCH swift build scratch path (default .build)
#   PRICECAM_KERNEL  guest kernel image (default: newest /boot/vmlinuz-*)
set -eu
cd "$(dirname "$0")/.."
ROOT=$(pwd)
CACHE=${PRICECAM_CACHE:-/var/cache/pricecam}
SCRATCH=${PRICECAM_SCRATCH:-.build}
START=$(date +%s)
say() { echo "test-v4l2: $*"; }

# --- 1. what it needs (idempotent; quick when present) ---------------------
# QEMU, a kernel with vivid, v4l-utils (--v4l2); Pillow and DejaVu for the frames (--frames).
scripts/bootstrap.sh --v4l2 --frames || { say "FAIL: bootstrap"; exit 1; }
if [ ! -x "$CACHE/venv/bin/vng" ]; then
    say "installing virtme-ng into $CACHE/venv"
    mkdir -p "$CACHE"
    python3 -m venv "$CACHE/venv"
    "$CACHE/venv/bin/pip" install -q virtme-ng
fi
export PATH="$CACHE/venv/bin:$PATH"
KERNEL=${PRICECAM_KERNEL:-$(ls /boot/vmlinuz-* | sort -V | tail -n 1)}

# --- 2. build on the host ---------------------------------------------------
say "building pricecam (release, scratch $SCRATCH)"
swift build -c release --product pricecam --scratch-path "$SCRATCH" >/tmp/pricecam-v4l2-build.log 2>&1 \
    || { tail -30 /tmp/pricecam-v4l2-build.log; say "FAIL: build"; exit 1; }
BIN=$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/pricecam

# --- 3. fixture frames (from the truth, not from OCR) ------------------------
WORK=$(mktemp -d /tmp/pricecam-v4l2.XXXXXX)
/usr/bin/python3 scripts/v4l2/make-frames.py "$WORK/frames" --size 640x480
mkdir -p "$WORK/out"

# --- 4. boot the guest and run the scenario inside --------------------------
say "booting $KERNEL with vivid (software emulation, ~30-90 s)"
BOOT0=$(date +%s)
# 1500 s: the scenario takes 400-750 s on an idle 2-core machine under software emulation
# (three runs pay the detector's first pass: 20-45 s on 11-27, 90-190 s on 11-28); a loaded
# machine took over 600.
# The guest's CPU is a Nehalem (SSE4.2, no AVX): QEMU 7.2's default software CPU offers AVX2 and
# FMA, and ONNX Runtime's AVX2 kernels run so slowly under its emulation that one detection of
# a 640x480 frame took 321-377 s on 2026-12-01 (CI's 1500 s ran out), 18 s on a Nehalem. The
# checks here are the capture path's, not the kernels'.
timeout 1500 vng --run "$KERNEL" --disable-kvm --memory 2G --cpus 2 --qemu-opts='-cpu Nehalem' --rwdir "$WORK/out" \
    --exec "sh $ROOT/scripts/v4l2/inside.sh $WORK/out $BIN $WORK/frames" > "$WORK/guest.log" 2>&1 || true
BOOT1=$(date +%s)
say "guest finished in $((BOOT1 - BOOT0)) s"

# --- 5. judge -----------------------------------------------------------------
if /usr/bin/python3 scripts/v4l2/check.py "$WORK/out" "$WORK/frames/truth.json"; then
    rc=0
else
    rc=1
    say "guest log: $WORK/guest.log; outputs: $WORK/out"
    tail -n 20 "$WORK/guest.log" | sed 's/^/  guest| /'
fi
say "total $(( $(date +%s) - START )) s; $( [ $rc = 0 ] && echo PASS || echo FAIL )"
[ $rc = 0 ] && rm -rf "$WORK"
exit $rc
