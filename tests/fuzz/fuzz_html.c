/*
 * fuzz_html: pv-render --format=html's collection of the report's data
 * (lib/render_html: pv_html_add() over every record) and the writing of
 * the document.  The first byte picks the event filter and the merging
 * threshold.
 */
#include "config.h"

#include "fuzz.h"
#include "record.h"
#include "render_html.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pv_html *h;
	struct pv_reader *r;
	struct pv_record rec;

	if (size == 0)
		return 0;
	r = pv_reader_open(fuzz_file(data + 1, size - 1));
	if (r == NULL)
		return 0;
	h = pv_html_new();
	if (data[0] & 1)
		pv_html_set_event(h, "cycles");
	if (data[0] & 2)
		pv_html_set_min_share(h, 0.0);
	else if (data[0] & 4)
		pv_html_set_min_share(h, 0.3);
	while (pv_reader_next(r, &rec) > 0)
		if (pv_html_add(h, &rec) < 0)
			break;
	pv_reader_close(r);
	(void)pv_html_write(h, fuzz_devnull());
	(void)pv_html_error(h);
	pv_html_free(h);
	return 0;
}
