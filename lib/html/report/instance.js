// instance.js: the instance page: one key at one level, every figure of its
// verdict, each run's value, the runs' output files, and the facts that
// differ between the baseline's sections and the target's.
	/* The instance page */

	var inst = { box: document.getElementById("instance") };

	/*
	 * A file's path as a link: each part percent-encoded, so that no
	 * part is a scheme (javascript:, http:) nor starts a query or a
	 * fragment; absolute paths as file: URLs, relative ones relative to
	 * the report.
	 */
	function fileHref(p) {
		var abs = p.charAt(0) === "/";

		return (abs ? "file:///" : "./") + String(p).replace(/^\/+/, "")
		    .split("/").map(encodeURIComponent).join("/");
	}

	/* a link to the file at path p, its path as the tooltip */
	function fileLink(p, text) {
		var a = link(fileHref(p), text);

		a.title = p;
		return a;
	}

	function factRows(i) {
		var sides = [sectionsOf(i, 0), sectionsOf(i, 1)], order = [],
		    val = new Map();

		sides.forEach(function (secs, side) {
			secs.forEach(function (s) {
				var f = s[4], k, key, e;

				for (k = 0; k + 2 < f.length; k += 3) {
					key = (f[k + 2] ? "env " : "meta ") +
					    str(f[k]);
					e = val.get(key);
					if (!e) {
						e = [[], []];
						val.set(key, e);
						order.push(key);
					}
					if (e[side].indexOf(str(f[k + 1])) < 0)
						e[side].push(str(f[k + 1]));
				}
			});
		});
		return { order: order, val: val, sides: sides };
	}

	function kvTable(id, rows) {
		var t = el("table", "context"), tb = el("tbody");

		t.id = id;
		rows.forEach(function (r) {
			var tr = el("tr", r[3] || "");

			tr.appendChild(el("th", "", r[0])).scope = "row";
			tr.appendChild(el("td", r[1] === null ? "absent" : "",
			    r[1] === null ? "absent" : r[1]));
			if (r.length > 2)
				tr.appendChild(el("td", r[2] === null ? "absent" :
				    "", r[2] === null ? "absent" : r[2]));
			tb.appendChild(tr);
		});
		t.appendChild(tb);
		return t;
	}

	inst.show = function (i) {
		var v = summary.v, box = this.box, f, rows, t, tb, h, nav;

		box.textContent = "";
		box.appendChild(el("h2", "", "Instance: " + keyText(i, true)));
		box.appendChild(el("p", "legend", pairText(i) + ", experiment " +
		    (str(v.experiment[i]) || "-")));
		nav = el("p", "links");
		nav.appendChild(link("#test=" + i, "the test's levels"));
		if (v.prof[i] >= 0) {
			nav.appendChild(document.createTextNode(" \u00b7 "));
			nav.appendChild(link("#profile=" + v.prof[i],
			    "the profile comparison of this experiment and " +
			    "level", "to-profile"));
		}
		if (v.trend[i] >= 0) {
			nav.appendChild(document.createTextNode(" \u00b7 "));
			nav.appendChild(link("#trend=" + i, "its trend across " +
			    "versions", "to-trend"));
		}
		box.appendChild(nav);

		box.appendChild(kvTable("instance-figures", [
			["class", className(i) + (v.band[i] ? ", band " +
			    summary.bands[v.band[i]] : "")],
			["severity", String(v.sev[i])],
			["change", change(v.ch[i])],
			["interval", interval(v.lo[i], v.hi[i])],
			["q-value", fixed(v.q[i], 3)],
			["p (Welch, Mann-Whitney)", fixed(v.pw[i], 3) + ", " +
			    fixed(v.pm[i], 3)],
			["Hedges' g, Cliff's delta", fixed(v.g[i], 3) + ", " +
			    fixed(v.cliff[i], 3)],
			["robust CV (baseline, target)", (v.rcvb[i] === null ?
			    "-" : pct(100 * v.rcvb[i])) + ", " + (v.rcvt[i] ===
			    null ? "-" : pct(100 * v.rcvt[i]))],
			["outlier runs (baseline, target)", (v.outb[i] === null ?
			    "-" : v.outb[i]) + ", " + (v.outt[i] === null ? "-" :
			    v.outt[i])],
			["runs (baseline/target)", v.nb[i] + "/" + v.nt[i] +
			    (v.runs[i] ? "; about " + v.runs[i] + " a side " +
			    "would likely decide" : "")],
			["smallest detectable change", v.mde[i] === null ? "-" :
			    pct(100 * (1 - Math.exp(-v.mde[i])))],
			["flags", v.flags[i] || "none"],
			["reason", str(v.reason[i])]
		]));

		/* each run's value */
		box.appendChild(el("h3", "", "Runs"));
		t = el("table", "funcs runs");
		t.id = "instance-runs";
		h = el("tr");
		["Side", "Run", "Value (" + (str(v.unit[i]) || "no unit") + ")"]
		    .forEach(function (c) {
			h.appendChild(el("th", "", c)).scope = "col";
		});
		t.appendChild(el("thead")).appendChild(h);
		tb = el("tbody");
		[[v.bs[i], "baseline"], [v.ts[i], "target"]].forEach(function (q) {
			runsOf(q[0]).forEach(function (e) {
				var tr = el("tr");

				tr.appendChild(el("td", "", q[1]));
				tr.appendChild(el("td", "num", e.run));
				tr.appendChild(el("td", "num", String(e.value)));
				tb.appendChild(tr);
			});
			if (q[0] >= 0 && summary.sk.more[q[0]] > 0)
				tb.appendChild(el("tr")).appendChild(el("td", "",
				    summary.sk.more[q[0]] + " more values of the " +
				    q[1] + " not kept"));
		});
		t.appendChild(tb);
		box.appendChild(t);

		/* the runs' output files, where pv-collect kept them */
		f = factRows(i);
		var files = el("ul", "artifacts"), nfiles = 0;
		files.id = "instance-artifacts";
		f.sides.forEach(function (secs, side) {
			secs.forEach(function (s) {
				var a = s[5], k, li;

				for (k = 0; k + 2 < a.length; k += 3) {
					li = el("li", "", (side ? "target" :
					    "baseline") + " run " + a[k] + ": ");
					li.appendChild(fileLink(a[k + 1], "stdout"));
					li.appendChild(document.createTextNode(", "));
					li.appendChild(fileLink(a[k + 2], "stderr"));
					files.appendChild(li);
					nfiles++;
				}
			});
		});
		box.appendChild(el("h3", "", "Artifacts"));
		if (nfiles > 0) {
			box.appendChild(el("p", "legend", "The files pv-collect " +
			    "kept, where its meta record 'artifacts' says " +
			    "(a relative path is one next to this report)."));
			box.appendChild(files);
		} else {
			box.appendChild(el("p", "none", "No artifacts: the " +
			    "sections name no 'artifacts' directory."));
		}

		/* the facts that differ, side by side */
		rows = [];
		var same = 0;
		f.order.forEach(function (k) {
			var e = f.val.get(k), a = e[0].join("\n"),
			    b = e[1].join("\n");

			if (/^meta (run|warmup)$/.test(k))
				return;		/* the runs' own lines */
			if (e[0].length > 0 && a === b) {
				same++;
				return;
			}
			rows.push([k, e[0].length ? a : null, e[1].length ? b :
			    null, "differ"]);
		});
		box.appendChild(el("h3", "", "Facts that differ"));
		box.appendChild(el("p", "legend", rows.length + " meta and env " +
		    "facts differ between the baseline's " + f.sides[0].length +
		    " and the target's " + f.sides[1].length + " sections; " +
		    same + " are the same."));
		if (rows.length > 0) {
			t = kvTable("instance-facts", rows);
			h = el("tr");
			["", "baseline", "target"].forEach(function (c) {
				h.appendChild(el("th", "", c)).scope = "col";
			});
			t.insertBefore(el("thead"), t.firstChild).appendChild(h);
			box.appendChild(t);
		}
		hook.instance = { v: i, facts: rows.length, files: nfiles };
	};
