# Reference values for test_hl_shift in tests/unit/check_stats.c: R 4.2's
# wilcox.test(y, x, conf.int = TRUE), printed as the C initialisers there.
#   Rscript tests/data/stats/hl.R
set.seed(20261201)
f <- function(name, x, y) {
  w <- wilcox.test(y, x, conf.int=TRUE, conf.level=0.95, exact=TRUE)
  cat(sprintf("\t{ \"%s\", %d, %d, { %s }, { %s },\n\t  %.17g, %.17g, %.17g, %.17g },\n", name, length(x), length(y),
    paste(sprintf("%.17g", x), collapse=", "), paste(sprintf("%.17g", y), collapse=", "),
    w$estimate, w$conf.int[1], w$conf.int[2], w$p.value))
}
f("hand", c(1.1,2.3,0.7,3.4,2.2,1.9,2.8), c(3.1,2.9,4.4,3.8,2.05,5.2))
f("four", c(1.1,2.3,0.7,3.4), c(3.1,2.9,4.4,3.8))
f("ln10", round(log(1000*exp(rnorm(10,0,0.05))),9), round(log(950*exp(rnorm(10,0,0.05))),9))
f("t3_5_8", round(0.02*rt(5,3),9), round(-0.1+0.02*rt(8,3),9))
f("wild", log(c(100,100.2,99.9,100.1,100.05,99.8)), log(c(90.1,89.9,90.0,89.8,90.2,130)))
