// SPDX-License-Identifier: GPL-2.0
/*
 * Host side of "make bench": the off-path and NOP cases, which have no
 * kernel dependency in their instruction stream, in real TSC cycles of
 * the host CPU.  Pinned to one CPU; each case is a tight loop between two
 * lfence;rdtsc reads, repeated, the median kept.
 *
 * Output: CSV lines "case,variant,n,value,unit" on stdout, value in TSC
 * cycles per iteration.
 *
 * Build: gcc -O2 -o nop_bench nop_bench.c
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REPEATS		15
#define COPY_SIZE	4096

#define barrier()	asm volatile("" ::: "memory")
#define unlikely(x)	__builtin_expect(!!(x), 0)

static volatile int flag;
static int sink;
static int nop_var, nop_var2 = 1;
static unsigned char src[COPY_SIZE] __attribute__((aligned(64)));
static unsigned char dst[COPY_SIZE] __attribute__((aligned(64)));

static inline uint64_t tsc(void)
{
	uint32_t lo, hi;

	asm volatile("lfence; rdtsc; lfence" : "=a" (lo), "=d" (hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

static __attribute__((noinline)) void slow(unsigned long i)
{
	sink = (int)i;
}

/* A static-key style site: a 5-byte NOP, the taken branch out of line. */
static inline __attribute__((always_inline)) int nop_site(void)
{
	asm goto(".byte 0x0f, 0x1f, 0x44, 0x00, 0x00" :::: taken);
	return 0;
taken:
	return 1;
}

static inline __attribute__((always_inline)) int imm_flag(void)
{
	unsigned char v;

	asm volatile("movb $0, %0" : "=q" (v));
	return v;
}

#define LOOP(name, body)						\
static __attribute__((noinline)) uint64_t loop_##name(unsigned long n)	\
{									\
	unsigned long i;						\
	uint64_t t0, t1;						\
									\
	t0 = tsc();							\
	for (i = 0; i < n; i++) {					\
		body;							\
		barrier();						\
	}								\
	t1 = tsc();							\
	return t1 - t0;							\
}

/* dst laundered through a register: the copy cannot be proven dead. */
#define COPY								\
	do {								\
		void *d = dst;						\
		asm volatile("" : "+r" (d));				\
		memcpy(d, src, COPY_SIZE);				\
	} while (0)
#define NOTHING		do { } while (0)
#define ASM_GOTO	do { if (unlikely(nop_site())) slow(i); } while (0)
#define GENERIC		do { if (unlikely(flag)) slow(i); } while (0)
#define IMMEDIATE	do { if (unlikely(imm_flag())) slow(i); } while (0)
#define NOP(insn)							\
	do {								\
		asm volatile(insn);					\
		nop_var = (nop_var + 50) / 10 * nop_var2;		\
	} while (0)

LOOP(nothing, NOTHING)
LOOP(asm_goto, ASM_GOTO)
LOOP(generic, GENERIC)
LOOP(immediate, IMMEDIATE)
LOOP(copy_nothing, COPY; NOTHING)
LOOP(copy_asm_goto, COPY; ASM_GOTO)
LOOP(copy_generic, COPY; GENERIC)
LOOP(copy_immediate, COPY; IMMEDIATE)
LOOP(nop_baseline, NOP(""))
LOOP(nop_jmp2, NOP(".byte 0xeb, 0x03, 0x0f, 0x1f, 0x00"))
LOOP(nop_jmp5, NOP(".byte 0xe9, 0x00, 0x00, 0x00, 0x00"))
LOOP(nop_3_2, NOP(".byte 0x66, 0x66, 0x90, 0x66, 0x90"))
LOOP(nop_66, NOP(".byte 0x66, 0x66, 0x66, 0x66, 0x90"))
LOOP(nop_p6, NOP(".byte 0x0f, 0x1f, 0x44, 0x00, 0x00"))

struct bench {
	const char *c, *variant;
	uint64_t (*fn)(unsigned long n);
	unsigned long n;
};

static const struct bench benches[] = {
	{ "off", "nothing", loop_nothing, 10000000 },
	{ "off", "mark", loop_asm_goto, 10000000 },
	{ "off", "generic", loop_generic, 10000000 },
	{ "off", "immediate", loop_immediate, 10000000 },
	{ "off", "copy_nothing", loop_copy_nothing, 200000 },
	{ "off", "copy_mark", loop_copy_asm_goto, 200000 },
	{ "off", "copy_generic", loop_copy_generic, 200000 },
	{ "off", "copy_immediate", loop_copy_immediate, 200000 },
	{ "nop", "baseline", loop_nop_baseline, 10000000 },
	{ "nop", "jmp2", loop_nop_jmp2, 10000000 },
	{ "nop", "jmp5", loop_nop_jmp5, 10000000 },
	{ "nop", "nop3_2", loop_nop_3_2, 10000000 },
	{ "nop", "nop66x4_90", loop_nop_66, 10000000 },
	{ "nop", "p6_nop5", loop_nop_p6, 10000000 },
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Rounds over all cases, rather than all repeats of one case in a row, so
 * that a slow phase of a shared machine spreads over every case.
 */
int main(void)
{
	enum { NB = sizeof(benches) / sizeof(benches[0]) };
	long cpu = sysconf(_SC_NPROCESSORS_ONLN) - 1;
	static uint64_t t[NB][REPEATS];
	cpu_set_t set;
	size_t b;
	int r;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("sched_setaffinity (running unpinned)");
	for (b = 0; b < NB; b++)
		benches[b].fn(benches[b].n / 10);
	for (r = 0; r < REPEATS; r++)
		for (b = 0; b < NB; b++)
			t[b][r] = benches[b].fn(benches[b].n);
	for (b = 0; b < NB; b++) {
		qsort(t[b], REPEATS, sizeof(t[b][0]), cmp_u64);
		printf("%s,%s,%lu,%.3f,cycles\n", benches[b].c,
		       benches[b].variant, benches[b].n,
		       (double)t[b][REPEATS / 2] / benches[b].n);
	}
	printf("meta,cpu,0,%ld,index\n", cpu);
	return 0;
}
