# qvalues.R: the reference q-values of tests/unit/check_classifier.c, by
# R's p.adjust (method "BH").  The two-stage procedure of pv-classify(1):
# Simes' p of each family, BH over the families (adj_f), BH within each
# family (adj_k), and a key's q-value the smallest rate q at which its
# family and then the key are selected: min over r with a(r) >= adj_f of
# max(a(r), adj_k F / r), a the sorted adj_f.  Run:
#   Rscript tests/data/classifier/qvalues.R > tests/data/classifier/qvalues.tsv
fam <- list(a = c(0.001, 0.02, 0.3), b = c(0.04, 0.5), c = c(0.6, 0.7, 0.9),
            d = c(1e-4), e = c(0.012, 0.013, 0.014, 0.2))
simes <- function(p) min(sort(p) * length(p) / seq_along(p))
adjf <- p.adjust(sapply(fam, simes), "BH")
a <- sort(adjf)
nf <- length(a)
cat("family\tp\tqvalue\n")
for (f in names(fam)) {
	adjk <- p.adjust(fam[[f]], "BH")
	for (i in seq_along(fam[[f]])) {
		r <- which(a >= adjf[[f]])
		# families tied at a(r) are selected together: R(q) counts them
		q <- min(sapply(r, function(j) max(a[j], adjk[i] * nf /
						   sum(a <= a[j]))))
		cat(sprintf("%s\t%.17g\t%.17g\n", f, fam[[f]][i], min(q, 1)))
	}
}
