// SPDX-License-Identifier: GPL-2.0
/*
 * Markers: parse a marker format once into argument types.
 *
 * The format is the printf-like string literal of MARK().  Parsing happens
 * when a site connects (boot or module load) or a probe registers with a
 * format, never on the hot path; tracers then walk the types array.
 */

#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/marker_format.h>
#include <linux/sprintf.h>
#include <linux/string.h>

enum marker_len {
	MARKER_LEN_INT,
	MARKER_LEN_LONG,
	MARKER_LEN_LLONG,
	MARKER_LEN_SIZE,
};

/*
 * Skip a decimal width or precision at *@pp; false if it is larger than
 * MARKER_WIDTH_MAX, or '*', which would take an argument.
 */
static bool marker_skip_num(const char **pp)
{
	const char *p = *pp;
	unsigned int n = 0;

	if (*p == '*')
		return false;
	while (isdigit(*p)) {
		n = n * 10 + *p++ - '0';
		if (n > MARKER_WIDTH_MAX)
			return false;
	}
	*pp = p;
	return true;
}

static const char *marker_parse_len(const char *p, enum marker_len *len,
				    bool *sized)
{
	*len = MARKER_LEN_INT;
	*sized = true;
	if (p[0] == 'h') {
		p += p[1] == 'h' ? 2 : 1;
	} else if (p[0] == 'l' && p[1] == 'l') {
		*len = MARKER_LEN_LLONG;
		p += 2;
	} else if (p[0] == 'l') {
		*len = MARKER_LEN_LONG;
		p++;
	} else if (p[0] == 'z') {
		*len = MARKER_LEN_SIZE;
		p++;
	} else {
		*sized = false;
	}
	return p;
}

static const u8 marker_signed[] = {
	[MARKER_LEN_INT]	= MARKER_ARG_S32,
	[MARKER_LEN_LONG]	= MARKER_ARG_LONG,
	[MARKER_LEN_LLONG]	= MARKER_ARG_S64,
	[MARKER_LEN_SIZE]	= MARKER_ARG_SSIZE,
};

static const u8 marker_unsigned[] = {
	[MARKER_LEN_INT]	= MARKER_ARG_U32,
	[MARKER_LEN_LONG]	= MARKER_ARG_ULONG,
	[MARKER_LEN_LLONG]	= MARKER_ARG_U64,
	[MARKER_LEN_SIZE]	= MARKER_ARG_SIZE,
};

/*
 * Parse the conversion after the '%' at *@pp into @conv and advance *@pp
 * past it.  Integers take the flags '-', '0' and '#', a width and a
 * precision; tracers print %c and %s as strings, so those take only '-',
 * a width and, for %s, a precision; %p takes nothing.
 */
static int marker_parse_conv(const char **pp, struct marker_conv *conv)
{
	bool num_flags = false, decorated, prec = false, sized;
	const char *p = *pp;
	enum marker_len len;

	conv->alt = false;
	for (; *p && strchr("-+ #0", *p); p++) {
		/*
		 * libtraceevent before 1.7.3 (Debian 12's trace-cmd and
		 * perf) cannot parse '+' and ' ': it would print every later
		 * conversion with the field before its own.
		 */
		if (*p == '+' || *p == ' ')
			return -EINVAL;
		conv->alt |= *p == '#';
		num_flags |= *p != '-';
	}
	if (!marker_skip_num(&p))
		return -EINVAL;
	if (*p == '.') {
		p++;
		prec = true;
		if (!marker_skip_num(&p))
			return -EINVAL;
	}
	decorated = p != *pp;
	p = marker_parse_len(p, &len, &sized);
	conv->spec = *p++;
	*pp = p;
	switch (conv->spec) {
	case 'd':
	case 'i':
		return marker_signed[len];
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		return marker_unsigned[len];
	case 'c':
		return sized || num_flags || prec ? -EINVAL : MARKER_ARG_CHAR;
	case 's':
		return sized || num_flags ? -EINVAL : MARKER_ARG_STR;
	case 'p':
		/* printk pointer extensions (%pS, %pK...) dereference. */
		if (sized || decorated || isalnum(*p))
			return -EINVAL;
		return MARKER_ARG_PTR;
	default:
		return -EINVAL;
	}
}

/*
 * Find the field name of the conversion at @end in the text [@from, @end):
 * the identifier written right before it with an '=' ("pid=%d"), or
 * before "=0x" ("addr=0x%lx").  Nothing else names a field, so the text
 * around a conversion can be reworded without renaming its field.
 */
static void marker_conv_name(const char *from, const char *end,
			     struct marker_conv *conv)
{
	const char *p = end;

	conv->name = NULL;
	conv->name_len = 0;
	if (p - from >= 3 && (p[-1] == 'x' || p[-1] == 'X') && p[-2] == '0' &&
	    p[-3] == '=')
		p -= 2;
	if (p == from || p[-1] != '=')
		return;
	end = --p;
	while (p > from && (isalnum(p[-1]) || p[-1] == '_'))
		p--;
	if (p == end || isdigit(*p))
		return;
	conv->name = p;
	conv->name_len = end - p;
}

/**
 * marker_format_next - find the next conversion of a marker format
 * @pp: position in the format; advanced past the conversion found
 * @conv: filled with the conversion found
 *
 * The one scanner of marker formats: marker_parse_format() and tracers
 * that need more than the argument types (field names, '#' flags) walk
 * a format with it.  %% is skipped.
 *
 * Context: Any.
 * Return: 1 with @conv filled, 0 at the end of the format, -EINVAL for a
 * malformed or unsupported conversion.
 */
int marker_format_next(const char **pp, struct marker_conv *conv)
{
	const char *p = *pp, *text = *pp;
	int type;

	for (;;) {
		p = strchrnul(p, '%');
		if (!*p) {
			*pp = p;
			return 0;
		}
		if (p[1] != '%')
			break;
		p += 2;
	}
	conv->start = p++;
	marker_conv_name(text, conv->start, conv);
	type = marker_parse_conv(&p, conv);
	if (type < 0)
		return type;
	conv->type = type;
	conv->len = p - conv->start;
	if (conv->len > MARKER_CONV_MAX)
		return -EINVAL;
	*pp = p;
	return 1;
}

/* Tracers escape tabs and newlines; other control bytes are refused. */
static bool marker_text_ok(const char *fmt)
{
	for (; *fmt; fmt++)
		if (!(*fmt >= ' ' && *fmt <= '~') && *fmt != '\n' && *fmt != '\t')
			return false;
	return true;
}

/**
 * marker_parse_format - parse a marker format into argument types
 * @fmt: printf-like format
 * @types: filled with one enum marker_arg_type per argument, or NULL
 * @max: room in @types
 *
 * Accepts %d %i %u %x %X %o with the length modifiers hh, h, l, ll and
 * z, the flags '-', '0' and '#', a width and a precision; %c and %s with
 * '-', a width and (%s) a precision; a bare %p; and %%.  Widths and
 * precisions go up to MARKER_WIDTH_MAX.  Rejects '*' width or precision,
 * the '+' and ' ' flags, printk pointer extensions, every other
 * conversion, text other than printable ASCII, tabs and newlines, and
 * field names (see marker_field_name()) longer than MARKER_NAME_MAX,
 * starting with "common_", named "hitcount" (which hist triggers take as
 * their own count, before any field) or used twice.
 *
 * Context: Any.
 * Return: the number of arguments, -EINVAL for a malformed or unsupported
 * conversion or a bad field name, -E2BIG for more than @max arguments or
 * more than MARKER_MAX_ARGS.
 */
int marker_parse_format(const char *fmt, u8 *types, unsigned int max)
{
	char names[MARKER_MAX_ARGS][MARKER_NAME_MAX + 1];
	struct marker_conv conv;
	unsigned int nr = 0, i;
	int ret;

	if (!fmt || !marker_text_ok(fmt))
		return -EINVAL;
	while ((ret = marker_format_next(&fmt, &conv)) > 0) {
		if (nr >= max || nr >= MARKER_MAX_ARGS)
			return -E2BIG;
		if (conv.name_len > MARKER_NAME_MAX)
			return -EINVAL;
		marker_field_name(&conv, nr, names[nr], sizeof(names[nr]));
		if (str_has_prefix(names[nr], "common_") ||
		    !strcmp(names[nr], "hitcount"))
			return -EINVAL;
		for (i = 0; i < nr; i++)
			if (!strcmp(names[i], names[nr]))
				return -EINVAL;
		if (types)
			types[nr] = conv.type;
		nr++;
	}
	return ret ? ret : nr;
}

/**
 * marker_field_name - name of a conversion's field
 * @conv: conversion @nr of a format, from marker_format_next()
 * @nr: its index
 * @buf: filled with the name, NUL-terminated
 * @size: room in @buf
 *
 * The field is named by the identifier written right before the
 * conversion with an '=' ("pid=%d" and "addr=0x%lx" name pid and addr);
 * any other conversion is arg<nr>, whatever text surrounds it ("pid %d"
 * and "pid: %d" are arg0), so that rewording a message renames no field.
 *
 * Context: Any.
 * Return: the length of the name, as snprintf().
 */
int marker_field_name(const struct marker_conv *conv, unsigned int nr,
		      char *buf, size_t size)
{
	if (conv->name)
		return snprintf(buf, size, "%.*s", (int)conv->name_len,
				conv->name);
	return snprintf(buf, size, "arg%u", nr);
}

/**
 * marker_arg_size - size of an argument of type @type in a record
 * @type: an enum marker_arg_type
 *
 * Context: Any.
 * Return: the size in bytes of the C type; for %s, of the pointer.
 */
size_t marker_arg_size(enum marker_arg_type type)
{
	switch (type) {
	case MARKER_ARG_S32:
	case MARKER_ARG_U32:
	case MARKER_ARG_CHAR:
		return sizeof(int);
	case MARKER_ARG_LONG:
	case MARKER_ARG_ULONG:
		return sizeof(long);
	case MARKER_ARG_S64:
	case MARKER_ARG_U64:
		return sizeof(u64);
	case MARKER_ARG_SSIZE:
	case MARKER_ARG_SIZE:
		return sizeof(size_t);
	case MARKER_ARG_PTR:
	case MARKER_ARG_STR:
		return sizeof(void *);
	}
	return 0;
}
