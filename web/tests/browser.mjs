// Drives the puzzle page in headless Chromium through the DevTools protocol
// (puppeteer-core, pointed at the system's Chromium; no browser download):
// a bad edge list gets an error message, a puzzle submitted through the
// form opens on its page with its verdict, a game against the engine is
// played to the end, and the list shows the verdict. A screenshot of each
// step goes to OUTDIR.
//
// node tests/browser.mjs BASE_URL OUTDIR   (PUZZLED_CHROMIUM names the browser)

import { mkdir } from "node:fs/promises";
import puppeteer from "puppeteer-core";

const [base, outDir] = process.argv.slice(2);
if (!base || !outDir) {
  console.error("usage: node tests/browser.mjs BASE_URL OUTDIR");
  process.exit(2);
}
await mkdir(outDir, { recursive: true });

const browser = await puppeteer.launch({
  executablePath: process.env.PUZZLED_CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-dev-shm-usage"],
});
let step = 0;
const offOrigin = [];
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1100, height: 1300 });
  page.on("request", (request) => {
    if (!request.url().startsWith(base)) offOrigin.push(request.url());
  });
  const shot = async (name) => {
    step += 1;
    await page.screenshot({ path: `${outDir}/${String(step).padStart(2, "0")}-${name}.png`, fullPage: true });
  };
  const text = (selector) => page.$eval(selector, (element) => element.textContent.trim());
  const check = (condition, message) => {
    if (!condition) throw new Error(message);
  };

  // The list, empty or not, with the form.
  await page.goto(base, { waitUntil: "networkidle0" });
  await page.waitForSelector("form.submit");
  await shot("list");

  // Drawing a path of three by clicking writes its edge list.
  await page.click("details summary");
  const pad = await page.$("svg.sketch");
  const box = await pad.boundingBox();
  const spot = (fx, fy) => [box.x + fx * box.width, box.y + fy * box.height];
  for (const [fx, fy] of [[0.2, 0.5], [0.5, 0.3], [0.8, 0.5]]) await page.mouse.click(...spot(fx, fy));
  for (const [fx, fy] of [[0.2, 0.5], [0.5, 0.3], [0.5, 0.3], [0.8, 0.5]]) await page.mouse.click(...spot(fx, fy));
  const drawn = await page.$eval("textarea[name=edges]", (area) => area.value);
  check(drawn === "3 2\n1 2\n2 3", `the drawing's edge list: ${JSON.stringify(drawn)}`);
  await shot("drawn");
  await page.click("details button");
  await page.click("details summary");

  // A self-loop: the server refuses it and the page says why.
  await page.select("select[name=game]", "1");
  await page.type("input[name=title]", "Not a simple graph");
  await page.$eval("textarea[name=edges]", (area) => (area.value = ""));
  await page.type("textarea[name=edges]", "3 2\n1 1\n2 3");
  await page.click("form.submit button[type=submit]");
  await page.waitForFunction(() => {
    const alert = document.querySelector("form.submit .error");
    return alert && !alert.hidden && alert.textContent.length > 0;
  });
  const refusal = await text("form.submit .error");
  check(/self-loop/.test(refusal), `the error names the self-loop: ${refusal}`);
  await shot("bad-edge-list");

  // A path of four vertices with the token on an end: the first player wins.
  await page.$eval("input[name=title]", (input) => (input.value = ""));
  await page.$eval("textarea[name=edges]", (area) => (area.value = ""));
  await page.type("input[name=title]", "Path of four");
  await page.type("textarea[name=edges]", "4 3\n1 2\n2 3\n3 4");
  await page.$eval("input[name=start]", (input) => (input.value = "1"));
  await page.click("form.submit button[type=submit]");
  await page.waitForFunction(() => /^\/puzzles\/[0-9a-f]{20}$/.test(window.location.pathname));
  await page.waitForFunction(() => {
    const verdict = document.querySelector("[data-testid=verdict]");
    return verdict && verdict.textContent !== "Solving…";
  });
  const verdict = await text("[data-testid=verdict]");
  check(verdict === "The first player wins.", `verdict: ${verdict}`);
  const evidence = await text(".evidence");
  check(/Winning first moves: vertex 1\./.test(evidence), `evidence: ${evidence}`);
  check((await page.$$("svg.drawing .vertex")).length === 4, "four vertices drawn");
  check((await page.$$("svg.drawing .edge.matched")).length === 2, "the matching drawn");
  await shot("puzzle");

  // Play first against the engine, taking the hint's winning move each time.
  await page.click("button[data-side=first]");
  for (let turn = 0; ; turn++) {
    check(turn < 10, "the game ends");
    await page.waitForFunction(() => {
      const status = document.querySelector("[data-testid=play-status]").textContent;
      return status.startsWith("Your move") || status.startsWith("Game over");
    });
    const status = await text("[data-testid=play-status]");
    if (status.startsWith("Game over")) {
      check(/you win!/.test(status), `the person wins: ${status}`);
      break;
    }
    await page.click("section.play button.secondary:not([data-side])");
    await page.waitForFunction(() => document.querySelector("[data-testid=hint]").textContent.length > 0);
    const hint = await text("[data-testid=hint]");
    const move = hint.match(/vertex (\d+)/);
    check(move, `a winning move is hinted: ${hint}`);
    await shot(`play-${turn}`);
    const before = (await page.$$("[data-testid=history] li")).length;
    await page.click(`button.move[data-move="vertex ${move[1]}"]`);
    await page.waitForFunction(
      (count) =>
        document.querySelectorAll("[data-testid=history] li").length > count &&
        !document.querySelector("[data-testid=play-status]").textContent.startsWith("Starting"),
      {},
      before,
    );
  }
  const history = await text("[data-testid=history]");
  check(/You: vertex 1/.test(history) && /Engine: vertex 2/.test(history), `history: ${history}`);
  await shot("game-over");

  // Back on the list, the puzzle shows its verdict without solving again.
  await page.goto(base, { waitUntil: "networkidle0" });
  await page.waitForSelector("table.puzzles tbody tr");
  const row = await page.$$eval("table.puzzles tbody tr", (rows) =>
    rows.map((r) => r.textContent).find((t) => t.includes("Path of four")),
  );
  check(row && row.includes("The first player wins."), `the listed verdict: ${row}`);
  await shot("list-after");
  check(offOrigin.length === 0, `requests off the page's origin: ${offOrigin.join(", ")}`);
  console.log(`ok: ${step} screenshots in ${outDir}`);
} finally {
  await browser.close();
}
