// SPDX-License-Identifier: GPL-2.0
/*
 * fail_nth: run one operation with the N-th fault point of this thread
 * failed (Documentation/fault-injection/fault-injection.rst, "fail-nth").
 *
 *   fail_nth N write PATH DATA     write(2) DATA to PATH, opened first
 *   fail_nth N insmod FILE [ARGS]  finit_module(2)
 *   fail_nth N rmmod NAME          delete_module(2)
 *   fail_nth N rawtp NAME [PIN]    BPF_RAW_TRACEPOINT_OPEN of an empty
 *                                  raw tracepoint program on NAME; the
 *                                  link is closed again afterwards, or
 *                                  pinned at PIN (in a BPF filesystem),
 *                                  where it stays until PIN is removed
 *
 * Only the operation's own system call runs with fail-nth set: the file
 * is opened, the module read and the program loaded before.  N = 0 runs
 * it with a fail-nth so large that nothing fails, to count its fault
 * points.  Prints one line:
 *
 *   <result> <errno name or 0> injected=<0|1> points=<points passed>
 *
 * where result is "ok" or "err"; points is the number of fault points
 * the system call passed (with injected=1 the last one failed).  Exits 0
 * when the line was printed, 2 when the operation could not be set up.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../kselftest.h"

#define FAIL_NTH_COUNT	1000000000U

static int nth_fd = -1;

static void nth_set(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	if (write(nth_fd, buf, len) != len) {
		perror("fail-nth");
		exit(2);
	}
}

static unsigned int nth_get(void)
{
	char buf[16] = "";

	if (pread(nth_fd, buf, sizeof(buf) - 1, 0) <= 0) {
		perror("fail-nth");
		exit(2);
	}
	return strtoul(buf, NULL, 10);
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static int rawtp_prog(void)
{
	/* r0 = 0; exit */
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = ARRAY_SIZE(insns);
	attr.license = (unsigned long)"GPL";
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0) {
		perror("BPF_PROG_LOAD");
		exit(2);
	}
	return fd;
}

/* Keep the link @fd beyond this process, at @path; 0 or -1 */
static int pin_link(int fd, const char *path)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.pathname = (unsigned long)path;
	attr.bpf_fd = fd;
	if (sys_bpf(BPF_OBJ_PIN, &attr)) {
		perror(path);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int n, start, left;
	union bpf_attr attr;
	const char *op, *pin = NULL;
	long ret;
	int fd = -1, link = -1, err;

	if (argc < 4) {
		fprintf(stderr, "usage: %s N write PATH DATA | insmod FILE [ARGS] |\n"
			"       rmmod NAME | rawtp NAME [PIN]\n", argv[0]);
		return 2;
	}
	n = strtoul(argv[1], NULL, 0);
	op = argv[2];
	start = n ? n : FAIL_NTH_COUNT;

	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (nth_fd < 0) {
		perror("/proc/thread-self/fail-nth");
		return 2;
	}

	if (!strcmp(op, "write") && argc == 5) {
		fd = open(argv[3], O_WRONLY);
		if (fd < 0) {
			perror(argv[3]);
			return 2;
		}
		nth_set(start);
		ret = write(fd, argv[4], strlen(argv[4]));
	} else if (!strcmp(op, "insmod") && argc >= 4) {
		fd = open(argv[3], O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			perror(argv[3]);
			return 2;
		}
		nth_set(start);
		ret = syscall(__NR_finit_module, fd, argc > 4 ? argv[4] : "", 0);
	} else if (!strcmp(op, "rmmod") && argc == 4) {
		nth_set(start);
		ret = syscall(__NR_delete_module, argv[3], O_NONBLOCK);
	} else if (!strcmp(op, "rawtp") && (argc == 4 || argc == 5)) {
		memset(&attr, 0, sizeof(attr));
		attr.raw_tracepoint.prog_fd = rawtp_prog();
		attr.raw_tracepoint.name = (unsigned long)argv[3];
		pin = argc == 5 ? argv[4] : NULL;
		nth_set(start);
		ret = sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr);
		/* The link goes with its fd, closed below, unless pinned. */
		link = ret;
	} else {
		fprintf(stderr, "%s: bad operation\n", op);
		return 2;
	}
	err = ret < 0 ? errno : 0;
	left = nth_get();
	nth_set(0);
	if (link >= 0 && pin && pin_link(link, pin))
		return 2;
	if (link >= 0)
		close(link);
	if (fd >= 0)
		close(fd);

	printf("%s %s injected=%d points=%u\n", err ? "err" : "ok",
	       err ? strerrorname_np(err) : "0", n && !left, start - left);
	return 0;
}
