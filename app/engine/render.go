package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/librarian/librarian/domain/knowledge"
)

// Rendering: pure functions from the engine's values to the text an agent
// reads. renderLocations follows seed 004's example to the character.

func renderEngineAnswer(a knowledge.EngineAnswer) string {
	if a.Busy != nil {
		return renderBusy(*a.Busy)
	}
	text := strings.TrimRight(a.Text, "\n")
	if a.Provider != "" {
		text += "\n\n(provider: " + a.Provider + ")"
	}
	return text
}

func renderBusy(b knowledge.Busy) string {
	var s strings.Builder
	s.WriteString("The engine is busy and did not answer.")
	if b.HasPosition {
		fmt.Fprintf(&s, " Your request is number %d in its queue.", b.Position)
	}
	if b.HasETA {
		fmt.Fprintf(&s, " Try again in about %s.", engineDuration(b.ETA))
	} else {
		s.WriteString(" Try again in a minute.")
	}
	return s.String()
}

// engineDuration is a wait or an age in its two largest units: "45 s",
// "3 min", "2 h 5 min", "3 d 4 h". Seconds and minutes round up (a wait is
// never understated); hours and days are cut to the minute and the hour.
func engineDuration(d time.Duration) string {
	secs := max(int64(math.Ceil(d.Seconds())), 0)
	switch {
	case secs < 120:
		return fmt.Sprintf("%d s", secs)
	case secs < 3600:
		return fmt.Sprintf("%d min", (secs+59)/60)
	case secs < 86400:
		return fmt.Sprintf("%d h %d min", secs/3600, secs%3600/60)
	default:
		return fmt.Sprintf("%d d %d h", secs/86400, secs%86400/3600)
	}
}

func renderLocations(query string, loc knowledge.Locations) string {
	var b strings.Builder
	source := loc.Source
	if source == "" {
		source = "unknown"
	}
	if len(loc.Hits) == 0 {
		fmt.Fprintf(&b, "No locations found for '%s' (source: %s).\n", query, source)
	} else {
		fmt.Fprintf(&b, "Locations for '%s' (source: %s):\n", query, source)
	}
	for _, h := range loc.Hits {
		fmt.Fprintf(&b, "- [%s] %s ->", h.Kind, h.Name)
		if h.File != "" {
			b.WriteString(" " + h.File)
			if h.Line > 0 {
				fmt.Fprintf(&b, ":%d", h.Line)
			}
		}
		if h.Signature != "" {
			b.WriteString("  " + h.Signature)
		}
		if h.Stale {
			b.WriteString("  [stale: the file changed since it was indexed; check the line]")
		}
		b.WriteString("\n")
		if h.Kind == "entry" && len(h.DependsOn) > 0 {
			b.WriteString("    depends_on: " + strings.Join(h.DependsOn, ", ") + "\n")
		}
	}
	switch {
	case loc.ExcludedHits == 1:
		b.WriteString("(1 hit excluded by this session's guidance)\n")
	case loc.ExcludedHits > 1:
		fmt.Fprintf(&b, "(%d hits excluded by this session's guidance)\n", loc.ExcludedHits)
	}
	if f := strings.TrimRight(loc.Footer, "\n"); f != "" {
		b.WriteString(f + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

func renderDependencies(entryID string, d knowledge.Dependencies) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Dependencies of '%s':\n", entryID)
	list := func(name string, items []string) {
		if len(items) == 0 {
			fmt.Fprintf(&b, "%s: none\n", name)
			return
		}
		fmt.Fprintf(&b, "%s (%d):\n", name, len(items))
		for _, it := range items {
			b.WriteString("- " + it + "\n")
		}
	}
	list("depends_on", d.DependsOn)
	list("dependents", d.Dependents)
	return strings.TrimRight(b.String(), "\n")
}

const engineTimeLayout = "2006-01-02 15:04:05 UTC"

func renderEngineStatus(s knowledge.EngineStatus, now time.Time) string {
	var b strings.Builder
	switch {
	case s.IndexBuiltAt.IsZero():
		b.WriteString("Index age: unknown (the status has no index.built_at)\n")
	case s.IndexBuiltAt.After(now):
		fmt.Fprintf(&b, "Index age: 0 s (index.built_at %s is %s ahead of this machine's clock)\n",
			s.IndexBuiltAt.UTC().Format(engineTimeLayout), engineDuration(s.IndexBuiltAt.Sub(now)))
	default:
		fmt.Fprintf(&b, "Index age: %s (built %s)\n", engineDuration(now.Sub(s.IndexBuiltAt)), s.IndexBuiltAt.UTC().Format(engineTimeLayout))
	}
	b.WriteString("Engine status:\n")
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, s.JSON, "", "  "); err != nil {
		b.Write(s.JSON)
	} else {
		b.Write(pretty.Bytes())
	}
	return strings.TrimRight(b.String(), "\n")
}

func renderGuideStored(r knowledge.GuidanceReceipt) string {
	var parts []string
	if r.Version != "" {
		parts = append(parts, "version "+r.Version)
	}
	if m := renderMoment(r.ExpiresAt); m != "" {
		parts = append(parts, "expires "+m)
	}
	if len(parts) == 0 {
		return "Guidance stored."
	}
	return "Guidance stored: " + strings.Join(parts, ", ") + "."
}

func renderMoment(m knowledge.Moment) string {
	if !m.At.IsZero() {
		return m.At.UTC().Format(engineTimeLayout)
	}
	return m.Text
}

func renderInteractions(session string, rows []knowledge.Interaction) string {
	if len(rows) == 0 {
		return fmt.Sprintf("No interactions logged for session %s.", session)
	}
	var b strings.Builder
	noun := "interactions"
	if len(rows) == 1 {
		noun = "interaction"
	}
	fmt.Fprintf(&b, "Session log for %s (%d %s):\n", session, len(rows), noun)
	for _, r := range rows {
		var head []string
		if t := renderMoment(r.At); t != "" {
			head = append(head, t)
		}
		if r.Kind != "" {
			head = append(head, "["+r.Kind+"]")
		}
		if r.Caller != "" {
			head = append(head, r.Caller+":")
		}
		line := strings.Join(head, " ")
		if r.Query != "" {
			if line != "" {
				line += " "
			}
			line += fmt.Sprintf("%q", r.Query)
		}
		var notes []string
		if r.GuidanceVersion != "" {
			notes = append(notes, "guidance v"+strings.TrimPrefix(r.GuidanceVersion, "v"))
		}
		if r.ExcludedHits > 0 {
			notes = append(notes, fmt.Sprintf("%d excluded", r.ExcludedHits))
		}
		if r.Provider != "" {
			notes = append(notes, "provider "+r.Provider)
		}
		if r.Session != "" && r.Session != session {
			notes = append(notes, "session "+r.Session)
		}
		if len(notes) > 0 {
			line += " (" + strings.Join(notes, ", ") + ")"
		}
		if line == "" {
			line = "(an empty row)"
		}
		b.WriteString("- " + line + "\n")
		if len(r.Served) > 0 {
			b.WriteString("    served: " + strings.Join(r.Served, ", ") + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
