/*
 * check-report.js: open a pv-render HTML report in headless Chromium and
 * check it from the page itself.
 *
 *   node check-report.js [--time-only] CHROMIUM REPORT.html [SCREENSHOT.png]
 *
 * Chromium is driven through the DevTools protocol over a pipe
 * (--remote-debugging-pipe: JSON messages ended by NUL on file descriptors
 * 3 and 4), so the test needs nothing but node and chromium.  Each check
 * prints "ok" or "not ok"; the last line is "N passed, N failed" and the
 * exit status 0 when all passed, 1 otherwise, 2 on trouble.
 * --time-only prints the milliseconds from navigation to the first drawn
 * flame graph and the byte size, for the benchmark, and checks nothing else.
 */
"use strict";

const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

let args = process.argv.slice(2);
const timeOnly = args[0] === "--time-only";
if (timeOnly)
	args = args.slice(1);
const [chromium, report, shot] = args;
if (!chromium || !report) {
	process.stderr.write("usage: node check-report.js [--time-only] " +
	    "CHROMIUM REPORT.html [SCREENSHOT.png]\n");
	process.exit(2);
}

const profile = fs.mkdtempSync(path.join(os.tmpdir(), "pv-chromium-"));
const browser = spawn(chromium, [
	"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
	"--no-first-run", "--disable-background-networking",
	"--disable-component-update", "--disable-sync",
	"--disable-extensions", "--mute-audio",
	"--user-data-dir=" + profile, "--remote-debugging-pipe",
	"--window-size=1300,1000", "about:blank"
], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
let stderr = "";
browser.stderr.on("data", (d) => { stderr += d; });

/* End chromium, then remove its profile once it has stopped writing. */
async function cleanup() {
	const gone = new Promise((r) => {
		if (browser.exitCode !== null || browser.signalCode !== null)
			r();
		else
			browser.once("exit", r);
	});

	try { browser.kill("SIGKILL"); } catch (e) { /* gone */ }
	await Promise.race([gone, sleep(5000)]);
	for (let i = 0; i < 5; i++) {
		try {
			fs.rmSync(profile, { recursive: true, force: true });
			return;
		} catch (e) {
			await sleep(200);
		}
	}
}

const watchdog = setTimeout(async () => {
	process.stderr.write("check-report: timed out\n" + stderr.slice(-2000));
	await cleanup();
	process.exit(2);
}, 90000);

/* The protocol */

const toBrowser = browser.stdio[3], fromBrowser = browser.stdio[4];
let nextId = 1, pending = new Map(), listeners = [], buf = "";

fromBrowser.on("data", (chunk) => {
	let z;

	buf += chunk.toString("utf8");
	while ((z = buf.indexOf("\0")) >= 0) {
		const msg = JSON.parse(buf.slice(0, z));

		buf = buf.slice(z + 1);
		if (msg.id && pending.has(msg.id)) {
			const p = pending.get(msg.id);

			pending.delete(msg.id);
			if (msg.error)
				p.reject(new Error(p.method + ": " +
				    msg.error.message));
			else
				p.resolve(msg.result);
		} else if (msg.method) {
			listeners.forEach((l) => l(msg));
		}
	}
});

function send(method, params, sessionId) {
	const id = nextId++;
	const msg = { id, method, params: params || {} };

	if (sessionId)
		msg.sessionId = sessionId;
	toBrowser.write(JSON.stringify(msg) + "\0");
	return new Promise((resolve, reject) => {
		pending.set(id, { resolve, reject, method });
	});
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/* What the page does that it must not */
const requests = [], errors = [], dialogs = [];
let session = null, loaded = false;

listeners.push((m) => {
	if (m.sessionId !== session)
		return;
	switch (m.method) {
	case "Network.requestWillBeSent":
		requests.push(m.params.request.url);
		break;
	case "Runtime.exceptionThrown":
		errors.push("exception: " +
		    JSON.stringify(m.params.exceptionDetails).slice(0, 300));
		break;
	case "Runtime.consoleAPICalled":
		if (m.params.type === "error" || m.params.type === "warning")
			errors.push("console." + m.params.type + ": " +
			    JSON.stringify(m.params.args).slice(0, 300));
		break;
	case "Log.entryAdded":
		if (m.params.entry.level === "error" ||
		    m.params.entry.level === "warning")
			errors.push("log: " + m.params.entry.text);
		break;
	case "Page.javascriptDialogOpening":
		dialogs.push(m.params.message);
		send("Page.handleJavaScriptDialog", { accept: true }, session);
		break;
	case "Page.loadEventFired":
		loaded = true;
		break;
	}
});

async function evaluate(expr) {
	const r = await send("Runtime.evaluate", { expression: expr,
	    returnByValue: true, awaitPromise: true }, session);

	if (r.exceptionDetails)
		throw new Error("evaluate: " + expr.slice(0, 80) + ": " +
		    JSON.stringify(r.exceptionDetails).slice(0, 300));
	return r.result.value;
}

async function waitFor(expr, ms) {
	const end = Date.now() + ms;

	while (Date.now() < end) {
		if (await evaluate(expr))
			return true;
		await sleep(50);
	}
	return false;
}

async function open(file) {
	loaded = false;
	requests.length = 0;
	await send("Page.navigate", { url: "file://" + path.resolve(file) },
	    session);
	const end = Date.now() + 20000;
	while (!loaded && Date.now() < end)
		await sleep(20);
	return waitFor("!!(window.pvReport && pvReport.table && " +
	    "pvReport.flows && pvReport.firstDraw > 0)", 20000);
}

async function click(x, y) {
	const p = { x, y, button: "left", clickCount: 1 };

	await send("Input.dispatchMouseEvent", Object.assign({
	    type: "mouseMoved" }, p), session);
	await send("Input.dispatchMouseEvent", Object.assign({
	    type: "mousePressed" }, p), session);
	await send("Input.dispatchMouseEvent", Object.assign({
	    type: "mouseReleased" }, p), session);
}

/* Click the centre of an element, scrolled into view. */
async function clickElement(selector) {
	const r = await evaluate("(function () { var e = " +
	    "document.querySelector(" + JSON.stringify(selector) + ");" +
	    "e.scrollIntoView({block: 'center'});" +
	    "var r = e.getBoundingClientRect();" +
	    "return [r.left + r.width / 2, r.top + r.height / 2]; })()");

	await click(r[0], r[1]);
}

async function type(selector, text) {
	await evaluate("(function () { var e = document.querySelector(" +
	    JSON.stringify(selector) + "); e.focus(); e.select(); })()");
	await send("Input.insertText", { text }, session);
}

let passed = 0, failed = 0;

function check(ok, what, detail) {
	if (ok) {
		passed++;
		process.stdout.write("ok - " + what + "\n");
	} else {
		failed++;
		process.stdout.write("not ok - " + what +
		    (detail ? ": " + detail : "") + "\n");
	}
}

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
			    "mouseMoved", x, y }, session);
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
		    text.includes("insert") && text.includes("run"),
		    "the Sankey graph of 'lookup' draws its callers " +
		    "(insert, run) and callees", JSON.stringify(f) + " " +
		    text.join(","));
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
		const png = await send("Page.captureScreenshot", {
		    format: "png", captureBeyondViewport: true }, session);
		fs.writeFileSync(shot, Buffer.from(png.data, "base64"));
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
}

(async () => {
	let status = 0;

	try {
		const t = await send("Target.createTarget", { url: "about:blank" });
		const a = await send("Target.attachToTarget",
		    { targetId: t.targetId, flatten: true });
		session = a.sessionId;
		for (const d of ["Page", "Runtime", "Log", "Network"])
			await send(d + ".enable", {}, session);
		await send("Emulation.setDeviceMetricsOverride", { width: 1300,
		    height: 1000, deviceScaleFactor: 1, mobile: false }, session);
		await checks();
		if (!timeOnly)
			process.stdout.write(passed + " passed, " + failed +
			    " failed\n");
		status = failed === 0 ? 0 : 1;
	} catch (e) {
		process.stderr.write("check-report: " + e.stack + "\n");
		status = 2;
	}
	clearTimeout(watchdog);
	await cleanup();
	process.exit(status);
})();
