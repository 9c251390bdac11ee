# mkdiff.awk: a stand-in for "pv-parse | pv-diff" until both are merged.
#
#   awk -v base=V1 -v target=V2 -f mkdiff.awk BASE.perf TARGET.perf
#
# Folds the samples of two `perf script --header` outputs (comm, then the
# frames root first, symbol offsets removed, kernel frames marked _[k]) and
# writes what pv-diff writes for them, pv-format(5): both sides' context
# (section, env records from the perf header), then a diff section with
# total, dstack and func records.  Frame names hold no ';' or escapes.
BEGIN {
	FS = "\n"; OFS = "\t"
	ev = ""
}
FNR == 1 { side++ }
/^# / && side {
	line = substr($0, 3)
	k = index(line, " : ")
	if (k > 0) {
		key = substr(line, 1, k - 1); val = substr(line, k + 3)
		gsub(/^ +| +$/, "", key)
		if (key ~ /^(hostname|os release|arch|cpudesc|nrcpus online|cmdline|perf version)$/) {
			gsub(/ /, "-", key)
			gsub(/\t/, " ", val)
			nenv[side]++
			envk[side, nenv[side]] = key; envv[side, nenv[side]] = val
		}
	}
	next
}
/^#/ { next }
/^[^ \t]/ {
	flush()
	# "comm pid time: period event:"
	n = split($0, w, /[ \t]+/)
	comm = w[1]; period = 1
	for (i = 2; i <= n; i++) {
		if (w[i] ~ /:$/ && w[i] !~ /^[0-9.]+:$/ && i > 2) {
			e = w[i]; sub(/:.*$/, "", e)
			if (w[i - 1] ~ /^[0-9]+$/) period = w[i - 1]
			if (ev == "") ev = e
			break
		}
	}
	nf = 0
	insample = 1
	next
}
/^[ \t]+[0-9a-f]+ / && insample {
	s = $0
	sub(/^[ \t]+[0-9a-f]+ /, "", s)
	kern = s ~ /\(\[kernel\.kallsyms\]\)$/
	sub(/ \([^()]*\)$/, "", s)
	sub(/\+0x[0-9a-f]+$/, "", s)
	if (kern) s = s "_[k]"
	fr[++nf] = s
	next
}
/^$/ { flush() }
END {
	flush()
	for (s = 1; s <= 2; s++) {
		print "section", s == 1 ? "baseline" : "target", s == 1 ? base : target, "workload"
		for (i = 1; i <= nenv[s]; i++)
			print "env", envk[s, i], envv[s, i]
	}
	print "section", "diff", base ".." target, "workload"
	printf "total\t%s\t%.0f\t%.0f\t%.0f\t%.0f\n", ev, tot[1], tot[2], smp[1], smp[2]
	for (k in stk) printf "dstack\t%s\t%.0f\t%.0f\t%s\n", ev, sw[k, 1], sw[k, 2], k | "LC_ALL=C sort -t '\t' -k5"
	close("LC_ALL=C sort -t '\t' -k5")
	for (f in fn) {
		ib = inc[f, 1] + 0; eb = exc[f, 1] + 0; it = inc[f, 2] + 0; et = exc[f, 2] + 0
		pib = 100 * ib / tot[1]; peb = 100 * eb / tot[1]
		pit = 100 * it / tot[2]; pet = 100 * et / tot[2]
		ri = pib > 0 ? sprintf("%.6g", 100 * (pit - pib) / pib) : "-"
		re = peb > 0 ? sprintf("%.6g", 100 * (pet - peb) / peb) : "-"
		pr = ib > 0 && it > 0 ? "both" : ib > 0 ? "base" : "target"
		printf "func\t%s\t%s\t%.0f\t%.0f\t%.0f\t%.0f\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t%s\t%s\t%s\n", ev, f, ib, eb, it, et, pib, peb, pit, pet, pit - pib, pet - peb, ri, re, pr | "LC_ALL=C sort -t '\t' -k3"
	}
	close("LC_ALL=C sort -t '\t' -k3")
}
function flush(   k, i, seen) {
	if (!insample) return
	insample = 0
	k = comm
	for (i = nf; i >= 1; i--) k = k ";" fr[i]
	stk[k] = 1
	sw[k, side] += period
	tot[side] += period; smp[side]++
	split("", seen)
	seen[comm] = 1
	fn[comm] = 1; inc[comm, side] += period
	for (i = nf; i >= 1; i--) {
		fn[fr[i]] = 1
		if (!(fr[i] in seen)) { seen[fr[i]] = 1; inc[fr[i], side] += period }
	}
	if (nf > 0) exc[fr[1], side] += period
	else exc[comm, side] += period
}
