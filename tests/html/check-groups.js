/*
 * check-groups.js: the roll-ups of a pv-render HTML report in headless
 * Chromium: the group tables of every kind, their sorting, the treemap,
 * and a click on a group that filters the flame graphs to the stacks
 * touching it.
 *
 *   node check-groups.js CHROMIUM REPORT.html GROUP FUNCTION OTHER
 *
 * GROUP is a file group whose stacks FUNCTION is in and OTHER is not (the
 * planted pair: src/parse/lexer.c, token_checksum, eval_binop).  Output as
 * check-report.js: "ok" or "not ok" per check, then "N passed, N failed";
 * exit 0 when all passed, 1 otherwise, 2 on trouble.
 */
"use strict";

const cdp = require("./cdp.js");

const [chromium, report, group, func, other] = process.argv.slice(2);
if (!chromium || !report || !group || !func || !other) {
	process.stderr.write("usage: node check-groups.js CHROMIUM " +
	    "REPORT.html GROUP FUNCTION OTHER\n");
	process.exit(2);
}

const c = cdp.start(chromium);
const evaluate = c.evaluate, clickElement = c.clickElement;
const T = cdp.checker(), check = T.check;
const ready = "!!(window.pvReport && pvReport.table && pvReport.groups &&" +
    " pvReport.groups.tables.length > 0 && pvReport.firstDraw > 0)";

/* the names drawn in a graph, and its root's weights */
function graph(mode) {
	return evaluate("(function () { var g = pvReport.graphs." + mode +
	    ", m = g.model; return { names: g.rects.filter(function (r) {" +
	    " return !r.merged; }).map(function (r) { return m.label(r.i);" +
	    " }), b: m.b[0], t: m.t[0] }; })()");
}

/* the rows of the table of a kind, as shown: name and a column's text */
function rows(kind, col) {
	return evaluate("Array.prototype.map.call(document.querySelectorAll(" +
	    "'#group-table-" + kind + " tbody tr'), function (r) { return [" +
	    "r.cells[0].textContent, r.cells[" + col + "].textContent]; })");
}

function row(kind, name) {
	return evaluate("(function () { var t = pvReport.groups.tables" +
	    ".filter(function (t) { return t.name === '" + kind + "'; })[0];" +
	    " var r = t.rows.filter(function (r) { return r.name === " +
	    JSON.stringify(name) + "; })[0]; return r ? { ib: r.ib, it: r.it," +
	    " g: r.g } : null; })()");
}

async function checks() {
	check(await c.open(report, ready), "the report loads and draws");

	const kinds = await evaluate("Array.prototype.map.call(document" +
	    ".querySelectorAll('table.groups'), function (t) { return t.id; })");
	check(kinds.join(" ") === "group-table-space group-table-module " +
	    "group-table-file group-table-subsystem",
	    "a table for each kind of group", kinds.join(" "));

	let r = await rows("file", 0);
	check(r.length > 2 && r[0][0] === group,
	    "the file table in pv-diff's order, " + group + " first",
	    r.map((x) => x[0]).join(", "));

	/* sorting: a head sorts its column, again reverses it */
	const num = (s) => s === "-" ? NaN : Number(s.replace("\u2212", "-")
	    .replace(/[^0-9.+-]/g, ""));
	const sorted = (v, dir) => v.every((x, i) => i === 0 ||
	    dir * (x - v[i - 1]) >= 0);
	await clickElement("#group-table-file th[data-key=peb]");
	r = (await rows("file", 2)).map((x) => num(x[1]));
	check(sorted(r, -1) && await evaluate("document.querySelector(" +
	    "'#group-table-file th[data-key=peb]').getAttribute('aria-sort')" +
	    " === 'descending'"), "a click on a head sorts by it, descending",
	    r.join(" "));
	await clickElement("#group-table-file th[data-key=peb]");
	r = (await rows("file", 2)).map((x) => num(x[1]));
	check(sorted(r, 1), "a second click sorts ascending", r.join(" "));
	await clickElement("#group-table-file th[data-key=name]");
	r = (await rows("file", 0)).map((x) => x[0]);
	check(r.every((x, i) => i === 0 || r[i - 1] <= x),
	    "the name head sorts by name", r.join(", "));

	/* the treemap: a tile per file with target exclusive time */
	const tiles = await evaluate("document.querySelectorAll(" +
	    "'#group-map g.tile').length");
	const want = await evaluate("pvReport.groups.tables.filter(function " +
	    "(t) { return t.name === 'file'; })[0].rows.filter(function (r) " +
	    "{ return r.pet > 0; }).length");
	check(tiles > 1 && tiles === want, "the treemap has a tile per file " +
	    "with exclusive time in the target", tiles + " of " + want);

	/* a click on the group filters every flame graph to its stacks */
	const all = await graph("target");
	const g = await row("file", group);
	const buttons = await evaluate("Array.prototype.map.call(document" +
	    ".querySelectorAll('#group-table-file tbody button'), function " +
	    "(b) { return b.textContent; })");
	await clickElement("#group-table-file tbody tr:nth-child(" +
	    (buttons.indexOf(group) + 1) + ") button");
	for (const mode of ["target", "base", "diff"]) {
		const f = await graph(mode);

		check(f.t === g.it && f.b === g.ib,
		    "filtered to " + group + ": the " + mode + " graph's total " +
		    "is the group's inclusive count", JSON.stringify([f.t, f.b,
		    g.it, g.ib]));
		if (mode !== "base")
			check(f.names.includes(func) && !f.names.includes(other),
			    "the " + mode + " graph shows " + func + ", not " +
			    other, f.names.join(", "));
	}
	check(/touching file/.test(await evaluate("document.getElementById(" +
	    "'group-filter').textContent")), "the page says what it shows");

	/* a tile of another group filters to it instead */
	const o = await evaluate("(function () { var t = pvReport.groups" +
	    ".tiles.filter(function (t) { return t.r.name !== " +
	    JSON.stringify(group) + " && t.w > 20 && t.h > 20; })[0]; " +
	    "return t ? t.r.name : null; })()");
	if (o !== null) {
		const idx = await evaluate("pvReport.groups.tiles.map(function " +
		    "(t) { return t.r.name; }).indexOf(" + JSON.stringify(o) +
		    ")");
		await clickElement("#group-map g.tile:nth-of-type(" + (idx + 1) +
		    ") rect");
		const f = await graph("target"), og = await row("file", o);
		check(f.t === og.it && f.b === og.ib,
		    "a click on the tile of " + o + " filters to it",
		    JSON.stringify([f.t, og.it]));
	} else {
		check(false, "a second tile to click");
	}

	await clickElement("#group-clear");
	const back = await graph("target");
	check(back.t === all.t && back.b === all.b &&
	    back.names.length === all.names.length,
	    "'Show every stack' brings every stack back");

	check(c.errors.length === 0, "no console error or exception",
	    c.errors.join(" | "));
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
		process.stderr.write("check-groups: " + e.stack + "\n");
		status = 2;
	}
	clearTimeout(c.watchdog);
	await c.cleanup();
	process.exit(status);
})();
