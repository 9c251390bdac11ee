// model.js: the call tree of one event, rebuilt from the packed arrays of
// the profile's data, with labels and the search of names.
	/* Model: the call tree of one event, from the packed arrays */

	function Model(ev, heavy) {
		var tr = heavy.tree, i, d, p, n;
		var name = unpack(tr.n, true), pops = unpack(tr.d, false);
		var at = [], nkid, merged;

		n = name.length;
		this.ev = ev;
		this.n = n;
		this.name = new Int32Array(name);
		this.depth = new Int32Array(n);
		/* the exclusive weights, summed up the tree below */
		this.b = new Float64Array(unpack(tr.b, false));
		this.t = new Float64Array(unpack(tr.t, false));
		/* the exclusive weights kept, for keepOnly() (groups.js) */
		this.xb = this.b.slice();
		this.xt = this.t.slice();
		this.parent = new Int32Array(n);
		this.maxDepth = 0;
		nkid = new Int32Array(n);
		merged = new Int32Array(n);
		merged.fill(-1);
		for (i = 0, d = -1; i < n; i++) {
			d = d + 1 - pops[i];
			this.depth[i] = d;
			at[d] = i;
			p = d > 0 ? at[d - 1] : -1;
			this.parent[i] = p;
			if (d > this.maxDepth)
				this.maxDepth = d;
			if (p < 0)
				continue;
			if (this.name[i] < -1)
				merged[p] = i;	/* drawn after the kept ones */
			else
				nkid[p]++;
		}
		for (i = n - 1; i > 0; i--) {
			this.b[this.parent[i]] += this.b[i];
			this.t[this.parent[i]] += this.t[i];
		}
		/* shares are of these: each side's total, or with pv-diff
		 * --raw both the baseline's */
		this.totB = ev.den[0];
		this.totT = ev.den[1];
		this.unit = ev.unit;
		/* children lists, in order, each merge last */
		this.kidStart = new Int32Array(n + 1);
		for (i = 0; i < n; i++)
			this.kidStart[i + 1] = this.kidStart[i] + nkid[i] +
			    (merged[i] >= 0 ? 1 : 0);
		this.kids = new Int32Array(this.kidStart[n]);
		var fill = this.kidStart.slice(0, n);
		for (i = 1; i < n; i++) {
			p = this.parent[i];
			if (this.name[i] >= -1)
				this.kids[fill[p]++] = i;
		}
		for (i = 0; i < n; i++)
			if (merged[i] >= 0)
				this.kids[fill[i]++] = merged[i];
		/* the change of each node's share, for the colours */
		this.delta = new Float64Array(n);
		this.maxDelta = 0;
		for (i = 0; i < n; i++) {
			this.delta[i] = share(this.t[i], this.totT) -
			    share(this.b[i], this.totB);
			if (Math.abs(this.delta[i]) > this.maxDelta)
				this.maxDelta = Math.abs(this.delta[i]);
		}
		this.match = new Uint8Array(n);
		this.func = unpack(heavy.func, false);
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
