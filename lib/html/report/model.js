// model.js: the call tree of one event, rebuilt from the four arrays of
// the page's data, with labels and the search of names.
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

