/*
 * report.js: the behaviour of pv-render's HTML report, embedded in the page
 * at build time (lib/html/embed.sed).  It reads the data that pv-render
 * wrote into the script element #pv-data and draws the flame graphs
 * (canvas), the table of all functions, the call-flow (Sankey) graph (SVG)
 * and the notes.  No framework, no network: the page's
 * Content-Security-Policy allows this script by its hash and nothing else.
 *
 * Names from the input reach the page only through textContent, canvas
 * fillText and SVG text nodes, never through markup.
 *
 * window.pvReport exposes the drawn state (rectangles, zoom, matches, the
 * time of the first drawn flame graph) for the browser test.
 */
(function () {
	"use strict";

	var ROW = 17;			/* flame graph row height, CSS pixels */
	var VIEW_ROWS = 32;		/* rows in view; more scroll */
	var TABLE_PAGE = 500;		/* rows added to the table at a time */
	var FLOW_TOP = 12;		/* callers and callees shown by name */

	var started = performance.now();
	var data = JSON.parse(document.getElementById("pv-data").textContent);
	var notes = JSON.parse(document.getElementById("pv-notes").textContent);
	/* the document as written, for saving it again with the notes */
	var pristine = document.documentElement.cloneNode(true);
	var names = data.names;
	/* for the browser test and the benchmark: times since navigation */
	var hook = { graphs: {}, firstDraw: null, table: null, flows: null,
	    marks: { script: started, parsed: performance.now() } };
	var state = { ev: 0, model: null, term: "", graphs: [], fn: null };

	window.pvReport = hook;

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

	/* Model: the call tree of one event, from the four arrays */

	function Model(ev) {
		var tr = ev.tree, n = tr.n.length, i, d, p;
		var at = [], nkid = new Int32Array(n), merged = new Int32Array(n);

		this.ev = ev;
		this.n = n;
		this.name = tr.n;
		this.depth = tr.d;
		this.b = tr.b;
		this.t = tr.t;
		this.parent = new Int32Array(n);
		this.maxDepth = 0;
		this.totB = ev.total[0] || tr.b[0];
		this.totT = ev.total[1] || tr.t[0];
		merged.fill(-1);
		for (i = 0; i < n; i++) {
			d = tr.d[i];
			at[d] = i;
			p = d > 0 ? at[d - 1] : -1;
			this.parent[i] = p;
			if (d > this.maxDepth)
				this.maxDepth = d;
			if (p < 0)
				continue;
			if (tr.n[i] < -1)
				merged[p] = i;	/* drawn after the kept ones */
			else
				nkid[p]++;
		}
		/* children lists, in order, each merge last */
		this.kidStart = new Int32Array(n + 1);
		for (i = 0; i < n; i++)
			this.kidStart[i + 1] = this.kidStart[i] + nkid[i] +
			    (merged[i] >= 0 ? 1 : 0);
		this.kids = new Int32Array(this.kidStart[n]);
		var fill = this.kidStart.slice(0, n);
		for (i = 1; i < n; i++) {
			p = this.parent[i];
			if (tr.n[i] >= -1)
				this.kids[fill[p]++] = i;
		}
		for (i = 0; i < n; i++)
			if (merged[i] >= 0)
				this.kids[fill[i]++] = merged[i];
		/* the change of each node's share, for the colours */
		this.delta = new Float64Array(n);
		this.maxDelta = 0;
		for (i = 0; i < n; i++) {
			this.delta[i] = share(tr.t[i], this.totT) -
			    share(tr.b[i], this.totB);
			if (Math.abs(this.delta[i]) > this.maxDelta)
				this.maxDelta = Math.abs(this.delta[i]);
		}
		this.match = new Uint8Array(n);
	}

	Model.prototype.label = function (i) {
		var k = this.name[i];

		if (k === -1)
			return "all";
		if (k < -1)
			return "[" + (-k - 1) + " call paths under " +
			    (100 * this.ev.merged) + "% merged]";
		return names[k];
	};

	Model.prototype.search = function (term) {
		var i, lower = term.toLowerCase(), k;

		for (i = 0; i < this.n; i++) {
			k = this.name[i];
			this.match[i] = term !== "" && k >= 0 &&
			    names[k].toLowerCase().indexOf(lower) >= 0 ? 1 : 0;
		}
	};

	/* The share of the target (or baseline) under matching frames. */
	Model.prototype.matched = function (side) {
		var i, p, sum = 0, w = side ? this.t : this.b, outer;

		for (i = 0; i < this.n; i++) {
			if (!this.match[i])
				continue;
			outer = true;
			for (p = this.parent[i]; p >= 0; p = this.parent[p])
				if (this.match[p]) {
					outer = false;
					break;
				}
			if (outer)
				sum += w[i];
		}
		return share(sum, side ? this.totT : this.totB);
	};

	/* Flame graphs */

	var tip = el("div", "tip");
	tip.hidden = true;
	document.body.appendChild(tip);

	function showTip(ev, lines) {
		var i;

		tip.textContent = "";
		for (i = 0; i < lines.length; i++)
			tip.appendChild(el("div", i === 0 ? "tip-name" : "",
			    lines[i]));
		tip.hidden = false;
		tip.style.left = Math.min(ev.clientX + 14,
		    window.innerWidth - tip.offsetWidth - 4) + "px";
		tip.style.top = (ev.clientY + 14) + "px";
	}

	function hashName(s) {
		var h = 2166136261, i;

		for (i = 0; i < s.length && i < 64; i++)
			h = Math.imul(h ^ s.charCodeAt(i), 16777619);
		return (h >>> 0) / 4294967296;
	}

	function warm(s) {
		var v = hashName(s), w = hashName(s + "\u0001");

		return "rgb(" + (205 + Math.round(50 * w)) + "," +
		    Math.round(80 + 150 * v) + "," + Math.round(55 * v) + ")";
	}

	function diffColour(d, max) {
		var v = max > 0 ? Math.min(1, Math.abs(d) / max) : 0, c;

		v = Math.sqrt(v);
		c = Math.round(235 - 200 * v);
		if (d > 0)
			return "rgb(245," + c + "," + c + ")";
		if (d < 0)
			return "rgb(" + c + "," + c + ",245)";
		return "rgb(235,235,235)";
	}

	function FlameGraph(model, mode, parent) {
		var self = this;

		this.model = model;
		this.mode = mode;	/* "base", "target", "diff" */
		this.zoom = 0;
		this.rects = [];
		this.box = el("div", "graph");
		this.box.id = "graph-" + mode;
		var head = el("div", "graph-head");
		head.appendChild(el("h3", "", {
			base: "Baseline",
			target: "Target",
			diff: "Differential (width: target; red grew, " +
			    "blue shrank, by share)"
		}[mode]));
		this.reset = el("button", "reset", "Reset zoom");
		this.reset.type = "button";
		this.reset.disabled = true;
		this.reset.addEventListener("click", function () {
			self.zoomTo(0);
		});
		head.appendChild(this.reset);
		this.info = el("span", "graph-info");
		head.appendChild(this.info);
		this.box.appendChild(head);
		/*
		 * The canvas covers only the rows in view, sticky at the top
		 * of a scrolling box whose spacer makes up the full height:
		 * a canvas as tall as a deep profile costs a browser without
		 * a GPU a long time to allocate.
		 */
		this.view = el("div", "view");
		this.canvas = el("canvas");
		this.spacer = el("div");
		this.view.appendChild(this.canvas);
		this.view.appendChild(this.spacer);
		this.box.appendChild(this.view);
		parent.appendChild(this.box);
		this.view.addEventListener("scroll", function () {
			if (!self.pending) {
				self.pending = true;
				requestAnimationFrame(function () {
					self.pending = false;
					self.paint();
				});
			}
		});
		this.canvas.addEventListener("mousemove", function (e) {
			self.hover(e);
		});
		this.canvas.addEventListener("mouseleave", function () {
			tip.hidden = true;
		});
		this.canvas.addEventListener("click", function (e) {
			var r = self.hit(e);

			if (r && r.merged === 0)
				self.zoomTo(r.i);
		});
	}

	FlameGraph.prototype.weight = function () {
		return this.mode === "base" ? this.model.b : this.model.t;
	};

	FlameGraph.prototype.zoomTo = function (i) {
		this.zoom = i;
		this.reset.disabled = i === 0;
		this.draw();
	};

	FlameGraph.prototype.colour = function (i) {
		var m = this.model;

		if (m.match[i])
			return "rgb(230,0,230)";
		if (m.name[i] < -1)
			return "rgb(190,190,190)";
		if (this.mode === "diff")
			return diffColour(m.delta[i], m.maxDelta);
		return warm(m.label(i));
	};

	/*
	 * Lay the frames out, then size the canvas to the rows in use (deep
	 * stacks are mostly narrower than a pixel) and paint them.  Children
	 * narrower than a pixel are merged into one grey block with their
	 * narrow neighbours: their weight stays in the parent's width.
	 */
	FlameGraph.prototype.draw = function () {
		var m = this.model, w = this.weight(), cssW, dpr, ctx, H, x;
		var stack, top, i, k, c, cw, scale, acc, accX, accN, accB, accT;
		var rects = [], maxD = 0, self = this;

		cssW = Math.max(300, this.box.clientWidth);
		this.width = cssW;
		function put(i, x0, wd, merged, mb, mt) {
			rects.push({ i: i, x: x0, y: 0, w: wd, h: ROW - 1,
			    merged: merged, mb: mb, mt: mt,
			    hl: merged ? 0 : m.match[i] });
			if (m.depth[i] > maxD)
				maxD = m.depth[i];
		}
		if (w[this.zoom] > 0) {
			/* the zoomed frame's ancestors span the width */
			for (i = m.parent[this.zoom]; i >= 0; i = m.parent[i])
				put(i, 0, cssW, 0);
			scale = cssW / w[this.zoom];
			stack = [this.zoom, 0];
		} else {
			stack = [];
		}
		while (stack.length > 0) {
			x = stack.pop();
			top = stack.pop();
			put(top, x, w[top] * scale, 0);
			acc = accN = accB = accT = 0;
			accX = x;
			for (k = m.kidStart[top]; k < m.kidStart[top + 1]; k++) {
				c = m.kids[k];
				cw = w[c] * scale;
				if (cw <= 0)
					continue;
				if (cw < 1) {
					if (accN === 0)
						accX = x;
					acc += cw;
					accN++;
					accB += m.b[c];
					accT += m.t[c];
					x += cw;
					continue;
				}
				if (accN > 0)
					put(c, accX, acc, accN, accB, accT);
				acc = accN = accB = accT = 0;
				stack.push(c, x);
				x += cw;
			}
			if (accN > 0)
				put(m.kids[m.kidStart[top + 1] - 1], accX, acc, accN,
				    accB, accT);
		}

		H = (maxD + 1) * ROW;
		rects.forEach(function (q) {
			q.y = H - (m.depth[q.i] + 1) * ROW;
		});
		this.rects = rects;
		this.height = H;
		this.viewH = Math.min(H, VIEW_ROWS * ROW);
		dpr = window.devicePixelRatio || 1;
		if (this.canvas.width !== Math.round(cssW * dpr) ||
		    this.canvas.height !== Math.round(this.viewH * dpr)) {
			this.canvas.width = Math.round(cssW * dpr);
			this.canvas.height = Math.round(this.viewH * dpr);
			this.canvas.style.width = cssW + "px";
			this.canvas.style.height = this.viewH + "px";
		}
		this.view.style.height = this.viewH + "px";
		this.spacer.style.height = (H - this.viewH) + "px";
		/* the root row in view, as a flame graph is read from it */
		this.view.scrollTop = H;
		this.paint();
		if (!(w[this.zoom] > 0))
			this.info.textContent = "nothing on this side";
		this.afterDraw();
	};

	/* Paint the rows in view. */
	FlameGraph.prototype.paint = function () {
		var m = this.model, self = this, top = this.view.scrollTop;
		var bottom = top + this.viewH, dpr = window.devicePixelRatio || 1;
		var ctx = this.canvas.getContext("2d");

		this.scroll = top;
		ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
		ctx.clearRect(0, 0, this.width, this.viewH);
		ctx.font = "11px sans-serif";
		ctx.textBaseline = "middle";
		this.rects.forEach(function (q) {
			var text, fit, y;

			if (q.y + ROW <= top || q.y >= bottom)
				return;
			y = q.y - top;
			ctx.fillStyle = q.merged ? "rgb(190,190,190)" :
			    self.colour(q.i);
			ctx.fillRect(q.x, y, Math.max(q.w - 0.5, 0.5), ROW - 1);
			if (q.merged || q.w < 28)
				return;
			text = m.label(q.i);
			fit = Math.floor((q.w - 6) / 6.2);
			if (fit < 3)
				return;
			if (text.length > fit)
				text = text.slice(0, fit - 2) + "..";
			ctx.fillStyle = "#000";
			ctx.fillText(text, q.x + 3, y + ROW / 2);
		});
	};

	FlameGraph.prototype.afterDraw = function () {
		var m = this.model, n = 0, i;

		for (i = 0; i < this.rects.length; i++)
			n += this.rects[i].hl;
		this.matches = n;
		if (!(this.weight()[this.zoom] > 0))
			return;
		if (state.term !== "")
			this.info.textContent = "\u201c" + state.term +
			    "\u201d: " + pct(m.matched(this.mode !== "base")) +
			    " of the " + (this.mode === "base" ? "baseline" :
			    "target");
		else if (this.zoom !== 0)
			this.info.textContent = "zoomed to " +
			    m.label(this.zoom);
		else
			this.info.textContent = "";
		/* the first graph on screen: the frame after it was drawn */
		if (hook.firstDraw === null) {
			hook.firstDraw = 0;
			requestAnimationFrame(function () {
				hook.firstDraw = performance.now();
			});
		}
	};

	FlameGraph.prototype.hit = function (e) {
		var r = this.canvas.getBoundingClientRect(), x, y, i, q;

		x = e.clientX - r.left;
		y = e.clientY - r.top + this.view.scrollTop;
		for (i = this.rects.length - 1; i >= 0; i--) {
			q = this.rects[i];
			if (x >= q.x && x < q.x + Math.max(q.w, 1) && y >= q.y &&
			    y < q.y + ROW)
				return q;
		}
		return null;
	};

	FlameGraph.prototype.hover = function (e) {
		var q = this.hit(e), m = this.model, b, t;

		if (q === null) {
			tip.hidden = true;
			return;
		}
		if (q.merged > 0) {
			showTip(e, [q.merged + " frames narrower than a pixel," +
			    " merged (click a wider parent to zoom)",
			    "baseline: " + count(q.mb) + " (" +
			    pct(share(q.mb, m.totB)) + ")",
			    "target: " + count(q.mt) + " (" +
			    pct(share(q.mt, m.totT)) + ")"]);
			return;
		}
		b = share(m.b[q.i], m.totB);
		t = share(m.t[q.i], m.totT);
		showTip(e, [m.label(q.i),
		    "baseline: " + count(m.b[q.i]) + " (" + pct(b) + ")",
		    "target: " + count(m.t[q.i]) + " (" + pct(t) + ")",
		    "change: " + pp(t - b) + (b > 0 ? ", " +
		    rel(100 * (t - b) / b) : "")]);
	};

	/* Functions table */

	var COLUMNS = [
		["name", "Function", "text"],
		["pib", "Incl. baseline", "pct"],
		["peb", "Excl. baseline", "pct"],
		["pit", "Incl. target", "pct"],
		["pet", "Excl. target", "pct"],
		["di", "\u0394 incl.", "pp"],
		["de", "\u0394 excl.", "pp"],
		["ri", "Rel. incl.", "rel"],
		["re", "Rel. excl.", "rel"],
		["presence", "Present", "text"]
	];

	function Table(parent) {
		var self = this, bar, thead, tr;

		this.sortKey = "de";
		this.sortDir = -1;
		this.limit = TABLE_PAGE;
		this.filter = "";
		bar = el("div", "bar");
		this.input = el("input");
		this.input.type = "search";
		this.input.id = "func-filter";
		this.input.placeholder = "filter by name";
		this.input.addEventListener("input", function () {
			self.filter = self.input.value.toLowerCase();
			self.limit = TABLE_PAGE;
			self.render();
		});
		bar.appendChild(this.input);
		this.count = el("span", "graph-info");
		bar.appendChild(this.count);
		parent.appendChild(bar);
		this.table = el("table", "funcs");
		this.table.id = "func-table";
		thead = el("thead");
		tr = el("tr");
		this.heads = [];
		COLUMNS.forEach(function (c) {
			var th = el("th", c[2] === "text" ? "" : "num", c[1]);

			th.scope = "col";
			th.dataset.key = c[0];
			th.addEventListener("click", function () {
				if (self.sortKey === c[0])
					self.sortDir = -self.sortDir;
				else {
					self.sortKey = c[0];
					self.sortDir = c[2] === "text" ? 1 : -1;
				}
				self.sort();
				self.render();
			});
			self.heads.push(th);
			tr.appendChild(th);
		});
		thead.appendChild(tr);
		this.table.appendChild(thead);
		this.tbody = el("tbody");
		this.table.appendChild(this.tbody);
		parent.appendChild(this.table);
		this.more = el("button", "more", "Show more");
		this.more.type = "button";
		this.more.addEventListener("click", function () {
			self.limit += TABLE_PAGE;
			self.render();
		});
		parent.appendChild(this.more);
	}

	Table.prototype.load = function (model) {
		var f = model.ev.func, rows = [], i, r;

		for (i = 0; i + 4 < f.length; i += 5) {
			r = { name: names[f[i]], ib: f[i + 1], eb: f[i + 2],
			    it: f[i + 3], et: f[i + 4] };
			r.pib = share(r.ib, model.totB);
			r.peb = share(r.eb, model.totB);
			r.pit = share(r.it, model.totT);
			r.pet = share(r.et, model.totT);
			r.di = r.pit - r.pib;
			r.de = r.pet - r.peb;
			/* null: new on the target side; 0 when on neither */
			r.ri = r.pib > 0 ? 100 * r.di / r.pib : r.pit > 0 ?
			    null : 0;
			r.re = r.peb > 0 ? 100 * r.de / r.peb : r.pet > 0 ?
			    null : 0;
			r.presence = r.ib > 0 && r.it > 0 ? "both" :
			    r.ib > 0 ? "base" : "target";
			rows.push(r);
		}
		this.rows = rows;
		this.sort();
		this.render();
	};

	Table.prototype.sort = function () {
		var k = this.sortKey, d = this.sortDir;

		this.rows.sort(function (a, b) {
			var x = a[k], y = b[k];

			if (x === y)
				return a.name < b.name ? -1 : a.name > b.name;
			if (x === null)	/* new functions rank highest */
				return -d;
			if (y === null)
				return d;
			return (x < y ? -1 : 1) * d;
		});
		this.heads.forEach(function (th) {
			if (th.dataset.key === k)
				th.setAttribute("aria-sort", d > 0 ?
				    "ascending" : "descending");
			else
				th.removeAttribute("aria-sort");
		});
	};

	Table.prototype.render = function () {
		var frag = document.createDocumentFragment(), shown = 0;
		var self = this, i, r, tr, n = 0, f = this.filter;

		for (i = 0; i < this.rows.length; i++) {
			r = this.rows[i];
			if (f !== "" && r.name.toLowerCase().indexOf(f) < 0)
				continue;
			n++;
			if (shown >= this.limit)
				continue;
			shown++;
			tr = el("tr");
			COLUMNS.forEach(function (c) {
				var v = r[c[0]], td;

				if (c[0] === "name") {
					td = el("td", "fname");
					var a = el("button", "link", v);
					a.type = "button";
					a.title = "show its call flows";
					a.addEventListener("click", (function (nm) {
						return function () {
							flows.select(nm);
							document.getElementById(
							    "flows").scrollIntoView();
						};
					})(v));
					td.appendChild(a);
					if (noteCount(v) > 0)
						td.appendChild(el("span", "noted",
						    "\u270e"));
					tr.appendChild(td);
					return;
				}
				td = el("td", c[2] === "text" ? "" : "num",
				    c[2] === "pct" ? pct(v) : c[2] === "pp" ?
				    pp(v) : c[2] === "rel" ? rel(v) : v);
				if (c[2] === "pct")	/* the count behind it */
					td.title = count(r[c[0].slice(1)]);
				if (c[2] === "pp" && Math.abs(v) >= 0.005)
					td.className += v > 0 ? " up" : " down";
				tr.appendChild(td);
			});
			frag.appendChild(tr);
		}
		this.tbody.textContent = "";
		this.tbody.appendChild(frag);
		this.count.textContent = shown + " of " + n + " functions" +
		    (f !== "" ? " matching" : "");
		this.more.hidden = shown >= n;
		this.shown = shown;
		hook.table = self;
	};

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

	/* Notes, saved with the report */

	var notesUI = {};

	function noteCount(fn) {
		return notes.filter(function (n) {
			return n.on === fn;
		}).length;
	}

	function noteForm(fn) {
		notesUI.on.value = fn || "";
		document.getElementById("notes").scrollIntoView();
		notesUI.text.focus();
	}

	function renderNotes() {
		var ul = notesUI.list;

		ul.textContent = "";
		if (notes.length === 0)
			ul.appendChild(el("li", "empty", "No notes yet."));
		notes.forEach(function (n, k) {
			var li = el("li"), del;

			li.appendChild(el("strong", "", n.on ? n.on :
			    "(the report)"));
			li.appendChild(el("span", "when", n.at));
			li.appendChild(el("p", "", n.text));
			del = el("button", "", "Delete");
			del.type = "button";
			del.addEventListener("click", function () {
				notes.splice(k, 1);
				renderNotes();
				if (hook.table)
					hook.table.render();
			});
			li.appendChild(del);
			ul.appendChild(li);
		});
	}

	/* The page as written, with the notes in place of the old ones. */
	function serialize() {
		var doc = pristine.cloneNode(true);

		doc.querySelector("#pv-notes").textContent =
		    JSON.stringify(notes).replace(/</g, "\\u003c")
		    .replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
		return "<!DOCTYPE html>\n" + doc.outerHTML + "\n";
	}

	function save() {
		var blob = new Blob([serialize()], { type: "text/html" });
		var a = el("a"), name = location.pathname.split("/").pop();

		a.href = URL.createObjectURL(blob);
		a.download = name && /\.html?$/.test(name) ? name :
		    "pv-report.html";
		document.body.appendChild(a);
		a.click();
		a.remove();
		setTimeout(function () {
			URL.revokeObjectURL(a.href);
		}, 1000);
	}

	function notesSetup(parent) {
		var form = el("div", "note-form"), add, saveBtn, lab;

		lab = el("label", "", "On function (empty: the report) ");
		notesUI.on = el("input");
		notesUI.on.id = "note-on";
		notesUI.on.setAttribute("list", "flow-names");
		lab.appendChild(notesUI.on);
		form.appendChild(lab);
		notesUI.text = el("textarea");
		notesUI.text.id = "note-text";
		notesUI.text.rows = 3;
		notesUI.text.placeholder = "what you found";
		form.appendChild(notesUI.text);
		add = el("button", "", "Add note");
		add.type = "button";
		add.id = "note-add";
		add.addEventListener("click", function () {
			if (notesUI.text.value.trim() === "")
				return;
			notes.push({ on: notesUI.on.value,
			    text: notesUI.text.value,
			    at: new Date().toISOString().slice(0, 16)
			    .replace("T", " ") });
			notesUI.text.value = "";
			renderNotes();
			if (hook.table)
				hook.table.render();
		});
		form.appendChild(add);
		saveBtn = el("button", "", "Save the report with its notes");
		saveBtn.type = "button";
		saveBtn.id = "note-save";
		saveBtn.addEventListener("click", save);
		form.appendChild(saveBtn);
		parent.appendChild(form);
		notesUI.list = el("ul", "notes");
		parent.appendChild(notesUI.list);
		renderNotes();
	}

	/* The page */

	var flameBox = document.getElementById("flame");
	var table;

	function setEvent(k) {
		var m, box = state.graphBox;

		state.ev = k;
		m = state.model = new Model(data.events[k]);
		hook.marks.model = performance.now();
		m.search(state.term);
		box.textContent = "";
		state.graphs = ["diff", "target", "base"].map(function (mode) {
			var g = new FlameGraph(m, mode, box);

			hook.graphs[mode] = g;
			return g;
		});
		state.graphs[0].draw();
		hook.marks.drawn = performance.now();
		/* the rest after the first graph is on screen */
		setTimeout(function () {
			state.graphs[1].draw();
			state.graphs[2].draw();
			table.load(m);
			fillNames(m);
			if (!state.fn && table.rows.length > 0)
				state.fn = table.rows[0].name;
			flows.select(state.fn);
		}, 0);
	}

	function fillNames(m) {
		var rows = table.rows.slice().sort(function (a, b) {
			return b.it - a.it;
		}).slice(0, 300);

		flows.list.textContent = "";
		rows.forEach(function (r) {
			var o = el("option");

			o.value = r.name;
			flows.list.appendChild(o);
		});
		return m;
	}

	function setup() {
		var bar = el("div", "bar sticky"), search, sel, timer = null;

		search = el("input");
		search.type = "search";
		search.id = "search";
		search.placeholder = "search frames (highlight)";
		search.addEventListener("input", function () {
			clearTimeout(timer);
			timer = setTimeout(function () {
				state.term = search.value;
				state.model.search(state.term);
				state.graphs.forEach(function (g) {
					g.draw();
				});
			}, 80);
		});
		bar.appendChild(search);
		if (data.events.length > 1) {
			sel = el("select");
			sel.id = "event";
			data.events.forEach(function (e, k) {
				var o = el("option", "", e.name);

				o.value = String(k);
				sel.appendChild(o);
			});
			sel.addEventListener("change", function () {
				setEvent(Number(sel.value));
			});
			bar.appendChild(sel);
		}
		bar.appendChild(el("span", "graph-info", "click a frame to " +
		    "zoom; hover for counts and shares"));
		flameBox.appendChild(bar);
		state.graphBox = el("div");
		flameBox.appendChild(state.graphBox);
		table = new Table(document.getElementById("functions"));
		flowSetup(document.getElementById("flows"));
		notesSetup(document.getElementById("notes"));

		var nav = document.getElementById("tabs");
		Array.prototype.forEach.call(
		    document.querySelectorAll("main > section"), function (s) {
			var a = el("a", "", s.dataset.tab);

			a.href = "#" + s.id;
			nav.appendChild(a);
		});
		window.addEventListener("resize", function () {
			clearTimeout(state.resize);
			state.resize = setTimeout(function () {
				state.graphs.forEach(function (g) {
					g.draw();
				});
				flows.draw();
			}, 150);
		});
		/*
		 * data.summary (null until the statistics tools write their
		 * verdict records, see render_html.h) is where a summary page
		 * of benchmark comparisons is to be drawn, as one more section
		 * before the flame graphs.
		 */
		hook.serialize = serialize;
		hook.notes = notes;
		setEvent(0);
	}

	setup();
})();
