package machine

// temporary (speed2 debugging)
func SetTrace(f func(string)) { setTrace = f }
