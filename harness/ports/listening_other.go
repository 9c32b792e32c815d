//go:build !linux

package ports

// listeningOn cannot read the kernel's socket tables here: ok is false and
// WaitListening probes by binding.
func listeningOn(int) (listening, ok bool) { return false, false }
