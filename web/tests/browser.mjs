// Drives the puzzle page in headless Chromium through the DevTools protocol
// (puppeteer-core, pointed at the system's Chromium; no browser download):
// a bad edge list gets an error message, a puzzle submitted through the
// form opens on its page with its verdict, a game against the engine is
// played to the end, and the list shows the verdict; then the same for a
// directed edge Geography (arrows, search evidence, a game played by
// clicking the drawing in which the token comes back to a vertex); then the
// Generate form: a request no puzzle meets gets the server's advice, a tree
// painting puzzle generated from a fixed seed opens with its verdict and
// difficulty, the list shows the difficulty, and the same request again
// opens the stored copy. A screenshot of each step goes to OUTDIR.
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
  await page.select("form.submit select[name=game]", "1");
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
  // Typed from 1, the puzzle is shown from 1: the API's vertex 1 is vertex 2 here.
  check(/Winning first moves: vertex 2\./.test(evidence), `evidence: ${evidence}`);
  const labels = await page.$$eval("svg.drawing .vertex text", (texts) => texts.map((t) => t.textContent).sort());
  check(labels.join(" ") === "1 2 3 4", `the drawing numbers from 1: ${labels.join(" ")}`);
  const whole = await text("body");
  check(/The token starts on vertex 1\./.test(whole), `the start, from 1: ${whole}`);
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
  check(/You: vertex 2/.test(history) && /Engine: vertex 3/.test(history), `history: ${history}`);
  await shot("game-over");

  // Back on the list, the puzzle shows its verdict without solving again.
  await page.goto(base, { waitUntil: "networkidle0" });
  await page.waitForSelector("table.puzzles tbody tr");
  const row = await page.$$eval("table.puzzles tbody tr", (rows) =>
    rows.map((r) => r.textContent).find((t) => t.includes("Path of four")),
  );
  check(row && row.includes("The first player wins."), `the listed verdict: ${row}`);
  check(row.includes("unrated"), `a submitted puzzle is unrated: ${row}`);
  await shot("list-after");

  // Directed edge Geography on three vertices, arcs 1⇄2, 1⇄3 and 2→3, the
  // token on 1: the second player wins (whichever arc the first takes, the
  // second brings the token back to 1 in the end, every arc out of it used).
  await page.select("form.submit select[name=game]", "6");
  check(!(await page.$eval("input[name=start]", (input) => input.closest("label").hidden)), "the start field is offered");
  await page.type("input[name=title]", "Directed triangle");
  await page.type("textarea[name=edges]", "3 5\n1 2\n2 1\n2 3\n3 1\n1 3");
  await page.$eval("input[name=start]", (input) => (input.value = "1"));
  await page.click("form.submit button[type=submit]");
  await page.waitForFunction(() => /^\/puzzles\/[0-9a-f]{20}$/.test(window.location.pathname));
  await page.waitForFunction(() => {
    const verdict = document.querySelector("[data-testid=verdict]");
    return verdict && verdict.textContent !== "Solving…";
  });
  const directedVerdict = await text("[data-testid=verdict]");
  const directedEvidence = await text(".evidence");
  check(directedVerdict === "The second player wins.", `directed verdict: ${directedVerdict} (${directedEvidence})`);
  check(/\d+ positions? searched/.test(directedEvidence), `the states searched: ${directedEvidence}`);
  check(/strategy is a tree of \d+ positions?:/.test(directedEvidence), `the strategy's size: ${directedEvidence}`);
  const facts = await text(".facts");
  check(facts === "Directed edge Geography · 3 vertices · 5 arcs", `facts: ${facts}`);
  // Five arrows; an arc and its reverse are two curves apart, not one line.
  const arcs = await page.$$eval("svg.drawing path.edge", (paths) =>
    paths.map((path) => {
      const middle = path.getPointAtLength(path.getTotalLength() / 2);
      return { arc: path.dataset.edge, marker: path.getAttribute("marker-end"), x: middle.x, y: middle.y };
    }),
  );
  check(arcs.length === 5 && arcs.every((a) => a.marker === "url(#arrowhead)"), `arrows: ${JSON.stringify(arcs)}`);
  const middle = (arc) => arcs.find((a) => a.arc === arc);
  for (const [there, back] of [["0>1", "1>0"], ["0>2", "2>0"]]) {
    const gap = Math.hypot(middle(there).x - middle(back).x, middle(there).y - middle(back).y);
    check(gap > 20, `${there} and ${back} drawn apart: ${gap}`);
  }
  await shot("directed-puzzle");

  // Play second, clicking the hinted vertex on the drawing each time.
  await page.click("button[data-side=second]");
  for (let turn = 0; ; turn++) {
    check(turn < 10, "the directed game ends");
    await page.waitForFunction(() => {
      const status = document.querySelector("[data-testid=play-status]").textContent;
      return status.startsWith("Your move") || status.startsWith("Game over");
    });
    const status = await text("[data-testid=play-status]");
    if (status.startsWith("Game over")) {
      check(/you win!/.test(status), `the person wins the directed game: ${status}`);
      break;
    }
    await page.click("section.play button.secondary:not([data-side])");
    await page.waitForFunction(() => document.querySelector("[data-testid=hint]").textContent.length > 0);
    const hint = await text("[data-testid=hint]");
    const move = hint.match(/vertex (\d+)/);
    check(move, `a winning move is hinted: ${hint}`);
    await shot(`directed-play-${turn}`);
    const before = (await page.$$("[data-testid=history] li")).length;
    // The hint speaks the puzzle's numbering (from 1); the drawing's data the API's (from 0).
    await page.click(`svg.drawing .vertex[data-vertex="${Number(move[1]) - 1}"]`);
    await page.waitForFunction(
      (count) => document.querySelectorAll("[data-testid=history] li").length > count,
      {},
      before,
    );
  }
  const directedHistory = await page.$$eval("[data-testid=history] li", (items) => items.map((li) => li.textContent));
  check(
    directedHistory.join("; ") === "Engine: vertex 2; You: vertex 1; Engine: vertex 3; You: vertex 1",
    `directed history: ${directedHistory.join("; ")}`,
  );
  const used = await page.$$eval("svg.drawing .edge.used", (paths) => paths.map((path) => path.dataset.edge).sort());
  check(used.join(" ") === "0>1 0>2 1>0 2>0", `the used arcs: ${used.join(" ")}`);
  check((await page.$$("svg.drawing .vertex.visited")).length === 0, "edge Geography marks no visited vertex");
  check((await page.$$("svg.drawing .vertex.legal")).length === 0, "no legal move is marked once the game is over");
  check((await page.$('svg.drawing .vertex.token[data-vertex="0"]')) !== null, "the token is back on vertex 0");
  await shot("directed-game-over");

  await page.goto(base, { waitUntil: "networkidle0" });
  await page.waitForSelector("table.puzzles tbody tr");
  const directedRow = await page.$$eval("table.puzzles tbody tr", (rows) =>
    rows.map((r) => r.textContent).find((t) => t.includes("Directed triangle")),
  );
  check(
    directedRow && directedRow.includes("Directed edge Geography") && directedRow.includes("The second player wins."),
    `the listed directed puzzle: ${directedRow}`,
  );
  await shot("list-directed");

  // Generating. Tree painting on two vertices: the first player never has a
  // move, so no candidate is a puzzle; the server gives up and the page
  // passes on its advice.
  const setField = (selector, value) =>
    page.$eval(selector, (input, value) => (input.value = value), value);
  await page.select("form.generate select[name=game]", String(3));
  check(
    (await page.$eval("form.generate input[name=min-vertices]", (input) => input.max)) === "100",
    "the size bounds follow the game",
  );
  await setField("form.generate input[name=min-vertices]", "2");
  await setField("form.generate input[name=max-vertices]", "2");
  await page.select("form.generate select[name=depth]", "0");
  await page.click("form.generate button[type=submit]");
  await page.waitForFunction(() => {
    const alert = document.querySelector("form.generate .error");
    return alert && !alert.hidden && alert.textContent.length > 0;
  });
  const fruitless = await text("form.generate .error");
  check(
    /^No puzzle meets these settings/.test(fruitless) && /no first move/.test(fruitless) && /more vertices/.test(fruitless),
    `the server's reason and advice: ${fruitless}`,
  );
  check(!(await page.$eval("form.generate button[type=submit]", (b) => b.disabled)), "the form is ready again");
  await shot("generate-none");

  // Eight vertices, the only winning move to find at least once, seed 7:
  // the stored puzzle opens with its verdict, difficulty and seed.
  const generateSeven = async () => {
    await page.select("form.generate select[name=game]", String(3));
    await setField("form.generate input[name=min-vertices]", "8");
    await setField("form.generate input[name=max-vertices]", "8");
    await page.select("form.generate select[name=depth]", "1");
    await page.select("form.generate select[name=winner]", "0");
    await setField("form.generate input[name=seed]", "7");
    await page.click("form.generate button[type=submit]");
    // The puzzle opens, or the form says why not (which fails the test at once).
    await page.waitForFunction(
      () =>
        /^\/puzzles\/[0-9a-f]{20}$/.test(window.location.pathname) ||
        document.querySelector("form.generate .error")?.hidden === false,
    );
    const refused = await page.$("form.generate .error:not([hidden])");
    check(!refused, `the generated puzzle opens: ${refused && (await text("form.generate .error"))}`);
    await page.waitForFunction(() => {
      const verdict = document.querySelector("[data-testid=verdict]");
      return verdict && verdict.textContent !== "Solving…";
    });
  };
  await generateSeven();
  const generatedPath = await page.evaluate(() => window.location.pathname);
  const generatedVerdict = await text("[data-testid=verdict]");
  check(/^The (first|second) player wins\.$/.test(generatedVerdict), `generated verdict: ${generatedVerdict}`);
  check(/paints \d+ vertices black/.test(await text(".evidence")), "the tree painting evidence");
  const rated = await text("[data-testid=difficulty] .rating");
  const rating = rated.match(/^only-move depth (\d+) · (\d+)\/(\d+) first moves lose · margin [+-]?\d+$/);
  check(rating && Number(rating[1]) >= 1 && Number(rating[2]) <= Number(rating[3]), `the difficulty: ${rated}`);
  const generatedFacts = await text(".facts");
  check(generatedFacts.startsWith("Tree painting · 8 vertices · 7 edges"), `generated facts: ${generatedFacts}`);
  const told = await text("[data-testid=notice]");
  check(/^Generated from seed 7 \(candidate \d+\)/.test(told) && !/stored already/.test(told), `the notice: ${told}`);
  check((await page.$$("svg.drawing .vertex")).length === 8, "eight vertices drawn");
  await shot("generated-puzzle");

  // The list shows the same difficulty.
  await page.goto(base, { waitUntil: "networkidle0" });
  await page.waitForSelector("table.puzzles tbody tr");
  const generatedRow = await page.$$eval(
    "table.puzzles tbody tr",
    (rows, path) => rows.find((r) => r.querySelector(`a[href="${path}"]`))?.textContent,
    generatedPath,
  );
  check(generatedRow && generatedRow.includes(rated), `the listed difficulty: ${generatedRow} (${rated})`);
  await shot("list-generated");

  // The same settings again: nothing new is stored, the stored copy opens and says so.
  await generateSeven();
  check((await page.evaluate(() => window.location.pathname)) === generatedPath, "the stored copy opens");
  const again = await text("[data-testid=notice]");
  check(/stored already/.test(again), `the notice says it was stored already: ${again}`);
  await shot("generated-again");

  check(offOrigin.length === 0, `requests off the page's origin: ${offOrigin.join(", ")}`);
  console.log(`ok: ${step} screenshots in ${outDir}`);
} finally {
  await browser.close();
}
