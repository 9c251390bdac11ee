/*
 * elfsym: names for code addresses, the only user of libelf and libdw.
 *
 * Kernel addresses are looked up in a copy of /proc/kallsyms (text
 * symbols, each extending to the next one, as perf does), where the
 * symbols of loadable modules are marked with their module's name.
 *
 * User addresses are looked up per mapped file (a "dso"): its function
 * symbols from .symtab, or .dynsym when the file is stripped, or from the
 * separate debuginfo file /usr/lib/debug/.build-id/NN/REST.debug when one
 * is installed for the file's build id.  A file whose build id differs from
 * the one the kernel saw when it was mapped (replaced since) gives no
 * names rather than wrong ones.  Addresses are given as file offsets (the
 * mapping's page offset plus the distance from its start) and turned into
 * ELF virtual addresses with the file's loadable segments.  The vdso is
 * read from this process's own mapping (one kernel, one vdso).
 *
 * Inlined functions: with inline_frames, the DWARF of the file (or its
 * debuginfo) is asked for the inlined subroutines at an address, and they
 * are returned as frames of their own after the symbol that contains them.
 *
 * Among symbols at one address the name chosen is the one perf prefers:
 * a sized one, then global over weak over local, then the fewest leading
 * underscores, then the shortest, then the first byte-wise.
 *
 * Source files: pv_elfsym_decl_file() finds the file that declares a
 * function, from the DWARF of the ELF file that holds it.
 *
 * Names returned stay valid until pv_elfsym_free().  Nothing here prints
 * or exits except on out of memory.
 */
#ifndef PV_ELFSYM_H
#define PV_ELFSYM_H

#include <stddef.h>
#include <stdint.h>

struct pv_elfsym;
struct pv_elfsym_dso;

struct pv_elfsym *pv_elfsym_new(int inline_frames);
void pv_elfsym_free(struct pv_elfsym *es);

/*
 * Where separate debuginfo is looked for, by build id ("DIR/NN/REST.debug");
 * /usr/lib/debug/.build-id by default.  Set it before the first lookup.
 */
void pv_elfsym_set_debug_dir(struct pv_elfsym *es, const char *dir);

/*
 * Load the kernel's symbols from path (normally /proc/kallsyms).  Returns
 * the number of symbols, or -1 when the file cannot be read or hides the
 * addresses (kptr_restrict); kernel addresses are then not named.
 */
long pv_elfsym_load_kernel(struct pv_elfsym *es, const char *path);

/*
 * The kernel symbol containing addr, or NULL.  *module is set to the
 * module's name, or NULL for the kernel image.
 */
const char *pv_elfsym_kernel(const struct pv_elfsym *es, uint64_t addr,
			     const char **module);

/*
 * The dso for a mapped file path, loaded on first use and kept.
 * build_id (len bytes, 0 if unknown) is the id the kernel reported for
 * the mapping.  Never NULL: a file that cannot be read has no symbols.
 */
struct pv_elfsym_dso *pv_elfsym_dso(struct pv_elfsym *es, const char *path,
			     const unsigned char *build_id, size_t len);

/*
 * The dso's name as perf script's "[unknown] (MODULE)" frames become in
 * pv-parse(1): the base name of the file ("libc.so.6"), "[vdso]" as it is,
 * "anon" for anonymous memory (JIT code, which perf names after its map
 * file /tmp/perf-PID.map, a name that changes with every process), and
 * "unknown" for a path without a base name.  pv_elfsym_dso_unknown() is the
 * name of an unresolved frame in the dso, that name in brackets:
 * "[libc.so.6]", "[[vdso]]", "[anon]".
 */
const char *pv_elfsym_dso_name(const struct pv_elfsym_dso *dso);
const char *pv_elfsym_dso_unknown(const struct pv_elfsym_dso *dso);

/*
 * Whether perf script gives the addresses in the dso as file offsets
 * (address - mapping start + mapping offset), as it does for mapped files
 * and the vdso, rather than as mapped (anonymous memory, [heap], [stack]).
 * File offsets do not move with address space randomisation.
 */
int pv_elfsym_dso_relative(const struct pv_elfsym_dso *dso);

/*
 * Name the code at file offset off of dso: the containing function, then
 * with inline_frames its inlined callees from the outermost to the
 * innermost.  Writes at most max names to names[] and returns how many
 * (0: no symbol contains the address).
 */
size_t pv_elfsym_resolve(struct pv_elfsym *es, struct pv_elfsym_dso *dso,
			 uint64_t off, const char **names, size_t max);

/*
 * The source file that declares function func (len bytes, not
 * NUL-terminated) of the ELF file at path, from DWARF's DW_AT_decl_file
 * (dwarf_decl_file()), for pv-parse(1)'s --debuginfo.  The DWARF is looked
 * for in this order: the file itself; the debug directory's NN/REST.debug
 * by the file's build id (pv_elfsym_set_debug_dir()); /usr/lib/debug/PATH.debug.
 * The function is found as the subprogram DIE at its symbol's address
 * (the symbols as pv_elfsym_resolve() reads them), else as a subprogram
 * DIE of that name (a function the symbol table lacks: inlined, or static
 * in a stripped file).  The file is made relative to root (NULL: none)
 * when it lies below root, else to its unit's compilation directory
 * (DW_AT_comp_dir) when it lies below that, else left as the DWARF says.
 * Returns 1 and sets *file (valid until pv_elfsym_free()), or 0 when the
 * file, its DWARF or the function is not found.
 */
int pv_elfsym_decl_file(struct pv_elfsym *es, const char *path,
			const char *func, size_t len, const char *root,
			const char **file);

/* pv_elfsym_decl_file() for a dso already had. */
int pv_elfsym_dso_decl_file(struct pv_elfsym *es, struct pv_elfsym_dso *dso,
			    const char *func, size_t len, const char *root,
			    const char **file);

/* The path the dso was had by (pv_elfsym_dso()). */
const char *pv_elfsym_dso_path(const struct pv_elfsym_dso *dso);

/*
 * Whether pv_elfsym_decl_file() finds DWARF for the file at path: 1, 0
 * (not an ELF file, or no debug information found), or -1 with errno set
 * when the file cannot be opened.
 */
int pv_elfsym_has_dwarf(struct pv_elfsym *es, const char *path);

#endif
