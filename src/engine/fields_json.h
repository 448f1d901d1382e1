/* SPDX-License-Identifier: GPL-2.0 */
/* --json's decoding of a tracepoint's fields, worked out once per event (fields_json.c). */
#ifndef PP_FIELDS_JSON_H
#define PP_FIELDS_JSON_H

struct tep_event;
struct jfields;

/* NULL when out of memory (the fields then print as an empty object). */
struct jfields *jfields__new(struct tep_event *ev);
void jfields__delete(struct jfields *jf);

#endif
