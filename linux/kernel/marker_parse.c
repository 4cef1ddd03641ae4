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
#include <linux/string.h>

enum marker_len {
	MARKER_LEN_INT,
	MARKER_LEN_LONG,
	MARKER_LEN_LLONG,
	MARKER_LEN_SIZE,
};

/* Skip flags, width and precision; '*' would take an argument. */
static const char *marker_skip_spec(const char *p)
{
	while (*p && strchr("-+ #0", *p))
		p++;
	if (*p == '*')
		return NULL;
	while (isdigit(*p))
		p++;
	if (*p == '.') {
		p++;
		if (*p == '*')
			return NULL;
		while (isdigit(*p))
			p++;
	}
	return p;
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

/* Type of the conversion at @p, which is advanced past it; -EINVAL. */
static int marker_parse_conv(const char **pp)
{
	enum marker_len len;
	const char *p;
	bool sized;
	char conv;

	p = marker_skip_spec(*pp);
	if (!p)
		return -EINVAL;
	p = marker_parse_len(p, &len, &sized);
	conv = *p++;
	*pp = p;
	switch (conv) {
	case 'd':
	case 'i':
		return marker_signed[len];
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		return marker_unsigned[len];
	case 'c':
		return sized ? -EINVAL : MARKER_ARG_CHAR;
	case 's':
		return sized ? -EINVAL : MARKER_ARG_STR;
	case 'p':
		/* printk pointer extensions (%pS, %pK...) dereference. */
		if (sized || isalnum(*p))
			return -EINVAL;
		return MARKER_ARG_PTR;
	default:
		return -EINVAL;
	}
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
	const char *p = *pp;
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
	conv->alt = false;
	for (; *p && strchr("-+ #0", *p); p++)
		conv->alt |= *p == '#';
	type = marker_parse_conv(&p);
	if (type < 0)
		return type;
	conv->type = type;
	conv->spec = p[-1];
	*pp = p;
	return 1;
}

/**
 * marker_parse_format - parse a marker format into argument types
 * @fmt: printf-like format
 * @types: filled with one enum marker_arg_type per argument, or NULL
 * @max: room in @types
 *
 * Accepts %d %i %u %x %X %o %c %s %p, the length modifiers hh, h, l, ll
 * and z on integer conversions, flags, a decimal width and precision, and
 * %%.  Rejects '*' width or precision, printk pointer extensions and
 * every other conversion.
 *
 * Context: Any.
 * Return: the number of arguments, -EINVAL for a malformed or unsupported
 * conversion, -E2BIG for more than @max arguments.
 */
int marker_parse_format(const char *fmt, u8 *types, unsigned int max)
{
	struct marker_conv conv;
	unsigned int nr = 0;
	int ret;

	if (!fmt)
		return -EINVAL;
	while ((ret = marker_format_next(&fmt, &conv)) > 0) {
		if (nr >= max)
			return -E2BIG;
		if (types)
			types[nr] = conv.type;
		nr++;
	}
	return ret ? ret : nr;
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
