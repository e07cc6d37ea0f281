#!/usr/bin/python3
"""Drives Debian's chromium, headless through chromedriver (python3-selenium), against the page of
a running `arcapture serve`, as a person would use it: it watches the stream, reads the status
panel, clicks a point of interest and clears the selection. It observes and reports; the Swift
test (Tests/arcaptureTests/VividBrowserTests.swift) decides what passes.

Usage: live-view.py URL OUT_DIR click POI_ID
       live-view.py URL OUT_DIR center

click writes OUT_DIR/browser-report.json, the page's screenshots (browser-page.png when the stream
plays, browser-selected.png after the click) and the server's snapshots before and after the
click (browser-before.jpg, browser-selected.jpg). center (a server run with --select-center, whose
view selects by itself) writes browser-center-report.json with the point the page shows selected,
browser-center.png and browser-center.jpg. Every wait is for a condition, bounded only against a
hang: the page's server runs in an emulated VM on a loaded machine.
"""
import json
import os
import sys
import time
import traceback
import urllib.request

WAIT = 120  # seconds: a bound for a hang, not a measure of speed


def wait_for(condition, limit=WAIT):
    """Polls condition() every 0.2 s until it returns a true value (returned) or limit passes (None)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            value = condition()
        except Exception:  # the page is between renders: look again
            value = None
        if value:
            return value
        time.sleep(0.2)
    return None


class Missing(Exception):
    """A wait that ended without its condition: the rest of the run would only wait longer."""


def need(value, what):
    if not value:
        raise Missing(f"the page never showed {what} within {WAIT} s")
    return value


def main(report):
    url, out, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    poi = sys.argv[4] if mode == "click" else None
    report["url"] = url
    report["mode"] = mode

    def fetch(name):
        with urllib.request.urlopen(url + name, timeout=30) as response:
            return response.read()

    def state():
        return json.loads(fetch("state"))

    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
    except ImportError as error:
        report["error"] = f"python3-selenium is missing ({error}): run 'bash scripts/install-deps'"
        return
    for tool in ("/usr/bin/chromium", "/usr/bin/chromedriver"):
        if not os.access(tool, os.X_OK):
            report["error"] = f"{tool} is missing: run 'bash scripts/install-deps' (chromium, chromium-driver)"
            return

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,800", "--no-first-run", "--disable-extensions"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.set_page_load_timeout(60)
        driver.get(url)
        report["title"] = driver.title
        # The stream: the <img> has the camera's size once its first part arrived, and what it
        # shows changes (vivid draws a frame counter and the time on its test pattern).
        digest = """
            const image = document.getElementById("stream");
            if (image.naturalWidth === 0) return null;
            const canvas = document.createElement("canvas");
            canvas.width = image.naturalWidth; canvas.height = image.naturalHeight;
            const context = canvas.getContext("2d");
            context.drawImage(image, 0, 0);
            const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
            let hash = 2166136261;
            for (let i = 0; i < pixels.length; i += 7) { hash = Math.imul(hash ^ pixels[i], 16777619) >>> 0; }
            return [canvas.width, canvas.height, hash];
        """
        first = need(wait_for(lambda: driver.execute_script(digest)), "the stream's first frame")
        report["stream_size"] = first[:2]
        changed = wait_for(lambda: (lambda now: now if now and first and now[2] != first[2] else None)(
            driver.execute_script(digest)))
        report["stream_changed"] = changed is not None
        # The status panel, filled from /state and /events.
        text = lambda element: driver.find_element(By.ID, element).text
        report["updates"] = wait_for(lambda: text("updates") if text("updates") == "live" else None) or text("updates")
        report["phase"] = wait_for(lambda: text("phase") if text("phase") == "running" else None) or text("phase")
        report["coordinate"] = wait_for(lambda: text("coordinate") if "," in text("coordinate") else None) \
            or text("coordinate")
        report["frames_text"] = text("frames")
        # The list is drawn again as updates come: elements are found and read in one go, inside
        # wait_for, which looks again when one went stale between the two (seen in a CI run).
        report["points_listed"] = need(wait_for(
            lambda: [button.text for button in driver.find_elements(By.CSS_SELECTOR, "#points button")]),
            "the points")
        if mode == "center":
            # The view selects the point nearest the frame's centre by itself: the page shows it
            # selected as it shows a click's, from /state and /events.
            report["selected_in_page"] = need(wait_for(
                lambda: [button.get_attribute("data-id")
                         for button in driver.find_elements(By.CSS_SELECTOR, "#points button.selected")]),
                "a point selected by the view")
            report["state_selected"] = state()["selected"]
            driver.save_screenshot(os.path.join(out, "browser-center.png"))
            with open(os.path.join(out, "browser-center.jpg"), "wb") as file:
                file.write(fetch("snapshot"))
            return
        driver.save_screenshot(os.path.join(out, "browser-page.png"))
        with open(os.path.join(out, "browser-before.jpg"), "wb") as file:
            file.write(fetch("snapshot"))

        # Select the point by clicking its button, as a person would.
        def button_for(identifier):
            found = driver.find_elements(By.CSS_SELECTOR, f'#points button[data-id="{identifier}"]')
            return found[0] if found else None

        def click(identifier):
            button = button_for(identifier)
            if button is None:
                return False
            button.click()
            return True

        need(wait_for(lambda: click(poi)), f"a button for {poi} to click")
        report["button_selected"] = wait_for(
            lambda: "selected" in (button_for(poi).get_attribute("class") or "")) is not None
        report["state_selected"] = (wait_for(lambda: (lambda s: s if s["selected"] else None)(state())) or state())[
            "selected"]
        published = state()["frames"]["published"]
        # Two frames drawn after the selection, then the newest one.
        wait_for(lambda: state()["frames"]["published"] > published + 2)
        with open(os.path.join(out, "browser-selected.jpg"), "wb") as file:
            file.write(fetch("snapshot"))
        driver.save_screenshot(os.path.join(out, "browser-selected.png"))

        need(wait_for(lambda: driver.find_element(By.ID, "clear").click() or True), "the Clear button")
        report["cleared_in_page"] = wait_for(
            lambda: not driver.find_elements(By.CSS_SELECTOR, "#points button.selected")) is not None
        report["state_after_clear"] = (wait_for(lambda: (lambda s: s if not s["selected"] else None)(state()))
                                       or state())["selected"]
    finally:
        report["console_errors"] = [entry["message"] for entry in driver.get_log("browser")
                                    if entry.get("level") == "SEVERE"]
        driver.quit()


if __name__ == "__main__":
    result = {}
    try:
        main(result)
    except Missing as missing:
        result["error"] = str(missing)
    except Exception:
        result["error"] = traceback.format_exc()
    name = "browser-center-report.json" if sys.argv[3:4] == ["center"] else "browser-report.json"
    where = os.path.join(sys.argv[2], name)
    with open(where + ".partial", "w") as file:
        json.dump(result, file, indent=2)
    os.replace(where + ".partial", where)
    sys.exit(1 if "error" in result else 0)
