/*
 * check-series.js: open pv-render's report of a series of versions
 * (tests/tools/pv-render-series-browser.sh: examples/series.sh's store,
 * and tests/data/pv-series/series.in) in headless Chromium and check from
 * the page that pv-series' marks are drawn where they belong: the summary
 * lists them as text, a click opens the key's trend, a change point's line
 * lies between the versions before and after it, an outlier's ring at its
 * version, a trend's line over its versions, the legend says each mark
 * as the summary does; no request
 * leaves the page.
 *
 *   node check-series.js CHROMIUM STORE.html SERIES.html [SCREENSHOT]
 *
 * Prints "ok" or "not ok" a check and "N passed, N failed"; exit 0 when
 * all passed, 1 otherwise, 2 on trouble.
 */
"use strict";

const path = require("path");
const cdp = require("./cdp.js");

const [chromium, store, series, shot] = process.argv.slice(2);
if (!chromium || !store || !series) {
	process.stderr.write("usage: node check-series.js CHROMIUM " +
	    "STORE.html SERIES.html [SCREENSHOT]\n");
	process.exit(2);
}

const c = cdp.start(chromium);
const { requests, errors, dialogs } = c;
const evaluate = c.evaluate;
const T = cdp.checker(), check = T.check;
const texts = (sel) => evaluate("Array.prototype.map.call(document." +
    "querySelectorAll(" + JSON.stringify(sel) + "), function (e) " +
    "{ return e.textContent; })");

/* the centres of the trend's points, by version, and the marks' places */
const geometry = () => evaluate("(function () { var p = {}, m = [];" +
    "Array.prototype.forEach.call(document.querySelectorAll(" +
    "'#trend svg.trendplot g.tpt'), function (g) { p[g.querySelector(" +
    "'text').textContent.replace(/ \\(.*/, '')] = Number(g.querySelector(" +
    "'circle').getAttribute('cx')); });" +
    "Array.prototype.forEach.call(document.querySelectorAll(" +
    "'#trend svg.trendplot line.cp, #trend svg.trendplot circle.outl')," +
    "function (e) { m.push(e.tagName === 'line' ? { kind: 'cp', x: " +
    "Number(e.getAttribute('x1')), at: e.dataset.between } : { kind: " +
    "'outlier', x: Number(e.getAttribute('cx')), at: e.dataset.at }); });" +
    "return { points: p, marks: m }; })()");

const between = (g, a, b, x) => g.points[a] !== undefined &&
    g.points[b] !== undefined && g.points[a] < x && x < g.points[b];

async function checks() {
	/* the store of twelve nightly versions, a step at v6.7 */
	check(await c.open(store, "!!(window.pvReport && " +
	    "pvReport.firstScreen > 0)"), "the series report loads");
	const items = await texts("#series-list li");
	/* and an outlier: the version of sysbench's bimodal p95 latency
	 * whose five runs all fell in the fast mode */
	check(items.length === 2 && /^will-it-scale futex1 processes throughput level 1: change point between v6\.6 and v6\.7: -[0-9]+\.[0-9]{2}% \[-[0-9]+\.[0-9]{2}%, -[0-9]+\.[0-9]{2}%\], p /
	    .test(items[0]) && items[1].startsWith("sysbench cpu latency " +
	    "latency-p95 level 2: outlier at v6.3: "),
	    "the summary says the change point (and an outlier) as text",
	    items.join(" | "));
	await c.clickElement("#series-list li a.key");
	check(await c.waitFor("pvReport.page === 'trend' && " +
	    "!!pvReport.trend && pvReport.trend.series >= 0", 5000) &&
	    (await evaluate("pvReport.trend.points")) === 12,
	    "a click on it opens the key's trend across the 12 versions",
	    JSON.stringify(await evaluate("pvReport.trend")));
	let g = await geometry();
	check(g.marks.length === 1 && g.marks[0].at === "v6.6 v6.7" &&
	    between(g, "v6.6", "v6.7", g.marks[0].x),
	    "the change point is drawn between v6.6 and v6.7",
	    JSON.stringify(g));
	const legend = await texts("#trend-marks li");
	check(legend.length === 1 && items[0].endsWith(": " + legend[0]) &&
	    legend[0].startsWith("change point between v6.6 and v6.7: "),
	    "the trend's legend says the mark as text", legend.join(" | "));
	if (shot)
		await c.screenshot(shot);

	/* pv-series' own test series: two change points and an outlier */
	check(await c.open(series, "!!(window.pvReport && " +
	    "pvReport.firstScreen > 0)"), "the second series report loads");
	const all = await texts("#series-list li");
	check(all.length === 4 && all[2].startsWith("wis getppid1 ops ops " +
	    "level 2: outlier at v6.9: ") && all[3] === "unixbench pipe " +
	    "throughput lps level 1: trend from v6.3 to v6.10: -0.50% a " +
	    "version [-0.60%, -0.40%], p 0.001", "change points first, then " +
	    "the outlier, then the trend", all.join(" | "));
	await c.clickElement("#series-list li:nth-child(3) a.key");
	await c.waitFor("pvReport.page === 'trend' && !!pvReport.trend", 5000);
	g = await geometry();
	check(g.marks.length === 1 && g.marks[0].kind === "outlier" &&
	    g.marks[0].at === "v6.9" && g.marks[0].x === g.points["v6.9"],
	    "the outlier's ring is drawn at v6.9", JSON.stringify(g));
	await c.clickElement("#tabs a");
	await evaluate("location.hash = '#series-list'");
	await c.clickElement("#series-list li:nth-child(2) a.key");
	await c.waitFor("pvReport.page === 'trend' && !!pvReport.trend && " +
	    "pvReport.trend.changePoints === 1", 5000);
	g = await geometry();
	check(g.marks.length === 1 && g.marks[0].at === "v6.4 v6.5" &&
	    between(g, "v6.4", "v6.5", g.marks[0].x),
	    "the second key's change point is drawn between v6.4 and v6.5",
	    JSON.stringify(g));

	await evaluate("location.hash = '#series-list'");
	await c.clickElement("#series-list li:nth-child(4) a.key");
	await c.waitFor("pvReport.page === 'trend' && !!pvReport.trend && " +
	    "pvReport.trend.marks.length === 1 && " +
	    "pvReport.trend.marks[0].kind === 'trend'", 5000);
	const line = await evaluate("(function () { var l = document." +
	    "querySelector('#trend svg.trendplot line.tfit'); return l ? " +
	    "[l.dataset.over, Number(l.getAttribute('x1')), Number(l." +
	    "getAttribute('x2')), Number(l.getAttribute('y1')), Number(l." +
	    "getAttribute('y2'))] : null; })()");
	g = await geometry();
	check(line !== null && line[0] === "v6.3 v6.10" &&
	    line[1] === g.points["v6.3"] && line[2] === g.points["v6.10"] &&
	    line[4] > line[3], "the trend's line runs from v6.3 to v6.10, " +
	    "downwards for a higher-is-better key getting worse",
	    JSON.stringify(line) + " " + JSON.stringify(g.points));

	check(dialogs.length === 0, "no dialog opened", dialogs.join(" | "));
	check(errors.length === 0, "no console error or warning",
	    errors.join(" | "));
	const outside = requests.filter((u) => !u.startsWith("file://") ||
	    !u.endsWith(path.basename(series)));
	check(outside.length === 0, "no request leaves the page",
	    outside.join(", "));
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
		process.stderr.write("check-series: " + e.stack + "\n");
		status = 2;
	}
	clearTimeout(c.watchdog);
	await c.cleanup();
	process.exit(status);
})();
