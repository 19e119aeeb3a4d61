package litmusgen_test

import (
	"fmt"

	"smpscope/scenarios/litmusgen"
)

// The 3-CPU load-buffering cycle with two grace periods and a full
// barrier: LKMM forbids it (as many grace periods as readers, or more).
func ExampleCycle() {
	src, err := litmusgen.Cycle("G+G+B", "RW")
	if err != nil {
		panic(err)
	}
	fmt.Print(src)
	// Output:
	// C C-cycle-RW-G+G+B
	//
	// {
	// }
	//
	// P0(int *x0, int *x1, int *x2)
	// {
	// 	int r1;
	//
	// 	r1 = READ_ONCE(*x0);
	// 	synchronize_rcu();
	// 	WRITE_ONCE(*x1, 1);
	// }
	//
	// P1(int *x0, int *x1, int *x2)
	// {
	// 	int r1;
	//
	// 	r1 = READ_ONCE(*x1);
	// 	synchronize_rcu();
	// 	WRITE_ONCE(*x2, 1);
	// }
	//
	// P2(int *x0, int *x1, int *x2)
	// {
	// 	int r1;
	//
	// 	r1 = READ_ONCE(*x2);
	// 	smp_mb();
	// 	WRITE_ONCE(*x0, 1);
	// }
	//
	// locations [0:r1; 1:r1; 2:r1; x0; x1; x2]
	// exists (0:r1=1 /\ 1:r1=1 /\ 2:r1=1)
}

// A random program: the same seed always gives the same text.
func ExampleRandom() {
	cfg := litmusgen.Config{MaxCPUs: 2, MaxInstrs: 2, Families: litmusgen.Once | litmusgen.Fence}
	fmt.Println(litmusgen.Random(7, cfg) == litmusgen.Random(7, cfg))
	// Output: true
}
