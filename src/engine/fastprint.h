/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A compiled tracepoint printer: the event's print format is parsed once
 * into literal segments and conversions over pre-built expression trees,
 * so printing a record costs no re-parsing of the format or its numeric
 * atoms.  Output is byte-identical to tep_print_event(..., "%s",
 * TEP_PRINT_INFO); formats using anything it cannot reproduce exactly are
 * refused at build time, odd records are refused at print time, and the
 * caller then uses libtraceevent.
 */
#ifndef PP_FASTPRINT_H
#define PP_FASTPRINT_H

struct tep_handle;
struct tep_event;
struct fastprint;

/* NULL if the format uses anything this printer does not support exactly (or no memory). */
struct fastprint *fastprint__new(struct tep_handle *tep, struct tep_event *ev);
void fastprint__delete(struct fastprint *fp);

/*
 * Format the payload of the raw tracepoint record @raw (@size bytes) into
 * @buf (@len bytes, always NUL-terminated when @len > 0).  Returns the
 * length written, or -1 if the caller must fall back to tep_print_event
 * for this record: a field or string outside the record, a division by
 * zero, or output that does not fit in @buf.
 */
int fastprint__format(struct fastprint *fp, const void *raw, int size, char *buf, int len);

#endif
