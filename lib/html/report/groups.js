// groups.js: the roll-ups of the profile page, from pv-diff's group and
// frame records (render_groups.c writes them into the profile's data):
// a sortable table of each kind of group (space, module, file,
// subsystem), a treemap of the groups of one kind, and a click on a group
// that filters the flame graphs to the stacks touching it.
	/* Groups */

	var GROUP_COLUMNS = [
		["name", "Group", "text"],
		["pib", "Incl. baseline", "pct"],
		["peb", "Excl. baseline", "pct"],
		["pit", "Incl. target", "pct"],
		["pet", "Excl. target", "pct"],
		["di", "\u0394 incl.", "pp"],
		["de", "\u0394 excl.", "pp"],
		["ri", "Rel. incl.", "rel"],
		["re", "Rel. excl.", "rel"]
	];
	var GROUP_ROWS = 50;		/* rows of a table before "Show all" */
	var MAP_W = 900, MAP_H = 320;	/* the treemap, SVG units */

	var groups = { box: null, data: null, kinds: [], kind: -1,
	    filter: null, tables: [], tiles: [] };

	/*
	 * Keep the stacks that touch the frames whose names keep[] marks
	 * (null: every stack): a node's own weight counts when it or one of
	 * its callers is marked, as the stack that ends there then has a
	 * frame in the group.  The shares stay shares of each side's total.
	 */
	Model.prototype.keepOnly = function (keep) {
		var n = this.n, on = new Uint8Array(n), i, k, p;

		this.b = this.xb.slice();
		this.t = this.xt.slice();
		if (keep)
			for (i = 0; i < n; i++) {
				k = this.name[i];
				p = this.parent[i];
				on[i] = (k >= 0 && keep[k]) || (p >= 0 && on[p]) ?
				    1 : 0;
				if (!on[i])
					this.b[i] = this.t[i] = 0;
			}
		for (i = n - 1; i > 0; i--) {
			this.b[this.parent[i]] += this.b[i];
			this.t[this.parent[i]] += this.t[i];
		}
		this.maxDelta = 0;
		for (i = 0; i < n; i++) {
			this.delta[i] = share(this.t[i], this.totT) -
			    share(this.b[i], this.totB);
			if (Math.abs(this.delta[i]) > this.maxDelta)
				this.maxDelta = Math.abs(this.delta[i]);
		}
	};

	function groupRow(g, r) {
		var x = { kind: r[0], g: r[1], name: g.names[r[1]],
		    ib: r[2], eb: r[3], it: r[4], et: r[5], pib: r[6],
		    peb: r[7], pit: r[8], pet: r[9], di: r[10], de: r[11],
		    /* in percent, as the functions table has them; null: new */
		    ri: r[12] === null ? null : 100 * r[12],
		    re: r[13] === null ? null : 100 * r[13] };

		if (r[12] === null && !(r[8] > 0))
			x.ri = 0;
		if (r[13] === null && !(r[9] > 0))
			x.re = 0;
		return x;
	}

	function GroupTable(kind, name, rows, parent) {
		var self = this, head;

		this.kind = kind;
		this.name = name;
		this.rows = rows;
		this.sortKey = null;	/* null: pv-diff's order */
		this.dir = -1;
		this.all = false;
		this.box = el("div", "group-block");
		this.table = el("table", "funcs groups");
		this.table.id = "group-table-" + name;
		this.table.appendChild(el("caption", "", "By " + name + ": " +
		    rows.length + " group" + (rows.length === 1 ? "" : "s")));
		head = sortHead(this, GROUP_COLUMNS.map(function (c) {
			return [c[0], c[1], c[2] !== "text"];
		}), function (key, num) {
			if (self.sortKey === key)
				self.dir = -self.dir;
			else {
				self.sortKey = key;
				self.dir = num ? -1 : 1;
			}
			self.sort();
			self.render();
		});
		this.table.appendChild(head);
		this.tbody = el("tbody");
		this.table.appendChild(this.tbody);
		this.box.appendChild(this.table);
		this.more = el("button", "more", "Show all");
		this.more.type = "button";
		this.more.addEventListener("click", function () {
			self.all = true;
			self.render();
		});
		this.box.appendChild(this.more);
		parent.appendChild(this.box);
		this.render();
	}

	GroupTable.prototype.sort = function () {
		this.rows.sort(byColumn(this.sortKey, this.dir));
	};

	GroupTable.prototype.render = function () {
		var self = this, frag = document.createDocumentFragment();
		var n = this.all ? this.rows.length :
		    Math.min(GROUP_ROWS, this.rows.length), i;

		for (i = 0; i < n; i++) {
			var r = this.rows[i], tr = el("tr"), td, b;

			if (groups.filter && groups.filter.kind === r.kind &&
			    groups.filter.g === r.g)
				tr.className = "active";
			td = el("td", "fname");
			b = el("button", "link", r.name);
			b.type = "button";
			b.title = "show only the stacks touching it in the " +
			    "flame graphs";
			b.addEventListener("click", (function (row) {
				return function () {
					groupFilter(row.kind, row.g);
				};
			})(r));
			td.appendChild(b);
			tr.appendChild(td);
			GROUP_COLUMNS.slice(1).forEach(function (c) {
				var v = r[c[0]];

				td = el("td", "num", c[2] === "pct" ? pct(v) :
				    c[2] === "pp" ? pp(v) : rel(v));
				if (c[2] === "pp" && Math.abs(v) >= 0.005)
					td.className += v > 0 ? " up" : " down";
				tr.appendChild(td);
			});
			frag.appendChild(tr);
		}
		this.tbody.textContent = "";
		this.tbody.appendChild(frag);
		this.more.hidden = n >= this.rows.length;
		this.more.textContent = "Show all " + this.rows.length;
		this.shown = n;
	};

	/* The worst aspect ratio of a treemap row of total sum along side. */
	function worstRatio(row, sum, side) {
		var mx = 0, mn = Infinity, s2 = side * side, q2 = sum * sum;

		row.forEach(function (it) {
			mx = Math.max(mx, it.v);
			mn = Math.min(mn, it.v);
		});
		return Math.max(s2 * mx / q2, q2 / (s2 * mn));
	}

	/*
	 * Squarified treemap (Bruls, Huizing and van Wijk, 2000): items,
	 * largest first, whose v are areas summing to w * h, laid in rows
	 * along the shorter side while that keeps their shapes squarer.
	 */
	function squarify(items, x, y, w, h) {
		var out = [], i = 0;

		while (i < items.length && w > 0 && h > 0) {
			var side = Math.min(w, h), row = [items[i]];
			var sum = items[i].v, best, thick, pos = 0;

			best = worstRatio(row, sum, side);
			for (i++; i < items.length; i++) {
				row.push(items[i]);
				var r = worstRatio(row, sum + items[i].v, side);

				if (r > best) {
					row.pop();
					break;
				}
				best = r;
				sum += items[i].v;
			}
			thick = sum / side;
			row.forEach(function (it) {
				var len = it.v / thick;

				out.push(w >= h ? { r: it.r, x: x, y: y + pos,
				    w: thick, h: len } : { r: it.r, x: x + pos,
				    y: y, w: len, h: thick });
				pos += len;
			});
			if (w >= h) {
				x += thick;
				w -= thick;
			} else {
				y += thick;
				h -= thick;
			}
		}
		return out;
	}

	/* The treemap of kind k: area the target's exclusive share. */
	function groupMap(k) {
		var svgBox = groups.map, rows, total = 0, max = 0, items;

		groups.kind = k;
		svgBox.textContent = "";
		rows = groups.tables.filter(function (t) {
			return t.kind === k;
		})[0].rows.filter(function (r) {
			return r.pet > 0;
		});
		rows.forEach(function (r) {
			total += r.pet;
			max = Math.max(max, Math.abs(r.de));
		});
		items = rows.slice().sort(function (a, b) {
			return b.pet - a.pet || (a.name < b.name ? -1 : 1);
		}).map(function (r) {
			return { r: r, v: r.pet / total * MAP_W * MAP_H };
		});
		groups.tiles = total > 0 ? squarify(items, 0, 0, MAP_W, MAP_H) :
		    [];
		groups.tiles.forEach(function (t) {
			var g = svg("g", { "class": "tile" }), r = t.r, label;
			var on = groups.filter && groups.filter.kind === r.kind &&
			    groups.filter.g === r.g;

			g.appendChild(svg("rect", { x: t.x.toFixed(1),
			    y: t.y.toFixed(1), width: Math.max(t.w - 1, 0.5)
			    .toFixed(1), height: Math.max(t.h - 1, 0.5).toFixed(1),
			    fill: diffColour(r.de, max),
			    stroke: on ? "#000" : "#fff",
			    "stroke-width": on ? 2 : 1 }));
			g.appendChild(svg("title", {})).textContent = r.name +
			    ": " + pct(r.pet) + " of the target exclusive, " +
			    pp(r.de) + " from the baseline";
			label = r.name;
			if (t.w > 40 && t.h > 14) {
				var fit = Math.floor((t.w - 6) / 6.2);

				if (label.length > fit)
					label = label.slice(0, Math.max(fit - 2, 1)) +
					    "..";
				g.appendChild(svg("text", { x: (t.x + 3).toFixed(1),
				    y: (t.y + 12).toFixed(1),
				    "font-size": 11 })).textContent = label;
			}
			g.addEventListener("click", function () {
				groupFilter(r.kind, r.g);
			});
			svgBox.appendChild(g);
		});
	}

	/* Show the flame graphs' stacks touching group g of kind k, or all. */
	function groupFilter(k, g) {
		var d = groups.data, keep = null, info = groups.info, label;

		if (k === null || (groups.filter && groups.filter.kind === k &&
		    groups.filter.g === g)) {
			groups.filter = null;
		} else {
			groups.filter = { kind: k, g: g };
			keep = new Uint8Array(names.length);
			unpack(d.of[k], false).forEach(function (x, i) {
				/* one plus the group, 0 for none */
				if (x === g + 1)
					keep[i] = 1;
			});
		}
		state.model.keepOnly(keep);
		state.graphs.forEach(function (gr) {
			gr.zoom = 0;
			gr.reset.disabled = true;
			gr.draw();
		});
		info.textContent = "";
		if (groups.filter) {
			label = d.kinds[k] + " " + d.names[g];
			info.appendChild(document.createTextNode("The flame " +
			    "graphs show the stacks touching " + label + ". "));
			var clear = el("button", "", "Show every stack");

			clear.type = "button";
			clear.id = "group-clear";
			clear.addEventListener("click", function () {
				groupFilter(null, null);
			});
			info.appendChild(clear);
		}
		groups.tables.forEach(function (t) {
			t.render();
		});
		if (groups.kind >= 0)
			groupMap(groups.kind);
		hook.groups = groups;
	}

	function groupsSetup(box) {
		groups.box = box;
		groups.body = el("div");
		box.appendChild(groups.body);
	}

	/* The groups of event e of the profile open, with its model. */
	function groupsLoad(e) {
		var d = state.heavy.groups, box = groups.body, bar, sel, lists;
		var kinds = [];

		groups.data = d;
		groups.filter = null;
		groups.tables = [];
		groups.kind = -1;
		box.textContent = "";
		hook.groups = groups;
		if (!d || !d.events[e] || d.events[e].length === 0) {
			box.appendChild(el("p", "", "No groups: pv-diff wrote " +
			    "none (--no-groups, or input without frame " +
			    "records)."));
			return;
		}
		d.kinds.forEach(function (name, k) {
			var rows = d.events[e].filter(function (r) {
				return r[0] === k;
			}).map(function (r) {
				return groupRow(d, r);
			});

			if (rows.length > 0)
				kinds.push({ k: k, name: name, rows: rows });
		});
		bar = el("div", "bar");
		sel = el("select");
		sel.id = "group-kind";
		kinds.forEach(function (x) {
			var o = el("option", "", "treemap by " + x.name);

			o.value = String(x.k);
			sel.appendChild(o);
		});
		sel.addEventListener("change", function () {
			groupMap(Number(sel.value));
		});
		bar.appendChild(sel);
		bar.appendChild(el("span", "graph-info", "area: the target's " +
		    "exclusive share; red grew, blue shrank; click a group " +
		    "to filter the flame graphs"));
		box.appendChild(bar);
		groups.info = el("p", "group-filter");
		groups.info.id = "group-filter";
		box.appendChild(groups.info);
		groups.map = svg("svg", { id: "group-map", "class": "treemap",
		    viewBox: "0 0 " + MAP_W + " " + MAP_H, role: "img" });
		box.appendChild(groups.map);
		lists = el("div", "group-tables");
		box.appendChild(lists);
		kinds.forEach(function (x) {
			groups.tables.push(new GroupTable(x.k, x.name, x.rows,
			    lists));
		});
		/* the file kind first where there is one: where a change is */
		kinds.forEach(function (x, i) {
			if (x.name === "file")
				sel.selectedIndex = i;
		});
		groupMap(Number(sel.value));
	}
