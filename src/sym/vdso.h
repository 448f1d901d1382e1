/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Our own vdso, which is the image every 64-bit process of this kernel
 * maps: the symbol tables and the unwinder read it instead of the target's.
 */
#ifndef PP_VDSO_H
#define PP_VDSO_H

#include <stddef.h>

/* Where our vdso is mapped and its length (the whole [vdso] mapping). Returns 0 or -errno. */
int vdso__image(const void **img, size_t *len);

/* A memfd holding a copy of that image, for libraries that want a file. Returns fd or -errno. */
int vdso__fd(void);

#endif
