// trend.js: the trend page: a key across the versions the input holds
// (pv-stat's median and its interval for each), the baseline and the
// target of a verdict marked, and pv-series' change points, outliers and
// trends where the input has them, drawn and said as text.
	/* The trend page */

	var trend = { box: document.getElementById("trend") };

	/* The marks of trend T, pv-series' records as summary.cp holds them:
	 * { kind: "cp" | "outlier" | "trend", a, b: versions, ch, lo, hi, p,
	 * trend: T, txt: what the summary says of it }. */
	function marksOf(T) {
		return summary.cp.filter(function (c) {
			return c.trend === T;
		});
	}

	/* "suite test operation metric [level N]" of trend T */
	function seriesKeyText(T) {
		var k = summary.tkey[T];

		return [k[1], k[2], k[3], k[4]].map(function (id) {
			return str(id) || "-";
		}).join(" ") + (k[7] !== null ? " level " + k[7] : "");
	}

	/* A verdict's trend, its baseline and target marked. */
	trend.show = function (i) {
		this.draw(summary.v.trend[i], i);
	};

	/* Trend T alone (#series=T), as pv-series' output gives it. */
	trend.showSeries = function (T) {
		this.draw(T, -1);
	};

	trend.draw = function (T, i) {
		var v = summary.v, sk = summary.sk, box = this.box, pts, W, H,
		    L = 70, R = 20, top = 20, bottom = 70, s, lo, hi, x, y, marks,
		    drawn = [], at, key, ul;

		box.textContent = "";
		box.appendChild(el("h2", "", "Trend: " + (i >= 0 ?
		    keyText(i, true) : seriesKeyText(T))));
		if (T === undefined || T < 0) {
			box.appendChild(el("p", "none", "The input holds this " +
			    "key on fewer than three versions."));
			return;
		}
		key = summary.tkey[T];
		pts = summary.trends[T].map(function (k) {
			return { k: k, vid: sk.version[k],
			    version: str(sk.version[k]), med: sk.med[k],
			    lo: sk.lo[k], hi: sk.hi[k], n: sk.nstat[k],
			    base: i >= 0 && sk.version[k] === v.base[i],
			    target: i >= 0 && sk.version[k] === v.target[i] };
		});
		box.appendChild(el("p", "legend", "The median of each version " +
		    "with its interval (pv-stat), in " + (str(key[5]) ||
		    "no unit") + ", " + (key[6] ? "lower" : "higher") +
		    " is better" + (i >= 0 ? "; the baseline (" +
		    (str(v.base[i]) || "-") + ") and the target (" +
		    (str(v.target[i]) || "-") + ") marked." : ".")));
		lo = Math.min.apply(null, pts.map(function (p) {
			return p.lo === null ? p.med : p.lo;
		}));
		hi = Math.max.apply(null, pts.map(function (p) {
			return p.hi === null ? p.med : p.hi;
		}));
		if (!(hi > lo)) {
			lo -= 0.5;
			hi += 0.5;
		}
		W = Math.max(640, Math.min(1200, 60 * pts.length + L + R));
		H = 300;
		x = function (k) {
			return L + (pts.length > 1 ? k / (pts.length - 1) : 0.5) *
			    (W - L - R);
		};
		y = function (val) {
			return top + (hi - val) / (hi - lo) * (H - top - bottom);
		};
		s = svg("svg", { width: W, height: H, viewBox: "0 0 " + W + " " +
		    H, role: "img", "class": "trendplot" });
		s.appendChild(svg("title", {})).textContent = "the key across " +
		    "versions";
		axisTicks(lo, hi, 5).forEach(function (t) {
			var tx = svg("text", { x: L - 6, y: y(t) + 4,
			    "text-anchor": "end", "class": "tick" });

			s.appendChild(svg("line", { x1: L, x2: W - R, y1: y(t),
			    y2: y(t), "class": "grid" }));
			tx.textContent = fixed(t, 4);
			s.appendChild(tx);
		});
		/* pv-series' marks: a change point between the version before
		 * and after it, an outlier at its version, a trend's line over
		 * FIRST..LAST (its change a version, from FIRST's median) */
		at = function (id) {
			var k;

			for (k = 0; k < pts.length; k++)
				if (pts[k].vid === id)
					return k;
			return -1;
		};
		marks = marksOf(T);
		marks.forEach(function (c) {
			var a = at(c.a), b = c.kind === "outlier" ? a : at(c.b),
			    xm, tx, r;

			if (a < 0 || b < 0)
				return;
			if (c.kind === "cp") {
				xm = (x(a) + x(b)) / 2;
				s.appendChild(svg("line", { x1: xm, x2: xm,
				    y1: top - 10, y2: H - bottom, "class": "cp",
				    "data-between": pts[a].version + " " +
				    pts[b].version }));
				tx = svg("text", { x: xm + 4, y: top - 4,
				    "class": "cpl" });
				tx.textContent = "change point " + change(c.ch);
				s.appendChild(tx);
			} else if (c.kind === "outlier") {
				s.appendChild(svg("circle", { cx: x(a),
				    cy: y(pts[a].med), r: 10, "class": "outl",
				    "data-at": pts[a].version }));
			} else {
				/* worse is negative: lower-is-better grows */
				r = Math.exp((key[6] ? -1 : 1) * c.ch * (b - a));
				s.appendChild(svg("line", { x1: x(a), x2: x(b),
				    y1: y(pts[a].med), y2: y(pts[a].med * r),
				    "class": "tfit", "data-over": pts[a].version +
				    " " + pts[b].version }));
			}
			drawn.push({ kind: c.kind, a: pts[a].version,
			    b: pts[b].version, txt: c.txt });
		});
		var path = "";
		pts.forEach(function (p, k) {
			path += (k ? " L" : "M") + x(k) + "," + y(p.med);
		});
		s.appendChild(svg("path", { d: path, "class": "tline" }));
		pts.forEach(function (p, k) {
			var g = svg("g", { "class": "tpt" + (p.base ? " base" : "") +
			    (p.target ? " target" : "") }), tx;

			if (p.lo !== null && p.hi !== null)
				g.appendChild(svg("line", { x1: x(k), x2: x(k),
				    y1: y(p.lo), y2: y(p.hi), "class": "whisker" }));
			g.appendChild(svg("circle", { cx: x(k), cy: y(p.med),
			    r: p.base || p.target ? 6 : 4 }));
			g.appendChild(svg("title", {})).textContent = p.version +
			    ": median " + fixed(p.med, 6) + " [" + fixed(p.lo, 6) +
			    ", " + fixed(p.hi, 6) + "], " + p.n + " runs";
			tx = svg("text", { x: x(k), y: H - bottom + 14,
			    "text-anchor": "end", transform: "rotate(-35 " +
			    x(k) + " " + (H - bottom + 14) + ")",
			    "class": "tick" + (p.base || p.target ? " mark" :
			    "") });
			tx.textContent = cut(p.version, 18) + (p.base ?
			    " (baseline)" : p.target ? " (target)" : "");
			g.appendChild(tx);
			s.appendChild(g);
		});
		box.appendChild(s);
		/* the marks as text: what each is, and the legend of shapes */
		if (drawn.length > 0) {
			box.appendChild(el("p", "legend", "Marks of pv-series: a " +
			    "dashed red line between the two versions of a " +
			    "change point, a ring around an outlier, a dotted " +
			    "line over a trend."));
			ul = el("ul", "trend-marks");
			ul.id = "trend-marks";
			drawn.forEach(function (d) {
				ul.appendChild(el("li", "mark-" + d.kind, d.txt));
			});
			box.appendChild(ul);
		}
		hook.trend = { v: i, series: T, points: pts.length,
		    changePoints: drawn.filter(function (d) {
			return d.kind === "cp";
		    }).length, marks: drawn, marked: pts.filter(function (p) {
			return p.base || p.target;
		    }).length };
	};
