// flows.js: the call flows of one function, a Sankey graph (SVG) of its
// callers and callees, several levels deep.
	/*
	 * Call flows: callers' callers -> callers -> function -> callees ->
	 * their callees, DEPTH columns a side.  Names are keys of Maps, never
	 * of plain objects, so that a function named __proto__ or
	 * constructor is a function like any other.
	 */

	var FLOW_DEPTH = 2;		/* columns a side, to start with */
	var FLOW_MAX_DEPTH = 5;
	var FLOW_ROW = 18;		/* the least height of a node's row */
	var FLOW_LABEL = 190;		/* room for the last column's labels */

	var flows = {
		box: null,
		depth: FLOW_DEPTH,
		select: function (fn) {
			state.fn = fn;
			this.input.value = fn;
			this.draw();
		}
	};

	function flowSetup(parent) {
		var bar = el("div", "bar"), go, list, lab, k, o;

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
		lab = el("label", "", "levels ");
		flows.depthSel = el("select");
		flows.depthSel.id = "flow-depth";
		for (k = 1; k <= FLOW_MAX_DEPTH; k++) {
			o = el("option", "", String(k));
			o.value = String(k);
			if (k === FLOW_DEPTH)
				o.selected = true;
			flows.depthSel.appendChild(o);
		}
		flows.depthSel.addEventListener("change", function () {
			flows.depth = Number(flows.depthSel.value);
			flows.draw();
		});
		lab.appendChild(flows.depthSel);
		flows.note = el("button", "", "Add a note on it");
		flows.note.type = "button";
		flows.note.addEventListener("click", function () {
			noteForm(state.fn);
		});
		bar.appendChild(flows.input);
		bar.appendChild(list);
		bar.appendChild(go);
		bar.appendChild(lab);
		bar.appendChild(flows.note);
		parent.appendChild(bar);
		flows.legend = el("p", "legend");
		flows.legend.appendChild(el("span", "key-base", "baseline"));
		flows.legend.appendChild(document.createTextNode(" and "));
		flows.legend.appendChild(el("span", "key-target", "target"));
		flows.legend.appendChild(document.createTextNode(
		    ": band widths are shares of each side's total; " +
		    "callers on the left, callees on the right"));
		parent.appendChild(flows.legend);
		flows.box = el("div", "sankey");
		flows.box.id = "sankey";
		parent.appendChild(flows.box);
	}

	/* A column's nodes by name, and the links that enter them. */
	function Column() {
		this.nodes = new Map();		/* name -> { b, t } */
		this.links = new Map();		/* from + "\u0000" + to -> link */
	}

	Column.prototype.add = function (name, b, t) {
		var n = this.nodes.get(name);

		if (!n) {
			n = { name: name, b: 0, t: 0 };
			this.nodes.set(name, n);
		}
		n.b += b;
		n.t += t;
	};

	Column.prototype.link = function (from, to, b, t) {
		var k = from + "\u0000" + to, l = this.links.get(k);

		if (!l) {
			l = { from: from, to: to, b: 0, t: 0 };
			this.links.set(k, l);
		}
		l.b += b;
		l.t += t;
	};

	/*
	 * The columns of fn's flows: col[depth] the function, col[depth - k]
	 * the callers k calls up, col[depth + k] the callees k calls down;
	 * each column's links go to its neighbour nearer the function.  Only
	 * the outermost calls of fn count (recursion), as in the table.
	 */
	function flowsOf(m, fn, depth) {
		var col = [], i, p, k, found = 0, nb = 0, nt = 0, outer;

		for (k = 0; k <= 2 * depth; k++)
			col.push(new Column());
		function down(node, from, k) {
			var j, c, lb = m.b[node], lt = m.t[node], name;

			if (k > depth)
				return;
			for (j = m.kidStart[node]; j < m.kidStart[node + 1];
			    j++) {
				c = m.kids[j];
				name = m.label(c);
				col[depth + k].add(name, m.b[c], m.t[c]);
				col[depth + k].link(from, name, m.b[c], m.t[c]);
				lb -= m.b[c];
				lt -= m.t[c];
				down(c, name, k + 1);
			}
			if (k === 1 && (lb > 0 || lt > 0)) {
				col[depth + 1].add("[self]", lb, lt);
				col[depth + 1].link(from, "[self]", lb, lt);
			}
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
			/* up: the chain of callers, to the root */
			var to = fn, at = m.parent[i], name;
			for (k = 1; k <= depth; k++) {
				name = at <= 0 ? "[root]" : m.label(at);
				col[depth - k].add(name, m.b[i], m.t[i]);
				col[depth - k].link(name, to, m.b[i], m.t[i]);
				if (at <= 0)
					break;
				to = name;
				at = m.parent[at];
			}
			down(i, fn, 1);
		}
		col[depth].add(fn, nb, nt);
		return { found: found, b: nb, t: nt, col: col };
	}

	/*
	 * The nodes of a column that are drawn: the FLOW_TOP largest by name,
	 * the rest as one "[N others]" node; rename[] maps a name to its node.
	 */
	function keep(c, m) {
		var v = Array.from(c.nodes.values()), rest, rename = new Map();

		v.forEach(function (e) {
			e.sb = share(e.b, m.totB);
			e.st = share(e.t, m.totT);
		});
		v.sort(function (a, b) {
			return Math.max(b.sb, b.st) - Math.max(a.sb, a.st) ||
			    (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
		});
		if (v.length > FLOW_TOP) {
			rest = { name: "", b: 0, t: 0, sb: 0, st: 0, n: 0 };
			v.slice(FLOW_TOP).forEach(function (e) {
				rest.b += e.b;
				rest.t += e.t;
				rest.sb += e.sb;
				rest.st += e.st;
				rest.n++;
				rename.set(e.name, rest);
			});
			rest.name = "[" + rest.n + " others]";
			v = v.slice(0, FLOW_TOP);
			v.push(rest);
		}
		v.forEach(function (e) {
			if (!rename.has(e.name))
				rename.set(e.name, e);
			e.inB = e.inT = e.outB = e.outT = 0;
		});
		return { nodes: v, of: rename };
	}

	/* Cut a label to n characters, ".." marking the cut. */
	function cut(s, n) {
		return s.length > n ? s.slice(0, Math.max(1, n - 2)) + ".." : s;
	}

	flows.draw = function () {
		var m = state.model, fn = state.fn, depth = this.depth, f, W, H;
		var box = this.box, ncol, cols, unit, s, maxTotal = 0, colX;
		var step, labelRoom, k, y, rows = 0;

		box.textContent = "";
		hook.flows = { fn: fn, callers: 0, callees: 0, paths: 0,
		    depth: depth, labels: [] };
		if (!m)
			return;
		if (!fn) {
			box.appendChild(el("p", "", "Choose a function."));
			return;
		}
		f = flowsOf(m, fn, depth);
		if (f.found === 0) {
			box.appendChild(el("p", "", "\u201c" + fn + "\u201d is " +
			    "not in the call tree (it may be merged into a " +
			    "frame of call paths under " + 100 * m.ev.merged +
			    "% of both totals)."));
			return;
		}
		ncol = 2 * depth + 1;
		cols = f.col.map(function (c) {
			var kc = keep(c, m), tot = 0;

			kc.nodes.forEach(function (e) {
				tot += e.sb + e.st;
			});
			maxTotal = Math.max(maxTotal, tot);
			rows = Math.max(rows, kc.nodes.length);
			kc.links = c.links;
			return kc;
		});
		W = Math.max(760, box.clientWidth);
		step = (W - FLOW_LABEL - 14) / (ncol - 1);
		labelRoom = Math.max(40, step - 14 - 10);
		colX = function (k) {
			return k * step;
		};
		/* the bands' scale: the fullest column in about 360 pixels */
		unit = 360 / Math.max(maxTotal, 1e-9);
		/* each node gets a row tall enough for its label */
		H = 0;
		cols.forEach(function (c) {
			y = 10;
			c.nodes.forEach(function (e) {
				e.hb = e.sb * unit;
				e.ht = e.st * unit;
				e.y = y;
				y += Math.max(e.hb + e.ht, FLOW_ROW) + 6;
			});
			H = Math.max(H, y);
		});
		s = svg("svg", { width: W, height: H + 10,
		    viewBox: "0 0 " + W + " " + (H + 10), role: "img" });
		s.appendChild(svg("title", {})).textContent = "call flows of " +
		    fn;

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

		/* links between neighbouring columns, in the nodes' order */
		for (k = 0; k + 1 < ncol; k++) {
			var left = cols[k], right = cols[k + 1];
			/* the links live with the column farther from fn */
			var links = Array.from((k < depth ? left :
			    right).links.values());

			links.forEach(function (l) {
				l.a = left.of.get(l.from);
				l.z = right.of.get(l.to);
			});
			links = links.filter(function (l) {
				return l.a && l.z;
			});
			links.sort(function (p, q) {
				return p.a.y - q.a.y || p.z.y - q.z.y;
			});
			links.forEach(function (l) {
				var hb = share(l.b, m.totB) * unit;
				var ht = share(l.t, m.totT) * unit;
				var x0 = colX(k) + 14, x1 = colX(k + 1);

				band(x0, l.a.y + l.a.outB, x1, l.z.y + l.z.inB,
				    hb, "f-base");
				band(x0, l.a.y + l.a.hb + l.a.outT, x1,
				    l.z.y + l.z.hb + l.z.inT, ht, "f-target");
				l.a.outB += hb;
				l.a.outT += ht;
				l.z.inB += hb;
				l.z.inT += ht;
			});
		}

		cols.forEach(function (c, k) {
			var x = colX(k), room = k === ncol - 1 ? FLOW_LABEL - 8 :
			    labelRoom;

			c.nodes.forEach(function (e) {
				var g = svg("g", { "class": k === depth ? "focus" :
				    k < depth ? "caller" : "callee" }), t;

				g.appendChild(svg("rect", { x: x, y: e.y, width: 14,
				    height: Math.max(e.hb, 0.5),
				    "class": "n-base" }));
				g.appendChild(svg("rect", { x: x, y: e.y + e.hb,
				    width: 14, height: Math.max(e.ht, 0.5),
				    "class": "n-target" }));
				/* the label in the node's own row, cut to the
				 * room before the next column */
				t = svg("text", { x: x + 18, y: e.y +
				    Math.max(e.hb + e.ht, FLOW_ROW) / 2 + 4 });
				t.textContent = cut(e.name, Math.floor(room / 7.3));
				g.appendChild(t);
				g.appendChild(svg("title", {})).textContent =
				    [e.name, "baseline: " + amount(e.b, m.unit) +
				    " (" + pct(e.sb) + ")", "target: " +
				    amount(e.t, m.unit) + " (" + pct(e.st) + ")",
				    "change: " + pp(e.st - e.sb)].join("\n");
				s.appendChild(g);
				hook.flows.labels.push(e.name);
			});
		});
		box.appendChild(s);
		hook.flows.callers = cols[depth - 1].nodes.length;
		hook.flows.callees = cols[depth + 1].nodes.length;
		hook.flows.height = H;
	};
