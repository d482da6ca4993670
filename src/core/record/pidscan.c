// SPDX-License-Identifier: MIT
#include "core/record/pidscan.h"
#include "core/util/file_util.h"
#include "core/util/inthash.h"
#include "core/util/outfile.h"

#include <assert.h>
#ifdef FTS_NO_CJSON
#include "core/util/json_dom.h"   /* the static build's own JSON tree */
#else
#include <cjson/cJSON.h>
#endif
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct pid_ent {
	int pid;
	int tgid, ppid;
	char nspid[16];     /* innermost namespace pid, "" when the kernel has no NSpid */
	char name[64];
};

/* Every pid ever seen, in first-seen order; @by_pid maps a pid to its index. */
struct fts_pidscan {
	struct pid_ent *ent;
	size_t count, cap;
	struct fts_inthash by_pid;
};

struct fts_pidscan *fts_pidscan_new(void)
{
	struct fts_pidscan *t = calloc(1, sizeof(*t));

	if (t)
		fts_inthash_init(&t->by_pid);
	return t;
}

void fts_pidscan_free(struct fts_pidscan *t)
{
	if (!t)
		return;
	fts_inthash_free(&t->by_pid);
	free(t->ent);
	free(t);
}

size_t fts_pidscan_count(const struct fts_pidscan *t)
{
	return t->count;
}

/* Copy @v into @dst keeping valid UTF-8 only, so the JSON stays loadable. */
static void copy_utf8(char *dst, size_t len, const char *v)
{
	const unsigned char *s = (const unsigned char *)v;
	size_t o = 0;

	while (*s && o + 1 < len) {
		int n = *s < 0x80 ? 1 : (*s >> 5) == 6 ? 2 : (*s >> 4) == 14 ? 3 : (*s >> 3) == 30 ? 4 : 0;
		int ok = n > 0 && o + (size_t)n < len;

		for (int k = 1; ok && k < n; k++)
			ok = (s[k] & 0xc0) == 0x80;
		if (!ok) {
			dst[o++] = '?';
			s++;
			continue;
		}
		memcpy(dst + o, s, (size_t)n);
		o += (size_t)n;
		s += n;
	}
	dst[o] = '\0';
}

static int read_status(const char *path, struct pid_ent *e)
{
	char line[512];
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');
		size_t n;

		if (!v)
			continue;
		*v++ = '\0';
		while (*v == '\t' || *v == ' ')
			v++;
		n = strlen(v);
		while (n && (v[n - 1] == '\n' || v[n - 1] == ' ' || v[n - 1] == '\t'))
			v[--n] = '\0';
		if (!strcmp(line, "Name")) {
			copy_utf8(e->name, sizeof(e->name), v);
		} else if (!strcmp(line, "Tgid")) {
			e->tgid = atoi(v);
		} else if (!strcmp(line, "PPid")) {
			e->ppid = atoi(v);
		} else if (!strcmp(line, "NSpid")) {
			/* The last value is the pid inside the innermost namespace. */
			char *last = strrchr(v, '\t');
			last = last ? last + 1 : v;
			snprintf(e->nspid, sizeof(e->nspid), "%s", last);
		}
	}
	fclose(f);
	return 0;
}

static int is_num(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* Add @e, or update the entry of its pid (a later scan knows better). */
static int add(struct fts_pidscan *t, const struct pid_ent *e)
{
	uint64_t *idx;
	int added;

	if (t->count == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		struct pid_ent *ne = realloc(t->ent, cap * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		t->ent = ne;
		t->cap = cap;
	}
	idx = fts_inthash_put(&t->by_pid, (uint32_t)e->pid, &added);
	if (!idx)
		return -ENOMEM;
	if (added)
		*idx = t->count++;
	assert(*idx < t->count && (added || t->ent[*idx].pid == e->pid));
	t->ent[*idx] = *e;
	return 0;
}

int fts_pidscan_scan(struct fts_pidscan *t, const char *proc, struct fts_err *err)
{
	DIR *d = opendir(proc);
	struct dirent *de;
	int seen = 0;

	if (!d)
		return fts_err_set(err, -errno, "cannot list %s: %s", proc, strerror(errno));
	while ((de = readdir(d))) {
		char path[1024];
		DIR *td;
		struct dirent *te;

		if (!is_num(de->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s/task", proc, de->d_name);
		td = opendir(path);
		if (!td)
			continue; /* the process exited meanwhile */
		while ((te = readdir(td))) {
			struct pid_ent e = { 0 };

			if (!is_num(te->d_name))
				continue;
			snprintf(path, sizeof(path), "%s/%s/task/%s/status", proc, de->d_name,
				 te->d_name);
			e.pid = atoi(te->d_name);
			if (e.pid <= 0 || read_status(path, &e))
				continue;
			if (add(t, &e)) {
				closedir(td);
				closedir(d);
				return fts_err_set(err, -ENOMEM, "out of memory scanning %s", proc);
			}
			seen++;
		}
		closedir(td);
	}
	closedir(d);
	return seen;
}

static int cmp_pid(const void *a, const void *b)
{
	int x = (*(const struct pid_ent *const *)a)->pid, y = (*(const struct pid_ent *const *)b)->pid;

	return (x > y) - (x < y);
}

/* The entries sorted by pid, so output is stable and diffable. */
static const struct pid_ent **sorted(const struct fts_pidscan *t)
{
	const struct pid_ent **p = malloc((t->count + 1) * sizeof(*p));

	if (!p)
		return NULL;
	for (size_t i = 0; i < t->count; i++)
		p[i] = &t->ent[i];
	qsort(p, t->count, sizeof(*p), cmp_pid);
	return p;
}

int fts_pidscan_write_json(const struct fts_pidscan *t, const char *path,
			   const struct fts_owner *owner, struct fts_err *err)
{
	cJSON *root = cJSON_CreateObject();
	const struct pid_ent **ents = sorted(t);
	struct fts_outfile f;
	char *text = NULL;
	int rc = -ENOMEM;

	if (!root || !ents)
		goto out;
	for (size_t i = 0; i < t->count; i++) {
		const struct pid_ent *e = ents[i];
		cJSON *o = cJSON_CreateObject();
		char key[16], num[16];

		if (!o)
			goto out;
		snprintf(key, sizeof(key), "%d", e->pid);
		cJSON_AddItemToObject(root, key, o);
		cJSON_AddStringToObject(o, "NSpid", e->nspid);
		cJSON_AddStringToObject(o, "name", e->name);
		snprintf(num, sizeof(num), "%d", e->tgid);
		cJSON_AddStringToObject(o, "Tgid", num);
		snprintf(num, sizeof(num), "%d", e->ppid);
		cJSON_AddStringToObject(o, "PPid", num);
	}
	text = cJSON_Print(root);
	if (!text)
		goto out;
	rc = fts_outfile_begin(&f, path, owner, err);
	if (rc)
		goto done;
	rc = fts_write_all(f.fd, text, strlen(text));
	if (!rc)
		rc = fts_write_all(f.fd, "\n", 1);
	if (rc) {
		fts_err_set(err, rc, "cannot write %s: %s", path, strerror(-rc));
		fts_outfile_abort(&f);
		goto done;
	}
	rc = fts_outfile_commit(&f, NULL, err);
	goto done;
out:
	fts_err_set(err, rc, "out of memory writing %s", path);
done:
	free(text);
	free(ents);
	cJSON_Delete(root);
	return rc;
}

int fts_pidscan_cmdlines(const struct fts_pidscan *t, char **out)
{
	size_t cap = t->count * 32 + 1, n = 0;
	char *s = malloc(cap);

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < t->count; i++) {
		const struct pid_ent *e = &t->ent[i];
		char comm[17];
		size_t k;

		/* saved_cmdlines lines are "pid comm"; a newline in a name would split one. */
		memcpy(comm, e->name, sizeof(comm) - 1);
		comm[sizeof(comm) - 1] = '\0';
		for (k = 0; comm[k]; k++)
			if (comm[k] == '\n')
				comm[k] = '?';
		n += (size_t)snprintf(s + n, cap - n, "%d %s\n", e->pid, comm);
	}
	s[n] = '\0';
	*out = s;
	return 0;
}
