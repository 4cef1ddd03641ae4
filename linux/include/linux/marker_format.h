/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MARKER_FORMAT_H
#define _LINUX_MARKER_FORMAT_H

/*
 * The formats of markers (see <linux/marker.h>): printf-like string
 * literals, parsed once into the C types of their arguments.
 */

#include <linux/types.h>

/**
 * enum marker_arg_type - C type of one argument, parsed from the format
 * @MARKER_ARG_S32: %d %i (int, also with h and hh)
 * @MARKER_ARG_U32: %u %x %X (unsigned int, also with h and hh)
 * @MARKER_ARG_LONG: %ld %li
 * @MARKER_ARG_ULONG: %lu %lx %lX
 * @MARKER_ARG_S64: %lld %lli
 * @MARKER_ARG_U64: %llu %llx %llX
 * @MARKER_ARG_SSIZE: %zd %zi
 * @MARKER_ARG_SIZE: %zu %zx
 * @MARKER_ARG_PTR: %p, without printk extensions
 * @MARKER_ARG_CHAR: %c (promoted to int)
 * @MARKER_ARG_STR: %s, a pointer the probe must copy with a bound
 */
enum marker_arg_type {
	MARKER_ARG_S32,
	MARKER_ARG_U32,
	MARKER_ARG_LONG,
	MARKER_ARG_ULONG,
	MARKER_ARG_S64,
	MARKER_ARG_U64,
	MARKER_ARG_SSIZE,
	MARKER_ARG_SIZE,
	MARKER_ARG_PTR,
	MARKER_ARG_CHAR,
	MARKER_ARG_STR,
};

/**
 * struct marker_conv - one conversion of a marker format
 * @start: its '%'
 * @len: its length, from the '%' to the conversion character
 * @name: the field name written before it with an '=' ("pid=%d"), not
 *	NUL-terminated; NULL if there is none
 * @name_len: length of @name
 * @type: enum marker_arg_type of its argument
 * @spec: the conversion character ('d', 'x', 's'...)
 * @alt: the '#' flag was given
 */
struct marker_conv {
	const char *start;
	unsigned int len;
	const char *name;
	unsigned int name_len;
	u8 type;
	char spec;
	bool alt;
};

/* Most arguments a site may pass, as for BPF raw tracepoints. */
#define MARKER_MAX_ARGS		12
/* Longest field name, without its NUL. */
#define MARKER_NAME_MAX		31
/* Longest conversion, from its '%' to its conversion character. */
#define MARKER_CONV_MAX		15
/* Largest width or precision of a conversion. */
#define MARKER_WIDTH_MAX	255

int marker_format_next(const char **pp, struct marker_conv *conv);
int marker_parse_format(const char *fmt, u8 *types, unsigned int max);
int marker_field_name(const struct marker_conv *conv, unsigned int nr,
		      char *buf, size_t size);
size_t marker_arg_size(enum marker_arg_type type);

#endif /* _LINUX_MARKER_FORMAT_H */
