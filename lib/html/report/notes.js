// notes.js: the reader's notes on functions, saved with the page.
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

