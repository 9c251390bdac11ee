/*
 * html_assets: the HTML report's script and style sheet, generated at build
 * time from lib/html/report.js and lib/html/report.css (see Makefile.am:
 * lib/html/embed.sed turns each into a C string literal).
 */
#ifndef PV_HTML_ASSETS_H
#define PV_HTML_ASSETS_H

extern const char pv_html_report_js[];
extern const char pv_html_report_css[];

#endif
