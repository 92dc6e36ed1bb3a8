//go:build race

package library_test

// raceDetector: this test binary runs under the race detector, which
// makes the pure-Go SQLite a dozen times slower.
const raceDetector = true
