/*
 * cdp.js: headless Chromium driven over the DevTools protocol, for the
 * browser tests of the HTML report (check-report.js, check-decision.js).
 *
 * Chromium is driven through the DevTools protocol over a pipe
 * (--remote-debugging-pipe: JSON messages ended by NUL on file descriptors
 * 3 and 4), so the tests need nothing but node and chromium.  open()
 * navigates to a file and waits for a condition; what the page must not do
 * (requests, console errors and warnings, exceptions, dialogs) is gathered
 * in requests, errors and dialogs; console.log() lines in logs.
 */
"use strict";

const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function start(chromium, timeoutMs) {
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), "pv-chromium-"));
	const browser = spawn(chromium, [
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync",
		"--disable-extensions", "--mute-audio",
		"--user-data-dir=" + profile, "--remote-debugging-pipe",
		"--window-size=1300,1000", "about:blank"
	], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
	const c = {
		browser, session: null, requests: [], errors: [], dialogs: [],
		logs: [], loaded: false, stderr: ""
	};
	const toBrowser = browser.stdio[3], fromBrowser = browser.stdio[4];
	let nextId = 1, buf = "";
	const pending = new Map();

	browser.stderr.on("data", (d) => { c.stderr += d; });

	/* End chromium, then remove its profile once it stopped writing. */
	c.cleanup = async () => {
		const gone = new Promise((r) => {
			if (browser.exitCode !== null ||
			    browser.signalCode !== null)
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
	};

	c.watchdog = setTimeout(async () => {
		process.stderr.write("cdp: timed out\n" + c.stderr.slice(-2000));
		await c.cleanup();
		process.exit(2);
	}, timeoutMs || 90000);

	c.send = (method, params, sessionId) => {
		const id = nextId++;
		const msg = { id, method, params: params || {} };

		if (sessionId)
			msg.sessionId = sessionId;
		toBrowser.write(JSON.stringify(msg) + "\0");
		return new Promise((resolve, reject) => {
			pending.set(id, { resolve, reject, method });
		});
	};

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
				event(msg);
			}
		}
	});

	function event(m) {
		if (m.sessionId !== c.session)
			return;
		switch (m.method) {
		case "Network.requestWillBeSent":
			c.requests.push(m.params.request.url);
			break;
		case "Runtime.exceptionThrown":
			c.errors.push("exception: " + JSON.stringify(
			    m.params.exceptionDetails).slice(0, 300));
			break;
		case "Runtime.consoleAPICalled":
			if (m.params.type === "error" ||
			    m.params.type === "warning")
				c.errors.push("console." + m.params.type + ": " +
				    JSON.stringify(m.params.args).slice(0, 300));
			else
				c.logs.push(m.params.args.map((a) =>
				    a.value).join(" "));
			break;
		case "Log.entryAdded":
			if (m.params.entry.level === "error" ||
			    m.params.entry.level === "warning")
				c.errors.push("log: " + m.params.entry.text);
			break;
		case "Page.javascriptDialogOpening":
			c.dialogs.push(m.params.message);
			c.send("Page.handleJavaScriptDialog", { accept: true },
			    c.session);
			break;
		case "Page.loadEventFired":
			c.loaded = true;
			break;
		}
	}

	/* A page to test in, its events watched. */
	c.attach = async () => {
		const t = await c.send("Target.createTarget",
		    { url: "about:blank" });
		const a = await c.send("Target.attachToTarget",
		    { targetId: t.targetId, flatten: true });

		c.session = a.sessionId;
		for (const d of ["Page", "Runtime", "Log", "Network"])
			await c.send(d + ".enable", {}, c.session);
		await c.send("Emulation.setDeviceMetricsOverride", { width: 1300,
		    height: 1000, deviceScaleFactor: 1, mobile: false },
		    c.session);
	};

	c.evaluate = async (expr) => {
		const r = await c.send("Runtime.evaluate", { expression: expr,
		    returnByValue: true, awaitPromise: true }, c.session);

		if (r.exceptionDetails)
			throw new Error("evaluate: " + expr.slice(0, 80) + ": " +
			    JSON.stringify(r.exceptionDetails).slice(0, 300));
		return r.result.value;
	};

	c.waitFor = async (expr, ms) => {
		const end = Date.now() + ms;

		while (Date.now() < end) {
			if (await c.evaluate(expr))
				return true;
			await sleep(50);
		}
		return false;
	};

	/* Open file and wait until ready (a page expression) holds. */
	c.open = async (file, ready) => {
		c.loaded = false;
		c.requests.length = 0;
		await c.send("Page.navigate", { url: "file://" +
		    path.resolve(file) }, c.session);
		const end = Date.now() + 20000;
		while (!c.loaded && Date.now() < end)
			await sleep(20);
		return c.waitFor(ready, 20000);
	};

	c.click = async (x, y) => {
		const p = { x, y, button: "left", clickCount: 1 };

		await c.send("Input.dispatchMouseEvent", Object.assign({
		    type: "mouseMoved" }, p), c.session);
		await c.send("Input.dispatchMouseEvent", Object.assign({
		    type: "mousePressed" }, p), c.session);
		await c.send("Input.dispatchMouseEvent", Object.assign({
		    type: "mouseReleased" }, p), c.session);
	};

	/*
	 * Click the centre of an element, scrolled into view: of its first
	 * box, for a link that wraps onto two lines.
	 */
	c.clickElement = async (selector) => {
		const r = await c.evaluate("(function () { var e = " +
		    "document.querySelector(" + JSON.stringify(selector) + ");" +
		    "e.scrollIntoView({block: 'center'});" +
		    "var r = e.getClientRects()[0] || " +
		    "e.getBoundingClientRect();" +
		    "return [r.left + r.width / 2, r.top + r.height / 2]; })()");

		await c.click(r[0], r[1]);
	};

	c.type = async (selector, text) => {
		await c.evaluate("(function () { var e = " +
		    "document.querySelector(" + JSON.stringify(selector) +
		    "); e.focus(); e.select(); })()");
		await c.send("Input.insertText", { text }, c.session);
	};

	c.screenshot = async (file) => {
		const png = await c.send("Page.captureScreenshot", {
		    format: "png", captureBeyondViewport: true }, c.session);

		fs.writeFileSync(file, Buffer.from(png.data, "base64"));
	};

	return c;
}

/* "ok" and "not ok" lines, counted. */
function checker() {
	const t = { passed: 0, failed: 0 };

	t.check = (ok, what, detail) => {
		if (ok) {
			t.passed++;
			process.stdout.write("ok - " + what + "\n");
		} else {
			t.failed++;
			process.stdout.write("not ok - " + what +
			    (detail ? ": " + detail : "") + "\n");
		}
	};
	return t;
}

module.exports = { start, checker, sleep };
