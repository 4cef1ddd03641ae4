// SPDX-License-Identifier: GPL-2.0
/*
 * fsync_loop <file> <n>: fsync() an open file n times and print the
 * guest nanoseconds per call (instructions under TCG -icount shift=0).
 * On the guest's 9p root each call is one TFSYNC request through the
 * virtio transport: the path of the in-tree user's markers (make bench,
 * case user).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long long t0, t1;
	long i, n;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: %s <file> <n>\n", argv[0]);
		return 2;
	}
	n = atol(argv[2]);
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || n <= 0) {
		perror(argv[1]);
		return 1;
	}
	/* One call outside the timing: the first may set things up. */
	if (fsync(fd)) {
		perror("fsync");
		return 1;
	}
	t0 = now_ns();
	for (i = 0; i < n; i++)
		fsync(fd);
	t1 = now_ns();
	printf("%lld\n", (t1 - t0) / n);
	return 0;
}
