/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a policy object tells mglructl about itself, shared by the BPF
 * policies and the loader.
 *
 * A policy describes itself in two ELF sections that libbpf skips and
 * mglructl reads:
 *   MGLRU_EXT_DESC_SEC   one NUL-terminated line: what the policy does
 *   MGLRU_EXT_KNOBS_SEC  one NUL-terminated "name=min:max:doc" per knob
 * Knobs themselves are the policy's `const volatile` globals; mglructl
 * finds and types them through the object's BTF and checks each value
 * against the knob's min and max before anything is loaded.
 */
#ifndef MGLRU_EXT_POLICY_H
#define MGLRU_EXT_POLICY_H

#define MGLRU_EXT_DESC_SEC ".mglru_ext.desc"
#define MGLRU_EXT_KNOBS_SEC ".mglru_ext.knobs"

/* The kernel's struct_ops type every policy implements. */
#define MGLRU_EXT_OPS_TYPE "mglru_ext_ops"

#ifdef __bpf__

#define MGLRU_EXT_POLICY_DESC(text)   \
	const char __mglru_ext_desc[] \
		__attribute__((section(MGLRU_EXT_DESC_SEC), used)) = text

/* Declare a knob: its default, its allowed range and what it does. */
#define MGLRU_EXT_KNOB(type, name, dflt, min, max, doc)                     \
	const volatile type name = dflt;                                    \
	const char __mglru_ext_knob_##name[]                                \
		__attribute__((section(MGLRU_EXT_KNOBS_SEC), used)) = #name \
		"=" #min ":" #max ":" doc

#endif /* __bpf__ */

#endif /* MGLRU_EXT_POLICY_H */
