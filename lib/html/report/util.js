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

