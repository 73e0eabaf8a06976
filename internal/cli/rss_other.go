//go:build !unix

package cli

// peakRSS is not measured on this platform.
func peakRSS() string { return "unknown" }
