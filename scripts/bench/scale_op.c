// SPDX-License-Identifier: GPL-2.0
/*
 * scale_op: one system call of "make bench" case scale, timed.
 *
 *   scale_op load FILE          finit_module(2)
 *   scale_op unload NAME        delete_module(2)
 *   scale_op write PATH DATA    write(2) to PATH, opened before
 *
 * Prints "<cpu ns> <wall ns>": this thread's CPU time across the call
 * (CLOCK_THREAD_CPUTIME_ID, which brings the running thread's runtime up
 * to date) and CLOCK_MONOTONIC.  Under QEMU's -icount shift=0 guest time
 * is instructions, so the CPU time is the instructions the calling task
 * ran, without the waits (grace periods, idle vCPUs) that the wall time
 * includes.  Exits 1 when the call fails.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long long c0, w0, c1, w1;
	long ret;
	int fd = -1;

	if (argc >= 3 && !strcmp(argv[1], "load")) {
		fd = open(argv[2], O_RDONLY | O_CLOEXEC);
	} else if (argc == 4 && !strcmp(argv[1], "write")) {
		fd = open(argv[2], O_WRONLY);
	} else if (!(argc == 3 && !strcmp(argv[1], "unload"))) {
		fprintf(stderr, "usage: %s load FILE | unload NAME | write PATH DATA\n", argv[0]);
		return 2;
	}
	if (strcmp(argv[1], "unload") && fd < 0) {
		perror(argv[2]);
		return 1;
	}
	w0 = ns(CLOCK_MONOTONIC);
	c0 = ns(CLOCK_THREAD_CPUTIME_ID);
	if (!strcmp(argv[1], "load"))
		ret = syscall(__NR_finit_module, fd, "", 0);
	else if (!strcmp(argv[1], "unload"))
		ret = syscall(__NR_delete_module, argv[2], O_NONBLOCK);
	else
		ret = write(fd, argv[3], strlen(argv[3]));
	c1 = ns(CLOCK_THREAD_CPUTIME_ID);
	w1 = ns(CLOCK_MONOTONIC);
	if (ret < 0) {
		perror(argv[1]);
		return 1;
	}
	printf("%lld %lld\n", c1 - c0, w1 - w0);
	return 0;
}
