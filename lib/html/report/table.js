// table.js: the table of all functions: filter, sort, paging.
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
		var f = model.func, rows = [], i, r;

		this.unit = model.unit;
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

		this.rows.sort(byColumn(k, d));
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
				if (c[2] === "pct") {	/* the count behind it */
					td.appendChild(el("span", "cnt",
					    amount(r[c[0].slice(1)], self.unit)));
					td.title = count(r[c[0].slice(1)]) +
					    " " + self.unit;
				}
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

