// SPDX-License-Identifier: GPL-2.0
/*
 * 512 markers in one module, for tools that enable markers by the
 * hundred: marker_many_000 ... marker_many_777 (three octal digits),
 * each "nr=%d" with its own number.  Opening <debugfs>/marker-many/trigger
 * hits every one of them once, in order.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/marker.h>
#include <linux/module.h>

/* One function with the eight sites marker_many_<n>0 ... <n>7. */
#define MANY_8(n)							\
static noinline void many_hit_##n(void)					\
{									\
	MARK(marker_many_##n##0, "nr=%d", 0##n##0);			\
	MARK(marker_many_##n##1, "nr=%d", 0##n##1);			\
	MARK(marker_many_##n##2, "nr=%d", 0##n##2);			\
	MARK(marker_many_##n##3, "nr=%d", 0##n##3);			\
	MARK(marker_many_##n##4, "nr=%d", 0##n##4);			\
	MARK(marker_many_##n##5, "nr=%d", 0##n##5);			\
	MARK(marker_many_##n##6, "nr=%d", 0##n##6);			\
	MARK(marker_many_##n##7, "nr=%d", 0##n##7);			\
}

MANY_8(00) MANY_8(01) MANY_8(02) MANY_8(03)
MANY_8(04) MANY_8(05) MANY_8(06) MANY_8(07)
MANY_8(10) MANY_8(11) MANY_8(12) MANY_8(13)
MANY_8(14) MANY_8(15) MANY_8(16) MANY_8(17)
MANY_8(20) MANY_8(21) MANY_8(22) MANY_8(23)
MANY_8(24) MANY_8(25) MANY_8(26) MANY_8(27)
MANY_8(30) MANY_8(31) MANY_8(32) MANY_8(33)
MANY_8(34) MANY_8(35) MANY_8(36) MANY_8(37)
MANY_8(40) MANY_8(41) MANY_8(42) MANY_8(43)
MANY_8(44) MANY_8(45) MANY_8(46) MANY_8(47)
MANY_8(50) MANY_8(51) MANY_8(52) MANY_8(53)
MANY_8(54) MANY_8(55) MANY_8(56) MANY_8(57)
MANY_8(60) MANY_8(61) MANY_8(62) MANY_8(63)
MANY_8(64) MANY_8(65) MANY_8(66) MANY_8(67)
MANY_8(70) MANY_8(71) MANY_8(72) MANY_8(73)
MANY_8(74) MANY_8(75) MANY_8(76) MANY_8(77)

static void (* const many_hits[])(void) = {
	many_hit_00, many_hit_01, many_hit_02, many_hit_03,
	many_hit_04, many_hit_05, many_hit_06, many_hit_07,
	many_hit_10, many_hit_11, many_hit_12, many_hit_13,
	many_hit_14, many_hit_15, many_hit_16, many_hit_17,
	many_hit_20, many_hit_21, many_hit_22, many_hit_23,
	many_hit_24, many_hit_25, many_hit_26, many_hit_27,
	many_hit_30, many_hit_31, many_hit_32, many_hit_33,
	many_hit_34, many_hit_35, many_hit_36, many_hit_37,
	many_hit_40, many_hit_41, many_hit_42, many_hit_43,
	many_hit_44, many_hit_45, many_hit_46, many_hit_47,
	many_hit_50, many_hit_51, many_hit_52, many_hit_53,
	many_hit_54, many_hit_55, many_hit_56, many_hit_57,
	many_hit_60, many_hit_61, many_hit_62, many_hit_63,
	many_hit_64, many_hit_65, many_hit_66, many_hit_67,
	many_hit_70, many_hit_71, many_hit_72, many_hit_73,
	many_hit_74, many_hit_75, many_hit_76, many_hit_77,
};

static struct dentry *many_dir;

static int many_open(struct inode *inode, struct file *file)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(many_hits); i++)
		many_hits[i]();
	return 0;
}

static const struct file_operations many_fops = {
	.owner	= THIS_MODULE,
	.open	= many_open,
	.llseek	= default_llseek,
};

static int __init many_init(void)
{
	many_dir = debugfs_create_dir("marker-many", NULL);
	debugfs_create_file("trigger", 0400, many_dir, NULL, &many_fops);
	return 0;
}

static void __exit many_exit(void)
{
	debugfs_remove(many_dir);
}

module_init(many_init);
module_exit(many_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("@EXPORTER@");
MODULE_DESCRIPTION("512 marker sites, for tests of enabling many markers");
