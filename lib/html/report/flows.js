// flows.js: the call flows of one function, a Sankey graph (SVG) of its
// callers and callees.
	/* Call flows: a Sankey graph of callers -> function -> callees */

	var flows = {
		box: null,
		select: function (fn) {
			state.fn = fn;
			this.input.value = fn;
			this.draw();
		}
	};

	function flowSetup(parent) {
		var bar = el("div", "bar"), go, list;

		flows.input = el("input");
		flows.input.type = "search";
		flows.input.id = "flow-fn";
		flows.input.placeholder = "function name";
		flows.input.setAttribute("list", "flow-names");
		list = el("datalist");
		list.id = "flow-names";
		flows.list = list;
		go = el("button", "", "Show");
		go.type = "button";
		go.addEventListener("click", function () {
			flows.select(flows.input.value);
		});
		flows.input.addEventListener("keydown", function (e) {
			if (e.key === "Enter")
				flows.select(flows.input.value);
		});
		flows.note = el("button", "", "Add a note on it");
		flows.note.type = "button";
		flows.note.addEventListener("click", function () {
			noteForm(state.fn);
		});
		bar.appendChild(flows.input);
		bar.appendChild(list);
		bar.appendChild(go);
		bar.appendChild(flows.note);
		parent.appendChild(bar);
		flows.legend = el("p", "legend");
		flows.legend.appendChild(el("span", "key-base", "baseline"));
		flows.legend.appendChild(document.createTextNode(" and "));
		flows.legend.appendChild(el("span", "key-target", "target"));
		flows.legend.appendChild(document.createTextNode(
		    ": band widths are shares of each side's total"));
		parent.appendChild(flows.legend);
		flows.box = el("div", "sankey");
		flows.box.id = "sankey";
		parent.appendChild(flows.box);
	}

	/* Callers and callees of fn, outermost calls only (recursion). */
	function flowsOf(m, fn) {
		var callers = {}, callees = {}, i, p, k, c, kb, kt, nb = 0, nt = 0;
		var outer, found = 0;

		function add(map, key, b, t) {
			if (!map[key])
				map[key] = { name: key, b: 0, t: 0 };
			map[key].b += b;
			map[key].t += t;
		}
		for (i = 1; i < m.n; i++) {
			if (m.name[i] < 0 || names[m.name[i]] !== fn)
				continue;
			outer = true;
			for (p = m.parent[i]; p > 0; p = m.parent[p])
				if (m.name[p] >= 0 && names[m.name[p]] === fn) {
					outer = false;
					break;
				}
			if (!outer)
				continue;
			found++;
			nb += m.b[i];
			nt += m.t[i];
			p = m.parent[i];
			add(callers, p === 0 ? "[root]" : m.label(p), m.b[i],
			    m.t[i]);
			kb = m.b[i];
			kt = m.t[i];
			for (k = m.kidStart[i]; k < m.kidStart[i + 1]; k++) {
				c = m.kids[k];
				add(callees, m.label(c), m.b[c], m.t[c]);
				kb -= m.b[c];
				kt -= m.t[c];
			}
			if (kb > 0 || kt > 0)
				add(callees, "[self]", kb, kt);
		}
		return { found: found, b: nb, t: nt, callers: top(callers, m),
		    callees: top(callees, m) };
	}

	function top(map, m) {
		var v = Object.keys(map).map(function (k) {
			var e = map[k];

			e.sb = share(e.b, m.totB);
			e.st = share(e.t, m.totT);
			return e;
		}), rest = { name: "", b: 0, t: 0, sb: 0, st: 0 }, n = 0;

		v.sort(function (a, b) {
			return Math.max(b.sb, b.st) - Math.max(a.sb, a.st) ||
			    (a.name < b.name ? -1 : 1);
		});
		while (v.length > FLOW_TOP) {
			var e = v.pop();

			rest.b += e.b;
			rest.t += e.t;
			rest.sb += e.sb;
			rest.st += e.st;
			n++;
		}
		if (n > 0) {
			rest.name = "[" + n + " others]";
			v.push(rest);
		}
		return v;
	}

	flows.draw = function () {
		var m = state.model, fn = state.fn, f, W, H, unit, s, colX;
		var box = this.box, total, mid, y, tip2;

		box.textContent = "";
		hook.flows = { fn: fn, callers: 0, callees: 0, paths: 0 };
		if (!fn) {
			box.appendChild(el("p", "", "Choose a function."));
			return;
		}
		f = flowsOf(m, fn);
		if (f.found === 0) {
			box.appendChild(el("p", "", "\u201c" + fn + "\u201d is " +
			    "not in the call tree (it may be merged into a " +
			    "frame of call paths under " + 100 * m.ev.merged +
			    "% of both totals)."));
			return;
		}
		W = Math.max(640, box.clientWidth);
		var rows = Math.max(f.callers.length, f.callees.length, 1);
		H = Math.max(240, rows * 34);
		s = svg("svg", { width: W, height: H + 20,
		    viewBox: "0 0 " + W + " " + (H + 20), role: "img" });
		s.appendChild(svg("title", {})).textContent = "call flows of " +
		    fn;
		colX = [0, W / 2 - 70, W - 200];
		function sum(v) {
			return v.reduce(function (a, e) {
				return a + e.sb + e.st;
			}, 0);
		}
		total = Math.max(sum(f.callers), sum(f.callees),
		    share(f.b, m.totB) + share(f.t, m.totT), 1e-9);
		unit = (H - 6 * rows) / total;
		mid = { y: 10, hb: share(f.b, m.totB) * unit,
		    ht: share(f.t, m.totT) * unit };

		function node(x, y0, hb, ht, label, lines, cls) {
			var g = svg("g", { "class": cls }), t;

			g.appendChild(svg("rect", { x: x, y: y0, width: 14,
			    height: Math.max(hb, 0.5), "class": "n-base" }));
			g.appendChild(svg("rect", { x: x, y: y0 + hb, width: 14,
			    height: Math.max(ht, 0.5), "class": "n-target" }));
			t = svg("text", { x: cls === "callee" ? x + 18 :
			    cls === "caller" ? x + 18 : x + 18,
			    y: y0 + (hb + ht) / 2 + 4 });
			t.textContent = label.length > 40 ?
			    label.slice(0, 38) + ".." : label;
			g.appendChild(t);
			g.appendChild(svg("title", {})).textContent =
			    [label].concat(lines).join("\n");
			s.appendChild(g);
		}

		function band(x0, y0, x1, y1, h, cls) {
			var mx = (x0 + x1) / 2, d;

			if (h <= 0)
				return;
			d = "M" + x0 + "," + y0 + " C" + mx + "," + y0 + " " +
			    mx + "," + y1 + " " + x1 + "," + y1 + " L" + x1 +
			    "," + (y1 + h) + " C" + mx + "," + (y1 + h) + " " +
			    mx + "," + (y0 + h) + " " + x0 + "," + (y0 + h) +
			    " Z";
			s.appendChild(svg("path", { d: d, "class": cls }));
			hook.flows.paths++;
		}

		function lines(e) {
			return ["baseline: " + count(e.b) + " (" + pct(e.sb) +
			    ")", "target: " + count(e.t) + " (" + pct(e.st) +
			    ")", "change: " + pp(e.st - e.sb)];
		}

		/* bands enter and leave the function's bar in order, the
		 * baseline half above the target half */
		var inB = mid.y, inT = mid.y + mid.hb;
		y = 10;
		f.callers.forEach(function (e) {
			var hb = e.sb * unit, ht = e.st * unit;

			node(colX[0], y, hb, ht, e.name, lines(e), "caller");
			band(colX[0] + 14, y, colX[1], inB, hb, "f-base");
			band(colX[0] + 14, y + hb, colX[1], inT, ht, "f-target");
			inB += hb;
			inT += ht;
			y += hb + ht + 6;
		});
		var outB = mid.y, outT = mid.y + mid.hb;
		y = 10;
		f.callees.forEach(function (e) {
			var hb = e.sb * unit, ht = e.st * unit;

			band(colX[1] + 14, outB, colX[2], y, hb, "f-base");
			band(colX[1] + 14, outT, colX[2], y + hb, ht, "f-target");
			node(colX[2], y, hb, ht, e.name, lines(e), "callee");
			outB += hb;
			outT += ht;
			y += hb + ht + 6;
		});
		tip2 = { b: f.b, t: f.t, sb: share(f.b, m.totB),
		    st: share(f.t, m.totT) };
		node(colX[1], mid.y, mid.hb, mid.ht, fn, lines(tip2), "focus");
		box.appendChild(s);
		hook.flows.callers = f.callers.length;
		hook.flows.callees = f.callees.length;
	};

