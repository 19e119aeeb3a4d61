//go:build !unix

package scenarios

// Elsewhere there are no FIFOs that block in open.
const oNonblock = 0
