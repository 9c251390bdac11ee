// prelude.js: the first part of the report's script (lib/html/report/*.js,
// concatenated in the order of REPORT_JS in Makefile.am into one script,
// whose lines starting with '// ' are left out): the opening of its
// closure, its constants, the page's data and the state shared by the
// parts that follow.
/*
 * report.js: the behaviour of pv-render's HTML report, embedded in the page
 * at build time (lib/html/embed.sed).  It reads the data that pv-render
 * wrote into the script element #pv-data and draws the decision pages
 * (suites, a test's levels, an instance's runs and facts, trends) around
 * the night's summary that pv-render wrote as HTML, and for each profile
 * comparison (its own element #pv-prof-K, read when it is opened) its
 * summary, flame graphs (canvas), the table of all functions, the
 * call-flow (Sankey) graph (SVG) and the notes.  No framework, no
 * network: the page's Content-Security-Policy allows this script by its
 * hash and nothing else.
 *
 * Names from the input reach the page only through textContent, canvas
 * fillText and SVG text nodes, never through markup.
 *
 * window.pvReport exposes the drawn state (rectangles, zoom, matches, the
 * time of the first drawn screen and flame graph) for the browser test;
 * the page logs the first to the console ("pv-report: first screen drawn
 * N ms after navigation"), where a benchmark reads it from Chromium's log.
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
	var summary = data.summary;	/* the decisions, or null */
	var names = [];			/* the frame names of the profile open */
	/* for the browser test and the benchmark: times since navigation */
	var hook = { graphs: {}, firstDraw: null, firstScreen: null,
	    table: null, flows: null, page: null,
	    marks: { script: started, parsed: performance.now() } };
	var state = { prof: -1, ev: 0, model: null, term: "", graphs: [],
	    fn: null, heavy: null };

	window.pvReport = hook;

