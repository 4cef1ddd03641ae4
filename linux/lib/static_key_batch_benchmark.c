// SPDX-License-Identifier: GPL-2.0
/*
 * What flipping many static keys costs, one by one and in one static key
 * batch.
 *
 * At load, for 1, 10, 100, 1000 and 5000 keys (each with one jump site),
 * the keys are enabled and then disabled, once with static_branch_enable()
 * and static_branch_disable() per key, once with one batch each way, and
 * once in batches of at most 256 keys, what one batch would cost if a
 * text_poke batch still took no more than 256 pokes (the x86 vector
 * before it grew to 4096 entries).
 * Each run reports the time stamp counter (get_cycles()) and ktime spent,
 * the text_poke batches and core-serialising IPI rounds it caused, and
 * how many of the keys' sites took their branch while enabled, which
 * must be every one.  Under QEMU TCG with -icount, the cycle counter
 * counts instructions.
 *
 * <debugfs>/static_key_batch_benchmark/results (root only) shows one
 * "flip,<variant>,<keys>,<value>,<unit>" line per figure.
 */

#include <linux/debugfs.h>
#include <linux/jump_label.h>
#include <linux/jump_label_batch.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/timex.h>

#define SKB_NR_KEYS	5000
#define SKB_BUF_SIZE	8192

static unsigned int max_keys = SKB_NR_KEYS;
module_param(max_keys, uint, 0444);
MODULE_PARM_DESC(max_keys, "Largest number of keys flipped (at most 5000)");

static char *skb_buf;
static size_t skb_len;
static struct dentry *skb_dir;

static __printf(1, 2) void skb_emit(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	skb_len += vscnprintf(skb_buf + skb_len, SKB_BUF_SIZE - skb_len, fmt,
			      args);
	va_end(args);
}

static DEFINE_STATIC_KEY_ARRAY_FALSE(skb_keys, SKB_NR_KEYS);

/* One jump site per key: five functions of 1000 sites. */
#define SKB_SITE(n)							\
	do {								\
		if (static_branch_unlikely(&skb_keys[n]))		\
			hits++;						\
	} while (0)
#define SKB_SITE10(n)							\
	do {								\
		SKB_SITE((n) * 10 + 0); SKB_SITE((n) * 10 + 1);		\
		SKB_SITE((n) * 10 + 2); SKB_SITE((n) * 10 + 3);		\
		SKB_SITE((n) * 10 + 4); SKB_SITE((n) * 10 + 5);		\
		SKB_SITE((n) * 10 + 6); SKB_SITE((n) * 10 + 7);		\
		SKB_SITE((n) * 10 + 8); SKB_SITE((n) * 10 + 9);		\
	} while (0)
#define SKB_SITE100(n)							\
	do {								\
		SKB_SITE10((n) * 10 + 0); SKB_SITE10((n) * 10 + 1);	\
		SKB_SITE10((n) * 10 + 2); SKB_SITE10((n) * 10 + 3);	\
		SKB_SITE10((n) * 10 + 4); SKB_SITE10((n) * 10 + 5);	\
		SKB_SITE10((n) * 10 + 6); SKB_SITE10((n) * 10 + 7);	\
		SKB_SITE10((n) * 10 + 8); SKB_SITE10((n) * 10 + 9);	\
	} while (0)
#define SKB_SITE1000(n)							\
	do {								\
		SKB_SITE100((n) * 10 + 0); SKB_SITE100((n) * 10 + 1);	\
		SKB_SITE100((n) * 10 + 2); SKB_SITE100((n) * 10 + 3);	\
		SKB_SITE100((n) * 10 + 4); SKB_SITE100((n) * 10 + 5);	\
		SKB_SITE100((n) * 10 + 6); SKB_SITE100((n) * 10 + 7);	\
		SKB_SITE100((n) * 10 + 8); SKB_SITE100((n) * 10 + 9);	\
	} while (0)
#define SKB_SITES_FN(k)							\
static noinline unsigned long skb_sites_##k(void)			\
{									\
	unsigned long hits = 0;						\
									\
	SKB_SITE1000(k);						\
	return hits;							\
}

SKB_SITES_FN(0)
SKB_SITES_FN(1)
SKB_SITES_FN(2)
SKB_SITES_FN(3)
SKB_SITES_FN(4)

/* Runs every site: the number of keys whose branch is taken. */
static unsigned long skb_sites(void)
{
	return skb_sites_0() + skb_sites_1() + skb_sites_2() + skb_sites_3() +
	       skb_sites_4();
}

/* Keys @first to @last - 1 in one batch. */
static int skb_flip_batch(unsigned int first, unsigned int last, bool enable)
{
	DEFINE_STATIC_KEY_BATCH(batch);
	unsigned int i;
	int ret = 0;

	for (i = first; i < last && !ret; i++) {
		if (enable)
			ret = static_branch_batch_enable(&batch, &skb_keys[i]);
		else
			ret = static_branch_batch_disable(&batch, &skb_keys[i]);
	}
	if (ret) {
		static_key_batch_discard(&batch);
		return ret;
	}
	return static_key_batch_apply(&batch);
}

/*
 * Keys 0 to @n - 1, one by one (@chunk 0), or in batches of at most
 * @chunk keys.
 */
static int skb_flip(unsigned int n, bool enable, unsigned int chunk)
{
	unsigned int i;
	int ret = 0;

	if (chunk) {
		for (i = 0; i < n && !ret; i += chunk)
			ret = skb_flip_batch(i, min(n, i + chunk), enable);
		return ret;
	}
	for (i = 0; i < n; i++) {
		if (enable)
			static_branch_enable(&skb_keys[i]);
		else
			static_branch_disable(&skb_keys[i]);
	}
	return 0;
}

static void skb_run(unsigned int n, const char *mode, unsigned int chunk)
{
	struct static_key_batch_stats s0, s1;
	unsigned long taken;
	cycles_t c0, c1;
	u64 ns0, ns1;
	int ret;

	static_key_batch_get_stats(&s0);
	ns0 = ktime_get_ns();
	c0 = get_cycles();
	ret = skb_flip(n, true, chunk);
	taken = skb_sites();
	if (!ret)
		ret = skb_flip(n, false, chunk);
	c1 = get_cycles();
	ns1 = ktime_get_ns();
	static_key_batch_get_stats(&s1);
	if (ret) {
		skb_emit("flip,%s,%u,%d,error\n", mode, n, ret);
		return;
	}
	skb_emit("flip,%s,%u,%llu,tsc\n", mode, n, (u64)(c1 - c0));
	skb_emit("flip,%s_ns,%u,%llu,ns\n", mode, n, ns1 - ns0);
	skb_emit("flip,%s_ipi_rounds,%u,%lu,count\n", mode, n,
		 s1.ipi_rounds - s0.ipi_rounds);
	skb_emit("flip,%s_batches,%u,%lu,count\n", mode, n,
		 s1.batches - s0.batches);
	skb_emit("flip,%s_sites_taken,%u,%lu,count\n", mode, n, taken);
}

static ssize_t skb_results_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	return simple_read_from_buffer(ubuf, count, ppos, skb_buf, skb_len);
}

static const struct file_operations skb_results_fops = {
	.owner	= THIS_MODULE,
	.read	= skb_results_read,
	.llseek	= default_llseek,
};

static int __init skb_init(void)
{
	static const unsigned int counts[] = { 1, 10, 100, 1000, 5000 };
	unsigned int i, top = min(max_keys, SKB_NR_KEYS);

	skb_buf = kzalloc(SKB_BUF_SIZE, GFP_KERNEL);
	if (!skb_buf)
		return -ENOMEM;
	skb_emit("flip,batch_max,0,%u,count\n", static_key_batch_max());
	for (i = 0; i < ARRAY_SIZE(counts) && counts[i] <= top; i++) {
		skb_run(counts[i], "one_by_one", 0);
		skb_run(counts[i], "batch", SKB_NR_KEYS);
		skb_run(counts[i], "batch256", 256);
		cond_resched();
	}
	/* The results never change after load: no lock around them. */
	skb_dir = debugfs_create_dir("static_key_batch_benchmark", NULL);
	debugfs_create_file("results", 0400, skb_dir, NULL, &skb_results_fops);
	return 0;
}

static void __exit skb_exit(void)
{
	debugfs_remove_recursive(skb_dir);
	kfree(skb_buf);
}

module_init(skb_init);
module_exit(skb_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Static key batch benchmark: flipping many keys");
