// SPDX-License-Identifier: GPL-2.0
/*
 * Load marker_bpf.bpf.o with libbpf, attach its programs to marker events
 * by their SEC("tracepoint/markers/...") names, read the trigger file
 * given as argument once per count, and print what the programs saw:
 * "name value" lines, in decimal, signed where the field is.
 *
 * With commands after the count, write each of them to the file instead
 * and print nothing: "make bench" runs its BPF case with another object
 * this way.
 *
 * Usage: marker_bpf <object> <file> <count> [<command>...]
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The array map's entries, as marker_bpf.bpf.c stores them. */
static const struct {
	const char *name;
	int is_signed;
} vals[] = {
	{ "hits", 0 }, { "min", 1 }, { "max", 1 }, { "neg", 1 },
	{ "llmin", 1 }, { "ullmax", 0 }, { "llx", 0 }, { "llo", 0 },
	{ "a", 1 }, { "n", 1 }, { "b", 1 }, { "w", 1 }, { "z", 1 },
};

static int command(const char *path, const char *cmd)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, cmd, strlen(cmd)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int hit(const char *path)
{
	char buf[64];
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -errno;
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_link *links[8];
	int nr_links = 0, i, n, fd, ret = 1;
	__u64 val;
	__u32 key;

	if (argc < 4) {
		fprintf(stderr, "usage: %s <object> <file> <count> [<command>...]\n",
			argv[0]);
		return 2;
	}
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (bpf_object__load(obj)) {
		fprintf(stderr, "load: %s\n", strerror(errno));
		goto out;
	}
	bpf_object__for_each_program(prog, obj) {
		struct bpf_link *link = bpf_program__attach(prog);

		if (!link || libbpf_get_error(link)) {
			fprintf(stderr, "attach %s: %s\n",
				bpf_program__section_name(prog), strerror(errno));
			goto out;
		}
		if (nr_links < 8)
			links[nr_links++] = link;
	}
	if (argc > 4) {
		for (i = 4; i < argc; i++) {
			n = command(argv[2], argv[i]);
			if (n) {
				fprintf(stderr, "write %s to %s: %s\n", argv[i],
					argv[2], strerror(-n));
				goto out;
			}
		}
		ret = 0;
		goto out;
	}
	n = atoi(argv[3]);
	for (i = 0; i < n; i++) {
		if (hit(argv[2])) {
			fprintf(stderr, "read %s: %s\n", argv[2], strerror(errno));
			goto out;
		}
	}
	fd = bpf_object__find_map_fd_by_name(obj, "vals");
	if (fd < 0)
		goto out;
	for (key = 0; key < ARRAY_SIZE(vals); key++) {
		if (bpf_map_lookup_elem(fd, &key, &val))
			goto out;
		if (vals[key].is_signed)
			printf("%s %lld\n", vals[key].name, (long long)val);
		else
			printf("%s %llu\n", vals[key].name,
			       (unsigned long long)val);
	}
	ret = 0;
out:
	for (i = 0; i < nr_links; i++)
		bpf_link__destroy(links[i]);
	bpf_object__close(obj);
	return ret;
}
