#!/usr/bin/env python3
"""The phone's use of the web app, in headless Chromium with a fake camera: the page
over HTTPS (serve --tls, its self-signed certificate accepted as a user accepts it
on the phone), "Use this device's camera", frames sent to the server, the converted
prices drawn over the video, and the stable ones in history with source browser.

Usage: test_camera.py URL Y4M TRUTH_JSON SCREENSHOT_DIR CA_FILE
TRUTH_JSON holds the amounts of the scene the Y4M shows (the fixture's gt entry).
The window is phone-sized (412×915 CSS pixels): labels must be readable there.
The browser and the checks come from browser.py, shared with the other browser test.
"""
import json
import ssl
import sys
import time
import urllib.request

from browser import Browser

url, y4m, truth_file, shots, ca_file = sys.argv[1:6]
truth = json.load(open(truth_file))
b = Browser(
    shots,
    window="412,915",
    flags=("--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream", f"--use-file-for-fake-video-capture={y4m}"),
    insecure_certs=True,
)
check, until, by_id = b.check, b.until, b.by_id


def history_sources():
    """The history's sources, through the API, verifying the server's certificate with CA_FILE."""
    context = ssl.create_default_context(cafile=ca_file)
    with urllib.request.urlopen(url + "api/v1/history?limit=100", context=context, timeout=30) as r:
        return [row["source"] for row in json.load(r)["rows"]]


try:
    b.driver.get(url)
    check(until(lambda: by_id("setup").is_displayed(), "setup form"), "the page loads over HTTPS")
    check(b.driver.execute_script("return window.isSecureContext"), "the page is a secure context (the camera is allowed)")
    b.set_up()
    check(until(lambda: by_id("camera").is_displayed(), "camera tab"), "camera tab shown")
    check(until(lambda: "No camera on the server" in by_id("camera-msg").text, "no server camera"), "the tab says the server has no camera")
    by_id("use-device").click()
    check(until(lambda: b.driver.execute_script("return document.getElementById('video').videoWidth") > 0, "video"), "the device's camera plays")

    def converted_labels():
        return [t for *_, t in b.labels("#camera-overlay")]

    wanted = {f"{a} JPY" for a in truth["amounts"]}
    check(
        until(lambda: all(w in by_id("live-prices").text for w in wanted), "prices", 180),
        f"the prices in view are listed: {sorted(wanted)}",
    )
    check(until(lambda: "4.88 EUR" in converted_labels(), "labels over the video"), "800 JPY is drawn over the video as 4.88 EUR")
    b.check_labels("#camera-overlay", "#camera-view", "phone camera")
    check(by_id("p50").text not in ("", "–"), "the latency is shown")
    time.sleep(1)
    b.shot("phone-camera")
    # Leaving the tab stops the stream; the server then saves the stable prices it saw.
    b.driver.find_element("css selector", 'nav button[data-tab="history"]').click()
    sources = []
    for _ in range(100):
        sources = [s for s in history_sources() if s.startswith("browser#")]
        if len(sources) >= len(truth["amounts"]):
            break
        time.sleep(0.2)
    check(len(sources) >= len(truth["amounts"]), f"the stable prices are in history with source browser ({sources})")
finally:
    b.quit()
print(f"camera browser test: {b.checks} checks passed; screenshots in {shots}")
