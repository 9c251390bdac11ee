// profile.js: the profile page: the choice of profile comparison and of
// event, its summary (totals, their ratio, the unit, the top suspects, the
// benchmark's verdicts), and the setup of its flame graphs, table and
// call flows.
	/* The profile page */

	var flameBox = document.getElementById("flame");
	var psumBox = document.getElementById("psummary");
	var table;

	/* The data of profile k: its summary, and its own element's trees. */
	function heavyOf(k) {
		var e = document.getElementById("pv-prof-" + k);

		if (!e.pvData)
			e.pvData = JSON.parse(e.textContent);
		return e.pvData;
	}

	function profileTitle(p) {
		var s = p.base.experiment || "";

		if (p.level !== null)
			s += (s ? ", " : "") + "level " + p.level;
		return (s ? s + ": " : "") + (p.base.version || "baseline") +
		    " \u2192 " + (p.target.version || "target");
	}

	function ratio(a, b) {
		return a > 0 ? (b / a).toFixed(3) + "\u00d7" : "-";
	}

	/* The verdicts of the benchmark this profile comparison belongs to. */
	function profileVerdicts(k) {
		var out = [], i;

		if (!summary)
			return out;
		for (i = 0; i < summary.v.prof.length; i++)
			if (summary.v.prof[i] === k)
				out.push(i);
		return out;
	}

	function suspectTable(ev, rows, title, id) {
		var t = el("table", "funcs suspects"), tr, tb;

		t.id = id;
		t.appendChild(el("caption", "", title));
		tr = el("tr");
		["Function", "\u0394 excl.", "\u0394 incl.", "Excl. baseline",
		    "Excl. target", "Incl. baseline", "Incl. target"].forEach(
		    function (h, i) {
			var th = el("th", i ? "num" : "", h);

			th.scope = "col";
			tr.appendChild(th);
		});
		t.appendChild(el("thead")).appendChild(tr);
		tb = el("tbody");
		rows.forEach(function (r) {
			var b = el("button", "link", r[0]), td;

			b.type = "button";
			b.title = "show its call flows";
			b.addEventListener("click", function () {
				flows.select(r[0]);
				document.getElementById("flows").scrollIntoView();
			});
			tr = el("tr");
			td = el("td", "fname");
			td.appendChild(b);
			tr.appendChild(td);
			[pp(r[5]), pp(r[6]), amount(r[2], ev.unit),
			    amount(r[4], ev.unit), amount(r[1], ev.unit),
			    amount(r[3], ev.unit)].forEach(function (v, i) {
				td = el("td", "num", v);
				if (i < 2 && Math.abs(i ? r[6] : r[5]) >= 0.005)
					td.className += (i ? r[6] : r[5]) > 0 ?
					    " up" : " down";
				tr.appendChild(td);
			});
			tb.appendChild(tr);
		});
		t.appendChild(tb);
		return t;
	}

	/* The summary of profile k, event e, at the top of its page. */
	function profileSummary(k, e) {
		var p = data.profiles[k], ev = p.events[e], box, t, tr, vs;

		box = document.getElementById("psum") || el("div");
		box.id = "psum";
		box.textContent = "";
		box.appendChild(el("p", "psum-line", "Event " + ev.name +
		    ", counted in " + (ev.unit === "ns" ? "nanoseconds" :
		    ev.unit) + "; shares are of " + (p.raw ? "the baseline's" +
		    " total on both sides (pv-diff --raw)" : "each side's " +
		    "own total") + "."));
		t = el("table", "context totals");
		t.id = "totals";
		tr = el("tr");
		["", "baseline", "target", "target / baseline"].forEach(
		    function (h) {
			tr.appendChild(el("th", "", h)).scope = "col";
		});
		t.appendChild(el("thead")).appendChild(tr);
		function row(name, a, b, fmt) {
			var r = el("tr");

			r.appendChild(el("th", "", name)).scope = "row";
			r.appendChild(el("td", "num", fmt(a)));
			r.appendChild(el("td", "num", fmt(b)));
			r.appendChild(el("td", "num" + (a > 0 && (b / a < 0.8 ||
			    b / a > 1.25) ? " differ" : ""), ratio(a, b)));
			t.appendChild(r);
		}
		if (ev.samples[0] > 0 || ev.samples[1] > 0)
			row("samples", ev.samples[0], ev.samples[1], count);
		row("total " + (ev.unit === "ns" ? "time" : ev.unit),
		    ev.total[0], ev.total[1], function (x) {
			return amount(x, ev.unit);
		});
		box.appendChild(t);
		(p.roots || []).forEach(function (m, i) {
			var line = el("p", "psum-line roots", "Roots " + m[0] +
			    " and " + m[1] + " merged, score " +
			    m[2].toFixed(2) + "; --keep-roots keeps them apart.");

			line.id = "rootmerge-" + i;
			box.appendChild(line);
		});
		vs = profileVerdicts(k);
		if (vs.length > 0) {
			var ul = el("ul", "pverdicts");

			ul.id = "profile-verdicts";
			box.appendChild(el("h3", "", "The benchmark's verdicts"));
			vs.forEach(function (i) {
				var li = el("li", "cls-" + className(i));

				li.appendChild(link("#instance=" + i,
				    keyText(i, true)));
				li.appendChild(document.createTextNode(": " +
				    className(i) + " " + change(summary.v.ch[i]) +
				    " " + interval(summary.v.lo[i],
				    summary.v.hi[i])));
				ul.appendChild(li);
			});
			box.appendChild(ul);
		}
		if (p.meta.length > 0) {
			var notesList = el("ul", "pmeta");

			notesList.id = "profile-notes";
			box.appendChild(el("h3", "", "What pv-diff says of the " +
			    "comparison"));
			p.meta.forEach(function (m) {
				notesList.appendChild(el("li", "", m[1] + ": " +
				    m[2]));
			});
			box.appendChild(notesList);
		}
		box.appendChild(el("h3", "", "Top suspects"));
		var two = el("div", "two");
		two.appendChild(suspectTable(ev, ev.top, "by the change of " +
		    "their exclusive share", "suspects-excl"));
		two.appendChild(suspectTable(ev, ev.topIncl, "by the change " +
		    "of their inclusive share", "suspects-incl"));
		box.appendChild(two);
		psumBox.appendChild(box);
	}

	function setEvent(e) {
		var m, box = state.graphBox, p = data.profiles[state.prof];

		state.ev = e;
		m = state.model = new Model(p.events[e], state.heavy.events[e]);
		hook.marks.model = performance.now();
		m.search(state.term);
		profileSummary(state.prof, e);
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
			groupsLoad(e);
			fillNames();
			if (!state.fn && table.rows.length > 0)
				state.fn = table.rows[0].name;
			flows.select(state.fn);
		}, 0);
	}

	function fillNames() {
		var rows = table.rows.slice().sort(function (a, b) {
			return b.it - a.it;
		}).slice(0, 300);

		flows.list.textContent = "";
		rows.forEach(function (r) {
			var o = el("option");

			o.value = r.name;
			flows.list.appendChild(o);
		});
	}

	/* Open profile k (its data read now, the first time). */
	function openProfile(k) {
		var p = data.profiles[k], sel = state.eventSel;

		if (state.prof === k)
			return;
		state.prof = k;
		state.heavy = heavyOf(k);
		names = state.heavy.names;
		state.fn = null;
		if (state.profSel)
			state.profSel.value = String(k);
		Array.prototype.forEach.call(document.querySelectorAll(
		    ".pcontext"), function (c) {
			c.hidden = Number(c.dataset.prof) !== k;
		});
		sel.textContent = "";
		p.events.forEach(function (e, i) {
			var o = el("option", "", e.name);

			o.value = String(i);
			sel.appendChild(o);
		});
		sel.hidden = p.events.length < 2;
		document.querySelector("#psummary h2").textContent =
		    "Profile: " + profileTitle(p);
		setEvent(0);
	}

	function profileSetup() {
		var bar = el("div", "bar sticky"), search, timer = null, sel;

		if (data.profiles.length > 1) {
			sel = el("select");
			sel.id = "profile-choice";
			data.profiles.forEach(function (p, k) {
				var o = el("option", "", profileTitle(p));

				o.value = String(k);
				sel.appendChild(o);
			});
			sel.addEventListener("change", function () {
				location.hash = "#profile=" + sel.value;
			});
			state.profSel = sel;
			psumBox.appendChild(sel);
		}
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
		state.eventSel = el("select");
		state.eventSel.id = "event";
		state.eventSel.addEventListener("change", function () {
			setEvent(Number(state.eventSel.value));
		});
		bar.appendChild(state.eventSel);
		bar.appendChild(el("span", "graph-info", "click a frame to " +
		    "zoom; hover for counts and shares"));
		flameBox.appendChild(bar);
		state.graphBox = el("div");
		flameBox.appendChild(state.graphBox);
		table = new Table(document.getElementById("functions"));
		groupsSetup(document.getElementById("groups"));
		flowSetup(document.getElementById("flows"));
		notesSetup(document.getElementById("notes"));
		window.addEventListener("resize", function () {
			clearTimeout(state.resize);
			state.resize = setTimeout(function () {
				state.graphs.forEach(function (g) {
					g.draw();
				});
				flows.draw();
			}, 150);
		});
	}
