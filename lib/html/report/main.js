// main.js: the page: tabs, the choice of event, the setup of every part,
// and the end of the closure.
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
