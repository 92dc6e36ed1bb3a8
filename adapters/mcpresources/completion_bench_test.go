package mcpresources

import (
	"fmt"
	"testing"
)

// BenchmarkCompletion ranks the doc ids of a 10,000-doc library for a
// typed prefix and for a typo (the edit-distance pass):
//
//	go test ./adapters/mcpserver -run '^$' -bench Completion
func BenchmarkCompletion(b *testing.B) {
	ids := make([]string, 10000)
	for i := range ids {
		ids[i] = fmt.Sprintf("area-%02d/topic-%02d/doc-%03d", i/1000, i/100%10, i%100)
	}
	for _, typed := range []string{"area-07/topic-0", "aera-07/tpoic"} {
		b.Run(typed, func(b *testing.B) {
			for b.Loop() {
				if vs, _ := rankCompletions(typed, ids, maxCompletions); len(vs) == 0 {
					b.Fatal("nothing ranked")
				}
			}
		})
	}
}
