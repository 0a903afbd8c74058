"""report.html in a real headless Chromium: the page loads offline, a flagged item's picture is
visible, the filters work, and a screenshot is saved for a person to look at."""
import os
import subprocess
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

geotruth, fixtures, data, screenshot = sys.argv[1:5]
work = tempfile.mkdtemp()
dataset = os.path.join(work, "dataset.jsonl")
with open(dataset, "w") as out:
    for name in (os.path.join(data, "scenes.jsonl"), os.path.join(fixtures, "audit_planted.jsonl")):
        out.write(open(name).read())
audit_dir = os.path.join(work, "audit")
subprocess.run([geotruth, "audit", dataset, "-o", audit_dir, "--no-progress"], check=False,
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--window-size=1280,1600", f"--user-data-dir={os.path.join(work, 'profile')}"):
    options.add_argument(flag)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok:", name)
    else:
        failed += 1
        print("FAIL:", name, detail)


try:
    driver.get("file://" + os.path.join(audit_dir, "report.html"))
    WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".item"))
    items = driver.find_elements(By.CSS_SELECTOR, ".item")
    check("flagged items are listed", len(items) >= 10, f"{len(items)} items")
    check("no script errors", not [e for e in driver.get_log("browser") if e["level"] == "SEVERE"],
          str(driver.get_log("browser")))

    picture = items[0].find_element(By.TAG_NAME, "svg")
    size = picture.size
    drawn = picture.find_elements(By.CSS_SELECTOR, "line, circle, rect, polygon, polyline, ellipse, path")
    check("a flagged item's picture is visible", picture.is_displayed() and size["width"] > 100 and
          size["height"] > 100 and len(drawn) > 3, f"{size}, {len(drawn)} shapes")

    Select(driver.find_element(By.ID, "verdict")).select_by_value("wrong")
    shown = driver.find_elements(By.CSS_SELECTOR, ".item")
    check("the verdict filter shows only wrong items",
          len(shown) == 2 and all(i.get_attribute("data-verdict") == "wrong" for i in shown), f"{len(shown)} shown")
    check("the wrong item says what is true", "truth is C (12)" in driver.page_source)

    Select(driver.find_element(By.ID, "verdict")).select_by_value("")
    Select(driver.find_element(By.ID, "reason")).select_by_value("duplicate_options")
    shown = driver.find_elements(By.CSS_SELECTOR, ".item")
    check("the reason filter works", len(shown) == 1 and "duplicate-options" in shown[0].text, f"{len(shown)} shown")

    Select(driver.find_element(By.ID, "reason")).select_by_value("")
    Select(driver.find_element(By.ID, "verdict")).select_by_value("wrong")
    driver.save_screenshot(screenshot)
    check("screenshot saved", os.path.getsize(screenshot) > 10000)
finally:
    driver.quit()

print(f"report browser: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
