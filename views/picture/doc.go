// Package picture draws an execution: where every value travelled.
//
// Build turns an execution (scenarios.Execution) into a Picture, from the
// machine's facts only (machine.Event: each load's source and the store
// it read or missed, each commit's store, coherence position and the
// entries it overtook, the invalidations queued, dropped and applied and
// why; machine.Wait for the spans in which a CPU waited), never from the
// sentences package scenarios/words makes of them. A Picture holds:
//
//   - the timeline: one lane per CPU and one for memory, one Row per
//     step, each store's Journey (into the store buffer, visible, the
//     invalidation sent to each other CPU and when each applied it),
//     each load's Read (forwarded, a cache hit up to date or stale with
//     the store it missed, or a miss and where the value came from),
//     the Waits, and marks for what stands out (a stale read, a
//     reordering, an instruction that had to wait);
//   - the event graph (Graph): the accesses per CPU with po, rf, co and
//     fr edges in herd7's names, what orders each po edge (fences,
//     acquire, release, dependencies), the cycle that makes the outcome
//     take a reordering, and for a closest attempt the edges the
//     outcome asked for would need and the cycle they would close.
//
// The renderers draw it: Text (Unicode or ASCII, to a width, folding
// quiet steps to a height; colour through a Paint function, every
// coloured mark also a symbol), SVG (a self-contained document for
// slides, written token by token with encoding/xml) and DOT (the event
// graph for Graphviz). Package views puts Text on the UI's picture page
// and in trace --picture; cmd/smpscope's picture command writes all
// three.
package picture
