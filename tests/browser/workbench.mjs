// End to end: `ferry serve` on the migrated bundled example, driven in real Chromium (Debian's
// /usr/bin/chromium) by playwright-core. A person's session, step by step:
//   open a file and see a diagnostic under the right line; apply a safe fix; edit, save (the file
//   on disk changes, status "edited"); a save racing an external change is refused (409) and the
//   file is intact; re-verify with hipcc: FAIL with the error under the edited line, then PASS
//   after the fix; the input changes upstream and the round is re-run: the edit is merged and
//   kept; a second upstream change on the edited line gives a conflict whose markers are
//   highlighted; the report (HTML in a frame, JSON and SARIF downloads).
// Screenshots go to BUILD/artifacts/workbench-*.png. Exit 77 (skip) only where Chromium cannot
// start, or hipcc (which make deps installs) is missing.
import { spawn, execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const FERRY = process.env.FERRY;
const ROOT = process.env.FERRY_ROOT;
const BUILD = process.env.FERRY_BUILD;
const MODULES = process.env.FERRY_WEB_MODULES || join(BUILD, "web", "node_modules");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
if (!FERRY || !ROOT || !BUILD) throw new Error("FERRY, FERRY_ROOT and FERRY_BUILD must be set (ctest sets them)");

const skip = (why) => {
  console.log(`SKIP: ${why}`);
  process.exit(77);
};
let failures = 0;
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures++;
  return ok;
};

if (!existsSync(CHROMIUM)) skip(`${CHROMIUM} is not installed (make deps installs Debian's chromium)`);
const hipcc = ["/usr/bin/hipcc", ...(process.env.PATH || "").split(":").map((d) => join(d, "hipcc"))].find(existsSync);
if (!hipcc) skip("hipcc is not installed (make deps installs Debian's hipcc): re-verify cannot run");
const require = createRequire(join(MODULES, "noop.js"));
const { chromium } = require("playwright-core");  // a missing module is a build defect: no skip

const T = mkdtempSync(join(tmpdir(), "ferry-workbench-"));
const IN = join(T, "in");
const OUT = join(T, "out");
const ART = join(BUILD, "artifacts");
mkdirSync(ART, { recursive: true });
cpSync(join(ROOT, "examples", "llama_ops"), IN, { recursive: true });
try {
  // Without the automatic lane-math fixes: the page is to offer FRY2205 as a fix to apply by hand.
  execFileSync(FERRY, ["migrate", IN, "-o", OUT, "-q", "--no-wave64-fix"], { stdio: ["ignore", "ignore", "inherit"] });
} catch (e) {
  if (e.status !== 1) throw e;  // 1: diagnostics with errors, the tree is written
}

// ---- the server ----------------------------------------------------------------------------
const server = spawn(FERRY, ["serve", OUT, "--port", "0", "-j", "2", "--no-original-check"], {
  stdio: ["ignore", "pipe", "inherit"],
});
const url = await new Promise((resolve, reject) => {
  let buf = "";
  server.stdout.on("data", (d) => {
    buf += d;
    const m = buf.match(/^(http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{16,})\n/);
    if (m) resolve(m[1]);
  });
  server.on("exit", (code) => reject(new Error(`ferry serve exited ${code} before printing its URL`)));
  setTimeout(() => reject(new Error("ferry serve printed no URL within 20 s")), 20000);
});
const base = url.slice(0, url.indexOf("/?token="));
const token = url.slice(url.indexOf("token=") + 6);
const apiGet = async (path) => {
  const r = await fetch(base + path, { headers: { "X-Ferry-Token": token } });
  return { status: r.status, text: await r.text(), headers: r.headers };
};
console.log(`serving ${OUT} at ${base}`);

let context;
try {
  context = await chromium.launchPersistentContext(mkdtempSync(join(T, "profile-")), {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    viewport: { width: 1500, height: 950 },
  });
} catch (e) {
  server.kill("SIGTERM");
  skip(`Chromium cannot start: ${String(e.message).split("\n")[0]}`);
}

const outFile = (rel) => readFileSync(join(OUT, rel), "utf8");
const lineOf = (text, needle) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;
const shot = async (page, name) => {
  const p = join(ART, `workbench-${name}.png`);
  await page.screenshot({ path: p });
  console.log(`screenshot: ${p}`);
};
// Clicks Save and waits for the workbench's answer (the message is cleared first, so an earlier
// "saved" does not count).
const saveAndWait = async (page, pattern = "^saved ") => {
  await page.evaluate(() => (document.getElementById("file-msg").textContent = ""));
  await page.click("#save");
  await page.waitForFunction((p) => new RegExp(p).test(document.getElementById("file-msg").textContent), pattern);
};
const waitJobs = (page, n) =>
  page.waitForFunction((k) => window.ferryWorkbench.finishedJobs.length >= k, n, { timeout: 300000 });
// CodeMirror renders only what is in view: scroll the migrated side to a line first.
const reveal = (page, line) => page.evaluate((n) => window.ferryWorkbench.editor().scrollToLine(n), line);
// The line of the migrated editor a note element sits under (from the editor's own state).
const noteLine = (page, selector) =>
  page.evaluate((sel) => {
    const e = document.querySelector(`.cm-merge-b ${sel}`);
    return e ? window.ferryWorkbench.editor().lineOfElement(e) : null;
  }, selector);

try {
  const page = await context.newPage();
  const consoleErrors = [];
  page.on("pageerror", (e) => consoleErrors.push(String(e)));

  // 1. The project view: every file of OUT with its status, counts as the API has them.
  await page.goto(url);
  await page.waitForFunction(() => window.ferryWorkbench && window.ferryWorkbench.ready, null, { timeout: 30000 });
  const project = JSON.parse((await apiGet("/api/project")).text);
  check(!page.url().includes("token="), "the token is dropped from the address bar (history)");
  const rows = await page.locator("#tree li.file").count();
  check(rows === project.files.length, `the tree lists ${rows} files, the API ${project.files.length}`);
  const migratedCount = await page.locator('#counts .count[data-status="migrated"]').getAttribute("data-value");
  check(Number(migratedCount) === project.counts.migrated, `the migrated count shows ${migratedCount}`);
  check((await page.locator('#tree li.file[data-path="src/attention.cu"]').getAttribute("data-status")) === "migrated",
    "src/attention.cu is shown as migrated");
  await shot(page, "1-project");

  // 2. A diagnostic at its line: FRY2201 on `threadIdx.x & 31` of src/attention.cu.
  const rel = "src/attention.cu";
  await page.click(`#tree li.file[data-path="${rel}"] a`);
  await page.waitForFunction((p) => window.ferryWorkbench.fileReady === p, rel);
  const wantLine = lineOf(outFile(rel), "threadIdx.x & 31");
  await page.waitForSelector('.cm-merge-b .ferry-diag[data-code="FRY2201"]');
  const gotLine = await noteLine(page, '.ferry-diag[data-code="FRY2201"]');
  check(wantLine > 0 && gotLine === wantLine, `FRY2201 sits under line ${gotLine} of the migrated file (the '& 31' is on ${wantLine})`);
  const diagText = await page.locator('.cm-merge-b .ferry-diag[data-code="FRY2201"]').innerText();
  check(/lane id/.test(diagText) && /warpSize/.test(diagText), "the note shows the message and the hint");
  const docHref = await page.locator('.cm-merge-b .ferry-diag[data-code="FRY2201"] a.code').getAttribute("href");
  const docs = await apiGet("/docs/diagnostics.md");
  const anchor = docHref.split("#")[1];
  check(docs.status === 200 && docs.text.includes(`id="${anchor}"`), `the code links to docs/diagnostics.md#${anchor}`);
  const origLine = await page.evaluate(() => {
    const e = document.querySelector('.cm-merge-a .ferry-diag[data-code="FRY2201"]');
    return e ? window.ferryWorkbench.editor().lineOfElement(e) : null;
  });
  check(origLine === lineOf(readFileSync(join(IN, rel), "utf8"), "threadIdx.x & 31"), `and under line ${origLine} of the original`);
  await shot(page, "2-diagnostic");

  // 3. A safe fix: FRY2205 in include/llama_ops/common.cuh, applied with its button.
  const hdr = "include/llama_ops/common.cuh";
  const loopLine = lineOf(outFile(hdr), "for (int offset = 16; offset > 0; offset >>= 1)");
  await page.click(`#tree li.file[data-path="${hdr}"] a`);
  await page.waitForFunction((p) => window.ferryWorkbench.fileReady === p, hdr);
  await reveal(page, loopLine);
  await page.click(`.cm-merge-b .ferry-diag[data-code="FRY2205"][data-line="${loopLine}"] button.apply-fix`);
  await page.waitForFunction(() => /applied fix/.test(document.getElementById("file-msg").textContent));
  const fixedLine = outFile(hdr).split("\n")[loopLine - 1];
  // the same text `ferry migrate` writes: the fix, and its round-trip record of the original
  check(fixedLine.includes("offset = (warpSize / 2) /* ferry-cuda: 16 */;"),
        `Apply fix rewrote line ${loopLine}: '${fixedLine.trim()}'`);
  check((await page.locator("#file-status").getAttribute("data-status")) === "edited", "the header is now edited by hand");

  // 4. Edit and save: a line with a compile error at the end of src/attention.cu.
  await page.click(`#tree li.file[data-path="${rel}"] a`);
  await page.waitForFunction((p) => window.ferryWorkbench.fileReady === p, rel);
  const before = outFile(rel);
  const probeLine = before.split("\n").length + (before.endsWith("\n") ? 0 : 1);
  await page.click(".cm-merge-b .cm-content");
  await page.keyboard.press("Control+End");
  await page.keyboard.type("static int ferry_probe = undeclared_by_hand;");
  check(await page.locator("#file-dirty").isVisible(), "the editor shows the file as modified");
  await saveAndWait(page);
  const saved = outFile(rel);
  check(saved.split("\n")[probeLine - 1] === "static int ferry_probe = undeclared_by_hand;" &&
        saved.startsWith(before.trimEnd()), `saved to disk, the new text on line ${probeLine}, the rest intact`);
  check((await page.locator("#file-status").getAttribute("data-status")) === "edited", "status: edited by hand");

  // 5. A save racing an external change: refused, the file on disk intact.
  await page.click(".cm-merge-b .cm-content");
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" // second edit");
  const external = saved.replace("// attention.cu", "// attention.cu (changed outside the workbench)");
  writeFileSync(join(OUT, rel), external);
  await saveAndWait(page, "^not saved");
  check(outFile(rel) === external, "a save against a file changed on disk is refused (409); the file is intact");
  await shot(page, "3-conflict-refused");
  writeFileSync(join(OUT, rel), saved);  // put the saved version back, then reload it
  await page.click("#revert");
  await page.waitForFunction(() => /reverted/.test(document.getElementById("file-msg").textContent));

  // 6. Re-verify this file with hipcc: FAIL, the error under the probe line.
  await page.click("#verify-file");
  await waitJobs(page, 1);
  await page.waitForSelector('.cm-merge-b .ferry-verify[data-arch="gfx906"]', { timeout: 30000 });
  check((await page.locator('#verify-bar .vresult[data-arch="gfx906"]').getAttribute("data-status")) === "fail",
    "re-verify: gfx906 FAIL");
  const errLine = await noteLine(page, '.ferry-verify[data-arch="gfx906"]');
  check(errLine === probeLine, `the hipcc error sits under line ${errLine} (the edit is on ${probeLine})`);
  const errText = await page.locator('.cm-merge-b .ferry-verify[data-arch="gfx906"]').innerText();
  check(/undeclared_by_hand/.test(errText), `the error message is hipcc's: ${errText.split("\n")[0].slice(0, 100)}`);
  await shot(page, "4-verify-fail");

  // 7. Fix the edit (a comment instead), save, re-verify: PASS.
  await page.evaluate((n) => window.ferryWorkbench.editor().selectLine(n), probeLine);
  await page.keyboard.type("// reviewed by hand: lane math checked for wave64");
  await saveAndWait(page);
  await page.click("#verify-file");
  await waitJobs(page, 2);
  await page.waitForFunction(() => {
    const v = document.querySelector('#verify-bar .vresult[data-arch="gfx906"]');
    return v && v.dataset.status === "pass";
  }, null, { timeout: 30000 });
  check((await page.locator(".cm-merge-b .ferry-verify").count()) === 0, "re-verify: gfx906 PASS, no error notes left");
  await shot(page, "5-verify-pass");

  // 8. The input changes upstream (first line); re-run the round: merged, the edit kept.
  const inFile = join(IN, rel);
  writeFileSync(inFile, readFileSync(inFile, "utf8").replace(/^\/\/ attention\.cu/, "// attention.cu (upstream v2)"));
  await page.click("#rerun");
  await waitJobs(page, 3);
  await page.waitForSelector('#round-result .rr[data-action="merged"]');
  const merged = await page.locator('#round-result .rr[data-action="merged"]').innerText();
  check(merged.includes(rel), `the round result lists ${rel} as merged`);
  const afterRound = outFile(rel);
  check(afterRound.includes("// reviewed by hand: lane math checked for wave64") && afterRound.includes("(upstream v2)"),
    "after the round the file has both the hand edit and the upstream change");
  const kept = await page.locator('#round-result .rr[data-action="kept"]').innerText().catch(() => "");
  check(kept.includes(hdr), "the fixed header (input unchanged) is kept as edited");
  check(outFile(hdr).split("\n")[loopLine - 1].includes("warpSize / 2"), "the applied fix survives the round");
  await shot(page, "6-round-merged");

  // 9. Upstream changes the line the user edited too: a conflict, its markers highlighted.
  await page.evaluate(() => window.ferryWorkbench.editor().selectLine(1));
  await page.keyboard.type("// attention.cu (hand-written title)");
  await saveAndWait(page);
  writeFileSync(inFile, readFileSync(inFile, "utf8").replace("(upstream v2)", "(upstream v3)"));
  await page.click("#rerun");
  await waitJobs(page, 4);
  await page.waitForSelector('#round-result .rr[data-action="conflict"]');
  await page.waitForSelector('.cm-merge-b .cm-ferry-conflict-marker[data-conflict="begin"]');
  const markers = await page.locator(".cm-merge-b .cm-ferry-conflict-marker").count();
  check(markers === 3, `the conflict's three marker lines are highlighted (${markers})`);
  check((await page.locator("#file-status").getAttribute("data-status")) === "conflict", "status: conflict");
  const conflicted = outFile(rel).split("\n");
  check(conflicted.includes("// attention.cu (hand-written title)") && conflicted.some((l) => l.includes("(upstream v3)")),
    "both sides of the conflict are in the file");
  await shot(page, "7-conflict");

  // 10. The report: HTML in a frame, JSON and SARIF downloads.
  await page.click("#show-report");
  const frame = page.frameLocator("#report-frame");
  await frame.locator("#sum-files").waitFor({ timeout: 30000 });
  const files = await frame.locator("#sum-files").getAttribute("data-value");
  // The report counts the files Ferry migrated (the manifest's); the tree also lists files Ferry
  // wrote beside them, such as its compat headers (ferry/compat/*.h), which the manifest does not
  // track ("untracked").
  const migrated = project.files.filter((f) => f.status !== "untracked").length;
  check(Number(files) === migrated, `the HTML report shows ${files} files (the project has ${migrated} migrated)`);
  const dl = await page.evaluate(async () => {
    const j = await (await fetch(document.getElementById("dl-json").href)).json();
    const s = await (await fetch(document.getElementById("dl-sarif").href)).json();
    return { rounds: j.rounds.length, sarif: s.version };
  });
  check(dl.rounds === 3 && dl.sarif === "2.1.0", `JSON download: ${dl.rounds} rounds; SARIF ${dl.sarif}`);
  await shot(page, "8-report");
  check(consoleErrors.length === 0, `no script errors in the page${consoleErrors.length ? ": " + consoleErrors.join("; ") : ""}`);
} finally {
  await context.close();
  server.kill("SIGTERM");
  const code = await new Promise((r) => server.on("exit", (c, s) => r(c ?? s)));
  check(code === 0, `ferry serve stopped cleanly on SIGTERM (exit ${code})`);
  rmSync(T, { recursive: true, force: true });
}
console.log(failures ? `FAIL: ${failures} check(s) failed` : "PASS: workbench end to end in Chromium");
process.exit(failures ? 1 : 0);
