#!/usr/bin/env bash
# Installs Debian packages non-interactively, on a machine in whatever state its last
# install left it. scripts/bootstrap.sh calls it with the packages that are missing;
# scripts/test-bootstrap.sh tests it. Needs root.
#
#   scripts/apt-install.sh PKG...
#
# What a new or reused machine can hold, and what is done about it:
#  - dpkg interrupted: an install cut off before dpkg finished (a killed apt, a machine
#    image saved mid-install, a CI job stopped by its time limit) leaves a journal in
#    /var/lib/dpkg/updates, and every apt-get then refuses with "dpkg was interrupted,
#    you must manually run 'dpkg --configure -a'". It is finished first, as apt says,
#    then any package left unpacked but unconfigured is mended (`apt-get -f install`).
#  - another apt running (unattended-upgrades at boot, a second script): wait for its
#    lock, up to 10 minutes, instead of failing at once.
#  - stale package lists (a package moved to a newer version since the image was
#    made): lists older than a day are refreshed first, and a failed install is tried
#    once more after a refresh and after finishing dpkg.
#  - a changed configuration file: the packaged default, never a question.
set -euo pipefail
[ $# -gt 0 ] || { echo "apt-install: usage: $0 PKG..." >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "apt-install: needs root (sudo $0 $*)" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive
apt_opts=(-o DPkg::Lock::Timeout=600 -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)

# dpkg_unfinished: true when an earlier dpkg run did not finish (its journal is left,
# or `dpkg --audit` lists packages half-installed, unpacked or half-configured).
dpkg_unfinished() {
    compgen -G '/var/lib/dpkg/updates/[0-9]*' >/dev/null && return 0
    [ -n "$(dpkg --audit 2>/dev/null)" ]
}

finish_dpkg() {
    echo "apt-install: an earlier install was cut off before dpkg finished; finishing it (dpkg --configure -a, apt-get -f install)" >&2
    dpkg --force-confdef --force-confold --configure -a >&2 || true
    apt-get "${apt_opts[@]}" -f install -y -qq >/dev/null || true
}

if dpkg_unfinished; then finish_dpkg; fi
# Refresh the package lists only when they are missing or older than a day.
if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null | head -n 1)" ]; then
    apt-get "${apt_opts[@]}" update -qq
fi
if ! apt-get "${apt_opts[@]}" install -y -qq --no-install-recommends "$@" >/dev/null; then
    echo "apt-install: the install failed; refreshing the package lists and trying once more" >&2
    if dpkg_unfinished; then finish_dpkg; fi
    apt-get "${apt_opts[@]}" update -qq
    apt-get "${apt_opts[@]}" install -y -qq --no-install-recommends "$@" >/dev/null
fi
# What was installed must be finished too: a postinst that failed leaves its package
# half-configured, which the next install would trip on.
if dpkg_unfinished; then
    echo "apt-install: dpkg did not finish configuring:" >&2
    dpkg --audit >&2 || true
    echo "apt-install: see the messages above; 'dpkg --configure -a' retries" >&2
    exit 1
fi
