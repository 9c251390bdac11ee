// util.js: helpers of every part: elements, SVG nodes, the formats of
// numbers, shares.
	/* Helpers */

	function el(tag, cls, text) {
		var e = document.createElement(tag);

		if (cls)
			e.className = cls;
		if (text !== undefined && text !== null)
			e.textContent = String(text);
		return e;
	}

	function svg(tag, attrs) {
		var e = document.createElementNS("http://www.w3.org/2000/svg",
		    tag), k;

		for (k in attrs)
			e.setAttribute(k, attrs[k]);
		return e;
	}

	function pct(x) {
		return isFinite(x) ? x.toFixed(2) + "%" : "-";
	}

	function pp(x) {
		if (!isFinite(x))
			return "-";
		return (x > 0 ? "+" : x < 0 ? "\u2212" : "\u00b1") +
		    Math.abs(x).toFixed(2) + " pp";
	}

	function rel(x) {
		if (x === null || !isFinite(x))
			return "new";
		return (x > 0 ? "+" : x < 0 ? "\u2212" : "\u00b1") +
		    Math.abs(x).toFixed(1) + "%";
	}

	function count(x) {
		return x.toLocaleString("en-US");
	}

	function share(x, total) {
		return total > 0 ? 100 * x / total : 0;
	}


	/*
	 * The packed arrays of a profile (render_html.c, pack()): each
	 * number in groups of five bits, most significant first, a letter a
	 * group, the letters of the upper half of the alphabet followed by
	 * more.  signed: zigzag, 2n or -2n - 1.
	 */
	var PACK = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef" +
	    "ghijklmnopqrstuvwxyz0123456789-_";
	var packValue = (function () {
		var t = new Int8Array(128), i;

		t.fill(-1);
		for (i = 0; i < PACK.length; i++)
			t[PACK.charCodeAt(i)] = i;
		return t;
	})();

	function unpack(s, signed) {
		var out = new Float64Array(s.length), n = 0, v = 0, i, c;

		for (i = 0; i < s.length; i++) {
			c = packValue[s.charCodeAt(i)];
			v = v * 32 + (c & 31);
			if (c < 32) {
				out[n++] = signed ? (v % 2 === 0 ? v / 2 :
				    -(v + 1) / 2) : v;
				v = 0;
			}
		}
		return out.subarray(0, n);
	}

	/*
	 * A count of an event's unit, for people: time for nanoseconds
	 * (cpu-clock, task-clock), else the number and the unit.
	 */
	function amount(x, unit) {
		var v = Math.abs(x), s;

		if (unit === "ns") {
			if (v >= 1e9)
				s = (x / 1e9).toPrecision(3) + " s";
			else if (v >= 1e6)
				s = (x / 1e6).toPrecision(3) + " ms";
			else if (v >= 1e3)
				s = (x / 1e3).toPrecision(3) + " \u00b5s";
			else
				s = x + " ns";
			return s;
		}
		return count(x) + " " + (unit || "samples");
	}

	/* An oriented log change (cmp, verdict records) in percent. */
	function change(x) {
		if (x === null || x === undefined || !isFinite(x))
			return "-";
		x = 100 * (Math.exp(x) - 1);
		return (x > 0 ? "+" : x < 0 ? "\u2212" : "\u00b1") +
		    Math.abs(x).toFixed(2) + "%";
	}

	function interval(lo, hi) {
		if (lo === null || hi === null)
			return "-";
		return "[" + change(lo) + ", " + change(hi) + "]";
	}

	function fixed(x, n) {
		return x === null || x === undefined || !isFinite(x) ? "-" :
		    Number(x).toPrecision(n || 3);
	}

	/* A table head whose columns sort their rows; cols: [key, label, num]. */
	/*
	 * The order of a sortable table's rows by column k, d 1 ascending or
	 * -1 descending: ties by name; null (a row new in the target, with
	 * no relative change) ranks highest.
	 */
	function byColumn(k, d) {
		return function (a, b) {
			var x = a[k], y = b[k];

			if (x === y)
				return a.name < b.name ? -1 : a.name > b.name;
			if (x === null)
				return -d;
			if (y === null)
				return d;
			return (x < y ? -1 : 1) * d;
		};
	}

	function sortHead(table, cols, sort) {
		var thead = el("thead"), tr = el("tr");

		cols.forEach(function (c) {
			var th = el("th", c[2] ? "num" : "", c[1]);

			th.scope = "col";
			th.dataset.key = c[0];
			th.addEventListener("click", function () {
				sort(c[0], c[2]);
				Array.prototype.forEach.call(tr.children,
				    function (h) {
					h.removeAttribute("aria-sort");
				});
				th.setAttribute("aria-sort", table.dir > 0 ?
				    "ascending" : "descending");
			});
			tr.appendChild(th);
		});
		thead.appendChild(tr);
		return thead;
	}

	function link(href, text, cls) {
		var a = el("a", cls || "", text);

		a.href = href;
		return a;
	}
