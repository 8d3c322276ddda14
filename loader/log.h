/* SPDX-License-Identifier: GPL-2.0 */
/* libbpf's messages: shown with -v, otherwise kept for error summaries. */
#ifndef MGLRUCTL_LOG_H
#define MGLRUCTL_LOG_H

#include <stdbool.h>
#include <stddef.h>

void log_setup(bool verbose);

/* Forget what libbpf said so far. */
void log_clear(void);

/* Whether libbpf printed a verifier log since log_clear(). */
bool log_has_verifier_log(void);

/* The verifier's verdict: the last meaningful line of its log. */
void log_verifier_summary(char *buf, size_t len);

#endif /* MGLRUCTL_LOG_H */
