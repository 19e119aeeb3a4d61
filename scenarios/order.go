package scenarios

import "smpscope/scenarios/syntax"

// The library's order is the one a lesson and a review take: the four
// classic teaching shapes first (message passing, store buffering, load
// buffering, IRIW: the vocabulary every other story is told in), then the
// families that come from kernel patches and reviews (in the order of
// scenarios/library/README.md), then the other classic shapes. The
// picker, smpscope list and the compare command's family list all follow
// it. Within a family variants stay in alphabetical order, so that a
// variant's number ("once 2/4") is the same everywhere.
//
// Each family opens on its broken baseline: the variant in which the
// outcome the story is about happens (LKMM says Sometimes), from which
// the fixes are one ←/→ away. TestLibraryOrder checks that every family
// is listed here and that every baseline is broken.
//
// The kernel-patch families (fromThread) come from the mails in the
// project's seeds; their stories say what comes from the thread and what
// was added to make a test (TestStoriesSayTheirSources).
var libraryOrder = []struct {
	family, baseline string
	fromThread       bool
}{
	{"mp", "once", false},
	{"sb", "once", false},
	{"lb", "once", false},
	{"iriw", "once", false},

	{"ext4-last-group", "rel-acq", true}, // the v2 patch whose claim the review examined
	{"isize", "once", true},
	{"sb-freeze", "writer-nomb", true}, // the writer's smp_mb() is what the RCU patch removes
	{"sb-end-write", "mb-inside-if", true},
	{"userns-extents", "once", true},
	{"aio-ring-tail", "once", true},
	{"fdtable", "once", true},
	{"seqcount", "once", true},
	{"folio-lock-waiters", "split", true},

	{"wrc", "once", false},
	{"isa2", "once", false},
	{"2+2w", "once", false},
	{"s", "once", false},
	{"r", "once", false},
	{"z6.0", "once", false},
	{"rcu-mp", "once", false},
	{"rcu-free", "nosync", false},
	{"corr", "once", false},
	{"corw", "once", false},
	{"cowr", "once", false},
	{"coww", "once", false},
}

// familyRank is where a family comes in the library order; families not
// listed come after all listed ones (then alphabetically).
func familyRank(family string) int {
	for i, o := range libraryOrder {
		if o.family == family {
			return i
		}
	}
	return len(libraryOrder)
}

// isBaseline reports whether variant is its family's broken baseline.
// A family not listed in libraryOrder opens on its first variant whose
// expected verdict is Sometimes (see markBaselines).
func isBaseline(family, variant string) bool {
	for _, o := range libraryOrder {
		if o.family == family {
			return o.baseline == variant
		}
	}
	return false
}

// markBaselines sets Entry.Baseline on one entry of each family of
// entries (sorted by family): the listed baseline, else the first
// variant expected Sometimes, else the first.
func markBaselines(entries []*Entry) {
	for i := 0; i < len(entries); {
		j := i
		for j < len(entries) && entries[j].Family == entries[i].Family {
			j++
		}
		fam := entries[i:j]
		pick := -1
		for k, e := range fam {
			if isBaseline(e.Family, e.Variant) {
				pick = k
			}
		}
		for k, e := range fam {
			if pick < 0 && e.Result == syntax.Sometimes {
				pick = k
			}
		}
		fam[max(pick, 0)].Baseline = true
		i = j
	}
}
