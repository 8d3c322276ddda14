// SPDX-License-Identifier: GPL-2.0
/*
 * scan_resistant: page cache read in a sequential stream goes where
 * eviction takes it first; what is read at random is placed as stock does.
 *
 * What it decides: where a page cache folio joins the generations (the
 * place hook). For each file it remembers where the last folio added
 * ended, for two streams: a folio that starts where one ended, or at most
 * `gap_kb` further (a scan passes over what is still cached without
 * adding it), continues it, and once a stream spans `stream_kb` its
 * folios go to the tail of the oldest generation, the first ones eviction
 * takes. A folio that continues neither is stock's and starts the second
 * stream over, so that reads at random in a file being scanned do not end
 * the scan's stream, and a new scan of the file takes the first stream's
 * place once it is long.
 *
 * Why: stock puts a folio read for the first time in the oldest
 * generations whether it is read by a scan or by a lookup, and eviction
 * takes the oldest generation's folios in the order they came. A full
 * scan of a database larger than its memory brings in more than
 * everything else together and pushes out the folios the lookups read
 * again and again (cache_ext's GET-SCAN). Placed at the oldest tail, the
 * scan's folios are evicted before anything read at random, and the scan
 * itself loses nothing it would have kept: it reads each folio once.
 *
 * When to use it: a memcg whose page cache is read both at random, with
 * reuse, and in long sequential passes that are not read again soon
 * (scans, backups, log replays, searches over trees larger than memory).
 * Not where sequential data is read again before the memcg has cycled
 * through its memory (a file read twice in a row, a loop over data that
 * fits): that data is then evicted first and read from disk again. Anon
 * folios, folios eviction puts back and files it cannot tell apart (no
 * inode) are stock's. A scan's folios are placed when it reads them again
 * after they were evicted, too: stock activates such a refault and puts
 * it in the youngest generation.
 */
#include "policy.bpf.h"

MGLRU_EXT_POLICY_DESC(
	"page cache read in long sequential streams is evicted first");

MGLRU_EXT_KNOB(__u32, stream_kb, 1024, 64, 1048576,
	       "a file's sequential stream this long is a scan (KiB)");
MGLRU_EXT_KNOB(__u32, gap_kb, 256, 0, 65536,
	       "a stream goes on past this much of its file still cached (KiB)");

struct stream {
	/* the page offset the next folio of the stream starts at */
	__u64 next;
	/* pages of the file the stream has spanned so far */
	__u64 pages;
};

/* a file's streams: [0] the longer-lived one, [1] the newest */
struct streams {
	struct stream s[2];
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, struct mglru_ext_file_key);
	__type(value, struct streams);
} files SEC(".maps");

/* Whether @s continues at @fc's folio; if it does, it takes the folio. */
static __always_inline bool stream_takes(struct stream *s,
					 const struct mglru_ext_folio_ctx *fc)
{
	__u64 end = fc->index + fc->nr_pages;

	if (fc->index < s->next || fc->index - s->next > gap_kb / 4)
		return false;
	s->pages += end - s->next;
	s->next = end;
	return true;
}

s32 MGLRU_EXT_OP(scan_resistant_place, const struct mglru_ext_folio_ctx *fc)
{
	struct mglru_ext_file_key key = MGLRU_EXT_FILE_KEY(fc);
	/* in pages of 4 KiB */
	__u64 scan_pages = stream_kb / 4;
	struct streams *f, fresh = {};
	struct stream *s;

	if (!mglru_ext_folio_is_read(fc))
		return fc->stock;

	f = bpf_map_lookup_elem(&files, &key);
	if (!f) {
		fresh.s[0].next = fc->index + fc->nr_pages;
		fresh.s[0].pages = fc->nr_pages;
		bpf_map_update_elem(&files, &key, &fresh, BPF_NOEXIST);
		return fc->stock;
	}
	if (stream_takes(&f->s[0], fc)) {
		s = &f->s[0];
	} else if (stream_takes(&f->s[1], fc)) {
		s = &f->s[1];
		/* a new scan of the file outlives the old one's stream */
		if (s->pages >= scan_pages || f->s[0].pages < scan_pages) {
			f->s[0] = *s;
			s = &f->s[0];
			f->s[1].next = 0;
			f->s[1].pages = 0;
		}
	} else {
		f->s[1].next = fc->index + fc->nr_pages;
		f->s[1].pages = fc->nr_pages;
		return fc->stock;
	}
	if (s->pages < scan_pages)
		return fc->stock;
	return mglru_ext_place_answer(MGLRU_EXT_PLACE_AGE_MASK, true);
}

MGLRU_EXT_OPS_DEFINE(scan_resistant_ops) = {
	.place = (void *)scan_resistant_place,
	.flags = MGLRU_EXT_OPS_NO_LRU,
	.name = "scan_resistant",
};
