// flame.js: the flame graphs (canvas): layout, painting of the rows in
// view, zoom, colours, tooltips.
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
			    "baseline: " + amount(q.mb, m.unit) + " (" +
			    pct(share(q.mb, m.totB)) + ")",
			    "target: " + amount(q.mt, m.unit) + " (" +
			    pct(share(q.mt, m.totT)) + ")"]);
			return;
		}
		b = share(m.b[q.i], m.totB);
		t = share(m.t[q.i], m.totT);
		showTip(e, [m.label(q.i),
		    "baseline: " + amount(m.b[q.i], m.unit) + " (" + pct(b) +
		    ")",
		    "target: " + amount(m.t[q.i], m.unit) + " (" + pct(t) +
		    ")",
		    "change: " + pp(t - b) + (b > 0 ? ", " +
		    rel(100 * (t - b) / b) : "")]);
	};

