//go:build unix

package scenarios

import "syscall"

const oNonblock = syscall.O_NONBLOCK
