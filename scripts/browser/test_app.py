#!/usr/bin/env python3
"""Drives `pricecam serve` in headless Chromium (Selenium) the way a user would.

Usage: test_app.py URL FIXTURES_DIR SCREENSHOT_DIR
Checks: the setup gate (save disabled on a bad rate, enabled on a good one), save,
the camera (the server replays a Japanese menu, 11 prices in a column) shows the
prices over the frame with labels that do not overlap, a scan upload shows the
converted prices, the history lists them, clearing asks first. Saves a
screenshot of each tab. Exit status 1 on the first failed check.
The browser and the checks come from browser.py, shared with the other browser test.
"""
import json
import os
import sys
import time

from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By

from browser import Browser

url, fixtures, shots = sys.argv[1], sys.argv[2], sys.argv[3]
b = Browser(shots)
driver, wait, check, until, by_id, type_into, shot = b.driver, b.wait, b.check, b.until, b.by_id, b.type_into, b.shot
labels, check_labels = b.labels, b.check_labels

truth = json.load(open(os.path.join(fixtures, "clean", "gt.json")))["frame_0003.png"]
menu = json.load(open(os.path.join(fixtures, "menus", "gt.json")))["ja_1.png"]
try:
    driver.get(url)
    # The gate: only the setup form until settings exist.
    check(until(lambda: by_id("setup").is_displayed(), "setup form shown"), "first run shows the setup form")
    check(not by_id("tabs").is_displayed(), "no tabs before setup")
    save = by_id("save")
    check(not save.is_enabled(), "save disabled on an empty form")
    type_into("currency", "JPY")
    type_into("rate", "abc")
    check(until(lambda: "not a plain decimal number" in by_id("rate-msg").text, "rate message"), "a bad rate shows setup's message")
    check(not save.is_enabled(), "save stays disabled on a bad rate")
    shot("setup")
    b.set_up()

    # Camera tab: the server replays a Japanese menu (a column of 11 prices, rows close together);
    # the prices it reads are listed, and drawn over the frame without one label on another.
    check(until(lambda: by_id("camera").is_displayed(), "camera tab"), "camera tab shown after setup")

    def menu_prices_listed():
        rows = by_id("live-prices").text
        return sum(1 for a in menu["amounts"] if f"{a} JPY" in rows)

    check(until(lambda: menu_prices_listed() >= 6, "live prices", seconds=180), "the camera lists the menu's prices")
    check(by_id("fps").text not in ("", "–"), "frame rate shown")
    check(until(lambda: len(labels("#camera-overlay")) >= 6, "labels over the frame"), "the prices are labelled over the frame")
    placed = check_labels("#camera-overlay", "#camera-view", "camera")
    check(all(t.endswith(" EUR") for *_, t in placed), "the labels show the converted amounts")
    check(driver.execute_script("return document.getElementById('frame').naturalWidth") > 0, "the frame is shown")
    # The toggle shows the amounts as printed instead.
    by_id("show-original").click()
    check(until(lambda: all(t.endswith(" JPY") for *_, t in labels("#camera-overlay")), "original labels"), "the toggle shows the prices as printed")
    check_labels("#camera-overlay", "#camera-view", "camera, as printed")
    by_id("show-original").click()
    time.sleep(1)
    shot("camera")

    # Scan: upload a fixture; its prices appear converted.
    driver.find_element(By.CSS_SELECTOR, 'nav button[data-tab="scan"]').click()
    by_id("file").send_keys(os.path.join(fixtures, "clean", "frame_0003.png"))
    check(until(lambda: "price(s) found" in by_id("scan-msg").text, "scan result", seconds=120), "the upload is read")
    rows = by_id("scan-prices").text
    for amount in truth["amounts"]:
        check(amount in rows, f"scan lists {amount} {truth['currencies'][0]}")
    check("4.88 EUR" in rows, "800 JPY is shown converted: 4.88 EUR")
    check(until(lambda: "4.88 EUR" in [t for *_, t in labels("#scan-overlay")], "scan labels"), "the scan's labels show 4.88 EUR over the photo")
    check_labels("#scan-overlay", "#scan-view", "scan")
    time.sleep(0.5)
    shot("scan")

    # History: the scanned prices, newest first.
    driver.find_element(By.CSS_SELECTOR, 'nav button[data-tab="history"]').click()
    check(until(lambda: "800" in by_id("h-rows").text, "history rows"), "history lists the scanned prices")
    def uploads():
        # Read in one call: the page replaces the rows when it reloads them, so a row found in one
        # call may be gone by the next (a stale element).
        rows = driver.execute_script("return [...document.querySelectorAll('#h-rows tr')].map((r) => r.textContent)")
        return [r for r in rows if "upload" in r]

    check(len(uploads()) == len(truth["amounts"]), "one history row per scanned price (the camera's rows besides)")
    shot("history")

    # Clear asks first: dismissing keeps the rows, accepting deletes them.
    by_id("clear").click()
    alert = wait.until(lambda d: d.switch_to.alert)
    check("cannot be undone" in alert.text, "clear asks for confirmation")
    alert.dismiss()
    time.sleep(0.5)
    check(len(uploads()) == len(truth["amounts"]), "dismissing keeps the history")
    by_id("clear").click()
    wait.until(lambda d: d.switch_to.alert).accept()
    check(until(lambda: not uploads(), "history emptied"), "accepting clears the history")

    # Settings: the stored values in the same form.
    driver.find_element(By.CSS_SELECTOR, 'nav button[data-tab="settings"]').click()
    check(until(lambda: by_id("currency").get_attribute("value") == "JPY", "settings form"), "settings tab shows the stored currency")
    shot("settings")
except NoAlertPresentException:
    check(False, "a confirmation dialog")
finally:
    b.quit()
print(f"browser test: {b.checks} checks passed; screenshots in {shots}")
