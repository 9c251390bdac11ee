// trend.js: the trend page: a key across the versions the input holds
// (pv-stat's median and its interval for each), the baseline and the
// target marked, and pv-series' change points where the input has them.
	/* The trend page */

	var trend = { box: document.getElementById("trend") };

	/* The change points of verdict i's key (pv-series), as summary.cp
	 * holds them: { key: [experiment ... level], before, after, change }. */
	function changePoints(i) {
		var v = summary.v;

		return summary.cp.filter(function (c) {
			return c.experiment === v.experiment[i] &&
			    c.suite === v.suite[i] && c.test === v.test[i] &&
			    c.operation === v.operation[i] &&
			    c.metric === v.metric[i] && c.unit === v.unit[i] &&
			    c.dir === v.dir[i] && c.level === v.level[i];
		});
	}

	trend.show = function (i) {
		var v = summary.v, sk = summary.sk, box = this.box, T, pts, W, H,
		    L = 70, R = 20, top = 20, bottom = 70, s, lo, hi, x, y, cps;

		box.textContent = "";
		box.appendChild(el("h2", "", "Trend: " + keyText(i, true)));
		T = v.trend[i];
		if (T < 0) {
			box.appendChild(el("p", "none", "The input holds this " +
			    "key on fewer than three versions."));
			return;
		}
		pts = summary.trends[T].map(function (k) {
			return { k: k, version: str(sk.version[k]),
			    med: sk.med[k], lo: sk.lo[k], hi: sk.hi[k],
			    n: sk.nstat[k], base: sk.version[k] === v.base[i],
			    target: sk.version[k] === v.target[i] };
		});
		box.appendChild(el("p", "legend", "The median of each version " +
		    "with its interval (pv-stat), in " + (str(v.unit[i]) ||
		    "no unit") + ", " + (v.dir[i] ? "lower" : "higher") +
		    " is better; the baseline (" + (str(v.base[i]) || "-") +
		    ") and the target (" + (str(v.target[i]) || "-") +
		    ") marked."));
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
		/* change points: between the version before and after */
		cps = changePoints(i);
		cps.forEach(function (c) {
			var a = -1, b = -1, xm, tx;

			pts.forEach(function (p, k) {
				if (p.version === str(c.before))
					a = k;
				if (p.version === str(c.after))
					b = k;
			});
			if (a < 0 || b < 0)
				return;
			xm = (x(a) + x(b)) / 2;
			s.appendChild(svg("line", { x1: xm, x2: xm, y1: top - 10,
			    y2: H - bottom, "class": "cp" }));
			tx = svg("text", { x: xm + 4, y: top - 4, "class": "cpl" });
			tx.textContent = "change point " + change(c.change);
			s.appendChild(tx);
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
		hook.trend = { v: i, points: pts.length, changePoints: cps.length,
		    marked: pts.filter(function (p) {
			return p.base || p.target;
		    }).length };
	};
