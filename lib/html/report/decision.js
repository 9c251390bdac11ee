// decision.js: the decisions' data (summary.v, columns by verdict), the
// words of a key, and the suite overview.
	/* Decisions: a verdict i is column i of summary.v */

	var S = summary ? summary.str : [];

	function str(id) {
		return id === null || id === undefined ? "" : S[id];
	}

	function className(i) {
		return summary.classes[summary.v.cls[i]];
	}

	function levelText(i) {
		return summary.v.level[i] === null ? "" : "level " +
		    summary.v.level[i];
	}

	/* "suite test operation metric [level N]" */
	function keyText(i, level) {
		var v = summary.v, s = [v.suite, v.test, v.operation,
		    v.metric].map(function (c) {
			return str(c[i]) || "-";
		}).join(" ");

		return level && v.level[i] !== null ? s + " level " +
		    v.level[i] : s;
	}

	function pairText(i) {
		return (str(summary.v.base[i]) || "-") + " \u2192 " +
		    (str(summary.v.target[i]) || "-");
	}

	/* The verdicts of the test of verdict i (its versions, experiment,
	 * suite and test), by operation, metric and level. */
	function testOf(i) {
		var v = summary.v, out = [], j;

		for (j = 0; j < v.cls.length; j++)
			if (v.base[j] === v.base[i] &&
			    v.target[j] === v.target[i] &&
			    v.experiment[j] === v.experiment[i] &&
			    v.suite[j] === v.suite[i] && v.test[j] === v.test[i])
				out.push(j);
		out.sort(function (a, b) {
			return str(v.operation[a]).localeCompare(
			    str(v.operation[b])) ||
			    str(v.metric[a]).localeCompare(str(v.metric[b])) ||
			    (v.level[a] === null ? -1 : v.level[a]) -
			    (v.level[b] === null ? -1 : v.level[b]);
		});
		return out;
	}

	/* The run values of side key s: [{ run, value }]. */
	function runsOf(s) {
		var sk = summary.sk, off;

		if (s < 0)
			return [];
		if (!sk.off) {		/* where each side key's values start */
			sk.off = new Int32Array(sk.n.length + 1);
			for (off = 0; off < sk.n.length; off++)
				sk.off[off + 1] = sk.off[off] + sk.n[off];
		}
		var out = [], j;
		for (j = sk.off[s]; j < sk.off[s + 1]; j++)
			out.push({ run: sk.run[j], value: sk.val[j] });
		return out;
	}

	/* The sections of a side of verdict i: its version, experiment and
	 * level (a section without a level: any). */
	function sectionsOf(i, side) {
		var v = summary.v, ver = side ? v.target[i] : v.base[i];

		return summary.sect.filter(function (s) {
			return s[1] === ver && s[2] === v.experiment[i] &&
			    (s[3] === null || v.level[i] === null ||
			    s[3] === v.level[i]);
		});
	}

	/* Suites: per version pair and suite, the counts and the worst. */

	var suites = { built: false };

	function suitesBuild() {
		var v = summary.v, by = new Map(), rows = [], i, k, r;

		for (i = 0; i < v.cls.length; i++) {
			k = v.base[i] + " " + v.target[i] + " " + v.suite[i];
			r = by.get(k);
			if (!r) {
				r = { pair: pairText(i), suite: str(v.suite[i]) ||
				    "-", n: 0, reg: 0, imp: 0, same: 0, unc: 0,
				    worst: null, tests: new Map(), first: i };
				by.set(k, r);
				rows.push(r);
			}
			r.n++;
			r.reg += v.cls[i] === 0;
			r.imp += v.cls[i] === 1;
			r.same += v.cls[i] === 2;
			r.unc += v.cls[i] === 3;
			if (v.ch[i] !== null && (r.worst === null ||
			    v.ch[i] < r.worst))
				r.worst = v.ch[i];
			var t = r.tests.get(v.test[i]);
			if (!t) {
				t = { test: str(v.test[i]) || "-", n: 0, reg: 0,
				    imp: 0, same: 0, unc: 0, worst: null, first: i };
				r.tests.set(v.test[i], t);
			}
			t.n++;
			t.reg += v.cls[i] === 0;
			t.imp += v.cls[i] === 1;
			t.same += v.cls[i] === 2;
			t.unc += v.cls[i] === 3;
			if (v.ch[i] !== null && (t.worst === null ||
			    v.ch[i] < t.worst))
				t.worst = v.ch[i];
		}
		return rows;
	}

	var SUITE_COLS = [
		["pair", "Versions", false], ["suite", "Suite", false],
		["n", "Comparisons", true], ["reg", "Regressions", true],
		["imp", "Improvements", true], ["same", "No change", true],
		["unc", "Uncertain", true], ["worst", "Worst change", true]
	];

	function sortRows(rows, key, num, dir) {
		rows.sort(function (a, b) {
			var x = a[key], y = b[key];

			if (x === y)
				return 0;
			if (x === null)
				return 1;
			if (y === null)
				return -1;
			return (num ? x - y : String(x).localeCompare(String(y)))
			    * dir;
		});
	}

	function suitesShow() {
		var box = document.getElementById("suites"), t, tb;

		if (suites.built)
			return;
		suites.built = true;
		suites.rows = suitesBuild();
		t = el("table", "funcs sortable");
		t.id = "suite-table";
		t.dir = -1;
		function render() {
			tb.textContent = "";
			suites.rows.forEach(function (r) {
				var tr = el("tr"), b;

				SUITE_COLS.forEach(function (c) {
					var td = el("td", c[2] ? "num" : "");

					if (c[0] === "suite") {
						b = el("button", "link", r.suite);
						b.type = "button";
						b.addEventListener("click",
						    function () {
							testsShow(r);
						});
						td.appendChild(b);
					} else {
						td.textContent = c[0] === "worst" ?
						    change(r.worst) : r[c[0]];
					}
					if (c[0] === "reg" && r.reg > 0)
						td.className += " up";
					tr.appendChild(td);
				});
				tb.appendChild(tr);
			});
		}
		t.appendChild(sortHead(t, SUITE_COLS, function (key, num) {
			t.dir = t.key === key ? -t.dir : num ? -1 : 1;
			t.key = key;
			sortRows(suites.rows, key, num, t.dir);
			render();
		}));
		tb = el("tbody");
		t.appendChild(tb);
		sortRows(suites.rows, "reg", true, -1);
		render();
		box.appendChild(el("p", "legend", "Click a column to sort by " +
		    "it, a suite to list its tests."));
		box.appendChild(t);
		suites.tests = el("div");
		suites.tests.id = "suite-tests";
		box.appendChild(suites.tests);
	}

	function testsShow(r) {
		var box = suites.tests, t, tb, rows = Array.from(r.tests.values());

		box.textContent = "";
		box.appendChild(el("h3", "", "Tests of " + r.suite + " (" +
		    r.pair + ")"));
		t = el("table", "funcs");
		t.id = "test-table";
		tb = el("tbody");
		sortRows(rows, "worst", true, 1);
		rows.forEach(function (x) {
			var tr = el("tr"), td = el("td");

			td.appendChild(link("#test=" + x.first, x.test, "key"));
			tr.appendChild(td);
			[x.n, x.reg, x.imp, x.same, x.unc, change(x.worst)].forEach(
			    function (c) {
				tr.appendChild(el("td", "num", c));
			});
			tb.appendChild(tr);
		});
		var h = el("tr");
		["Test", "Comparisons", "Regressions", "Improvements",
		    "No change", "Uncertain", "Worst change"].forEach(
		    function (c, i) {
			h.appendChild(el("th", i ? "num" : "", c)).scope = "col";
		});
		t.appendChild(el("thead")).appendChild(h);
		t.appendChild(tb);
		box.appendChild(t);
		box.scrollIntoView();
	}
