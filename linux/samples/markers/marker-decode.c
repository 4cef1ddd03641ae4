// SPDX-License-Identifier: GPL-2.0
/*
 * Markers whose values every tracer must print the same: each supported
 * conversion at its extremes, chars next to wider fields, flags, widths
 * and precisions, bad and long strings, text that needs escaping in the
 * event's print fmt.  Reading <debugfs>/marker-decode/trigger hits each
 * of them once; the markers kselftest decode.sh compares the trace file,
 * trace-cmd report, perf script and bpftrace with what printf() makes of
 * the same format and arguments.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/limits.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/string.h>

static struct dentry *decode_dir;
/* Longer than the 255 bytes a %s field keeps. */
static char decode_long[300];

static ssize_t decode_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	/* In an array, so the compiler does not see the NULL at the site. */
	static const char * const bad[] = { NULL, (const char *)16 };

	if (*ppos)
		return 0;
	MARK(decode_int, "min=%d max=%d neg=%i", INT_MIN, INT_MAX, -1);
	MARK(decode_uint, "max=%u hex=%x HEX=%#X oct=%#o", UINT_MAX,
	     0xdeadbeefU, 0xabcdefU, 0755U);
	MARK(decode_short, "s=%hd us=%hu sc=%hhd uc=%hhu hx=%hhx", (short)-2,
	     (unsigned short)USHRT_MAX, (signed char)-128,
	     (unsigned char)U8_MAX, (unsigned char)0xab);
	MARK(decode_char, "a=%c n=%d b=%c w=%lld z=%c", 'Q', -3, '~',
	     LLONG_MIN, '!');
	MARK(decode_long, "lmin=%ld lmax=%ld ulmax=%lu lx=%#lx", LONG_MIN,
	     LONG_MAX, ULONG_MAX, 0xfeedfaceUL);
	MARK(decode_ll, "llmin=%lld ullmax=%llu llx=%llx llo=%llo", LLONG_MIN,
	     ULLONG_MAX, 0x0123456789abcdefULL, 01777ULL);
	MARK(decode_size, "zd=%zd zu=%zu zx=%zx", (ssize_t)-3, SIZE_MAX,
	     (size_t)0xabc);
	MARK(decode_flags,
	     "w=[%8d] l=[%-6d] z=%08x pr=%.3d ws=[%5s] ls=[%-5s] wc=[%3c]",
	     42, -42, 0xbeefU, 7, "ab", "cd", 'k');
	MARK(decode_str, "empty=[%s] prec=%.3s null=%s bad=%s long=%s", "",
	     "abcdef", bad[0], bad[1], decode_long);
	MARK(decode_text, "100%% \"q\" \\ n=%u", 1U);
	/* No names: the fields are arg0 ... arg5. */
	MARK(decode_plain, "%hd %hhu %hhx %c %zd %zu", (short)-2,
	     (unsigned char)U8_MAX, (unsigned char)0xab, 'Q', (ssize_t)-3,
	     SIZE_MAX);
	return 0;
}

static const struct file_operations decode_fops = {
	.owner	= THIS_MODULE,
	.read	= decode_read,
	.llseek	= noop_llseek,
};

static int __init decode_init(void)
{
	memset(decode_long, 'y', sizeof(decode_long) - 1);
	decode_dir = debugfs_create_dir("marker-decode", NULL);
	debugfs_create_file("trigger", 0400, decode_dir, NULL, &decode_fops);
	return 0;
}

static void __exit decode_exit(void)
{
	debugfs_remove(decode_dir);
}

module_init(decode_init);
module_exit(decode_exit);
MODULE_DESCRIPTION("Markers every tracer must decode alike");
MODULE_LICENSE("GPL");
