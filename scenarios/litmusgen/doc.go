// Package litmusgen generates Linux-kernel C litmus tests and checks
// smpscope's machine against herd7 on them.
//
//   - [Generate] / [Random] build a random test from a seed: 2–4 CPUs,
//     1–4 instructions each, 2–3 locations, drawn from every primitive
//     family smpscope and herd7 both support ([Family]). The same seed and
//     [Config] always give the same text. Every register and every data
//     location is listed in a locations clause, so herd7 prints them all
//     and outcome sets, not only verdicts, can be compared.
//   - [Cycle] and [LockCycle] build the cycle families of issue 10:
//     N CPUs over x0…x(N−1), linked by synchronize_rcu, smp_mb, RCU
//     readers or release/acquire, with the exists clause asking for the
//     cycle.
//   - [Herd] runs ../shared/tools/herd7/verdict with a timeout and parses
//     its final states; [Check] compares them with the machine's outcome
//     sets in both modes under the rules of shared/design/machine.md, and
//     [Minimize] shrinks a disagreeing program while it still disagrees the
//     same way.
package litmusgen
