// Package litmusgen generates Linux-kernel C litmus tests and checks
// smpscope's machine against herd7 on them.
//
// # Generators
//
//   - [Generate] / [Random] build a random test from a seed: 2–4 CPUs,
//     1–4 instructions each, 2–3 locations, drawn from every primitive
//     family smpscope and herd7 both support ([Family], restricted with
//     [Config]). The same seed and Config always give the same text. Every
//     register and every data location is listed in a locations clause, so
//     herd7 prints them all and outcome sets, not only verdicts, can be
//     compared.
//   - [Cycle] / [CycleProgram] and [LockCycle] / [LockCycleProgram] build
//     the cycle families of issue 10: N CPUs over x0…x(N−1), each linked by
//     synchronize_rcu (G), smp_mb (B), an RCU reader (R), release/acquire
//     (A) or nothing (O), in the RW, WR, RR and WW shapes, with the exists
//     clause asking for the cycle; and spin-lock cycles as perfbook's
//     C-SB+l-o-o-u+… tests, with their cmpxchg/xchg variants.
//   - [GraceCycle] / [GraceCycleProgram], [ReadersCycle] and
//     [GraceFamilies] build issue 24's class of grace-period tests: cycles
//     whose CPUs wait for grace periods (once or twice) or are RCU or SRCU
//     readers of every form (nested, control and data dependent, release
//     stores, a pointer published with smp_store_release and read with
//     rcu_dereference), and read-read cycles closed by a CPU that stores
//     every location.
//
// # Oracle
//
// [Herd] runs ../shared/tools/herd7/verdict with a timeout and parses its
// final states. [Oracle.Check] compares them with the machine's outcome
// sets ([ExploreStates]) under the rules of machine/RULES.md:
//
//   - no mode may reach an outcome its hardware model (tso, arm) forbids,
//     nor one LKMM forbids (unless LKMM flags a data race);
//   - TSO mode must reach exactly the tso model's outcomes (minus those
//     LKMM forbids);
//   - ARM-like mode must reach exactly the arm model's, except where a
//     difference machine/RULES.md lists explains a missing outcome
//     (GapCtrlJoin, GapWmbRMW, see classify);
//   - tests with RCU are judged with LKMM in mind: herd7's hardware models
//     treat a grace period as a full fence, so a missing outcome is put
//     down to that (GapRCU) only if the machine reaches it once grace
//     periods are smp_mb().
//
// (Whether the explorer's reductions lose an outcome the machine reaches
// is the machine's differential tests' business: machine/reference_test.go.)
// [Minimize] / [Oracle.MinimizeReport] shrink a
// failing program while it fails the same way; [WriteRegression] keeps it
// as a regression file whose header records herd7's states and what the
// machine must do ([ParseRegression], [Regression.Verify]), so the
// regression test needs no herd7.
//
// # Running it
//
//	go test ./scenarios/litmusgen                      # bounded sample, regressions, families
//	go test ./scenarios/litmusgen -run TestHerdRandom -v -timeout 0 \
//	    -herd.n=20000 -herd.seed=S [-herd.families=hw] \
//	    -herd.minimize=2 -herd.regress=DIR             # long run: counts, minimised failures in DIR
//	go test ./scenarios/litmusgen -run TestImportRegression \
//	    -herd.import=a.litmus,b.litmus -herd.regress=testdata/regress
//	go test ./scenarios/litmusgen -run '^$' -bench Cycles -benchtime 1x
//	go test ./scenarios/litmusgen -run TestGraceSideBySide -grace.sidebyside -v -timeout 0
//
// The tests skip what needs herd7 when ../shared/tools/herd7 is absent.
package litmusgen
