/* SPDX-License-Identifier: GPL-2.0 */
/* ppwork:sematick(i), fired only while a tracer holds its semaphore: returns 1 then. */
long pp_sematick(long i);
