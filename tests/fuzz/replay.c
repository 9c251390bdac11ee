/*
 * replay.c: main() of a harness built without libFuzzer; runs each file
 * named (a directory: each file in it) through LLVMFuzzerTestOneInput(),
 * so that make check replays the inputs that once broke a reader.
 */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static unsigned long nfiles;

static int
run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (f == NULL) {
		perror(path);
		return -1;
	}
	do {
		if (cap - len < 65536) {
			cap = cap * 2 + 65536;
			buf = realloc(buf, cap);
			if (buf == NULL) {
				perror("realloc");
				exit(2);
			}
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		perror(path);
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	nfiles++;
	free(buf);
	return 0;
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
run_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **name = NULL;
	size_t n = 0, i;
	int rc = 0;

	if (d == NULL) {
		perror(dir);
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		char *p;

		if (e->d_name[0] == '.')
			continue;
		if ((p = malloc(strlen(dir) + strlen(e->d_name) + 2)) == NULL ||
		    (name = realloc(name, (n + 1) * sizeof(*name))) == NULL) {
			perror("malloc");
			exit(2);
		}
		sprintf(p, "%s/%s", dir, e->d_name);
		name[n++] = p;
	}
	closedir(d);
	qsort(name, n, sizeof(*name), cmp_name);
	for (i = 0; i < n; i++) {
		if (run_file(name[i]) < 0)
			rc = -1;
		free(name[i]);
	}
	free(name);
	return rc;
}

int
main(int argc, char **argv)
{
	int i, rc = 0;

	for (i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) < 0) {
			perror(argv[i]);
			rc = 1;
		} else if (S_ISDIR(st.st_mode) ? run_dir(argv[i]) < 0 :
			   run_file(argv[i]) < 0) {
			rc = 1;
		}
	}
	printf("%lu inputs replayed\n", nfiles);
	return rc;
}
