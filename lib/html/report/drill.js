// drill.js: the test page: every key of a test across its levels, a forest
// plot of their changes with intervals, the run values of both sides as
// strip plots, their flags and reasons.
	/* The test page */

	var CLS_COLOUR = ["#b3261e", "#1f7a3a", "#777", "#c77700"];

	function axisTicks(lo, hi, n) {
		var step = Math.pow(10, Math.floor(Math.log10((hi - lo) / n))),
		    t = [], x;

		if (!(hi > lo))
			return [lo];
		[1, 2, 5, 10].some(function (m) {
			if ((hi - lo) / (step * m) <= n) {
				step *= m;
				return true;
			}
			return false;
		});
		for (x = Math.ceil(lo / step) * step; x <= hi + 1e-12; x += step)
			t.push(Math.abs(x) < step / 1e6 ? 0 : x);
		return t;
	}

	/* The forest plot of the changes of rows[] (verdicts), in percent. */
	function forest(rows, focus) {
		var v = summary.v, W = 640, L = 90, R = 20, RH = 22, H, s, lo = 0,
		    hi = 0, x, y;

		rows.forEach(function (i) {
			[v.lo[i], v.hi[i], v.ch[i]].forEach(function (c) {
				if (c !== null) {
					lo = Math.min(lo, 100 * (Math.exp(c) - 1));
					hi = Math.max(hi, 100 * (Math.exp(c) - 1));
				}
			});
		});
		if (hi - lo < 1) {
			lo -= 0.5;
			hi += 0.5;
		}
		H = rows.length * RH + 30;
		x = function (p) {
			return L + (p - lo) / (hi - lo) * (W - L - R);
		};
		s = svg("svg", { width: W, height: H, viewBox: "0 0 " + W + " " +
		    H, role: "img", "class": "forest" });
		s.appendChild(svg("title", {})).textContent = "changes by level," +
		    " with their intervals (worse is negative)";
		axisTicks(lo, hi, 6).forEach(function (t) {
			s.appendChild(svg("line", { x1: x(t), x2: x(t), y1: 4,
			    y2: H - 22, "class": t === 0 ? "zero" : "grid" }));
			var tx = svg("text", { x: x(t), y: H - 8,
			    "text-anchor": "middle", "class": "tick" });

			tx.textContent = (t > 0 ? "+" : "") + fixed(t, 3) + "%";
			s.appendChild(tx);
		});
		rows.forEach(function (i, r) {
			var g = svg("g", { "class": "frow" + (i === focus ?
			    " focus" : "") }), c = CLS_COLOUR[v.cls[i]], t;

			y = 10 + r * RH + RH / 2;
			t = svg("text", { x: 4, y: y + 4, "class": "lab" });
			t.textContent = levelText(i) || "-";
			g.appendChild(t);
			if (v.lo[i] !== null && v.hi[i] !== null)
				g.appendChild(svg("line", {
				    x1: x(100 * (Math.exp(v.lo[i]) - 1)),
				    x2: x(100 * (Math.exp(v.hi[i]) - 1)),
				    y1: y, y2: y, stroke: c, "stroke-width": 2 }));
			if (v.ch[i] !== null)
				g.appendChild(svg("circle", {
				    cx: x(100 * (Math.exp(v.ch[i]) - 1)), cy: y,
				    r: 4.5, fill: c }));
			g.appendChild(svg("title", {})).textContent =
			    keyText(i, true) + "\n" + className(i) + " " +
			    change(v.ch[i]) + " " + interval(v.lo[i], v.hi[i]);
			g.addEventListener("click", function () {
				location.hash = "#instance=" + i;
			});
			s.appendChild(g);
		});
		return s;
	}

	/* The run values of both sides of each row, one strip a side. */
	function strips(rows) {
		var v = summary.v, W = 640, L = 90, R = 20, RH = 16, s, H;

		H = rows.length * (2 * RH + 10) + 10;
		s = svg("svg", { width: W, height: H, viewBox: "0 0 " + W + " " +
		    H, role: "img", "class": "strip" });
		s.appendChild(svg("title", {})).textContent = "the run values " +
		    "of the baseline and the target, by level";
		rows.forEach(function (i, r) {
			var b = runsOf(v.bs[i]), t = runsOf(v.ts[i]), lo, hi,
			    y0 = 6 + r * (2 * RH + 10), all = b.concat(t), tx;

			if (all.length === 0) {
				tx = svg("text", { x: L, y: y0 + RH + 4,
				    "class": "tick" });
				tx.textContent = "no run values in the input";
				s.appendChild(tx);
				return;
			}
			lo = Math.min.apply(null, all.map(function (e) {
				return e.value;
			}));
			hi = Math.max.apply(null, all.map(function (e) {
				return e.value;
			}));
			if (!(hi > lo)) {
				lo -= 0.5;
				hi += 0.5;
			}
			function x(val) {
				return L + (val - lo) / (hi - lo) * (W - L - R);
			}
			tx = svg("text", { x: 4, y: y0 + RH + 4, "class": "lab" });
			tx.textContent = levelText(i) || "-";
			s.appendChild(tx);
			[[b, "s-base", 0], [t, "s-target", RH]].forEach(function (q) {
				s.appendChild(svg("line", { x1: L, x2: W - R,
				    y1: y0 + q[2] + RH / 2, y2: y0 + q[2] + RH / 2,
				    "class": "grid" }));
				q[0].forEach(function (e) {
					var c = svg("circle", { cx: x(e.value),
					    cy: y0 + q[2] + RH / 2, r: 3.5,
					    "class": q[1] });

					c.appendChild(svg("title", {})).textContent =
					    (q[2] ? "target" : "baseline") +
					    " run " + e.run + ": " + fixed(e.value, 6) +
					    " " + str(v.unit[i]);
					s.appendChild(c);
				});
			});
			[[lo, "start"], [hi, "end"]].forEach(function (q) {
				var e = svg("text", { x: q[1] === "start" ? L :
				    W - R, y: y0 + 2 * RH + 8, "text-anchor": q[1],
				    "class": "tick" });

				e.textContent = fixed(q[0], 4) + " " +
				    str(v.unit[i]);
				s.appendChild(e);
			});
		});
		return s;
	}

	function verdictRows(rows, focus) {
		var v = summary.v, t = el("table", "funcs verdicts"), tb, h;

		h = el("tr");
		["Level", "Class", "Severity", "Change", "Interval", "q-value",
		    "Runs", "Flags", "Reason", ""].forEach(function (c) {
			h.appendChild(el("th", "", c)).scope = "col";
		});
		t.appendChild(el("thead")).appendChild(h);
		tb = el("tbody");
		rows.forEach(function (i) {
			var tr = el("tr", "cls-" + className(i) + (i === focus ?
			    " focus" : "")), td;

			tr.dataset.v = String(i);
			[levelText(i) || "-", className(i) + (v.band[i] ? " (" +
			    summary.bands[v.band[i]] + ")" : ""), v.sev[i],
			    change(v.ch[i]), interval(v.lo[i], v.hi[i]),
			    fixed(v.q[i], 2), v.nb[i] + "/" + v.nt[i],
			    v.flags[i] || "-", str(v.reason[i])].forEach(
			    function (c) {
				tr.appendChild(el("td", "", c));
			});
			td = el("td");
			td.appendChild(link("#instance=" + i, "runs and facts"));
			tr.appendChild(td);
			tb.appendChild(tr);
		});
		t.appendChild(tb);
		return t;
	}

	var drill = { box: document.getElementById("test"), at: -1 };

	drill.show = function (i) {
		var v = summary.v, box = this.box, rows, groups = [], g = null;

		this.at = i;
		box.textContent = "";
		box.appendChild(el("h2", "", "Test: " + (str(v.suite[i]) || "-") +
		    " " + (str(v.test[i]) || "-")));
		box.appendChild(el("p", "legend", pairText(i) + ", experiment " +
		    (str(v.experiment[i]) || "-") + ": every key of the test, " +
		    "by level; click a level for its runs."));
		rows = testOf(i);
		rows.forEach(function (j) {
			if (!g || v.operation[j] !== v.operation[g[0]] ||
			    v.metric[j] !== v.metric[g[0]] ||
			    v.unit[j] !== v.unit[g[0]]) {
				g = [];
				groups.push(g);
			}
			g.push(j);
		});
		groups.forEach(function (gr) {
			var j = gr[0], sec = el("div", "key-group");

			sec.appendChild(el("h3", "", (str(v.operation[j]) || "-") +
			    " " + (str(v.metric[j]) || "-") + " (" +
			    (str(v.unit[j]) || "no unit") + ", " +
			    (v.dir[j] ? "lower" : "higher") + " is better)"));
			sec.appendChild(forest(gr, i));
			sec.appendChild(strips(gr));
			sec.appendChild(verdictRows(gr, i));
			box.appendChild(sec);
		});
		hook.test = { focus: i, rows: rows.length, groups: groups.length };
	};
