"""What the browser tests share: a headless Chromium under Selenium, checks that stop
at the first failure with a screenshot, and the geometry of the price labels the
page draws over images (read from the DOM, as the user sees them)."""
import os
import sys

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


class Browser:
    def __init__(self, shots, window="1100,900", flags=(), insecure_certs=False):
        os.makedirs(shots, exist_ok=True)
        self.shots = shots
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={window}", *flags):
            options.add_argument(flag)
        # A self-signed certificate (serve --tls), accepted for the test as a user accepts it on the phone.
        options.accept_insecure_certs = insecure_certs
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.wait = WebDriverWait(self.driver, 60)
        self.checks = 0

    def check(self, condition, what):
        if not condition:
            self.driver.save_screenshot(os.path.join(self.shots, "failure.png"))
            print(f"browser test: FAIL: {what} (screenshot: {self.shots}/failure.png)", file=sys.stderr)
            self.driver.quit()
            sys.exit(1)
        self.checks += 1
        print(f"ok {self.checks} - {what}")

    def by_id(self, i):
        return self.driver.find_element(By.ID, i)

    def type_into(self, i, text):
        field = self.by_id(i)
        field.clear()
        field.send_keys(text)

    def until(self, predicate, what, seconds=60):
        try:
            WebDriverWait(self.driver, seconds).until(lambda d: predicate())
            return True
        except TimeoutException:
            print(f"browser test: timed out waiting for: {what}", file=sys.stderr)
            return False

    def shot(self, name):
        self.driver.save_screenshot(os.path.join(self.shots, name + ".png"))

    def set_up(self, currency="JPY", rate="0.0061", home="EUR"):
        """Fills the first-run form and saves it."""
        self.type_into("currency", currency)
        self.type_into("rate", rate)
        self.type_into("home", home)
        self.check(self.until(lambda: self.by_id("save").is_enabled(), "save enabled"), "save enabled once currency and rate are valid")
        self.by_id("save").click()
        self.check(self.until(lambda: self.by_id("tabs").is_displayed(), "tabs after save"), "saving opens the app")

    def labels(self, overlay):
        """The visible price labels over an image, as the page placed them: (x, y, w, h, text)."""
        return self.driver.execute_script(
            "return [...document.querySelectorAll(arguments[0] + ' .plabel')].filter((e) => !e.hidden).map((e) => {"
            " const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height, e.textContent]; })",
            overlay,
        )

    def rect(self, selector):
        return self.driver.execute_script(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.x, r.y, r.width, r.height];", selector
        )

    def check_labels(self, overlay, view, what):
        """Every label lies on the image and none overlaps another."""
        placed = self.labels(overlay)
        vx, vy, vw, vh = self.rect(view)
        inside = all(
            vx - 0.5 <= x and vy - 0.5 <= y and x + w <= vx + vw + 0.5 and y + h <= vy + vh + 0.5 for x, y, w, h, _ in placed
        )
        self.check(inside, f"{what}: every label lies on the image")
        clashes = [
            (a[4], b[4])
            for i, a in enumerate(placed)
            for b in placed[i + 1 :]
            if a[0] < b[0] + b[2] - 0.5 and b[0] < a[0] + a[2] - 0.5 and a[1] < b[1] + b[3] - 0.5 and b[1] < a[1] + a[3] - 0.5
        ]
        self.check(not clashes, f"{what}: no two of the {len(placed)} labels overlap {clashes[:3]}")
        return placed

    def quit(self):
        try:
            self.driver.quit()
        except Exception:
            pass
