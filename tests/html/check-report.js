/*
 * check-report.js: open a pv-render HTML report in headless Chromium and
 * check it from the page itself.
 *
 *   node check-report.js [--time-only] CHROMIUM REPORT.html [SCREENSHOT.png
 *       [ROOTS.html]]
 *
 * Chromium is driven through the DevTools protocol (cdp.js).  Each check
 * prints "ok" or "not ok"; the last line is "N passed, N failed" and the
 * exit status 0 when all passed, 1 otherwise, 2 on trouble.
 * --time-only prints the milliseconds from navigation to the first drawn
 * flame graph and the byte size, for the benchmark, and checks nothing else.
 * ROOTS.html, a report of pv-diff's output of two profiles whose root
 * frames it merged (tests/data/pv-diff/roots.out), is opened last: its
 * summary must say so.
 */
"use strict";

const fs = require("fs");
const os = require("os");
const path = require("path");
const cdp = require("./cdp.js");

let args = process.argv.slice(2);
const timeOnly = args[0] === "--time-only";
if (timeOnly)
	args = args.slice(1);
const [chromium, report, shot, roots] = args;
if (!chromium || !report) {
	process.stderr.write("usage: node check-report.js [--time-only] " +
	    "CHROMIUM REPORT.html [SCREENSHOT.png [ROOTS.html]]\n");
	process.exit(2);
}

const c = cdp.start(chromium);
const sleep = cdp.sleep;
const { requests, errors, dialogs } = c;
const send = (m, p, s) => c.send(m, p, s);
const evaluate = c.evaluate, click = c.click, clickElement = c.clickElement;
const type = c.type;
const ready = "!!(window.pvReport && pvReport.table && pvReport.flows && " +
    "pvReport.firstDraw > 0)";
const open = (file) => c.open(file, ready);
const T = cdp.checker(), check = T.check;

/* the drawn rectangles of a graph, with their labels */
function rects(mode) {
	return evaluate("pvReport.graphs." + mode + ".rects.map(function (r)" +
	    " { return { i: r.i, x: r.x, y: r.y, w: r.w, merged: r.merged," +
	    " hl: r.hl, name: pvReport.graphs." + mode + ".model.label(r.i)," +
	    " depth: pvReport.graphs." + mode + ".model.depth[r.i] }; })");
}

async function checks() {
	const size = fs.statSync(report).size;

	check(await open(report), "the report loads and draws");
	const first = await evaluate("pvReport.firstDraw");
	if (timeOnly) {
		process.stdout.write("marks " + JSON.stringify(await evaluate(
		    "pvReport.marks")) + "\nfirst-draw-ms " + first.toFixed(0) +
		    "\nbytes " + size + "\n");
		return;
	}
	process.stdout.write("# first flame graph drawn " + first.toFixed(0) +
	    " ms after navigation; " + size + " bytes\n");

	/* the profile's summary: totals of both sides and their ratio */
	{
		const rows = await evaluate("Array.prototype.map.call(" +
		    "document.querySelectorAll('#totals tr'), function (r) " +
		    "{ return r.textContent; })");
		check(rows.some((r) => r === "samples5313950.744\u00d7") &&
		    rows.some((r) => /^total time266 ms198 ms0\.744\u00d7$/
		    .test(r)), "the profile summary shows both sides' totals " +
		    "of samples and of time, and their ratio", rows.join(" | "));
		const top = await evaluate("Array.prototype.map.call(" +
		    "document.querySelectorAll('#suspects-excl tbody tr " +
		    "td.fname'), function (t) { return t.textContent; })");
		check(top.length === 5 && top[0] === "__strcmp_evex",
		    "the summary's top suspects, by exclusive change",
		    top.join(", "));
	}

	/* a user metric given with --meta, compared */
	check(await evaluate("(function () { var r = Array.prototype.filter" +
	    ".call(document.querySelectorAll('#context-table-0 tr'), " +
	    "function (r) { return r.querySelector('th').textContent === " +
	    "'meta throughput'; }); return r.length === 1 && " +
	    "r[0].textContent === 'meta throughput15201210-20.39%' || " +
	    "r.length === 1 && r[0].textContent; })()") === true,
	    "the context table compares the user metric 'throughput'");

	check(await evaluate("!!document.querySelector(" +
	    "'meta[http-equiv=Content-Security-Policy]')" +
	    ".content.match(/default-src 'none'/)"),
	    "the page sets a Content-Security-Policy of default-src 'none'");

	/* flame graphs */
	for (const mode of ["diff", "target", "base"]) {
		const r = await rects(mode);
		const frames = r.filter((q) => !q.merged);

		check(frames.length > 5 && frames.some((q) => q.depth >= 4),
		    "the " + mode + " flame graph has frames",
		    frames.length + " frames");
	}

	/* search highlights exactly the matching frames */
	await type("#search", "strcmp");
	await sleep(400);
	for (const mode of ["target", "base"]) {
		const r = (await rects(mode)).filter((q) => !q.merged);
		const want = r.filter((q) => /strcmp/i.test(q.name));
		const bad = r.filter((q) => q.hl !== (/strcmp/i.test(q.name) ?
		    1 : 0));

		check(want.length > 0 && bad.length === 0,
		    "search 'strcmp' highlights the matching frames of " + mode,
		    want.length + " matching, " + bad.length + " wrong: " +
		    bad.slice(0, 3).map((q) => q.name).join(", "));
	}
	check(/% of the target/.test(await evaluate(
	    "document.querySelector('#graph-target .graph-info').textContent")),
	    "the search shows the matched share");

	/* a hostile frame name is text */
	await type("#search", "<img");
	await sleep(400);
	{
		const r = (await rects("target")).filter((q) => q.hl);

		check(r.length > 0 && r.every((q) => q.name ===
		    "<img src=x onerror=alert(1)>"),
		    "the frame '<img src=x onerror=alert(1)>' is drawn and " +
		    "found by name", r.length + " highlighted");
	}
	await type("#func-filter", "onerror");
	await sleep(200);
	check(await evaluate("(function () { var b = document.querySelectorAll(" +
	    "'#func-table tbody td.fname button'); return b.length === 1 && " +
	    "b[0].textContent === '<img src=x onerror=alert(1)>'; })()"),
	    "the table shows '<img src=x onerror=alert(1)>' as text");
	check(await evaluate("document.querySelectorAll('img').length === 0 && " +
	    "!document.body.innerHTML.includes('<img')") && dialogs.length === 0,
	    "no img element was made and no dialog opened",
	    dialogs.join(", "));
	await type("#func-filter", "");
	await type("#search", "");
	await sleep(400);

	/* hover and click to zoom */
	{
		const box = await evaluate("(function () { var c = " +
		    "pvReport.graphs.target.canvas; c.scrollIntoView(); " +
		    "var r = c.getBoundingClientRect(); return [r.left, " +
		    "r.top, r.width, pvReport.graphs.target.view.scrollTop];" +
		    " })()");

		const r = (await rects("target")).filter((q) => !q.merged &&
		    q.depth >= 3 && q.w > 40 && q.w < 900 &&
		    q.y >= box[3] && q.y < box[3] + 400);

		if (r.length === 0) {
			check(false, "a frame to zoom into");
		} else {
			const q = r[0], x = box[0] + q.x + q.w / 2,
			    y = box[1] + q.y - box[3] + 8;

			await send("Input.dispatchMouseEvent", { type:
			    "mouseMoved", x, y }, c.session);
			await sleep(100);
			const tipText = await evaluate("(function () { var t = " +
			    "document.querySelector('.tip'); return t.hidden ? " +
			    "'' : t.textContent; })()");
			/* cpu-clock counts nanoseconds: shown as time */
			check(tipText.includes(q.name) &&
			    /baseline: [0-9.,]+ (ns|\u00b5s|ms|s) \([0-9.]+%\)/
			    .test(tipText) &&
			    /target: [0-9.,]+ (ns|\u00b5s|ms|s) \([0-9.]+%\)/
			    .test(tipText),
			    "hover shows the frame's counts with their unit " +
			    "and shares", tipText);
			await click(x, y);
			await sleep(200);
			const after = await rects("target");
			const z = after.find((a) => a.i === q.i);
			check(await evaluate("pvReport.graphs.target.zoom") ===
			    q.i && z && Math.abs(z.w - box[2]) < 3,
			    "clicking '" + q.name + "' zooms to it",
			    z ? "width " + z.w + " of " + box[2] : "gone");
			await clickElement("#graph-target .reset");
			await sleep(100);
			check(await evaluate("pvReport.graphs.target.zoom") === 0,
			    "reset zoom");
		}
	}

	/* the table sorts by a column */
	const column = async (k) => evaluate("Array.prototype.map.call(" +
	    "document.querySelectorAll('#func-table tbody tr'), function (tr)" +
	    " { return parseFloat(tr.children[" + k + "].textContent" +
	    ".replace('\\u2212', '-')); }).slice(0, 40)");
	const sorted = (v, dir) => v.every((x, i) => i === 0 ||
	    dir * (x - v[i - 1]) >= 0);
	await clickElement("#func-table th[data-key=pit]");
	await sleep(100);
	{
		const v = await column(3);
		check(v.length > 10 && sorted(v, -1) && v[0] > v[v.length - 1] &&
		    await evaluate("document.querySelector('#func-table " +
		    "th[data-key=pit]').getAttribute('aria-sort')") ===
		    "descending", "the table sorts by inclusive target share",
		    v.slice(0, 5).join(" "));
	}
	await clickElement("#func-table th[data-key=pit]");
	await sleep(100);
	check(sorted(await column(3), 1), "a second click sorts ascending");

	/* the Sankey graph */
	await type("#flow-fn", "lookup");
	await clickElement("#flows .bar button");
	await sleep(200);
	{
		const f = await evaluate("pvReport.flows");
		const text = await evaluate("Array.prototype.map.call(" +
		    "document.querySelectorAll('#sankey svg text'), function " +
		    "(t) { return t.textContent; })");

		check(f.fn === "lookup" && f.paths >= 4 && f.callers >= 1 &&
		    f.callees >= 1 && text.includes("lookup") &&
		    text.includes("__proto__") && text.includes("constructor"),
		    "the Sankey graph of 'lookup' draws its callers " +
		    "(__proto__, constructor: insert and run renamed) and " +
		    "callees", JSON.stringify(f) + " " + text.join(","));
		/* three levels: callers' callers' callers */
		await evaluate("(function () { var s = document.querySelector(" +
		    "'#flow-depth'); s.value = '3'; s.dispatchEvent(new Event(" +
		    "'change')); })()");
		const g = await evaluate("pvReport.flows");
		const boxes = await evaluate("Array.prototype.map.call(" +
		    "document.querySelectorAll('#sankey svg text'), function (t)" +
		    " { var b = t.getBBox(); return [b.x, b.y, b.width, " +
		    "b.height]; })");
		const svgW = await evaluate("document.querySelector('#sankey " +
		    "svg').getAttribute('width')");
		let overlap = 0, clipped = 0;
		boxes.forEach((a, i) => {
			if (a[0] + a[2] > Number(svgW) + 0.5)
				clipped++;
			boxes.slice(i + 1).forEach((b) => {
				if (a[0] < b[0] + b[2] && b[0] < a[0] + a[2] &&
				    a[1] < b[1] + b[3] && b[1] < a[1] + a[3])
					overlap++;
			});
		});
		check(g.depth === 3 && g.labels.includes("main") &&
		    overlap === 0 && clipped === 0,
		    "three levels of callers and callees, no label over " +
		    "another nor past the edge", JSON.stringify({ depth: g.depth,
		    labels: g.labels.length, overlap, clipped }));
	}

	/* notes are saved into a copy of the report that still runs */
	await type("#note-on", "lookup");
	await type("#note-text", "chains grow: <b>weak hash</b>");
	await clickElement("#note-add");
	const saved = await evaluate("pvReport.serialize()");
	const downloads = fs.mkdtempSync(path.join(os.tmpdir(), "pv-dl-"));
	await send("Browser.setDownloadBehavior", { behavior: "allow",
	    downloadPath: downloads });
	await clickElement("#note-save");
	const copy = path.join(downloads, path.basename(report));
	const end = Date.now() + 10000;
	while (!fs.existsSync(copy) && Date.now() < end)
		await sleep(100);
	check(fs.existsSync(copy) && fs.readFileSync(copy, "utf8") === saved,
	    "'Save the report with its notes' downloads the page with them",
	    fs.readdirSync(downloads).join(", "));
	if (!fs.existsSync(copy))
		fs.writeFileSync(copy, saved);

	check(errors.length === 0, "no console error or warning",
	    errors.join(" | "));
	const outside = requests.filter((u) => !u.startsWith("file://") ||
	    !u.endsWith(path.basename(report)));
	check(requests.length >= 1 && outside.length === 0,
	    "no request leaves the page", outside.join(", "));

	if (shot) {
		await evaluate("window.scrollTo(0, 0)");
		await c.screenshot(shot);
	}

	/* the network is closed to the page's own script too */
	const blocked = await evaluate("fetch('http://127.0.0.1:9/').then(" +
	    "function () { return false; }, function () { return true; })");
	check(blocked, "the Content-Security-Policy blocks fetch()");

	errors.length = 0;
	check(await open(copy) && await evaluate("pvReport.notes.length === 1" +
	    " && pvReport.notes[0].on === 'lookup' && document.querySelector(" +
	    "'ul.notes li p').textContent === 'chains grow: <b>weak hash</b>'")
	    && errors.length === 0,
	    "the saved copy opens with its note, as text, without errors",
	    errors.join(" | "));
	fs.rmSync(downloads, { recursive: true, force: true });

	/* a comparison whose root frames pv-diff merged says so */
	if (roots) {
		errors.length = 0;
		check(await open(roots), "the report of merged roots loads");
		const said = await evaluate("Array.prototype.map.call(" +
		    "document.querySelectorAll('#psum p.roots'), function (p) " +
		    "{ return p.textContent; })");
		check(said.length === 1 && said[0] === "Roots myapp-1.0 and " +
		    "myapp-2.0 merged, score 0.70; --keep-roots keeps them " +
		    "apart." && errors.length === 0, "the profile summary " +
		    "says which roots were merged, as text",
		    said.join(" | ") + errors.join(" | "));
	}
}

(async () => {
	let status = 0;

	try {
		await c.attach();
		await checks();
		if (!timeOnly)
			process.stdout.write(T.passed + " passed, " + T.failed +
			    " failed\n");
		status = T.failed === 0 ? 0 : 1;
	} catch (e) {
		process.stderr.write("check-report: " + e.stack + "\n");
		status = 2;
	}
	clearTimeout(c.watchdog);
	await c.cleanup();
	process.exit(status);
})();
