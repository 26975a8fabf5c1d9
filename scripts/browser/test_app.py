#!/usr/bin/env python3
"""Drives `pricecam serve` in headless Chromium (Selenium) the way a user would.

Usage: test_app.py URL FIXTURES_DIR SCREENSHOT_DIR
Checks: the setup gate (save disabled on a bad rate, enabled on a good one), save,
a scan upload shows the converted prices, the history lists them, clearing asks
first. Saves a screenshot of each tab. Exit status 1 on the first failed check.
"""
import json
import os
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

url, fixtures, shots = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(shots, exist_ok=True)

options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1100,900"):
    options.add_argument(flag)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
wait = WebDriverWait(driver, 60)
checks = 0


def check(condition, what):
    global checks
    if not condition:
        driver.save_screenshot(os.path.join(shots, "failure.png"))
        print(f"browser test: FAIL: {what} (screenshot: {shots}/failure.png)", file=sys.stderr)
        driver.quit()
        sys.exit(1)
    checks += 1
    print(f"ok {checks} - {what}")


def by_id(i):
    return driver.find_element(By.ID, i)


def type_into(i, text):
    field = by_id(i)
    field.clear()
    field.send_keys(text)


def until(predicate, what, seconds=60):
    try:
        WebDriverWait(driver, seconds).until(lambda d: predicate())
        return True
    except TimeoutException:
        print(f"browser test: timed out waiting for: {what}", file=sys.stderr)
        return False


def shot(name):
    driver.save_screenshot(os.path.join(shots, name + ".png"))


truth = json.load(open(os.path.join(fixtures, "clean", "gt.json")))["frame_0003.png"]
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
    type_into("rate", "0.0061")
    type_into("home", "EUR")
    check(until(lambda: save.is_enabled(), "save enabled"), "save enabled once currency and rate are valid")
    save.click()
    check(until(lambda: by_id("tabs").is_displayed(), "tabs after save"), "saving opens the app")

    # Camera tab: the server replays frame_0003.png; its prices become stable and show converted.
    check(until(lambda: by_id("camera").is_displayed(), "camera tab"), "camera tab shown after setup")
    check(until(lambda: "4.88 EUR" in by_id("live-prices").text, "live prices", seconds=120), "the camera's prices show converted")
    check(by_id("fps").text not in ("", "–"), "frame rate shown")
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
    time.sleep(0.5)
    shot("scan")

    # History: the scanned prices, newest first.
    driver.find_element(By.CSS_SELECTOR, 'nav button[data-tab="history"]').click()
    check(until(lambda: "800" in by_id("h-rows").text, "history rows"), "history lists the scanned prices")
    def uploads():
        return [r for r in by_id("h-rows").find_elements(By.TAG_NAME, "tr") if "upload" in r.text]

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
    try:
        driver.quit()
    except Exception:
        pass
print(f"browser test: {checks} checks passed; screenshots in {shots}")
