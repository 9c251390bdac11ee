/*
 * check-decision.js: open pv-render's decision report of the bundled night
 * (tests/tools/pv-render-decision-browser.sh) in headless Chromium and
 * check it from the page itself: the first screen's regressions and their
 * suspects as DOM text, a click to the test's levels and on to an
 * instance, the profile of a regression with its planted function on top,
 * the verdicts' flags, the suite table's sorting, hostile values as text,
 * no request.
 *
 *   node check-decision.js CHROMIUM REPORT.html [SCREENSHOT-PREFIX]
 *
 * Prints "ok" or "not ok" a check and "N passed, N failed"; exit 0 when
 * all passed, 1 otherwise, 2 on trouble.  With SCREENSHOT-PREFIX, each
 * page is kept as PREFIX-PAGE.png.
 */
"use strict";

const path = require("path");
const cdp = require("./cdp.js");

const [chromium, report, shot] = process.argv.slice(2);
if (!chromium || !report) {
	process.stderr.write("usage: node check-decision.js CHROMIUM " +
	    "REPORT.html [SCREENSHOT-PREFIX]\n");
	process.exit(2);
}

const c = cdp.start(chromium);
const { requests, errors, dialogs } = c;
const evaluate = c.evaluate;
const T = cdp.checker(), check = T.check;
const text = (sel) => evaluate("(function () { var e = " +
    "document.querySelector(" + JSON.stringify(sel) + "); return e ? " +
    "e.textContent : null; })()");
const visible = (sel) => evaluate("(function () { var e = " +
    "document.querySelector(" + JSON.stringify(sel) + "); return !!e && " +
    "!e.closest('[hidden]') && e.getBoundingClientRect().height > 0; })()");
const keep = async (page) => {
	if (shot)
		await c.screenshot(shot + "-" + page + ".png");
};

async function checks() {
	check(await c.open(report, "!!(window.pvReport && " +
	    "pvReport.firstScreen > 0)"), "the report loads and draws");
	process.stdout.write("# first screen drawn " + (await evaluate(
	    "pvReport.firstScreen")).toFixed(0) + " ms after navigation\n");

	/* the first screen, without a click */
	const rows = await evaluate("Array.prototype.map.call(document." +
	    "querySelectorAll('#regression-table tbody tr'), function (r) " +
	    "{ return r.textContent; })");
	check(rows.length === 6 && rows.some(function (r) {
		return r.includes("hashbench table insert rate level 1") &&
		    r.includes("-63.31%");
	    }),
	    "the summary lists the planted regression", rows.join(" | "));
	check(await visible("#regression-table") &&
	    (await text("#regression-table td.suspects span.fn")) === "lookup",
	    "its top suspect, lookup(), is on the first screen");
	check(/None/.test(await text("#systematic-none")),
	    "a Systematic section that says none");
	const unc = await evaluate("Array.prototype.map.call(document." +
	    "querySelectorAll('#uncertain-list li'), function (l) " +
	    "{ return l.textContent; })");
	check(unc.length === 5 && unc.filter((l) => l.startsWith(
	    "stress-ng <img src=x onerror=alert(3)> bogo-ops " +
	    "bogo-ops-per-second-real-time") &&
	    l.endsWith("decide unstable,outliers")).length === 2 &&
	    (await evaluate("document.querySelectorAll('#summary img')" +
	    ".length")) === 0, "the Uncertain list gives each key's flags, " +
	    "a hostile test name as text", unc.join(" | "));
	await keep("summary");

	/* a click on the regression: its test, then an instance */
	await c.clickElement("#regression-table a.key");
	check(await c.waitFor("pvReport.page === 'test'", 5000) &&
	    await visible("#test svg.forest") &&
	    await visible("#test svg.strip"),
	    "a click on the regression opens its test's levels " +
	    "(forest and strip plots)");
	check((await text("#test tr.focus td:nth-child(8)")) === "unstable",
	    "the test's levels show the verdict's flags",
	    await text("#test tr.focus"));
	await keep("test");
	await c.clickElement("#test svg.forest g.frow");
	check(await c.waitFor("pvReport.page === 'instance'", 5000) &&
	    await visible("#instance-runs") &&
	    (await evaluate("document.querySelectorAll(" +
	    "'#instance-runs tbody tr').length")) >= 10,
	    "a level of the forest plot opens its instance with both " +
	    "sides' runs");
	const hrefs = await evaluate("Array.prototype.map.call(document." +
	    "querySelectorAll('#instance-artifacts a'), function (a) " +
	    "{ return a.getAttribute('href'); })");
	check(hrefs.length > 0 && hrefs.every((h) => /^(\.\/|file:\/\/\/)/
	    .test(h)) && hrefs.some((h) => h.includes("javascript%3A")),
	    "the artifact links are files, a hostile path percent-encoded",
	    hrefs.slice(0, 3).join(" "));
	const hostile = await evaluate("document.getElementById('instance')" +
	    ".textContent.includes('<img src=x onerror=alert(1)>')");
	check(hostile && (await evaluate("document.querySelectorAll(" +
	    "'#instance img').length")) === 0,
	    "a hostile meta value stays text in the facts that differ");
	await keep("instance");

	/* the regression's profile: the planted function on top */
	await evaluate("location.hash = '#summary'");
	await c.clickElement("#regression-table td.suspects a");
	check(await c.waitFor("pvReport.page === 'profile' && " +
	    "!!pvReport.graphs.diff && pvReport.firstDraw > 0", 10000),
	    "the regression's profile link opens its flame graph diff");
	const top = await evaluate("Array.prototype.map.call(document." +
	    "querySelectorAll('#suspects-excl tbody tr td.fname'), " +
	    "function (t) { return t.textContent; })");
	check(top[0] === "lookup", "the planted function leads its suspects",
	    top.join(", "));
	await keep("profile");

	/* the regression's key across the three versions of the input */
	const v = await evaluate("document.querySelector('#regression-table " +
	    "a.key').getAttribute('href').slice(6)");
	await evaluate("location.hash = '#trend=" + v + "'");
	check(await c.waitFor("pvReport.page === 'trend' && !!pvReport.trend",
	    5000) && await visible("#trend svg.trendplot") &&
	    (await evaluate("pvReport.trend.points")) === 3 &&
	    (await evaluate("pvReport.trend.marked")) === 2,
	    "the trend plot draws three versions, baseline and target marked",
	    JSON.stringify(await evaluate("pvReport.trend")));
	await keep("trend");

	/* the suites, sorted by a click */
	await evaluate("location.hash = '#suites'");
	await c.waitFor("!!document.querySelector('#suite-table tbody tr')",
	    5000);
	const col = "Array.prototype.map.call(document.querySelectorAll(" +
	    "'#suite-table tbody tr'), function (r) { return r.cells[0]" +
	    ".textContent; })";
	const before = await evaluate(col);
	await c.clickElement("#suite-table thead th");
	const after1 = await evaluate(col);
	await c.clickElement("#suite-table thead th");
	const after2 = await evaluate(col);
	const asc = after1.slice().sort(), desc = asc.slice().reverse();
	check(before.length >= 2 && ((JSON.stringify(after1) ===
	    JSON.stringify(asc) && JSON.stringify(after2) ===
	    JSON.stringify(desc)) || (JSON.stringify(after1) ===
	    JSON.stringify(desc) && JSON.stringify(after2) ===
	    JSON.stringify(asc))), "the suite table sorts by its first " +
	    "column both ways", after1.join(",") + " / " + after2.join(","));
	await keep("suites");

	check(dialogs.length === 0, "no dialog opened", dialogs.join(" | "));
	check(errors.length === 0, "no console error or warning",
	    errors.join(" | "));
	const outside = requests.filter((u) => !u.startsWith("file://") ||
	    !u.endsWith(path.basename(report)));
	check(requests.length >= 1 && outside.length === 0,
	    "no request leaves the page", outside.join(", "));
}

(async () => {
	let status = 0;

	try {
		await c.attach();
		await checks();
		process.stdout.write(T.passed + " passed, " + T.failed +
		    " failed\n");
		status = T.failed === 0 ? 0 : 1;
	} catch (e) {
		process.stderr.write("check-decision: " + e.stack + "\n");
		status = 2;
	}
	clearTimeout(c.watchdog);
	await c.cleanup();
	process.exit(status);
})();
