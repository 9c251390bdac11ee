/*
 * rec_section: the pv-format, section, meta and env records (see
 * rec_section.h).
 */
#include "config.h"

#include "field.h"
#include "rec_section.h"

void
pv_rec_pv_format_write(struct pv_strbuf *sb)
{
	pv_field_type(sb, PV_FORMAT_NAME);
	pv_field_add_u64(sb, PV_FORMAT_VERSION);
	pv_field_end(sb);
}

void
pv_rec_section_write(struct pv_strbuf *sb, struct pv_str role,
		     struct pv_str version, struct pv_str experiment)
{
	pv_field_type(sb, "section");
	pv_field_add_opt_str(sb, role);
	pv_field_add_opt_str(sb, version);
	pv_field_add_opt_str(sb, experiment);
	pv_field_end(sb);
}

static void
kv_write(struct pv_strbuf *sb, const char *type, struct pv_str key,
	 struct pv_str value)
{
	pv_field_type(sb, type);
	pv_field_add_str(sb, key);
	pv_field_add_str(sb, value);
	pv_field_end(sb);
}

void
pv_rec_meta_write(struct pv_strbuf *sb, struct pv_str key,
		  struct pv_str value)
{
	kv_write(sb, "meta", key, value);
}

void
pv_rec_env_write(struct pv_strbuf *sb, struct pv_str key, struct pv_str value)
{
	kv_write(sb, "env", key, value);
}
