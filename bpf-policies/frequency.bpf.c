// SPDX-License-Identifier: GPL-2.0
/*
 * frequency: keep the page cache that is read more than once.
 *
 * What it decides: the tier a file batch evicts up to. MGLRU counts the
 * reads of a page cache folio through file descriptors while it sits in a
 * generation and files it in a tier by that count: tier 0 read at most
 * once, 1 twice, 2 three or four times; 3 is the workingset (a folio that
 * refaulted soon after it was evicted, or one mapped and used). Eviction
 * takes the oldest generation's folios of the tiers up to the one it is
 * given and moves the others one generation up, where their read count
 * starts again (the workingset mark stays). Here every file batch evicts
 * up to tier `tier` (0: only what was read at most once), so a folio read
 * again since its generation began survives one more generation, and one
 * read again in every generation stays.
 *
 * Why: stock protects a tier only while its refaults outpace tier 0's
 * (a controller over the oldest generation's counters), so a burst of
 * folios read once, a scan or a cold file, evicts the folios read again
 * and again until their refaults catch up. Seed 000's database on 6.12
 * with its writes on a slow disk refaults most of the way to 7.3's figure
 * when file batches evict tier 0 only (docs/results.md, dbslow-6.12).
 *
 * When to use it: page cache read at random with skew (databases,
 * key-value stores) beside reads of files used once. Not where the folios
 * read more than once do not fit: it then evicts them a generation later
 * than stock would, and more of the reads go to disk. Anon batches and
 * reclaim at priority below min_priority (several passes that did not
 * reclaim enough) are stock's: there stock evicts the tiers its refault
 * feedback does not protect, the workingset among them, which this
 * policy's answers never evict.
 */
#include "policy.bpf.h"

MGLRU_EXT_POLICY_DESC(
	"file batches evict only page cache read at most 2^tier times in its generation");

MGLRU_EXT_KNOB(__u32, tier, 0, 0, 3,
	       "highest tier a file batch evicts (0: only folios read once)");
MGLRU_EXT_KNOB(__u32, min_priority, 2, 0, 12,
	       "below this reclaim priority the stock answer stands");

s32 MGLRU_EXT_OP(frequency_choose_type, const struct mglru_ext_ctx *rc)
{
	if (mglru_ext_answer_type(rc->stock) != MGLRU_EXT_FILE)
		return rc->stock;
	if (rc->priority < (s32)min_priority)
		return rc->stock;
	return mglru_ext_type_answer(MGLRU_EXT_FILE, tier);
}

MGLRU_EXT_OPS_DEFINE(frequency_ops) = {
	.choose_type = (void *)frequency_choose_type,
	.flags = MGLRU_EXT_OPS_NO_LRU,
	.name = "frequency",
};
