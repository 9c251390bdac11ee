// main.js: the pages and their tabs, the routes of the page's links
// (#summary, #test=V, #instance=V, #trend=V, #series=T, #profile=K, a
// section's id), the setup of every part, and the end of the closure.
	/* The page */

	var pages = Array.prototype.slice.call(
	    document.querySelectorAll("main > [data-page]"));
	var navLinks = {};
	var lastV = { test: -1, instance: -1, trend: -1 };

	/* The first regression, else the first verdict, for empty pages. */
	function firstVerdict() {
		var r = document.querySelector("#regression-table tbody tr");

		return r ? Number(r.dataset.v) : summary.v.cls.length > 0 ? 0 :
		    -1;
	}

	function showPage(name) {
		if (summary) {
			pages.forEach(function (p) {
				p.hidden = p.dataset.page !== name;
			});
			Object.keys(navLinks).forEach(function (k) {
				navLinks[k].className = k === name ? "active" : "";
			});
		}
		hook.page = name;
		if (name === "suites")
			suitesShow();
		if (name === "profile" && state.prof < 0)
			openProfile(0);
	}

	function showVerdict(page, i) {
		lastV[page] = i;
		lastV.test = lastV.instance = i;
		if (page === "trend" || summary.v.trend[i] >= 0)
			lastV.trend = i;
		["test", "instance", "trend"].forEach(function (p) {
			if (navLinks[p] && lastV[p] >= 0)
				navLinks[p].href = "#" + p + "=" + lastV[p];
		});
		showPage(page);
		({ test: drill, instance: inst, trend: trend })[page].show(i);
		window.scrollTo(0, 0);
	}

	function route() {
		var h = location.hash.slice(1), m = /^([a-z]+)=([0-9]+)$/.exec(h);
		var target, page, n;

		if (m) {
			n = Number(m[2]);
			if (summary && (m[1] === "test" || m[1] === "instance" ||
			    m[1] === "trend") && n < summary.v.cls.length) {
				showVerdict(m[1], n);
				return;
			}
			if (summary && m[1] === "series" &&
			    n < summary.trends.length) {
				if (navLinks.trend)
					navLinks.trend.href = "#series=" + n;
				showPage("trend");
				trend.showSeries(n);
				window.scrollTo(0, 0);
				return;
			}
			if (m[1] === "profile" && n < data.profiles.length) {
				showPage("profile");
				openProfile(n);
				window.scrollTo(0, 0);
				return;
			}
		}
		target = h ? document.getElementById(h) : null;
		page = target ? target.closest("[data-page]") : null;
		if (!page) {
			showPage(summary ? "summary" : "profile");
			return;
		}
		if (summary && page.dataset.page !== "summary" &&
		    page.dataset.page !== "suites" &&
		    page.dataset.page !== "profile") {
			n = firstVerdict();
			if (n >= 0) {
				showVerdict(page.dataset.page, lastV[page.dataset.page]
				    >= 0 ? lastV[page.dataset.page] : n);
				return;
			}
			/* no verdicts: the series' first trend */
			if (page.dataset.page === "trend" &&
			    summary.trends.length > 0) {
				location.hash = "#series=0";
				return;
			}
		}
		showPage(page.dataset.page);
		target.scrollIntoView();
	}

	function navSetup() {
		var nav = document.getElementById("tabs"), list;

		/* the night's pages; or, for a profile alone, its sections */
		list = summary ? pages : Array.prototype.slice.call(
		    document.querySelectorAll("#profile > section"));
		list.forEach(function (s) {
			var a = el("a", "", s.dataset.tab);

			a.href = "#" + s.id;
			navLinks[s.dataset.page || s.id] = a;
			nav.appendChild(a);
		});
		if (summary && data.profiles.length > 0) {
			/* the profile page's own sections */
			var sub = el("nav", "subnav");

			Array.prototype.forEach.call(document.querySelectorAll(
			    "#profile > section"), function (s) {
				sub.appendChild(link("#" + s.id, s.dataset.tab));
			});
			var pr = document.getElementById("profile");
			pr.insertBefore(sub, pr.firstChild);
		}
	}

	function setup() {
		hook.serialize = serialize;
		hook.notes = notes;
		if (data.profiles.length > 0)
			profileSetup();
		navSetup();
		window.addEventListener("hashchange", route);
		route();
		/* the frame after the first screen is on it */
		requestAnimationFrame(function () {
			hook.firstScreen = performance.now();
			console.log("pv-report: first screen drawn " +
			    Math.round(hook.firstScreen) + " ms after navigation");
		});
	}

	setup();
})();
